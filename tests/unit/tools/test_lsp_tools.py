"""Language-intelligence tools: through the language service of their call (`call.services.language`) —
the real LanguageService over VS Code's `vscode.execute*Provider` commands, answered by fake providers
registered as commands in the shim, or a fake service."""
import asyncio
import json

import pytest
import vscode
from hermes.core.tools import Services, ToolCall
from hermes.host.language_service import LanguageService
from hermes.host.tool_services import PathService
from hermes.tools.catalog import build_registry
from service_fakes import FakeLanguage, run_tool, text as fake_text

GREETER = 'export function greet(name: string): string {\n  return `Hello, ${name}`;\n}\n'
MAIN = "import { greet } from './greeter';\n\nconsole.log(greet('world'));\n"


@pytest.fixture
def workspace(tmp_path):
    (tmp_path / 'greeter.ts').write_text(GREETER)
    (tmp_path / 'main.ts').write_text(MAIN)
    vscode.workspace.open_folders([str(tmp_path)])
    return tmp_path


def provide(command, answer):
    """Register a fake provider; it records the (uri, position, ...) it was asked about."""
    asked = []

    async def handler(*args):
        asked.append(args)
        return answer(*args) if callable(answer) else answer
    vscode.commands.registerCommand(command, handler)
    return asked


def loc(path, line, character, end=None):
    return vscode.Location(vscode.Uri.file(str(path)), vscode.Range(line, character, line, end or character + 5))


def call(name, arguments, language=None):
    registry = build_registry(None, Services(language=language or LanguageService(), paths=PathService()))
    return asyncio.run(registry.call(name, arguments, ToolCall()))


def text(result):
    return result['content'][0]['text']


def test_definition_by_symbol_name(workspace):
    asked = provide('vscode.executeDefinitionProvider', [loc(workspace / 'greeter.ts', 0, 16)])
    result = call('lsp_definition', {'path': 'main.ts', 'symbol': 'greet'})
    assert result['isError'] is False
    assert text(result) == ('Definition of the symbol at main.ts:1:10:\n'
                            '  greeter.ts:1:17  export function greet(name: string): string {')
    [(uri, position)] = asked
    assert uri.fsPath == str(workspace / 'main.ts') and (position.line, position.character) == (0, 9)
    [definition] = result['structuredContent']['definitions']
    assert definition == {'path': 'greeter.ts', 'uri': f'file://{workspace}/greeter.ts', 'line': 1, 'column': 17,
                          'endLine': 1, 'endColumn': 22, 'text': 'export function greet(name: string): string {'}


def test_definition_by_line_and_column_and_location_links(workspace):
    link = type('LocationLink', (vscode._Undefined,), {})()
    link.targetUri = vscode.Uri.file(str(workspace / 'greeter.ts'))
    link.targetRange = vscode.Range(0, 0, 2, 1)
    link.targetSelectionRange = vscode.Range(0, 16, 0, 21)
    asked = provide('vscode.executeDefinitionProvider', [link])
    result = call('lsp_definition', {'path': 'main.ts', 'line': 3, 'column': 13})
    assert result['structuredContent']['definitions'][0]['line'] == 1
    assert result['structuredContent']['definitions'][0]['column'] == 17
    assert (asked[0][1].line, asked[0][1].character) == (2, 12)


def test_symbol_prefers_the_declaration_from_document_symbols(workspace):
    symbol = vscode.DocumentSymbol('greet', '', vscode.SymbolKind.Function, vscode.Range(0, 0, 2, 1),
                                   vscode.Range(0, 16, 0, 21))
    provide('vscode.executeDocumentSymbolProvider', [symbol])
    asked = provide('vscode.executeReferenceProvider', [])
    result = call('lsp_references', {'path': 'greeter.ts', 'symbol': 'greet'})
    assert result['isError'] is False, text(result)
    assert (asked[0][1].line, asked[0][1].character) == (0, 16)


