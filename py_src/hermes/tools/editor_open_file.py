# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import EditorOpenFileArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool
from hermes.core.text_window import count_lines
from hermes.core.editor_terms import point


async def open_file(args: 'EditorOpenFileArgs', call: 'CallContext') -> 'ToolReturn':
    paths = call.services.paths
    path = paths.resolve_path(args['path'])
    shown = paths.display_path(path)
    line = args['line']
    editor = await call.services.documents.show_document(path, shown, line, args['column'],
                                                         args['end_line'], args['end_column'],
                                                         args['preview'])
    document = editor.document
    where = ''
    if line:
        where = ' at line ' + str(point(editor.selection.active)['line'])
    return ('Opened ' + shown + where + ' in the editor (' + str(count_lines(document.getText())) + ' lines, ' +
            document.languageId + (', unsaved changes' if document.isDirty else '') + ').')


TOOL = Tool(
    'editor_open_file',
    'Open a file in a VS Code editor tab and focus it, optionally placing the cursor at a line/column or '
    'selecting a range (lines and columns start at 1). Use it to show the user a place in the code.',
    {'type': 'object', 'properties': {
        'path': {'type': 'string', 'description': 'File path, relative to the workspace folder or absolute inside it.'},
        'line': {'type': 'integer', 'minimum': 1, 'description': 'Line to reveal and put the cursor on.'},
        'column': {'type': 'integer', 'minimum': 1, 'description': 'Column on that line (default 1).'},
        'end_line': {'type': 'integer', 'minimum': 1, 'description': 'With line: select up to this line.'},
        'end_column': {'type': 'integer', 'minimum': 1, 'description': 'With end_line: select up to this column '
                                                                         '(default: end of end_line).'},
        'preview': {'type': 'boolean', 'description': 'Open as a preview tab (replaced by the next preview); '
                                                      'default: the user\'s setting.'},
    }, 'required': ['path'], 'additionalProperties': False},
    open_file,
    title='Open file in editor',
    read_only=False,
)
