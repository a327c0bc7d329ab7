"""An ACP agent process (Hermes Agent, or any agent the user configured) seen as a Python object: start it,
open, load, resume and list its sessions, run prompts whose updates stream to a callback, cancel, and stop it.

The agent's own requests (permissions, questions, files, terminals) go to `client_side` (host/acp/client_side.py in VS
Code, fakes in tests). Transport and failure handling are net/acp/connection.py's; the protocol's facts and
texts core/acp/protocol.py's. Every failure reaches the caller as an AcpError (core/acp/protocol.py, also exported here)."""
# __pragma__('tconv')
from hermes.core.acp import protocol as acp
from hermes.core.acp.protocol import AcpError as _AcpError, RequestError as _RequestError
from hermes.core.acp.hermes_background import METHODS as BACKGROUND_METHODS, background_update
from hermes.core.acp.elicitation import ElicitationProblem, read_question, carries_secret, cancelled as cancelled_question
from hermes.core.values import get_key, json_type, object_keys
from hermes.js.errors import JsError, error_message
from hermes.js.objects import call_method
from hermes.js.promises import sleep_ms
from hermes.js.timers import clear_timer, set_timer
from hermes.net.acp.connection import AcpConnection
# __pragma__('skip')
from typing import Any, Awaitable, Callable, Dict, List, Optional
from hermes.contracts.json import Json, JsonObject

OnUpdate = Callable[[Json], None]
# __pragma__('noskip')

# Part of this module's API (a bare re-import is not exported by Transcrypt).
AcpError = _AcpError
RequestError = _RequestError

LIST_PAGES_LIMIT = 100  # session/list pages followed at most (an agent that repeats its cursor ends the loop too)


def _spec_problem(spec: 'Json') -> 'Optional[str]':
    """What is wrong with an agent spec ({'name', 'command', 'args', 'env', 'cwd'}), or None."""
    if json_type(spec) != 'object':
        return 'the agent settings are not an object'
    if json_type(get_key(spec, 'command')) != 'string' or spec['command'].strip() == '':
        return 'no command is set'
    args = get_key(spec, 'args', [])
    if json_type(args) != 'array' or len([arg for arg in args if json_type(arg) != 'string']) > 0:
        return '"args" must be a list of strings'
    env = get_key(spec, 'env', {})
    if json_type(env) != 'object' or len([key for key in object_keys(env) if json_type(env[key]) != 'string']) > 0:
        return '"env" must map names to strings'
    cwd = get_key(spec, 'cwd')
    if cwd is not None and json_type(cwd) != 'string':
        return '"cwd" must be a folder path'
    return None


