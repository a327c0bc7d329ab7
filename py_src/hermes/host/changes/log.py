"""The change log: every write an agent makes through Hermes, per file, as hunks the user can keep or undo
(the model: core/changes/model.py, its hunks: core/changes/hunks.py; this module is its host: it reads and writes the files,
makes their URIs, confines their real paths, keeps the log in the store and tells the listeners). The one source of
truth the editor's marks, the Changes view, sessions' changed files, the `changes_list` tool and the
`hermes://changes` resource read.

A file's entry: `base` (the text before the pending changes; None: the agent created the file), `text` (the text
the agent left; None: it deleted the file) and the pending `hunks`, each with its author ({'client', 'session',
'turn'}) and time. Keeping a hunk moves it into the base; undoing it writes its before-text back through the editor
(host/changes/files.py) wherever the user's later edits moved it, and asks first (a conflict) when the user edited
the hunk itself.

Bounds, and what happens beyond them:
- a file whose before or after text is longer than MAX_FILE_CHARS is recorded without its texts ('too_large': the
  Changes view lists it, Keep drops it, Undo is refused: VS Code's own Undo or git restore it);
- all entries together hold at most MAX_STORED_CHARS characters of text: past it the files changed longest ago
  are dropped from the log (their changes stay on disk as if kept), and the report says how many;
- files outside the workspace folders (by their real path, whatever `hermes.tools.allowOutsideWorkspace` says)
  are never recorded: the log is stored in the workspace's storage and must not copy other files' contents there.

Stored by host/changes/store.py: each change goes to its journal before anyone hears of it (so a change a tool
reported, or a view showed, survives the extension host being killed), the whole log once changes pause
(SNAPSHOT_QUIET_MS) and on dispose. Listeners hear of changes after the journal, coalesced (ANNOUNCE_QUIET_MS).
"""
# __pragma__('tconv')
from hermes.js.clock import now_ms
from hermes.js.errors import JsError
from hermes.js.modules import vscode
from hermes.js.timers import set_timer, clear_timer
from hermes.core.tools import ToolError
from hermes.core.values import json_type
from hermes.core.changes.report import agent_view
from hermes.core.changes.authors import author_of
from hermes.core.changes.notes import ChangeNotes
# (ChangeConflict and MAX_FILE_CHARS are named here for the modules and tests that import them from the log)
from hermes.core.changes.model import (ChangeModel, ChangeConflict, MAX_FILE_CHARS, LINKS, matches, author_is_external,
                                      too_large, summary_of)
from hermes.core.changes.edit_scopes import EditScopes
from hermes.core.settings_spec import default_of
from hermes.host.paths import folder_paths, is_inside, real_path, real_folder, display_path
from hermes.host.changes.announcer import ChangeAnnouncer, Subscription
from hermes.host.changes.journal import ChangeJournal
from hermes.host.changes.auto_keep import AutoKeep
from hermes.host.changes.undoing import ChangeUndo, the_hunk_or_all
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional
from hermes.contracts.json import JsonObject
from hermes.contracts.services import CallContext
from hermes.contracts.loop import ChangeAuthor
from hermes.contracts.changes import ChangeDecision, ChangeEntry, ChangeHunk, ChangeLogData
from hermes.contracts.settings import SettingReader
if TYPE_CHECKING:
    from hermes.host.changes.files import EditorFiles  # (it imports this module)
    from hermes.host.changes.store import ChangeStore
# __pragma__('noskip')

# What the window's listeners (the editor's marks, the Changes view, the status bar, sessions' changed files, the
# panel, hermes://changes) hear: a burst of changes once, with every path it touched, when the changes pause for
# ANNOUNCE_QUIET_MS — and at least every ANNOUNCE_LONGEST_MS while an agent keeps writing. Drawing is VS Code's work in
# the workbench, and an agent's next write waits behind it: pushed after each change it made writes 15-50 ms slower
# in code-server (docs/CHANGES.md).
ANNOUNCE_QUIET_MS = 200


class _SeamTimers:
    """Timers as the log uses them (tests hand it a fake that fires when they say)."""

    def after(self, callback: 'Callable[[], None]', delay_ms: float) -> Any:
        return set_timer(callback, delay_ms)

    def cancel(self, handle: Any) -> None:
        clear_timer(handle)


