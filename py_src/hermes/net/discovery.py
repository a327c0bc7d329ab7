"""Discovery files: ~/.hermes/ide/<port>.json tells clients which window serves where, and with
which token. Written 0600 in a 0700 folder (the token is a secret); removed when the server stops.
Files left by windows that died (their pid is gone: a crash, a killed extension host) are ignored by readers
and removed whenever a window writes its own or a client lists them."""
# __pragma__('tconv')
from hermes.js.errors import JsError
from hermes.js.json import dump_json, parse_json
from hermes.js.modules import node
from hermes.js.process import current_pid, signal_process
# __pragma__('skip')
from typing import Any, List, Optional
from hermes.contracts.json import JsonObject
# __pragma__('noskip')


def discovery_dir() -> str:
    return node('path').join(node('os').homedir(), '.hermes', 'ide')


def discovery_path(port: int) -> str:
    return node('path').join(discovery_dir(), str(port) + '.json')


def write_discovery(port: int, info: 'JsonObject') -> str:
    fs = node('fs')
    folder = discovery_dir()
    fs.mkdirSync(folder, {'recursive': True, 'mode': 448})  # 0o700
    remove_stale_discovery(port)
    path = discovery_path(port)
    temporary = path + '.' + str(current_pid()) + '.tmp'
    fs.writeFileSync(temporary, dump_json(info, 2), {'mode': 384})  # 0o600
    fs.chmodSync(temporary, 384)
    fs.renameSync(temporary, path)  # readers never see a half-written file
    return path


def remove_discovery(port: int, pid: 'Optional[int]' = None) -> None:
    """Remove our file; `pid` guards against deleting a file another window wrote since."""
    path = discovery_path(port)
    info = read_discovery_file(path)
    if info is None:
        return
    if pid is not None and info.get('pid') != pid:
        return
    try:
        node('fs').unlinkSync(path)
    except JsError:
        pass


def read_discovery_file(path: str) -> 'Any':
    try:
        return parse_json(node('fs').readFileSync(path, 'utf8'))
    except JsError:
        return None


def list_discovery() -> 'List[JsonObject]':
    """Every live window's discovery info, newest first; the files of windows that died are removed."""
    fs = node('fs')
    folder = discovery_dir()
    try:
        names = fs.readdirSync(folder)
    except JsError:
        return []
    found = []  # type: List[JsonObject]
    for name in names:
        if not name.endswith('.json'):
            continue
        path = node('path').join(folder, name)
        info = read_discovery_file(path)
        if not isinstance(info, dict):
            continue
        if process_alive(info.get('pid')):
            found.append(info)
        else:
            _remove_quietly(path)
    found.sort(key=lambda item: -(item.get('startedAt') or 0))
    return found


def remove_stale_discovery(own_port: int) -> None:
    fs = node('fs')
    folder = discovery_dir()
    try:
        names = fs.readdirSync(folder)
    except JsError:
        return
    for name in names:
        if not name.endswith('.json') or name == str(own_port) + '.json':
            continue
        path = node('path').join(folder, name)
        info = read_discovery_file(path)
        if isinstance(info, dict) and not process_alive(info.get('pid')):
            _remove_quietly(path)


def _remove_quietly(path: str) -> None:
    try:
        node('fs').unlinkSync(path)
    except JsError:
        pass  # another reader removed it first


def process_alive(pid: 'Any') -> bool:
    if pid is None or not isinstance(pid, int):
        return False
    try:
        signal_process(pid, 0)
        return True
    except JsError as error:
        return error.code == 'EPERM'  # alive, just not ours
