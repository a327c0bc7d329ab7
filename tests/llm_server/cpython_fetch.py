"""A CPython stand-in for Node's global fetch over real HTTP (httpx), streaming the body and obeying
an AbortController, so the LLM client runs under pytest against the scripted server exactly as it
does under node. Install with `hermes.js.fetch_cpython.FETCH = fetch` (see runner.py)."""
import asyncio

import httpx


class FetchError(Exception):
    """Like undici's `TypeError: fetch failed` with a `cause.code`."""

    def __init__(self, message, code):
        super().__init__(message)
        self.code = code


def _abort_error():
    return FetchError('This operation was aborted', 'AbortError')


class StreamingResponse:
    def __init__(self, client, response, abort):
        self.status = response.status_code
        self.statusText = response.reason_phrase
        self.headers = dict(response.headers)
        self._client = client
        self._response = response
        self._abort = abort
        self._chunks = response.aiter_raw()
        self._decoder = __import__('codecs').getincrementaldecoder('utf-8')('replace')
        self._closed = False

    async def read_chunk(self):
        if self._closed:
            return None
        step = asyncio.ensure_future(self._chunks.__anext__())
        done, _ = await asyncio.wait([step, self._abort], return_when=asyncio.FIRST_COMPLETED)
        if step not in done:
            step.cancel()
            await self._close()
            raise _abort_error()
        try:
            data = step.result()
        except StopAsyncIteration:
            await self._close()
            tail = self._decoder.decode(b'', final=True)
            return tail or None
        except (httpx.RemoteProtocolError, httpx.ReadError) as error:
            await self._close()
            raise FetchError('terminated: ' + str(error), 'UND_ERR_SOCKET')
        return self._decoder.decode(data)

    def cancel(self):
        if not self._closed:
            asyncio.ensure_future(self._close())

    async def _close(self):
        if self._closed:
            return
        self._closed = True
        try:
            await self._response.aclose()
        finally:
            await self._client.aclose()


async def fetch(url, options):
    signal = options.get('signal')
    loop = asyncio.get_running_loop()
    abort = loop.create_future()

    def on_abort():
        if not abort.done():
            abort.set_result(True)
    if signal is not None:
        if signal.aborted:
            raise _abort_error()
        signal.addEventListener('abort', on_abort)
    client = httpx.AsyncClient(timeout=None)
    request = client.build_request(options.get('method', 'GET'), url, headers=options.get('headers') or {},
                                   content=options.get('body'))
    sending = asyncio.ensure_future(client.send(request, stream=True))
    done, _ = await asyncio.wait([sending, abort], return_when=asyncio.FIRST_COMPLETED)
    if sending not in done:
        sending.cancel()
        await client.aclose()
        raise _abort_error()
    try:
        response = sending.result()
    except httpx.ConnectError as error:
        await client.aclose()
        raise FetchError('fetch failed: ' + str(error), 'ECONNREFUSED')
    except httpx.HTTPError as error:
        await client.aclose()
        raise FetchError('fetch failed: ' + str(error), 'UND_ERR_SOCKET')
    return StreamingResponse(client, response, abort)
