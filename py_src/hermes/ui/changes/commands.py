"""The review commands, one set for every place that offers them: the editor's CodeLenses and title bar,
the keybindings, the Changes view's buttons and the command palette. Keep accepts an agent's change as it
is; Undo puts back the text before it (the change log keeps the rest of the file as the user has it) and
asks first when the user has edited the same lines since.

Arguments: a hunk command gets (path, hunk id) from a lens, or nothing (the hunk at the cursor); a file
command a Uri (editor title), a Changes view element, or nothing (the active editor); Keep All / Undo All a
view element (its client, session or turn) or nothing (everything)."""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError
from hermes.js.modules import vscode
from hermes.core.values import json_type, is_object, get_key
from hermes.core.chat.messages import prop
from hermes.core.changes.view import filter_label, matches, UNDO_ALL
from hermes.ui.commands import register_command
from hermes.ui.changes.review import (KEEP_COMMAND, UNDO_COMMAND, KEEP_FILE_COMMAND, UNDO_FILE_COMMAND, NEXT_COMMAND,
                                     PREVIOUS_COMMAND, go_to_change)
from hermes.ui.changes.diff import open_changes
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, List, Optional
from hermes.contracts.json import JsonObject
from hermes.host.changes.log import ChangeLog
from hermes.host.log import Log
from hermes.ui.changes.review import ChangeReview
if TYPE_CHECKING:
    from vscode import ExtensionContext
# __pragma__('noskip')

KEEP_ALL_COMMAND = 'hermes.changes.keepAll'
UNDO_ALL_COMMAND = 'hermes.changes.undoAll'
SHOW_COMMAND = 'hermes.changes.showDiff'
UNDO_ANYWAY = 'Undo Anyway'
CONFLICT_TEXT = ('You have edited these lines since the agent changed them. Undo puts back the text from before '
                 'the agent\'s change, and your edits to these lines are lost.')


