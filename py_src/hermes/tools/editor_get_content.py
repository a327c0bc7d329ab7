# __pragma__('tconv')
from hermes.js.objects import is_none
from hermes.core.tools import Tool, ToolError
from hermes.core.values import get_key
from hermes.core.text_window import line_window, render_window
from hermes.host.paths import resolve_path, display_path
from hermes.host.confinement import shows, shown_path, WITHHELD_EDITOR
from hermes.host.documents import open_document_for, active_editor
from hermes.host.files import read_text
from hermes.core.change_authors import note_read


async def get_content(args, call):
    path_text = get_key(args, 'path')
    if is_none(path_text):
        editor = active_editor()
        if is_none(editor):
            raise ToolError('No editor is open. Pass a path, or open a file first (editor_open_file).')
        document = editor.document
        if not shows(document.uri):  # as the resources: not a workspace file (host/confinement.py)
            return WITHHELD_EDITOR
        label = shown_path(document.uri)
    else:
        path = resolve_path(path_text)
        label = display_path(path)
        document = open_document_for(path)
    if is_none(document):
        on_disk = await read_text(path)  # not open in an editor: what is on disk is what there is
        text = on_disk['text']
        extra = '(not open in an editor)'
    else:
        text = document.getText()
        extra = ('(' + document.languageId + ', unsaved changes included)' if document.isDirty else
                 '(' + document.languageId + ', no unsaved changes)')
    if is_none(document) or document.uri.scheme == 'file':
        note_read(call, path if is_none(document) else document.uri.fsPath)  # see host/change_log.py edit_refusal
    window = line_window(text, get_key(args, 'start_line'), get_key(args, 'end_line'))
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
