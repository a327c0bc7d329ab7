"""The environment a user's terminal holds, for the CLIs the tests run in one (tests/door_cli.py, and VS Code's own
terminals through tests/e2e/vscode_server.py)."""
import re

# Ink (the UI of Gemini CLI and other agent CLIs) draws nothing until the program exits when it sees `CI`,
# `CONTINUOUS_INTEGRATION` or any `CI_*` variable (npm is-in-ci): in a CI run the CLI would connect to the IDE and
# never show its prompt. A user's terminal has none of them.
CI_MARK = re.compile(r'CI$|CI_|CONTINUOUS_INTEGRATION$')
# What a user's own shell may hold that would route a scripted CLI elsewhere: agents' keys, proxies, an outer tmux.
AGENT_SETTING = re.compile(r'(ANTHROPIC|OPENAI|CODEX|GEMINI|GOOGLE|CLAUDE|QWEN)_|HTTPS?_PROXY|ALL_PROXY|TMUX', re.I)


def without_ci_marks(environment):
    return {key: value for key, value in environment.items() if not CI_MARK.match(key)}


def as_a_users_terminal(environment):
    """`environment` with neither the marks of a CI run nor agents' settings of the outer shell."""
    return {key: value for key, value in without_ci_marks(environment).items() if not AGENT_SETTING.match(key)}
