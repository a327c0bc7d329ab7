"""The change log: every write an agent makes through Hermes, per file, as hunks the user can keep or undo
(core/hunks.py). The one source of truth the editor's marks, the Changes view, sessions' changed files, the
`changes_list` tool and the `hermes://changes` resource read.

A file's entry: `base` (the text before the pending changes; None: the agent created the file), `text` (the text
the agent left; None: it deleted the file) and the pending `hunks`, each with its author ({'client', 'session',
'turn'}) and time. Keeping a hunk moves it into the base; undoing it writes its before-text back through the editor
(host/change_files.py) wherever the user's later edits moved it, and asks first (a conflict) when the user edited
the hunk itself.

Bounds, and what happens beyond them:
- a file whose before or after text is longer than MAX_FILE_CHARS is recorded without its texts ('too_large': the
  Changes view lists it, Keep drops it, Undo is refused: VS Code's own Undo or git restore it);
- all entries together hold at most MAX_STORED_CHARS characters of text: past it the files changed longest ago
  are dropped from the log (their changes stay on disk as if kept), and the report says how many;
- files outside the workspace folders (by their real path, whatever `hermes.tools.allowOutsideWorkspace` says)
  are never recorded: the log is stored in the workspace's storage and must not copy other files' contents there.

Stored by host/change_store.py: each change goes to its journal before anyone hears of it (so a change a tool
reported, or a view showed, survives the extension host being killed), the whole log once changes pause
(SNAPSHOT_QUIET_MS) and on dispose. Listeners hear of changes after the journal, coalesced (ANNOUNCE_QUIET_MS).
"""
# __pragma__('tconv')
from hermes.js.clock import now_ms
from hermes.js.errors import JsError
from hermes.js.modules import vscode
from hermes.js.objects import is_none
from hermes.js.timers import set_timer, clear_timer
from hermes.core.tools import ToolError
from hermes.core.values import get_key, has_key, json_type
from hermes.core.hunks import (split_lines, join_lines, diff_texts, assign_ids, undo_lines, keep_in_base,
                               revert_in_text, rebase, hunk_view)
from hermes.core.change_report import agent_view
from hermes.core.change_authors import author_of
from hermes.core.change_notes import ChangeNotes
from hermes.core.edit_scopes import EditScopes
from hermes.core.quiet_timer import QuietTimer
from hermes.host.paths import folder_paths, is_inside, real_path, real_folder, display_path
from hermes.host.change_store import FORMAT
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional
from hermes.contracts.json import JsonObject
from hermes.contracts.services import CallContext
from hermes.contracts.loop import ChangeAuthor
from hermes.core.hunks import Hunk
if TYPE_CHECKING:
    from hermes.host.change_files import EditorFiles  # (it imports this module)
    from hermes.host.change_store import ChangeStore
# __pragma__('noskip')

MAX_FILE_CHARS = 1000000
MAX_HISTORY = 200  # decisions remembered (kept / undone), newest last
MAX_STORED_CHARS = 16000000
# The snapshot (the whole log, fsynced: host/change_store.py) is compaction, not durability — the journal line written
# before a change is announced is what survives a kill. So it waits for a quiet moment instead of landing in the middle
# of an agent's next write: SNAPSHOT_QUIET_MS after the last change, or SNAPSHOT_MAX_WAIT_MS after the first one not
# yet in a snapshot while changes keep coming (measured in code-server: a snapshot took 2-35 ms of the extension host's
# thread, and one every 300 ms fell inside ~40% of an agent's writes).
SNAPSHOT_QUIET_MS = 1000
SNAPSHOT_MAX_WAIT_MS = 5000
# What the window's listeners (the editor's marks, the Changes view, the status bar, sessions' changed files, the
# panel, hermes://changes) hear: a burst of changes once, with every path it touched, when the changes pause for
# ANNOUNCE_QUIET_MS — and at least every ANNOUNCE_LONGEST_MS while an agent keeps writing. Drawing is VS Code's work in
# the workbench, and an agent's next write waits behind it: pushed after each change it made writes 15-50 ms slower
# in code-server (docs/ARCHITECTURE.md, "The change log").
ANNOUNCE_QUIET_MS = 200
ANNOUNCE_LONGEST_MS = 1000

LINKS = ['renamed_from', 'renamed_to']  # the two entries of a move name each other

AUTO_KEEP_NEVER = 'never'
AUTO_KEEP_NEXT_TURN = 'nextTurn'
AUTO_KEEP_AFTER_DELAY = 'afterDelay'


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


class _SeamTimers:
    """Timers as the log uses them (tests hand it a fake that fires when they say)."""

    def after(self, callback: 'Callable[[], None]', delay_ms: float) -> Any:
        return set_timer(callback, delay_ms)

    def cancel(self, handle: Any) -> None:
        clear_timer(handle)


SEAM_TIMERS = _SeamTimers()


