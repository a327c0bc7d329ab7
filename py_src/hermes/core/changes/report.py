"""The change log as agents read it (the `changes_list` tool and the `hermes://changes` resource): pending changes
by file and author with their hunks, and what the user kept or undid. Bounded, so a busy log never floods a
model's context: at most MAX_FILES file items, MAX_HUNK_LINES lines per side of a hunk, MAX_LINE_CHARS per line
(each cut says so)."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, List, Optional
from hermes.contracts.json import JsonObject
# __pragma__('noskip')
from hermes.core.values import get_key

MAX_FILES = 100
MAX_HUNK_LINES = 20
MAX_LINE_CHARS = 200
MAX_HISTORY_ITEMS = 50


def capped_lines(lines: 'List[str]') -> 'List[str]':
    """At most MAX_HUNK_LINES lines of at most MAX_LINE_CHARS characters, with a note for what was cut."""
    result = []
    for line in lines[:MAX_HUNK_LINES]:
        if len(line) > MAX_LINE_CHARS:
            line = line[:MAX_LINE_CHARS] + '… (' + str(len(line) - MAX_LINE_CHARS) + ' more characters)'
        result.append(line)
    if len(lines) > MAX_HUNK_LINES:
        result.append('… (' + str(len(lines) - MAX_HUNK_LINES) + ' more lines)')
    return result


def agent_view(pending: 'List[Any]', history: 'List[Any]', include_lines: bool) -> 'JsonObject':
    """{'summary': {'files', 'hunks', 'added', 'removed'}, 'pending': [...], 'history': [...], 'truncated'?} from
    ChangeLog.pending() and .history() (paths already as the agent should see them). Hunk lines are 1-based
    (`line`: where the change starts in the file now)."""
    files = []
    hunks = 0
    added = 0
    removed = 0
    items = []  # type: List[JsonObject]
    for item in pending:
        if item['path'] not in files:
            files.append(item['path'])
        hunks = hunks + len(item['hunks'])
        added = added + item['added']
        removed = removed + item['removed']
        if len(items) >= MAX_FILES:
            continue
        shown = {'path': item['path'], 'client': item['client'], 'session': item['session'], 'turn': item['turn'],
                 'added': item['added'], 'removed': item['removed']}
        for flag in ['created', 'deleted', 'too_large']:
            if get_key(item, flag) is True:
                shown[flag] = True
        for link in ['renamed_from', 'renamed_to']:
            if get_key(item, link) is not None:
                shown[link] = item[link]
        shown['hunks'] = [_hunk(hunk, include_lines) for hunk in item['hunks']]
        items.append(shown)
    view = {'summary': {'files': len(files), 'hunks': hunks, 'added': added, 'removed': removed}, 'pending': items,
            'history': history[max(0, len(history) - MAX_HISTORY_ITEMS):]}
    if len(pending) > MAX_FILES:
        view['truncated'] = str(len(pending) - MAX_FILES) + ' more file items not listed; filter by client or turn'
    return view


def _hunk(hunk: 'Any', include_lines: bool) -> 'JsonObject':
    shown = {'id': hunk['id'], 'line': hunk['start'] + 1, 'added': hunk['added'], 'removed': hunk['removed']}
    if include_lines:
        shown['removed_lines'] = capped_lines(hunk['before_lines'])
        shown['added_lines'] = capped_lines(hunk['after_lines'])
    return shown


def view_text(view: 'JsonObject') -> str:
    """A few lines for people and models: the totals, each file with its author and counts, the last decisions."""
    summary = view['summary']
    if summary['files'] == 0:
        lines = ['No pending changes.']
    else:
        lines = [str(summary['files']) + ' file' + ('' if summary['files'] == 1 else 's') + ' with pending changes (' +
                 str(summary['hunks']) + ' hunk' + ('' if summary['hunks'] == 1 else 's') + ', +' +
                 str(summary['added']) + ' −' + str(summary['removed']) + '), waiting for the user to keep or undo:']
        for item in view['pending']:
            what = ' (created)' if get_key(item, 'created') is True else (
                ' (deleted)' if get_key(item, 'deleted') is True else '')
            if get_key(item, 'renamed_from') is not None:
                what = ' (moved from ' + item['renamed_from'] + ')'
            elif get_key(item, 'renamed_to') is not None:
                what = ' (moved to ' + item['renamed_to'] + ')'
            lines.append('- ' + item['path'] + what + ': +' + str(item['added']) + ' −' + str(item['removed']) +
                         ' by ' + _author_text(item) + ', hunks at line ' +
                         ', '.join([str(hunk['line']) for hunk in item['hunks']]))
        if get_key(view, 'truncated') is not None:
            lines.append('(' + view['truncated'] + ')')
    decided = view['history']
    if len(decided) > 0:
        lines.append('Decided by the user, newest last:')
        for item in decided:
            lines.append('- ' + item['action'] + ': ' + item['path'] + ' +' + str(item['added']) + ' −' +
                         str(item['removed']) + ' by ' + _author_text(item))
    return '\n'.join(lines)


def _author_text(item: 'Any') -> str:
    text = item['client']
    if item['session'] is not None:
        text = text + ' (session ' + item['session'] + ')'
    if item['turn'] is not None:
        text = text + ', turn ' + item['turn']
    return text


MAX_UNDO_NOTE_FILES = 10


def undo_note(history: 'List[Any]', session: 'Optional[str]', since: 'Any') -> 'Optional[str]':
    """What an ACP agent is told with its next prompt when changes it made in this conversation (`session`) were
    undone in the editor since `since` (ms, the start of its previous turn; None: never): its protocol has no
    message for it, and an agent that does not know would redo the change or edit text that is not there. A text
    for a prompt's first block, or None when nothing was undone. From ChangeLog.history() items."""
    if since is None or session is None:
        return None
    counts = {}  # type: JsonObject
    paths = []  # type: List[str]
    for item in history:
        if item['action'] != 'undone' or get_key(item, 'session') != session or item['time'] < since:
            continue
        key = 'p:' + item['path']
        if not (key in counts):
            paths.append(item['path'])
            counts[key] = 0
        counts[key] = counts[key] + item['hunks']
    if len(paths) == 0:
        return None
    named = []
    for path in paths[:MAX_UNDO_NOTE_FILES]:
        count = get_key(counts, 'p:' + path)
        named.append(path + ' (' + str(count) + (' change)' if count == 1 else ' changes)'))
    more = len(paths) - MAX_UNDO_NOTE_FILES
    return ('[Note from the editor] Since your previous turn the user undid some of your changes: ' +
            ', '.join(named) + (' and ' + str(more) + ' more files' if more > 0 else '') +
            '. Those files are as the user left them: read them again before you edit them, and do not redo what '
            'was undone unless asked.')
