"""What the review UI shows of the change log's pending changes, free of VS Code: the Changes view's tree
(who → turn → file with +/− counts), the status bar's count, the marks a hunk gets in the editor, and where
"next/previous change" goes. The editor (ui/changes/review.py) and the view (ui/changes/view.py) only draw
what these functions return, so both say the same words for the same change.

A pending entry is the change log's (host/changes/log.py `pending()`): {'path', 'uri', 'author': {'client',
'session', 'turn'}, 'added', 'removed', 'hunks': [{'id', 'start', 'before_lines', 'after_lines', 'added',
'removed'}], 'created'?, 'deleted'?}. A hunk's `start` is the 0-based line in the file's current text where
its `after_lines` begin.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Callable, List, Optional
from hermes.contracts.json import JsonObject
# __pragma__('noskip')
from hermes.core.values import json_type, get_key
from hermes.core.changes.hunks import split_lines, join_lines, visible_line

KEEP = 'Keep'
UNDO = 'Undo'
UNDO_ALL = 'Undo All'
UNNAMED_CLIENT = 'an MCP client'
PREVIEW_CHARS = 80
TITLE_CHARS = 60


def author_of(entry: 'Any') -> 'JsonObject':
    author = get_key(entry, 'author')
    client = get_key(author, 'client')
    session = get_key(author, 'session')
    turn = get_key(author, 'turn')
    return {'client': client if json_type(client) == 'string' and client != '' else UNNAMED_CLIENT,
            'session': session if json_type(session) == 'string' and session != '' else None,
            'turn': None if turn is None or turn == '' else str(turn)}


def group_key(author: 'Any') -> str:
    """One group per client and session (a session's turns under it; a client without sessions alone)."""
    return 'g:' + author['client'] + '\n' + (author['session'] or '')


def turn_key(author: 'Any') -> str:
    return group_key(author) + '\n' + (author['turn'] or '')


def counts_text(added: int, removed: int) -> str:
    return '+' + str(added) + ' \u2212' + str(removed)


def group_label(author: 'Any', session_title: 'Optional[Callable[[str], Any]]' = None) -> str:
    """`session_title(session_id)` names a Hermes conversation (panel or chat session), or None."""
    if author['session'] is None:
        return author['client']
    title = None if session_title is None else session_title(author['session'])
    if json_type(title) == 'string' and title != '':
        return author['client'] + ': ' + title
    return author['client'] + ' (session ' + author['session'][:8] + ')'


def turn_label(author: 'Any', number: int, turn_title: 'Optional[Callable[[str, str], Any]]' = None) -> str:
    """A turn's label: its prompt (`turn_title(session, turn)`, shortened), else 'Turn N' by its place in the
    group; 'Edits' for a client without turns."""
    if author['turn'] is None:
        return 'Edits'
    title = None  # type: Any
    if turn_title is not None and author['session'] is not None:
        title = turn_title(author['session'], author['turn'])
    if json_type(title) == 'string' and title.strip() != '':
        title = title.strip().split('\n')[0]
        return title[:TITLE_CHARS - 1] + '\u2026' if len(title) > TITLE_CHARS else title
    return 'Turn ' + str(number)


def change_tree(pending: 'List[Any]', session_title: 'Optional[Callable[[str], Optional[str]]]' = None,
                turn_title: 'Optional[Callable[[str, str], Optional[str]]]' = None) -> 'List[Any]':
    """The Changes view: [{'key', 'label', 'filter', 'added', 'removed', 'files', 'turns': [{'key', 'label',
    'filter', 'added', 'removed', 'files': [{'path', 'uri', 'label', 'added', 'removed', 'created',
    'deleted', 'filter'}]}]}], groups and turns in the order their first change came (the entries' `time`)."""
    groups = []  # type: Any
    by_group = {}  # type: Any
    by_turn = {}  # type: Any
    for entry in pending:
        author = author_of(entry)
        key = group_key(author)
        if not (key in by_group):
            group = {'key': key, 'label': group_label(author, session_title), 'added': 0, 'removed': 0,  # type: Any
                     'files': 0, 'turns': [], 'filter': {'client': author['client'], 'session': author['session']},
                     'time': None}
            by_group[key] = group
            groups.append(group)
        group = by_group[key]
        tkey = turn_key(author)
        if not (tkey in by_turn):
            turn = {'key': tkey, 'label': None, 'author': author, 'added': 0, 'removed': 0, 'files': [], 'time': None,  # type: Any
                    'filter': {'client': author['client'], 'session': author['session'], 'turn': author['turn']}}
            by_turn[tkey] = turn
            group['turns'].append(turn)
        turn = by_turn[tkey]
        added = _count(entry, 'added')
        removed = _count(entry, 'removed')
        turn['files'].append({'path': entry['path'], 'uri': get_key(entry, 'uri'), 'label': base_name(entry['path']),
                              'added': added, 'removed': removed, 'created': get_key(entry, 'created') is True,
                              'deleted': get_key(entry, 'deleted') is True, 'filter': turn['filter']})
        turn['added'] += added
        turn['removed'] += removed
        group['added'] += added
        group['removed'] += removed
        group['files'] += 1
        when = get_key(entry, 'time', 0)
        for node in [group, turn]:
            if node['time'] is None or when < node['time']:
                node['time'] = when
    for group in groups:
        group['turns'] = sorted(group['turns'], key=lambda node: node['time'])
        number = 0
        for turn in group['turns']:
            number += 1
            turn['label'] = turn_label(turn['author'], number, turn_title)
    return sorted(groups, key=lambda node: node['time'])


def changed_files(pending: 'List[Any]') -> 'List[Any]':
    """Each path with pending changes once: [{'path', 'uri', 'added', 'removed', 'hunks'}] (hunks of every
    author, ordered by line)."""
    files = []  # type: Any
    by_path = {}  # type: Any
    for entry in pending:
        path = entry['path']
        if not (('p:' + path) in by_path):
            item = {'path': path, 'uri': get_key(entry, 'uri'), 'added': 0, 'removed': 0, 'hunks': []}  # type: Any
            by_path['p:' + path] = item
            files.append(item)
        item = by_path['p:' + path]
        item['added'] += _count(entry, 'added')
        item['removed'] += _count(entry, 'removed')
        author = author_of(entry)
        for hunk in get_key(entry, 'hunks', []):
            item['hunks'].append({'hunk': hunk, 'author': author, 'path': path})
    for item in files:
        item['hunks'] = sorted(item['hunks'], key=lambda mark: mark['hunk']['start'])
    return files


def status_text(file_count: int) -> 'Optional[str]':
    """The status bar item, or None when nothing is pending."""
    if file_count <= 0:
        return None
    return '$(diff) ' + str(file_count) + (' file' if file_count == 1 else ' files') + ' to review'


def status_tooltip(file_count: int) -> str:
    return (str(file_count) + (' file has' if file_count == 1 else ' files have') + ' changes by agents to keep or '
            'undo. Click to open the Changes view.')


def hunk_marks(hunk: 'Any', line_count: int) -> 'JsonObject':
    """How a hunk is drawn in an editor with `line_count` lines: {'added': [first, last] or None (whole lines
    highlighted), 'anchor': the line its removed text and lenses attach to, 'removed': the removed line
    count, 'preview': the first removed line, shortened, or None}."""
    start = hunk['start']
    after = len(hunk['after_lines'])
    before = len(hunk['before_lines'])
    last_line = line_count - 1 if line_count > 0 else 0
    anchor = start if start <= last_line else last_line
    added = None
    if after > 0:
        first = start if start <= last_line else last_line
        end = start + after - 1
        added = [first, end if end <= last_line else last_line]
    preview = None
    if before > 0:
        preview = visible_line(hunk['before_lines'][0]).strip()
        if len(preview) > PREVIEW_CHARS:
            preview = preview[:PREVIEW_CHARS - 1] + '\u2026'
        if before > 1:
            preview = preview + '  (' + str(before - 1) + ' more removed line' + ('' if before == 2 else 's') + ')'
    return {'added': added, 'anchor': anchor, 'removed': before, 'preview': preview}


def hunk_hover(hunk: 'Any', author: 'Any') -> str:
    """The hover over a hunk: who changed it and the lines before and after, as a diff."""
    lines = ['**' + _who(author) + '** changed these lines (' + counts_text(len(hunk['after_lines']),
                                                                           len(hunk['before_lines'])) + ')',
             '', '```diff']
    for line in hunk['before_lines']:
        lines.append('-' + visible_line(line))
    for line in hunk['after_lines']:
        lines.append('+' + visible_line(line))
    lines.append('```')
    return '\n'.join(lines)


def lens_title(author: 'Any', hunk: 'Any') -> str:
    return _who(author) + ' \u00b7 ' + counts_text(len(hunk['after_lines']), len(hunk['before_lines']))


def _who(author: 'Any') -> str:
    if author['turn'] is None:
        return author['client']
    return author['client'] + ', turn ' + author['turn']


def next_line(starts: 'List[int]', line: int, forward: bool) -> 'Optional[int]':
    """Where "next/previous change" goes from `line`, among hunk start lines: wraps around; None when
    there is no change."""
    if len(starts) == 0:
        return None
    ordered = sorted(starts)
    if forward:
        for start in ordered:
            if start > line:
                return start
        return ordered[0]
    index = len(ordered) - 1
    while index >= 0:
        if ordered[index] < line:
            return ordered[index]
        index -= 1
    return ordered[len(ordered) - 1]


def text_before(text: str, hunks: 'List[Any]') -> str:
    """`text` with these hunks undone (each one's `after` lines, at its `start`, back to its `before` lines; lines
    with their terminators, as the change log stores them): the left side of a diff. Hunks must not overlap."""
    lines = split_lines(text)
    for hunk in sorted(hunks, key=lambda item: item['start'], reverse=True):
        start = hunk['start']
        undone = lines[:start]
        undone.extend(hunk['before'])
        undone.extend(lines[start + len(hunk['after']):])
        lines = undone
    return join_lines(lines)


def before_text(entry: 'Any', change_filter: 'Any') -> str:
    """A file's text before the pending changes in `change_filter` (None: all of them), from its change log entry
    ({'base', 'text', 'hunks': [{'start', 'before', 'after', 'author'}]}): the base when every hunk is chosen,
    else the agent's text with the chosen hunks undone. A created file's base is '' (None in the entry)."""
    chosen = [hunk for hunk in entry['hunks'] if author_matches(hunk['author'], change_filter)]
    if len(chosen) == len(entry['hunks']):
        return '' if entry['base'] is None else entry['base']
    return text_before('' if entry['text'] is None else entry['text'], chosen)


def base_name(path: str) -> str:
    index = max(path.rfind('/'), path.rfind('\\'))
    return path[index + 1:] if index >= 0 else path


def filter_label(change_filter: 'Any') -> str:
    """'everything' / the client / the client's session / a turn: for confirmations and messages."""
    if change_filter is None:
        return 'every agent'
    client = get_key(change_filter, 'client')
    turn = get_key(change_filter, 'turn')
    if json_type(client) != 'string':
        return 'every agent'
    if turn is None:
        return client
    return client + ', turn ' + str(turn)


def _count(entry: 'Any', key: str) -> int:
    value = get_key(entry, key, 0)
    return value if json_type(value) == 'integer' else 0


def matches(entry: 'Any', change_filter: 'Any') -> bool:
    """Whether a pending entry is in a filter ({'client'?, 'session'?, 'turn'?}; None: everything)."""
    return author_matches(get_key(entry, 'author'), change_filter)


def author_matches(author: 'Any', change_filter: 'Any') -> bool:
    """A key the filter names with a value must be equal; a missing or None one matches anything (the change log's
    own rule, core/changes/model.py `matches`, so a view shows exactly what Keep All / Undo All act on)."""
    if change_filter is None:
        return True
    author = author_of({'author': author})
    for key in ['client', 'session', 'turn']:
        wanted = get_key(change_filter, key)
        if wanted is not None and author[key] != str(wanted):
            return False
    return True


def session_changes(pending: 'List[Any]', session_id: 'Optional[str]') -> 'Any':
    """A Hermes conversation's pending changes per file, for its chat session item: [{'path', 'added',
    'removed'}] in the order the files were first changed."""
    files = []  # type: Any
    by_path = {}  # type: Any
    for entry in pending:
        if author_of(entry)['session'] != session_id:
            continue
        key = 'p:' + entry['path']
        item = by_path[key] if key in by_path else None  # type: Any
        if item is None:
            item = {'path': entry['path'], 'added': 0, 'removed': 0}
            by_path[key] = item
            files.append(item)
        item['added'] += _count(entry, 'added')
        item['removed'] += _count(entry, 'removed')
    return files


def turn_changes(pending: 'List[Any]', session_id: 'Optional[str]') -> 'Any':
    """A Hermes conversation's pending changes by turn, for the side panel: {turn id: {'files': [{'path', 'label',
    'added', 'removed'}], 'added', 'removed'}}."""
    turns = {}  # type: Any
    for entry in pending:
        author = author_of(entry)
        if author['session'] != session_id or author['turn'] is None:
            continue
        if not (author['turn'] in turns):
            turns[author['turn']] = {'files': [], 'added': 0, 'removed': 0}
        turn = turns[author['turn']]
        added = _count(entry, 'added')
        removed = _count(entry, 'removed')
        turn['files'].append({'path': entry['path'], 'label': base_name(entry['path']), 'added': added,
                              'removed': removed})
        turn['added'] += added
        turn['removed'] += removed
    return turns
