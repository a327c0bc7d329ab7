"""What the agent sees of the window when a run starts: workspace folders, the active file and its
selection, open tabs, errors, the git branch — as the plain dict core/system_prompt.py reads.
Each part is optional: whatever VS Code cannot tell (no editor, no git extension) is left out."""
# __pragma__('tconv')
from hermes.js.errors import JsError
from hermes.js.modules import vscode
from hermes.host.editors import open_tabs
from hermes.host.paths import display_path, folder_paths
from hermes.host.confinement import shows, shown_path
# __pragma__('skip')
from typing import List
from hermes.contracts.json import JsonObject
# __pragma__('noskip')

MAX_ERRORS = 50
ERROR_SEVERITY = 0  # vscode.DiagnosticSeverity.Error


def gather_workspace_context() -> 'JsonObject':
    context = {}  # type: JsonObject
    for part in [_folders, _active_file, _tabs, _errors, _git_branch]:
        try:
            part(context)
        except JsError:
            pass
    return context


def _folders(context: 'JsonObject') -> None:
    folders = folder_paths()
    if len(folders) > 0:
        context['folders'] = folders


def _active_file(context: 'JsonObject') -> None:
    editor = vscode.window.activeTextEditor
    if editor is None or editor.document is None:
        return
    document = editor.document
    if not shows(document.uri):  # the model is remote: what is not a workspace file stays out (confinement.py)
        return
    active = {'path': shown_path(document.uri), 'language': document.languageId}  # type: JsonObject
    selection = editor.selection
    if selection is not None:
        active['line'] = selection.active.line + 1
        if not selection.isEmpty:
            active['selection'] = {'startLine': selection.start.line + 1, 'endLine': selection.end.line + 1,
                                   'text': document.getText(selection)}
    context['activeFile'] = active


def _tabs(context: 'JsonObject') -> None:
    paths = []  # type: List[str]
    for tab in open_tabs():
        path = tab['path']
        shown = tab['label'] if path is None else display_path(path)
        if not (shown in paths):
            paths.append(shown)
    if len(paths) > 0:
        context['openTabs'] = paths


def _errors(context: 'JsonObject') -> None:
    errors = []  # type: List[JsonObject]
    for entry in vscode.languages.getDiagnostics():
        uri = entry[0]
        if not shows(uri):
            continue
        for diagnostic in entry[1]:
            if diagnostic.severity != ERROR_SEVERITY:
                continue
            errors.append({'path': shown_path(uri), 'line': diagnostic.range.start.line + 1,
                           'message': diagnostic.message})
            if len(errors) >= MAX_ERRORS:
                context['errors'] = errors
                return
    if len(errors) > 0:
        context['errors'] = errors


def _git_branch(context: 'JsonObject') -> None:
    extension = vscode.extensions.getExtension('vscode.git')
    if extension is None or not extension.isActive:
        return
    api = extension.exports.getAPI(1)
    repositories = api.repositories
    if repositories is None or len(repositories) == 0:
        return
    head = repositories[0].state.HEAD
    if head is not None and head['name'] is not None:
        context['gitBranch'] = head['name']
