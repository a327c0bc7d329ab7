"""The options an agent offers its sessions (modes, models, config options: core/acp/options.py) and the user's
choices among them: what each agent offered last (kept across reloads for the pickers of new sessions), a choice made
in a session's input area or the panel (kept in the conversation at once, told to the agent when its session is open,
in order, before its next prompt), and the chosen values set again when a session opens."""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError
from hermes.js.json import dump_json
from hermes.js.promises import deferred, spawn
from hermes.core.values import copyable_keys, json_type, get_key
from hermes.core.acp.options import (option_groups, current_values, offers_value, with_config_update, wire_value,
                                     CONFIG, OPTIONS, MODE)
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Dict, List, Optional
from hermes.contracts.json import Json, JsonObject
from hermes.core.acp.backends import Spec
from hermes.core.chat.conversations import Conversation
from hermes.host.log import Log
from hermes.host.acp.agent_choice import AgentChoice
from hermes.host.acp.processes import AgentProcesses
from hermes.host.acp.session_place import SessionPlace
from hermes.host.acp.session_updates import SessionUpdates
from hermes.net.acp.agent import AcpAgent
if TYPE_CHECKING:
    from vscode import Memento
# __pragma__('noskip')

OFFERED_KEY = 'hermes.acp.offeredOptions'


class ChoiceTarget:
    """An agent session open in its warm process, to be told a choice now (`SessionOptions.choose`)."""

    def __init__(self, agent: 'AcpAgent', session_id: str, agent_name: str, conversation: 'Conversation') -> None:
        self.agent = agent
        self.session_id = session_id
        self.agent_name = agent_name
        self.conversation = conversation


