"""Which ACP agent answers a conversation: Hermes Agent (found on PATH, or `hermes.acp.hermesPath`) and the agents of
`hermes.acp.agents`, as the user's settings and the workspace's trust allow (core/acp/backends.py decides; this reads
the settings, PATH and the trust for it)."""
# __pragma__('tconv')
from hermes.js.process import environment_variable
from hermes.core.acp.backends import (hermes_spec, configured_agents, choose_backend, find_spec, HERMES_NAME,
                                      backend_choices, default_choice)
from hermes.host.settings import setting
# __pragma__('skip')
from typing import Callable, List, Optional
from hermes.contracts.json import JsonObject
from hermes.core.acp.backends import Spec
from hermes.core.chat.conversations import Conversation

# (a program's name, folders to search besides PATH) → its absolute path, or None (host/acp/agent_launch.py find_program)
ProgramFinder = Callable[[str, Optional[List[str]]], Optional[str]]
# __pragma__('noskip')


def _user_bin_folders() -> 'List[str]':
    """Where `pip install --user` and pipx put programs; VS Code started from a desktop may lack them in PATH."""
    home = environment_variable('HOME')
    if home is None or home == '':  # (environment_variable: a string or None)
        return []
    return [home + '/.local/bin']


class AgentChoice:
    """`find` looks a program up (Hermes Agent's `hermes`); `trusted()` says whether the workspace is trusted
    (Restricted Mode starts no agent); `hands_mcp`: whether this window has an MCP server to hand to the agent (a
    test's window may have none)."""

    def __init__(self, find: 'ProgramFinder', trusted: 'Callable[[], bool]', hands_mcp: bool) -> None:
        self.find = find
        self.trusted = trusted
        self.hands_mcp = hands_mcp
        self.hinted = []  # type: List[Optional[str]]  # conversation ids that were told once how to get Hermes Agent

    def hermes(self) -> 'Optional[Spec]':
        hands_mcp = setting('mcp.enabled') is True and self.hands_mcp
        return hermes_spec(setting('acp.hermesPath'), lambda name: self.find(name, _user_bin_folders()), hands_mcp)

    def agents_configured(self) -> 'List[Spec]':
        return configured_agents(setting('acp.agents'))

    def backend_for(self, conversation: 'Conversation', wanted: 'Optional[str]' = None) -> 'JsonObject':
        """{'kind': 'acp', 'spec'} | {'kind': 'builtin', 'notice'} | {'kind': 'missing', 'notice'}: the
        conversation's agent (it keeps the one it started with), else the one `wanted` (a front end's choice,
        core/acp/backends.py `backend_choices`; None: `hermes.agent.backend`) picks for a new conversation."""
        acp = conversation.acp
        if acp is not None:
            if not self.trusted():
                return choose_backend('auto', None, [], False)
            spec = self.spec_named(acp['agent'])
            if spec is not None:
                return {'kind': 'acp', 'spec': spec}
            return {'kind': 'missing', 'notice': acp['agent'] + ' answered this conversation, but it is '
                    'no longer installed or configured. Start a new session to continue with another agent.'}
        if len(conversation.messages) > 0:
            return {'kind': 'builtin', 'notice': None}  # a conversation the built-in loop began stays with it
        return choose_backend(setting('agent.backend') if wanted is None else wanted, self.hermes(),
                              self.agents_configured(), self.trusted())

    def choices(self) -> 'JsonObject':
        """{'choices': what a front end offers (backend_choices), 'default': the choice hermes.agent.backend makes}."""
        hermes = self.hermes()
        agents = self.agents_configured()
        trusted = self.trusted()
        return {'choices': backend_choices(hermes, agents, trusted),
                'default': default_choice(setting('agent.backend'), hermes, agents, trusted)}

    def choose_for_listing(self) -> 'Optional[JsonObject]':
        """The agent whose own sessions the list shows: the one new sessions use, when it is an ACP agent."""
        choice = choose_backend(setting('agent.backend'), self.hermes(), self.agents_configured(), self.trusted())
        return choice if choice['kind'] == 'acp' else None

    def spec_named(self, name: str) -> 'Optional[Spec]':
        """The spec of the agent called `name`, or None. Hermes Agent is looked up on PATH only when it is the one
        named: a turn of another agent does not search PATH (a stat per entry, every turn)."""
        hermes = self.hermes() if name == HERMES_NAME else None
        return find_spec(name, hermes, self.agents_configured())

    def notice_once(self, conversation: 'Conversation', notice: 'Optional[str]') -> 'Optional[str]':
        """The install hint is said once per conversation."""
        if notice is None or conversation.id in self.hinted:
            return None
        self.hinted.append(conversation.id)
        return notice
