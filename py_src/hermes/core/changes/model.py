"""The change log's model: each file's entry (its base, its text, the pending hunks between them with their
authors), what keeping and undoing hunks does to it, the decisions remembered, the re-read rule, and the records the
store keeps (the whole log, a journal line). Pure: texts, paths and times in, records out — host/changes/log.py reads
and writes the files, makes the URIs, confines the paths, runs the timers and the store, and calls it. The
module-level functions are replayed on the bundle (parity vectors); `ChangeModel` keeps the log's state between
them. The hunks themselves: core/changes/hunks.py.
"""
# __pragma__('tconv')
from hermes.core.values import get_key, has_key, json_type
from hermes.core.changes.hunks import (split_lines, join_lines, diff_texts, assign_ids, keep_in_base, revert_in_text, rebase,
                               undo_lines, hunk_view)
from hermes.core.changes.authors import author_of
# __pragma__('skip')
from typing import Any, Callable, Dict, List, Optional
from hermes.contracts.json import JsonObject
from hermes.contracts.loop import ChangeAuthor
from hermes.contracts.changes import ChangeDecision, ChangeEntry, ChangeHunk, ChangeLogData, JournalLine, UndoPlan
# __pragma__('noskip')

MAX_FILE_CHARS = 1000000
MAX_HISTORY = 200  # decisions remembered (kept / undone), newest last
MAX_STORED_CHARS = 16000000

LINKS = ['renamed_from', 'renamed_to']  # the two entries of a move name each other (in this order)


class ChangeConflict(Exception):
    """An undo the user must decide on: the user edited the hunk since the agent wrote it."""

    def __init__(self, path: str, hunk_ids: 'List[str]') -> None:
        text = ('You edited ' + str(len(hunk_ids)) + ' of these changes since the agent made them; undo them anyway '
                '(your edits there are replaced)?')
        super().__init__(text)
        self.text = text  # (Transcrypt's exceptions keep no `args`: __str__ reads this)
        self.path = path
        self.hunk_ids = hunk_ids

    def __str__(self) -> str:
        return self.text


