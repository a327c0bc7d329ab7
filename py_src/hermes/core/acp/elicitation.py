"""ACP elicitation: an agent asks the user a structured question (stable in ACP since 2026-07-24). Pure: what a
request says, read defensively; the user's answers checked against the requested schema; the exact result.

The wire, as the protocol's schema (agentclientprotocol/agent-client-protocol, schema/v1/schema.json) and its page
docs/protocol/v1/elicitation.mdx define it:
- the client advertises it in `initialize`: `clientCapabilities.elicitation = {"form": {}, "url": {}}` (each mode
  only when present and non-null; core/acp/protocol.py initialize_params);
- agent → client request `elicitation/create`, params `{message, mode, _meta?}` plus either the session scope
  (`sessionId`, `toolCallId?`) or the request scope (`requestId`: a request of ours still running), and
    form: `{"mode": "form", "requestedSchema": {"type": "object", "title"?, "properties": {name: property},
           "required"?: [name…]}}`, a property being `{"type": "string", title?, description?, minLength?,
           maxLength?, pattern?, format?: email|uri|date|date-time, default?, enum?: [string…],
           oneOf?: [{const, title}…]}` · `{"type": "number"|"integer", title?, description?, minimum?, maximum?,
           default?}` · `{"type": "boolean", title?, description?, default?}` · `{"type": "array", items, …}`
           (multi-select: not answered here, below);
    url:  `{"mode": "url", "elicitationId": string, "url": string (format uri)}`;
- result `{"action": "accept", "content"?: {name: string | integer | number | boolean | [string]}}` ·
  `{"action": "decline"}` (the user said no) · `{"action": "cancel"}` (dismissed without choosing). A URL
  question's accept means the user agreed to open it (no content);
- a mode the client did not advertise, or params that are no such request: JSON-RPC -32602 (Invalid params);
- notification `elicitation/complete {elicitationId}` may follow a URL question: clients MUST ignore unknown or
  completed ids — this client keeps nothing of a URL question once answered, so it ignores them all.

The agent chose every word of a question: labels, descriptions and the message lose control, zero-width and bidi
characters (core/dialog_text.py), are bounded, and each front end renders them as text only (ui/acp/chat.py through
core/untrusted_markdown.py; the panel through textContent). Not checked: `pattern` (the agent's regular expression
would run here, in the extension host, and Python's and JavaScript's dialects differ; the agent SHOULD validate
again, as the protocol says) and the multi-select field type (a required one makes the form unanswerable here: the
user is told so and can decline)."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Dict, List, Optional
from hermes.contracts.json import Json, JsonObject
# __pragma__('noskip')
from hermes.core.dialog_text import drop_invisible
from hermes.core.values import get_key, json_type, copyable_keys, describe

MAX_MESSAGE_CHARS = 2000       # the question's message (line breaks kept)
MAX_LABEL_CHARS = 200          # a field's label, an option's label, the form's title (one line)
MAX_DESCRIPTION_CHARS = 500    # a field's description (one line)
MAX_FIELDS = 30                # a form with more fields is refused as invalid params
MAX_OPTIONS = 100              # choices of one field; more are refused as invalid params
MAX_NAME_CHARS = 200           # a property's name: sent back exactly, so refused when longer, never cut
MAX_ANSWER_CHARS = 10000       # what the user may type in one field (beyond the schema's own maxLength)
MAX_URL_CHARS = 4000
SAFE_INTEGER = 9007199254740991  # the largest integer both JSON sides hold exactly
FORMATS = ['email', 'uri', 'date', 'date-time']
DIGITS = '0123456789'
SCHEME_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789+.-'
YES = 'Yes'
NO = 'No'


class ElicitationProblem(Exception):
    """A request that is no elicitation we can ask: the agent gets -32602 with this text."""

    def __init__(self, message: str) -> None:
        Exception.__init__(self, message)
        self.message = message

    def __str__(self) -> str:
        return self.message


def shown_text(value: 'Json', limit: int, keep_newlines: bool = False) -> str:
    """An agent's words as a label may show them: invisible and reordering characters dropped, runs of spaces
    joined (line breaks kept only if asked), at most `limit` characters ('…' says where it was cut)."""
    if json_type(value) != 'string':
        return ''
    lines = drop_invisible(value, keep_newlines).split('\n')
    text = '\n'.join([' '.join(line.split()) for line in lines]).strip()
    return text if len(text) <= limit else text[:limit - 1] + '…'


# ------------------------------------------------------------------------------------------- the request


def _options(schema: 'Json') -> 'Optional[List[JsonObject]]':
    """A string field's choices ([{'value', 'label'}]) from `oneOf` (titled) or `enum`, None for a free text."""
    titled = get_key(schema, 'oneOf')
    plain = get_key(schema, 'enum')
    options = []  # type: List[JsonObject]
    if json_type(titled) == 'array':
        for option in titled:
            value = get_key(option, 'const')
            if json_type(value) != 'string':
                raise ElicitationProblem('Invalid params: every "oneOf" choice needs a string "const"')
            label = shown_text(get_key(option, 'title'), MAX_LABEL_CHARS)
            options.append({'value': value, 'label': label if label != '' else shown_text(value, MAX_LABEL_CHARS)})
    elif json_type(plain) == 'array':
        for value in plain:
            if json_type(value) != 'string':
                raise ElicitationProblem('Invalid params: "enum" choices must be strings')
            options.append({'value': value, 'label': shown_text(value, MAX_LABEL_CHARS)})
    else:
        return None
    if len(options) == 0 or len(options) > MAX_OPTIONS:
        raise ElicitationProblem('Invalid params: a choice field needs 1 to ' + str(MAX_OPTIONS) + ' choices')
    return options


