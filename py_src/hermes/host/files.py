"""Files through VS Code: reads, stats and listings via host/disk.py (Node's fs for file: URIs, else
`vscode.workspace.fs`: any file system VS Code mounts), and changes via `WorkspaceEdit` so they land in
VS Code's undo history and respect editors that hold unsaved changes. Deletion goes to the trash where the file system has one."""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError
from hermes.js.modules import node, vscode
from hermes.js.objects import keys_of, new
from hermes.js.text import utf8_bytes, utf8_text
from hermes.core.tools import ToolError
from hermes.core.service_problems import ServiceProblem
from hermes.core.globs import GlobSet
from hermes.core.values import get_key
from hermes.host.paths import display_path, folder_paths, is_inside
from hermes.host.documents import open_document_for, replace_text, save_document
from hermes.host.disk import file_system_for, FILE, DIRECTORY, SYMLINK
from hermes.host.live_values import remembered
from hermes.host.changes.log import change_log_of, check_write, note_write
from hermes.core.changes.edit_scopes import in_edit_scope
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, List, Mapping, Optional
from hermes.contracts.json import JsonObject
from hermes.contracts.services import CallContext, DeleteOutcome, DirectoryEntry, FileKind, FileStat, FileText, WriteOutcome
if TYPE_CHECKING:
    from vscode import Uri
from hermes.host.disk import Disk
# __pragma__('noskip')

MAX_READ_BYTES = 32 * 1024 * 1024
BINARY_SNIFF_CHARS = 8000


def uri_of(path: str) -> 'Uri':
    return vscode.Uri.file(path)


def error_code(error: Any) -> 'Optional[str]':
    """`FileNotFound`, `FileExists`, `NoPermissions`… from a vscode.FileSystemError (else None)."""
    try:
        code = error.code
    except JsError:
        return None
    return None if code is None else code


def is_not_found(error: Any) -> bool:
    return error_code(error) == 'FileNotFound' or error_message(error).find('ENOENT') != -1


async def stat(path: str, disk: 'Optional[Disk]' = None) -> 'Optional[FileStat]':
    """{'kind': 'file'|'directory'|'other', 'symlink', 'size', 'mtime'}, or None when nothing is there. `disk`
    (host/disk.py Disk, here and below): how local files are read; None is the product's choice."""
    try:
        uri = uri_of(path)
        info = await file_system_for(uri, disk).stat(uri)
    except JsError as error:
        if is_not_found(error):
            return None
        raise ToolError('Cannot read "' + display_path(path) + '": ' + error_message(error))
    kind = info['type']
    name = 'file' if kind & FILE else ('directory' if kind & DIRECTORY else 'other')  # type: FileKind
    return {'kind': name, 'symlink': (kind & SYMLINK) != 0, 'size': info['size'], 'mtime': info['mtime']}


async def read_text(path: str, max_bytes: 'Optional[int]' = None, disk: 'Optional[Disk]' = None) -> 'FileText':
    """The text of a file on disk (UTF-8). A ServiceProblem for a missing file ('not-found'), a folder ('folder'),
    one too large ('too-large'); a ToolError for a binary file. (The facts only: the tools add what to do next,
    tools/file_parts.py.)"""
    if max_bytes is None:
        max_bytes = MAX_READ_BYTES
    info = await stat(path, disk)
    shown = display_path(path)
    if info is None:
        raise ServiceProblem('not-found', '"' + shown + '" does not exist.')
    if info['kind'] == 'directory':
        raise ServiceProblem('folder', '"' + shown + '" is a folder, not a file.')
    if info['size'] > max_bytes:
        raise ServiceProblem('too-large', '"' + shown + '" is ' + str(info['size']) + ' bytes, more than the ' +
                             str(max_bytes) + '-byte limit for reading.')
    uri = uri_of(path)
    data = await file_system_for(uri, disk).readFile(uri)
    text = utf8_text([data])
    if text[:BINARY_SNIFF_CHARS].find('\x00') != -1:
        raise ToolError('"' + shown + '" looks like a binary file (' + str(len(data)) + ' bytes); only text files '
                        'can be read.')
    if text.startswith('\ufeff'):
        text = text[1:]
    return {'text': text, 'size': len(data)}


async def ensure_parent_folder(path: str, disk: 'Optional[Disk]' = None) -> None:
    parent = node('path').dirname(path)
    info = await stat(parent, disk)
    if info is None:
        await vscode.workspace.fs.createDirectory(uri_of(parent))  # creates missing parents too
    elif info['kind'] != 'directory':
        raise ToolError('Cannot create "' + display_path(path) + '": "' + display_path(parent) + '" is a file.')


