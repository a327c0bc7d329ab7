"""Language intelligence for the tools, through whatever language extensions VS Code has (the built-in
TypeScript service, Python, ...): the `vscode.execute*Provider` commands, which answer what
Go to Definition, Find References, hover, the outline and rename show a user. The tools reach it through
host/language_service.py (`call.services.language`).

Positions in tool arguments and results are 1-based (line 1, column 1 is the first character), as
editors display them; VS Code's API is 0-based, and the conversion happens only here. A position can
also be given as a symbol name, found in the file (its declaration first, else its first whole-word
occurrence, on `line` when one is given).
"""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError
from hermes.js.modules import vscode
from hermes.js.objects import new
from hermes.core.tools import ToolError
from hermes.core.values import json_type
from hermes.host.paths import resolve_path
from hermes.host.confinement import place, shown_path
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, List, Optional, Tuple
from hermes.contracts.json import JsonObject
if TYPE_CHECKING:
    from vscode import Position, TextDocument, WorkspaceEdit
# __pragma__('noskip')

SYMBOL_KINDS = ['file', 'module', 'namespace', 'package', 'class', 'method', 'property', 'field', 'constructor',
                'enum', 'interface', 'function', 'variable', 'constant', 'string', 'number', 'boolean', 'array',
                'object', 'key', 'null', 'enum member', 'struct', 'event', 'operator', 'type parameter']
# Not a regex: Transcrypt's `re` mistranslates `$` inside a character class ('[A-Za-z0-9_$]' matched '(').
_IDENTIFIER_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$'

def kind_name(kind: Any) -> str:
    return SYMBOL_KINDS[kind] if json_type(kind) == 'integer' and kind >= 0 and kind < len(SYMBOL_KINDS) else 'symbol'


async def open_document(path_text: str) -> 'Tuple[str, TextDocument]':
    """(absolute path, TextDocument) for a workspace file, or a ToolError."""
    path = resolve_path(path_text)
    try:
        document = await vscode.workspace.openTextDocument(vscode.Uri.file(path))
    except JsError as error:
        raise ToolError('Cannot open "' + path_text + '": ' + error_message(error))
    return path, document


def is_identifier_char(char: str) -> bool:
    return char in _IDENTIFIER_CHARS or ord(char) > 127


def _is_word_at(text: str, index: int, word: str) -> bool:
    end = index + len(word)
    before_ok = index == 0 or not is_identifier_char(text[index - 1])
    return before_ok and (end >= len(text) or not is_identifier_char(text[end]))


def find_word(text: str, word: str) -> int:
    """The index of `word` as a whole identifier in `text`, or -1."""
    start = text.find(word)
    while start != -1:
        if _is_word_at(text, start, word):
            return start
        start = text.find(word, start + 1)
    return -1


def _declared(symbols: 'List[Any]', name: str) -> 'Optional[Position]':
    """The selection start of the first document symbol called `name` (depth first), or None."""
    for symbol in symbols:
        if symbol['name'] == name:
            selection = symbol.selectionRange
            if selection is None:
                location = symbol.location
                selection = None if location is None else location.range
            if selection is not None:
                return selection.start
        children = symbol.children
        if children is not None:
            found = _declared(children, name)
            if found is not None:
                return found
    return None


async def document_symbols(document: 'TextDocument') -> 'List[Any]':
    try:
        symbols = await vscode.commands.executeCommand('vscode.executeDocumentSymbolProvider', document.uri)
    except JsError:
        return []
    return [] if symbols is None else symbols