def test_position_errors(workspace):
    provide('vscode.executeDefinitionProvider', [])
    nowhere = call('lsp_definition', {'path': 'main.ts'})
    assert text(nowhere) == 'Say where: give "line" (and "column"), or "symbol" (a name in the file).'
    past = call('lsp_definition', {'path': 'main.ts', 'line': 40})
    assert text(past) == 'Line 40 is past the end of the file (4 lines).'
    absent = call('lsp_definition', {'path': 'main.ts', 'symbol': 'gree'})
    assert text(absent) == '"gree" does not occur in main.ts.'
    wrong_line = call('lsp_definition', {'path': 'main.ts', 'symbol': 'greet', 'line': 2})
    assert text(wrong_line) == '"greet" does not occur on line 2: '
    missing = call('lsp_definition', {'path': 'nope.ts', 'line': 1})
    assert missing['isError'] and text(missing).startswith('Cannot open "nope.ts"')
    outside = call('lsp_hover', {'path': '/etc/passwd', 'line': 1})
    assert 'outside the workspace' in text(outside)
    none_found = call('lsp_definition', {'path': 'main.ts', 'line': 1})
    assert text(none_found).startswith('No definition found for the symbol at main.ts:1:1')


def test_references_grouped_and_capped(workspace):
    provide('vscode.executeReferenceProvider', [loc(workspace / 'greeter.ts', 0, 16), loc(workspace / 'main.ts', 0, 9),
                                                 loc(workspace / 'main.ts', 2, 12)])
    result = call('lsp_references', {'path': 'greeter.ts', 'symbol': 'greet', 'max_results': 2})
    assert text(result) == ('3 references in 2 files to the symbol at greeter.ts:1:17:\n'
                            '  greeter.ts:1:17  export function greet(name: string): string {\n'
                            "  main.ts:1:10  import { greet } from './greeter';\n"
                            '… (truncated: 1 more references; raise max_results)')
    assert result['structuredContent']['total'] == 3


def test_hover_markdown_and_marked_strings(workspace):
    marked = type('MarkedString', (vscode._Undefined,), {'language': 'typescript',
                                                         'value': 'function greet(name: string): string'})()
    provide('vscode.executeHoverProvider', [vscode.Hover([marked, vscode.MarkdownString('Says hello.')])])
    provide('vscode.executeDefinitionProvider', [loc(workspace / 'greeter.ts', 0, 16)])
    result = call('lsp_hover', {'path': 'main.ts', 'symbol': 'greet', 'line': 3})
    assert text(result) == '```typescript\nfunction greet(name: string): string\n```\n\nSays hello.'


# ------------------------------------------------------------------ results from files outside the workspace

def test_results_from_outside_files_show_neither_their_place_nor_their_text(workspace, tmp_path_factory):
    secret = tmp_path_factory.mktemp('elsewhere') / 'secret.ts'
    secret.write_text('export const TOKEN = "s3cret-value";\n')
    provide('vscode.executeDefinitionProvider', [loc(secret, 0, 13)])
    result = call('lsp_definition', {'path': 'main.ts', 'symbol': 'greet', 'line': 3})
    assert 'a file outside the workspace' in text(result)
    assert 'elsewhere' not in json.dumps(result) and 's3cret' not in json.dumps(result)
    provide('vscode.executeHoverProvider', [vscode.Hover([vscode.MarkdownString('const TOKEN: "s3cret-value"')])])
    result = call('lsp_hover', {'path': 'main.ts', 'symbol': 'greet', 'line': 3})
    assert 's3cret' not in json.dumps(result) and 'defined in a file outside the workspace' in text(result)
    provide('vscode.executeReferenceProvider', [loc(secret, 0, 13), loc(workspace / 'main.ts', 2, 0)])
    result = call('lsp_references', {'path': 'main.ts', 'symbol': 'greet', 'line': 3})
    assert 'elsewhere' not in json.dumps(result) and 's3cret' not in json.dumps(result)
    assert 'a file outside the workspace' in text(result) and 'main.ts:3:1' in text(result)
    provide('vscode.executeWorkspaceSymbolProvider', [
        vscode.SymbolInformation('TOKEN', 13, '', loc(secret, 0, 13)),
        vscode.SymbolInformation('greet', 11, '', loc(workspace / 'greeter.ts', 0, 16))])
    result = call('lsp_workspace_symbols', {'query': 'T'})
    assert 'TOKEN' not in json.dumps(result) and 'elsewhere' not in json.dumps(result)
    assert 'greet' in text(result)