def _bound(schema: 'Json', key: str, kind: str) -> 'Json':
    value = get_key(schema, key)
    if kind == 'integer':
        return value if json_type(value) == 'integer' else None
    return value if json_type(value) == 'integer' or json_type(value) == 'number' else None


def _field(name: str, schema: 'Json', required: bool) -> 'JsonObject':
    """One property of the requested schema as the front ends draw it."""
    kind = get_key(schema, 'type')
    label = shown_text(get_key(schema, 'title'), MAX_LABEL_CHARS)
    field = {'name': name, 'kind': 'unsupported', 'type': kind if json_type(kind) == 'string' else '',
             'label': label if label != '' else shown_text(name, MAX_LABEL_CHARS),
             'description': shown_text(get_key(schema, 'description'), MAX_DESCRIPTION_CHARS),
             'required': required, 'default': None, 'options': None, 'minimum': None, 'maximum': None,
             'minLength': None, 'maxLength': None, 'format': None}  # type: JsonObject
    default = get_key(schema, 'default')
    if kind == 'string':
        options = _options(schema)
        field['options'] = options
        field['kind'] = 'string' if options is None else 'choice'
        for key in ['minLength', 'maxLength']:
            bound = get_key(schema, key)
            field[key] = bound if json_type(bound) == 'integer' and bound >= 0 else None
        string_format = get_key(schema, 'format')
        field['format'] = string_format if json_type(string_format) == 'string' and string_format in FORMATS else None
        if json_type(default) == 'string' and (options is None or default in [option['value'] for option in options]):
            field['default'] = default
    elif kind == 'number' or kind == 'integer':
        field['kind'] = kind
        field['minimum'] = _bound(schema, 'minimum', kind)
        field['maximum'] = _bound(schema, 'maximum', kind)
        if json_type(default) == 'integer' or (kind == 'number' and json_type(default) == 'number'):
            field['default'] = default
    elif kind == 'boolean':
        field['kind'] = 'boolean'
        field['options'] = [{'value': 'true', 'label': YES}, {'value': 'false', 'label': NO}]
        if json_type(default) == 'boolean':
            field['default'] = default
    return field


def _scope(params: 'Json', question: 'JsonObject') -> None:
    session_id = get_key(params, 'sessionId')
    request_id = get_key(params, 'requestId')
    if json_type(session_id) == 'string' and session_id != '':
        question['sessionId'] = session_id
        tool_call = get_key(params, 'toolCallId')
        question['toolCallId'] = tool_call if json_type(tool_call) == 'string' else None
    elif json_type(request_id) == 'integer' or json_type(request_id) == 'string':
        question['requestId'] = request_id
    else:
        raise ElicitationProblem('Invalid params: an elicitation needs a "sessionId" or a "requestId"')


