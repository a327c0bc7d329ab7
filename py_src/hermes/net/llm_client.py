"""The LLM client: any OpenAI-compatible server (Ollama, LM Studio, llama.cpp, vLLM, hosted APIs)
over Node's global fetch, always streaming.

- `stream_chat(body, on_delta, cancellation)`: POST <endpoint>/chat/completions, the SSE stream
  parsed incrementally (core/sse_parser.py) and folded into one turn (core/llm_wire.py), each text
  piece passed to `on_delta` as it arrives.
- `list_models()`: GET <endpoint>/models.
- `model_info(model)`: for Ollama-like endpoints, POST <root>/api/show for the context length and
  whether the model can call tools; None when unknown (every failure is ignored).

Timeouts: `connect_timeout_ms` until the response headers arrive, `idle_timeout_ms` between two
pieces of the body (reading the body: net/llm_stream.py). After `[DONE]` the body is read to its end (briefly; see
`_drain` there) so the next
request of a run reuses the connection. 429 and 5xx are retried with exponential backoff, honouring `Retry-After`.
A `Cancellation` aborts the fetch at any moment (AbortController). Every failure is an `LlmError`
whose text a user can act on; a stream that breaks carries what arrived in `error.partial`.
"""
# __pragma__('tconv')
from hermes.js.clock import now_ms, parse_http_date
from hermes.js.errors import JsError
from hermes.js.fetch import abort_controller, fetch_url, network_error_code, network_error_detail, response_header
from hermes.js.json import dump_json, parse_json
from hermes.js.promises import next_turn, sleep_ms
from hermes.js.timers import clear_timer, set_timer
from hermes.core.values import json_type, is_object, get_key, object_keys, copyable_keys
from hermes.core.llm_wire import LlmError, error_text_of_body, normalize_endpoint
from hermes.core.cancellation import Cancellation, CANCELLED
from hermes.net.llm_stream import REASONS, read_stream, read_text, seconds_text
# __pragma__('skip')
from typing import Any, Dict, List, Optional, TypedDict
from hermes.contracts.chat import LlmTurn, ModelInfo
from hermes.contracts.json import Json, JsonObject
from hermes.net.llm_stream import AbortState, LlmRequest, OnDelta


class _CachedInfo(TypedDict):
    model: str
    info: Optional[ModelInfo]
# __pragma__('noskip')

OPTIONS = {
    'connect_timeout_ms': 60000,  # until the response headers (a local model may be loading)
    'idle_timeout_ms': 60000,  # between two pieces of the streamed body
    'max_retries': 3,  # for 429 and 5xx
    'retry_base_ms': 500,  # backoff: 0.5 s, 1 s, 2 s, ... (capped at 8 s) unless Retry-After says
    'max_retry_wait_ms': 60000,  # a longer Retry-After is not waited for: the error is shown
    'ollama': None,  # None: guess from the endpoint (port 11434 or "ollama" in it); True/False: force
    'info_timeout_ms': 3000,
    'drain_ms': 500,  # after [DONE]: how long the end of the body is waited for (net/llm_stream.py _drain)
    'drain_max_chars': 16384,  # ... and how much more text is read before giving up on it
}
OLLAMA_DEFAULT_CONTEXT = 4096  # what Ollama allocates when the model sets no num_ctx
SET_KEY_COMMAND = '"Hermes: Set API Key"'
RETRYABLE = [429, 500, 502, 503, 504]


# ------------------------------------------------------------------------------------ pure helpers


def server_root(endpoint: str) -> str:
    """'http://127.0.0.1:11434/v1' → 'http://127.0.0.1:11434' (where Ollama's own API lives)."""
    text = normalize_endpoint(endpoint)
    return text[:len(text) - 3] if text.endswith('/v1') else text


def is_ollama_like(endpoint: str) -> bool:
    text = normalize_endpoint(endpoint).lower()
    return text.find(':11434') >= 0 or text.find('ollama') >= 0


