"""Hermes Agent's subagents (its acp_adapter/subagents.py on main, emulated by tests/acp_agent/agent.py's
`subagents` script) read defensively (core/acp/subagents.py), nested in the turn (core/acp/turn.py) and grouped in
VS Code's chat (ui/acp/chat.py). The panel's side: test_panel_acp.py; the bundle: tests/node/acp_subagents.test.js."""
import json
import subprocess
import sys
from pathlib import Path

import vscode

from hermes.core.acp.subagents import read_subagent, is_stale, subagent_summary
from hermes.core.acp.turn import AcpTurn, TurnView
from hermes.core.chat.sessions import history_plan
from hermes.core.chat.conversations import Conversation
from hermes.ui.acp.chat import ChatStreamView

AGENT = str(Path(__file__).resolve().parents[2] / 'acp_agent' / 'agent.py')


def snapshot(child_id='sa-1', **changes):
    progress = {'version': 1, 'id': child_id, 'parentId': None, 'depth': 1, 'sequence': 3, 'status': 'running',
                'text': 'half way', 'tools': ['read_file', 'read_file', 'terminal'], 'title': 'Review docs',
                'outputLimited': False, 'activitiesLimited': False}
    progress.update(changes)
    return {'sessionUpdate': 'tool_call_update', 'toolCallId': 'hermes-subagent:' + child_id, 'status': 'in_progress',
            '_meta': {'hermes': {'subagentProgress': progress}}}