async def resolve_position(document: 'TextDocument', line: 'Optional[int]', column: 'Optional[int]',
                           symbol: 'Optional[str]') -> 'Position':
    """The vscode.Position the tool arguments name (tools/lsp_parts.py POSITION_PROPERTIES; None: not given)."""
    if line is not None:
        if line > document.lineCount:
            raise ToolError('Line ' + str(line) + ' is past the end of the file (' + str(document.lineCount) + ' lines).')
        text = document.lineAt(line - 1).text
        if column is not None:
            return new(vscode.Position, line - 1, min(column - 1, len(text)))
        if symbol is not None:
            index = find_word(text, symbol)
            if index == -1:
                raise ToolError('"' + symbol + '" does not occur on line ' + str(line) + ': ' + text.strip())
            return new(vscode.Position, line - 1, index)
        return new(vscode.Position, line - 1, len(text) - len(text.lstrip()))
    if symbol is None:
        raise ToolError('Say where: give "line" (and "column"), or "symbol" (a name in the file).')
    declared = _declared(await document_symbols(document), symbol)
    if declared is not None:
        return declared
    for number in range(document.lineCount):
        index = find_word(document.lineAt(number).text, symbol)
        if index != -1:
            return new(vscode.Position, number, index)
    raise ToolError('"' + symbol + '" does not occur in ' + shown_path(document.uri) + '.')


def location_of(item: Any) -> 'JsonObject':
    """A Location or LocationLink as {path, uri, line, column, endLine, endColumn} (1-based). One outside the
    workspace is only "a file outside the workspace": no URI, no position, and so no preview (confinement.py)."""
    uri = item.targetUri if item.targetUri is not None else item.uri
    selection = item.targetSelectionRange
    span = selection if selection is not None else (item.targetRange if item.targetRange is not None else item.range)
    where = place(uri)
    result = {'path': where['path'], 'uri': where['uri'], 'line': None, 'column': None}  # type: JsonObject
    if where['uri'] is None:
        result['outside'] = True
        return result
    if span is not None:
        result['line'] = span.start.line + 1
        result['column'] = span.start.character + 1
        result['endLine'] = span.end.line + 1
        result['endColumn'] = span.end.character + 1
    result['_uri'] = uri
    return result


async def add_previews(locations: 'List[JsonObject]', limit: int) -> None:
    """Give the first `limit` locations the text of their line ('text')."""
    documents = []  # type: List[TextDocument]
    for location in locations[:limit]:
        if location['line'] is None:
            continue
        document = None
        for known in documents:
            if known.uri.toString() == location['uri']:
                document = known
        if document is None:
            try:
                document = await vscode.workspace.openTextDocument(location['_uri'])
            except JsError:
                continue
            documents.append(document)
        if location['line'] <= document.lineCount:
            location['text'] = document.lineAt(location['line'] - 1).text.strip()


def symbol_entries(symbols: 'List[Any]', depth: int, out: 'List[JsonObject]') -> 'List[JsonObject]':
    """DocumentSymbol trees or SymbolInformation lists → flat entries with a depth (for indentation)."""
    for symbol in symbols:
        place = symbol.range
        if place is None and symbol.location is not None:
            place = symbol.location.range
        entry = {'name': symbol['name'], 'kind': kind_name(symbol.kind), 'depth': depth,  # type: JsonObject
                 'detail': symbol.detail or None,
                 'container': symbol.containerName or None}
        if place is not None:
            entry['line'] = place.start.line + 1
            entry['endLine'] = place.end.line + 1
        out.append(entry)
        if symbol.children is not None:
            symbol_entries(symbol.children, depth + 1, out)
    return out


def hover_text(hovers: Any) -> str:
    parts = []  # type: List[str]
    for hover in hovers or []:
        for content in hover.contents or []:
            if json_type(content) == 'string':
                parts.append(content)
            elif content.language is not None:
                parts.append('```' + content.language + '\n' + content.value + '\n```')
            elif content.value is not None:
                parts.append(content.value)
    return '\n\n'.join([part.strip() for part in parts if part.strip() != ''])


def edit_entries(edit: 'WorkspaceEdit') -> 'List[List[Any]]':
    """A WorkspaceEdit's text edits as [(uri, [TextEdit])]."""
    return [[pair[0], pair[1]] for pair in edit.entries()]

