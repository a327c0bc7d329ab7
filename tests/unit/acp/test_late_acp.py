"""ui/acp/late.py: the ACP runner made on first use; what front ends hand it while registering is handed on."""
import asyncio

from hermes.ui.acp.late import LateAcpSessions


class FakeTurns:
    costs = None


class FakeSessions:
    async def end_session(self, agent, session_id):
        return ['closed:' + agent + ':' + session_id]


class FakeRunner:
    def __init__(self):
        self.turns = FakeTurns()
        self.services = 'the services'
        self.sessions = FakeSessions()
        self.offered = []
        self.chosen = []
        self.native = 'unset'
        self.commands_offered = 'unset'

    def on_offered(self, callback):
        self.offered.append(callback)

    def on_chosen(self, callback):
        self.chosen.append(callback)

    def choices(self):
        return ['builtin']


def late():
    made = []

    def make_runner():
        made.append(FakeRunner())
        return made[-1]

    def make_commands(services):
        async def sign_in(name=None, *ignored):
            return 'signed in to ' + name
        return {'hermes.acp.signIn': sign_in}
    return LateAcpSessions(make_runner, make_commands), made


def test_registering_does_not_make_the_runner_and_what_was_handed_over_reaches_it():
    acp, made = late()
    offered, chosen = (lambda: None), (lambda conversation: None)
    acp.on_offered(offered)
    acp.on_chosen(chosen)
    acp.native = 'native edits'
    acp.commands_offered = True
    acp.costs = 'cost status'
    assert made == []
    assert acp.choices() == ['builtin']
    [runner] = made
    assert runner.offered == [offered] and runner.chosen == [chosen]
    assert (runner.native, runner.commands_offered, runner.turns.costs) == ('native edits', True, 'cost status')
    assert acp.turns is runner.turns and acp.services is runner.services
    def later():
        return None
    acp.on_offered(later)
    assert runner.offered == [offered, later]
    assert acp.runner() is runner and len(made) == 1


def test_a_command_and_the_conversation_commands_reach_the_runner_s_services():
    acp, made = late()
    assert asyncio.run(acp.run_command('hermes.acp.signIn', ['Scripted'])) == 'signed in to Scripted'
    assert asyncio.run(acp.end_session('Scripted', 's-1')) == ['closed:Scripted:s-1']
    assert len(made) == 1