def read_question(params: 'Json') -> 'JsonObject':
    """`elicitation/create` params as the question the front ends ask: {'mode', 'message', 'title', 'fields',
    'sessionId' | 'requestId', 'toolCallId'} for a form; {'mode', 'message', 'url', 'host', 'warning',
    'elicitationId', …} for a URL. Raises ElicitationProblem (→ -32602) for anything else."""
    mode = get_key(params, 'mode')
    message = get_key(params, 'message')
    if json_type(message) != 'string':
        raise ElicitationProblem('Invalid params: "message" must be a string')
    if mode != 'form' and mode != 'url':
        raise ElicitationProblem('Invalid params: elicitation mode ' + (
            '"' + shown_text(mode, 40) + '"' if json_type(mode) == 'string' else 'missing') +
            ' is not supported (this client advertises "form" and "url")')
    question = {'mode': mode, 'message': shown_text(message, MAX_MESSAGE_CHARS, True), 'sessionId': None,
                'requestId': None, 'toolCallId': None}  # type: JsonObject
    _scope(params, question)
    if mode == 'url':
        url = get_key(params, 'url')
        elicitation_id = get_key(params, 'elicitationId')
        if json_type(elicitation_id) != 'string':
            raise ElicitationProblem('Invalid params: a URL elicitation needs a string "elicitationId"')
        found = read_url(url)
        question['url'] = url
        question['host'] = found['host']
        question['warning'] = found['warning']
        question['elicitationId'] = elicitation_id
        return question
    schema = get_key(params, 'requestedSchema')
    if json_type(schema) != 'object' or (get_key(schema, 'type') is not None and get_key(schema, 'type') != 'object'):
        raise ElicitationProblem('Invalid params: a form elicitation needs a "requestedSchema" of type "object"')
    properties = get_key(schema, 'properties', {})
    required = get_key(schema, 'required', [])
    if json_type(properties) != 'object' or (json_type(required) != 'array' and required is not None):
        raise ElicitationProblem('Invalid params: "properties" must be an object and "required" a list of names')
    names = copyable_keys(properties)
    if len(names) > MAX_FIELDS:
        raise ElicitationProblem('Invalid params: a form may have at most ' + str(MAX_FIELDS) + ' fields')
    needed = [name for name in required if json_type(name) == 'string'] if json_type(required) == 'array' else []
    fields = []  # type: List[JsonObject]
    for name in names:
        if len(name) > MAX_NAME_CHARS:
            raise ElicitationProblem('Invalid params: a property name is longer than ' + str(MAX_NAME_CHARS) +
                                     ' characters')
        if json_type(properties[name]) != 'object':
            raise ElicitationProblem('Invalid params: property "' + shown_text(name, 40) + '" is not a schema')
        fields.append(_field(name, properties[name], name in needed))
    question['title'] = shown_text(get_key(schema, 'title'), MAX_LABEL_CHARS)
    question['fields'] = fields
    return question


# ------------------------------------------------------------------------------------------- a URL


def read_url(url: 'Json') -> 'JsonObject':
    """An elicitation's URL, checked: {'host', 'warning'}. Only http and https, no user name or password in it
    (`https://github.com@evil.example` shows one host and opens another), no spaces or invisible characters.
    `warning`: a text for the consent dialog when the host is Punycode or not plain ASCII (it may imitate
    another host), else ''. Raises ElicitationProblem."""
    if json_type(url) != 'string' or url == '':
        raise ElicitationProblem('Invalid params: a URL elicitation needs a "url"')
    if len(url) > MAX_URL_CHARS:
        raise ElicitationProblem('Invalid params: the URL is longer than ' + str(MAX_URL_CHARS) + ' characters')
    if drop_invisible(url) != url or len(url.split()) != 1 or url.strip() != url:
        raise ElicitationProblem('Invalid params: the URL contains spaces or invisible characters')
    colon = url.find(':')
    scheme = url[:colon].lower() if colon > 0 else ''
    if scheme != 'http' and scheme != 'https':
        raise ElicitationProblem('Invalid params: only http and https URLs are opened (got "' +
                                 shown_text(scheme if scheme != '' else url, 40) + '")')
    if url[colon + 1:colon + 3] != '//':
        raise ElicitationProblem('Invalid params: the URL has no host')
    rest = url[colon + 3:]
    end = len(rest)
    for stop in ['/', '?', '#', '\\']:
        found = rest.find(stop)
        if found >= 0 and found < end:
            end = found
    authority = rest[:end]
    if authority.find('@') >= 0:
        raise ElicitationProblem('Invalid params: the URL carries a user name or password')
    host = authority
    if host.startswith('['):
        closing = host.find(']')
        host = host[:closing + 1] if closing > 0 else host
    elif host.find(':') >= 0:
        host = host[:host.find(':')]
    host = host.lower()
    if host == '' or host == '[]':
        raise ElicitationProblem('Invalid params: the URL has no host')
    warning = ''
    if len([label for label in host.split('.') if label.startswith('xn--')]) > 0:
        warning = 'The host is written in Punycode: it may imitate another site\'s name.'
    elif len([char for char in host if ord(char) > 127]) > 0:
        warning = 'The host has characters outside ASCII: it may imitate another site\'s name.'
    return {'host': host, 'warning': warning}


