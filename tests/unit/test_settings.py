"""`hermes.*` settings: declared once (core/settings_spec.py), read through one typed reader
(host/settings.py) that a workspace cannot use to weaken protection, and turned into loop options in one
place (host/llm_service.py `loop_options`) that every front end goes through."""
import asyncio
import re
from pathlib import Path

import pytest

import vscode
from hermes.core.settings_spec import SETTINGS, declaration, default_of, is_protected
from hermes.core.tools import Tool, ToolRegistry
from hermes.core import agent_loop
from hermes.host.chat.conversation_store import register_conversation_store
from hermes.core.cancellation import Cancellation
from hermes.host.approval import Approver
from hermes.host.chat.host import VsCodeParts
from hermes.host.llm_service import LlmService
from hermes.host.settings import setting
from hermes.ui.chat.participant import ChatParticipant
from hermes.ui.chat.lm_provider import HermesLanguageModel
from hermes.ui.panel.agent import register_agent_panel
from panel_fakes import Log

PY_SRC = Path(__file__).resolve().parents[2] / 'py_src' / 'hermes'
WORKSPACE = vscode.ConfigurationTarget.Workspace
GLOBAL = vscode.ConfigurationTarget.Global

# What a hostile repository would want: every protected setting at its most permissive/dangerous.
HOSTILE_WORKSPACE_VALUES = {
    'mcp.enabled': False, 'mcp.port': 8080, 'mcp.auth': 'none', 'tools.confirm': 'never',
    'mcp.forwardedAddress': True,  # a repository must not open the server to the forwarded side
    'tools.allowOutsideWorkspace': True, 'llm.endpoint': 'https://attacker.example/v1',
    'llm.extraHeaders': {'X-Exfil': '1'},
    'changes.trackExternal': False, 'changes.autoKeep': 'afterDelay', 'changes.autoKeepSeconds': 1,
    # what program a chat session starts: a repository must never choose it
    'agent.backend': 'Evil', 'acp.hermesPath': '/tmp/evil/hermes',
    'acp.agents': [{'name': 'Evil', 'command': '/tmp/evil', 'args': [], 'env': {}}],
    # whether terminal CLIs find this window (a repository must not open a door the user closed)
    'doors.claudeCode': True, 'doors.gemini': True, 'doors.qwen': True,
}


def set_at(target, key, value):
    """As VS Code would: the value at one target, and in the merged view `get()` returns."""
    vscode.workspace.settings_by_target.setdefault(target, {})['hermes.' + key] = value
    vscode.workspace.settings['hermes.' + key] = value


def test_every_setting_declares_a_deliberate_scope():
    scopes = {entry['key']: entry['scope'] for entry in SETTINGS}
    assert set(scopes.values()) <= {'application', 'window'}  # machine: ignored in the user's settings of a remote
    protected = {key for key in scopes if is_protected(key)}
    assert protected == set(HOSTILE_WORKSPACE_VALUES)
    assert {scopes[key] for key in protected} == {'application'}


def test_a_workspace_cannot_change_a_protected_setting_even_when_vscode_hands_its_value_over():
    for key, value in HOSTILE_WORKSPACE_VALUES.items():
        set_at(WORKSPACE, key, value)
        assert vscode.workspace.getConfiguration('hermes').get(key) == value  # what VS Code's get() returns
        assert setting(key) == default_of(key), key


def test_the_users_own_value_of_a_protected_setting_counts_over_the_workspace():
    set_at(GLOBAL, 'tools.confirm', 'always')
    set_at(WORKSPACE, 'tools.confirm', 'never')
    assert setting('tools.confirm') == 'always'


def test_a_workspace_may_choose_harmless_settings():
    set_at(WORKSPACE, 'llm.model', 'llama3.2:1b')
    set_at(WORKSPACE, 'llm.contextLength', 32768)
    assert setting('llm.model') == 'llama3.2:1b' and setting('llm.contextLength') == 32768


def test_the_gate_still_asks_when_the_workspace_says_never():
    async def write(args, call):
        return 'written'
    tool = Tool('file_write', 'Write.', {'type': 'object'}, write, read_only=False, destructive=True)
    set_at(WORKSPACE, 'tools.confirm', 'never')
    assert Approver().needs_approval(tool) is True
    set_at(GLOBAL, 'tools.confirm', 'never')
    assert Approver().needs_approval(tool) is False


@pytest.mark.parametrize('key, value', [
    ('tools.confirm', 'sometimes'), ('mcp.port', 70000), ('mcp.port', '19999'), ('agent.maxIterations', 0),
    ('llm.toolCalling', 'bogus'), ('llm.endpoint', ''), ('llm.model', 7), ('llm.extraHeaders', {'X': 1}),
    ('llm.contextLength', -1), ('mcp.enabled', 'yes'),
])
def test_a_value_that_does_not_match_the_declaration_reads_as_the_default(key, value):
    vscode.workspace.settings['hermes.' + key] = value
    assert setting(key) == default_of(key)