class ChangeModel:
    """The log's state: the entries of the files with pending changes (oldest change first), the decisions
    remembered (`decisions`, and those not yet in a journal line: `unjournaled`), the clients' reads, and a sequence
    that orders records and reads. Files dropped to stay within MAX_STORED_CHARS wait in `reports` until the host
    takes them (`take_reports`) to tell the user. `max_stored_chars`: the bound (0: MAX_STORED_CHARS)."""

    def __init__(self, max_stored_chars: int = 0) -> None:
        self.max_stored_chars = max_stored_chars if max_stored_chars > 0 else MAX_STORED_CHARS
        # ' ' + path → entry (the prefix keeps paths clear of the dict's own members)
        self._entries = {}  # type: Dict[str, ChangeEntry]
        self.order = []  # type: List[str]  # paths, oldest change first
        self._reads = {}  # type: Dict[str, int]  # client + '\n' + path → the sequence number of its last read
        self._sequence = 0  # counts records and reads: "read after the hunk was recorded" never ties on a clock
        self.dropped = 0  # files dropped to stay within MAX_STORED_CHARS since the log started
        self.decisions = []  # type: List[ChangeDecision]
        self.unjournaled = []  # type: List[ChangeDecision]  # decisions not yet in a journal line
        self.journal_seq = 0  # the last journal line written (host/changes/store.py)
        self.reports = []  # type: List[str]  # what the user is to be told (files dropped), oldest first

    # ------------------------------------------------------------------------------------------ reading

    def entry(self, path: str) -> 'Optional[ChangeEntry]':
        key = ' ' + path
        return self._entries[key] if key in self._entries else None

    def known(self, path: str) -> 'ChangeEntry':
        """The entry of a path the log holds (one of `order`: every such path has one)."""
        key = ' ' + path
        if key in self._entries:
            return self._entries[key]
        raise ValueError('The change log has no entry for ' + path)

    def pending(self, wanted: 'Optional[JsonObject]') -> 'List[JsonObject]':
        return pending_items([self.known(path) for path in self.order], wanted)

    def history(self, wanted: 'Optional[JsonObject]') -> 'List[ChangeDecision]':
        return [item for item in self.decisions if matches(item, wanted)]

    def remember(self, path: str, action: str, hunks: 'List[ChangeHunk]', now: float) -> None:
        for item in decisions_of(path, action, hunks, now):
            self.decisions.append(item)
            self.unjournaled.append(item)
        while len(self.decisions) > MAX_HISTORY:
            self.decisions.pop(0)

    def chosen(self, path: str, chosen_if: 'Callable[[ChangeHunk], bool]') -> 'Optional[JsonObject]':
        """{'entry', 'hunks': those of its hunks `chosen_if(hunk)` accepts}, or None: no entry (any more: kept or
        undone with the other end of its move) or no such hunk."""
        entry = self.entry(path)
        if entry is None:
            return None
        chosen = [hunk for hunk in entry['hunks'] if chosen_if(hunk)]
        return None if len(chosen) == 0 else {'entry': entry, 'hunks': chosen}

    # ---------------------------------------------------------------------------------------- recording

    def next_sequence(self) -> int:
        self._sequence = self._sequence + 1
        return self._sequence

    def merge(self, path: str, uri: str, before: 'Optional[str]', after: 'Optional[str]', author: 'ChangeAuthor',
              now: float) -> 'Optional[ChangeEntry]':
        """`author` changed the file from `before` to `after`: its entry now, or None (no difference left)."""
        made = merged_entry(path, uri, self.entry(path), before, after, author, now, self.next_sequence())
        if made is None:
            self.forget(path)
            return None
        self.put(path, made)
        return made

    def record_large(self, path: str, uri: str, author: 'ChangeAuthor', now: float) -> 'ChangeEntry':
        made = large_entry(path, uri, author, now, self.next_sequence())
        self.put(path, made)
        return made

    def link_move(self, old_path: str, new_path: str, created: 'ChangeEntry') -> None:
        self.known(old_path)['renamed_to'] = new_path
        created['renamed_from'] = old_path

    def put(self, path: str, entry: 'ChangeEntry') -> None:
        key = ' ' + path
        if key not in self._entries:
            self.order.append(path)
        self._entries[key] = entry
        self._bound()

    def forget(self, path: str) -> None:
        key = ' ' + path
        if key in self._entries:
            self._entries.pop(key)
            self.order = [item for item in self.order if item != path]

    def _bound(self) -> None:
        total = 0
        for path in self.order:
            total = total + entry_size(self.known(path))
        while total > self.max_stored_chars and len(self.order) > 1:
            oldest = self.order[0]
            total = total - entry_size(self.known(oldest))
            self.forget(oldest)
            self.dropped = self.dropped + 1
            self.reports.append(dropped_text(oldest, self.max_stored_chars))

    def take_reports(self) -> 'List[str]':
        """What the user is to be told since the last call (and no longer kept here)."""
        taken = self.reports
        self.reports = []
        return taken

    # ---------------------------------------------------------------------------------- what agents read

    def note_read(self, client: str, path: str) -> None:
        self._reads[client + '\n' + path] = self.next_sequence()

    def edit_refusal(self, author: 'ChangeAuthor', path: str,
                     line_ranges: 'Optional[List[List[int]]]') -> 'Optional[str]':
        entry = self.entry(path)
        if entry is None:
            return None
        read_key = author['client'] + '\n' + path
        return refusal_of(entry, author['client'], self._reads[read_key] if read_key in self._reads else -1,
                          line_ranges)

    # ------------------------------------------------------------------------------- keeping, undoing

    def keep_hunks(self, path: str, entry: 'ChangeEntry', chosen: 'List[ChangeHunk]', action: str,
                   now: float) -> None:
        self.remember(path, action, chosen, now)
        if len(chosen) == len(entry['hunks']) or entry['too_large']:
            self.forget(path)
            partner = partner_of(entry)
            if partner is not None and self.entry(partner) is not None:  # a move is kept as a whole
                self.remember(partner, action, self.known(partner)['hunks'], now)
                self.forget(partner)
            return
        kept_ids = [hunk['id'] for hunk in chosen]
        left = [hunk for hunk in entry['hunks'] if hunk['id'] not in kept_ids]
        self.rediff(path, entry, kept_base(entry, chosen), entry['text'], left, now)

    def rediff(self, path: str, entry: 'ChangeEntry', base: 'Optional[str]', text: 'Optional[str]',
               previous: 'List[ChangeHunk]', now: float) -> None:
        made = rediffed_entry(path, entry, base, text, previous, now)
        if made is None:
            self.forget(path)
            return
        self._entries[' ' + path] = made

    def undone_lines(self, path: str, undone_ids: 'List[str]', now: float) -> None:
        """The hunks `undone_ids` of `path` were undone in the file: the entry (as it is now: the write may have
        been recorded meanwhile) loses them."""
        entry = self.entry(path)
        if entry is None:
            return
        left = [hunk for hunk in entry['hunks'] if hunk['id'] not in undone_ids]
        self.rediff(path, entry, entry['base'], text_without(entry, undone_ids), left, now)

    def synced(self, path: str, entry: 'ChangeEntry', current: 'Optional[str]', now: float) -> None:
        """The file's text is `current` now (the user edited it): edits outside pending hunks join the base."""
        self.rediff(path, entry, rebased_base(entry, current), current, entry['hunks'], now)

    def earlier_turns(self, author: 'ChangeAuthor') -> 'List[str]':
        return earlier_turns_of([self.known(path) for path in self.order], author)

    # ----------------------------------------------------------------------------------- persistence

    def journaled(self) -> None:
        """The decisions so far are in a journal line or a snapshot now."""
        self.unjournaled = []

    def to_data(self, format_version: int) -> 'ChangeLogData':
        return {'format': format_version, 'files': [self.known(path) for path in self.order],
                'history': self.decisions, 'journal_seq': self.journal_seq}

    def journal_line(self, paths: 'List[str]') -> 'JournalLine':
        """The next journal line: the entries of `paths` (those still in the log), the files in order, the
        decisions since the last line."""
        self.journal_seq = self.journal_seq + 1
        files = []  # type: List[ChangeEntry]
        for path in paths:
            entry = self.entry(path)
            if entry is not None:
                files.append(entry)
        return {'seq': self.journal_seq, 'order': self.order, 'files': files, 'history': self.unjournaled}

    def restore(self, data: 'Any', confined: 'Callable[[str], bool]') -> bool:
        """Take the stored log (host/changes/store.py load); whether it held files outside `confined` (left out:
        the stored copy of their texts must go)."""
        self.journal_seq = get_key(data, 'journal_seq', 0)
        outside = False
        history = get_key(data, 'history')
        if json_type(history) == 'array':
            self.decisions = [item for item in history if json_type(get_key(item, 'path')) == 'string' and
                              confined(item['path'])]
            while len(self.decisions) > MAX_HISTORY:
                self.decisions.pop(0)
        for stored in data['files']:
            for hunk in stored['hunks']:  # reads after a reload must count as later than every stored hunk
                self._sequence = max(self._sequence, get_key(hunk, 'sequence', 0))
            path = stored['path']
            if not confined(path):  # the workspace's folders changed since: never keep such texts
                outside = True
                continue
            self._entries[' ' + path] = stored
            if path not in self.order:
                self.order.append(path)
        return outside


