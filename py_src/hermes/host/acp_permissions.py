"""Permission requests of ACP agents, routed to the turn that is running in their session: AcpService.run_turn
sets a prompter for its session id while the turn runs (it asks the user in the chat and maps the answer back);
a request for a session with no running turn is answered `cancelled` (the protocol's answer for "no decision").

This is the client side's permission part only (what Hermes Agent 0.19.0 asks of a client); AcpAgent calls
`request_permission(session_id, params)` for `session/request_permission`."""
# __pragma__('tconv')
from hermes.js.objects import is_none
from hermes.core.acp_turn import cancelled_outcome


class PermissionRouter:
    def __init__(self, log=None):
        self.log = log
        self.prompters = {}  # 's:' + session id → async prompter(params) → outcome

    def set_permission_prompter(self, session_id, prompter):
        key = 's:' + str(session_id)
        if is_none(prompter):
            if key in self.prompters:
                del self.prompters[key]
            return
        self.prompters[key] = prompter

    async def request_permission(self, session_id, params):
        key = 's:' + str(session_id)
        if not (key in self.prompters):
            if not is_none(self.log):
                self.log.warn('ACP: a permission request for a session with no running turn was answered cancelled')
            return cancelled_outcome()
        return await self.prompters[key](params)