class SessionOptions:
    """`memory`: a Memento (context.globalState) keeping what each agent offered across reloads (None: a test's
    window); `choice`, `processes`, `place`, `updates`: who answers, the warm agents, where sessions work, and the
    commands an agent sends while a model change reloads its session."""

    def __init__(self, log: 'Log', memory: 'Optional[Memento]', choice: 'AgentChoice', processes: 'AgentProcesses',
                 place: 'SessionPlace', updates: 'SessionUpdates') -> None:
        self.log = log
        self.memory = memory
        self.choice = choice
        self.processes = processes
        self.place = place
        self.updates = updates
        remembered = None if memory is None else memory.js_get(OFFERED_KEY)  # type: Json
        # agent name → offered_options(...)
        self.offered = remembered if json_type(remembered) == 'object' else {}  # type: JsonObject
        self.offered_listeners = []  # type: List[Callable[[], None]]
        # callback(conversation): its mode/model known anew (after session/new or load)
        self.chosen_listeners = []  # type: List[Callable[[Conversation], None]]
        self.choice_sends = {}  # type: Dict[str, Awaitable[Any]]  # 's:' + session id → the last of its calls under way

    def on_offered(self, callback: 'Callable[[], None]') -> None:
        """`callback()` when an agent offers other modes or models than before (the input area's pickers)."""
        self.offered_listeners.append(callback)

    def on_chosen(self, callback: 'Callable[[Conversation], None]') -> None:
        """`callback(conversation)` when a session's mode and model are known anew (VS Code shows a picker only
        for a session that has a value for it)."""
        self.chosen_listeners.append(callback)

    def tell_chosen(self, conversation: 'Conversation') -> None:
        for callback in self.chosen_listeners:
            try:
                callback(conversation)
            except JsError as error:
                self.log.warn('ACP: showing the session\'s mode and model failed: ' + error_message(error))

    def remember_offered(self, agent_name: str, offered: 'Optional[JsonObject]') -> None:
        if dump_json(get_key(self.offered, agent_name)) == dump_json(offered):
            return
        self.offered[agent_name] = offered
        if self.memory is not None:
            self.memory.js_update(OFFERED_KEY, self.offered)
        for callback in self.offered_listeners:
            callback()

    def option_groups(self) -> 'List[JsonObject]':
        """The pickers for new sessions: the modes and models the agent new sessions use offered last."""
        backend = self.choice.choose_for_listing()
        if backend is None:
            return []
        return option_groups(get_key(self.offered, backend['spec']['name']))

    def offered_to(self, agent_name: str) -> 'Optional[JsonObject]':
        """What `agent_name` offers to choose, as its sessions last said (core/acp/options.py offered_options), or None."""
        offered = get_key(self.offered, agent_name)  # type: Optional[JsonObject]
        return offered

    async def apply_chosen(self, spec: 'Spec', agent: 'AcpAgent', session_id: str, acp: 'JsonObject',
                           offered: 'JsonObject') -> None:
        """Set the session's chosen options on the agent (session/set_config_option, or the deprecated
        session/set_mode and session/set_model): those that differ from what its session/new or session/load answer
        reported (`offered`); the rest are taken as reported. A value is never set again when it is already current:
        see _set_option for what a model change costs. A chosen value the agent no longer offers is dropped."""
        options = [option for option in OPTIONS]
        for option in copyable_keys(offered):
            if option.startswith(CONFIG):
                options.append(option)
        for option in options:
            offer = get_key(offered, option)
            current = None if offer is None else offer['current']
            wanted = get_key(acp, option)
            if wanted is None:
                if current is not None:
                    acp[option] = current
                continue
            if wanted == current:
                continue
            if option.startswith(CONFIG) and not offers_value(offer, wanted):
                self.log.warn('ACP: ' + spec['name'] + ' no longer offers ' + wanted + ' for ' + option + '; it '
                              'keeps ' + str(current))
                acp[option] = current
                continue
            try:
                answered = await self._set_option(agent, session_id, option, wanted, offered)
                self.config_answered(spec['name'], answered)
            except JsError as error:
                self.log.warn('ACP: ' + spec['name'] + ' refused the ' + option + ' ' + wanted + ': ' +
                              error_message(error))

    async def _set_option(self, agent: 'AcpAgent', session_id: str, option: str, value: 'Json',
                          offered: 'Json') -> 'Json':
        """One option set on the agent; returns its answer (a config option's: every config option anew)."""
        if option.startswith(CONFIG):
            return await agent.set_config_option(session_id, option[len(CONFIG):], wire_value(offered, option, value))
        if option == MODE:
            await agent.set_mode(session_id, value)
            return None
        await agent.set_model(session_id, value)
        # Hermes Agent 0.19.0 answers session/set_model by building the session's agent anew from its config
        # file, which drops the MCP servers the client handed it: the next turn would have none of this window's
        # tools. Handing them again is what session/load does (its replay is not shown: the turns are recorded).
        if get_key(agent.capabilities, 'loadSession') is True:
            await agent.load_session(session_id, self.place.cwd(), await self.place.mcp_servers(),
                                     lambda update: self.updates.note_commands(session_id, update))
        return None

    def config_answered(self, agent_name: str, answered: 'Json', conversation: 'Optional[Conversation]' = None) -> None:
        """An agent sent its config options anew (a set_config_option answer, a config_option_update): the pickers
        offer them, and `conversation` (when known) takes the values the agent reports."""
        entries = get_key(answered, 'configOptions')
        if json_type(entries) != 'array':
            return
        offered = with_config_update(get_key(self.offered, agent_name), entries)
        self.remember_offered(agent_name, offered)
        if conversation is None or conversation.acp is None:
            return
        acp = conversation.acp
        values = current_values(offered)
        for option in copyable_keys(values):
            if option.startswith(CONFIG):
                acp[option] = values[option]
        self.tell_chosen(conversation)

    def choose(self, conversation: 'Conversation', option: str, value: 'Json') -> 'Optional[ChoiceTarget]':
        """The user chose `value` for `option` ('mode', 'model', 'config:<id>') in a session's input area: kept in
        `conversation.acp` at once. Returns the agent and session to tell now (its session is open in the warm
        process: `send_choice`), or None (it is set when the session opens: the next turn). A conversation no agent
        answered yet is given to the agent new sessions use."""
        acp = conversation.acp
        if acp is None:
            backend = self.choice.choose_for_listing()
            if backend is None:
                return None
            acp = {'agent': backend['spec']['name'], 'sessionId': ''}
            conversation.acp = acp
        acp[option] = value
        session_id = acp['sessionId']
        spec = self.choice.spec_named(acp['agent'])
        if spec is None or session_id == '':
            return None
        entry = self.processes.running(spec)
        if entry is None or not entry.agent.alive or not (session_id in entry.sessions):
            return None
        return ChoiceTarget(entry.agent, session_id, spec['name'], conversation)

    def send_choice(self, target: 'ChoiceTarget', option: str, value: 'Json') -> 'Awaitable[None]':
        """Tell the agent a choice (`target`: what `choose` returned). The session's choices go out one after the
        other, and its next prompt waits for them (`choices_sent`). Returns an awaitable of the call."""
        key = 's:' + target.session_id
        previous = get_key(self.choice_sends, key)
        done = deferred()
        self.choice_sends[key] = done['promise']

        async def send() -> None:
            try:
                if previous is not None:
                    await previous
                offered = get_key(self.offered, target.agent_name)
                answered = await self._set_option(target.agent, target.session_id, option, value, offered)
                self.config_answered(target.agent_name, answered, target.conversation)
            finally:
                done['resolve'](None)
                if get_key(self.choice_sends, key) is done['promise']:
                    del self.choice_sends[key]
        sending = spawn(send())  # type: Awaitable[None]
        return sending

    async def choices_sent(self, session_id: str) -> None:
        pending = get_key(self.choice_sends, 's:' + session_id)
        if pending is not None:
            await pending