# ---------------------------------------------------------------------------------- the pure functions


def matches(author: 'Any', wanted: 'Optional[JsonObject]') -> bool:
    """Whether `author` fits the filter `wanted` ({'client'?, 'session'?, 'turn'?}; None matches every author)."""
    if wanted is None:
        return True
    for key in ['client', 'session', 'turn']:
        value = get_key(wanted, key)
        if value is not None and get_key(author, key) != str(value):
            return False
    return True


def author_is_external(author: 'Any') -> bool:
    return get_key(author, 'external') is True


def same_author(one: 'ChangeAuthor', other: 'ChangeAuthor') -> bool:
    return one['client'] == other['client'] and one['session'] == other['session'] and one['turn'] == other['turn']


def by_author(hunks: 'List[ChangeHunk]') -> 'List[List[ChangeHunk]]':
    """`hunks` grouped by author, in order of first appearance."""
    groups = []  # type: List[List[ChangeHunk]]
    for hunk in hunks:
        found = -1  # the last group of the same author
        for index in range(len(groups)):
            if same_author(groups[index][0]['author'], hunk['author']):
                found = index
        if found < 0:
            groups.append([hunk])
        else:
            groups[found].append(hunk)
    return groups


def pending_items(entries: 'List[ChangeEntry]', wanted: 'Optional[JsonObject]') -> 'List[JsonObject]':
    """The pending changes of `entries` (in order), one item per file and author: see ChangeLog.pending."""
    items = []  # type: List[JsonObject]
    for entry in entries:
        groups = []  # type: List[JsonObject]
        for hunk in entry['hunks']:
            if not matches(hunk['author'], wanted):
                continue
            found = -1  # the last group of the same author
            for index in range(len(groups)):
                if same_author(groups[index]['author'], hunk['author']):
                    found = index
            if found >= 0:
                group = groups[found]
            else:
                group = {'path': entry['path'], 'uri': entry['uri'], 'author': hunk['author'],
                         'client': hunk['author']['client'], 'session': hunk['author']['session'],
                         'turn': hunk['author']['turn'], 'time': hunk['time'], 'hunks': [],
                         'added': 0, 'removed': 0}
                if entry['base'] is None:
                    group['created'] = True
                if entry['text'] is None:
                    group['deleted'] = True
                if entry['too_large']:
                    group['too_large'] = True
                if has_key(entry, 'renamed_from'):
                    group['renamed_from'] = entry['renamed_from']
                if has_key(entry, 'renamed_to'):
                    group['renamed_to'] = entry['renamed_to']
                groups.append(group)
            view = hunk_view(hunk)
            group['hunks'].append(view)
            group['added'] = group['added'] + view['added']
            group['removed'] = group['removed'] + view['removed']
            group['time'] = max(group['time'], hunk['time'])
        items.extend(groups)
    return items


