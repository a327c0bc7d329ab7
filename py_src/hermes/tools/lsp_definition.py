# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import LspDefinitionArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool
from hermes.core.output_text import text_and_data
from hermes.tools.lsp_parts import position_schema, plain_location, location_line


async def find_definition(args: 'LspDefinitionArgs', call: 'CallContext') -> 'ToolReturn':
    language = call.services.language
    path, document = await language.open(args['path'])
    position = await language.position(document, args['line'], args['column'], args['symbol'])
    locations = await language.definitions(document, position)
    where = args['path'] + ':' + str(position.line + 1) + ':' + str(position.character + 1)
    if len(locations) == 0:
        return text_and_data('No definition found for the symbol at ' + where + ' (is a language extension for this '
                             'file type installed, and is the position on an identifier?).', {'definitions': []})
    await language.previews(locations, 20)
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
