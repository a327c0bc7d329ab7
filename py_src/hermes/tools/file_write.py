# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import FileWriteArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool
from hermes.tools.file_parts import write_file_text


async def write_file(args: 'FileWriteArgs', call: 'CallContext') -> 'ToolReturn':
    paths = call.services.paths
    path = paths.resolve_path(args['path'])
    outcome = await write_file_text(call.services.files, path, args['content'], False, call)
    verb = 'Created' if outcome == 'created' else 'Replaced the content of'
    return verb + ' ' + paths.display_path(path) + ' (' + str(len(args['content'])) + ' characters).'


TOOL = Tool(
    'file_write',
    'Write a whole text file: replaces its content, or creates it (and missing folders). Goes through VS Code, '
    'so an open editor shows the new text and the change can be undone; a file whose editor holds unsaved '
    'changes is refused. To change part of a file use editor_edit_file.',
    {'type': 'object', 'properties': {
        'path': {'type': 'string', 'description': 'File path, workspace-relative or absolute inside the workspace.'},
        'content': {'type': 'string', 'description': 'The complete new content.'},
    }, 'required': ['path', 'content'], 'additionalProperties': False},
    write_file,
    title='Write file',
    read_only=False,
    destructive=True,
    essential=True,  # offered even when the model's context is too small for every tool
)