def summary_of(items: 'List[JsonObject]') -> 'JsonObject':
    """{'files', 'hunks', 'added', 'removed'} over pending items (`pending_items`)."""
    files = 0
    hunks = 0
    added = 0
    removed = 0
    last = None
    for item in items:
        if item['path'] != last:
            files = files + 1
            last = item['path']
        hunks = hunks + len(item['hunks'])
        added = added + item['added']
        removed = removed + item['removed']
    return {'files': files, 'hunks': hunks, 'added': added, 'removed': removed}


def decisions_of(path: str, action: str, hunks: 'List[ChangeHunk]', now: float) -> 'List[ChangeDecision]':
    """What the history remembers of `hunks` of `path` kept or undone (`action`): one item per author."""
    items = []  # type: List[ChangeDecision]
    for group in by_author(hunks):
        author = group[0]['author']
        added = 0
        removed = 0
        for hunk in group:
            added = added + len(hunk['after'])
            removed = removed + len(hunk['before'])
        items.append({'path': path, 'action': action, 'client': author['client'], 'session': author['session'],
                      'turn': author['turn'], 'hunks': len(group), 'added': added, 'removed': removed, 'time': now})
    return items


def merged_entry(path: str, uri: str, entry: 'Optional[ChangeEntry]', before: 'Optional[str]',
                 after: 'Optional[str]', author: 'ChangeAuthor', now: float,
                 sequence: int) -> 'Optional[ChangeEntry]':
    """The entry of `path` after `author` changed it from `before` to `after` (`entry`: the entry before, None:
    none), or None when no difference is left. A `before` other than the entry's text means the user (or a writer the
    log does not see) changed the file since: those edits become the base's."""
    if entry is None:
        base = before
        previous = []  # type: List[ChangeHunk]
        next_id = 1
    else:
        previous = entry['hunks']
        next_id = entry['next_id']
        if entry['text'] == before:
            base = entry['base']
        else:
            lines = rebase(split_lines(or_empty(entry['base'])), split_lines(or_empty(entry['text'])),
                           previous, split_lines(or_empty(before)))
            base = None if entry['base'] is None and before is None else join_lines(lines)
    ided = assign_ids(diff_texts(base, after), previous, next_id, {'author': author, 'time': now,
                                                                  'sequence': sequence})
    if len(ided['hunks']) == 0:
        return None
    made = {'path': path, 'uri': uri, 'base': base, 'text': after, 'hunks': ided['hunks'],
            'next_id': ided['next_id'], 'too_large': False}  # type: ChangeEntry
    carry_links(entry, made)
    return made