def unreachable_message(endpoint: str, code: 'Optional[str]' = None, detail: 'Optional[str]' = None,
                        ollama: 'Optional[bool]' = None) -> str:
    if ollama is True or (ollama is None and is_ollama_like(endpoint)):
        return "Can't reach the LLM at " + endpoint + ' — is Ollama running (`ollama serve`)?'
    reason = REASONS[code] if code is not None and code in REASONS else None
    if reason is None:
        reason = detail if detail is not None and detail != '' and detail != 'fetch failed' else 'no answer'
    return ("Can't reach the LLM at " + endpoint + ' (' + reason + ') — is the server running, and is the '
            'setting hermes.llm.endpoint right?')


def auth_message(endpoint: str, status: int, server_text: 'Optional[str]', has_key: bool) -> str:
    detail = str(status) + (': ' + server_text if server_text is not None else '')
    if not has_key:
        return ('The LLM at ' + endpoint + ' needs an API key (' + detail + '). Set it with the command ' +
                SET_KEY_COMMAND + '.')
    return ('The LLM at ' + endpoint + ' did not accept the API key (' + detail + '). Set the right one with '
            'the command ' + SET_KEY_COMMAND + '.')


def model_not_found_message(endpoint: str, model: str, models: 'Optional[List[str]]', ollama: bool = False) -> str:
    if models is None:
        return ('The model \'' + model + '\' was not found at ' + endpoint + '. Check the setting hermes.llm.model.')
    if len(models) == 0:
        text = 'The model \'' + model + '\' was not found at ' + endpoint + ', and the server lists no models.'
    else:
        shown = models[:30]
        more = ' (and ' + str(len(models) - 30) + ' more)' if len(models) > 30 else ''
        text = ('The model \'' + model + '\' was not found at ' + endpoint + '. Models there: ' + ', '.join(shown) +
                more + '.')
    text += ' Set hermes.llm.model to one of them'
    if ollama:
        text += ', or download it with `ollama pull ' + model + '`'
    return text + '.'


def retry_delay_ms(retry_after: 'Optional[str]', retry_after_ms: 'Optional[str]', attempt: int, base_ms: float,
                   now: 'Optional[float]' = None) -> float:
    """How long to wait before attempt number `attempt + 1`: Retry-After (seconds or an HTTP date)
    when the server sent one, else exponential backoff."""
    if retry_after_ms is not None:
        value = _number(retry_after_ms)
        if value is not None and value >= 0:
            return value
    if retry_after is not None:
        seconds = _number(retry_after)
        if seconds is not None and seconds >= 0:
            return seconds * 1000
        when = parse_http_date(retry_after)
        if when is not None:
            delay = when - (now_ms() if now is None else now)
            return delay if delay > 0 else 0
    delay = base_ms
    for _ in range(attempt):
        delay = delay * 2
    return min(delay, 8000)


def _number(text: 'Json') -> 'Optional[float]':
    stripped = str(text).strip()
    if stripped == '':
        return None
    for char in stripped:
        if not (char == '.' or ('0' <= char and char <= '9')):
            return None
    try:
        return float(stripped)
    except ValueError:
        return None


def mentions_tools(text: 'Optional[str]') -> bool:
    lower = (text or '').lower()
    return lower.find('tool') >= 0 or lower.find('function call') >= 0 or lower.find('jinja') >= 0


def mentions_missing_model(text: 'Optional[str]') -> bool:
    lower = (text or '').lower()
    return lower.find('model') >= 0 and (lower.find('not found') >= 0 or lower.find('does not exist') >= 0 or
                                         lower.find('no such') >= 0 or lower.find('unknown model') >= 0 or
                                         lower.find('not exist') >= 0 or lower.find('try pulling') >= 0)


# ------------------------------------------------------------------------------------ the client


