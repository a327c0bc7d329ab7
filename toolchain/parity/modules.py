"""Which modules the parity vectors cover: every module of hermes.core, plus the other modules whose
functions touch neither `vscode` nor Node (they take and return plain values)."""
from pathlib import Path

SOURCES = Path(__file__).resolve().parents[2] / 'py_src'

PURE_OUTSIDE_CORE = [
    'hermes.ui.panel.protocol',  # the webview message validator
    'hermes.cli.args',  # CLI argument parsing
    'hermes.cli.select_window',  # which VS Code window the CLI talks to
    'hermes.cli.health',  # report formatting (the async checks are not replayed)
    'hermes.net.guard',  # Host / Origin / token decisions and request targets
    'hermes.net.llm_client',  # endpoint normalisation, Ollama model info, error and retry texts
    'hermes.net.mcp.client',  # URLs, ports, HTTP error texts
    'hermes.cli.stdio_bridge',  # JSON-RPC message classification
    'hermes.host.git',  # git status / branch parsing, the read-only allowlist
    'hermes.host.language',  # words, identifiers, symbol and hover texts
    'hermes.ui.panel.view',  # the webview HTML and its CSP
    'hermes.ui.panel.errors',  # the side panel's error banner: text and actions
]

# Classes whose instances are passed as arguments by their fields (replay.js rebuilds them; a
# callable field such as Tool.handler becomes a function that must not be called).
ADAPTED_CLASSES = {
    'Tool': 'hermes.core.tools',
}

# Functions whose recorded calls cannot be compared, with the reason (listed as not covered). Functions
# that call the clock or a random source themselves (now_ms(), randomBytes(), …) are found by record.py.
NOT_REPLAYED = {
    'hermes.host.git:directory_of': "reads the workspace folders (the CPython shim's vs the node fake's)",
}

# Text that legitimately differs between the platforms, per function: a regex whose matches are
# replaced by '…' on both sides before comparing (results and exception messages), and why.
EQUIVALENT = {
    'hermes.core.llm_wire:parse_arguments': [
        r'invalid JSON \([^"]*\)', "quotes the JSON parser's own message (Python's json vs JS JSON.parse)"],
}


def core_modules():
    folder = SOURCES / 'hermes' / 'core'
    return ['hermes.core.' + path.stem for path in sorted(folder.glob('*.py')) if path.stem != '__init__']


def recorded_modules():
    return core_modules() + PURE_OUTSIDE_CORE