def large_entry(path: str, uri: str, author: 'ChangeAuthor', now: float, sequence: int) -> 'ChangeEntry':
    """The entry of a file too large for its texts (MAX_FILE_CHARS): listed, kept, never undone here."""
    return {'path': path, 'uri': uri, 'base': '', 'text': '', 'too_large': True,
            'next_id': 2, 'hunks': [{'id': 'h1', 'start': 0, 'base_start': 0, 'before': [], 'after': [],
                                     'author': author, 'time': now, 'sequence': sequence}]}


def kept_base(entry: 'ChangeEntry', chosen: 'List[ChangeHunk]') -> str:
    """The entry's base with the hunks `chosen` kept (moved into it)."""
    lines = split_lines(or_empty(entry['base']))
    ordered = sorted(chosen, key=lambda hunk: -hunk['base_start'])  # bottom-up: earlier starts stay valid
    for hunk in ordered:
        lines = keep_in_base(lines, hunk)
    return join_lines(lines)


def rediffed_entry(path: str, entry: 'ChangeEntry', base: 'Optional[str]', text: 'Optional[str]',
                   previous: 'List[ChangeHunk]', now: float) -> 'Optional[ChangeEntry]':
    """The entry with a new base and text (hunks that stay the same keep their ids and authors; new ones are the
    user's), or None when no difference is left."""
    ided = assign_ids(diff_texts(base, text), previous, entry['next_id'], {'author': author_of(None), 'time': now})
    if len(ided['hunks']) == 0:
        return None
    made = {'path': path, 'uri': entry['uri'], 'base': base, 'text': text, 'hunks': ided['hunks'],
            'next_id': ided['next_id'], 'too_large': False}  # type: ChangeEntry
    carry_links(entry, made)
    return made


def undo_plan_of(entry: 'ChangeEntry', chosen: 'List[ChangeHunk]', current: 'Optional[str]',
                 force: bool) -> 'UndoPlan':
    """What undoing the hunks `chosen` of `entry` does when the file's text is `current` now. All the hunks of a
    created or deleted file: the file goes or comes back (a conflict when the user changed it since). Else each hunk's
    lines become its before-lines again wherever the user's edits moved it (core/changes/hunks.py undo_lines); a hunk the user
    edited is a conflict. With `force` nothing is a conflict: the user's edits there are replaced."""
    if len(chosen) == len(entry['hunks']) and (entry['base'] is None or entry['text'] is None):
        ids = [hunk['id'] for hunk in chosen]
        return {'file': True, 'conflicts': ids if current != entry['text'] and not force else [], 'undone': ids,
                'text': entry['base']}
    result = undo_lines(split_lines(or_empty(entry['text'])), split_lines(or_empty(current)), chosen, force)
    return {'file': False, 'conflicts': [] if force else result['conflicts'], 'undone': result['undone'],
            'text': join_lines(result['lines'])}