class LlmClient:
    def __init__(self, endpoint: 'Optional[str]' = None, api_key: 'Optional[str]' = None, extra_headers: 'Json' = None,
                 options: 'Json' = None) -> None:
        self.endpoint = normalize_endpoint(endpoint)
        self.api_key = None if api_key is None or api_key == '' else api_key
        self.extra_headers = extra_headers if is_object(extra_headers) else {}
        self.options = {}  # type: Dict[str, Any]  # OPTIONS, each overridden by `options`
        for key in OPTIONS.keys():
            value = get_key(options, key) if is_object(options) else None
            self.options[key] = OPTIONS[key] if value is None else value
        ollama = self.options['ollama']
        self.ollama = is_ollama_like(self.endpoint) if ollama is None else ollama is True
        self._info_cache = []  # type: List[_CachedInfo]  # model names are not looked up as dict keys
        self._sends_usage = True

    def headers(self, accept: str = 'application/json') -> 'Dict[str, str]':
        headers = {'Accept': accept}
        if self.api_key is not None:
            headers['Authorization'] = 'Bearer ' + self.api_key
        for key in copyable_keys(self.extra_headers):
            value = self.extra_headers[key]
            if json_type(value) == 'string':
                headers[key] = value
            elif value is not None:
                headers[key] = str(value)
        return headers

    # -------------------------------------------------------------------------------- chat

    async def stream_chat(self, body: 'JsonObject', on_delta: 'Optional[OnDelta]' = None,
                          cancellation: 'Optional[Cancellation]' = None) -> 'LlmTurn':
        """One streamed completion → {'content', 'tool_calls', 'finish_reason', 'usage', 'model'}."""
        cancellation = Cancellation() if cancellation is None else cancellation
        url = self.endpoint + '/chat/completions'
        attempt = 0
        while True:
            if cancellation.cancelled:
                raise LlmError('Cancelled.', 'cancelled')
            sent = body
            if not self._sends_usage and 'stream_options' in body:
                sent = _without(body, 'stream_options')
            headers = self.headers('text/event-stream')
            headers['Content-Type'] = 'application/json'
            request = await self._open('POST', url, headers, dump_json(sent), cancellation,
                                       self.options['connect_timeout_ms'])
            response = request['response']
            if response.status >= 200 and response.status < 300:
                return await read_stream(request, on_delta, cancellation, self.endpoint, self.options)
            text = await read_text(request, cancellation, self.endpoint, self.options['idle_timeout_ms'])
            status = response.status
            server_text = error_text_of_body(text)
            if status == 400 and 'stream_options' in sent and (text or '').find('stream_options') >= 0:
                self._sends_usage = False  # an older server: ask again without usage
                continue
            has_tools = 'tools' in sent
            if has_tools and (status == 400 or status == 422 or status == 500 or status == 501) and \
                    mentions_tools(server_text) and not mentions_missing_model(server_text):
                raise LlmError('The LLM at ' + self.endpoint + ' does not accept native tool calls for this model (' +
                               str(status) + ': ' + str(server_text) + '). Set hermes.llm.toolCalling to "text" '
                               'or "auto".', 'tools_unsupported', status)
            if status in RETRYABLE and attempt < self.options['max_retries']:
                delay = retry_delay_ms(response_header(response, 'retry-after'),
                                       response_header(response, 'retry-after-ms'), attempt, self.options['retry_base_ms'])
                if delay <= self.options['max_retry_wait_ms']:
                    attempt += 1
                    waited = await cancellation.race(sleep_ms(delay))
                    if waited is CANCELLED:
                        raise LlmError('Cancelled.', 'cancelled')
                    continue
            error = await self._status_error(status, response.statusText, server_text, get_key(sent, 'model'),
                                             cancellation)
            raise error

    async def _status_error(self, status: int, status_text: 'Optional[str]', server_text: 'Optional[str]', model: 'Json',
                            cancellation: Cancellation) -> LlmError:
        detail = str(status) + (' ' + status_text if status_text is not None and status_text != '' else '')
        if server_text is not None:
            detail += ': ' + server_text
        if status == 401 or status == 403:
            return LlmError(auth_message(self.endpoint, status, server_text, self.api_key is not None), 'auth', status)
        if status == 404 or ((status == 400 or status == 422) and mentions_missing_model(server_text)):
            models = None  # type: Optional[List[str]]
            try:
                models = await self.list_models(cancellation)
            except LlmError:
                models = None
            if json_type(model) == 'string' and (models is not None and not (model in models) or
                                                 mentions_missing_model(server_text)):
                return LlmError(model_not_found_message(self.endpoint, model, models, self.ollama), 'model_not_found',
                                status)
            return LlmError(self.endpoint + '/chat/completions was not found (' + detail + '). Check the setting '
                            'hermes.llm.endpoint: OpenAI-compatible servers usually serve under /v1.',
                            'endpoint_not_found', status)
        if status == 429:
            return LlmError('The LLM at ' + self.endpoint + ' is rate-limiting requests (' + detail + '). Wait a '
                            'moment and try again.', 'rate_limited', status)
        if status >= 500:
            return LlmError('The LLM at ' + self.endpoint + ' failed (' + detail + ').', 'server', status)
        return LlmError('The LLM at ' + self.endpoint + ' rejected the request (' + detail + ').', 'bad_request', status)

    # -------------------------------------------------------------------------------- models

    async def list_models(self, cancellation: 'Optional[Cancellation]' = None) -> 'List[str]':
        """The model ids the server offers (GET /models), sorted."""
        names = []  # type: List[str]
        for item in await self._model_entries(cancellation, self.options['connect_timeout_ms']):
            name = get_key(item, 'id', get_key(item, 'name'))
            if json_type(name) == 'string':
                names.append(name)
        names.sort()
        return names

    async def _model_entries(self, cancellation: 'Optional[Cancellation]', timeout_ms: int) -> 'List[Json]':
        cancellation = Cancellation() if cancellation is None else cancellation
        request = await self._open('GET', self.endpoint + '/models', self.headers(), None, cancellation, timeout_ms)
        response = request['response']
        text = await read_text(request, cancellation, self.endpoint, self.options['idle_timeout_ms'])
        if response.status == 404:
            raise LlmError(self.endpoint + '/models was not found (404).', 'endpoint_not_found', 404)
        if response.status != 200:
            error = await self._status_error(response.status, response.statusText, error_text_of_body(text), None,
                                             cancellation)
            raise error
        try:
            value = parse_json(text)
        except ValueError:
            raise LlmError(self.endpoint + '/models did not return JSON: ' + text[:200], 'protocol')
        items = get_key(value, 'data', get_key(value, 'models', []))
        return items if json_type(items) == 'array' else []

    async def model_info(self, model: 'Json') -> 'Optional[ModelInfo]':
        """{'context_length', 'model_context_length', 'supports_tools'} or None when the server does
        not tell. Ollama-like endpoints: POST <root>/api/show; others: the model's entry in GET
        /models, where vLLM (`max_model_len`) and some gateways (`context_length`, `context_window`)
        give the context size. Every failure is ignored (None); the answer is cached per model."""
        if json_type(model) != 'string':
            return None
        for known in self._info_cache:
            if known['model'] == model:
                return known['info']
        info = None  # type: Optional[ModelInfo]
        try:
            if self.ollama:
                headers = self.headers()
                headers['Content-Type'] = 'application/json'
                request = await self._open('POST', server_root(self.endpoint) + '/api/show', headers,
                                           dump_json({'model': model}), Cancellation(), self.options['info_timeout_ms'])
                text = await read_text(request, Cancellation(), self.endpoint, self.options['idle_timeout_ms'])
                if request['response'].status == 200:
                    info = ollama_model_info(parse_json(text))
            else:
                for item in await self._model_entries(Cancellation(), self.options['info_timeout_ms']):
                    if get_key(item, 'id') == model:
                        info = listed_model_info(item)
        except JsError:
            info = None
        self._info_cache.append({'model': model, 'info': info})
        return info

    # -------------------------------------------------------------------------------- HTTP

    async def _open(self, method: str, url: str, headers: 'Dict[str, str]', body: 'Optional[str]',
                    cancellation: Cancellation, timeout_ms: int) -> 'LlmRequest':
        """fetch() with an AbortController shared by the cancellation, the connect timeout and
        (later) the idle timeout. Returns {'response', 'abort', 'state', 'finish'}."""
        controller = abort_controller()
        state = {'reason': None}  # type: AbortState

        def abort(reason: str) -> None:
            if state['reason'] is None:
                state['reason'] = reason
                controller.abort()
        unsubscribe = cancellation.on_cancel(lambda: abort('cancelled'))
        timer = set_timer(lambda: abort('timeout'), timeout_ms)
        options = {'method': method, 'headers': headers, 'signal': controller.signal}  # type: Dict[str, Any]
        if body is not None:
            options['body'] = body
        # A connection whose body has just been read to its end goes back to fetch's pool a moment after the
        # reader says so (undici frees it from the socket's own event): a request sent at once would find it
        # busy and open another. One turn of the event loop lets the requests of a run share one connection.
        await next_turn()
        try:
            response = await fetch_url(url, options)
        except JsError as error:
            clear_timer(timer)
            unsubscribe()
            if state['reason'] == 'cancelled':
                raise LlmError('Cancelled.', 'cancelled')
            if state['reason'] == 'timeout':
                raise LlmError('The LLM at ' + self.endpoint + ' did not answer within ' + seconds_text(timeout_ms) +
                               ' s. Is the model still loading? Try again, or look at the server\'s log.', 'timeout')
            raise LlmError(unreachable_message(self.endpoint, network_error_code(error), network_error_detail(error),
                                               self.ollama),
                           'unreachable')
        clear_timer(timer)

        def finish() -> None:
            unsubscribe()
        return {'response': response, 'abort': abort, 'state': state, 'finish': finish}

