# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import LspHoverArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool
from hermes.core.output_text import text_and_data, cap_head
from hermes.tools.lsp_parts import position_schema


async def hover(args: 'LspHoverArgs', call: 'CallContext') -> 'ToolReturn':
    language = call.services.language
    path, document = await language.open(args['path'])
    position = await language.position(document, args['line'], args['column'], args['symbol'])
    text = await language.hover(document, position)
    where = args['path'] + ':' + str(position.line + 1) + ':' + str(position.character + 1)
    if text == '':
        return text_and_data('No hover information at ' + where + '.', {'hover': ''})
    return text_and_data(cap_head(text, 20000), {'hover': cap_head(text, 20000), 'line': position.line + 1,
                                                 'column': position.character + 1})


TOOL = Tool(
    'lsp_hover',
    'What VS Code shows when hovering a symbol: its type or signature and documentation, from the language '
    'extensions. Position: 1-based line and column, or the symbol name.',
    position_schema(),
    hover,
    title='Hover information',
)
