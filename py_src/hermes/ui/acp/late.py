"""The ACP agents behind the chat sessions and the side panel, registered at activation and made on first use: the
runner (ui/acp/session.py AcpSessionRunner, over host/acp/service.py with its turns, options, sign-in, consent and
diff documents) is a part loaded the first time a chat session, the panel or a command needs it (a window that never
opens a chat or the panel never loads it). `LateAcpSessions` stands in for the runner from activation on: its
methods make the runner and pass the call on; what front ends hand it while they register (listeners, the native
edits, whether VS Code offers the agents' commands, the cost status) is handed on when the runner is made."""
# __pragma__('tconv')
from hermes.js.errors import to_js_callback
from hermes.js.modules import vscode
from hermes.js.parts import load_part
from hermes.core.acp.backends import SETUP_COMMAND, SIGN_IN_COMMAND, SIGN_OUT_COMMAND


class LateAcpSessions:
    def __init__(self, make_runner, make_commands):
        """`make_runner()`: the runner (loads its part); `make_commands(service)`: the sign-in commands' handlers."""
        self.make_runner = make_runner
        self.make_commands = make_commands
        self.loaded = None  # the runner, once made
        self.handlers = None  # the sign-in commands' handlers, once one ran
        self.offered_listeners = []
        self.chosen_listeners = []
        self.native = None  # set by the chat sessions at activation (ui/chat/sessions.py)
        self.commands_offered = False  # likewise
        self.costs = None  # ui/chat/cost_status.py CostStatus: fed by the runner's turns

    def runner(self):
        if self.loaded is None:
            runner = self.make_runner()
            runner.native = self.native
            runner.commands_offered = self.commands_offered
            runner.turns.costs = self.costs
            for listener in self.offered_listeners:
                runner.on_offered(listener)
            for listener in self.chosen_listeners:
                runner.on_chosen(listener)
            self.loaded = runner
        return self.loaded

    # Listening does not make the runner: no agent offers or chooses anything before it exists.
    def on_offered(self, callback):
        self.offered_listeners.append(callback)
        if self.loaded is not None:
            self.loaded.on_offered(callback)

    def on_chosen(self, callback):
        self.chosen_listeners.append(callback)
        if self.loaded is not None:
            self.loaded.on_chosen(callback)

    @property
    def turns(self):
        return self.runner().turns

    @property
    def documents(self):
        return self.runner().documents

    @property
    def service(self):
        return self.runner().service

    def backend_for(self, conversation, wanted=None):
        return self.runner().backend_for(conversation, wanted)

    def notice_once(self, conversation, notice):
        return self.runner().notice_once(conversation, notice)

    def option_groups(self):
        return self.runner().option_groups()

    def panel_options(self, conversation):
        return self.runner().panel_options(conversation)

    def option_values(self, conversation):
        return self.runner().option_values(conversation)

    async def options_changed(self, conversation, updates):
        return await self.runner().options_changed(conversation, updates)

    def choices(self):
        return self.runner().choices()

    def commands(self, conversation, choice):
        return self.runner().commands(conversation, choice)

    async def respond(self, spec, conversation, request, stream, token):
        return await self.runner().respond(spec, conversation, request, stream, token)

    def session_commands(self, conversation):
        return self.runner().session_commands(conversation)

    async def import_listed(self):
        return await self.runner().import_listed()

    def needs_replay(self, conversation):
        return self.runner().needs_replay(conversation)

    async def replay(self, conversation):
        return await self.runner().replay(conversation)

    # What ui/chat/conversation_commands.py asks of the agents (a deleted conversation's session ended, a session forked)
    async def end_session(self, agent, session_id):
        return await self.runner().service.end_session(agent, session_id)

    async def fork_session(self, agent, session_id):
        return await self.runner().service.fork_session(agent, session_id)

    async def run_command(self, command, args):
        if self.handlers is None:
            self.handlers = self.make_commands(self.runner().service)
        return await self.handlers[command](*args)


def register_acp_sessions(context, log, mcp, agents, store, change_log=None):
    """The runner's stand-in and the sign-in commands ("Sign In to an Agent", "Sign Out of an Agent", the setup button
    of earlier versions), registered now; the runner is made on first use."""
    def make_runner():
        return load_part('hermes.ui.acp.session').make_acp_sessions(context, log, mcp, agents, store, change_log)

    def make_commands(service):
        return load_part('hermes.ui.acp.session').acp_commands(service, log)
    late = LateAcpSessions(make_runner, make_commands)

    def command_handler(command):
        async def run(*args):
            return await late.run_command(command, args)
        return run
    for command in [SIGN_IN_COMMAND, SIGN_OUT_COMMAND, SETUP_COMMAND]:
        context.subscriptions.push(vscode.commands.registerCommand(command, to_js_callback(command_handler(command))))
    return late
