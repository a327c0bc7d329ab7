"""host/acp/services.py and its pieces one by one (the whole turn through them is tests/unit/acp/test_acp_sessions.py):
where sessions work when no folder is open, the warm processes, a choice told to an open session, and the runner
refusing to be made without the client side every turn needs."""
import asyncio

import pytest
import vscode

from hermes.core.acp.backends import AcpAgentError, HERMES_NAME
from hermes.host.acp.agents import AcpAgents
from hermes.host.acp.session_options import ChoiceTarget
from hermes.host.acp.session_place import SessionPlace
from hermes.js import modules_cpython
from hermes.ui.acp.session import make_acp_sessions, NO_CLIENT_SIDE
from hermes.core.chat.conversations import ConversationStore
from test_acp_sessions import FakeMcp, make_world, ask
from test_acp_turn import chunk
from panel_fakes import Log


class NodeOs:
    """node('os') as Node has it: the system's idea of the home folder (on Windows, USERPROFILE's)."""

    @staticmethod
    def homedir():
        return '/home/from-the-system'


def test_a_window_without_a_folder_opens_sessions_in_the_home_folder_even_without_home(monkeypatch):
    """session/new's cwd must be an absolute path: a window with no folder open used $HOME, which Windows does not
    set — the agent was sent `cwd: null`. The system's home folder stands in for it."""
    monkeypatch.setitem(modules_cpython.NODE_MODULES, 'os', NodeOs)
    monkeypatch.delenv('HOME', raising=False)
    vscode.workspace.open_folders([])
    assert SessionPlace(None).cwd() == '/home/from-the-system'
    monkeypatch.setenv('HOME', '/home/me')
    assert SessionPlace(None).cwd() == '/home/me'  # as before where HOME is set


def test_a_turn_in_a_window_without_a_folder_hands_the_agent_the_home_folder(monkeypatch):
    monkeypatch.setitem(modules_cpython.NODE_MODULES, 'os', NodeOs)
    world = make_world({'turns': [[chunk('hello')]]})
    vscode.workspace.open_folders([])
    monkeypatch.delenv('HOME', raising=False)
    stream, _ = ask(world, 'hi')
    [agent] = world['made']
    [new] = [call for call in agent.calls if call[0] == 'new']
    assert new[1] == '/home/from-the-system' and stream.text() == 'hello'


def test_the_mcp_server_is_handed_over_once_it_listens_and_not_when_it_is_off():
    mcp = FakeMcp()
    place = SessionPlace(mcp)
    assert asyncio.run(place.mcp_servers())[0]['url'] == 'http://127.0.0.1:4321/mcp'
    mcp.running = False
    assert asyncio.run(place.mcp_servers()) == []
    assert asyncio.run(SessionPlace(None).mcp_servers()) == []


def test_the_runner_is_not_made_without_the_client_side_a_turn_needs(context):
    """A turn sets its session's permission prompter, questions, change author and observe mode on the client side:
    the services were once made with none and failed in the middle of the first turn, after starting the agent."""
    agents = AcpAgents(Log())  # (made without a client side)
    store = ConversationStore(lambda: 'c1', lambda: 1000)
    with pytest.raises(AcpAgentError) as raised:
        make_acp_sessions(context, Log(), None, agents, store)
    assert raised.value.message == NO_CLIENT_SIDE
    assert agents.agents == []


def test_one_warm_process_per_agent_started_again_after_it_exited():
    world = make_world({'turns': [[chunk('one')], [chunk('two')]]})
    processes = world['acp'].processes
    spec = world['acp'].choice.spec_named(HERMES_NAME)
    first = asyncio.run(processes.agent(spec))
    assert asyncio.run(processes.agent(spec)) is first and processes.running(spec).agent is first
    first.crash()
    assert processes.running(spec) is None
    assert ('warn', 'ACP: Hermes Agent exited; the next turn starts it again') in world['log'].lines
    second = asyncio.run(processes.agent(spec))
    assert second is not first and world['made'] == [first, second]
    processes.forget(spec)
    assert processes.running(spec) is None and ('dispose',) in second.calls


def test_a_choice_is_told_now_only_to_a_session_open_in_its_warm_process():
    world = make_world({'turns': [[chunk('one')]]})
    options = world['acp'].options
    ask(world, 'first')
    [conversation] = world['store'].conversations
    target = options.choose(conversation, 'mode', 'plan')
    assert isinstance(target, ChoiceTarget)
    assert (target.agent, target.session_id, target.agent_name) == (world['made'][0], 'sess-1', HERMES_NAME)

    async def send():
        await options.send_choice(target, 'mode', 'plan')
    asyncio.run(send())
    assert world['made'][0].calls[-1] == ('set_mode', 'sess-1', 'plan')
    world['acp'].dispose()  # the window closes: the session is set when it opens again
    assert options.choose(conversation, 'model', 'm2') is None
    assert conversation.acp['mode'] == 'plan' and conversation.acp['model'] == 'm2'
