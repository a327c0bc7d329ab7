"""Snapshots of what the user sees in the window, as plain dicts: the active editor, its selection,
the tabs by group, the problems by file, the workspace folders with their git state, a terminal's
recent output. The MCP resources (core/mcp/resources.py) serve them.

The text and the path of a file outside the workspace are withheld, as the tools refuse such paths
(unless the user allowed it with `hermes.tools.allowOutsideWorkspace`): an outside path alone tells a
remote model about the user's home folder and other projects."""
# __pragma__('tconv')
from hermes.js.errors import JsError
from hermes.js.modules import vscode
from hermes.core.tools import ToolError
from hermes.core.output_text import cap_tail
from hermes.host.confinement import shows, shown_path, OUTSIDE
from hermes.host.editors import tab_resource
from hermes.core.editor_terms import point
from hermes.host.documents import active_editor as current_editor
from hermes.host.diagnostics import collect
from hermes.host.git import run_git, read_only_concerns
from hermes.core.git_status import parse_status
from hermes.core.terminal_text import render_execution
from hermes.host.workspace import workspace_folders, workspace_name
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Dict, List, Optional
from hermes.contracts.json import JsonObject
from hermes.contracts.services import Terminals
if TYPE_CHECKING:
    from vscode import Selection, TextDocument
# __pragma__('noskip')

MAX_SELECTION_CHARS = 100000
MAX_PROBLEMS = 500
MAX_TERMINAL_CHARS = 20000
TERMINAL_EXECUTIONS = 5  # the most recent commands shown in a terminal resource
WITHHELD = 'The file is outside the workspace: its path and text are withheld.'


def _document_path(document: 'TextDocument') -> str:
    return shown_path(document.uri)


def _readable(document: 'TextDocument') -> bool:
    """Whether the document's path and text may be shown (host/confinement.py)."""
    return shows(document.uri)


def _range(selection: 'Selection') -> 'JsonObject':
    return {'start': point(selection.start), 'end': point(selection.end)}


def active_editor() -> 'Optional[JsonObject]':
    editor = current_editor()
    if editor is None:
        return None
    document = editor.document
    selections = []  # type: List[JsonObject]
    for selection in editor.selections:
        item = _range(selection)
        item['active'] = point(selection.active)
        item['isEmpty'] = selection.isEmpty
        selections.append(item)
    visible = []  # type: List[JsonObject]
    ranges = editor.visibleRanges
    for visible_range in ranges if ranges is not None else []:
        visible.append({'startLine': visible_range.start.line + 1, 'endLine': visible_range.end.line + 1})
    inside = _readable(document)
    result = {  # type: JsonObject
        'path': _document_path(document) if inside else None,
        'uri': document.uri.toString() if inside else None,
        'languageId': document.languageId,
        'isDirty': document.isDirty,
        'lineCount': document.lineCount,
        'cursor': point(editor.selection.active),
        'selections': selections,
        'visibleRanges': visible,
        'insideWorkspace': inside,
    }
    if not inside:
        result['withheld'] = WITHHELD
    return result


def selection() -> 'Optional[JsonObject]':
    """{'text', 'path', 'languageId', 'range', 'ranges'} of the active editor (several selections'
    texts joined by newlines, in document order), or None without an editor."""
    editor = current_editor()
    if editor is None:
        return None
    document = editor.document
    ordered = list(editor.selections)
    ordered.sort(key=lambda item: item.start.line * 1000000 + item.start.character)
    result = {'path': None, 'languageId': document.languageId,
              'range': _range(editor.selection), 'ranges': [_range(item) for item in ordered]}  # type: JsonObject
    if not _readable(document):
        result['text'] = ''
        result['withheld'] = WITHHELD
        return result
    result['path'] = _document_path(document)
    texts = [document.getText(item) for item in ordered if not item.isEmpty]
    text = '\n'.join(texts)
    if len(text) > MAX_SELECTION_CHARS:
        result['cut'] = len(text) - MAX_SELECTION_CHARS
        text = text[:MAX_SELECTION_CHARS]
    result['text'] = text
    return result


def tabs() -> 'JsonObject':
    groups = []  # type: List[JsonObject]
    for group in vscode.window.tabGroups.all:
        items = []  # type: List[JsonObject]
        for tab in group.tabs:
            uri = tab_resource(tab)
            inside = uri is None or shows(uri)
            items.append({
                'label': tab.label if inside else OUTSIDE,
                'path': None if uri is None or not inside or uri.scheme != 'file' else shown_path(uri),
                'uri': None if uri is None or not inside else uri.toString(),
                'active': tab.isActive, 'dirty': tab.isDirty, 'pinned': tab.isPinned, 'preview': tab.isPreview,
            })
        groups.append({'viewColumn': group.viewColumn, 'active': group.isActive, 'tabs': items})
    return {'groups': groups}


