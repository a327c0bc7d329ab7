"""Text documents and editors as the user sees them, unsaved changes included. Edits go through
`WorkspaceEdit`, so they are undoable and land in the open editor rather than behind its back."""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError
from hermes.js.modules import vscode
from hermes.js.objects import new
from hermes.core.tools import ToolError
from hermes.host.changes.log import change_log_of, check_write, note_write
# __pragma__('skip')
from typing import TYPE_CHECKING, List, Optional
from hermes.contracts.json import JsonObject
from hermes.contracts.services import CallContext
if TYPE_CHECKING:
    from vscode import Position, Range, TextDocument, TextDocumentShowOptionsDict, TextEditor
# __pragma__('noskip')


def open_document_for(path: str) -> 'Optional[TextDocument]':
    """The open TextDocument of the file at `path`, or None (then the editor holds no unsaved text)."""
    for document in vscode.workspace.textDocuments:
        if document.uri.scheme == 'file' and document.uri.fsPath == path:
            return document
    return None


async def load_document(path: str, shown: str) -> 'TextDocument':
    """The file's TextDocument: the open one (with its unsaved changes), else loaded from disk."""
    document = open_document_for(path)
    if document is not None:
        return document
    try:
        return await vscode.workspace.openTextDocument(vscode.Uri.file(path))
    except JsError as error:
        raise ToolError('Cannot open "' + shown + '" as text: ' + error_message(error))


def document_range(document: 'TextDocument', start_offset: int, end_offset: int) -> 'Range':
    return new(vscode.Range, document.positionAt(start_offset), document.positionAt(end_offset))


async def replace_text(document: 'TextDocument', planned: 'List[JsonObject]', shown: str,
                       call: 'Optional[CallContext]' = None) -> None:
    """Apply [{'start', 'end', 'text'}] (offsets into the document's current text) as one undoable edit. With the
    tool `call` that asks for it, the edit is checked against and recorded in the change log (host/changes/log.py):
    every editor edit a tool makes passes here."""
    # the path the change log records this edit under; None when nothing records it
    path = document.uri.fsPath if document.uri.scheme == 'file' and change_log_of(call) is not None else None
    before = None
    if path is not None:
        check_write(call, path, [[document.positionAt(item['start']).line, document.positionAt(item['end']).line]
                                 for item in planned])
        before = document.getText()
    edit = new(vscode.WorkspaceEdit)
    for item in planned:
        edit.js_replace(document.uri, document_range(document, item['start'], item['end']), item['text'])
    if not await vscode.workspace.applyEdit(edit):
        raise ToolError('VS Code did not apply the edit to "' + shown + '" (the document may be read-only or '
                        'changed meanwhile).')
    if path is not None:
        note_write(call, path, before, document.getText())


async def save_document(document: 'TextDocument', shown: str) -> None:
    if not await document.save():
        raise ToolError('The edit was applied to "' + shown + '" but saving it failed; it stays unsaved in the '
                        'editor.')


def active_editor() -> 'Optional[TextEditor]':
    """The active text editor, else the first visible one, else None."""
    editor = vscode.window.activeTextEditor
    if editor is not None:
        return editor
    visible = vscode.window.visibleTextEditors
    if visible is not None and len(visible) > 0:
        return visible[0]
    return None


def clamp(value: int, low: int, high: int) -> int:
    return max(low, min(value, high))


def position_at(document: 'TextDocument', line: int, column: 'Optional[int]') -> 'Position':
    """A Position for 1-based line/column, clamped into the document."""
    line_index = clamp(line - 1, 0, max(document.lineCount - 1, 0))
    length = len(document.lineAt(line_index).text)
    return new(vscode.Position, line_index, clamp((1 if column is None else column) - 1, 0, length))


async def show_document(path: str, shown: str, line: 'Optional[int]' = None, column: 'Optional[int]' = None,
                        end_line: 'Optional[int]' = None, end_column: 'Optional[int]' = None,
                        preview: 'Optional[bool]' = None, keep_focus: bool = False) -> 'TextEditor':
    """Open the file in an editor and focus it (unless keep_focus); with `line`, select/reveal that place."""
    document = await load_document(path, shown)
    options = {'preserveFocus': keep_focus}  # type: TextDocumentShowOptionsDict
    if preview is not None:
        options['preview'] = preview
    target = None  # type: Optional[Range]
    if line is not None:
        start = position_at(document, line, column)
        if end_line is None:
            end = start
        else:
            end = position_at(document, end_line, end_column if end_column is not None else
                              len(document.lineAt(clamp(end_line - 1, 0, max(document.lineCount - 1, 0))).text) + 1)
        target = new(vscode.Range, start, end)
        options['selection'] = target
    editor = await vscode.window.showTextDocument(document, options)
    if target is not None:
        editor.revealRange(target, vscode.TextEditorRevealType.InCenterIfOutsideViewport)
    return editor
