# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.json import JsonObject
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import LspDocumentSymbolsArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool
from hermes.core.output_text import text_and_data, cap_list


def symbol_line(entry: 'JsonObject') -> str:
    place = (' (line ' + str(entry['line']) + ('' if entry['endLine'] == entry['line'] else '–' + str(entry['endLine'])) +
             ')') if 'line' in entry else ''
    detail = '  ' + entry['detail'] if entry['detail'] else ''
    return ''.join(['  ' for level in range(entry['depth'])]) + entry['kind'] + ' ' + entry['name'] + place + detail


async def list_symbols(args: 'LspDocumentSymbolsArgs', call: 'CallContext') -> 'ToolReturn':
    language = call.services.language
    path, document = await language.open(args['path'])
    entries = await language.outline(document)
    shown_path = call.services.paths.display_path(path)
    if len(entries) == 0:
        return text_and_data('No symbols in ' + shown_path + ' (no language extension provides an outline for it, '
                             'or the file declares nothing).', {'path': shown_path, 'symbols': []})
    shown, note = cap_list(entries, args['max_results'])
    lines = ['Symbols in ' + shown_path + ':']
    for entry in shown:
        lines.append(symbol_line(entry))
    if note is not None:
        lines.append(note)
    return text_and_data('\n'.join(lines), {'path': shown_path, 'symbols': shown})


TOOL = Tool(
    'lsp_document_symbols',
    'The outline of a file: its classes, functions, methods, variables... nested as declared, each with its kind '
    'and 1-based line range, from VS Code\'s language extensions.',
    {'type': 'object', 'properties': {
        'path': {'type': 'string', 'description': 'The file, workspace-relative.'},
        'max_results': {'type': 'integer', 'minimum': 1, 'maximum': 5000, 'default': 500},
    }, 'required': ['path'], 'additionalProperties': False},
    list_symbols,
    title='Document symbols',
)