def test_a_rename_reaching_outside_changes_nothing_and_does_not_say_where(workspace, tmp_path_factory):
    secret = tmp_path_factory.mktemp('elsewhere') / 'secret.ts'
    secret.write_text('export const TOKEN = 1;\n')
    edit = vscode.WorkspaceEdit()
    edit.replace(vscode.Uri.file(str(workspace / 'main.ts')), vscode.Range(2, 0, 2, 5), 'other')
    edit.replace(vscode.Uri.file(str(secret)), vscode.Range(0, 13, 0, 18), 'other')
    provide('vscode.executeDocumentRenameProvider', edit)
    result = call('lsp_rename', {'path': 'main.ts', 'symbol': 'greet', 'line': 3, 'new_name': 'other'})
    assert result['isError'] is True and 'elsewhere' not in json.dumps(result)
    assert text(result) == 'The rename would also change 1 file outside the workspace, so nothing was changed.'
    assert secret.read_text() == 'export const TOKEN = 1;\n'


def test_hover_nothing(workspace):
    provide('vscode.executeHoverProvider', [])
    assert text(call('lsp_hover', {'path': 'main.ts', 'line': 2})) == 'No hover information at main.ts:2:1.'


def test_document_symbols_as_a_tree(workspace):
    cls = vscode.DocumentSymbol('Greeter', '', vscode.SymbolKind.Class, vscode.Range(0, 0, 9, 1), vscode.Range(0, 6, 0, 13))
    method = vscode.DocumentSymbol('hello', '(): void', vscode.SymbolKind.Method, vscode.Range(2, 2, 4, 3),
                                   vscode.Range(2, 2, 2, 7))
    cls.children = [method]
    provide('vscode.executeDocumentSymbolProvider', [cls])
    result = call('lsp_document_symbols', {'path': 'greeter.ts'})
    assert text(result) == 'Symbols in greeter.ts:\nclass Greeter (line 1–10)\n  method hello (line 3–5)  (): void'
    assert result['structuredContent']['symbols'][1]['depth'] == 1
    vscode.commands.handlers.pop('vscode.executeDocumentSymbolProvider')
    assert text(call('lsp_document_symbols', {'path': 'main.ts'})).startswith('No symbols in main.ts')


def test_workspace_symbols(workspace):
    asked = provide('vscode.executeWorkspaceSymbolProvider', [
        vscode.SymbolInformation('greet', vscode.SymbolKind.Function, '', loc(workspace / 'greeter.ts', 0, 16)),
        vscode.SymbolInformation('greeting', vscode.SymbolKind.Variable, 'main', loc(workspace / 'main.ts', 5, 6))])
    result = call('lsp_workspace_symbols', {'query': 'gree'})
    assert asked == [('gree',)]
    assert text(result) == ('2 symbols match "gree":\n  function greet  greeter.ts:1:17\n'
                            '  variable greeting in main  main.ts:6:7')
    assert call('lsp_workspace_symbols', {'query': ''})['isError'] is True


def test_rename_applies_and_saves_across_files(workspace):
    def rename(uri, position, new_name):
        edit = vscode.WorkspaceEdit()
        edit.replace(vscode.Uri.file(str(workspace / 'greeter.ts')), vscode.Range(0, 16, 0, 21), new_name)
        edit.replace(vscode.Uri.file(str(workspace / 'main.ts')), vscode.Range(0, 9, 0, 14), new_name)
        edit.replace(vscode.Uri.file(str(workspace / 'main.ts')), vscode.Range(2, 12, 2, 17), new_name)
        return edit
    provide('vscode.executeDocumentRenameProvider', rename)
    result = call('lsp_rename', {'path': 'greeter.ts', 'symbol': 'greet', 'new_name': 'welcome'})
    assert text(result) == 'Renamed to "welcome": 3 edits in 2 files: greeter.ts (1), main.ts (2). Saved.'
    assert (workspace / 'main.ts').read_text() == "import { welcome } from './greeter';\n\nconsole.log(welcome('world'));\n"
    assert (workspace / 'greeter.ts').read_text().startswith('export function welcome(')


