"""Codex's config.toml against the scripted OpenAI Responses server (tests/llm_server/openai_responses.py; Codex has
no "chat" wire API), offline: one source for the real-clients layer's Codex CLI (tests/clients/test_codex.py) and
the integration layer's codex-acp (tests/integration/test_acp_agents.py)."""
from pathlib import Path

MODEL = 'gpt-5.5'  # a model Codex knows (an unknown one gets a "model metadata not found" warning per turn)
API_KEY_VARIABLE = 'SCRIPTED_MODEL_API_KEY'  # where Codex reads the scripted provider's key
# Offline: no update check, analytics, feedback, plugins (without `plugins = false` it reaches out to the internet).
CONFIG = '''model = "{model}"
model_provider = "scripted"
approval_policy = "never"
sandbox_mode = "read-only"
check_for_update_on_startup = false
suppress_unstable_features_warning = true

[model_providers.scripted]
name = "Scripted"
base_url = "{base_url}/v1"
wire_api = "responses"
env_key = "{api_key_variable}"

[analytics]
enabled = false

[feedback]
enabled = false

[features]
plugins = false
apps = false
remote_plugin = false
tool_suggest = false
skill_mcp_dependency_install = false
'''


def write_codex_config(codex_home, base_url):
    """`codex_home`/config.toml (CODEX_HOME): the scripted provider at `base_url` (its key in API_KEY_VARIABLE)."""
    folder = Path(codex_home)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / 'config.toml').write_text(CONFIG.format(model=MODEL, base_url=base_url,
                                                      api_key_variable=API_KEY_VARIABLE))
