# __pragma__('tconv')
from hermes.js.modules import vscode
from hermes.core.tools import Tool
from hermes.core.output_text import text_and_data
from hermes.core.values import get_key
from hermes.host.language import (open_document, resolve_position, location_of, add_previews,
                                  plain_location, location_line)
from hermes.tools.lsp_parts import position_schema


async def find_definition(args, call):
    path, document = await open_document(get_key(args, 'path'))
    position = await resolve_position(document, args)
    found = await vscode.commands.executeCommand('vscode.executeDefinitionProvider', document.uri, position)
    locations = [location_of(item) for item in (found or [])]
    where = get_key(args, 'path') + ':' + str(position.line + 1) + ':' + str(position.character + 1)
    if len(locations) == 0:
        return text_and_data('No definition found for the symbol at ' + where + ' (is a language extension for this '
                             'file type installed, and is the position on an identifier?).', {'definitions': []})
    await add_previews(locations, 20)
    lines = ['Definition of the symbol at ' + where + ':']
    for location in locations:
        lines.append('  ' + location_line(location))
    return text_and_data('\n'.join(lines), {'definitions': [plain_location(location) for location in locations]})


TOOL = Tool(
    'lsp_definition',
    'Go to definition: where the symbol at a position is defined, through VS Code\'s language extensions '
    '(TypeScript/JavaScript built in; others when installed). Give the file and a 1-based line and column, or '
    'the symbol name (e.g. {"path": "src/app.ts", "symbol": "greet"}). Returns file:line:column with the line\'s text.',
    position_schema(),
    find_definition,
    title='Go to definition',
)
