# __pragma__('tconv')
# __pragma__('skip')
from typing import List
from hermes.contracts.json import JsonObject
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import EditorGetSelectionArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool, ToolError
from hermes.core.output_text import cap_chars
from hermes.core.editor_terms import point
from hermes.tools.editor_parts import WITHHELD_EDITOR

MAX_SELECTION_CHARS = 20000


async def get_selection(args: 'EditorGetSelectionArgs', call: 'CallContext') -> 'ToolReturn':
    documents = call.services.documents
    editor = documents.active_editor()
    if editor is None:
        raise ToolError('No text editor is open, so there is no selection.')
    document = editor.document
    shown = documents.shown_path_of(document)  # None: withheld, as the resources withhold it (editor_parts)
    selections = []  # type: List[JsonObject]
    for selection in editor.selections:
        item = {'start': point(selection.start), 'end': point(selection.end),
                'active': point(selection.active), 'isEmpty': selection.isEmpty}
        if shown is not None:
            item['text'] = cap_chars(document.getText(selection), MAX_SELECTION_CHARS)
        selections.append(item)
    if shown is None:
        return {'path': None, 'withheld': WITHHELD_EDITOR, 'languageId': document.languageId,
                'isDirty': document.isDirty, 'selections': selections}
    return {
        'path': shown,
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
