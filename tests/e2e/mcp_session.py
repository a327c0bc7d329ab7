"""An MCP client session for e2e tests: the official Python SDK on an event loop in its own thread
(Playwright's sync API owns the main thread's loop), so a test can click the UI while a call waits."""
import asyncio
import concurrent.futures
import threading

import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


class McpSession:
    def __init__(self, url, token, http_timeout=300, message_handler=None, client_info=None):
        self.message_handler = message_handler  # async (notification) → None: what the server sends unasked
        self.client_info = client_info  # an mcp.types.Implementation (the name the server knows us by), or the SDK's
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self._ready = concurrent.futures.Future()
        self._closing = None
        self._main = asyncio.run_coroutine_threadsafe(self._run(url, token, http_timeout), self.loop)
        self.session = self._ready.result(60)

    async def _run(self, url, token, http_timeout):
        self._closing = asyncio.Event()
        try:
            async with httpx2.AsyncClient(headers={'Authorization': f'Bearer {token}'}, timeout=http_timeout) as http:
                async with streamable_http_client(url, http_client=http) as (read, write):
                    async with ClientSession(read, write, message_handler=self.message_handler,
                                             client_info=self.client_info) as session:
                        await session.initialize()
                        self._ready.set_result(session)
                        await self._closing.wait()
        except BaseException as error:  # (reported through the future)
            if not self._ready.done():
                self._ready.set_exception(error)
            raise

    def start(self, name, arguments=None, progress=None, give_up_after=None):
        """Begin a tool call; returns a concurrent future. `progress` (a list) collects (value, message);
        `give_up_after` seconds makes the SDK abandon the call (it then cancels it)."""
        async def record(value, total, message):
            progress.append((value, message))

        async def invoke():
            return await self.session.call_tool(name, arguments or {}, read_timeout_seconds=give_up_after,
                                                progress_callback=None if progress is None else record)
        return asyncio.run_coroutine_threadsafe(invoke(), self.loop)

    def run(self, coroutine_function, timeout=60):
        """Any session method on the session's loop: `client.run(lambda s: s.read_resource(uri))`."""
        return asyncio.run_coroutine_threadsafe(coroutine_function(self.session), self.loop).result(timeout)

    def call(self, name, arguments=None, timeout=120, **options):
        return self.start(name, arguments, **options).result(timeout)

    def ok(self, name, arguments=None, **options):
        """A call that must succeed: (text, structured content)."""
        result = self.call(name, arguments, **options)
        assert result.is_error is False, f'{name} failed: ' + result.content[0].text
        return result.content[0].text, result.structured_content

    def refused(self, name, arguments=None, **options):
        """A call that must fail: its error text."""
        result = self.call(name, arguments, **options)
        assert result.is_error is True, f'{name} should have failed: ' + result.content[0].text
        return result.content[0].text

    def close(self):
        self.loop.call_soon_threadsafe(self._closing.set)
        try:
            self._main.result(15)
        except Exception:  # (closing is best effort)
            pass
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