class AcpAgent:
    """One agent process. `spec`: {'name', 'command', 'args', 'env', 'cwd'} and optionally
    'initialize_timeout_ms', 'request_timeout_ms', 'cancel_grace_ms', 'max_message_bytes' (core/acp/protocol.py has the
    defaults). `client_side` answers the agent's requests; `log` has debug/info/warn/error (or is None).

    Over ~250 lines on purpose: it is the client's side of the protocol, one short method per ACP method it sends
    (session/new, fork, load, resume, list, prompt, cancel, set_mode, set_config_option, authenticate, logout, close,
    delete) and the few it answers; read together they are the protocol as this client speaks it. The process and
    the JSON-RPC under it are net/acp/connection.py; the protocol's facts, core/acp/protocol.py."""

    def __init__(self, spec: 'JsonObject', client_side: 'Any', log: 'Any') -> None:
        self.spec = spec
        self.client_side = client_side
        self.log = log
        name = get_key(spec, 'name')
        self.name = name if json_type(name) == 'string' and name != '' else 'The agent'
        self.connection = None  # type: Optional[AcpConnection]
        self.initialize_result = None  # type: Json
        self.capabilities = {}  # type: JsonObject
        self.auth_methods = []  # type: List[Json]
        self.agent_info = None  # type: Json
        self.listeners = {}  # type: Dict[str, OnUpdate]  # session key → on_update of the turn (or load) running in it
        self.turn_requests = {}  # type: Dict[str, int]  # session key → id of its session/prompt request
        # session key → its questions waiting (permission requests, elicitations): [request id, the answer a
        # cancelled turn gives it]
        self.permissions = {}  # type: Dict[str, List[List[Json]]]
        self.cancel_timers = {}  # type: Dict[str, Any]  # session key → timer that gives up on a cancelled turn
        self.exit_callbacks = []  # type: List[Callable[[str], None]]
        self.update_callbacks = []  # type: List[Callable[[str, Json], None]]
        self.disposed = False

    # -- life ----------------------------------------------------------------------------------------------

    def _option(self, key: str, fallback: int) -> int:
        value = get_key(self.spec, key)
        return value if json_type(value) == 'integer' and value > 0 else fallback

    async def start(self) -> 'Json':
        """Spawn the agent and `initialize` it. Returns the initialize result; afterwards `.capabilities`
        (agentCapabilities), `.auth_methods`, `.agent_info` are set."""
        if self.connection is not None:
            raise AcpError('spawn', self.name + ' was already started.')
        problem = _spec_problem(self.spec)
        if problem is not None:
            raise AcpError('spawn', 'Could not start ' + self.name + ': ' + problem + '.')
        env = get_key(self.spec, 'env', {})
        connection = AcpConnection(self.name, self.log, {
            'on_request': self._on_request, 'on_notification': self._on_notification, 'on_close': self._on_close})
        self.connection = connection
        connection.add_secrets(acp.secrets_of([], env))
        if self.disposed:
            raise AcpError('exited', self.name + ' was stopped.')
        connection.open(self.spec['command'], get_key(self.spec, 'args', []), get_key(self.spec, 'cwd'), env,
                             self._option('max_message_bytes', acp.MAX_MESSAGE_BYTES))
        try:
            result = await connection.request('initialize', acp.initialize_params(),
                                                   self._option('initialize_timeout_ms', acp.INITIALIZE_TIMEOUT_MS))
        except JsError as error:
            if getattr(error, 'kind', None) == 'timeout':  # only an AcpError has a kind
                timed_out = error  # type: Any
                connection.fail(timed_out)  # an agent that does not start is no use: end it
            raise error
        problem = acp.version_problem(self.name, result)
        if problem is not None:
            failure = AcpError('protocol', problem)
            connection.fail(failure)
            raise failure
        self.initialize_result = result
        capabilities = get_key(result, 'agentCapabilities')
        self.capabilities = capabilities if json_type(capabilities) == 'object' else {}
        methods = get_key(result, 'authMethods')
        self.auth_methods = methods if json_type(methods) == 'array' else []
        self.agent_info = get_key(result, 'agentInfo')
        return result

    @property
    def alive(self) -> bool:
        return not self.disposed and self.connection is not None and self.connection.alive

    def on_exit(self, callback: 'Callable[[str], None]') -> None:
        """`callback(text)` once when the agent ends without dispose(): it exited or crashed, broke the protocol,
        or never answered initialize. Pending calls reject with the AcpError carrying the same text."""
        self.exit_callbacks.append(callback)

    def on_session_update(self, callback: 'Callable[[str, Json], None]') -> None:
        """`callback(session_id, update)` for each `session/update` no running prompt or load collects (the
        commands and title an agent sends between turns)."""
        self.update_callbacks.append(callback)

    def dispose(self) -> None:
        """Stop the agent: stdin closed, then SIGTERM and SIGKILL to its process group; pending calls reject
        with AcpError('exited'). `closed()` says when the process is gone."""
        if self.disposed:
            return
        self.disposed = True
        for key in self.cancel_timers.keys():
            clear_timer(self.cancel_timers[key])
        self.cancel_timers = {}
        if self.connection is not None:
            self.connection.close()

    def closed(self) -> 'Awaitable[Any]':
        """An awaitable that resolves when the agent's process has exited (at once if it never ran)."""
        if self.connection is None:
            return sleep_ms(0)
        return self.connection.wait_exit()

    def _on_close(self, error: AcpError, expected: bool) -> None:
        for key in self.cancel_timers.keys():
            clear_timer(self.cancel_timers[key])
        self.cancel_timers = {}
        if expected or self.disposed:
            return
        for callback in self.exit_callbacks:
            try:
                callback(error.message)
            except JsError as problem:
                self._log_error('on_exit', problem)

    # -- requests ------------------------------------------------------------------------------------------

    def _connection(self) -> AcpConnection:
        if self.connection is None:
            raise AcpError('exited', self.name + ' is not running (start() was not called).')
        return self.connection

    def _servers(self, mcp_servers: 'Json') -> 'List[Json]':
        servers = mcp_servers if json_type(mcp_servers) == 'array' else []
        self._connection().add_secrets(acp.secrets_of(servers, {}))
        return servers

    def _with_roots(self, params: 'JsonObject', additional: 'Optional[List[str]]') -> 'JsonObject':
        """`additionalDirectories` (a multi-root window's other folders) where the agent offers them
        (sessionCapabilities.additionalDirectories); otherwise the agent sees the first folder only, as before."""
        offered = get_key(get_key(self.capabilities, 'sessionCapabilities'), 'additionalDirectories')
        if additional is not None and len(additional) > 0 and json_type(offered) == 'object':
            params['additionalDirectories'] = additional
        return params

    async def new_session(self, cwd: str, mcp_servers: 'Json', additional: 'Optional[List[str]]' = None) -> 'Json':
        """`session/new` → {'sessionId', 'modes'?, 'models'?, 'configOptions'?}. The MCP servers (with their
        headers: the token) reach the agent only here, over its stdin."""
        servers = self._servers(mcp_servers)
        result = await self._connection().request('session/new', self._with_roots({'cwd': cwd, 'mcpServers': servers},
                                                                                  additional),
                                                  self._option('request_timeout_ms', acp.REQUEST_TIMEOUT_MS))
        if json_type(get_key(result, 'sessionId')) != 'string':
            raise AcpError('protocol', self.name + ' answered session/new without a session id.')
        return result

    async def fork_session(self, session_id: str, cwd: str, mcp_servers: 'Json',
                           additional: 'Optional[List[str]]' = None) -> 'Json':
        """`session/fork` (unstable in ACP; only where sessionCapabilities.fork): a new session with the history of
        `session_id` → {'sessionId', 'modes'?, 'configOptions'?}. The spec forks a whole session (no earlier turn)."""
        servers = self._servers(mcp_servers)
        result = await self._connection().request(
            'session/fork', self._with_roots({'sessionId': session_id, 'cwd': cwd, 'mcpServers': servers}, additional),
            self._option('request_timeout_ms', acp.REQUEST_TIMEOUT_MS))
        if json_type(get_key(result, 'sessionId')) != 'string' or get_key(result, 'sessionId') == '':
            raise AcpError('protocol', self.name + ' answered session/fork without a session id.')
        return result

    async def load_session(self, session_id: str, cwd: str, mcp_servers: 'Json', on_update: 'OnUpdate',
                           additional: 'Optional[List[str]]' = None) -> 'Json':
        """`session/load`: the agent replays the session as updates (to `on_update`) before it answers. A listener
        the session had (a load into a session already open, e.g. to hand MCP servers again) gets it back."""
        servers = self._servers(mcp_servers)
        connection = self._connection()
        key = acp.session_key(session_id)
        previous = self.listeners[key] if key in self.listeners else None
        self.listeners[key] = on_update
        try:
            result = await connection.request(
                'session/load', self._with_roots({'sessionId': session_id, 'cwd': cwd, 'mcpServers': servers},
                                                 additional),
                self._option('load_timeout_ms', acp.LOAD_TIMEOUT_MS))
        finally:
            if key in self.listeners and self.listeners[key] is on_update:
                if previous is None:
                    del self.listeners[key]
                else:
                    self.listeners[key] = previous
        return {} if result is None else result

    async def resume_session(self, session_id: str, cwd: str, mcp_servers: 'Json') -> 'Json':
        servers = self._servers(mcp_servers)
        result = await self._connection().request(
            'session/resume', {'sessionId': session_id, 'cwd': cwd, 'mcpServers': servers},
            self._option('load_timeout_ms', acp.LOAD_TIMEOUT_MS))
        return {} if result is None else result

    async def list_sessions(self, cwd: str) -> 'List[JsonObject]':
        """Every page of `session/list` for `cwd`: [{'sessionId', 'title', 'updatedAt', 'cwd'}]."""
        sessions = []  # type: List[JsonObject]
        cursors = []  # type: List[str]
        cursor = None  # type: Optional[str]
        for page in range(LIST_PAGES_LIMIT):
            params = {'cwd': cwd}  # type: JsonObject
            if cursor is not None:
                params['cursor'] = cursor
            result = await self._connection().request('session/list', params,
                                                      self._option('request_timeout_ms', acp.REQUEST_TIMEOUT_MS))
            sessions.extend(acp.listed_sessions(result))
            cursor = acp.page_cursor(result)
            if cursor is None or cursor in cursors:
                break
            cursors.append(cursor)
        return sessions

    async def prompt(self, session_id: str, blocks: 'List[Json]', on_update: 'OnUpdate') -> 'Json':
        """`session/prompt` → {'stopReason': …}. `on_update(update)` is called, in order and synchronously, for
        each session/update of this session until the answer."""
        connection = self._connection()
        key = acp.session_key(session_id)
        if key in self.turn_requests:
            raise AcpError('protocol', 'A turn is already running in this ' + self.name + ' session.')
        self.listeners[key] = on_update
        sent = connection.start_request('session/prompt', {'sessionId': session_id, 'prompt': blocks}, None)
        self.turn_requests[key] = sent['id']
        try:
            result = await sent['promise']
        finally:
            if key in self.listeners and self.listeners[key] is on_update:
                del self.listeners[key]
            if key in self.turn_requests and self.turn_requests[key] == sent['id']:
                del self.turn_requests[key]
            if key in self.cancel_timers:
                clear_timer(self.cancel_timers[key])
                del self.cancel_timers[key]
        return {} if result is None else result

    def cancel(self, session_id: str) -> None:
        """`session/cancel`: the agent should end the turn with stopReason 'cancelled'. Permission requests and
        questions (elicitations) of the session still waiting are answered 'cancelled' / 'cancel' now (the protocol
        asks the client to). A turn that has
        not ended `cancel_grace_ms` later rejects with AcpError('timeout')."""
        if self.connection is None or self.connection.error is not None:
            return
        key = acp.session_key(session_id)
        self.connection.notify('session/cancel', {'sessionId': session_id})
        if key in self.permissions:
            waiting = self.permissions[key]
            del self.permissions[key]
            for entry in waiting:
                self.connection.respond(entry[0], entry[1])
        if key in self.turn_requests and key not in self.cancel_timers:
            request_id = self.turn_requests[key]
            grace = self._option('cancel_grace_ms', acp.CANCEL_GRACE_MS)
            self.cancel_timers[key] = set_timer(lambda: self._give_up(key, request_id, grace), grace)

    def _give_up(self, key: str, request_id: int, grace: int) -> None:
        if key in self.cancel_timers:
            del self.cancel_timers[key]
        if self.connection is not None:
            self.connection.abandon(request_id, AcpError(
                'timeout', self.name + ' did not end the turn within ' + acp.seconds_text(grace) +
                ' of being asked to stop.'))

    async def set_mode(self, session_id: str, mode_id: str) -> 'Json':
        return await self._connection().request('session/set_mode', {'sessionId': session_id, 'modeId': mode_id},
                                                self._option('request_timeout_ms', acp.REQUEST_TIMEOUT_MS))

    async def set_model(self, session_id: str, model_id: str) -> 'Json':
        return await self._connection().request('session/set_model', {'sessionId': session_id, 'modelId': model_id},
                                                self._option('request_timeout_ms', acp.REQUEST_TIMEOUT_MS))

    async def authenticate(self, method_id: str) -> 'Json':
        """`authenticate {methodId}` for an agent sign-in method (never a terminal one: core/acp/sign_in.py)."""
        return await self._connection().request('authenticate', {'methodId': method_id},
                                                self._option('sign_in_timeout_ms', acp.SIGN_IN_TIMEOUT_MS))

    async def logout(self) -> 'Json':
        """`logout {}` (only for an agent whose capabilities offer it)."""
        return await self._connection().request('logout', {},
                                                self._option('request_timeout_ms', acp.REQUEST_TIMEOUT_MS))

    async def close_session(self, session_id: str) -> 'Json':
        """`session/close`: the agent stops the session's work and frees it (only where sessionCapabilities.close)."""
        key = acp.session_key(session_id)
        if key in self.listeners:
            del self.listeners[key]
        return await self._connection().request('session/close', {'sessionId': session_id},
                                                self._option('request_timeout_ms', acp.REQUEST_TIMEOUT_MS))

    async def delete_session(self, session_id: str) -> 'Json':
        """`session/delete`: the agent forgets the session (its session/list no longer has it; only where
        sessionCapabilities.delete)."""
        return await self._connection().request('session/delete', {'sessionId': session_id},
                                                self._option('request_timeout_ms', acp.REQUEST_TIMEOUT_MS))

    async def set_config_option(self, session_id: str, config_id: str, value: 'Json') -> 'Json':
        """`session/set_config_option` → {'configOptions': every option anew}."""
        return await self._connection().request('session/set_config_option',
                                                {'sessionId': session_id, 'configId': config_id, 'value': value},
                                                self._option('request_timeout_ms', acp.REQUEST_TIMEOUT_MS))

    # -- what the agent sends ------------------------------------------------------------------------------

    def _on_notification(self, method: str, params: 'Json') -> None:
        if method in BACKGROUND_METHODS:  # Hermes Agent's background work, as one more kind of session update
            update = background_update(method, params)  # type: Json
        elif method == 'session/update':
            update = get_key(params, 'update')
        else:
            return  # unknown notifications are ignored, as the protocol allows
        session_id = acp.update_session_id(params)
        if session_id is None or json_type(update) != 'object':
            return
        key = acp.session_key(session_id)
        if key in self.listeners:
            try:
                self.listeners[key](update)
            except JsError as problem:
                self._log_error('on_update', problem)
            return
        for callback in self.update_callbacks:
            try:
                callback(session_id, update)
            except JsError as problem:
                self._log_error('on_session_update', problem)

    async def _on_request(self, method: str, params: 'Json', request_id: 'Json') -> 'Json':
        if method not in acp.CLIENT_METHODS:
            raise RequestError(acp.METHOD_NOT_FOUND, 'Method not found: ' + method)
        name = acp.CLIENT_METHODS[method]
        if self.client_side is None or getattr(self.client_side, name, None) is None:
            raise RequestError(acp.METHOD_NOT_FOUND, 'Method not found: ' + method)
        if acp.is_elicitation_request(method):
            return await self._elicit(name, params, request_id)
        if not acp.is_permission_request(method):
            return await call_method(self.client_side, name, params)
        session_id = acp.update_session_id(params)
        return await self._ask(session_id, request_id, acp.cancelled_permission(),
                               lambda: call_method(self.client_side, name, session_id, params))

    async def _ask(self, session_id: 'Json', request_id: 'Json', if_cancelled: 'Json',
                   asking: 'Callable[[], Awaitable[Any]]') -> 'Json':
        """A question to the user for a session's turn, kept so that cancel() answers it `if_cancelled` at once."""
        key = acp.session_key(session_id)
        if key not in self.permissions:
            self.permissions[key] = []
        entry = [request_id, if_cancelled]
        self.permissions[key].append(entry)
        try:
            return await asking()
        finally:
            if key in self.permissions and entry in self.permissions[key]:
                self.permissions[key].remove(entry)

    async def _elicit(self, name: str, params: 'Json', request_id: 'Json') -> 'Json':
        """`elicitation/create` (core/acp/elicitation.py has the wire): read and checked here, where the secrets handed
        to the agent and the requests we sent are known; asked by the client side in the turn of its session (a
        request-scoped one: the turn whose session/prompt it names; none running: answered cancel)."""
        try:
            question = read_question(params)
        except ElicitationProblem as problem:
            raise RequestError(acp.INVALID_PARAMS, problem.message)
        if question['mode'] == 'url' and carries_secret(question['url'], self._connection().secrets):
            raise RequestError(acp.INVALID_PARAMS, 'Invalid params: the URL carries a credential this client handed '
                               'the agent (its MCP token or a key); it is not shown or opened.')
        session_id = question['sessionId']
        if session_id is None and json_type(question['requestId']) == 'integer':  # our request ids are integers
            for key in self.turn_requests.keys():
                if self.turn_requests[key] == question['requestId']:
                    session_id = key[2:]  # acp.session_key's prefix
        if session_id is None:
            if self.log is not None:
                self.log.warn(self.name + ': a question outside any running turn was answered cancel')
            return cancelled_question()
        question['sessionId'] = session_id
        return await self._ask(session_id, request_id, cancelled_question(),
                               lambda: call_method(self.client_side, name, session_id, question))

    def _log_error(self, what: str, problem: 'Any') -> None:
        if self.log is not None:
            self.log.error(self.name + ': ' + what + ' failed: ' + error_message(problem))