def ollama_model_info(show: 'Json') -> 'Optional[ModelInfo]':
    """Context length and tool support from an Ollama /api/show answer."""
    if not is_object(show):
        return None
    supports_tools = None
    capabilities = get_key(show, 'capabilities')
    if json_type(capabilities) == 'array':
        supports_tools = 'tools' in capabilities
    model_context = None
    details = get_key(show, 'model_info')
    if is_object(details):
        for key in object_keys(details):
            if key.endswith('.context_length') and json_type(details[key]) == 'integer':
                model_context = details[key]
    num_ctx = None
    parameters = get_key(show, 'parameters')
    if json_type(parameters) == 'string':
        for line in parameters.split('\n'):
            words = line.split()
            if len(words) >= 2 and words[0] == 'num_ctx':
                value = _number(words[1])
                if value is not None:
                    num_ctx = round(value)
    if num_ctx is not None:
        context = num_ctx
    elif model_context is not None:
        context = min(model_context, OLLAMA_DEFAULT_CONTEXT)
    else:
        context = None
    return {'context_length': context, 'model_context_length': model_context, 'supports_tools': supports_tools}


def listed_model_info(entry: 'Json') -> 'Optional[ModelInfo]':
    """Context size from a /models entry (vLLM's max_model_len, or context_length / context_window)."""
    for key in ['max_model_len', 'context_length', 'context_window', 'max_context_length']:
        value = get_key(entry, key)
        if json_type(value) == 'integer' and value > 0:
            return {'context_length': value, 'model_context_length': value, 'supports_tools': None}
    return None


def _without(body: 'JsonObject', key: str) -> 'JsonObject':
    copy = {}  # type: JsonObject
    for name in copyable_keys(body):
        if name != key:
            copy[name] = body[name]
    return copy
