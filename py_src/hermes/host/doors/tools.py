"""The tools terminal CLIs call through their doors (docs/DOORS.md), under the names, arguments and answers the CLIs
expect — an interface they rely on: keep it exact.

Claude Code (net/doors/ide_socket.py): openFile, openDiff (blocks until the user decides: `FILE_SAVED` + the text the
user kept, or `DIFF_REJECTED`), close_tab, closeAllDiffTabs, getDiagnostics, getCurrentSelection,
getLatestSelection, getOpenEditors, getWorkspaceFolders, checkDocumentDirty, saveDocument.
Gemini CLI / Qwen Code (net/mcp/http.py): openDiff (answered at once; the decision follows as the notification
`ide/diffAccepted` / `ide/diffRejected`) and closeDiff.

Every proposal is reviewed by Hermes (`proposals`, host/doors/proposals.py): hunk by hunk in the file's own editor, recorded
in the change log under the CLI's name. Paths are confined as for every tool (host/paths.py): a proposal outside the
workspace is refused; `openFile` of an outside file asks first (the gate); saving asks as any write does; what the
answers name outside the workspace is withheld, as the MCP tools withhold it (host/confinement.py).
"""
# __pragma__('tconv')
from hermes.js.errors import JsError
from hermes.js.json import dump_json
from hermes.js.modules import vscode
from hermes.js.objects import new
from hermes.js.promises import spawn
from hermes.core.tools import Tool, ToolError, ToolRegistry, text_result
from hermes.core.values import get_key
from hermes.host.confinement import shows
from hermes.host.diagnostics import collect
from hermes.host.documents import open_document_for, show_document
from hermes.host.paths import resolve_path, display_path, in_workspace
from hermes.host.workspace import disk_folders
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Dict, List, Optional
from hermes.contracts.json import Json, JsonObject
from hermes.contracts.mcp import ToolArguments, ToolReturn
from hermes.contracts.services import Approval, CallContext
from hermes.host.doors.proposals import Proposals
if TYPE_CHECKING:
    from vscode import TextEditor
# __pragma__('noskip')

FILE_SAVED = 'FILE_SAVED'
DIFF_REJECTED = 'DIFF_REJECTED'


def _path_schema(description: str) -> 'JsonObject':
    return {'type': 'string', 'description': description}


def _object(properties: 'JsonObject', required: 'Optional[List[str]]' = None) -> 'JsonObject':
    schema = {'type': 'object', 'properties': properties, 'additionalProperties': False}  # type: JsonObject
    if required is not None:
        schema['required'] = required
    return schema


def json_text(value: 'Json') -> 'ToolReturn':
    """Claude Code's tools answer JSON inside one text item."""
    return text_result(dump_json(value))


def selection_of(editor: 'Optional[TextEditor]') -> 'Optional[JsonObject]':
    """What Claude Code calls a selection: {success, text, filePath, fileUrl, selection: {start, end, isEmpty}}
    (0-based lines and characters), or None for an editor that shows nothing we may name."""
    if editor is None or not shows(editor.document.uri) or editor.document.uri.scheme != 'file':
        return None
    selection = editor.selection
    return {'success': True, 'text': editor.document.getText(selection), 'filePath': editor.document.uri.fsPath,
            'fileUrl': editor.document.uri.toString(),
            'selection': {'start': {'line': selection.start.line, 'character': selection.start.character},
                          'end': {'line': selection.end.line, 'character': selection.end.character},
                          'isEmpty': selection.isEmpty}}


def proposal_path(path_text: 'Optional[str]') -> str:
    """The absolute path a proposal names, confined; the CLI reads the refusal as its tool's error."""
    if path_text is None or path_text == '':
        raise ToolError('The proposal names no file.')
    try:
        return resolve_path(path_text)
    except ToolError:
        raise ToolError('Hermes refused this change: "' + path_text + '" is outside the workspace of this VS Code '
                        'window. Only files inside its folders can be changed through the IDE.')


