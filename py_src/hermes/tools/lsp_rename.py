# __pragma__('tconv')
# __pragma__('skip')
from typing import List
from hermes.contracts.json import JsonObject
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import LspRenameArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool, ToolError
from hermes.core.output_text import text_and_data
from hermes.tools.lsp_parts import position_schema


async def rename(args: 'LspRenameArgs', call: 'CallContext') -> 'ToolReturn':
    language = call.services.language
    path, document = await language.open(args['path'])
    position = await language.position(document, args['line'], args['column'], args['symbol'])
    new_name = args['new_name']
    edit = await language.rename_edit(document, position, new_name)
    files = []  # type: List[JsonObject]
    count = 0
    outside = 0
    for entry in language.edited_files(edit):
        if entry['path'] is None:  # a rename must not reach outside the workspace, nor say where that is
            outside = outside + 1
            continue
        files.append({'path': entry['path'], 'edits': entry['edits']})
        count = count + entry['edits']
    if outside > 0:
        raise ToolError('The rename would also change ' + str(outside) + (' file' if outside == 1 else ' files') +
                        ' outside the workspace, so nothing was changed.')
    if count == 0:
        raise ToolError('The rename changes nothing.')
    saved = args['save']
    if not await language.apply(edit, saved, call):
        raise ToolError('VS Code refused to apply the rename (a file may have changed meanwhile); nothing was changed.')
    listed = ', '.join([item['path'] + ' (' + str(item['edits']) + ')' for item in files])
    text = ('Renamed to "' + new_name + '": ' + str(count) + ' edits in ' + str(len(files)) + ' files: ' + listed +
            ('. Saved.' if saved else '. Not saved: the files are modified in their editors (undo with Ctrl+Z).'))
    return text_and_data(text, {'newName': new_name, 'edits': count, 'files': files, 'saved': saved})


TOOL = Tool(
    'lsp_rename',
    'Rename a symbol everywhere it is used (all files), like F2 in VS Code, through its language extensions; '
    'the edit is applied as one undoable workspace edit and, by default, the changed files are saved. '
    'Position: 1-based line and column, or the current symbol name.',
    position_schema({
        'new_name': {'type': 'string', 'minLength': 1, 'description': 'The new name.'},
        'save': {'type': 'boolean', 'default': True, 'description': 'Save the changed files.'},
    }, ['new_name']),
    rename,
    title='Rename symbol',
    read_only=False,
    destructive=True,
)