def test_rename_failures_change_nothing(workspace, tmp_path_factory):
    outside = tmp_path_factory.mktemp('elsewhere') / 'lib.ts'
    outside.write_text('greet\n')

    def rename(uri, position, new_name):
        edit = vscode.WorkspaceEdit()
        edit.replace(vscode.Uri.file(str(outside)), vscode.Range(0, 0, 0, 5), new_name)
        return edit
    provide('vscode.executeDocumentRenameProvider', rename)
    result = call('lsp_rename', {'path': 'greeter.ts', 'symbol': 'greet', 'new_name': 'welcome'})
    assert result['isError'] and 'outside the workspace' in text(result)
    assert outside.read_text() == 'greet\n' and vscode.workspace.applied_edits == []

    def refuse(uri, position, new_name):
        raise Exception('You cannot rename this element.')
    vscode.commands.handlers.pop('vscode.executeDocumentRenameProvider')
    provide('vscode.executeDocumentRenameProvider', refuse)
    refused = call('lsp_rename', {'path': 'greeter.ts', 'line': 1, 'column': 1, 'new_name': 'x'})
    assert text(refused) == 'Cannot rename here: You cannot rename this element.'
    missing_name = call('lsp_rename', {'path': 'greeter.ts', 'line': 1})
    assert missing_name['isError'] and 'new_name' in text(missing_name)


def test_rename_is_destructive_and_lookups_read_only():
    registry = build_registry()
    assert registry.get('lsp_rename').destructive is True
    assert all(registry.get(name).read_only for name in ['lsp_definition', 'lsp_references', 'lsp_hover',
                                                         'lsp_document_symbols', 'lsp_workspace_symbols'])


def test_the_tools_ask_the_language_service_of_their_call():
    language = FakeLanguage()
    result = run_tool('lsp_definition', {'path': 'app.ts', 'line': 2}, language=language)
    assert fake_text(result) == 'Definition of the symbol at app.ts:2:1:\n  lib.ts:7:3  function greet() {'
    assert language.asked == [('open', 'app.ts'), ('position', 'the document', 2)]
    empty = run_tool('lsp_rename', {'path': 'app.ts', 'line': 2, 'new_name': 'hello'}, language=language)
    assert [empty['isError'], fake_text(empty), language.applied] == [True, 'The rename changes nothing.', []]


def test_a_rename_that_reaches_outside_the_workspace_changes_nothing():
    language = FakeLanguage([{'path': 'app.ts', 'edits': 2}, {'path': None, 'edits': 1}])
    result = run_tool('lsp_rename', {'path': 'app.ts', 'line': 2, 'new_name': 'hello'}, language=language)
    assert [result['isError'], fake_text(result), language.applied] == [
        True, 'The rename would also change 1 file outside the workspace, so nothing was changed.', []]
    inside = FakeLanguage([{'path': 'app.ts', 'edits': 2}, {'path': 'lib.ts', 'edits': 1}])
    done = run_tool('lsp_rename', {'path': 'app.ts', 'line': 2, 'new_name': 'hello', 'save': False}, language=inside)
    assert fake_text(done) == ('Renamed to "hello": 3 edits in 2 files: app.ts (2), lib.ts (1). Not saved: the files '
                               'are modified in their editors (undo with Ctrl+Z).')
    assert inside.applied == [('the edit', False)]


def test_workspace_symbols_as_the_language_service_describes_them():
    result = run_tool('lsp_workspace_symbols', {'query': 'gre'}, language=FakeLanguage())
    assert fake_text(result) == '1 symbols match "gre":\n  function greet  lib.ts:7:3'
    assert result['structuredContent'] == {'symbols': [{'path': 'lib.ts', 'uri': 'file:///w/lib.ts', 'line': 7,
                                                        'column': 3, 'name': 'greet', 'kind': 'function',
                                                        'container': None}], 'total': 1}


def test_a_registry_without_a_language_service_says_so():
    result = asyncio.run(build_registry().call('lsp_hover', {'path': 'app.ts', 'line': 1}, ToolCall()))
    assert [result['isError'], text(result)] == [
        True, 'The language service is not available: the Hermes extension is not fully active in this window.']
