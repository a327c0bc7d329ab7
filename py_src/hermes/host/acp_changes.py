"""Files an ACP agent changes by itself during a turn. Hermes Agent 0.19.0 writes the disk directly (it
never asks us through fs/write_text_file), so a turn watches the workspace: every file created, changed or
deleted while the turn runs is one of its changed files, together with the files its edit/delete/move tool
calls and diffs named (core/acp_turn.py `changed`).

For the change log (host/change_log.py: keep or undo hunk by hunk, restore to before a turn) a file needs its
text from before the turn: the agent's permission diff carries it (`oldText`), else the file is read the moment
a tool call names it (Hermes announces a call before it runs it), and a file the watcher sees created had none.
A file changed by other means (a shell command) without any of these is listed but not recorded: its before-text
is unknown.
"""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError, to_js_callback
from hermes.js.modules import node, vscode
from hermes.js.objects import is_none

IGNORED_PARTS = ['/.git/', '/node_modules/', '/__pycache__/']
MAX_SNAPSHOT_BYTES = 1000000  # larger files are listed, not recorded (the change log keeps texts up to ~1 MB)


def read_text_or_none(path):
    """The file's text, None when it does not exist; raises for a file too large or unreadable."""
    fs = node('fs')
    if not fs.existsSync(path):
        return None
    if fs.statSync(path).size > MAX_SNAPSHOT_BYTES:
        raise ValueError('too large')
    return fs.readFileSync(path, 'utf8')


class TurnFileWatch:
    """Created at a turn's start, `end()` at its end. `note(path, before?)` as soon as the agent names a file it
    will change; `record(change_log, author)` hands what is known to the change log."""

    def __init__(self, log=None, read=None):
        self.log = log
        self.read = read_text_or_none if is_none(read) else read
        self.paths = []
        self.before = {}  # 'k:' + path → the text before the turn (None: the file did not exist)
        self.watcher = None
        self.subscriptions = []
        try:
            self.watcher = vscode.workspace.createFileSystemWatcher('**/*')
        except JsError as error:
            if not is_none(log):
                log.warn('ACP: cannot watch the workspace for changed files: ' + error_message(error))
            return
        self.subscriptions = [self.watcher.onDidCreate(to_js_callback(self._created)),
                              self.watcher.onDidChange(to_js_callback(self._seen)),
                              self.watcher.onDidDelete(to_js_callback(self._seen))]

    def note(self, path, before=None, known=False):
        """The agent named `path` as a file it changes: remember its text now (or `before`, when `known`)."""
        key = 'k:' + path
        if key in self.before:
            return
        if known:
            self.before[key] = before
            return
        try:
            self.before[key] = self.read(path)
        except JsError:
            return  # unreadable or too large: listed, not recorded

    def _created(self, uri):
        path = self._path(uri)
        if not is_none(path) and not (('k:' + path) in self.before):
            self.before['k:' + path] = None

    def _seen(self, uri):
        self._path(uri)

    def _path(self, uri):
        if uri.scheme != 'file':
            return None
        path = uri.fsPath
        for part in IGNORED_PARTS:
            if part in path:
                return None
        if not (path in self.paths):
            self.paths.append(path)
        return path

    def end(self, named=None):
        """Stop watching; the changed paths (those seen, then those the agent named)."""
        if not is_none(self.watcher):
            for subscription in self.subscriptions:
                subscription.dispose()
            self.watcher.dispose()
            self.watcher = None
        paths = self.paths[:]
        for path in named or []:
            if not (path in paths):
                paths.append(path)
        return paths

    def record(self, change_log, paths, author):
        """Each changed file whose before-text is known goes to the change log as `author`'s; returns how many."""
        if is_none(change_log):
            return 0
        count = 0
        for path in paths:
            key = 'k:' + path
            if not (key in self.before):
                continue
            try:
                after = self.read(path)
                if not is_none(change_log.record(path, self.before[key], after, author)):
                    count += 1
            except JsError as error:
                if not is_none(self.log):
                    self.log.warn('ACP: could not record the change of ' + path + ': ' + error_message(error))
        return count
