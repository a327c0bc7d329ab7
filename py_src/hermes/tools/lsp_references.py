# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import LspReferencesArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool
from hermes.core.output_text import text_and_data
from hermes.tools.lsp_parts import position_schema, plain_location, location_line


async def find_references(args: 'LspReferencesArgs', call: 'CallContext') -> 'ToolReturn':
    language = call.services.language
    path, document = await language.open(args['path'])
    position = await language.position(document, args['line'], args['column'], args['symbol'])
    call.progress(0, None, 'Finding references')
    locations = await language.references(document, position)
    where = args['path'] + ':' + str(position.line + 1) + ':' + str(position.character + 1)
    if len(locations) == 0:
        return text_and_data('No references found for the symbol at ' + where + '.', {'references': [], 'total': 0})
    limit = args['max_results']
    shown = locations[:limit]
    await language.previews(shown, limit)
    files = []
    for location in locations:
        if location['path'] not in files:
            files.append(location['path'])
    lines = [str(len(locations)) + ' references in ' + str(len(files)) + ' files to the symbol at ' + where + ':']
    for location in shown:
        lines.append('  ' + location_line(location))
    if len(locations) > limit:
        lines.append('… (truncated: ' + str(len(locations) - limit) + ' more references; raise max_results)')
    return text_and_data('\n'.join(lines), {'references': [plain_location(location) for location in shown],
                                            'total': len(locations)})


TOOL = Tool(
    'lsp_references',
    'Find all references to the symbol at a position across the workspace (including its declaration), '
    'through VS Code\'s language extensions. Position: 1-based line and column, or the symbol name. Returns '
    'file:line:column with each line\'s text.',
    position_schema({'max_results': {'type': 'integer', 'minimum': 1, 'maximum': 2000, 'default': 100}}),
    find_references,
    title='Find references',
)