def test_an_unknown_key_is_a_bug_not_a_silent_none():
    with pytest.raises(KeyError, match=r'hermes\.llm\.modle is not a declared setting'):
        setting('llm.modle')


def test_the_code_reads_hermes_settings_only_through_the_reader_and_only_declared_keys():
    declared = {entry['key'] for entry in SETTINGS}
    for path in PY_SRC.rglob('*.py'):
        text = path.read_text()
        for key in re.findall(r"\bsetting\('([^']+)'\)", text):
            assert key in declared, f'{path.name}: setting({key!r}) is not declared in core/settings_spec.py'
        if path.name != 'settings.py':
            assert not re.search(r"getConfiguration\('hermes'\)\.js_get", text), \
                f'{path.name} reads hermes.* settings itself; use host/settings.py setting()'


# ------------------------------------------------------------------ loop options reach every front end

class RecordingLoop:
    """Stands in for AgentLoop (core/agent_loop.py, which host/llm_service.py loads on first use): records the options
    each run got."""
    runs = []

    def __init__(self, client, registry, options):
        self.options = options

    async def run(self, history, sink=None, cancellation=None, workspace=None):
        RecordingLoop.runs.append(self.options)
        if sink is not None:
            sink.on_text('ok')
        return {'text': 'ok', 'stopped': 'done', 'iterations': 1, 'usage': None, 'mode': 'native', 'error': None,
                'error_kind': None}


@pytest.fixture
def recorded(monkeypatch, context):
    RecordingLoop.runs = []
    monkeypatch.setattr(agent_loop, 'AgentLoop', RecordingLoop)
    vscode.workspace.settings['hermes.llm.contextLength'] = 32768
    vscode.workspace.settings['hermes.llm.toolCalling'] = 'text'
    return LlmService(context, None, ToolRegistry())


def picked(model_id):
    model = vscode._Undefined()
    model.vendor, model.id = 'hermes', model_id
    return model


def test_context_length_reaches_the_panel(recorded, context):
    controller = register_agent_panel(context, Log(), recorded, register_conversation_store(context, Log())).controller()
    asyncio.run(controller.handle({'type': 'send', 'text': 'hi'}))
    assert [(run['model'], run['context_tokens']) for run in RecordingLoop.runs] == [('qwen2.5:7b', 32768)]


def test_context_length_reaches_hermes_in_the_chat_view_on_a_picked_model(recorded):
    participant = ChatParticipant(ToolRegistry(), recorded, lambda model=None: 'm')
    request = vscode._Undefined()
    request.prompt, request.command, request.references, request.toolReferences = 'hi', None, [], []
    request.model = picked('llama3.2:1b')
    chat_context = vscode._Undefined()
    chat_context.history = []
    asyncio.run(participant.handle(request, chat_context, vscode.ChatResponseStream(), None))
    assert RecordingLoop.runs == [{'model': 'llama3.2:1b', 'tool_calling': 'text', 'max_iterations': 10,
                                   'context_tokens': 32768}]


def test_context_length_reaches_the_language_model_provider(recorded):
    provider = HermesLanguageModel(recorded, VsCodeParts())
    reported = []
    progress = vscode._Undefined()
    progress.report = reported.append
    asyncio.run(provider._with_hermes('other:3b', [{'role': 'user', 'content': 'hi'}], progress,
                                      Cancellation()))
    assert [(run['model'], run['context_tokens']) for run in RecordingLoop.runs] == [('other:3b', 32768)]


def test_context_length_reaches_a_run_on_any_model_and_loops_are_kept_per_model(recorded):
    async def scenario():
        first = await recorded.loop('a:1b')
        assert await recorded.loop('a:1b') is first and await recorded.loop() is not first
        vscode.workspace.settings['hermes.llm.contextLength'] = 4096
        assert (await recorded.loop('a:1b')).options['context_tokens'] == 4096
    asyncio.run(scenario())
    assert declaration('llm.contextLength')['default'] == 0


def test_context_length_sets_the_context_window_the_model_picker_shows():
    from hermes.ui.chat.lm_provider import model_information
    reported = {'context_length': 4096, 'supports_tools': True}
    assert model_information('m', reported, 'http://x/v1', 'm')['maxInputTokens'] == 4096 - 1024
    assert model_information('m', reported, 'http://x/v1', 'm', 32768)['maxInputTokens'] == 32768 - 2048