async def write_text(path: str, text: str, must_not_exist: bool = False, call: 'Optional[CallContext]' = None,
                     disk: 'Optional[Disk]' = None) -> 'WriteOutcome':
    """Create or replace a file's whole content, undoably. An open editor gets the new text and is
    saved; one holding unsaved changes is left alone (ServiceProblem 'unsaved') so the user's work is never lost; an
    existing file when `must_not_exist` is ServiceProblem 'exists'.
    With the tool `call`, the write is checked against and recorded in the change log (host/changes/log.py).
    Returns 'created' or 'replaced'."""
    shown = display_path(path)
    info = await stat(path, disk)
    if info is not None and info['kind'] == 'directory':
        raise ToolError('"' + shown + '" is a folder; give a file path.')
    if info is not None and must_not_exist:
        raise ServiceProblem('exists', '"' + shown + '" already exists.')
    document = open_document_for(path)
    if document is not None and document.isDirty:
        raise ServiceProblem('unsaved', '"' + shown + '" is open in the editor with unsaved changes.')
    if document is not None and info is not None:
        check_write(call, path, None)  # refused before VS Code's chat editing starts tracking the file

        async def replace_in_editor() -> 'WriteOutcome':
            await replace_text(document, [{'start': 0, 'end': len(document.getText()), 'text': text}], shown, call)
            await save_document(document, shown)
            return 'replaced'
        return await in_edit_scope(call, [path], replace_in_editor)
    recorded = await _text_before_write(call, path, info, disk)

    async def write_file() -> 'WriteOutcome':
        if info is None:
            await ensure_parent_folder(path, disk)
        edit = new(vscode.WorkspaceEdit)
        edit.createFile(uri_of(path), {'overwrite': info is not None, 'contents': utf8_bytes(text)})
        if not await vscode.workspace.applyEdit(edit):
            raise ToolError('VS Code refused to write "' + shown + '".')
        if recorded['record']:
            note_write(call, path, recorded['before'], text)
        return 'created' if info is None else 'replaced'
    return await in_edit_scope(call, [path], write_file)


async def _text_before_write(call: 'Optional[CallContext]', path: str, info: 'Optional[Mapping[str, object]]',
                             disk: 'Optional[Disk]' = None) -> 'JsonObject':
    """{'record', 'before'}: whether the change log records a whole-file write of `path` (there is one, and the
    old content is text it can keep), and that text (None: no file). Refuses (ToolError) a write over a pending
    hunk the caller has not re-read."""
    if change_log_of(call) is None:
        return {'record': False, 'before': None}
    if info is None or info['kind'] != 'file':  # nothing there, or a dangling symlink: the write creates a file
        return {'record': True, 'before': None}
    check_write(call, path, None)
    try:
        found = await read_text(path, None, disk)
    except ToolError:  # a binary or huge file: replaced, but not something the log could give back
        return {'record': False, 'before': None}
    return {'record': True, 'before': found['text']}


async def create_folder(path: str, disk: 'Optional[Disk]' = None) -> None:
    shown = display_path(path)
    info = await stat(path, disk)
    if info is not None:
        raise ToolError('"' + shown + '" already exists (' + info['kind'] + ').')
    await vscode.workspace.fs.createDirectory(uri_of(path))


def unsaved_documents_under(path: str) -> 'List[str]':
    sep = node('path').sep
    found = []  # type: List[str]
    for document in vscode.workspace.textDocuments:
        if document.uri.scheme != 'file' or not document.isDirty:
            continue
        own = document.uri.fsPath
        if own == path or own.startswith(path + sep):
            found.append(display_path(own))
    return found


async def delete_path(path: str, recursive: bool, call: 'Optional[CallContext]' = None,
                      disk: 'Optional[Disk]' = None) -> 'DeleteOutcome':
    """Delete a file or folder: to the OS trash when the file system supports it, else through a
    WorkspaceEdit (undoable with Edit › Undo in this window). With the tool `call`, a file's deletion is checked
    against and recorded in the change log. Returns 'trash' or 'undoable'."""
    shown = display_path(path)
    for folder in folder_paths():
        if path == folder or is_inside(folder, path):
            raise ToolError('"' + shown + '" is a workspace folder (or contains one); it cannot be deleted here.')
    info = await stat(path, disk)
    if info is None:
        raise ToolError('"' + shown + '" does not exist.')
    if info['kind'] == 'directory' and not recursive:
        uri = uri_of(path)
        entries = await file_system_for(uri, disk).readDirectory(uri)
        if len(entries) > 0:
            raise ToolError('"' + shown + '" is a folder with ' + str(len(entries)) + ' entries; pass recursive: '
                            'true to delete it with everything inside.')
    unsaved = unsaved_documents_under(path)
    if len(unsaved) > 0:
        raise ToolError('Not deleted: ' + ', '.join(unsaved) + ' has unsaved changes in the editor. Ask the user '
                        'to save or revert first.')
    # The deletion is recorded in the change log, each text file of a folder on its own (Undo brings them back);
    # a folder of more than MAX_RECORDED_FILES files is left to the trash, or VS Code's Undo.
    if info['kind'] == 'file':
        files = [path]  # type: List[str]
    elif change_log_of(call) is None:
        files = []
    else:
        files = await _files_under(path, MAX_RECORDED_FILES, disk)
    befores = []  # type: List[List[Any]]
    for file in files:
        recorded = await _text_before_write(call, file, {'kind': 'file'}, disk)
        if recorded['record']:
            befores.append([file, recorded['before']])
    how = await _delete(path, recursive, shown)
    for pair in befores:
        note_write(call, pair[0], pair[1], None)
    return how