class DoorTools:
    """The tools of one door connection. `door`: the connection's own facts — `author(turn)` (its change-log
    author), `notify(method, params)` (a notification to this CLI), `latest_selection()`; `proposals`: the review
    (host/doors/proposals.py Proposals); `approver`: the window's gate (host/approval.py)."""

    def __init__(self, door: Any, proposals: 'Proposals', approver: 'Optional[Approval]') -> None:
        self.door = door
        self.proposals = proposals
        self.approver = approver
        self._count = 0

    # --------------------------------------------------------------------------------- Claude Code

    def claude_registry(self) -> 'ToolRegistry':
        registry = ToolRegistry(self.approver)
        for tool in [
            Tool('openFile', 'Open a file in the editor and optionally select a range of text.',
                 _object({'filePath': _path_schema('Path to the file to open'),
                          'preview': {'type': 'boolean', 'default': False},
                          'startText': {'type': 'string'}, 'endText': {'type': 'string'},
                          'selectToEndOfLine': {'type': 'boolean', 'default': False},
                          'makeFrontmost': {'type': 'boolean', 'default': True}}, ['filePath']),
                 self.open_file),
            Tool('openDiff', 'Open a diff of a proposed change and wait until the user keeps or rejects it.',
                 _object({'old_file_path': _path_schema('The file as it is'),
                          'new_file_path': _path_schema('The file the change is for'),
                          'new_file_contents': {'type': 'string'}, 'tab_name': {'type': 'string'}},
                         ['new_file_path', 'new_file_contents']),
                 self.claude_open_diff),
            Tool('close_tab', 'Close a tab by name.', _object({'tab_name': {'type': 'string'}}, ['tab_name']),
                 self.close_tab),
            Tool('closeAllDiffTabs', 'Close every diff tab this agent opened.', _object({}), self.close_all_diffs),
            Tool('getDiagnostics', 'Language diagnostics (problems) of one file, or of every file.',
                 _object({'uri': {'type': 'string', 'description': 'A file URI; none for every file'}}),
                 self.get_diagnostics),
            Tool('getCurrentSelection', 'The selection in the active editor.', _object({}), self.current_selection),
            Tool('getLatestSelection', 'The most recent selection, even when its editor is no longer active.',
                 _object({}), self.latest_selection),
            Tool('getOpenEditors', 'The open editor tabs.', _object({}), self.open_editors),
            Tool('getWorkspaceFolders', 'The workspace folders of this window.', _object({}),
                 self.workspace_folders),
            Tool('checkDocumentDirty', 'Whether a document has unsaved changes.',
                 _object({'filePath': _path_schema('Path to the file')}, ['filePath']), self.check_dirty),
            Tool('saveDocument', 'Save a document with unsaved changes.',
                 _object({'filePath': _path_schema('Path to the file')}, ['filePath']), self.save_document,
                 read_only=False, destructive=True),
        ]:
            registry.add(tool)
        return registry

    async def open_file(self, args: 'ToolArguments', call: 'CallContext') -> 'ToolReturn':
        path_text = get_key(args, 'filePath')
        try:
            path = resolve_path(path_text)
        except ToolError:
            path = _absolute(path_text)
            refusal = await call.confirm('openFile', 'open ' + path + ', outside the workspace', {'filePath': path})
            if refusal is not None:
                raise ToolError(refusal)
        shown = display_path(path)
        editor = await show_document(path, shown, None, None, None, None, get_key(args, 'preview'),
                                     not get_key(args, 'makeFrontmost'))
        document = editor.document
        start_text = get_key(args, 'startText')
        if start_text is not None and start_text != '':
            _select_between(editor, start_text, get_key(args, 'endText'), get_key(args, 'selectToEndOfLine'))
        if get_key(args, 'makeFrontmost'):
            return 'Opened file: ' + path
        return json_text({'success': True, 'filePath': path, 'languageId': document.languageId,
                          'lineCount': document.lineCount})

    async def claude_open_diff(self, args: 'ToolArguments', call: 'CallContext') -> 'ToolReturn':
        path = proposal_path(get_key(args, 'new_file_path') or get_key(args, 'old_file_path'))
        title = get_key(args, 'tab_name') or ('Proposed changes: ' + display_path(path))
        decision = await self.proposals.propose(path, get_key(args, 'new_file_contents'), self._next_author(),
                                                title, call)
        if decision['outcome'] == 'accepted':
            self.door.accepted(path, decision['text'])
            return {'content': [{'type': 'text', 'text': FILE_SAVED}, {'type': 'text', 'text': decision['text']}]}
        return {'content': [{'type': 'text', 'text': DIFF_REJECTED}, {'type': 'text', 'text': title}]}

    async def close_tab(self, args: 'ToolArguments', call: 'CallContext') -> 'ToolReturn':
        title = get_key(args, 'tab_name')
        self.proposals.close(None, title)
        return 'TAB_CLOSED'

    async def close_all_diffs(self, args: 'ToolArguments', call: 'CallContext') -> 'ToolReturn':
        ended = self.proposals.cancel_where({'client': self.door.client, 'session': self.door.session}, 'rejected')
        return 'CLOSED_' + str(ended) + '_DIFF_TABS'

    async def get_diagnostics(self, args: 'ToolArguments', call: 'CallContext') -> 'ToolReturn':
        uri_text = get_key(args, 'uri')
        path = None  # type: Optional[str]
        if uri_text is not None and uri_text != '':
            path = _path_of_uri(uri_text)
            if path is None or not in_workspace(path):
                return json_text([])
            self.door.about_to_write(path)  # Claude Code asks just before it writes the file (host/doors/watch.py)
        else:
            self.door.writes_done()  # and for every file's right after the write
        by_file = {}  # type: Dict[str, JsonObject]
        order = []  # type: List[str]
        for item in collect(path):
            key = 'k:' + item['path']
            if not shows(vscode.Uri.file(item['path'])):
                continue
            if key not in by_file:
                by_file[key] = {'uri': vscode.Uri.file(item['path']).toString(), 'diagnostics': []}
                order.append(key)
            by_file[key]['diagnostics'].append({
                'message': item['message'], 'severity': item['severity'].capitalize(),
                'range': {'start': {'line': item['line'] - 1, 'character': item['column'] - 1},
                          'end': {'line': item['endLine'] - 1, 'character': item['endColumn'] - 1}},
                'source': item['source']})
        return json_text([by_file[key] for key in order])

    async def current_selection(self, args: 'ToolArguments', call: 'CallContext') -> 'ToolReturn':
        found = selection_of(vscode.window.activeTextEditor)
        return json_text(found if found is not None else {'success': False, 'message': 'No active editor found'})

    async def latest_selection(self, args: 'ToolArguments', call: 'CallContext') -> 'ToolReturn':
        found = self.door.latest_selection()
        return json_text(found if found is not None else {'success': False, 'message': 'No selection available'})

    async def open_editors(self, args: 'ToolArguments', call: 'CallContext') -> 'ToolReturn':
        tabs = []  # type: List[JsonObject]
        for group in vscode.window.tabGroups.all:
            for tab in group.tabs:
                uri = None if tab.input is None else tab.input.uri
                if uri is None or uri.scheme != 'file' or not shows(uri):
                    continue
                document = open_document_for(uri.fsPath)
                tabs.append({'uri': uri.toString(), 'isActive': tab.isActive and group.isActive, 'label': tab.label,
                             'languageId': None if document is None else document.languageId,
                             'isDirty': tab.isDirty})
        return json_text({'tabs': tabs})

    async def workspace_folders(self, args: 'ToolArguments', call: 'CallContext') -> 'ToolReturn':
        folders = [{'name': folder['name'], 'uri': vscode.Uri.file(folder['path']).toString(),
                    'path': folder['path']} for folder in disk_folders()]
        return json_text({'success': True, 'folders': folders,
                          'rootPath': folders[0]['path'] if len(folders) > 0 else None})

    async def check_dirty(self, args: 'ToolArguments', call: 'CallContext') -> 'ToolReturn':
        found = self._open_document(get_key(args, 'filePath'))
        if found['document'] is None:
            return json_text({'success': False, 'message': 'Document not open: ' + found['path']})
        return json_text({'success': True, 'filePath': found['path'], 'isDirty': found['document'].isDirty,
                          'isUntitled': found['document'].isUntitled})

    async def save_document(self, args: 'ToolArguments', call: 'CallContext') -> 'ToolReturn':
        found = self._open_document(get_key(args, 'filePath'))
        if found['document'] is None:
            return json_text({'success': False, 'message': 'Document not open: ' + found['path']})
        saved = await found['document'].save()
        return json_text({'success': saved, 'filePath': found['path'], 'saved': saved,
                          'message': 'Document saved successfully' if saved else 'Document could not be saved'})

    def _open_document(self, path_text: str) -> 'JsonObject':
        path = resolve_path(path_text)  # a ToolError outside the workspace: answered as the tool's error
        return {'path': path, 'document': open_document_for(path)}

    # --------------------------------------------------------------------------------- Gemini CLI

    def gemini_registry(self) -> 'ToolRegistry':
        registry = ToolRegistry(self.approver)
        registry.add(Tool('openDiff', 'Show a proposed change to a file for review; the decision arrives later as '
                                      'ide/diffAccepted or ide/diffRejected.',
                          _object({'filePath': _path_schema('The file the change is for'),
                                   'newContent': {'type': 'string'}}, ['filePath', 'newContent']),
                          self.gemini_open_diff))
        registry.add(Tool('closeDiff', 'Close the review of a file; answers the text it holds.',
                          _object({'filePath': _path_schema('The file'),
                                   'suppressNotification': {'type': 'boolean', 'default': False}}, ['filePath']),
                          self.gemini_close_diff))
        return registry

    async def gemini_open_diff(self, args: 'ToolArguments', call: 'CallContext') -> 'ToolReturn':
        path = proposal_path(get_key(args, 'filePath'))
        requested = get_key(args, 'filePath')
        decision = self.proposals.propose(path, get_key(args, 'newContent'), self._next_author(),
                                          'Proposed changes: ' + display_path(path), None)
        spawn(self._tell_gemini(requested, decision))
        return {'content': []}

    async def _tell_gemini(self, requested: str, decision: Any) -> None:
        try:
            outcome = await decision
        except JsError as error:
            self.door.notify('ide/diffRejected', {'filePath': requested})
            raise error
        if outcome['outcome'] == 'accepted':
            self.door.accepted(proposal_path(requested), outcome['text'])
            self.door.notify('ide/diffAccepted', {'filePath': requested, 'content': outcome['text']})
        elif outcome['outcome'] == 'rejected':
            self.door.notify('ide/diffRejected', {'filePath': requested})
        # 'cancelled': the CLI closed it (closeDiff) or went away; it is not told what it asked for itself

    async def gemini_close_diff(self, args: 'ToolArguments', call: 'CallContext') -> 'ToolReturn':
        path = proposal_path(get_key(args, 'filePath'))
        text = self.proposals.close(path, None, 'cancelled')
        return json_text({'content': text})

    def _next_author(self) -> 'JsonObject':
        self._count += 1
        return self.door.author('proposal-' + str(self._count))


def _absolute(path_text: 'Optional[str]') -> str:
    from_uri = _path_of_uri(path_text) if path_text is not None and path_text.startswith('file:') else None
    return from_uri if from_uri is not None else str(path_text)


def _path_of_uri(uri_text: str) -> 'Optional[str]':
    try:
        uri = vscode.Uri.parse(uri_text)
    except JsError:
        return None
    return uri.fsPath if uri.scheme == 'file' else None  # (confined by the caller)


def _select_between(editor: 'TextEditor', start_text: str, end_text: 'Optional[str]', to_end_of_line: bool) -> None:
    """Select in `editor` from the first `start_text` to the next `end_text` (or the end of that line), as Claude Code
    asks."""
    document = editor.document
    text = document.getText()
    start = text.find(start_text)
    if start < 0:
        return
    end = start + len(start_text)
    if end_text is not None and end_text != '':
        found = text.find(end_text, end)
        if found >= 0:
            end = found + len(end_text)
    end_position = document.positionAt(end)
    if to_end_of_line:
        end_position = document.lineAt(end_position.line).range.end
    editor.selection = new(vscode.Selection, document.positionAt(start), end_position)
    editor.revealRange(editor.selection)
