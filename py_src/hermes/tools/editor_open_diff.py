# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.json import JsonObject
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import EditorOpenDiffArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool, ToolError
from hermes.core.text_edits import plan_edits, apply_planned
from hermes.tools.editor_parts import EDIT_SCHEMA
from hermes.tools.file_parts import read_file_text, write_file_text

DEFAULT_TIMEOUT_SECONDS = 600


async def current_text(path: str, call: 'CallContext') -> str:
    document = call.services.documents.open_document_for(path)
    if document is not None:
        return document.getText()
    on_disk = await read_file_text(call.services.files, path)
    return on_disk['text']


async def open_diff(args: 'EditorOpenDiffArgs', call: 'CallContext') -> 'ToolReturn':
    paths = call.services.paths
    path = paths.resolve_path(args['path'])
    shown = paths.display_path(path)
    reviews = call.services.reviews
    info = await call.services.files.stat(path)
    exists = info is not None
    if info is not None and info['kind'] != 'file':
        raise ToolError('"' + shown + '" is a ' + info['kind'] + ', not a file.')
    new_content, edits = args['new_content'], args['edits']
    if (new_content is None) == (edits is None):
        raise ToolError('Give exactly one of new_content (the whole proposed file) or edits (changes to it).')
    original = await current_text(path, call) if exists else ''
    if new_content is not None:
        proposed = new_content
    elif edits is not None:  # (one of the two: checked above)
        if not exists:
            raise ToolError('"' + shown + '" does not exist; propose a new file with new_content.')
        proposed = apply_planned(original, plan_edits(original, edits, shown))
    if proposed == original:
        raise ToolError('The proposed content is the same as the current content of "' + shown + '".')
    title = args['title'] or (shown + ' ↔ proposed by Hermes')
    timeout = args['timeout_seconds']
    call.log('notice', 'Waiting for the user to accept or reject the change to ' + shown)
    decision = await reviews.review(path, exists, proposed, title, timeout * 1000, call)
    result = {'decision': decision, 'path': shown, 'applied': False}  # type: JsonObject
    if decision == 'accepted':
        await apply(path, shown, exists, proposed, call)
        result['applied'] = True
        result['message'] = 'The user accepted the change; it is applied to ' + shown + ' and saved.'
    elif decision == 'rejected':
        result['message'] = 'The user rejected the change; ' + shown + ' is unchanged.'
    elif decision == 'timeout':
        result['message'] = ('No answer within ' + str(timeout) + ' s; the diff was closed and ' + shown +
                             ' is unchanged.')
    else:
        result['message'] = 'The review was cancelled; ' + shown + ' is unchanged.'
    return result


async def apply(path: str, shown: str, exists: bool, proposed: str, call: 'CallContext') -> None:
    if not exists:
        await write_file_text(call.services.files, path, proposed)
        return
    documents = call.services.documents
    document = await documents.load_document(path, shown)
    await documents.replace_text(document, [{'start': 0, 'end': len(document.getText()), 'text': proposed}], shown)
    await documents.save_document(document, shown)


TOOL = Tool(
    'editor_open_diff',
    'Propose a change to a file and let the user decide: VS Code shows the current file and the proposal side '
    'by side in its diff view, and the user accepts (✓) or rejects (✗) it there. Waits for the answer and '
    'returns decision "accepted" (the change is then applied and saved), "rejected", "timeout" or "cancelled". '
    'Give the whole new file as new_content, or edits in the form editor_edit_file takes. A new file can be '
    'proposed with new_content.',
    {'type': 'object', 'properties': {
        'path': {'type': 'string', 'description': 'File path, workspace-relative or absolute inside the workspace.'},
        'new_content': {'type': 'string', 'description': 'The complete proposed file content.'},
        'edits': {'type': 'array', 'items': EDIT_SCHEMA, 'minItems': 1,
                  'description': 'Instead of new_content: changes to the current text (see editor_edit_file).'},
        'title': {'type': 'string', 'description': 'Title of the diff tab.'},
        'timeout_seconds': {'type': 'number', 'minimum': 1, 'maximum': 3600, 'default': DEFAULT_TIMEOUT_SECONDS,
                            'description': 'How long to wait for the user.'},
    }, 'required': ['path'], 'additionalProperties': False},
    open_diff,
    title='Propose a change in a diff view',
    read_only=False,
)