SEAM_TIMERS = _SeamTimers()


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
    """See the module's docstring. `files` reads and writes the files (host/changes/files.py EditorFiles),
    `store` keeps the log (host/changes/store.py ChangeStore), `settings(key)` reads `hermes.changes.*` (their defaults without one),
    `report(text)` tells the user about storage problems. `announce_quiet_ms`: None tells listeners of each change at
    once (tests, tools that build a log of their own); the window's log passes ANNOUNCE_QUIET_MS (`on_change`).
    What the entries become is the model's (core/changes/model.py ChangeModel): this class brings it paths, URIs, times
    and the files' texts, writes what it decides (the undo path: host/changes/undoing.py), and stores
    (host/changes/journal.py) and announces (host/changes/announcer.py) the result; autoKeep: host/changes/auto_keep.py."""

    def __init__(self, files: 'EditorFiles', store: 'Optional[ChangeStore]' = None,
                 settings: 'Optional[SettingReader]' = None, report: 'Optional[Callable[[str], Any]]' = None,
                 clock: 'Optional[Callable[[], float]]' = None, confined: 'Optional[Callable[[str], bool]]' = None,
                 timers: Any = None, announce_quiet_ms: 'Optional[float]' = None) -> None:
        self._files = files
        self._settings = default_of if settings is None else settings  # type: SettingReader
        self._report = report
        self._clock = now_ms if clock is None else clock  # type: Callable[[], float]
        self._confined = in_workspace_strictly if confined is None else confined  # type: Callable[[str], bool]
        self._timers = SEAM_TIMERS if timers is None else timers  # type: Any
        self._model = ChangeModel()
        self._journal = ChangeJournal(store, self._model, self._timers, self._clock)
        self._announcer = ChangeAnnouncer(self._timers, self._clock, announce_quiet_ms)
        self._auto_keep = AutoKeep(self._model, self._settings, self._timers, self._clock, self._keep_where)
        self._undo = ChangeUndo(files, self._model, self._confined, self._clock, self._changed)
        # 'k:' + path → until when `sync` leaves the file's entry alone (hold_sync)
        self._held = {}  # type: Dict[str, float]
        # turns whose writes VS Code's chat editing session tracks too (core/changes/edit_scopes.py, ui/changes/native_edits.py)
        self.edit_scopes = EditScopes()
        self.notes = ChangeNotes()  # changes seen but not under review exactly (the Changes view shows them)
        self._journal.restore(self._confined)

    @property
    def dropped(self) -> int:
        """Files dropped to stay within MAX_STORED_CHARS since the log started."""
        return self._model.dropped

    # ------------------------------------------------------------------------------------------ reading

    def entry(self, path: str) -> 'Optional[ChangeEntry]':
        """The stored entry of `path` (a dict; do not change it), or None."""
        return self._model.entry(path)

    def paths(self) -> 'List[str]':
        """The files with pending changes, oldest change first."""
        return self._model.order[:]

    def pending(self, wanted: 'Optional[JsonObject]' = None) -> 'List[JsonObject]':
        """Pending changes, one item per file and author (client, session, turn), files in the order they were
        first changed: [{'path', 'uri', 'author', 'client', 'session', 'turn', 'time', 'added', 'removed',
        'hunks': [{'id', 'start', 'base_start', 'before_lines', 'after_lines', 'added', 'removed'}],
        'created'?, 'deleted'?, 'too_large'?}]. `start` is the 0-based line in the file as the agent left it
        (decorate the editor from it; `sync` first if the user may have edited the file since). `wanted`
        filters by author ({'client'?, 'session'?, 'turn'?})."""
        return self._model.pending(wanted)

    def summary(self, wanted: 'Optional[JsonObject]' = None) -> 'JsonObject':
        """{'files', 'hunks', 'added', 'removed'} over the pending changes (for a status bar)."""
        return summary_of(self.pending(wanted))

    def for_agents(self, wanted: 'Optional[JsonObject]' = None, include_lines: bool = True) -> 'JsonObject':
        """The log as agents read it (core/changes/report.py agent_view), paths as the tools show them."""
        return _for_agents(self.pending(wanted), self.history(wanted), include_lines)

    def history(self, wanted: 'Optional[JsonObject]' = None) -> 'List[ChangeDecision]':
        """What became of earlier changes, newest last (at most MAX_HISTORY): [{'path', 'action': 'kept' |
        'undone' | 'auto-kept', 'client', 'session', 'turn' (whose change it was), 'hunks' (how many), 'added',
        'removed', 'time'}], filtered by the changes' author like `pending`."""
        return self._model.history(wanted)

    def on_change(self, listener: 'Callable[[List[str]], Any]') -> 'Subscription':
        """Call `listener(paths)` after changes of the log (paths: the files concerned); returns a disposable. With
        `announce_quiet_ms`, a burst of changes is heard once, when it pauses (so after the tool's reply: a
        listener never slows the write that caused it), with the paths of all of them; the state it reads then is
        the latest. Every change is in the journal before any listener hears of it."""
        return self._announcer.listen(listener)

    # ---------------------------------------------------------------------------------------- recording

    def record(self, path: Any, before: 'Optional[str]', after: 'Optional[str]',
               author: Any) -> 'Optional[ChangeEntry]':
        """Record that `author` changed the file at `path` (an absolute path or a file URI) from `before` to
        `after` (None: the file did not exist / was deleted). Returns the file's entry, or None when nothing is
        recorded: no change, a file outside the workspace, or an external client while
        `hermes.changes.trackExternal` is off. Usable by every writer: MCP tools (the registry's ToolCall
        carries the author), the built-in loop, ACP agents' writes and the files they changed on disk."""
        path = _path_of(path)
        author = author_of(author)
        if before == after or (before is None and after is None):
            return self.entry(path)
        if author_is_external(author) and self._settings('changes.trackExternal') is False:
            return None
        if not self._confined(path):
            return None
        self._auto_keep.for_author(author)
        now = self._clock()
        entry = self.entry(path)
        if too_large(before) or too_large(after) or (entry is not None and entry['too_large']):
            made = self._model.record_large(path, _uri_text(path), author, now)  # type: Optional[ChangeEntry]
        else:
            made = self._model.merge(path, _uri_text(path), before, after, author, now)
        for text in self._model.take_reports():  # files dropped to stay within the bound
            self._tell(text)
        self._changed([path])
        return made

    def record_rename(self, old_path: Any, new_path: Any, before: 'Optional[str]', after: 'Optional[str]',
                      author: Any) -> 'Optional[ChangeEntry]':
        """Record that `author` moved a file from `old_path` to `new_path` (`before`: its text there, `after`: its
        text at the new path). Recorded as the old file deleted and the new one created, linked ('renamed_to' /
        'renamed_from' in `pending()`): keeping or undoing either one keeps or undoes the move (undo puts the old
        file back and removes the new one). Returns the new path's entry."""
        old_path = _path_of(old_path)
        new_path = _path_of(new_path)
        deleted = self.record(old_path, before, None, author)
        created = self.record(new_path, None, after, author)
        if deleted is not None and created is not None and self.entry(old_path) is not None:
            self._model.link_move(old_path, new_path, created)
            self._changed([old_path, new_path])
        return created

    # -------------------------------------------------------------------------------- what agents read

    def note_read(self, client: str, path: Any) -> None:
        """`client` read the whole current text of `path` (file_read, editor_get_content): its next edit of a
        pending hunk is allowed."""
        self._model.note_read(client, _path_of(path))

    def edit_refusal(self, author: Any, path: Any, line_ranges: 'Optional[List[List[int]]]') -> 'Optional[str]':
        """Why `author` may not write these lines of `path` now, or None. A pending hunk recorded by another
        client that the edit touches must first be re-read: a file_read / editor_get_content of the file by
        the same client after the hunk was recorded (the user may be reviewing it, and the agent has not seen
        it). `line_ranges`: [[first, last]] 0-based lines of the file's current text, None for the whole file."""
        return self._model.edit_refusal(author_of(author), _path_of(path), line_ranges)

    # ------------------------------------------------------------------------------- keeping, undoing

    def keep(self, path: Any, hunk_id: 'Optional[str]' = None) -> 'List[str]':
        """Accept one hunk (or every hunk of the file): it stays in the file and leaves the log. Returns the ids
        kept ([] when there was nothing to keep)."""
        path = _path_of(path)
        found = self._model.chosen(path, the_hunk_or_all(hunk_id))
        if found is None:
            return []
        chosen = found['hunks']
        self._model.keep_hunks(path, found['entry'], chosen, 'kept', self._clock())
        self._changed([path])
        return [hunk['id'] for hunk in chosen]

    async def write_confined(self, path: str, text: 'Optional[str]') -> None:
        """Write `text` to `path` (None: remove it) if the path is still inside the workspace now (ChangeUndo)."""
        await self._undo.write_confined(path, text)

    async def undo(self, path: Any, hunk_id: 'Optional[str]' = None, force: bool = False) -> 'List[str]':
        """Undo one hunk (or every hunk of the file): its before-text goes back into the file through the
        editor (Ctrl+Z takes the undo back), wherever the user's edits elsewhere moved it. Raises ChangeConflict
        (nothing written) when the user edited one of these hunks since, unless `force`; a ValueError for a
        file recorded too large to undo. Returns the ids undone."""
        return await self._undo.undo(_path_of(path), hunk_id, force)

    def keep_all(self, wanted: 'Optional[JsonObject]' = None, action: str = 'kept') -> int:
        """Keep every pending hunk whose author fits `wanted` ({'client'?, 'session'?, 'turn'?}); returns
        the number of hunks kept."""
        return self._keep_where(lambda hunk: matches(hunk['author'], wanted), action)

    def _keep_where(self, chosen_if: 'Callable[[ChangeHunk], bool]', action: str) -> int:
        """Keep every pending hunk `chosen_if(hunk)` accepts; the number kept."""
        kept = 0
        touched = []  # type: List[str]
        for path in self._model.order[:]:
            found = self._model.chosen(path, chosen_if)
            if found is not None:
                self._model.keep_hunks(path, found['entry'], found['hunks'], action, self._clock())
                kept = kept + len(found['hunks'])
                touched.append(path)
        if len(touched) > 0:
            self._changed(touched)
        return kept

    async def undo_all(self, wanted: 'Optional[JsonObject]' = None, force: bool = False) -> 'JsonObject':
        """Undo every pending hunk whose author fits `wanted`, file by file. Returns {'undone': count,
        'conflicts': [{'path', 'hunk_ids'}]} — files with a conflict are left as they are (ask, then call again
        with force, or undo them one by one)."""
        return await self._undo.undo_all(wanted, force)

    async def sync(self, path: Any) -> 'Optional[ChangeEntry]':
        """Bring the entry up to the file's current text (the user edited it): edits outside pending hunks
        become part of the base; returns the entry. Views call it before decorating a changed document."""
        path = _path_of(path)
        entry = self.entry(path)
        if entry is None or entry['too_large'] or self._held_until(path) > self._clock():
            return entry
        current = await self._files.read(path)
        if current == entry['text']:
            return entry
        self._model.synced(path, entry, current, self._clock())
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
        self._auto_keep.for_author(author_of(author))

    def keep_expired(self) -> int:
        """With `hermes.changes.autoKeep` 'afterDelay': keep every hunk older than
        `hermes.changes.autoKeepSeconds`. Returns the number kept (the log calls it on a timer)."""
        return self._auto_keep.keep_expired()

    # ----------------------------------------------------------------------------------- persistence

    def to_data(self) -> 'ChangeLogData':
        return self._journal.to_data()

    def flush(self) -> None:
        """Save now (deactivate, tests)."""
        self._journal.flush()

    def dispose(self) -> None:
        self.flush()
        self._auto_keep.dispose()
        self._announcer.dispose()

    def _changed(self, paths: 'List[str]') -> None:
        self._journal.changed(paths)  # before anyone hears of it: this line is what survives a kill
        self._auto_keep.schedule()
        self._announcer.changed(paths)

    def announce_now(self) -> None:
        """Tell the listeners now of the changes they have not heard of (their paths, each once); the announcer's
        timer calls it, tests may too."""
        self._announcer.announce_now()

    def _tell(self, text: str) -> None:
        if self._report is not None:
            self._report(text)


