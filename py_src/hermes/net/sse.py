"""One Server-Sent Events response: typed events, keep-alive comments, and a clean end whichever
side closes first (a client that goes away must not leave timers or sessions behind)."""
# __pragma__('tconv')
from hermes.js.timers import clear_repeating, set_repeating
# __pragma__('skip')
from typing import Any, Callable, Dict, Optional
# __pragma__('noskip')

KEEPALIVE_MS = 15000
# A client that stops reading its stream leaves every later event in this process's memory (Node buffers what the
# socket cannot take). Past this many unsent bytes the client is dropped: its connection is closed, the session's
# other streams and every other client go on (a 2025 client may open its GET stream again).
MAX_UNSENT_BYTES = 8 * 1024 * 1024


def sse_headers() -> 'Dict[str, str]':
    """The headers every event stream starts with (also what a HEAD request for a stream is told)."""
    return {
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-cache, no-transform',
        'Connection': 'keep-alive',
        'X-Accel-Buffering': 'no',
    }


class SseStream:
    def __init__(self, response: 'Any', headers: 'Dict[str, str]', on_close: 'Optional[Callable[[], Any]]' = None,
                 keepalive_ms: float = KEEPALIVE_MS, flush: bool = True, numbered: bool = True) -> None:
        """`flush=False` lets the headers travel with the first event: one write instead of two for a
        POST answered by a single event. Long-lived GET streams flush at once so clients see them open.
        `numbered=False` leaves out event ids (2026-07-28 streams cannot be resumed)."""
        self.response = response
        self.numbered = numbered
        self.on_close = on_close
        self.on_dropped = None  # type: Optional[Callable[[int], Any]]  # called with the unsent byte count when the client is dropped for not reading
        self.max_unsent_bytes = MAX_UNSENT_BYTES
        self.open = True
        self.next_event_id = 1
        all_headers = sse_headers()
        for key in headers.keys():
            all_headers[key] = headers[key]
        response.on('close', self._closed)
        response.on('error', self._closed)  # a write to a reset socket: treat like a close
        response.writeHead(200, all_headers)
        if flush:
            response.flushHeaders()
        self.keepalive = set_repeating(self.send_keepalive, keepalive_ms)

    def send(self, data: str, event: str = 'message') -> bool:
        """Write one event; False when the client has already gone (or has just been dropped for not reading)."""
        if not self.open:
            return False
        self.response.write(self._event(data, event))
        return self._within_limit()

    def _within_limit(self) -> bool:
        unsent = self.response.writableLength
        if unsent <= self.max_unsent_bytes:
            return True
        on_dropped = self.on_dropped
        self.response.destroy()  # frees what was buffered; 'close' follows (and _closed: the session's own end)
        self._closed()
        if on_dropped is not None:
            on_dropped(unsent)
        return False

    def finish(self, data: str, event: str = 'message') -> None:
        """Write a last event and end the response in one write."""
        if self.open:
            self.response.end(self._event(data, event))
        self._closed()

    def _event(self, data: str, event: str) -> str:
        if not self.numbered:
            return 'event: ' + event + '\ndata: ' + data + '\n\n'
        text = 'event: ' + event + '\nid: ' + str(self.next_event_id) + '\ndata: ' + data + '\n\n'
        self.next_event_id += 1
        return text

    def send_keepalive(self) -> None:
        if self.open:
            self.response.write(': keep-alive\n\n')
            self._within_limit()

    def close(self) -> None:
        """End the stream from our side (the response is complete, or the server stops)."""
        if self.open:
            self.response.end()
        self._closed()

    def _closed(self, error: 'Any' = None) -> None:
        if not self.open and self.keepalive is None:
            return
        self.open = False
        if self.keepalive is not None:
            clear_repeating(self.keepalive)
            self.keepalive = None
        if self.on_close is not None:
            callback = self.on_close
            self.on_close = None
            callback()
