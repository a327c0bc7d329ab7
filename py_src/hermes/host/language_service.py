"""The tools' one way to the language extensions (`call.services.language`, built by host/services.py): what
they answer about a workspace file (host/language.py), the one edit they make (rename), and the problems they
report (host/diagnostics.py). A class of its own so a test can hand a tool a fake instead."""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError
from hermes.js.modules import vscode
from hermes.core.tools import ToolError
from hermes.host.language import (open_document, resolve_position, location_of, hover_text, document_symbols,
                                  symbol_entries, add_previews, edit_entries, kind_name)
from hermes.host.diagnostics import collect, wait_for_report
from hermes.host.changes.log import change_log_of, check_write, note_write
from hermes.host.confinement import shows, shown_path, is_public
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple
from hermes.contracts.json import JsonObject
from hermes.contracts.services import CallContext, EditedFile, WorkspaceSymbol
if TYPE_CHECKING:
    from vscode import Position, TextDocument, WorkspaceEdit
# __pragma__('noskip')

HOVER_WITHHELD = ('The symbol here is defined in a file outside the workspace: what its hover would show comes from '
                  'that file, so it is withheld.')


class LanguageService:
    """What the language extensions answer about a workspace file, the one edit they make, the problems."""

    async def open(self, path_text: str) -> 'Tuple[str, TextDocument]':
        """(absolute path, TextDocument) for a workspace file, or a ToolError."""
        return await open_document(path_text)

    async def position(self, document: 'TextDocument', line: 'Optional[int]', column: 'Optional[int]',
                       symbol: 'Optional[str]') -> 'Position':
        """The vscode.Position the tool arguments name (tools/lsp_parts.py POSITION_PROPERTIES), or a ToolError."""
        return await resolve_position(document, line, column, symbol)

    async def definitions(self, document: 'TextDocument', position: 'Position') -> 'List[JsonObject]':
        """Where the symbol at `position` is defined: location dicts (`location_of`)."""
        found = await vscode.commands.executeCommand('vscode.executeDefinitionProvider', document.uri, position)
        return [location_of(item) for item in (found or [])]

    async def references(self, document: 'TextDocument', position: 'Position') -> 'List[JsonObject]':
        """Every reference to the symbol at `position`, its declaration included: location dicts."""
        found = await vscode.commands.executeCommand('vscode.executeReferenceProvider', document.uri, position)
        return [location_of(item) for item in (found or [])]

    async def hover(self, document: 'TextDocument', position: 'Position') -> str:
        """The hover text at `position` (Markdown), '' when there is none. A hover describes the symbol from where
        it is defined (a constant's value, its documentation): when that is a file outside the workspace (other
        than VS Code's own library files), the text is withheld (confinement.py)."""
        text = hover_text(await vscode.commands.executeCommand('vscode.executeHoverProvider', document.uri, position))
        if text == '':
            return text
        found = await vscode.commands.executeCommand('vscode.executeDefinitionProvider', document.uri, position)
        for item in found or []:
            uri = item.targetUri if item.targetUri is not None else item.uri
            if not shows(uri) and not is_public(uri):
                return HOVER_WITHHELD
        return text

    async def outline(self, document: 'TextDocument') -> 'List[JsonObject]':
        """The document's symbols as flat entries with a depth (`symbol_entries`)."""
        return symbol_entries(await document_symbols(document), 0, [])

    async def workspace_symbols(self, query: str) -> 'List[WorkspaceSymbol]':
        """The workspace symbols matching `query` (fuzzy): [{'name', 'kind', 'container', 'location'}]."""
        found = await vscode.commands.executeCommand('vscode.executeWorkspaceSymbolProvider', query)
        # a symbol's name is text of the file it is in: only the workspace's own (confinement.py)
        return [{'name': symbol['name'], 'kind': kind_name(symbol.kind), 'container': symbol.containerName or None,
                 'location': location_of(symbol.location)}
                for symbol in (found or []) if symbol.location is not None and shows(symbol.location.uri)]

    async def previews(self, locations: 'List[JsonObject]', limit: int) -> None:
        """Give the first `limit` location dicts the text of their line ('text')."""
        await add_previews(locations, limit)

    async def rename_edit(self, document: 'TextDocument', position: 'Position', new_name: str) -> Any:
        """The WorkspaceEdit renaming the symbol at `position` (not applied), or a ToolError."""
        try:
            edit = await vscode.commands.executeCommand('vscode.executeDocumentRenameProvider', document.uri,
                                                        position, new_name)
        except JsError as error:
            raise ToolError('Cannot rename here: ' + error_message(error))
        if edit is None:
            raise ToolError('No rename provider answered for this position (is it on a symbol, and is a language '
                            'extension for this file type installed?).')
        return edit

    def edited_files(self, edit: Any) -> 'List[EditedFile]':
        """The files a WorkspaceEdit changes, [{'path', 'edits'}]: `path` as shown, None for one outside the
        workspace (a rename must not reach there, nor say where that is: confinement.py)."""
        return [{'path': shown_path(entry[0]) if shows(entry[0]) else None, 'edits': len(entry[1])}
                for entry in edit_entries(edit)]

    async def apply(self, edit: Any, save: bool, call: 'Optional[CallContext]' = None) -> bool:
        """Apply a WorkspaceEdit as one undoable edit, then save the files it changed when `save`; False when
        VS Code refused it (nothing changed). With the tool `call`, each file's change is checked against and
        recorded in the change log (host/changes/log.py)."""
        befores = await _texts_before(edit, call)
        if not await vscode.workspace.applyEdit(edit):
            return False
        for entry in edit_entries(edit):
            document = await vscode.workspace.openTextDocument(entry[0])
            if save:
                await document.save()
            if entry[0].scheme == 'file' and entry[0].fsPath in befores:
                note_write(call, entry[0].fsPath, befores[entry[0].fsPath], document.getText())
        return True

    def problems(self, path: 'Optional[str]' = None, min_severity: str = 'hint') -> 'List[JsonObject]':
        """The diagnostics of one file (absolute path) or of every file, at `min_severity` or worse (`collect`)."""
        return collect(path, min_severity)

    async def wait_for_problems(self, path: str, timeout_ms: float, call: 'CallContext') -> None:
        """Wait until a language service has reported on `path` (a change and a quiet second) or `timeout_ms`."""
        await wait_for_report(path, timeout_ms, call)


async def _texts_before(edit: 'WorkspaceEdit', call: 'Optional[CallContext]') -> 'Dict[str, str]':
    """{path: text} of the files a WorkspaceEdit changes, when the call records into a change log (after
    checking that none of its edits touches a pending hunk the caller has not re-read); else {}."""
    befores = {}  # type: Dict[str, str]
    if change_log_of(call) is None:
        return befores
    for entry in edit_entries(edit):
        uri = entry[0]
        if uri.scheme != 'file':
            continue
        check_write(call, uri.fsPath, [[text_edit.range.start.line, text_edit.range.end.line] for text_edit in entry[1]])
        document = await vscode.workspace.openTextDocument(uri)
        befores[uri.fsPath] = document.getText()
    return befores
