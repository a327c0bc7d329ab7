# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import EditorEditFileArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool
from hermes.core.text_edits import plan_edits, describe_change
from hermes.core.text_window import count_lines
from hermes.core.changes.edit_scopes import in_edit_scope
from hermes.tools.editor_parts import EDIT_SCHEMA


async def edit_file(args: 'EditorEditFileArgs', call: 'CallContext') -> 'ToolReturn':
    paths, documents = call.services.paths, call.services.documents
    path = paths.resolve_path(args['path'])
    shown = paths.display_path(path)
    document = await documents.load_document(path, shown)
    had_unsaved = document.isDirty
    text = document.getText()
    planned = plan_edits(text, args['edits'], shown)
    where = describe_change(text, planned)
    save = args['save']
    if save is None:
        save = not had_unsaved  # never save the user's own unsaved work along with ours
    if save and not had_unsaved:
        # VS Code's chat editing may track this edit (it saves the file as it starts, so never a file holding
        # the user's unsaved work): the edit and its save inside the turn's edit scope
        async def edit_and_save() -> None:
            await documents.replace_text(document, planned, shown, call)
            await documents.save_document(document, shown)
        await in_edit_scope(call, [path], edit_and_save)
    else:
        await documents.replace_text(document, planned, shown, call)
        if save:
            await documents.save_document(document, shown)
    if save:
        state = 'saved'
    else:
        state = 'not saved (the editor had unsaved changes)' if had_unsaved else 'not saved'
    return ('Edited ' + shown + ': ' + str(len(planned)) + ' replacement' + ('' if len(planned) == 1 else 's') +
            ' at line ' + where + ' of the original; ' + state + '. It now has ' +
            str(count_lines(document.getText())) + ' lines. Undo is available in the editor.')


TOOL = Tool(
    'editor_edit_file',
    'Change part of a file through VS Code (undoable; works on the editor text, unsaved changes included). '
    'Each edit is either {old_text, new_text} — old_text must match the current text exactly and occur once '
    '(else the error says how often and where; add context or set replace_all) — or {start_line, end_line, '
    'new_text} replacing whole lines. All edits refer to the text before any of them. Saves the file unless '
    'the editor held unsaved changes (or save is given).',
    {'type': 'object', 'properties': {
        'path': {'type': 'string', 'description': 'File path, workspace-relative or absolute inside the workspace.'},
        'edits': {'type': 'array', 'items': EDIT_SCHEMA, 'minItems': 1, 'description': 'The changes.'},
        'save': {'type': 'boolean', 'description': 'Save after editing (default: yes, unless the file already '
                                                   'had unsaved changes).'},
    }, 'required': ['path', 'edits'], 'additionalProperties': False},
    edit_file,
    title='Edit file',
    read_only=False,
    destructive=True,
    essential=True,  # offered even when the model's context is too small for every tool
)
