"""ACP (Agent Client Protocol, version 1) seen from the client: the facts of the protocol this extension
speaks, its errors, and the texts a user reads when an agent fails. Pure: no process, no VS Code.
net/acp/connection.py and net/acp/agent.py run the protocol; host/acp/client_side.py answers the agent."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import List, Optional
from hermes.contracts.json import Json, JsonObject
# __pragma__('noskip')
from hermes.core.dialog_text import agent_title
from hermes.core.values import json_type, get_key, has_key, describe, object_keys
from hermes.js.errors import error_message
from hermes.js.json import dump_json
from hermes.version import VERSION

PROTOCOL_VERSION = 1

# A line on the agent's stdout longer than this ends the connection: the same bound as the official SDK's
# DEFAULT_MAX_MESSAGE_BYTES. Whole files and session replays fit; a runaway writer does not eat the host.
MAX_MESSAGE_BYTES = 32 * 1024 * 1024

# What of the agent's stderr is kept for error messages (its last characters) and how much of it reaches the log.
STDERR_TAIL_CHARS = 4000
STDERR_LOG_CHARS = 1024 * 1024

INITIALIZE_TIMEOUT_MS = 60000   # npx-started agents may fetch a package first
REQUEST_TIMEOUT_MS = 120000     # session/new with an unreachable MCP server takes ~9 s in Hermes 0.19.0
LOAD_TIMEOUT_MS = 600000        # session/load replays the whole history before it answers
SIGN_IN_TIMEOUT_MS = 600000     # authenticate may wait for the user in a browser (an OAuth flow)
CANCEL_GRACE_MS = 10000         # after session/cancel, how long a turn may take to end before we stop waiting

# The agent's requests to the client, and the method of the client side that answers each.
CLIENT_METHODS = {
    'session/request_permission': 'request_permission',
    'fs/read_text_file': 'read_text_file',
    'fs/write_text_file': 'write_text_file',
    'terminal/create': 'terminal_create',
    'terminal/output': 'terminal_output',
    'terminal/wait_for_exit': 'terminal_wait_for_exit',
    'terminal/kill': 'terminal_kill',
    'terminal/release': 'terminal_release',
    'elicitation/create': 'create_elicitation',
}

METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
RESOURCE_NOT_FOUND = -32002  # ACP's code for a file or terminal that does not exist

KINDS = ['spawn', 'timeout', 'exited', 'protocol', 'agent']


class AcpError(Exception):
    """Why a call to an ACP agent failed. `kind`: 'spawn' (it could not start), 'timeout' (no answer in time),
    'exited' (the process ended, or was ended), 'protocol' (it broke the protocol: a malformed or oversized
    message, a version we do not speak), 'agent' (it answered with a JSON-RPC error: `code`, `data`).
    The message is written for the user."""

    def __init__(self, kind: str, message: str, code: 'Optional[int]' = None, data: 'Json' = None) -> None:
        Exception.__init__(self, message)
        self.kind = kind
        self.message = message
        self.code = code
        self.data = data

    def __str__(self) -> str:
        return self.message


class RequestError(Exception):
    """Raised by a client side's handler: the agent gets a JSON-RPC error with this code and message."""

    def __init__(self, code: int, message: str, data: 'Json' = None) -> None:
        Exception.__init__(self, message)
        self.code = code
        self.message = message
        self.data = data

    def __str__(self) -> str:
        return self.message


def initialize_params() -> 'JsonObject':
    """What we tell the agent in `initialize`: the version we speak, that we serve files and terminals, and that
    we run terminal sign-in methods (core/acp/sign_in.py) and ask the user its questions — forms and URLs
    (`elicitation`: each mode only when present and non-null, so both are named; core/acp/elicitation.py)."""
    return {
        'protocolVersion': PROTOCOL_VERSION,
        'clientCapabilities': {'fs': {'readTextFile': True, 'writeTextFile': True}, 'terminal': True,
                               'auth': {'terminal': True}, 'elicitation': {'form': {}, 'url': {}}},
        'clientInfo': {'name': 'hermes-vscode', 'title': 'Hermes for VS Code', 'version': VERSION},
    }


def version_problem(name: str, result: 'Json') -> 'Optional[str]':
    """None when the initialize result speaks our version, else the text of the refusal."""
    version = get_key(result, 'protocolVersion')
    if json_type(version) == 'integer' and version == PROTOCOL_VERSION:
        return None
    return name + ' speaks ACP protocol version ' + describe(version) + '; Hermes for VS Code speaks version ' + \
        str(PROTOCOL_VERSION) + '.'