def text_without(entry: 'ChangeEntry', undone_ids: 'List[str]') -> 'Optional[str]':
    """The entry's text with the hunks `undone_ids` reverted (None: a deleted file stays deleted)."""
    undone = [hunk for hunk in entry['hunks'] if hunk['id'] in undone_ids]
    text = split_lines(or_empty(entry['text']))
    for hunk in sorted(undone, key=lambda hunk: -hunk['start']):
        text = revert_in_text(text, hunk)
    new_text = join_lines(text)  # type: Optional[str]
    if entry['text'] is None and new_text == '':
        new_text = None
    return new_text


def rebased_base(entry: 'ChangeEntry', current: 'Optional[str]') -> 'Optional[str]':
    """The entry's base once the file's text is `current`: the edits outside pending hunks join it."""
    lines = rebase(split_lines(or_empty(entry['base'])), split_lines(or_empty(entry['text'])),
                   entry['hunks'], split_lines(or_empty(current)))
    return None if entry['base'] is None and current is None else join_lines(lines)


def refusal_of(entry: 'ChangeEntry', client: str, read_at: int,
               line_ranges: 'Optional[List[List[int]]]') -> 'Optional[str]':
    """Why `client` (whose last whole read of the file was at sequence `read_at`) may not write `line_ranges` of
    the entry's file now, or None: see ChangeLog.edit_refusal."""
    for hunk in entry['hunks']:
        if hunk['author']['client'] == client or get_key(hunk, 'sequence', 0) < read_at:
            continue
        if line_ranges is None or overlaps(hunk, line_ranges):
            return ('Refused: lines ' + str(hunk['start'] + 1) + '-' + str(hunk['start'] + max(1, len(hunk['after']))) +
                    ' of this file hold a change by ' + hunk['author']['client'] + ' that the user has not kept or '
                    'undone yet. Read the file again (file_read or editor_get_content) to see its current text, '
                    'then make your edit.')
    return None


def earlier_turns_of(entries: 'List[ChangeEntry]', author: 'ChangeAuthor') -> 'List[str]':
    """The turns of `author`'s client and session other than its own that have pending hunks in `entries`."""
    earlier = []  # type: List[str]
    for entry in entries:
        for hunk in entry['hunks']:
            other = hunk['author']
            if other['client'] == author['client'] and other['session'] == author['session'] and \
                    other['turn'] != author['turn'] and other['turn'] is not None:
                if other['turn'] not in earlier:
                    earlier.append(other['turn'])
    return earlier


def too_large_to_undo_text() -> str:
    return ('This file was too large for the change log (over ' + str(MAX_FILE_CHARS) +
            ' characters); undo it with Edit > Undo in its editor, or git.')


def dropped_text(path: str, limit: int) -> str:
    return ('Changes: the change log is full (' + str(limit) + ' characters); the oldest '
            'pending changes (' + path + ') were dropped from it and stay in the file as if kept.')


def carry_links(entry: 'Optional[ChangeEntry]', made: 'ChangeEntry') -> None:
    """A move's links survive every rewrite of the entry."""
    if entry is None:
        return
    if has_key(entry, 'renamed_from'):
        made['renamed_from'] = entry['renamed_from']
    if has_key(entry, 'renamed_to'):
        made['renamed_to'] = entry['renamed_to']


def partner_of(entry: 'ChangeEntry') -> 'Optional[str]':
    """The other end of a move, or None."""
    if has_key(entry, 'renamed_from'):
        return entry['renamed_from']
    if has_key(entry, 'renamed_to'):
        return entry['renamed_to']
    return None


def overlaps(hunk: 'ChangeHunk', line_ranges: 'List[List[int]]') -> bool:
    start = hunk['start']
    end = start + max(1, len(hunk['after']))  # a deletion still guards the line where it happened
    for pair in line_ranges:
        if pair[0] < end and start <= pair[1]:
            return True
    return False


def too_large(text: 'Optional[str]') -> bool:
    return text is not None and len(text) > MAX_FILE_CHARS


def or_empty(text: 'Optional[str]') -> str:
    return '' if text is None else text


def entry_size(entry: 'ChangeEntry') -> int:
    return len(or_empty(entry['base'])) + len(or_empty(entry['text']))
