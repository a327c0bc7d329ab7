"""The confirmation gate: before a tool that changes things runs, the user says yes (or has said so
for the session). `hermes.tools.confirm`: "destructive" (default) asks for destructive tools,
"always" asks for every tool, "never" asks for none. Front ends learn that a call is waiting through
`call.log('notice', …)` and progress, so a tool card can say "waiting for your confirmation"."""
# __pragma__('tconv')
from hermes.js import vscode, dump_json, is_none
from hermes.host.settings import setting

ALLOW = 'Allow'
ALLOW_SESSION = 'Allow for This Session'
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

    async def approve(self, tool, arguments, call):
        if not self.needs_approval(tool) or tool.name in self.allowed_for_session:
            return None
        call.log('notice', 'Waiting for the user to confirm ' + tool.name)
        detail = dump_json(arguments, 2)
        if len(detail) > DETAIL_LIMIT:
            detail = detail[:DETAIL_LIMIT] + '\n…'
        choice = await vscode.window.showWarningMessage(
            'Allow Hermes to run "' + (tool.title or tool.name) + '"?',
            {'modal': True, 'detail': 'Tool: ' + tool.name + '\nArguments:\n' + detail},
            ALLOW, ALLOW_SESSION)
        if call.cancelled:
            return 'The call was cancelled while waiting for confirmation.'
        if choice == ALLOW_SESSION:
            self.allowed_for_session.append(tool.name)
            return None
        if choice == ALLOW:
            return None
        if not is_none(self.log):
            self.log.info('The user declined ' + tool.name)
        return ('The user declined to run ' + tool.name + '. Do not retry it unless the user asks; '
                'explain what you wanted to do instead.')
