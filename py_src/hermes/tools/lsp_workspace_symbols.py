# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import LspWorkspaceSymbolsArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool
from hermes.core.output_text import text_and_data
from hermes.tools.lsp_parts import plain_location, location_line


async def search_symbols(args: 'LspWorkspaceSymbolsArgs', call: 'CallContext') -> 'ToolReturn':
    query = args['query']
    call.progress(0, None, 'Searching symbols')
    found = await call.services.language.workspace_symbols(query)
    limit = args['max_results']
    results = []
    for symbol in found[:limit]:
        entry = plain_location(symbol['location'])
        entry['name'] = symbol['name']
        entry['kind'] = symbol['kind']
        entry['container'] = symbol['container']
        results.append(entry)
    if len(results) == 0:
        return text_and_data('No symbols match "' + query + '" (language extensions index files once they have '
                             'opened one of their kind).', {'symbols': [], 'total': 0})
    lines = [str(len(found)) + ' symbols match "' + query + '":']
    for entry in results:
        container = ' in ' + entry['container'] if entry['container'] else ''
        lines.append('  ' + entry['kind'] + ' ' + entry['name'] + container + '  ' + location_line(entry))
    if len(found) > limit:
        lines.append('… (truncated: ' + str(len(found) - limit) + ' more; refine the query or raise max_results)')
    return text_and_data('\n'.join(lines), {'symbols': results, 'total': len(found)})


TOOL = Tool(
    'lsp_workspace_symbols',
    'Search the symbols (classes, functions, variables...) of the whole workspace by name, like VS Code\'s '
    '"Go to Symbol in Workspace" (fuzzy match), through its language extensions. Returns kind, name, container '
    'and file:line:column.',
    {'type': 'object', 'properties': {
        'query': {'type': 'string', 'minLength': 1, 'description': 'Name or part of a name.'},
        'max_results': {'type': 'integer', 'minimum': 1, 'maximum': 2000, 'default': 100},
    }, 'required': ['query'], 'additionalProperties': False},
    search_symbols,
    title='Workspace symbols',
)
