# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import EditorGetContentArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool, ToolError
from hermes.core.text_window import line_window, render_window
from hermes.core.changes.authors import note_read
from hermes.tools.editor_parts import WITHHELD_EDITOR
from hermes.tools.file_parts import read_file_text


async def get_content(args: 'EditorGetContentArgs', call: 'CallContext') -> 'ToolReturn':
    documents = call.services.documents
    path = ''  # (read only when the call named a file)
    path_text = args['path']
    if path_text is None:
        editor = documents.active_editor()
        if editor is None:
            raise ToolError('No editor is open. Pass a path, or open a file first (editor_open_file).')
        document = editor.document
        label = documents.shown_path_of(document)
        if label is None:  # as the resources: not a workspace file (host/confinement.py)
            return WITHHELD_EDITOR
    else:
        paths = call.services.paths
        path = paths.resolve_path(path_text)
        label = paths.display_path(path)
        document = documents.open_document_for(path)
    if document is None:
        on_disk = await read_file_text(call.services.files, path)  # not open in an editor: what is on disk is what there is
        text = on_disk['text']
        extra = '(not open in an editor)'
    else:
        text = document.getText()
        extra = ('(' + document.languageId + ', unsaved changes included)' if document.isDirty else
                 '(' + document.languageId + ', no unsaved changes)')
    read = path if document is None else documents.file_path_of(document)  # a file's, not another document's
    if read is not None:
        note_read(call, read)  # see host/changes/log.py edit_refusal
    window = line_window(text, args['start_line'], args['end_line'])
    return render_window(label, window, extra)


TOOL = Tool(
    'editor_get_content',
    'Read the text of a file as the editor holds it, unsaved changes included (file_read reads the disk). '
    'Without a path: the active editor. Returns a header line "<path> (lines a-b of n) …" and then the lines; '
    'long files are cut with a note telling which start_line to continue with.',
    {'type': 'object', 'properties': {
        'path': {'type': 'string', 'description': 'File path (workspace-relative or absolute); default: the active '
                                                  'editor.'},
        'start_line': {'type': 'integer', 'minimum': 1, 'description': 'First line to return (1-based).'},
        'end_line': {'type': 'integer', 'minimum': 1, 'description': 'Last line to return (inclusive).'},
    }, 'additionalProperties': False},
    get_content,
    title='Get editor content',
    essential=True,  # offered even when the model's context is too small for every tool
)
