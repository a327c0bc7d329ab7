"""Files an ACP agent changes by itself during a turn. Hermes Agent 0.19.0 writes the disk directly (it
never asks us through fs/write_text_file), so a turn watches the workspace: every file created, changed
or deleted while the turn runs is one of its changed files, together with the files its edit/delete/move
tool calls and diffs named (core/acp_turn.py `changed`). What it finds goes to the session item's changed
files and to `record(paths, who)`, the one seam to the change log (host/change_log.py, when present).
"""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError, to_js_callback
from hermes.js.modules import vscode
from hermes.js.objects import is_none

IGNORED_PARTS = ['/.git/', '/node_modules/', '/__pycache__/']


class TurnFileWatch:
    """Created at a turn's start, `end()` at its end: the absolute paths changed in between."""

    def __init__(self, log=None):
        self.log = log
        self.paths = []
        self.watcher = None
        try:
            self.watcher = vscode.workspace.createFileSystemWatcher('**/*')
        except JsError as error:
            if not is_none(log):
                log.warn('ACP: cannot watch the workspace for changed files: ' + error_message(error))
            return
        self.subscriptions = [self.watcher.onDidCreate(to_js_callback(self._seen)),
                              self.watcher.onDidChange(to_js_callback(self._seen)),
                              self.watcher.onDidDelete(to_js_callback(self._seen))]

    def _seen(self, uri):
        if uri.scheme != 'file':
            return
        path = uri.fsPath
        for part in IGNORED_PARTS:
            if part in path:
                return
        if not (path in self.paths):
            self.paths.append(path)

    def end(self, named=None):
        """Stop watching; the changed paths (those seen, then those the agent named that exist or existed)."""
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


def record_changes(change_log, paths, who, turn_label):
    """Hand a turn's changed files to the change log (its `record_external(path, who, turn)` when it has
    one); without a change log, nothing (the session still lists them)."""
    record = None if is_none(change_log) else getattr(change_log, 'record_external', None)
    if is_none(record):
        return 0
    count = 0
    for path in paths:
        try:
            record(path, who, turn_label)
            count += 1
        except JsError:
            continue
    return count
