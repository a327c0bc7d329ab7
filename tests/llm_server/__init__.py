"""The scripted OpenAI-compatible LLM server and the scenarios shared by the CPython and node runs."""
