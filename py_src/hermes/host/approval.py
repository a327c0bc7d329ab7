"""The confirmation gate: before a tool that changes things runs, the user says yes (or has said so
for the session). `hermes.tools.confirm`: "destructive" (default) asks for destructive tools,
"always" asks for every tool, "never" asks for none. The gate moves the call's confirmation state
(core/tools.py: WAITING, then CONFIRMED or DECLINED); front ends listen to it, so a tool card can say
"waiting for your confirmation". The log lines are for people (an MCP client's log), not for UIs."""
# __pragma__('tconv')
from hermes.js import vscode, dump_json, is_none
from hermes.core.tools import WAITING, CONFIRMED, DECLINED
from hermes.host.settings import setting

ALLOW = 'Allow'
ALLOW_SESSION = 'Allow for This Session'
WAITING_NOTICE = 'Waiting for the user to confirm'
CONFIRMED_NOTICE = 'The user confirmed'
DETAIL_LIMIT = 1500


class Approver:
    def __init__(self, log=None):
        self.log = log
        self.allowed_for_session = []

    def needs_approval(self, tool):
        mode = setting('tools.confirm')
        if mode == 'never':
            return False
        if mode == 'always':
            return True
        return tool.destructive

    def would_ask(self, tool):
        """Whether `approve` would ask the user about a call of `tool` now. A front end that has the user
        confirm in its own UI (VS Code's tool confirmation, ui/lm_tools.py) asks exactly when this is true
        and then marks the call CONFIRMED, so the user is asked once, not twice."""
        return self.needs_approval(tool) and not (tool.name in self.allowed_for_session)

    async def approve(self, tool, arguments, call):
        if call.confirmed:
            return None  # the front end already had the user confirm this very call
        if not self.would_ask(tool):
            return None
        return await self._ask(tool.name, tool.title or tool.name, arguments, call, tool.name)

    async def confirm(self, tool_name, title, arguments, call, session_key=None):
        """Ask for one action a handler is about to take (see the module-level `confirm`)."""
        key = tool_name if is_none(session_key) else session_key
        if setting('tools.confirm') == 'never' or key in self.allowed_for_session:
            return None
        if call.confirmed:
            return None  # the gate already asked for this very call ("always")
        return await self._ask(tool_name, title, arguments, call, key)

    async def _ask(self, tool_name, title, arguments, call, session_key):
        call.set_confirmation(WAITING)
        call.log('notice', WAITING_NOTICE + ' ' + tool_name)
        detail = dump_json(arguments, 2)
        if len(detail) > DETAIL_LIMIT:
            detail = detail[:DETAIL_LIMIT] + '\n…'
        choice = await vscode.window.showWarningMessage(
            'Allow Hermes to run "' + title + '"?',
            {'modal': True, 'detail': 'Tool: ' + tool_name + '\nArguments:\n' + detail},
            ALLOW, ALLOW_SESSION)
        if call.cancelled:
            call.set_confirmation(DECLINED)
            return 'The call was cancelled while waiting for confirmation.'
        if choice == ALLOW_SESSION:
            self.allowed_for_session.append(session_key)
        if choice == ALLOW or choice == ALLOW_SESSION:
            call.set_confirmation(CONFIRMED)
            call.log('notice', CONFIRMED_NOTICE + ' ' + tool_name)
            return None
        call.set_confirmation(DECLINED)
        if not is_none(self.log):
            self.log.info('The user declined ' + tool_name)
        return ('The user declined to run ' + tool_name + '. Do not retry it unless the user asks; '
                'explain what you wanted to do instead.')


async def confirm(tool_name, title, arguments, call, session_key=None):
    """For a tool that is only sometimes destructive (git_command: `git log` runs freely, `git commit`
    must ask): ask the user the way the gate does, with the gate the call came through (`call.gate`: its
    session allowances and log; a fresh one for a call made outside a registry). Asks unless `hermes.tools.confirm` is "never", the user allowed `session_key` (default:
    the tool's name) for the session, or the gate already asked for this call. Returns None to go
    ahead, or the refusal text (raise it as a ToolError)."""
    approver = getattr(call, 'gate', None)
    if is_none(approver):
        approver = Approver()
    return await approver.confirm(tool_name, title, arguments, call, session_key)