class _Subscription:
    def __init__(self, on_dispose: 'Optional[Callable[[], None]]') -> None:
        self._on_dispose = on_dispose

    def dispose(self) -> None:
        if not is_none(self._on_dispose):
            self._on_dispose()
            self._on_dispose = None


def matches(author: 'JsonObject', wanted: 'Optional[JsonObject]') -> bool:
    """Whether `author` fits the filter `wanted` ({'client'?, 'session'?, 'turn'?}; None matches every author)."""
    if is_none(wanted):
        return True
    for key in ['client', 'session', 'turn']:
        value = get_key(wanted, key)
        if not is_none(value) and get_key(author, key) != str(value):
            return False
    return True


def in_workspace_strictly(path: str) -> bool:
    """Inside a workspace folder by real paths — the log's own rule (no setting widens it)."""
    try:
        real = real_path(path)
        for folder in folder_paths():
            if is_inside(real, real_folder(folder)):  # (the folder's real path is remembered: host/paths.py)
                return True
    except JsError:
        return False
    return False


class ChangeLog:
    """See the module's docstring. `files` reads and writes the files (host/change_files.py EditorFiles),
    `store` keeps the log (host/change_store.py ChangeStore), `settings(key)` reads `hermes.changes.*`,
    `report(text)` tells the user about storage problems. `announce_quiet_ms`: None tells listeners of each change at
    once (tests, tools that build a log of their own); the window's log passes ANNOUNCE_QUIET_MS (`on_change`)."""

    def __init__(self, files: 'EditorFiles', store: 'Optional[ChangeStore]' = None,
                 settings: 'Optional[Callable[[str], Any]]' = None, report: 'Optional[Callable[[str], Any]]' = None,
                 clock: 'Optional[Callable[[], float]]' = None, confined: 'Optional[Callable[[str], bool]]' = None,
                 timers: Any = None, announce_quiet_ms: 'Optional[float]' = None) -> None:
        self._files = files
        self._store = store
        self._settings = settings
        self._report = report
        self._clock = now_ms if is_none(clock) else clock  # type: Callable[[], float]
        self._confined = in_workspace_strictly if is_none(confined) else confined  # type: Callable[[str], bool]
        self._timers = SEAM_TIMERS if is_none(timers) else timers  # type: Any
        # ' ' + path → entry (the prefix keeps paths clear of the dict's own members)
        self._entries = {}  # type: Dict[str, JsonObject]
        self._order = []  # type: List[str]  # paths, oldest change first
        self._listeners = []  # type: List[Callable[[List[str]], Any]]
        self._reads = {}  # type: Dict[str, int]  # client + '\n' + path → the sequence number of its last read
        self._sequence = 0  # counts records and reads: "read after the hunk was recorded" never ties on a clock
        self._saver = QuietTimer(self._timers, self._clock, SNAPSHOT_QUIET_MS, SNAPSHOT_MAX_WAIT_MS, self._snapshot)
        self._keep_timer = None  # type: Any
        self._announcer = None if is_none(announce_quiet_ms) else \
            QuietTimer(self._timers, self._clock, announce_quiet_ms, ANNOUNCE_LONGEST_MS, self.announce_now)
        self._unannounced = []  # type: List[str]  # paths changed since the listeners last heard, first change first
        # 'k:' + path → until when `sync` leaves the file's entry alone (hold_sync)
        self._held = {}  # type: Dict[str, float]
        self.dropped = 0  # files dropped to stay within MAX_STORED_CHARS since the log started
        # [{'path', 'action', 'client', 'session', 'turn', 'hunks', 'added', 'removed', 'time'}]
        self._history = []  # type: List[JsonObject]
        self._unjournaled = []  # type: List[JsonObject]  # history items not yet in a journal line
        self._journal_seq = 0  # type: int  # the last journal line written (host/change_store.py)
        # turns whose writes VS Code's chat editing session tracks too (core/edit_scopes.py, ui/native_edits.py)
        self.edit_scopes = EditScopes()
        self.notes = ChangeNotes()  # changes seen but not under review exactly (the Changes view shows them)
        self._restore()

    # ------------------------------------------------------------------------------------------ reading

    def entry(self, path: str) -> 'Optional[JsonObject]':
        """The stored entry of `path` (a dict; do not change it), or None."""
        key = ' ' + path
        return self._entries[key] if key in self._entries else None

    def _known(self, path: str) -> 'JsonObject':
        """The entry of a path the log holds (one of `_order`: every such path has one)."""
        key = ' ' + path
        if key in self._entries:
            return self._entries[key]
        raise ValueError('The change log has no entry for ' + path)

    def paths(self) -> 'List[str]':
        """The files with pending changes, oldest change first."""
        return self._order[:]

    def pending(self, wanted: 'Optional[JsonObject]' = None) -> 'List[JsonObject]':
        """Pending changes, one item per file and author (client, session, turn), files in the order they were
        first changed: [{'path', 'uri', 'author', 'client', 'session', 'turn', 'time', 'added', 'removed',
        'hunks': [{'id', 'start', 'base_start', 'before_lines', 'after_lines', 'added', 'removed'}],
        'created'?, 'deleted'?, 'too_large'?}]. `start` is the 0-based line in the file as the agent left it
        (decorate the editor from it; `sync` first if the user may have edited the file since). `wanted`
        filters by author ({'client'?, 'session'?, 'turn'?})."""
        items = []  # type: List[JsonObject]
        for path in self._order:
            entry = self._known(path)
            groups = []  # type: List[JsonObject]
            for hunk in entry['hunks']:
                if not matches(hunk['author'], wanted):
                    continue
                group = None
                for known in groups:
                    if _same_author(known['author'], hunk['author']):
                        group = known
                if is_none(group):
                    group = {'path': path, 'uri': entry['uri'], 'author': hunk['author'],
                             'client': hunk['author']['client'], 'session': hunk['author']['session'],
                             'turn': hunk['author']['turn'], 'time': hunk['time'], 'hunks': [],
                             'added': 0, 'removed': 0}
                    if is_none(entry['base']):
                        group['created'] = True
                    if is_none(entry['text']):
                        group['deleted'] = True
                    if entry['too_large']:
                        group['too_large'] = True
                    for link in LINKS:
                        if has_key(entry, link):
                            group[link] = entry[link]
                    groups.append(group)
                view = hunk_view(hunk)
                group['hunks'].append(view)
                group['added'] = group['added'] + view['added']
                group['removed'] = group['removed'] + view['removed']
                group['time'] = max(group['time'], hunk['time'])
            items.extend(groups)
        return items

    def summary(self, wanted: 'Optional[JsonObject]' = None) -> 'JsonObject':
        """{'files', 'hunks', 'added', 'removed'} over the pending changes (for a status bar)."""
        files = 0
        hunks = 0
        added = 0
        removed = 0
        last = None
        for item in self.pending(wanted):
            if item['path'] != last:
                files = files + 1
                last = item['path']
            hunks = hunks + len(item['hunks'])
            added = added + item['added']
            removed = removed + item['removed']
        return {'files': files, 'hunks': hunks, 'added': added, 'removed': removed}

    def for_agents(self, wanted: 'Optional[JsonObject]' = None, include_lines: bool = True) -> 'JsonObject':
        """The log as agents read it (core/change_report.py agent_view), paths as the tools show them."""
        pending = self.pending(wanted)
        for item in pending:
            item['path'] = display_path(item['path'])
            for link in LINKS:
                if has_key(item, link):
                    item[link] = display_path(item[link])
        history = []  # type: List[JsonObject]
        for item in self.history(wanted):
            shown = {}  # type: JsonObject
            for key in item.keys():
                shown[key] = item[key]
            shown['path'] = display_path(item['path'])
            history.append(shown)
        return agent_view(pending, history, include_lines)

    def history(self, wanted: 'Optional[JsonObject]' = None) -> 'List[JsonObject]':
        """What became of earlier changes, newest last (at most MAX_HISTORY): [{'path', 'action': 'kept' |
        'undone' | 'auto-kept', 'client', 'session', 'turn' (whose change it was), 'hunks' (how many), 'added',
        'removed', 'time'}], filtered by the changes' author like `pending`."""
        return [item for item in self._history if matches(item, wanted)]

    def _remember(self, path: str, action: str, hunks: 'List[Hunk]') -> None:
        for group in _by_author(hunks):
            author = group[0]['author']
            added = 0
            removed = 0
            for hunk in group:
                added = added + len(hunk['after'])
                removed = removed + len(hunk['before'])
            item = {'path': path, 'action': action, 'client': author['client'], 'session': author['session'],
                    'turn': author['turn'], 'hunks': len(group), 'added': added, 'removed': removed,
                    'time': self._clock()}
            self._history.append(item)
            self._unjournaled.append(item)
        while len(self._history) > MAX_HISTORY:
            self._history.pop(0)

    def on_change(self, listener: 'Callable[[List[str]], Any]') -> '_Subscription':
        """Call `listener(paths)` after changes of the log (paths: the files concerned); returns a disposable. With
        `announce_quiet_ms`, a burst of changes is heard once, when it pauses (so after the tool's reply: a
        listener never slows the write that caused it), with the paths of all of them; the state it reads then is
        the latest. Every change is in the journal before any listener hears of it."""
        self._listeners.append(listener)

        def remove() -> None:
            self._listeners = [item for item in self._listeners if item is not listener]
        return _Subscription(remove)

    # ---------------------------------------------------------------------------------------- recording

    def record(self, path: Any, before: 'Optional[str]', after: 'Optional[str]',
               author: Any) -> 'Optional[JsonObject]':
        """Record that `author` changed the file at `path` (an absolute path or a file URI) from `before` to
        `after` (None: the file did not exist / was deleted). Returns the file's entry, or None when nothing is
        recorded: no change, a file outside the workspace, or an external client while
        `hermes.changes.trackExternal` is off. Usable by every writer: MCP tools (the registry's ToolCall
        carries the author), the built-in loop, ACP agents' writes and the files they changed on disk."""
        path = _path_of(path)
        author = author_of(author)
        if before == after or (is_none(before) and is_none(after)):
            return self.entry(path)
        if author_is_external(author) and self._setting('changes.trackExternal') is False:
            return None
        if not self._confined(path):
            return None
        self._auto_keep_for(author)
        now = self._clock()
        entry = self.entry(path)
        if _too_large(before) or _too_large(after) or (not is_none(entry) and entry['too_large']):
            entry = self._large_entry(path, entry, author, now)
        else:
            entry = self._merge(path, entry, before, after, author, now)
        self._changed([path])
        return entry

    def _merge(self, path: str, entry: 'Optional[JsonObject]', before: 'Optional[str]', after: 'Optional[str]',
               author: 'JsonObject', now: float) -> 'Optional[JsonObject]':
        if is_none(entry):
            base = before
            previous = []
            next_id = 1
        else:
            previous = entry['hunks']
            next_id = entry['next_id']
            if entry['text'] == before:
                base = entry['base']
            else:  # the user (or a writer we do not see) changed the file since: those edits become the base's
                lines = rebase(split_lines(_or_empty(entry['base'])), split_lines(_or_empty(entry['text'])),
                               previous, split_lines(_or_empty(before)))
                base = None if is_none(entry['base']) and is_none(before) else join_lines(lines)
        ided = assign_ids(diff_texts(base, after), previous, next_id, {'author': author, 'time': now,
                                                                      'sequence': self._next_sequence()})
        if len(ided['hunks']) == 0:
            self._forget(path)
            return None
        made = {'path': path, 'uri': _uri_text(path), 'base': base, 'text': after, 'hunks': ided['hunks'],
                'next_id': ided['next_id'], 'too_large': False}
        _carry_links(entry, made)
        self._put(path, made)
        return made

    def record_rename(self, old_path: Any, new_path: Any, before: 'Optional[str]', after: 'Optional[str]',
                      author: Any) -> 'Optional[JsonObject]':
        """Record that `author` moved a file from `old_path` to `new_path` (`before`: its text there, `after`: its
        text at the new path). Recorded as the old file deleted and the new one created, linked ('renamed_to' /
        'renamed_from' in `pending()`): keeping or undoing either one keeps or undoes the move (undo puts the old
        file back and removes the new one). Returns the new path's entry."""
        old_path = _path_of(old_path)
        new_path = _path_of(new_path)
        deleted = self.record(old_path, before, None, author)
        created = self.record(new_path, None, after, author)
        if not is_none(deleted) and not is_none(created) and not is_none(self.entry(old_path)):
            self._known(old_path)['renamed_to'] = new_path
            created['renamed_from'] = old_path
            self._changed([old_path, new_path])
        return created

    def _large_entry(self, path: str, entry: 'Optional[JsonObject]', author: 'JsonObject', now: float) -> 'JsonObject':
        made = {'path': path, 'uri': _uri_text(path), 'base': '', 'text': '', 'too_large': True,
                'next_id': 2, 'hunks': [{'id': 'h1', 'start': 0, 'base_start': 0, 'before': [], 'after': [],
                                         'author': author, 'time': now, 'sequence': self._next_sequence()}]}
        self._put(path, made)
        return made

    def _put(self, path: str, entry: 'JsonObject') -> None:
        key = ' ' + path
        if key not in self._entries:
            self._order.append(path)
        self._entries[key] = entry
        self._bound()

    def _forget(self, path: str) -> None:
        key = ' ' + path
        if key in self._entries:
            self._entries.pop(key)
            self._order = [item for item in self._order if item != path]

    def _bound(self) -> None:
        total = 0
        for path in self._order:
            total = total + _size(self._known(path))
        while total > MAX_STORED_CHARS and len(self._order) > 1:
            oldest = self._order[0]
            total = total - _size(self._known(oldest))
            self._forget(oldest)
            self.dropped = self.dropped + 1
            self._tell('Changes: the change log is full (' + str(MAX_STORED_CHARS) + ' characters); the oldest '
                       'pending changes (' + oldest + ') were dropped from it and stay in the file as if kept.')

    # -------------------------------------------------------------------------------- what agents read

    def _next_sequence(self) -> int:
        self._sequence = self._sequence + 1
        return self._sequence

    def note_read(self, client: str, path: Any) -> None:
        """`client` read the whole current text of `path` (file_read, editor_get_content): its next edit of a
        pending hunk is allowed."""
        self._reads[client + '\n' + _path_of(path)] = self._next_sequence()

    def edit_refusal(self, author: Any, path: Any, line_ranges: 'Optional[List[List[int]]]') -> 'Optional[str]':
        """Why `author` may not write these lines of `path` now, or None. A pending hunk recorded by another
        client that the edit touches must first be re-read: a file_read / editor_get_content of the file by
        the same client after the hunk was recorded (the user may be reviewing it, and the agent has not seen
        it). `line_ranges`: [[first, last]] 0-based lines of the file's current text, None for the whole file."""
        author = author_of(author)
        path = _path_of(path)
        entry = self.entry(path)
        if is_none(entry):
            return None
        read_key = author['client'] + '\n' + path
        read_at = self._reads[read_key] if read_key in self._reads else -1
        for hunk in entry['hunks']:
            if hunk['author']['client'] == author['client'] or get_key(hunk, 'sequence', 0) < read_at:
                continue
            if is_none(line_ranges) or _overlaps(hunk, line_ranges):
                return ('Refused: lines ' + str(hunk['start'] + 1) + '-' + str(hunk['start'] + max(1, len(hunk['after']))) +
                        ' of this file hold a change by ' + hunk['author']['client'] + ' that the user has not kept or '
                        'undone yet. Read the file again (file_read or editor_get_content) to see its current text, '
                        'then make your edit.')
        return None

    # ------------------------------------------------------------------------------- keeping, undoing

    def keep(self, path: Any, hunk_id: 'Optional[str]' = None) -> 'List[str]':
        """Accept one hunk (or every hunk of the file): it stays in the file and leaves the log. Returns the ids
        kept ([] when there was nothing to keep)."""
        path = _path_of(path)
        entry = self.entry(path)
        if is_none(entry):
            return []
        chosen = [hunk for hunk in entry['hunks'] if is_none(hunk_id) or hunk['id'] == hunk_id]
        if len(chosen) == 0:
            return []
        self._keep_hunks(path, entry, chosen, 'kept')
        self._changed([path])
        return [hunk['id'] for hunk in chosen]

    def _keep_hunks(self, path: str, entry: 'JsonObject', chosen: 'List[Hunk]', action: str) -> None:
        self._remember(path, action, chosen)
        if len(chosen) == len(entry['hunks']) or entry['too_large']:
            self._forget(path)
            partner = _partner_of(entry)
            if not is_none(partner) and not is_none(self.entry(partner)):  # a move is kept as a whole
                self._remember(partner, action, self._known(partner)['hunks'])
                self._forget(partner)
            return
        lines = split_lines(_or_empty(entry['base']))
        ordered = sorted(chosen, key=lambda hunk: -hunk['base_start'])  # bottom-up: earlier starts stay valid
        for hunk in ordered:
            lines = keep_in_base(lines, hunk)
        base = join_lines(lines)
        kept_ids = [hunk['id'] for hunk in chosen]
        left = [hunk for hunk in entry['hunks'] if hunk['id'] not in kept_ids]
        self._rediff(path, entry, base, entry['text'], left)

    def _rediff(self, path: str, entry: 'JsonObject', base: 'Optional[str]', text: 'Optional[str]',
                previous: 'List[Hunk]') -> None:
        ided = assign_ids(diff_texts(base, text), previous, entry['next_id'], {'author': author_of(None),
                                                                               'time': self._clock()})
        if len(ided['hunks']) == 0:
            self._forget(path)
            return
        made = {'path': path, 'uri': entry['uri'], 'base': base, 'text': text, 'hunks': ided['hunks'],
                'next_id': ided['next_id'], 'too_large': False}
        _carry_links(entry, made)
        self._entries[' ' + path] = made

    async def write_confined(self, path: str, text: 'Optional[str]') -> None:
        """Every write of the log goes through here: the path is confined again at this moment, not only when it was
        recorded or loaded — a folder on the way may have become a link to elsewhere since (an agent's shell, a
        checkout), and Undo of a recorded deletion would then create the file wherever the link points."""
        if not self._confined(path):
            raise ValueError('Hermes did not write ' + display_path(path) + ': it now leads outside the workspace '
                             '(a folder on its way became a link since the change was recorded). Nothing was changed.')
        await self._files.write(path, text)

    async def undo(self, path: Any, hunk_id: 'Optional[str]' = None, force: bool = False) -> 'List[str]':
        """Undo one hunk (or every hunk of the file): its before-text goes back into the file through the
        editor (Ctrl+Z takes the undo back), wherever the user's edits elsewhere moved it. Raises ChangeConflict
        (nothing written) when the user edited one of these hunks since, unless `force`; a ValueError for a
        file recorded too large to undo. Returns the ids undone."""
        path = _path_of(path)
        entry = self.entry(path)
        if is_none(entry):
            return []
        chosen = [hunk for hunk in entry['hunks'] if is_none(hunk_id) or hunk['id'] == hunk_id]
        if len(chosen) == 0:
            return []
        if entry['too_large']:
            raise ValueError('This file was too large for the change log (over ' + str(MAX_FILE_CHARS) +
                             ' characters); undo it with Edit > Undo in its editor, or git.')
        current = await self._files.read(path)
        whole = len(chosen) == len(entry['hunks'])
        if whole and (is_none(entry['base']) or is_none(entry['text'])):
            # created or deleted: the file itself goes or comes back
            if current != entry['text'] and not force:
                raise ChangeConflict(path, [hunk['id'] for hunk in chosen])
            partner = _partner_of(entry)
            partner_entry = None if is_none(partner) else self.entry(partner)
            if not is_none(partner) and not is_none(partner_entry):  # a move: both ends go back, or neither
                partner_now = await self._files.read(partner)
                if partner_now != partner_entry['text'] and not force:
                    raise ChangeConflict(partner, [hunk['id'] for hunk in partner_entry['hunks']])
            await self.write_confined(path, entry['base'])
            self._remember(path, 'undone', chosen)
            self._forget(path)
            touched = [path]
            if not is_none(partner) and not is_none(partner_entry):
                await self.write_confined(partner, partner_entry['base'])
                self._remember(partner, 'undone', partner_entry['hunks'])
                self._forget(partner)
                touched.append(partner)
            self._changed(touched)
            return [hunk['id'] for hunk in chosen]
        text_lines = split_lines(_or_empty(entry['text']))
        result = undo_lines(text_lines, split_lines(_or_empty(current)), chosen, force)
        if len(result['conflicts']) > 0 and not force:
            raise ChangeConflict(path, result['conflicts'])
        if len(result['undone']) == 0:
            return []
        await self.write_confined(path, join_lines(result['lines']))
        self._remember(path, 'undone', [hunk for hunk in chosen if hunk['id'] in result['undone']])
        entry = self.entry(path)  # the write may have been recorded meanwhile
        if is_none(entry):
            self._changed([path])
            return result['undone']
        undone = [hunk for hunk in entry['hunks'] if hunk['id'] in result['undone']]
        text = split_lines(_or_empty(entry['text']))
        for hunk in sorted(undone, key=lambda hunk: -hunk['start']):
            text = revert_in_text(text, hunk)
        left = [hunk for hunk in entry['hunks'] if hunk['id'] not in result['undone']]
        new_text = join_lines(text)  # type: Optional[str]
        if is_none(entry['text']) and new_text == '':
            new_text = None
        self._rediff(path, entry, entry['base'], new_text, left)
        self._changed([path])
        return result['undone']

    def keep_all(self, wanted: 'Optional[JsonObject]' = None, action: str = 'kept') -> int:
        """Keep every pending hunk whose author fits `wanted` ({'client'?, 'session'?, 'turn'?}); returns
        the number of hunks kept."""
        return self._keep_where(lambda hunk: matches(hunk['author'], wanted), action)

    def _keep_where(self, chosen_if: 'Callable[[Hunk], bool]', action: str) -> int:
        """Keep every pending hunk `chosen_if(hunk)` accepts; the number kept."""
        kept = 0
        touched = []  # type: List[str]
        for path in self._order[:]:
            found = self._chosen(path, chosen_if)
            if not is_none(found):
                self._keep_hunks(path, found['entry'], found['hunks'], action)
                kept = kept + len(found['hunks'])
                touched.append(path)
        if len(touched) > 0:
            self._changed(touched)
        return kept

    def _chosen(self, path: str, chosen_if: 'Callable[[Hunk], bool]') -> 'Optional[JsonObject]':
        """{'entry', 'hunks': those of its hunks `chosen_if(hunk)` accepts}, or None: no entry (any more: kept or
        undone with the other end of its move) or no such hunk. Asked file by file, as keeping or undoing one file
        may change another's entry."""
        entry = self.entry(path)
        if is_none(entry):
            return None
        chosen = [hunk for hunk in entry['hunks'] if chosen_if(hunk)]
        return None if len(chosen) == 0 else {'entry': entry, 'hunks': chosen}

    async def undo_all(self, wanted: 'Optional[JsonObject]' = None, force: bool = False) -> 'JsonObject':
        """Undo every pending hunk whose author fits `wanted`, file by file. Returns {'undone': count,
        'conflicts': [{'path', 'hunk_ids'}]} — files with a conflict are left as they are (ask, then call again
        with force, or undo them one by one)."""
        undone = 0
        conflicts = []  # type: List[JsonObject]
        for path in self._order[:]:
            found = self._chosen(path, lambda hunk: matches(hunk['author'], wanted))
            if is_none(found):
                continue
            entry = found['entry']
            chosen = found['hunks']
            try:
                if len(chosen) == len(entry['hunks']):
                    undone = undone + len(await self.undo(path, None, force))
                else:
                    for hunk in chosen:
                        undone = undone + len(await self.undo(path, hunk['id'], force))
            except ChangeConflict as conflict:
                conflicts.append({'path': path, 'hunk_ids': conflict.hunk_ids})
        return {'undone': undone, 'conflicts': conflicts}

    async def sync(self, path: Any) -> 'Optional[JsonObject]':
        """Bring the entry up to the file's current text (the user edited it): edits outside pending hunks
        become part of the base; returns the entry. Views call it before decorating a changed document."""
        path = _path_of(path)
        entry = self.entry(path)
        if is_none(entry) or entry['too_large'] or self._held_until(path) > self._clock():
            return entry
        current = await self._files.read(path)
        if current == entry['text']:
            return entry
        lines = rebase(split_lines(_or_empty(entry['base'])), split_lines(_or_empty(entry['text'])),
                       entry['hunks'], split_lines(_or_empty(current)))
        base = None if is_none(entry['base']) and is_none(current) else join_lines(lines)
        self._rediff(path, entry, base, current, entry['hunks'])
        self._changed([path])
        return self.entry(path)

    def hold_sync(self, path: str, ms: float) -> None:
        """For `ms`, the file's text passing through other states is not the user's edit (a review hands the file
        to the CLI that proposed it: the disk goes back to the text the CLI read, then the CLI writes the answer):
        `sync` leaves the entry as it is meanwhile."""
        self._held['k:' + path] = self._clock() + ms

    def _held_until(self, path: str) -> float:
        key = 'k:' + path
        return self._held[key] if key in self._held else 0

    # -------------------------------------------------------------------------------------- autoKeep

    def start_turn(self, author: Any) -> None:
        """A front end starts a new turn for this client and session: with `hermes.changes.autoKeep` set to
        'nextTurn', the pending changes of their earlier turns are kept."""
        self._auto_keep_for(author_of(author))

    def _auto_keep_for(self, author: 'ChangeAuthor') -> None:
        if self._setting('changes.autoKeep') != AUTO_KEEP_NEXT_TURN or is_none(author['turn']):
            return
        earlier = []  # type: List[str]
        for path in self._order:
            for hunk in self._known(path)['hunks']:
                other = hunk['author']
                if other['client'] == author['client'] and other['session'] == author['session'] and \
                        other['turn'] != author['turn'] and not is_none(other['turn']):
                    if other['turn'] not in earlier:
                        earlier.append(other['turn'])
        for turn in earlier:
            self.keep_all({'client': author['client'], 'session': author['session'], 'turn': turn}, 'auto-kept')

    def keep_expired(self) -> int:
        """With `hermes.changes.autoKeep` 'afterDelay': keep every hunk older than
        `hermes.changes.autoKeepSeconds`. Returns the number kept (the log calls it on a timer)."""
        if self._setting('changes.autoKeep') != AUTO_KEEP_AFTER_DELAY:
            return 0
        limit = self._clock() - self._setting('changes.autoKeepSeconds') * 1000
        return self._keep_where(lambda hunk: hunk['time'] <= limit, 'auto-kept')

    def _schedule_auto_keep(self) -> None:
        if not is_none(self._keep_timer) or self._setting('changes.autoKeep') != AUTO_KEEP_AFTER_DELAY:
            return
        if len(self._order) == 0:
            return

        def fire() -> None:
            self._keep_timer = None
            self.keep_expired()
            self._schedule_auto_keep()
        self._keep_timer = self._timers.after(fire, max(1000, self._setting('changes.autoKeepSeconds') * 1000))

    # ----------------------------------------------------------------------------------- persistence

    def _restore(self) -> None:
        if is_none(self._store):
            return
        data = self._store.load()
        if is_none(data):
            return
        self._journal_seq = get_key(data, 'journal_seq', 0)
        outside = False
        history = get_key(data, 'history')
        if json_type(history) == 'array':
            self._history = [item for item in history if json_type(get_key(item, 'path')) == 'string' and
                             self._confined(item['path'])]
            while len(self._history) > MAX_HISTORY:
                self._history.pop(0)
        for stored in data['files']:
            for hunk in stored['hunks']:  # reads after a reload must count as later than every stored hunk
                self._sequence = max(self._sequence, get_key(hunk, 'sequence', 0))
            path = stored['path']
            if not self._confined(path):  # the workspace's folders changed since: never keep such texts
                outside = True
                continue
            self._entries[' ' + path] = stored
            if path not in self._order:
                self._order.append(path)
        if outside:
            self._snapshot()  # the stored copy of those texts goes at once

    def to_data(self) -> 'JsonObject':
        return {'format': FORMAT, 'files': [self.entry(path) for path in self._order], 'history': self._history,
                'journal_seq': self._journal_seq}

    def _journal(self, paths: 'List[str]') -> None:
        """The store's journal gets this change before anyone hears of it (host/change_store.py): the entries of
        `paths` (those still in the log), the files in order, the decisions since the last line."""
        if is_none(self._store):  # (the log calls it only with a store)
            return
        self._journal_seq = self._journal_seq + 1
        files = []  # type: List[JsonObject]
        for path in paths:
            entry = self.entry(path)
            if not is_none(entry):
                files.append(entry)
        if self._store.failing:  # a line was lost: only the whole log is whole again
            self._snapshot()
        elif self._store.append({'seq': self._journal_seq, 'order': self._order, 'files': files,
                                 'history': self._unjournaled}):
            self._unjournaled = []

    def _snapshot(self) -> None:
        if is_none(self._store):
            return
        if self._store.save_now(self.to_data()):
            self._unjournaled = []  # in the snapshot now

    def flush(self) -> None:
        """Save now (deactivate, tests)."""
        self._saver.cancel()
        if not is_none(self._store):
            self._snapshot()

    def dispose(self) -> None:
        self.flush()
        if not is_none(self._keep_timer):
            self._timers.cancel(self._keep_timer)
            self._keep_timer = None
        if not is_none(self._announcer):
            self._announcer.cancel()
        self._listeners = []

    def _changed(self, paths: 'List[str]') -> None:
        if not is_none(self._store):
            self._journal(paths)  # before anyone hears of it: this line is what survives a kill
            self._saver.poke()
        self._schedule_auto_keep()
        for path in paths:
            if path not in self._unannounced:
                self._unannounced.append(path)
        if is_none(self._announcer):
            self.announce_now()
        else:
            self._announcer.poke()

    def announce_now(self) -> None:
        """Tell the listeners now of the changes they have not heard of (their paths, each once); the announcer's
        timer calls it, tests may too."""
        if not is_none(self._announcer):
            self._announcer.cancel()
        paths = self._unannounced
        self._unannounced = []
        if len(paths) == 0:
            return
        for listener in self._listeners[:]:
            try:
                listener(paths)
            except JsError:
                pass

    def _setting(self, key: str) -> Any:
        if is_none(self._settings):
            return None
        return self._settings(key)

    def _tell(self, text: str) -> None:
        if not is_none(self._report):
            self._report(text)