def diagnostics() -> 'JsonObject':
    """{'files': [{'path', 'errors', 'warnings', 'problems'}]}: files with errors first (most first),
    then by path; each file's problems by position."""
    by_path = {}  # type: Dict[str, JsonObject]
    order = []  # type: List[str]
    problems = collect()
    shown = [problem for problem in problems if not ('withheld' in problem)]
    withheld = len(problems) - len(shown)
    problems = shown
    for problem in problems[:MAX_PROBLEMS]:
        slot = 'p:' + problem['path']
        if not (slot in by_path):
            by_path[slot] = {'path': problem['path'], 'errors': 0, 'warnings': 0, 'problems': []}
            order.append(slot)
        entry = by_path[slot]
        entry['problems'].append(problem)
        if problem['severity'] == 'error':
            entry['errors'] = entry['errors'] + 1
        elif problem['severity'] == 'warning':
            entry['warnings'] = entry['warnings'] + 1
    files = [by_path[slot] for slot in order]
    files.sort(key=lambda item: ('0' if item['errors'] > 0 else '1') + item['path'])
    result = {'files': files, 'total': len(problems)}  # type: JsonObject
    if len(problems) > MAX_PROBLEMS:
        result['cut'] = len(problems) - MAX_PROBLEMS
    if withheld > 0:
        result['withheld'] = str(withheld) + ' problems in files outside the workspace (their paths are withheld)'
    return result


async def workspace() -> 'JsonObject':
    folders = []  # type: List[JsonObject]
    for folder in workspace_folders():
        folders.append({'name': folder['name'], 'path': folder['path'], 'git': await git_summary(folder['path'])})
    return {'name': workspace_name(), 'folders': folders}


async def git_summary(folder: str) -> 'Optional[JsonObject]':
    """Branch, upstream and counts of changed files, or None when the folder is no git repository. A resource
    cannot ask the user, so when git_get_status would ask (the repository is outside the workspace, or its config
    names programs or outside files: host/git.py `read_only_concerns`), git status does not run at all and the
    summary says why."""
    try:
        concerns = await read_only_concerns(folder, [])
        if len(concerns) > 0:
            # (the reasons name places outside the workspace: only the dialog of git_get_status shows them)
            return {'withheld': 'git status was not run here: the repository or its config reaches outside the '
                                'workspace or names programs, so git_get_status asks the user first'}
        result = await run_git(['status', '--porcelain=v2', '--branch', '-z'], folder)
    except ToolError:
        return None
    if result['code'] != 0:
        return None
    status = parse_status(result['stdout'])
    counts = {'staged': 0, 'modified': 0, 'untracked': 0, 'conflicted': 0}
    for entry in status['files']:
        if entry['kind'] == 'untracked':
            counts['untracked'] = counts['untracked'] + 1
        elif entry['kind'] == 'unmerged':
            counts['conflicted'] = counts['conflicted'] + 1
        elif entry['kind'] == 'tracked':
            if entry['index'] != '.':
                counts['staged'] = counts['staged'] + 1
            if entry['worktree'] != '.':
                counts['modified'] = counts['modified'] + 1
    return {'branch': status['branch'], 'commit': status['commit'], 'upstream': status['upstream'],
            'ahead': status['ahead'], 'behind': status['behind'], 'changes': counts}


def terminal_list(terminals: 'Terminals') -> 'List[JsonObject]':
    """`terminals`: the window's TerminalService."""
    return [{'id': record.id, 'name': record.label()} for record in terminals.records]


def terminal_output(terminals: 'Terminals', terminal_id: Any) -> 'Optional[str]':
    """The last commands of a terminal with their output (ANSI codes stripped), or None when there
    is no such terminal."""
    for record in terminals.records:
        if record.id == terminal_id:
            return _render_terminal(record)
    return None


USERS_TERMINAL = ('(a terminal the user opened: its commands and output are withheld here; terminal_read asks the '
                  'user before showing them)')


def _render_terminal(record: Any) -> str:
    if not record.owned:  # a resource cannot ask, and what the user ran and printed is the user's
        return USERS_TERMINAL
    executions = record.executions
    if len(executions) == 0:
        if record.terminal.shellIntegration is None:
            return ('(no output captured: the terminal has no shell integration, so VS Code does not share '
                    'its output)')
        return '(no command has run in this terminal since Hermes started)'
    first = max(0, len(executions) - TERMINAL_EXECUTIONS)
    parts = [render_execution(entry, MAX_TERMINAL_CHARS) for entry in executions[first:]]
    return cap_tail('\n\n'.join(parts), MAX_TERMINAL_CHARS)