def _for_agents(pending: 'List[JsonObject]', decisions: 'List[ChangeDecision]', include_lines: bool) -> 'JsonObject':
    """agent_view of `pending` and `decisions`, their paths as the tools show them (`pending`'s items are changed)."""
    for item in pending:
        item['path'] = display_path(item['path'])
        for link in LINKS:
            if link in item:
                item[link] = display_path(item[link])
    history = []  # type: List[JsonObject]
    for decision in decisions:
        shown = _copy(decision)
        shown['path'] = display_path(decision['path'])
        history.append(shown)
    return agent_view(pending, history, include_lines)


def _copy(item: 'Any') -> 'JsonObject':
    copied = {}  # type: JsonObject
    for key in item.keys():
        copied[key] = item[key]
    return copied


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
    if call is None:
        return None
    return call.services.change_log_or_none


def check_write(call: 'Optional[CallContext]', path: str, line_ranges: 'Optional[List[List[int]]]') -> None:
    """Raise the ToolError the agent reads when its write would touch a pending hunk it has not re-read
    (ChangeLog.edit_refusal); nothing to check without a change log."""
    log = change_log_of(call)
    if call is None or log is None:
        return
    refusal = log.edit_refusal(call.author, path, line_ranges)
    if refusal is not None:
        raise ToolError(refusal)


def note_write(call: 'Optional[CallContext]', path: str, before: 'Optional[str]', after: 'Optional[str]') -> None:
    """Record a write the call made (the host's write functions call it after writing)."""
    log = change_log_of(call)
    if call is not None and log is not None:
        log.record(path, before, after, call.author)

