"""The incremental SSE parser: every field rule, every line ending, and chunk boundaries anywhere."""
import itertools

import pytest

from hermes.core.sse_parser import SseParser


def parse_all(chunks):
    parser = SseParser()
    events = []
    for chunk in chunks:
        events.extend(parser.feed(chunk))
    return events, parser


def ev(data, event='message', id=None):
    return {'event': event, 'data': data, 'id': id}


SAMPLE = (
    '\ufeff: keep-alive comment\r\n'
    'retry: 3000\n'
    'event: endpoint\r\n'
    'data: /messages?sessionId=abc\r\r'
    'id: 1\n'
    'data: {"jsonrpc":"2.0","id":1,"result":{}}\n\n'
    'data:first line\r'
    'data:  second line (one space kept)\r'
    'data\r\n'
    '\r'
    'event: notice\n'
    'id\n'
    'data: after an empty id\n'
    'unknown: field is ignored\n'
    '\n'
    'event: no-data-is-not-dispatched\n'
    '\n'
    'data: ünïcödé ✓ 🚀\n\n'
    'data: unterminated'
)

SAMPLE_EVENTS = [
    ev('/messages?sessionId=abc', 'endpoint'),
    ev('{"jsonrpc":"2.0","id":1,"result":{}}', id='1'),
    ev('first line\n second line (one space kept)\n', id='1'),
    ev('after an empty id', 'notice', id=''),
    ev('ünïcödé ✓ 🚀', id=''),
]


def test_sample_in_one_chunk():
    events, parser = parse_all([SAMPLE])
    assert events == SAMPLE_EVENTS
    assert parser.retry_ms == 3000
    assert parser.pending() == ev('unterminated', id='')
    assert parser.finish() == []
    assert parser.pending() is None


@pytest.mark.parametrize('split', range(len(SAMPLE) + 1))
def test_sample_split_once_anywhere(split):
    events, _ = parse_all([SAMPLE[:split], SAMPLE[split:]])
    assert events == SAMPLE_EVENTS


def test_sample_split_at_every_pair_of_points():
    for first, second in itertools.combinations(range(0, len(SAMPLE) + 1, 3), 2):
        events, _ = parse_all([SAMPLE[:first], SAMPLE[first:second], SAMPLE[second:]])
        assert events == SAMPLE_EVENTS, (first, second)


def test_sample_one_character_at_a_time():
    events, parser = parse_all(list(SAMPLE))
    assert events == SAMPLE_EVENTS
    assert parser.pending() == ev('unterminated', id='')


def test_events_arrive_as_soon_as_their_blank_line_does():
    parser = SseParser()
    assert parser.feed('data: a\n') == []
    assert parser.feed('\n') == [ev('a')]
    assert parser.feed('data: b\r') == []
    assert parser.feed('\r') == [ev('b')]  # a CR alone ends the blank line: no waiting for a possible LF
    assert parser.feed('\n') == []  # ... and an LF after it is not another (empty) line
    assert parser.feed('data: c\r\n\r\n') == [ev('c')]


def test_cr_then_lf_across_chunks_is_one_line_break():
    events, _ = parse_all(['data: a\r', '\ndata: b\r', '\n\r', '\n'])
    assert events == [ev('a\nb')]


def test_line_endings_mixed():
    events, _ = parse_all(['data: a\ndata: b\r\ndata: c\rdata: d\n\r\n'])
    assert events == [ev('a\nb\nc\nd')]


def test_multiline_data_and_empty_data_lines():
    events, _ = parse_all(['data\ndata:\ndata: x\ndata\n\n'])
    assert events == [ev('\n\nx\n')]


def test_only_one_leading_space_is_stripped():
    events, _ = parse_all(['data:   three\n\n', 'data:no-space\n\n', 'data: \n\n'])
    assert events == [ev('  three'), ev('no-space'), ev('')]


def test_colons_in_values_are_kept():
    events, _ = parse_all(['data: {"a": "b:c"}\n\n'])
    assert events == [ev('{"a": "b:c"}')]


def test_comments_retry_and_unknown_fields_are_ignored():
    events, parser = parse_all([': hello\n:\nretry: 10\nretry: x\nfoo: bar\nDATA: upper\ndata: ok\n\n'])
    assert events == [ev('ok')]
    assert parser.retry_ms == 10