def author_is_external(author: Any) -> bool:
    return get_key(author, 'external') is True


def _carry_links(entry: 'Optional[JsonObject]', made: 'JsonObject') -> None:
    """A move's links survive every rewrite of the entry."""
    if is_none(entry):
        return
    for link in LINKS:
        if has_key(entry, link):
            made[link] = entry[link]


def _partner_of(entry: 'JsonObject') -> 'Optional[str]':
    """The other end of a move, or None."""
    for link in LINKS:
        if has_key(entry, link):
            return entry[link]
    return None


def _by_author(hunks: 'List[Hunk]') -> 'List[List[Hunk]]':
    """`hunks` grouped by author, in order of first appearance."""
    groups = []  # type: List[List[Hunk]]
    for hunk in hunks:
        found = None
        for group in groups:
            if _same_author(group[0]['author'], hunk['author']):
                found = group
        if is_none(found):
            groups.append([hunk])
        else:
            found.append(hunk)
    return groups


def _same_author(one: 'JsonObject', other: 'JsonObject') -> bool:
    return one['client'] == other['client'] and one['session'] == other['session'] and one['turn'] == other['turn']


def _overlaps(hunk: 'Hunk', line_ranges: 'List[List[int]]') -> bool:
    start = hunk['start']
    end = start + max(1, len(hunk['after']))  # a deletion still guards the line where it happened
    for pair in line_ranges:
        if pair[0] < end and start <= pair[1]:
            return True
    return False


