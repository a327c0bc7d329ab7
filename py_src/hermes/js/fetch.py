"""Node's `fetch`: requests, aborts and timeouts, headers, reading a body as text chunks, and why a
request failed (the LLM client, the CLI's MCP client)."""
# __pragma__('tconv')
from hermes.js.errors import error_message
from hermes.js.objects import new, or_none, plain_object


def fetch_url(url: str, options: 'Dict[str, Any]') -> 'Awaitable[FetchResponse]':
    """Node's global fetch; `options` is a dict of method, headers, body, signal."""
    init = plain_object(options)
    if options['headers'] is not None:
        init['headers'] = plain_object(options['headers'])
    return fetch(url, init)


def timeout_signal(delay_ms: float) -> 'Signal':
    return AbortSignal.timeout(delay_ms)


def abort_controller() -> 'Controller':
    return new(AbortController)


def either_signal(first: 'Signal', second: 'Signal') -> 'Signal':
    """A signal that aborts when `first` or `second` does (a timeout, or a caller that gives up)."""
    return AbortSignal.any([first, second])


def response_header(response: 'FetchResponse', header_name: str) -> 'Optional[str]':
    return or_none(response.headers.js_get(header_name))


def body_reader(response: 'FetchResponse') -> 'Dict[str, Any]':
    """A reader of a fetch response body as text chunks (see read_text_chunk)."""
    if response.body is None:
        return {'reader': None, 'decoder': None}
    return {'reader': response.body.getReader(), 'decoder': new(TextDecoder, 'utf-8')}


async def read_text_chunk(reader: 'Dict[str, Any]') -> 'Optional[str]':
    """The next decoded piece of the body, or None at its end (rejects when the fetch is aborted)."""
    if reader['reader'] is None:
        return None
    result = await reader['reader'].read()
    if result.done:
        tail = reader['decoder'].decode()
        return None if tail == '' else tail
    return reader['decoder'].decode(result.value, {'stream': True})


def cancel_body(reader: 'Dict[str, Any]') -> None:
    """Stop reading a body early (the connection is released); never throws."""
    if reader['reader'] is not None:
        reader['reader'].cancel().then(None, lambda error: None)


def network_error_code(error: 'Any') -> 'Optional[str]':
    """Why a fetch failed: 'ECONNREFUSED', 'ENOTFOUND', 'TimeoutError', 'AbortError', ... or None."""
    if error is None or typeof(error) != 'object':
        return None
    for candidate in [error.cause, error]:
        if candidate is not None and typeof(candidate.code) == 'string':
            return candidate.code
    kind = error['name']
    return kind if typeof(kind) == 'string' else None


def network_error_detail(error: 'Any') -> str:
    """The most specific message of a failed fetch ('bad port' rather than 'fetch failed')."""
    if error is not None and typeof(error) == 'object' and error.cause is not None:
        return error_message(error.cause)
    return error_message(error)


# __pragma__('skip')
from typing import Any, Awaitable, Dict, Optional
from hermes.contracts.node import AbortController as Controller, AbortSignal as Signal, FetchResponse  # (`as`: JS globals' names)
from hermes.js.fetch_cpython import (
    fetch_url, timeout_signal, abort_controller, response_header, body_reader, read_text_chunk, cancel_body,
    network_error_code, network_error_detail,
)
# __pragma__('noskip')
