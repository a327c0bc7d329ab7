"""What agents send about their sessions outside a prompt's answer: their slash commands (kept per session for the
next turn's view, and per agent across reloads for conversations it has not answered yet), a session's updates
between turns (Hermes Agent sends the title after the answer), and Hermes Agent's background notifications."""
# __pragma__('tconv')
from hermes.js.json import dump_json
from hermes.js.modules import vscode
from hermes.js.promises import spawn
from hermes.core.values import json_type, get_key
from hermes.core.acp.commands import commands_update, commands_of
from hermes.core.acp.hermes_background import BACKGROUND_UPDATE
# __pragma__('skip')
from typing import TYPE_CHECKING, Callable, Dict, List, Optional
from hermes.contracts.json import Json, JsonObject
from hermes.host.log import Log
if TYPE_CHECKING:
    from vscode import Memento
# __pragma__('noskip')

COMMANDS_KEY = 'hermes.acp.commands'
ASK_HERMES_ACTION = 'Ask Hermes Agent'  # the button of a background notification: its prompt into the chat input


class SessionUpdates:
    """`memory`: a Memento (context.globalState) keeping each agent's latest commands across reloads (None: a test's
    window)."""

    def __init__(self, log: 'Log', memory: 'Optional[Memento]' = None) -> None:
        self.log = log
        self.memory = memory
        remembered = None if memory is None else memory.js_get(COMMANDS_KEY)  # type: Json
        # agent name → the slash commands it sent last (a new conversation's panel lists them before its first turn)
        self.agent_commands = remembered if json_type(remembered) == 'object' else {}  # type: JsonObject
        # 's:' + session id → the agent's latest slash commands for it (core/acp/commands.py): they often come right
        # after session/new or during session/load, before anyone watches the session; the next turn hands them on
        self.session_commands = {}  # type: Dict[str, List[JsonObject]]
        # 's:' + session id → callback(update) for updates between turns (a title)
        self.session_listeners = {}  # type: Dict[str, Callable[[Json], None]]

    def note_commands(self, session_id: str, update: 'Json') -> None:
        """Keep the commands of an `available_commands_update` for the session (the latest list wins)."""
        commands = commands_update(update)
        if commands is not None:
            self.session_commands['s:' + session_id] = commands

    def remember_commands(self, agent_name: str, commands: 'List[JsonObject]') -> None:
        """The agent's latest commands, kept across reloads (globalState) for conversations it has not answered yet."""
        if dump_json(get_key(self.agent_commands, agent_name)) == dump_json(commands):
            return
        self.agent_commands[agent_name] = commands
        if self.memory is not None:
            self.memory.js_update(COMMANDS_KEY, self.agent_commands)

    def known_commands(self, agent_name: str) -> 'List[JsonObject]':
        """The commands the agent sent last in any session ([] when none is known)."""
        return commands_of(get_key(self.agent_commands, agent_name))

    def commands_for(self, session_id: str) -> 'Optional[List[JsonObject]]':
        """The latest commands the agent sent for the session in this window, or None."""
        found = get_key(self.session_commands, 's:' + session_id)  # type: Optional[List[JsonObject]]
        return found

    def watch_session(self, session_id: str, callback: 'Callable[[Json], None]') -> None:
        """`callback(update)` for the session's updates that arrive outside a turn (Hermes sends the title
        after the prompt's answer)."""
        self.session_listeners['s:' + session_id] = callback

    def between_turns(self, session_id: str, update: 'Json') -> None:
        """An update no running prompt or load collects (every agent process hands them here)."""
        key = 's:' + session_id
        if get_key(update, 'sessionUpdate') == BACKGROUND_UPDATE:
            self._background(update)
            return
        self.note_commands(session_id, update)
        if key in self.session_listeners:
            self.session_listeners[key](update)

    def _background(self, update: 'JsonObject') -> None:
        """Hermes Agent's background work while no turn runs (core/acp/hermes_background.py): a process is logged; a
        notification is a message whose button puts its suggested prompt into the chat input, for the user to send
        (Hermes Agent's CLI would send it by itself; here the user decides)."""
        if update['prompt'] is None:  # (our own record: core/acp/hermes_background.py background_update)
            self.log.info('ACP: Hermes Agent in the background: ' + update['plain'])
            return
        spawn(self._offer_prompt(update['plain'], update['prompt']))

    async def _offer_prompt(self, title: str, prompt: str) -> None:
        choice = await vscode.window.showInformationMessage('Hermes Agent: ' + title, ASK_HERMES_ACTION)
        if choice == ASK_HERMES_ACTION:
            await vscode.commands.executeCommand('workbench.action.chat.open', {'query': prompt,
                                                                                 'isPartialQuery': True})