def carries_secret(url: str, secrets: 'List[str]') -> bool:
    """Whether `url` holds one of `secrets` (the MCP token the agent was handed, its credentials): such a URL is
    never opened — it would hand the secret to whatever site it names."""
    for secret in secrets:
        if json_type(secret) == 'string' and len(secret) >= 8 and url.find(secret) >= 0:
            return True
    return False


# ------------------------------------------------------------------------------------------- the answers


def _is_number_text(text: str, integer: bool) -> bool:
    """A plain decimal number: an optional '-', digits, and unless `integer` an optional fraction and exponent."""
    index = 1 if text.startswith('-') else 0
    digits = 0
    while index < len(text) and DIGITS.find(text[index]) >= 0:
        index += 1
        digits += 1
    if integer:
        return digits > 0 and digits <= 15 and index == len(text)
    if index < len(text) and text[index] == '.':
        index += 1
        while index < len(text) and DIGITS.find(text[index]) >= 0:
            index += 1
            digits += 1
    if digits == 0 or digits > 30:
        return False
    if index < len(text) and (text[index] == 'e' or text[index] == 'E'):
        index += 1
        if index < len(text) and (text[index] == '+' or text[index] == '-'):
            index += 1
        exponent = 0
        while index < len(text) and DIGITS.find(text[index]) >= 0:
            index += 1
            exponent += 1
        if exponent == 0 or exponent > 3:
            return False
    return index == len(text)


def _digits_value(text: str) -> int:
    """The value of a text of digits only (checked by the caller), digit by digit: exact in both worlds up to
    SAFE_INTEGER (JS's int() of a text wraps past 2**31)."""
    value = 0
    for char in text:
        value = value * 10 + DIGITS.find(char)
    return value


def _is_date(text: str) -> bool:
    if len(text) != 10 or text[4] != '-' or text[7] != '-':
        return False
    for index in [0, 1, 2, 3, 5, 6, 8, 9]:
        if DIGITS.find(text[index]) < 0:
            return False
    month = _digits_value(text[5:7])
    day = _digits_value(text[8:10])
    return month >= 1 and month <= 12 and day >= 1 and day <= 31


def _format_problem(text: str, string_format: str) -> 'Optional[str]':
    if string_format == 'email':
        at = text.find('@')
        domain = text[at + 1:]
        if at <= 0 or domain.find('@') >= 0 or domain.find('.') <= 0 or domain.endswith('.') or \
                len(text.split()) != 1:
            return 'must be an email address'
    elif string_format == 'uri':
        colon = text.find(':')
        scheme = text[:colon].lower() if colon > 0 else ''
        if scheme == '' or len([char for char in scheme if SCHEME_CHARS.find(char) < 0]) > 0 or \
                colon + 1 >= len(text) or len(text.split()) != 1:
            return 'must be a URI (such as https://example.com)'
    elif string_format == 'date':
        if not _is_date(text):
            return 'must be a date as YYYY-MM-DD'
    elif string_format == 'date-time':
        if len(text) < 16 or not _is_date(text[:10]) or (text[10] != 'T' and text[10] != 't') or \
                text[13] != ':' or len(text.split()) != 1:
            return 'must be a date and time as YYYY-MM-DDTHH:MM (ISO 8601)'
    return None


def _given(value: 'Json') -> bool:
    return value is not None and not (json_type(value) == 'string' and value.strip() == '')


