"""Text documents and editors as the user sees them, unsaved changes included. Edits go through
`WorkspaceEdit`, so they are undoable and land in the open editor rather than behind its back."""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError
from hermes.js.modules import vscode
from hermes.js.objects import is_none, new
from hermes.core.tools import ToolError
from hermes.host.change_log import change_log_of, check_write, note_write


def open_document_for(path):
    """The open TextDocument of the file at `path`, or None (then the editor holds no unsaved text)."""
    for document in vscode.workspace.textDocuments:
        if document.uri.scheme == 'file' and document.uri.fsPath == path:
            return document
    return None


async def load_document(path, shown):
    """The file's TextDocument: the open one (with its unsaved changes), else loaded from disk."""
    document = open_document_for(path)
    if not is_none(document):
        return document
    try:
        return await vscode.workspace.openTextDocument(vscode.Uri.file(path))
    except JsError as error:
        raise ToolError('Cannot open "' + shown + '" as text: ' + error_message(error))


def document_range(document, start_offset, end_offset):
    return new(vscode.Range, document.positionAt(start_offset), document.positionAt(end_offset))


async def replace_text(document, planned, shown, call=None):
    """Apply [{'start', 'end', 'text'}] (offsets into the document's current text) as one undoable edit. With the
    tool `call` that asks for it, the edit is checked against and recorded in the change log (host/change_log.py):
    every editor edit a tool makes passes here."""
    path = document.uri.fsPath if document.uri.scheme == 'file' else None
    recording = not is_none(path) and not is_none(change_log_of(call))
    before = None
    if recording:
        check_write(call, path, [[document.positionAt(item['start']).line, document.positionAt(item['end']).line]
                                 for item in planned])
        before = document.getText()
    edit = new(vscode.WorkspaceEdit)
    for item in planned:
        edit.js_replace(document.uri, document_range(document, item['start'], item['end']), item['text'])
    if not await vscode.workspace.applyEdit(edit):
        raise ToolError('VS Code did not apply the edit to "' + shown + '" (the document may be read-only or '
                        'changed meanwhile).')
    if recording:
        note_write(call, path, before, document.getText())


async def save_document(document, shown):
    if not await document.save():
        raise ToolError('The edit was applied to "' + shown + '" but saving it failed; it stays unsaved in the '
                        'editor.')


def active_editor():
    """The active text editor, else the first visible one, else None."""
    editor = vscode.window.activeTextEditor
    if not is_none(editor):
        return editor
    visible = vscode.window.visibleTextEditors
    if not is_none(visible) and len(visible) > 0:
        return visible[0]
    return None


def clamp(value, low, high):
    return max(low, min(value, high))


def position_at(document, line, column):
    """A Position for 1-based line/column, clamped into the document."""
    line_index = clamp(line - 1, 0, max(document.lineCount - 1, 0))
    length = len(document.lineAt(line_index).text)
    return new(vscode.Position, line_index, clamp((1 if is_none(column) else column) - 1, 0, length))


async def show_document(path, shown, line=None, column=None, end_line=None, end_column=None, preview=None,
                        keep_focus=False):
    """Open the file in an editor and focus it (unless keep_focus); with `line`, select/reveal that place."""
    document = await load_document(path, shown)
    options = {'preserveFocus': keep_focus}
    if not is_none(preview):
        options['preview'] = preview
    target = None
    if not is_none(line):
        start = position_at(document, line, column)
        if is_none(end_line):
            end = start
        else:
            end = position_at(document, end_line, end_column if not is_none(end_column) else
                              len(document.lineAt(clamp(end_line - 1, 0, max(document.lineCount - 1, 0))).text) + 1)
        target = new(vscode.Range, start, end)
        options['selection'] = target
    editor = await vscode.window.showTextDocument(document, options)
    if not is_none(target):
        editor.revealRange(target, vscode.TextEditorRevealType.InCenterIfOutsideViewport)
    return editor
