"""Our ACP client and the scripted agent judged by the protocol's own JSON schema (the pinned
`@agentclientprotocol/sdk`'s schema/v1/schema.json; tests/acp_wire/schema.py): a session's whole wire — initialize,
session/new with our MCP server, prompts, permission, files, terminals, config options, a question, cancel — recorded
by tests/acp_wire/tee.py and validated message by message, both directions."""
import json
import sys
from pathlib import Path

import pytest
import vscode

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / 'tests'))
from acp_wire.schema import load_schema, read_record, wire_problems  # (tests/ is on the path above)

from hermes.host.acp.client_side import AcpClientSide
from hermes.host.approval import Approver
from hermes.host.terminals import register_terminals
from hermes.net.acp.agent import AcpAgent
from hermes.tools.catalog import build_registry
from shim_services import shim_services
from test_acp_client_side import MARK, run

AGENT = str(ROOT / 'tests' / 'acp_agent' / 'agent.py')
TEE = str(ROOT / 'tests' / 'acp_wire' / 'tee.py')


def test_the_validator_refuses_what_the_schema_refuses():
    schema = load_schema()
    records = [
        {'from': 'client', 'line': json.dumps({'jsonrpc': '2.0', 'id': 1, 'method': 'session/new',
                                               'params': {'cwd': 7, 'mcpServers': []}})},
        {'from': 'agent', 'line': json.dumps({'jsonrpc': '2.0', 'id': 1, 'result': {'sessionId': 's'}})},
        {'from': 'agent', 'line': json.dumps({'jsonrpc': '2.0', 'method': 'session/update', 'params': {
            'sessionId': 's', 'update': {'sessionUpdate': 'agent_message_chunk', 'content': {'type': 'text'}}}})},
        {'from': 'client', 'line': json.dumps({'jsonrpc': '2.0', 'method': 'session/invented', 'params': {}})},
        {'from': 'agent', 'line': json.dumps({'jsonrpc': '2.0', 'method': '_hermes/process', 'params': {'x': 1}})},
        {'from': 'agent', 'line': 'not json'},
    ]
    problems = wire_problems(records, schema)
    assert problems[0].startswith('1: client session/new NewSessionRequest at cwd: 7 is not of type')
    assert problems[1].startswith('3: agent session/update SessionNotification at update')
    assert problems[2] == '4: client sent session/invented (notification), which the schema does not define for the agent'
    assert problems[3] == '6: agent wrote a line that is not JSON: not json'
    assert len(problems) == 4  # the answer to session/new fits; an extension method (`_…`) is left alone


@pytest.fixture
def ws(tmp_path):
    root = tmp_path / 'project'
    root.mkdir()
    (root / 'notes.md').write_text('one\ntwo\n')
    vscode.workspace.open_folders([str(root)])
    return root


def test_a_whole_session_of_ours_with_the_scripted_agent_fits_the_schema(ws, tmp_path, context):
    record = tmp_path / 'wire.jsonl'
    terminals = register_terminals(context)
    side = AcpClientSide(build_registry(Approver(), shim_services(terminals=terminals)), terminals)
    vscode.window.message_answers.extend(['Allow', 'Allow'])
    vscode.window.shell_commands['echo hi'] = ([MARK + 'hi\r\n'], 0)

    async def allow(params):
        return {'outcome': 'selected', 'optionId': 'allow_once'}

    async def answer_form(question):
        return {'action': 'decline'}

    async def scenario():
        spec = {'name': 'Scripted', 'command': sys.executable, 'args': [TEE, str(record), sys.executable, AGENT,
                                                                       'config']}
        agent = AcpAgent(spec, side, None)
        await agent.start()
        session = await agent.new_session(str(ws), [{'type': 'http', 'name': 'vscode', 'url': 'http://127.0.0.1:1/mcp',
                                                     'headers': [{'name': 'Authorization', 'value': 'Bearer x'}]}])
        session_id = session['sessionId']
        side.set_permission_prompter(session_id, allow)
        side.set_question_prompter(session_id, answer_form)
        await agent.set_config_option(session_id, 'model', 'scripted-b')
        for text in ['hello there', 'permission', 'read ' + str(ws / 'notes.md') + ' 1 1',
                     'write ' + str(ws / 'made.md') + ' made', 'terminal echo hi', 'elicit_form', 'options']:
            await agent.prompt(session_id, [{'type': 'text', 'text': text}], lambda update: None)
        await agent.list_sessions(str(ws))
        agent.dispose()
        await agent.closed()
    run(scenario())
    records = read_record(record)
    methods = {json.loads(r['line']).get('method') for r in records}
    assert {'initialize', 'session/new', 'session/prompt', 'session/update', 'session/request_permission',
            'fs/read_text_file', 'fs/write_text_file', 'terminal/create', 'elicitation/create',
            'session/set_config_option'} <= methods, methods
    problems = wire_problems(records)
    # all ours fit; of the agent's, only the malformed config option it offers on purpose (agent.py `config`: the
    # client must leave it out) does not
    assert problems != [] and all(' agent ' in problem and 'at configOptions/3' in problem for problem in problems), \
        problems
