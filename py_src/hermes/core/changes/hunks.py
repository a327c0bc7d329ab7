"""The hunk model of the change log: what an agent's write changed in a file, line by line, and how to keep or
undo one piece of it later. Pure: texts in, plain dicts and lists out (the parity vectors replay every function).

Vocabulary:
- *lines*: `split_lines(text)`, each line WITH its terminator ('\\n' or '\\r\\n'; the last may have none), so
  joining them gives the text back byte for byte: CRLF files, a missing final newline and mixed endings survive
  every keep and undo.
- *base*: the file as it was before the agent's pending changes (None: the agent created the file).
- *text*: the file as the agent left it (None: the agent deleted it). The user's own later edits are NOT in
  it: they are found by diffing `text` against the file's *current* text when a hunk is undone.
- a *hunk*: `{'id', 'start', 'base_start', 'before', 'after'}` — lines `before` of the base, starting at line
  `base_start` (0-based), became lines `after` of the text, starting at line `start` (0-based). Plus whatever
  the caller attaches (author, time): `assign_ids` carries those over for hunks that stay the same.

Bounded work: the diff trims the common head and tail, then runs Myers' O(ND) algorithm on the middle with a
budget of MAX_DIFF_WORK steps (about 1,000 changed lines in one region; its trace holds ~D² numbers). Beyond
the budget the middle becomes ONE hunk (every line between the common head and tail): still exact for keep and
undo, only coarser. The caller decides which files are too large to track at all (core/changes/model.py MAX_FILE_CHARS).
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Dict, List, Optional
from hermes.contracts.json import JsonObject
Hunk = Dict[str, Any]  # {'id', 'start', 'base_start', 'before', 'after', …}: the change log's (core/changes/model.py)
# __pragma__('noskip')

MAX_DIFF_WORK = 500000
CHUNK = 2048  # characters compared at a time when finding the common head and tail of two texts


def split_lines(text: str) -> 'List[str]':
    """`text` as lines that keep their terminators ('' → [])."""
    lines = []
    start = 0
    index = text.find('\n')
    while index != -1:
        lines.append(text[start:index + 1])
        start = index + 1
        index = text.find('\n', start)
    if start < len(text):
        lines.append(text[start:])
    return lines


def join_lines(lines: 'List[str]') -> str:
    return ''.join(lines)


def visible_line(line: str) -> str:
    """A line without its terminator (for display: decorations, hover text, lists)."""
    if line.endswith('\r\n'):
        return line[:len(line) - 2]
    if line.endswith('\n'):
        return line[:len(line) - 1]
    return line


def diff_lines(before: 'List[str]', after: 'List[str]', budget: 'Optional[int]' = None) -> 'List[Hunk]':
    """The hunks that turn lines `before` into lines `after`, in order, without ids:
    [{'start', 'base_start', 'before', 'after'}]. `budget` (MAX_DIFF_WORK by default) bounds the work."""
    if budget is None:
        budget = MAX_DIFF_WORK
    head = 0
    limit = min(len(before), len(after))
    while head < limit and before[head] == after[head]:
        head = head + 1
    tail = 0
    while tail < limit - head and before[len(before) - 1 - tail] == after[len(after) - 1 - tail]:
        tail = tail + 1
    a_end = len(before) - tail
    b_end = len(after) - tail
    if head == a_end and head == b_end:
        return []
    blocks = None  # type: Optional[List[List[int]]]
    if not (head == a_end or head == b_end or not _share_a_line(before, head, a_end, after, head, b_end)):
        blocks = _myers_blocks(before, after, head, a_end, head, b_end, budget)
    if blocks is None:  # one block: a file rewritten through and through (nothing to align), or too much work
        blocks = [[head, a_end, head, b_end]]
    return [{'start': block[2], 'base_start': block[0], 'before': before[block[0]:block[1]],
             'after': after[block[2]:block[3]]} for block in blocks]


def _share_a_line(a: 'List[str]', a0: int, a1: int, b: 'List[str]', b0: int, b1: int) -> bool:
    """Whether a[a0:a1] and b[b0:b1] have any line in common (one pass over each, a set of the shorter side)."""
    if a1 - a0 > b1 - b0:
        return _share_a_line(b, b0, b1, a, a0, a1)
    known = {}
    index = a0
    while index < a1:
        known[' ' + a[index]] = True  # (the prefix keeps a line clear of the dict's own members)
        index = index + 1
    index = b0
    while index < b1:
        if (' ' + b[index]) in known:
            return True
        index = index + 1
    return False


def diff_texts(base: 'Optional[str]', text: 'Optional[str]', budget: 'Optional[int]' = None) -> 'List[Hunk]':
    """`diff_lines` of two texts; None stands for a file that does not exist (created or deleted: one hunk).

    The common head and tail are found on the texts first (a binary search of native string comparisons) and
    only the lines between them are split and diffed: a one-line edit of a 100 kB file splits a few lines."""
    base = '' if base is None else base
    text = '' if text is None else text
    head = _common_head_lines(base, text)
    tail = _common_tail_chars(base, text, head)
    lines_above = _count_newlines(base, head)
    hunks = diff_lines(split_lines(base[head:len(base) - tail]), split_lines(text[head:len(text) - tail]), budget)
    for hunk in hunks:
        hunk['start'] = hunk['start'] + lines_above
        hunk['base_start'] = hunk['base_start'] + lines_above
    return hunks


def _common_head_lines(one: str, other: str) -> int:
    """The length of the longest common prefix of whole lines (it ends after a newline, or is 0)."""
    limit = min(len(one), len(other))
    low = 0
    while low + CHUNK <= limit and one[low:low + CHUNK] == other[low:low + CHUNK]:  # native comparisons, chunk
        low = low + CHUNK  # by chunk: each character is compared about once
    high = min(low + CHUNK, limit)
    while low < high:  # then the longest common prefix inside the chunk, by halving
        middle = (low + high + 1) // 2
        if one[:middle] == other[:middle]:
            low = middle
        else:
            high = middle - 1
    if low == len(one) and low == len(other):
        return low
    return one[:low].rfind('\n') + 1


def _common_tail_chars(one: str, other: str, head: int) -> int:
    """The length of the longest common suffix of whole lines that does not reach into the first `head` chars:
    it starts right after a newline of both texts (or at `head`)."""
    limit = min(len(one), len(other)) - head
    low = 0
    while low + CHUNK <= limit and one[len(one) - low - CHUNK:len(one) - low] == \
            other[len(other) - low - CHUNK:len(other) - low]:
        low = low + CHUNK
    high = min(low + CHUNK, limit)
    while low < high:
        middle = (low + high + 1) // 2
        if one[len(one) - middle:] == other[len(other) - middle:]:
            low = middle
        else:
            high = middle - 1
    if low == 0:
        return 0
    start = len(one) - low  # the tail must start a line in both texts, else it moves past its first newline
    other_start = len(other) - low
    if (start == head or one[start - 1] == '\n') and (other_start == head or other[other_start - 1] == '\n'):
        return low
    newline = one.find('\n', start)
    if newline == -1:
        return 0
    return len(one) - (newline + 1)


def _count_newlines(text: str, end: int) -> int:
    count = 0
    index = text.find('\n')
    while index != -1 and index < end:
        count = count + 1
        index = text.find('\n', index + 1)
    return count


def _myers_blocks(a: 'List[str]', b: 'List[str]', a0: int, a1: int, b0: int, b1: int, budget: int) -> 'Optional[List[List[int]]]':
    """The changed blocks [[a_start, a_end, b_start, b_end]] between a[a0:a1] and b[b0:b1] by Myers' greedy
    algorithm, or None when it would take more than `budget` steps."""
    n = a1 - a0
    m = b1 - b0
    most = n + m
    offset = most + 1
    frontier = [0 for _ in range(2 * most + 3)]  # furthest x on each diagonal k, at index k + offset
    trace = []
    work = 0
    found = -1
    d = 0
    while d <= most and found < 0:
        trace.append(frontier[offset - d - 1:offset + d + 2])  # diagonals -d-1 … d+1 before round d
        k = -d
        while k <= d:
            if k == -d or (k != d and frontier[offset + k - 1] < frontier[offset + k + 1]):
                x = frontier[offset + k + 1]
            else:
                x = frontier[offset + k - 1] + 1
            y = x - k
            while x < n and y < m and a[a0 + x] == b[b0 + y]:
                x = x + 1
                y = y + 1
                work = work + 1
            frontier[offset + k] = x
            work = work + 1
            if x >= n and y >= m:
                found = d
                break
            k = k + 2
        if work > budget:
            return None
        d = d + 1
    # Walk back through the rounds, collecting the matched pairs (the diagonals) from the end.
    matched = []
    x = n
    y = m
    d = found
    while d >= 0:
        saved = trace[d]  # index of diagonal k: k + d + 1
        k = x - y
        if k == -d or (k != d and saved[k - 1 + d + 1] < saved[k + 1 + d + 1]):
            previous_k = k + 1
        else:
            previous_k = k - 1
        previous_x = saved[previous_k + d + 1] if d > 0 else 0
        previous_y = previous_x - previous_k if d > 0 else 0
        while x > previous_x and y > previous_y:
            x = x - 1
            y = y - 1
            matched.append([x, y])
        x = previous_x
        y = previous_y
        d = d - 1
    matched.reverse()
    blocks = []
    last_x = 0
    last_y = 0
    for pair in matched:
        if pair[0] > last_x or pair[1] > last_y:
            blocks.append([a0 + last_x, a0 + pair[0], b0 + last_y, b0 + pair[1]])
        last_x = pair[0] + 1
        last_y = pair[1] + 1
    if last_x < n or last_y < m:
        blocks.append([a0 + last_x, a0 + n, b0 + last_y, b0 + m])
    return blocks


def same_lines(one: 'List[str]', other: 'List[str]') -> bool:
    """Two line lists hold the same lines (`==` on lists is identity in the bundle)."""
    if len(one) != len(other):
        return False
    index = 0
    while index < len(one):
        if one[index] != other[index]:
            return False
        index = index + 1
    return True


def assign_ids(hunks: 'List[Hunk]', previous: 'List[Hunk]', next_id: int, fields: 'JsonObject') -> 'JsonObject':
    """Give `hunks` (fresh from a diff) their ids: one equal to a `previous` hunk (same before and after lines,
    each previous hunk used once, the nearest by base line first) keeps its id and its attached fields; the
    others get 'h<next_id>', 'h<next_id + 1>', … and a copy of `fields` (author, time). Returns
    {'hunks', 'next_id'}; the hunks are new dicts."""
    used = []
    result = []
    for hunk in hunks:
        best = None
        for old in previous:
            if old['id'] in used or not same_lines(old['before'], hunk['before']) or \
                    not same_lines(old['after'], hunk['after']):
                continue
            if best is None or abs(old['base_start'] - hunk['base_start']) < abs(best['base_start'] -
                                                                                 hunk['base_start']):
                best = old
        if best is None:
            source = fields
            identifier = 'h' + str(next_id)
            next_id = next_id + 1
        else:
            source = best
            identifier = best['id']
            used.append(identifier)
        made = {}
        for key in source.keys():
            made[key] = source[key]
        made['id'] = identifier
        made['start'] = hunk['start']
        made['base_start'] = hunk['base_start']
        made['before'] = hunk['before']
        made['after'] = hunk['after']
        result.append(made)
    return {'hunks': result, 'next_id': next_id}


def _touches(start: int, end: int, other_start: int, other_end: int) -> bool:
    """Whether the line ranges [start, end) and [other_start, other_end) overlap; an empty range (an insertion
    point) touches a range it falls strictly inside, and another insertion at the same point."""
    if start == end and other_start == other_end:
        return start == other_start
    if start == end:
        return other_start < start and start < other_end
    if other_start == other_end:
        return start < other_start and other_start < end
    return start < other_end and other_start < end


def undo_plan(text_lines: 'List[str]', current_lines: 'List[str]', hunks: 'List[Hunk]', force: bool) -> 'List[JsonObject]':
    """Where each hunk in `hunks` sits in the current lines, and whether the user changed it since.

    `text_lines`: the file as the agent left it; `current_lines`: the file now (the user may have edited it
    anywhere). Returns [{'id', 'from', 'to', 'conflict'}] in the order of `hunks`: lines [from, to) of the
    current text are the hunk's after-lines, moved by the user's edits above it; `conflict` is True when the
    user edited inside the hunk (or right at it) — then, with `force`, [from, to) spans the user's edits there
    too, else from/to are None."""
    user = diff_lines(text_lines, current_lines)
    plan = []
    for hunk in hunks:
        start = hunk['start']
        end = start + len(hunk['after'])
        low = start
        high = end
        shift = 0
        grown = 0
        conflict = False
        for change in user:  # each change's `base_start` is a line of the agent's text
            change_start = change['base_start']
            change_end = change_start + len(change['before'])
            change_delta = len(change['after']) - len(change['before'])
            if _touches(change_start, change_end, start, end):
                conflict = True
                low = min(low, change_start)
                high = max(high, change_end)
                grown = grown + change_delta
            elif change_end <= start:
                shift = shift + change_delta
        if conflict and not force:
            plan.append({'id': hunk['id'], 'from': None, 'to': None, 'conflict': True})
        else:
            # `low` may reach above `start` only through touching changes, whose lines count in `grown`.
            plan.append({'id': hunk['id'], 'from': low + shift, 'to': high + shift + grown, 'conflict': conflict})
    return plan


def undo_lines(text_lines: 'List[str]', current_lines: 'List[str]', hunks: 'List[Hunk]', force: bool) -> 'JsonObject':
    """Undo `hunks` in the current lines: each one's lines become its before-lines again, wherever the user's
    edits elsewhere moved it. Returns {'lines', 'undone': [ids], 'conflicts': [ids]}: a hunk the user edited is
    a conflict and left alone, unless `force` (then the user's edits inside it are replaced too). Two forced
    hunks whose spans overlap: the lower one is a conflict and left alone."""
    plan = undo_plan(text_lines, current_lines, hunks, force)
    places = []
    index = 0
    while index < len(hunks):
        place = plan[index]  # type: Any
        if place['from'] is not None:
            places.append([place['from'], place['to'], hunks[index]])
        index = index + 1
    places.sort(key=lambda place: place[0])
    lines = current_lines[:]
    undone = []
    conflicts = [place['id'] for place in plan if place['from'] is None]
    floor = len(current_lines) + 1  # the top of the span undone last (spans are applied bottom-up)
    index = len(places) - 1
    while index >= 0:
        place = places[index]
        if place[1] > floor or (place[1] == floor and place[0] == floor):
            conflicts.append(place[2]['id'])
        else:
            _replace(lines, place[0], place[1], place[2]['before'])
            undone.append(place[2]['id'])
            floor = place[0]
        index = index - 1
    undone.reverse()
    return {'lines': lines, 'undone': undone, 'conflicts': conflicts}


def _replace(lines: 'List[str]', start: int, end: int, replacement: 'List[str]') -> None:
    """lines[start:end] = replacement, in place (slice assignment is not reliable in the bundle)."""
    tail = lines[end:]
    while len(lines) > start:
        lines.pop()
    lines.extend(replacement)
    lines.extend(tail)


def keep_in_base(base_lines: 'List[str]', hunk: 'Hunk') -> 'List[str]':
    """The base with `hunk` accepted: its before-lines replaced by its after-lines (a new list)."""
    lines = base_lines[:]
    _replace(lines, hunk['base_start'], hunk['base_start'] + len(hunk['before']), hunk['after'])
    return lines


def revert_in_text(text_lines: 'List[str]', hunk: 'Hunk') -> 'List[str]':
    """The agent's text with `hunk` taken back: its after-lines replaced by its before-lines (a new list)."""
    lines = text_lines[:]
    _replace(lines, hunk['start'], hunk['start'] + len(hunk['after']), hunk['before'])
    return lines


def rebase(base_lines: 'List[str]', text_lines: 'List[str]', hunks: 'List[Hunk]', current_lines: 'List[str]') -> 'List[str]':
    """The base for an agent's next write, when the file is now `current_lines` (the agent's text plus whatever
    the user did since): every pending hunk the user left alone is taken back out of the current text; a hunk
    the user edited counts as the user's own (kept). Returns the new base lines."""
    return undo_lines(text_lines, current_lines, hunks, False)['lines']


def counts(hunks: 'List[Hunk]') -> 'Dict[str, int]':
    """{'added', 'removed'}: lines over all `hunks`."""
    added = 0
    removed = 0
    for hunk in hunks:
        added = added + len(hunk['after'])
        removed = removed + len(hunk['before'])
    return {'added': added, 'removed': removed}


def hunk_view(hunk: 'Hunk') -> 'JsonObject':
    """A hunk as views and agents see it: lines without terminators, 0-based start in the current text."""
    return {'id': hunk['id'], 'start': hunk['start'], 'base_start': hunk['base_start'],
            'before_lines': [visible_line(line) for line in hunk['before']],
            'after_lines': [visible_line(line) for line in hunk['after']],
            'added': len(hunk['after']), 'removed': len(hunk['before'])}


def changed_span(old: str, new: str) -> 'JsonObject':
    """The one replacement {'start', 'end', 'text'} (character offsets into `old`) that turns `old` into `new`,
    found by trimming the common head and tail: an undo written through the editor touches only what changes, so
    the cursor, folds and the other hunks' marks elsewhere stay where they are."""
    limit = min(len(old), len(new))
    head = 0
    while head < limit and old[head] == new[head]:
        head = head + 1
    if head > 0 and head < len(old) and old[head - 1] == '\r' and old[head] == '\n':
        head = head - 1  # never split a CRLF
    tail = 0
    while tail < limit - head and old[len(old) - 1 - tail] == new[len(new) - 1 - tail]:
        tail = tail + 1
    return {'start': head, 'end': len(old) - tail, 'text': new[head:len(new) - tail]}
