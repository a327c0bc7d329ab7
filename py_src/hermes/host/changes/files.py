"""The change log's way to the files it undoes: the text as the user has it now (an open editor's text when it holds
unsaved changes, else the disk's), and writes that go through the editor so the user's own Undo (Ctrl+Z) takes an
undo back. A test hands the log a fake with the same two methods.

Why the disk for an editor without unsaved changes: its text is the disk's, but only once VS Code has reloaded it,
and VS Code reloads when its file watcher reports the change — seen in code-server more than a second after a
command rewrote the file (`sed -i`). Read from the editor meanwhile, the command's change looks undone by the user
(an Undo then asks about a conflict that is not there)."""
# __pragma__('tconv')
from hermes.js.modules import vscode
from hermes.js.text import utf8_bytes
from hermes.core.changes.hunks import changed_span
from hermes.host.documents import open_document_for, replace_text, save_document
from hermes.host.files import stat, read_text, write_text, delete_path
from hermes.host.paths import display_path
# __pragma__('skip')
from typing import Optional
# __pragma__('noskip')


class EditorFiles:
    async def read(self, path: str) -> 'Optional[str]':
        """The file's current text, or None when there is no file."""
        document = open_document_for(path)
        if document is not None and document.isDirty:
            return document.getText()
        info = await stat(path)
        if info is None or info['kind'] != 'file':
            return None
        found = await read_text(path)
        return found['text']

    async def write(self, path: str, text: 'Optional[str]') -> None:
        """Make the file hold `text` (None: delete it), undoably. An open editor gets the text as one edit and is
        saved unless it held unsaved changes before (those stay the user's to save)."""
        shown = display_path(path)
        if text is None:
            await delete_path(path, False)
            return
        document = open_document_for(path)
        if document is None:
            await write_text(path, text)
            return
        if not document.isDirty and document.getText() != await self.read(path):
            # an editor VS Code has not reloaded from the disk yet: an edit there would change nothing (it may hold
            # the text already) and its save could not write; VS Code's file service writes the disk and the editor
            await vscode.workspace.fs.writeFile(vscode.Uri.file(path), utf8_bytes(text))
            return
        was_dirty = document.isDirty
        await replace_text(document, [changed_span(document.getText(), text)], shown)
        if not was_dirty:
            await save_document(document, shown)
