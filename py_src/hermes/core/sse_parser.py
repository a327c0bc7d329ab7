"""An incremental Server-Sent Events parser (the WHATWG "event stream" interpretation), free of Node.

Feed it text in chunks of any size, split anywhere (even between a CR and its LF); it returns the
events completed by each chunk. Used by the MCP client (Streamable HTTP responses and GET streams)
and meant for the LLM client's streamed completions too.

    parser = SseParser()
    for chunk in chunks:
        for event in parser.feed(chunk):
            handle(event['event'], event['data'], event['id'])

Each event is `{'event': str, 'data': str, 'id': str or None}`:
- `event` is the `event:` field, 'message' when absent or empty;
- `data` joins the event's `data:` lines with '\n' (an event with no `data:` line is not dispatched,
  as in a browser's EventSource);
- `id` is the last event id seen on the stream so far (it carries over to later events, as
  EventSource's `lastEventId` does: what a client would send as `Last-Event-ID` to resume); None
  until the stream has sent one; an `id:` line with an empty value resets it to ''.
Lines end with LF, CRLF or CR. Comment lines (': keep-alive') are ignored, as are unknown fields; `retry:`
only sets `retry_ms` (digits only, at most 15 of them); a line without a colon is a field with an empty value; one space after the colon is dropped.
A UTF-8 byte-order mark at the very start of the stream is skipped.

An event is only complete at its terminating blank line: `finish()` (end of stream) drops an
unterminated one, as a browser does; `pending()` shows what would be dropped.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import List, Optional
from hermes.contracts.mcp import SseEvent
# __pragma__('noskip')

BOM = '\ufeff'
MAX_RETRY_DIGITS = 15  # longer `retry:` values are ignored: beyond 2**53 JS numbers lose digits Python keeps


class SseParser:
    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self._line = ''  # text after the last line break: a line not yet terminated
        self._after_cr = False  # the last character seen was CR: an LF right after it is part of that break
        self._started = False  # past the (optional) byte-order mark
        self._event_type = ''
        self._data = []  # type: List[str]
        self._has_data = False
        self._last_id = None  # type: Optional[str]
        self.retry_ms = None  # type: Optional[int]  # the last valid `retry:` value, for callers that reconnect

    def feed(self, text: str) -> 'List[SseEvent]':
        """Consume a chunk; return the list of events it completed (often empty)."""
        events = []  # type: List[SseEvent]
        if not text:
            return events
        if not self._started:
            self._started = True
            if text[0] == BOM:
                text = text[1:]
                if len(text) == 0:
                    return events
        if self._after_cr:
            self._after_cr = False
            if text[0] == '\n':
                text = text[1:]
        buffer = self._line + text
        start = len(self._line)  # no line break can hide in the carried-over part
        line_start = 0
        length = len(buffer)
        next_cr = buffer.find('\r', start)
        next_lf = buffer.find('\n', start)
        while next_cr >= 0 or next_lf >= 0:
            if next_cr >= 0 and (next_lf < 0 or next_cr < next_lf):
                end = next_cr
                if end + 1 < length:
                    after = end + 2 if buffer[end + 1] == '\n' else end + 1
                else:
                    after = end + 1
                    self._after_cr = True  # the chunk ends in CR: an LF may open the next one
            else:
                end = next_lf
                after = end + 1
            self._process_line(buffer[line_start:end], events)
            line_start = after
            if next_cr >= 0 and next_cr < after:
                next_cr = buffer.find('\r', after)
            if next_lf >= 0 and next_lf < after:
                next_lf = buffer.find('\n', after)
        self._line = buffer[line_start:]
        return events

    def finish(self) -> 'List[SseEvent]':
        """End of stream: an event without its blank line is dropped (see `pending()`). Returns the
        events completed by the end of the stream, which is always none: `feed` dispatches eagerly.
        The parser is then ready for a new stream."""
        self.reset()
        return []

    def pending(self) -> 'Optional[SseEvent]':
        """The event that an end of stream now would drop (None if there is none): the event being
        built, completed as if a blank line followed. Nothing changes."""
        if len(self._line) == 0 and not self._has_data:
            return None
        probe = SseParser()
        probe._started = True
        probe._event_type = self._event_type
        probe._data = list(self._data)
        probe._has_data = self._has_data
        probe._last_id = self._last_id
        events = probe.feed(self._line + '\n\n')
        return events[0] if len(events) > 0 else None

    @property
    def last_event_id(self) -> 'Optional[str]':
        return self._last_id

    def _process_line(self, line: str, events: 'List[SseEvent]') -> None:
        if len(line) == 0:
            self._dispatch(events)
            return
        if line[0] == ':':
            return  # a comment: keep-alives look like this
        colon = line.find(':')
        if colon < 0:
            field = line
            value = ''
        else:
            field = line[:colon]
            value = line[colon + 1:]
            if len(value) > 0 and value[0] == ' ':
                value = value[1:]
        if field == 'data':
            self._data.append(value)
            self._has_data = True
        elif field == 'event':
            self._event_type = value
        elif field == 'id':
            if value.find('\u0000') < 0:  # the spec ignores ids containing NUL
                self._last_id = value
        elif field == 'retry':
            if len(value) > 0 and len(value) <= MAX_RETRY_DIGITS and _all_digits(value):
                self.retry_ms = _decimal(value)
        # anything else is ignored, as the spec requires

    def _dispatch(self, events: 'List[SseEvent]') -> None:
        if self._has_data:
            events.append({
                'event': self._event_type if len(self._event_type) > 0 else 'message',
                'data': '\n'.join(self._data),
                'id': self._last_id,
            })
        self._event_type = ''
        self._data = []
        self._has_data = False


def _decimal(digits: str) -> int:
    """The number a string of ASCII digits spells (`int()` in the bundle is `parseFloat(x) | 0`: it wraps
    above 2**31, so 99999999999 came out as 1215752191)."""
    value = 0
    for char in digits:
        value = value * 10 + (ord(char) - 48)
    return value


def _all_digits(text: str) -> bool:
    for char in text:
        if char < '0' or char > '9':
            return False
    return True