def _too_large(text: 'Optional[str]') -> bool:
    return not is_none(text) and len(text) > MAX_FILE_CHARS


def _or_empty(text: 'Optional[str]') -> str:
    return '' if is_none(text) else text


def _size(entry: 'JsonObject') -> int:
    return len(_or_empty(entry['base'])) + len(_or_empty(entry['text']))


def _path_of(path_or_uri: 'Any') -> str:
    """A file URI (a vscode.Uri or its text) as its path; a path as it is."""
    if json_type(path_or_uri) == 'string':
        if path_or_uri.startswith('file:'):
            return vscode.Uri.parse(path_or_uri).fsPath
        return path_or_uri
    return path_or_uri.fsPath


def _uri_text(path: str) -> str:
    return vscode.Uri.file(path).toString()


# ------------------------------------------------------------------------ the write path's one hook

def change_log_of(call: 'Optional[CallContext]') -> 'Optional[Any]':
    """The change log a tool call records into (None: no call, or a registry built without one)."""
    if is_none(call):
        return None
    return call.services.change_log_or_none


def check_write(call: 'Optional[CallContext]', path: str, line_ranges: 'Optional[List[List[int]]]') -> None:
    """Raise the ToolError the agent reads when its write would touch a pending hunk it has not re-read
    (ChangeLog.edit_refusal); nothing to check without a change log."""
    log = change_log_of(call)
    if is_none(call) or is_none(log):
        return
    refusal = log.edit_refusal(call.author, path, line_ranges)
    if not is_none(refusal):
        raise ToolError(refusal)


def note_write(call: 'Optional[CallContext]', path: str, before: 'Optional[str]', after: 'Optional[str]') -> None:
    """Record a write the call made (the host's write functions call it after writing)."""
    log = change_log_of(call)
    if not is_none(call) and not is_none(log):
        log.record(path, before, after, call.author)

