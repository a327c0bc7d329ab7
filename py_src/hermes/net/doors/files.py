"""The files terminal CLIs read to find this window (their "doors"; docs/DOORS.md):

- Claude Code: `<config>/ide/<port>.lock`, where `<config>` is `$CLAUDE_CONFIG_DIR` or `~/.claude`, holding
  `{pid, workspaceFolders, ideName, transport: "ws", authToken}`. The CLI lists the locks whose `pid` is alive and
  whose folders contain its working directory, and deletes those whose `pid` is dead.
- Gemini CLI: `<tmp>/gemini/ide/gemini-ide-server-<pid>-<port>.json` holding
  `{port, workspacePath, authToken, ideInfo: {name, displayName}}` (`workspacePath`: the folders joined by the
  platform's path delimiter), by Gemini CLI's IDE companion spec.
- Qwen Code (a fork of Gemini CLI whose door moved): `<qwen home>/ide/<port>.lock`, where `<qwen home>` is
  `$QWEN_HOME` or `~/.qwen`, holding the same fields plus `ppid` (the CLI deletes a lock whose `ppid` is dead).

What each door also puts into VS Code's terminals is `door_variables(kind, port, folders)`.

Both hold a token, so both are written 0600 (folders 0700), atomically (a reader never sees half a file), and removed
when the door closes. The `pid` is the extension host's own: when it dies (a crash, a kill) the CLIs and the next
window see the file as stale and remove it (`remove_stale`), so no dead door is ever dialled for long.
"""
# __pragma__('tconv')
from hermes.js.errors import JsError
from hermes.js.json import dump_json, parse_json
from hermes.js.modules import node
from hermes.js.process import current_pid, environment_variable
from hermes.net.discovery import process_alive
# __pragma__('skip')
from typing import Any, Callable, Dict, List, Optional
from hermes.contracts.json import JsonObject
# __pragma__('noskip')

CLAUDE_LOCK_SUFFIX = '.lock'
GEMINI_PREFIX = 'gemini-ide-server-'


def claude_ide_dir() -> str:
    config = environment_variable('CLAUDE_CONFIG_DIR')
    base = config if config is not None and config != '' else node('path').join(node('os').homedir(), '.claude')
    return node('path').join(base, 'ide')


def gemini_ide_dir() -> str:
    return node('path').join(node('os').tmpdir(), 'gemini', 'ide')


def qwen_ide_dir() -> str:
    home = environment_variable('QWEN_HOME')
    base = home if home is not None and home != '' else node('path').join(node('os').homedir(), '.qwen')
    return node('path').join(base, 'ide')


def qwen_lock_path(port: int) -> str:
    return node('path').join(qwen_ide_dir(), str(port) + CLAUDE_LOCK_SUFFIX)


def qwen_lock(port: int, folders: 'List[str]', display_name: str, token: str) -> 'JsonObject':
    info = gemini_discovery(port, folders, display_name, token)
    info['ppid'] = current_pid()
    return info


def door_file(kind: str, port: int, folders: 'List[str]', display_name: str, token: str) -> 'List[Any]':
    """[path, contents] of the file the CLI of `kind` ('claudeCode', 'gemini', 'qwen') reads."""
    if kind == 'claudeCode':
        return [claude_lock_path(port), claude_lock(folders, display_name, token)]
    if kind == 'qwen':
        return [qwen_lock_path(port), qwen_lock(port, folders, display_name, token)]
    return [gemini_discovery_path(port), gemini_discovery(port, folders, display_name, token)]


def remove_stale_doors(kind: str) -> int:
    """What crashed windows left where the CLI of `kind` looks."""
    if kind == 'claudeCode':
        return remove_stale(claude_ide_dir(), is_claude_lock)
    if kind == 'qwen':
        return remove_stale(qwen_ide_dir(), is_claude_lock)
    return remove_stale(gemini_ide_dir(), is_gemini_discovery)


def door_variables(kind: str, port: int, folders: 'List[str]') -> 'Dict[str, str]':
    """{name: value} for VS Code's terminals: how the CLI of `kind` started there finds the door at once."""
    joined = node('path').delimiter.join(folders)
    if kind == 'claudeCode':
        return {'CLAUDE_CODE_SSE_PORT': str(port), 'ENABLE_IDE_INTEGRATION': 'true'}
    if kind == 'qwen':
        return {'QWEN_CODE_IDE_SERVER_PORT': str(port), 'QWEN_CODE_IDE_WORKSPACE_PATH': joined}
    return {'GEMINI_CLI_IDE_SERVER_PORT': str(port), 'GEMINI_CLI_IDE_WORKSPACE_PATH': joined}


def claude_lock_path(port: int) -> str:
    return node('path').join(claude_ide_dir(), str(port) + CLAUDE_LOCK_SUFFIX)


def gemini_discovery_path(port: int) -> str:
    return node('path').join(gemini_ide_dir(), GEMINI_PREFIX + str(current_pid()) + '-' + str(port) + '.json')


def claude_lock(folders: 'List[str]', ide_name: str, token: str) -> 'JsonObject':
    return {'pid': current_pid(), 'workspaceFolders': folders, 'ideName': ide_name, 'transport': 'ws',
            'runningInWindows': False, 'authToken': token}


def gemini_discovery(port: int, folders: 'List[str]', display_name: str, token: str) -> 'JsonObject':
    return {'port': port, 'workspacePath': node('path').delimiter.join(folders), 'authToken': token,
            'ideInfo': {'name': 'vscode', 'displayName': display_name}, 'pid': current_pid()}


def write_private(path: str, info: 'JsonObject') -> str:
    """Write `info` as JSON, readable by this user alone, replacing any file there at once."""
    fs = node('fs')
    folder = node('path').dirname(path)
    fs.mkdirSync(folder, {'recursive': True, 'mode': 448})  # 0o700 for what we create
    temporary = path + '.' + str(current_pid()) + '.tmp'
    fs.writeFileSync(temporary, dump_json(info, 2), {'mode': 384})  # 0o600
    fs.chmodSync(temporary, 384)  # (a umask cannot widen it, but an existing temporary could be wider)
    fs.renameSync(temporary, path)
    return path


def remove_own(path: str) -> None:
    """Remove `path` if it is this process's file (a later window on the same port may have replaced it)."""
    info = read_or_none(path)
    if info is None or info.get('pid') != current_pid():
        return
    try:
        node('fs').unlinkSync(path)
    except JsError:
        pass


def read_or_none(path: str) -> 'Optional[JsonObject]':
    try:
        found = parse_json(node('fs').readFileSync(path, 'utf8'))
    except JsError:
        return None
    except ValueError:
        return None
    return found if isinstance(found, dict) else None


def remove_stale(folder: str, matches: 'Callable[[str], bool]') -> int:
    """Remove the files in `folder` whose name `matches` and whose `pid` is dead (what a crashed window left)."""
    fs = node('fs')
    try:
        names = fs.readdirSync(folder)
    except JsError:
        return 0
    removed = 0
    for name in names:
        if not matches(name):
            continue
        path = node('path').join(folder, name)
        info = read_or_none(path)
        if info is None or process_alive(info.get('pid')):
            continue
        try:
            fs.unlinkSync(path)
            removed += 1
        except JsError:
            pass  # another window or the CLI removed it first
    return removed


def is_claude_lock(name: str) -> bool:
    return name.endswith(CLAUDE_LOCK_SUFFIX)


def is_gemini_discovery(name: str) -> bool:
    return name.startswith(GEMINI_PREFIX) and name.endswith('.json')