class ReviewCommands:
    """`changes`: the change log; `review`: the editor marks (ui/changes/review.py), for the hunk at the cursor."""

    def __init__(self, changes: 'ChangeLog', review: 'ChangeReview', log: 'Log') -> None:
        self.changes = changes
        self.review = review
        self.log = log

    def _hunk_target(self, path: Any, hunk_id: Any) -> 'Optional[JsonObject]':
        if json_type(path) == 'string' and hunk_id is not None:
            return {'path': path, 'id': hunk_id}
        editor = vscode.window.activeTextEditor
        if editor is None:
            return None
        mark = self.review.hunk_at(editor.document, editor.selection.active.line)
        if mark is None:
            vscode.window.setStatusBarMessage('Hermes: the cursor is not on a pending change', 3000)
            return None
        return {'path': mark['path'], 'id': mark['hunk']['id']}

    def keep(self, path: Any = None, hunk_id: Any = None) -> bool:
        target = self._hunk_target(path, hunk_id)
        if target is None:
            return False
        self.changes.keep(target['path'], target['id'])
        return True

    async def undo(self, path: Any = None, hunk_id: Any = None) -> bool:
        target = self._hunk_target(path, hunk_id)
        if target is None:
            return False
        return await self._undo(target['path'], target['id'])

    async def _undo(self, path: str, hunk_id: 'Optional[str]') -> bool:
        """Undo with the change log; on a conflict (the user edited the same lines) ask, and only then force."""
        try:
            await self.changes.undo(path, hunk_id)
            return True
        except JsError as error:
            if not is_conflict(error):
                vscode.window.showErrorMessage('Hermes: could not undo the change: ' + error_message(error))
                return False
        choice = await vscode.window.showWarningMessage(CONFLICT_TEXT, {'modal': True}, UNDO_ANYWAY)
        if choice != UNDO_ANYWAY:
            return False
        await self.changes.undo(path, hunk_id, True)
        return True

    def _file_path(self, target: Any) -> 'Optional[str]':
        if target is None:
            editor = vscode.window.activeTextEditor
            return None if editor is None else editor.document.uri.fsPath
        if json_type(target) == 'string':
            return target
        fs_path = prop(target, 'fsPath')
        if json_type(fs_path) == 'string':  # a Uri (the editor title bar)
            return fs_path
        return get_key(prop(target, 'node'), 'path')  # a Changes view element

    def keep_file(self, target: Any = None) -> bool:
        path = self._file_path(target)
        if path is None:
            return False
        self.changes.keep(path)
        return True

    async def undo_file(self, target: Any = None) -> bool:
        path = self._file_path(target)
        if path is None:
            return False
        return await self._undo(path, None)

    def keep_all(self, element: Any = None) -> bool:
        self.changes.keep_all(filter_of_element(element))
        return True

    async def undo_all(self, element: Any = None) -> bool:
        change_filter = filter_of_element(element)
        files = []  # type: List[str]
        for entry in self.changes.pending():
            if matches(entry, change_filter) and not (entry['path'] in files):
                files.append(entry['path'])
        if len(files) == 0:
            return False
        if change_filter is None:  # everything, from the view's title bar or the palette: ask first
            question = ('Undo the changes agents made to ' + str(len(files)) + (' file' if len(files) == 1 else
                        ' files') + ' and not kept yet?')
            if await vscode.window.showWarningMessage(question, {'modal': True}, UNDO_ALL) != UNDO_ALL:
                return False
        try:
            result = await self.changes.undo_all(change_filter)
            conflicts = get_key(result, 'conflicts', [])
            if len(conflicts) > 0:
                question = ('You have edited lines of ' + str(len(conflicts)) + (' file' if len(conflicts) == 1 else
                            ' files') + ' that these changes touch. Undo those too (your edits there are lost)?')
                if await vscode.window.showWarningMessage(question, {'modal': True}, UNDO_ANYWAY) != UNDO_ANYWAY:
                    return False
                await self.changes.undo_all(change_filter, True)
        except JsError as error:
            vscode.window.showErrorMessage('Hermes: could not undo the changes by ' + filter_label(change_filter) +
                                           ': ' + error_message(error))
            return False
        return True

    async def show(self, element: Any = None) -> int:
        return await open_changes(self.changes, filter_of_element(element))


def is_conflict(error: Any) -> bool:
    """The change log's ChangeConflict (host/changes/log.py: the user edited a hunk being undone), told apart by
    the hunk ids it carries, the same way under CPython and in the bundle."""
    return json_type(prop(error, 'hunk_ids')) == 'array'


def filter_of_element(element: Any) -> 'Optional[JsonObject]':
    """A Changes view element's filter ({'client', 'session'?, 'turn'?}), a filter itself, or None
    (everything: no argument, or one from elsewhere, such as the Uri a title bar passes)."""
    node = prop(element, 'node')
    if is_object(node):
        change_filter = get_key(node, 'filter')
        return change_filter if is_object(change_filter) else None
    if json_type(prop(element, 'client')) == 'string':
        return element
    return None


def register_change_commands(context: 'ExtensionContext', changes: 'ChangeLog', review: 'ChangeReview',
                             log: 'Log') -> 'ReviewCommands':
    commands = ReviewCommands(changes, review, log)
    register_command(context, KEEP_COMMAND, commands.keep)
    register_command(context, UNDO_COMMAND, commands.undo)
    register_command(context, KEEP_FILE_COMMAND, commands.keep_file)
    register_command(context, UNDO_FILE_COMMAND, commands.undo_file)
    register_command(context, KEEP_ALL_COMMAND, commands.keep_all)
    register_command(context, UNDO_ALL_COMMAND, commands.undo_all)
    register_command(context, SHOW_COMMAND, commands.show)
    register_command(context, NEXT_COMMAND, lambda: go_to_change(review, True))
    register_command(context, PREVIOUS_COMMAND, lambda: go_to_change(review, False))
    return commands