def test_event_type_resets_after_each_event_and_blank_event_name_means_message():
    events, _ = parse_all(['event: a\ndata: 1\n\ndata: 2\n\nevent:\ndata: 3\n\n'])
    assert events == [ev('1', 'a'), ev('2'), ev('3')]


def test_event_without_data_is_not_dispatched_and_does_not_leak_its_type():
    events, _ = parse_all(['event: ghost\n\ndata: real\n\n'])
    assert events == [ev('real')]


def test_id_persists_until_changed_and_ignores_nul():
    events, parser = parse_all(['id: 7\ndata: a\n\ndata: b\n\nid: 8\u00009\ndata: c\n\nid: 9\n\n'])
    assert events == [ev('a', id='7'), ev('b', id='7'), ev('c', id='7')]
    assert parser.last_event_id == '9'  # an id on an event without data still counts


def test_blank_lines_alone_dispatch_nothing():
    events, _ = parse_all(['\n\n\r\n\r\r'])
    assert events == []


def test_bom_only_at_the_start():
    events, _ = parse_all(['\ufeff', 'data: a\n\n', '\ufeffdata: b\n\n'])
    assert events == [ev('a')]  # a later BOM is part of the field name, so that line is ignored
    events, _ = parse_all(['\ufeffdata: x\n\n'])
    assert events == [ev('x')]


def test_empty_and_none_chunks_are_harmless():
    parser = SseParser()
    assert parser.feed('') == []
    assert parser.feed(None) == []
    assert parser.feed('data: a\n') == []
    assert parser.feed('') == []
    assert parser.feed('\n') == [ev('a')]


def test_pending_shows_what_end_of_stream_would_drop():
    parser = SseParser()
    assert parser.pending() is None
    parser.feed('event: x\n')
    assert parser.pending() is None  # no data: nothing would be dispatched anyway
    parser.feed('data: one\ndata: tw')
    assert parser.pending() == ev('one\ntw', 'x')
    assert parser.pending() == ev('one\ntw', 'x')  # looking changes nothing
    assert parser.feed('o\n\n') == [ev('one\ntwo', 'x')]
    assert parser.pending() is None


def test_finish_drops_the_unterminated_event_and_resets():
    parser = SseParser()
    parser.feed('id: 4\ndata: lost\n')
    assert parser.finish() == []
    assert parser.pending() is None
    assert parser.last_event_id is None
    assert parser.feed('\ufeffdata: new stream\n\n') == [ev('new stream')]


def test_large_stream_in_random_chunks():
    import random
    rng = random.Random(1234)
    messages = ['{"n": %d, "text": "%s"}' % (n, 'x' * rng.randint(0, 300)) for n in range(300)]
    text = ''.join('event: message\nid: %d\ndata: %s\n\n' % (n, m) for n, m in enumerate(messages))
    text = text.replace('\n', rng.choice(['\n', '\r\n', '\r']))
    position, chunks = 0, []
    while position < len(text):
        size = rng.randint(1, 97)
        chunks.append(text[position:position + size])
        position += size
    events, _ = parse_all(chunks)
    assert [e['data'] for e in events] == messages
    assert events[-1]['id'] == '299'


def test_mcp_style_response_stream():
    stream = ('event: message\nid: 1\ndata: {"jsonrpc":"2.0","method":"notifications/progress"}\n\n'
              ': keep-alive\n\n'
              'event: message\nid: 2\ndata: {"jsonrpc":"2.0","id":3,"result":{"content":[]}}\n\n')
    for split in range(len(stream) + 1):
        events, _ = parse_all([stream[:split], stream[split:]])
        assert [e['id'] for e in events] == ['1', '2']


def test_a_long_retry_value_is_read_whole():
    # int() in the bundle is `parseFloat(x) | 0`, which wraps above 2**31 (99999999999 → 1215752191).
    events, parser = parse_all(['retry: 99999999999\ndata: x\n\n'])
    assert parser.retry_ms == 99999999999


def test_a_retry_value_longer_than_15_digits_is_ignored():
    events, parser = parse_all(['retry: 1234\n', 'retry: 1234567890123456\ndata: x\n\n'])
    assert parser.retry_ms == 1234