# Words in a variable's name that mark its value as a credential (checked in upper case).
SECRET_NAME_WORDS = ['KEY', 'TOKEN', 'SECRET', 'PASSWORD', 'PASSWD', 'AUTH', 'CREDENTIAL', 'COOKIE', 'SESSION']


def is_secret_name(name: 'Json') -> bool:
    upper = name.upper() if json_type(name) == 'string' else ''
    for word in SECRET_NAME_WORDS:
        if word in upper:
            return True
    return False


def secrets_of(mcp_servers: 'Json', env: 'Json') -> 'List[str]':
    """The values that must never appear in a log line or an error text: every header value of the MCP servers
    handed to the agent (the token travels there), and the values of environment variables — the agent's own and
    the MCP servers' — whose names say they are credentials (API_KEY, GITHUB_TOKEN, …: a HERMES_HOME path stays
    readable); for an `Authorization: Bearer <token>` value, the token alone too. Short values (under 8
    characters) are no secrets worth hiding and would blank out ordinary words."""
    found = []  # type: List[str]

    def add(value: 'Json') -> None:
        if json_type(value) != 'string':
            return
        candidates = value.split(' ')
        candidates.append(value)
        for text in candidates:
            if len(text) >= 8 and text not in found:
                found.append(text)

    if json_type(env) == 'object':
        for key in object_keys(env):
            if is_secret_name(key):
                add(env[key])
    if json_type(mcp_servers) == 'array':
        for server in mcp_servers:
            headers = get_key(server, 'headers')
            if json_type(headers) == 'array':
                for entry in headers:
                    add(get_key(entry, 'value'))
            variables = get_key(server, 'env')
            if json_type(variables) == 'array':
                for entry in variables:
                    if is_secret_name(get_key(entry, 'name')):
                        add(get_key(entry, 'value'))
    return found


def redact(text: 'Json', secrets: 'List[str]') -> 'Json':
    """`text` with every secret replaced by '[redacted]' (longest first, so a token inside its header value
    goes with it)."""
    if json_type(text) != 'string':
        return text
    ordered = sorted(secrets, key=lambda secret: -len(secret))
    for secret in ordered:
        if secret in text:
            text = '[redacted]'.join(text.split(secret))
    return text


def append_tail(tail: str, text: str, limit: int) -> str:
    """The last `limit` characters of `tail + text`, from the start of a line: when it is cut, the partial first
    line goes too (it may hold the end of a secret whose start was cut off, which redaction could not recognise)."""
    joined = tail + text
    if len(joined) > limit:
        cut = joined[len(joined) - limit:]
        newline = cut.find('\n')
        return '' if newline < 0 else cut[newline + 1:]
    return joined


def last_lines(text: str, count: int) -> str:
    """The last `count` non-empty lines of `text`, joined by newlines: what a user reads under an error."""
    lines = [line for line in text.split('\n') if line.strip() != '']
    if len(lines) > count:
        lines = lines[len(lines) - count:]
    return '\n'.join(lines)


def with_output(message: str, stderr_tail: str) -> str:
    """`message`, then what the agent last wrote on stderr, if anything."""
    output = last_lines(stderr_tail, 12)
    if output == '':
        return message
    return message + '\nIts last output:\n' + output


def spawn_error_text(name: str, command: str, cwd: 'Optional[str]', reason: str) -> str:
    """Why `command` could not be started (`reason`: an errno name or a message)."""
    if reason == 'ENOENT':
        where = '' if cwd is None or cwd == '' else ' (or the folder ' + cwd + ' does not exist)'
        return 'Could not start ' + name + ': the command "' + command + '" was not found' + where + '.'
    if reason == 'EACCES':
        return 'Could not start ' + name + ': "' + command + '" is not executable (permission denied).'
    return 'Could not start ' + name + ' ("' + command + '"): ' + reason + '.'


def exit_text(name: str, code: 'Optional[int]', signal: 'Optional[str]', during: str) -> str:
    """The agent's process ended although nobody asked it to; `during` says what was going on
    ('while starting', 'during a turn', '')."""
    if signal is not None:
        how = 'was ended by signal ' + signal
    elif code is None:
        how = 'stopped'
    else:
        how = 'exited with code ' + str(code)
    text = name + ' ' + how
    if during != '':
        text = text + ' ' + during
    return text + '.'


