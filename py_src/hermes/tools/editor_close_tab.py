# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import EditorCloseTabArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool, ToolError


async def close_tab(args: 'EditorCloseTabArgs', call: 'CallContext') -> 'ToolReturn':
    paths = call.services.paths
    path = paths.resolve_path(args['path'])
    shown = paths.display_path(path)
    tabs = call.services.tabs.showing(path)
    if len(tabs) == 0:
        raise ToolError('No open tab shows "' + shown + '". editor_get_open_tabs lists the open tabs.')
    documents = call.services.documents
    document = documents.open_document_for(path)
    if document is not None and document.isDirty:
        if args['save'] is not True:
            raise ToolError('"' + shown + '" has unsaved changes. Pass save: true to save them and close, or ask '
                            'the user what to do with them.')
        refusal = await call.confirm('editor_close_tab', 'Save ' + shown + ' and close it',
                                     {'path': shown, 'save': True, 'what': 'writes the unsaved changes of ' + shown +
                                      ' to disk'})
        if refusal is not None:
            raise ToolError(refusal)
        await documents.save_document(document, shown)
    await call.services.tabs.close(tabs)
    return 'Closed ' + str(len(tabs)) + ' tab' + ('' if len(tabs) == 1 else 's') + ' showing ' + shown + '.'


TOOL = Tool(
    'editor_close_tab',
    'Close the editor tab(s) showing a file (in every editor group, diff views of it included). A file with '
    'unsaved changes is not closed unless save is true (then it is saved first); unsaved work is never '
    'discarded.',
    {'type': 'object', 'properties': {
        'path': {'type': 'string', 'description': 'File path, workspace-relative or absolute inside the workspace.'},
        'save': {'type': 'boolean', 'description': 'Save unsaved changes before closing (default false: refuse).'},
    }, 'required': ['path'], 'additionalProperties': False},
    close_tab,
    title='Close editor tab',
    read_only=False,
)
