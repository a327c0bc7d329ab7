# __pragma__('tconv')
from hermes.js.objects import is_none
from hermes.core.tools import Tool, ToolError
from hermes.core.output_text import cap_chars
from hermes.host.confinement import shows, shown_path, WITHHELD_EDITOR
from hermes.host.documents import active_editor, point

MAX_SELECTION_CHARS = 20000


async def get_selection(args, call):
    editor = active_editor()
    if is_none(editor):
        raise ToolError('No text editor is open, so there is no selection.')
    document = editor.document
    shown = shows(document.uri)  # as the resources: no text or path of what is not a workspace file
    selections = []
    for selection in editor.selections:
        item = {'start': point(selection.start), 'end': point(selection.end),
                'active': point(selection.active), 'isEmpty': selection.isEmpty}
        if shown:
            item['text'] = cap_chars(document.getText(selection), MAX_SELECTION_CHARS)
        selections.append(item)
    if not shown:
        return {'path': None, 'withheld': WITHHELD_EDITOR, 'languageId': document.languageId,
                'isDirty': document.isDirty, 'selections': selections}
    return {
        'path': shown_path(document.uri),
        'languageId': document.languageId,
        'isDirty': document.isDirty,
        'selections': selections,
    }


TOOL = Tool(
    'editor_get_selection',
    'The text the user has selected in the active editor (every selection when there are several cursors), '
    'with 1-based start/end line and column, the cursor position, the file path and language. An empty '
    'selection still tells where the cursor is.',
    {'type': 'object', 'properties': {}, 'additionalProperties': False},
    get_selection,
    title='Get editor selection',
)