def agent_error_text(name: str, error: 'Json', secrets: 'Optional[List[str]]' = None) -> str:
    """A JSON-RPC error the agent answered with, as a user reads it: its message, its code, and the details
    its `data` carries when they are short. `secrets` are redacted before anything is cut (a secret cut in two
    would no longer be recognised)."""
    secrets = [] if secrets is None else secrets
    message = redact(get_key(error, 'message'), secrets)
    text = message if json_type(message) == 'string' and message != '' else 'an error without a message'
    code = get_key(error, 'code')
    if json_type(code) == 'integer':
        text = text + ' (' + str(code) + ')'
    data = get_key(error, 'data')
    if data is not None:
        if json_type(data) == 'string':
            detail = redact(data, secrets)
        else:  # describe() cuts at 80 characters: the secrets go first
            dumped = dump_json(data)
            cleaned = redact(dumped, secrets)
            detail = describe(data) if cleaned == dumped else cleaned
        if len(detail) > 300:
            detail = detail[:297] + '...'
        text = text + ': ' + detail
    return name + ': ' + text


def malformed_text(name: str, line: str, reason: str, secrets: 'Optional[List[str]]' = None) -> str:
    """The agent wrote something on stdout that is no ACP message (`secrets` redacted before it is cut)."""
    line = redact(line, [] if secrets is None else secrets)
    shown = line if len(line) <= 200 else line[:197] + '...'
    return name + ' wrote something that is not an ACP message on its stdout (' + reason + '): ' + shown


def oversized_text(name: str, limit: int) -> str:
    return name + ' sent a message larger than ' + size_text(limit) + ', the limit; the connection was closed.'


def size_text(count: int) -> str:
    """A byte count as people write it: whole megabytes as 'N MB', anything else in bytes."""
    if count >= 1048576 and count % 1048576 == 0:
        return str(count // 1048576) + ' MB'
    return str(count) + ' bytes'


def seconds_text(ms: int) -> str:
    """A duration in milliseconds as seconds: '60 s', '0.3 s'."""
    if ms % 1000 == 0:
        return str(ms // 1000) + ' s'
    return str(ms / 1000) + ' s'


def error_reply(error: BaseException) -> 'JsonObject':
    """The JSON-RPC error object for an exception a client side's handler raised: its own `code` when it
    carries an integer one (RequestError, an AcpError of kind 'agent'), else an internal error with its text."""
    code = getattr(error, 'code', None)
    reply = {'code': code if json_type(code) == 'integer' else INTERNAL_ERROR, 'message': error_message(error)}
    data = getattr(error, 'data', None)
    if data is not None:
        reply['data'] = data
    return reply


def session_key(session_id: 'Json') -> str:
    """A dict key for a session id the agent chose: prefixed, so '__proto__' or 'keys' stay plain data."""
    return 's:' + str(session_id)


def update_session_id(params: 'Json') -> 'Optional[str]':
    """The session a `session/update` notification belongs to, or None."""
    session_id = get_key(params, 'sessionId')
    return session_id if json_type(session_id) == 'string' else None


def is_permission_request(method: 'Json') -> bool:
    return method == 'session/request_permission'


def is_elicitation_request(method: 'Json') -> bool:
    return method == 'elicitation/create'


def cancelled_permission() -> 'JsonObject':
    """The answer to a permission request whose turn was cancelled (what the protocol asks of the client)."""
    return {'outcome': {'outcome': 'cancelled'}}


def page_cursor(result: 'Json') -> 'Optional[str]':
    """The cursor of the next page of `session/list`, or None at the last page."""
    cursor = get_key(result, 'nextCursor')
    return cursor if json_type(cursor) == 'string' and cursor != '' else None


def listed_sessions(result: 'Json') -> 'List[JsonObject]':
    """The sessions of one `session/list` page, each as {'sessionId', 'title', 'updatedAt', 'cwd'}."""
    sessions = get_key(result, 'sessions')
    found = []  # type: List[JsonObject]
    if json_type(sessions) != 'array':
        return found
    for item in sessions:
        session_id = get_key(item, 'sessionId')
        if json_type(session_id) != 'string':
            continue
        found.append({'sessionId': session_id, 'title': agent_title(get_key(item, 'title')),
                      'updatedAt': _text_or_none(get_key(item, 'updatedAt')), 'cwd': _text_or_none(get_key(item, 'cwd'))})
    return found


def _text_or_none(value: 'Json') -> 'Optional[str]':
    return value if json_type(value) == 'string' else None


def has_result(message: 'Json') -> bool:
    return has_key(message, 'result')
