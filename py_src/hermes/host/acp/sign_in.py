"""Signing in to and out of an ACP agent (core/acp/sign_in.py says what the protocol asks): the button under an
"needs you to sign in" failure, "Hermes: Sign In to an Agent" and "Hermes: Sign Out of an Agent".

A terminal method runs the agent's own program — resolved as host/acp/agent_launch.py resolves it for the agent
process, never a program the agent names — as the terminal's process (no shell in between, so nothing of the
method's args is interpreted), in the agents' private working folder; when it exits with 0 the warm agent is
stopped, so the next turn starts and initializes it anew, as the protocol asks. An agent method is
`authenticate {methodId}` on the warm agent."""
# __pragma__('tconv')
from hermes.js.errors import JsError, error_message, to_js_callback
from hermes.js.modules import vscode
from hermes.js.promises import deferred
from hermes.core.values import get_key
from hermes.core.acp.backends import SETUP_AUTH_METHOD, HERMES_NAME
from hermes.core.acp.sign_in import (sign_in_methods, terminal_invocation, pick_items, method_by_id, can_log_out,
                                     TERMINAL)
from hermes.host.acp.agent_launch import launch_spec, agent_environment
from hermes.host.paths import folder_paths
# __pragma__('skip')
from typing import Any, List, Optional
from hermes.contracts.json import JsonObject
from hermes.core.acp.backends import Spec
from hermes.host.acp.processes import AgentProcesses
from hermes.host.log import Log
# __pragma__('noskip')


class AgentSignIn:
    """`processes`: host/acp/processes.py AgentProcesses (the warm agents, their home folder); `log`: the output
    channel."""

    def __init__(self, processes: 'AgentProcesses', log: 'Log') -> None:
        self.processes = processes
        self.log = log

    async def sign_in(self, spec: 'Spec') -> bool:
        """Offer `spec`'s sign-in methods and run the one chosen. True when it succeeded (the next turn may retry)."""
        try:
            agent = await self.processes.agent(spec)
        except JsError as error:
            vscode.window.showErrorMessage('Hermes: could not start ' + spec['name'] + ' to sign in: ' +
                                           error_message(error))
            return False
        methods = sign_in_methods(getattr(agent, 'auth_methods', None))
        if len(methods) == 0:
            vscode.window.showWarningMessage('Hermes: ' + spec['name'] + ' offers no way to sign in from the editor. '
                                             'Sign in as its documentation says, then ask again.')
            return False
        method = await self._choose(spec, methods)
        if method is None:
            return False
        if method['type'] == TERMINAL:
            return await self._in_terminal(spec, method)
        try:
            await agent.authenticate(method['id'])
        except JsError as error:
            vscode.window.showErrorMessage('Hermes: signing in to ' + spec['name'] + ' (' + method['name'] +
                                           ') failed: ' + error_message(error))
            return False
        self.log.info('ACP: signed in to ' + spec['name'] + ' (' + method['id'] + ')')
        vscode.window.showInformationMessage('Hermes: signed in to ' + spec['name'] + '.')
        return True

    async def _choose(self, spec: 'Spec', methods: 'List[JsonObject]') -> 'Optional[JsonObject]':
        if len(methods) == 1:
            return methods[0]
        setup = method_by_id(methods, SETUP_AUTH_METHOD)  # Hermes' provider setup is what its button means
        if setup is not None and spec['name'] == HERMES_NAME:
            return setup
        picked = await vscode.window.showQuickPick(pick_items(methods), {
            'placeHolder': 'Sign in to ' + spec['name'] + ' with…', 'ignoreFocusOut': True})
        return None if picked is None else method_by_id(methods, get_key(picked, 'method'))

    async def _in_terminal(self, spec: 'Spec', method: 'JsonObject') -> bool:
        launched = launch_spec(spec, agent_environment(spec['env']), self.processes.agent_home(), folder_paths())
        run = terminal_invocation(launched, method)
        ended = deferred()
        terminal = None  # type: Any

        def closed(which: 'Any') -> None:
            if which is terminal:
                status = which.exitStatus
                ended['resolve'](None if status is None else status.code)
        listening = vscode.window.onDidCloseTerminal(to_js_callback(closed))
        try:
            terminal = vscode.window.createTerminal({'name': 'Sign in: ' + spec['name'], 'shellPath': run['command'],
                                                     'shellArgs': run['args'], 'env': run['env'], 'cwd': run['cwd']})
            terminal.show()
            self.log.info('ACP: signing in to ' + spec['name'] + ' in a terminal (' + method['id'] + ')')
            code = await ended['promise']
        finally:
            listening.dispose()
        if code != 0:
            vscode.window.showWarningMessage('Hermes: signing in to ' + spec['name'] + ' did not finish (' +
                                             ('the terminal was closed' if code is None else 'exit code ' + str(code)) +
                                             '). Try again when you are ready.')
            return False
        self.processes.forget(spec)  # the protocol's "reconnect and reinitialize": the next turn starts it anew
        self.log.info('ACP: signed in to ' + spec['name'] + ' in a terminal')
        vscode.window.showInformationMessage('Hermes: signed in to ' + spec['name'] + '.')
        return True

    async def sign_out(self, spec: 'Spec') -> bool:
        """`logout` on `spec`'s agent when it offers it; True when it signed out."""
        try:
            agent = await self.processes.agent(spec)
        except JsError as error:
            vscode.window.showErrorMessage('Hermes: could not start ' + spec['name'] + ' to sign out: ' +
                                           error_message(error))
            return False
        if not can_log_out(getattr(agent, 'capabilities', None)):
            vscode.window.showWarningMessage('Hermes: ' + spec['name'] + ' does not offer signing out over ACP. '
                                             'Sign out as its documentation says.')
            return False
        try:
            await agent.logout()
        except JsError as error:
            vscode.window.showErrorMessage('Hermes: signing out of ' + spec['name'] + ' failed: ' +
                                           error_message(error))
            return False
        self.processes.forget(spec)  # sessions may be gone with the sign-in: start it anew
        vscode.window.showInformationMessage('Hermes: signed out of ' + spec['name'] + '.')
        return True