MAX_RECORDED_FILES = 100


async def _files_under(folder: str, limit: int, disk: 'Optional[Disk]' = None) -> 'List[str]':
    """The files under `folder` (symlinks not followed), or [] when there are more than `limit`."""
    found = []  # type: List[str]
    waiting = [folder]
    while len(waiting) > 0:
        current = waiting.pop()
        entries = await read_directory(current, disk)
        for entry in entries:
            if entry['symlink']:
                continue
            child = node('path').join(current, entry['name'])
            if entry['kind'] == 'directory':
                waiting.append(child)
            elif entry['kind'] == 'file':
                found.append(child)
                if len(found) > limit:
                    return []
    return found


async def _delete(path: str, recursive: bool, shown: str) -> 'DeleteOutcome':
    try:
        await vscode.workspace.fs.delete(uri_of(path), {'recursive': recursive, 'useTrash': True})
        return 'trash'
    except JsError as error:
        if error_message(error).find('trash') == -1:
            raise ToolError('Could not delete "' + shown + '": ' + error_message(error))
    edit = new(vscode.WorkspaceEdit)
    edit.deleteFile(uri_of(path), {'recursive': recursive, 'ignoreIfNotExists': False})
    if not await vscode.workspace.applyEdit(edit):
        raise ToolError('VS Code refused to delete "' + shown + '".')
    return 'undoable'


async def read_directory(path: str, disk: 'Optional[Disk]' = None) -> 'List[DirectoryEntry]':
    """[{'name', 'kind', 'symlink'}] of a folder, folders first, then by name."""
    uri = uri_of(path)
    entries = await file_system_for(uri, disk).readDirectory(uri)
    result = []  # type: List[DirectoryEntry]
    for entry in entries:
        kind = entry[1]
        name = 'directory' if kind & DIRECTORY else ('file' if kind & FILE else 'other')  # type: FileKind
        result.append({'name': entry[0], 'kind': name, 'symlink': (kind & SYMLINK) != 0})
    result.sort(key=lambda item: ('0' if item['kind'] == 'directory' else '1') + item['name'].lower())
    return result


def exclude_patterns(sections: 'List[str]') -> 'JsonObject':
    """The glob keys set to `true` in `files.exclude` / `search.exclude` (the given sections), plus
    the `{"when": "$(basename).ts"}` sibling rules as (glob, when) pairs. (Shared: don't change it.)"""
    return remembered('excludes:' + ','.join(sections), lambda: _read_exclude_patterns(sections))


def _read_exclude_patterns(sections: 'List[str]') -> 'JsonObject':
    plain = []  # type: List[str]
    conditional = []  # type: List[List[str]]
    for section in sections:
        value = vscode.workspace.getConfiguration().js_get(section)
        if value is None:
            continue
        for key in keys_of(value):
            rule = value[key]
            if rule is True:
                plain.append(key)
            elif get_key(rule, 'when') is not None:
                conditional.append([key, rule['when']])
    return {'plain': plain, 'conditional': conditional}


def exclude_rules(sections: 'List[str]') -> 'ExcludeRules':
    """ExcludeRules for the settings `sections`, compiled once while they stay the same."""
    return remembered('rules:' + ','.join(sections), lambda: ExcludeRules(sections))


class ExcludeRules:
    """files.exclude as VS Code applies it in the explorer, for paths relative to a workspace folder."""

    def __init__(self, sections: 'List[str]') -> None:
        patterns = exclude_patterns(sections)
        self.plain = GlobSet(patterns['plain'])
        self.conditional = [[GlobSet([pair[0]]), pair[1]] for pair in patterns['conditional']]

    def excludes(self, relative_path: str, sibling_names: 'List[str]') -> bool:
        if self.plain.matches(relative_path):
            return True
        base = node('path').basename(relative_path)
        stem = base[:base.rfind('.')] if base.rfind('.') > 0 else base
        for rule in self.conditional:
            if rule[0].matches(relative_path) and rule[1].replace('$(basename)', stem) in sibling_names:
                return True
        return False


def relative_to_folder(path: str, folders: 'Optional[List[str]]' = None) -> 'Optional[str]':
    """The path relative to the workspace folder holding it ('' for the folder itself), or None.
    (`folders`: folder_paths() when the caller already has them, e.g. for every entry of a listing.)"""
    node_path = node('path')
    for folder in (folder_paths() if folders is None else folders):
        if is_inside(path, folder):
            return node_path.relative(folder, path).replace('\\', '/')
    return None
