# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import FileReadArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool
from hermes.core.text_window import line_window, render_window
from hermes.core.changes.authors import note_read
from hermes.tools.file_parts import read_file_text


async def read_file(args: 'FileReadArgs', call: 'CallContext') -> 'ToolReturn':
    paths = call.services.paths
    path = paths.resolve_path(args['path'])
    content = await read_file_text(call.services.files, path)
    note_read(call, path)  # an edit of another agent's pending change needs a read first (host/changes/log.py)
    window = line_window(content['text'], args['start_line'], args['end_line'])
    document = call.services.documents.open_document_for(path)
    extra = None
    if document is not None and document.isDirty:
        extra = '(on disk; the editor holds unsaved changes: editor_get_content shows them)'
    return render_window(paths.display_path(path), window, extra)


TOOL = Tool(
    'file_read',
    'Read a text file from disk (UTF-8). Returns a header line "<path> (lines a-b of n)" and then the lines. '
    'Up to 2000 lines / 100 000 characters per call: a longer file is cut with a note saying which start_line '
    'to continue with. Binary files are refused; files over 32 MB too (search them with file_search_content).',
    {'type': 'object', 'properties': {
        'path': {'type': 'string', 'description': 'File path, workspace-relative or absolute inside the workspace.'},
        'start_line': {'type': 'integer', 'minimum': 1, 'description': 'First line to return (1-based).'},
        'end_line': {'type': 'integer', 'minimum': 1, 'description': 'Last line to return (inclusive).'},
    }, 'required': ['path'], 'additionalProperties': False},
    read_file,
    title='Read file',
    essential=True,  # offered even when the model's context is too small for every tool
)