def scripted_updates(command='subagents'):
    """The session/update notifications the scripted agent sends for one prompt (initialize, session/new, prompt)."""
    lines = [{'jsonrpc': '2.0', 'id': 1, 'method': 'initialize', 'params': {'protocolVersion': 1}},
             {'jsonrpc': '2.0', 'id': 2, 'method': 'session/new', 'params': {'cwd': '/tmp', 'mcpServers': []}}]
    process = subprocess.Popen([sys.executable, AGENT], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        for line in lines:
            process.stdin.write(json.dumps(line) + '\n')
        process.stdin.flush()
        session_id = None
        updates = []
        while True:
            message = json.loads(process.stdout.readline())
            if message.get('id') == 2:
                session_id = message['result']['sessionId']
                process.stdin.write(json.dumps({'jsonrpc': '2.0', 'id': 3, 'method': 'session/prompt', 'params': {
                    'sessionId': session_id, 'prompt': [{'type': 'text', 'text': command}]}}) + '\n')
                process.stdin.flush()
            elif message.get('method') == 'session/update' and session_id is not None:
                updates.append(message['params']['update'])
            elif message.get('id') == 3:
                return updates
    finally:
        process.kill()
        process.wait()


def new_reply():
    return {'role': 'assistant', 'status': 'running', 'error': None, 'parts': []}


class Recorder(TurnView):
    def __init__(self):
        self.tools = []

    def on_tool(self, tool):
        self.tools.append(tool)


def test_a_snapshot_is_read_whole_and_its_tools_folded():
    subagent = read_subagent(snapshot())
    assert subagent == {'id': 'sa-1', 'parentId': None, 'depth': 1, 'sequence': 3, 'status': 'running',
                        'text': 'half way', 'tools': ['read_file', 'read_file', 'terminal'], 'limited': False}
    assert subagent_summary(subagent) == 'Tools: read_file ×2, terminal'
    limited = read_subagent(snapshot(tools=['a b', 7], outputLimited=True))
    assert limited['tools'] == ['tool', 'tool'] and subagent_summary(limited) == 'Tools: tool ×2 (record limited)'


def test_without_metadata_the_id_prefix_still_marks_a_subagent_and_other_calls_are_none():
    bare = {'sessionUpdate': 'tool_call', 'toolCallId': 'hermes-subagent:sa-9', 'title': 'Hermes subagent'}
    assert read_subagent(bare) == {'id': 'sa-9', 'parentId': None, 'depth': 1, 'sequence': 0, 'status': None,
                                   'text': '', 'tools': [], 'limited': False}
    assert read_subagent({'toolCallId': 'tc-1', '_meta': snapshot()['_meta']}) is None
    assert read_subagent({'toolCallId': 'hermes-subagent:'}) is None


def test_malformed_snapshots_are_no_subagent():
    assert read_subagent(snapshot(id='sa-2')) is None  # names another child than its tool call
    assert read_subagent(snapshot(depth=17)) is None
    assert read_subagent(snapshot(depth=True)) is None
    assert read_subagent(snapshot(sequence=0)) is None
    assert read_subagent(snapshot(status='exploded')) is None
    assert read_subagent(snapshot(depth=2)) is None  # a child below depth 1 must name its parent
    assert read_subagent(snapshot(depth=2, parentId='sa-1')) is None  # … and not itself
    assert read_subagent(snapshot(depth=2, parentId='bad id')) is None
    assert read_subagent(snapshot(depth=1, parentId='session-7'))['parentId'] is None  # a root's parent: the session
    assert read_subagent(dict(snapshot(), _meta={'hermes': {'subagentProgress': 'running'}})) is None
    assert read_subagent(snapshot(text='x' * 20000))['text'] == 'x' * 16384


def test_stale_snapshots_are_told_apart():
    assert is_stale(None, read_subagent(snapshot())) is False
    assert is_stale({'sequence': 3}, read_subagent(snapshot(sequence=3))) is True
    assert is_stale({'sequence': 3}, read_subagent(snapshot(sequence=4))) is False
    assert is_stale({'sequence': 3}, read_subagent({'toolCallId': 'hermes-subagent:sa-1'})) is False


def test_the_scripted_delegation_nests_each_child_under_its_parent():
    reply = new_reply()
    view = Recorder()
    turn = AcpTurn(reply, view, '/tmp')
    for update in scripted_updates():
        turn.apply(update)
    turn.finish('end_turn')
    tools = {part['id']: part for part in reply['parts'] if part['kind'] == 'tool'}
    assert list(tools) == ['tc-delegate1', 'hermes-subagent:sa-1', 'hermes-subagent:sa-2', 'hermes-subagent:sa-1.1',
                           'hermes-subagent:bad id']
    docs, tests, notes = tools['hermes-subagent:sa-1'], tools['hermes-subagent:sa-2'], tools['hermes-subagent:sa-1.1']
    assert (docs['parent'], tests['parent'], notes['parent']) == ('tc-delegate1', 'tc-delegate1', 'hermes-subagent:sa-1')
    assert (docs['name'], docs['status'], docs['result'], docs['arguments']) == (
        'Review docs', 'ok', 'The docs are current.', 'Tools: read_file ×2, search_files')  # not the stale snapshot
    assert (tests['status'], tests['result']) == ('error', 'Ran the tests: 2 failures.')
    assert (notes['status'], notes['result']) == ('ok', 'Notes summarized.')
    assert 'parent' not in tools['tc-delegate1'] and 'parent' not in tools['hermes-subagent:bad id']
    assert tools['tc-delegate1']['status'] == 'ok'
    last = {tool['id']: tool for tool in view.tools}
    assert (last['hermes-subagent:sa-1.1']['parent'], last['hermes-subagent:sa-1.1']['group']) == (
        'hermes-subagent:sa-1', 'tc-delegate1')
    assert last['hermes-subagent:sa-1']['subagent'] is True and last['tc-delegate1']['subagent'] is False
    assert last['hermes-subagent:bad id']['subagent'] is False  # a malformed snapshot: an ordinary card
    reply['status'] = 'done'
    conversation = Conversation([{'role': 'user', 'text': 'delegate'}, reply])
    restored = Conversation.restore(json.loads(json.dumps(conversation.to_data())))
    assert [part.get('parent') for part in restored.messages[-1]['parts'] if part['kind'] == 'tool'] == [
        None, 'tc-delegate1', 'tc-delegate1', 'hermes-subagent:sa-1', None]
    [_request, response] = history_plan(restored)  # a reopened session's history: the children marked as nested
    assert [part['text'] for part in response['parts'] if part['kind'] == 'progress'] == [
        'delegate batch (2 tasks)', '↳ Review docs', '↳ Check tests (failed)', '↳ Summarize notes', 'tool']


def test_a_subagent_without_a_running_call_stays_at_the_top():
    reply = new_reply()
    turn = AcpTurn(reply, None, '/tmp')
    turn.apply({'sessionUpdate': 'tool_call', 'toolCallId': 'tc-1', 'title': 'read', 'status': 'completed'})
    turn.apply(dict(snapshot(), sessionUpdate='tool_call'))
    assert 'parent' not in reply['parts'][1]


def test_the_chat_groups_the_children_under_the_delegating_call():
    stream = vscode.ChatResponseStream()
    view = ChatStreamView(stream)
    turn = AcpTurn(new_reply(), view, '/tmp')
    for update in scripted_updates():
        turn.apply(update)
    pushed = stream.of('push')
    first_child = [index for index, part in enumerate(pushed) if part['toolCallId'].startswith('hermes-subagent:')][0]
    regroup = pushed[first_child - 1]  # the delegating call again, now VS Code's subagent part
    assert regroup['toolCallId'] == 'tc-delegate1' and regroup['toolSpecificData']['kind'] == 'subagent'
    assert regroup['toolSpecificData']['description'] == 'delegate batch (2 tasks)'
    assert 'kind' not in pushed[0]['toolSpecificData']  # before its first child: an ordinary call
    children = [part for part in pushed if part['toolCallId'].startswith('hermes-subagent:sa-')]
    assert {part['subAgentInvocationId'] for part in children} == {'tc-delegate1'}
    titles = {part['toolCallId']: part['invocationMessage'] for part in children}
    assert titles == {'hermes-subagent:sa-1': 'Review docs', 'hermes-subagent:sa-2': 'Check tests',
                      'hermes-subagent:sa-1.1': '↳ Summarize notes'}  # VS Code groups one level
    done = [part for part in pushed if part['toolCallId'] == 'hermes-subagent:sa-2'][-1]
    assert done['isError'] is True and done['toolSpecificData'] == {'input': 'Tools: terminal',
                                                                    'output': 'Ran the tests: 2 failures.'}
    assert 'subAgentInvocationId' not in [part for part in pushed if part['toolCallId'] == 'hermes-subagent:bad id'][0]


def test_without_vscodes_subagent_part_the_children_follow_marked(monkeypatch):
    monkeypatch.setattr(vscode, 'ChatSubagentToolInvocationData', None)
    stream = vscode.ChatResponseStream()
    turn = AcpTurn(new_reply(), ChatStreamView(stream), '/tmp')
    for update in scripted_updates():
        turn.apply(update)
    pushed = stream.of('push')
    assert all('subAgentInvocationId' not in part for part in pushed)
    assert {part['invocationMessage'] for part in pushed if part['toolCallId'].startswith('hermes-subagent:sa-')} == {
        '↳ Review docs', '↳ Check tests', '↳ Summarize notes'}