def _value_of(field: 'JsonObject', raw: 'Json') -> 'JsonObject':
    """{'value'} or {'problem'} for one field's answer (a string typed or picked, or already a JSON value)."""
    kind = field['kind']
    if kind == 'boolean':
        if json_type(raw) == 'boolean':
            return {'value': raw}
        if raw == 'true' or raw == 'false':
            return {'value': raw == 'true'}
        return {'problem': 'must be Yes or No'}
    if kind == 'integer' or kind == 'number':
        if json_type(raw) == 'integer' or (kind == 'number' and json_type(raw) == 'number'):
            number = raw
        elif json_type(raw) == 'string' and _is_number_text(raw.strip(), kind == 'integer'):
            text = raw.strip()
            if kind == 'integer':
                number = -_digits_value(text[1:]) if text.startswith('-') else _digits_value(text)
            else:
                number = float(text)
        else:
            return {'problem': 'must be a whole number' if kind == 'integer' else 'must be a number'}
        if kind == 'integer' and (number > SAFE_INTEGER or number < -SAFE_INTEGER):
            return {'problem': 'is too large'}
        if field['minimum'] is not None and number < field['minimum']:
            return {'problem': 'must be at least ' + describe(field['minimum'])}
        if field['maximum'] is not None and number > field['maximum']:
            return {'problem': 'must be at most ' + describe(field['maximum'])}
        return {'value': number}
    if json_type(raw) != 'string':
        return {'problem': 'must be text'}
    if kind == 'choice':
        if raw in [option['value'] for option in field['options']]:
            return {'value': raw}
        return {'problem': 'must be one of the choices offered'}
    if len(raw) > MAX_ANSWER_CHARS:
        return {'problem': 'is longer than ' + str(MAX_ANSWER_CHARS) + ' characters'}
    if field['minLength'] is not None and len(raw) < field['minLength']:
        return {'problem': 'must be at least ' + str(field['minLength']) + ' characters long'}
    if field['maxLength'] is not None and len(raw) > field['maxLength']:
        return {'problem': 'must be at most ' + str(field['maxLength']) + ' characters long'}
    if field['format'] is not None:
        problem = _format_problem(raw, field['format'])
        if problem is not None:
            return {'problem': problem}
    return {'value': raw}


def check_answers(question: 'JsonObject', answers: 'Json') -> 'JsonObject':
    """The user's answers ({field name: text typed, choice picked, or a JSON value}) checked against the form:
    {'content': {name: value}, 'problems': []} when every field is right (blank optional fields left out), else
    {'content': None, 'problems': ['Label: what is wrong', …]} — then nothing is sent and the user is told."""
    problems = []  # type: List[str]
    content = {}  # type: Dict[str, Any]
    for field in question['fields']:
        raw = get_key(answers, field['name'])
        if not _given(raw):
            if field['required']:
                problems.append(field['label'] + ': an answer is required')
            continue
        if field['kind'] == 'unsupported':
            problems.append(field['label'] + ': Hermes cannot answer a field of type "' +
                            shown_text(field['type'], 40) + '"')
            continue
        checked = _value_of(field, raw)
        if 'problem' in checked:
            problems.append(field['label'] + ': ' + checked['problem'])
        else:
            content[field['name']] = checked['value']
    if len(problems) > 0:
        return {'content': None, 'problems': problems}
    return {'content': content, 'problems': []}


def default_answers(question: 'JsonObject') -> 'JsonObject':
    """What a form starts with: each field's schema default, as the text its input shows ('' for none)."""
    answers = {}  # type: Dict[str, Any]
    for field in question['fields']:
        default = field['default']
        if json_type(default) == 'boolean':
            answers[field['name']] = 'true' if default else 'false'
        elif default is None:
            answers[field['name']] = ''
        else:
            answers[field['name']] = str(default)
    return answers


# ------------------------------------------------------------------------------------------- the result


def accepted(content: 'Optional[JsonObject]' = None) -> 'JsonObject':
    """`accept`: a form's checked content, or a URL the user agreed to open (no content)."""
    return {'action': 'accept'} if content is None else {'action': 'accept', 'content': content}


def declined() -> 'JsonObject':
    return {'action': 'decline'}


def cancelled() -> 'JsonObject':
    return {'action': 'cancel'}


def answer_text(result: 'JsonObject') -> str:
    """What the question's place in the reply says once answered."""
    action = result['action']
    if action == 'accept':
        return 'Answered.'
    if action == 'decline':
        return 'Declined.'
    return 'Cancelled.'
