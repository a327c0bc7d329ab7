"""What an agent process starts with: its program found by us, never by a lookup the workspace can steer, and a
working directory outside the workspace.

Why: a program named without a path is otherwise found by the child's PATH lookup after it changed to its working
directory — an empty or relative PATH entry then means a folder of the repository — and launchers resolve what they
run from their working directory (`npx` runs a package the repository brings in any `node_modules/.bin` above it,
`python -m` imports from it, version managers read its `.python-version` / `.tool-versions`). So the command is
resolved here against PATH entries that are absolute and outside the workspace (judged by real paths: a link in
a safe folder may point into the repository); a relative path with a folder in it is refused; the PATH the agent
inherits keeps only such entries (agent_environment below); and the process starts in a private folder
of the extension's own storage. The workspace reaches the agent only as the ACP session's `cwd`.
"""
# __pragma__('tconv')
from hermes.js.errors import JsError
from hermes.js.modules import node
from hermes.js.process import environment_variable
from hermes.core.values import copy_object, get_key, is_object
from hermes.core.acp.backends import AcpAgentError, path_outside
from hermes.host.paths import real_path, is_inside, real_folder, folder_paths
from hermes.host.workspace import workspace_folders
# __pragma__('skip')
from typing import Any, List, Optional
from hermes.contracts.json import Json, JsonObject
# __pragma__('noskip')

HOME_FOLDER = 'agent-home'
"""The agents' working directory, inside the extension's global storage (mode 0700)."""


def _windows() -> bool:
    return environment_variable('OS') == 'Windows_NT'


def _separator() -> str:
    return ';' if _windows() else ':'


def in_any_folder(path: str, folders: 'List[str]') -> bool:
    """Whether `path`, by its real path, is inside one of `folders` (workspace folders) — by their real paths."""
    try:
        real = real_path(path)
    except JsError:
        return True  # unknown: treated as the workspace's
    for folder in folders:
        if is_inside(real, real_folder(folder)) or is_inside(path, folder):
            return True
    return False


def safe_path_entries(path_value: 'Optional[str]', folders: 'List[str]') -> 'List[str]':
    """The entries of a PATH value a lookup may use: absolute, and outside every workspace folder (an empty entry
    means the working directory, a relative one is read against it)."""
    if path_value is None or path_value == '':
        return []
    node_path = node('path')
    kept = []  # type: List[str]
    for entry in path_value.split(_separator()):
        if entry == '' or not node_path.isAbsolute(entry) or in_any_folder(entry, folders) or entry in kept:
            continue
        kept.append(entry)
    return kept


def _executable(candidate: str) -> bool:
    fs = node('fs')
    try:
        if not fs.statSync(candidate).isFile():
            return False
        fs.accessSync(candidate, fs.constants.X_OK)
        return True
    except JsError:
        return False


def _names_for(name: str) -> 'List[str]':
    if not _windows():
        return [name]
    names = [name]
    extensions = environment_variable('PATHEXT') or '.COM;.EXE;.BAT;.CMD'
    for extension in extensions.split(';'):
        if extension != '':
            names.append(name + extension.lower())
    return names


def search_program(name: str, entries: 'List[str]', folders: 'List[str]') -> 'Optional[str]':
    """The absolute path of the executable file `name` in `entries` (safe_path_entries), not inside a workspace
    folder by its real path (a link in a safe folder may point into the repository), or None."""
    node_path = node('path')
    for entry in entries:
        for candidate_name in _names_for(name):
            candidate = node_path.join(entry, candidate_name)
            if _executable(candidate) and not in_any_folder(candidate, folders):
                return candidate
    return None


def program_for(command: str, entries: 'List[str]', folders: 'List[str]') -> str:
    """The program `command` (from the user's settings) names: an absolute path as it is; a bare name found by
    search_program; a relative path with a folder in it refused (it would be read against the working directory).
    Raises AcpAgentError with what the user reads."""
    node_path = node('path')
    if node_path.isAbsolute(command):
        return command
    if '/' in command or '\\' in command:
        raise AcpAgentError('The agent command "' + command + '" is a relative path. Give an absolute path or a '
                            'program name found on PATH (hermes.acp.agents / hermes.acp.hermesPath).')
    found = search_program(command, entries, folders)
    if found is None:
        raise AcpAgentError('The agent command "' + command + '" was not found on PATH (entries that are empty, '
                            'relative or inside the workspace are not searched). Give its absolute path in your '
                            'settings (hermes.acp.agents / hermes.acp.hermesPath).')
    return found


def agent_home(storage_path: str) -> str:
    """The agents' working directory under `storage_path` (the extension's global storage), made if missing."""
    folder = node('path').join(storage_path, HOME_FOLDER)
    node('fs').mkdirSync(folder, {'recursive': True, 'mode': 0o700})
    return folder


def launch_spec(spec: 'JsonObject', env: 'JsonObject', home: str, folders: 'List[str]') -> 'JsonObject':
    """The spec AcpAgent starts for `spec` ({'name', 'command', 'args'} from the user's settings) with `env` (the
    agent's environment additions, PATH already without empty, relative or workspace entries): the program resolved
    by program_for against the PATH the agent gets (or ours), `cwd` the private `home`."""
    searched = get_key(env, 'PATH')
    if searched is None:
        searched = environment_variable('PATH')
    return {'name': spec['name'], 'command': program_for(spec['command'], safe_path_entries(searched, folders), folders),
            'args': spec['args'], 'env': env, 'cwd': home}


def home_folder() -> str:
    """The user's home folder: $HOME, else what the system says (Windows sets no HOME: USERPROFILE is its home)."""
    home = environment_variable('HOME')
    return node('os').homedir() if home is None or home == '' else home


def find_program(name: str, extra_folders: 'Optional[List[str]]' = None) -> 'Optional[str]':
    """The absolute path of `name` on PATH (or in `extra_folders`), or None: PATH entries that are empty, relative
    or inside the workspace are not searched."""
    folders = [folder['path'] for folder in workspace_folders()]  # (read fresh: asked when a front end lists agents)
    entries = safe_path_entries(environment_variable('PATH'), folders)
    for folder in safe_path_entries(':'.join(extra_folders or []), folders):
        entries.append(folder)
    return search_program(name, entries, folders)


def agent_environment(configured: 'Json') -> 'JsonObject':
    """What an agent process gets besides VS Code's environment: the user's `env` of its entry, and — unless that
    names PATH itself — a PATH without empty, relative or workspace entries (core/acp/backends.py path_outside):
    the program is looked up in the child's PATH, from the workspace as its working folder."""
    environment = copy_object(configured) if is_object(configured) else {}  # type: JsonObject
    if not ('PATH' in environment):
        windows = _windows()
        safe = path_outside(environment_variable('PATH'), ';' if windows else ':', folder_paths(),
                            '\\' if windows else '/')
        if safe is not None:
            environment['PATH'] = safe
    return environment
