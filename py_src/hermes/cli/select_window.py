"""Which window the CLI talks to, decided from the discovery files (pure; tested under CPython).

Explicit --url wins (its token: --token, else the token of the discovery file that names that very URL's
scheme, host and port — never one picked by the port alone: `--url http://127.0.0.2:<port>/mcp` or another
host must not receive a window's token); else --port
picks that window's file; else the window whose workspace folders hold the current directory (the
deepest such folder); else the newest window."""
# __pragma__('tconv')
from hermes.core.values import get_key, json_type
from hermes.net.mcp.client import port_of
# __pragma__('skip')
from typing import List, Optional
from hermes.contracts.cli import ChosenWindow, CliOptions
from hermes.contracts.json import Json, JsonObject
# __pragma__('noskip')

NO_WINDOW = ('No running VS Code window with Hermes was found (no live discovery file in ~/.hermes/ide/). '
             'Open VS Code with the Hermes extension installed; if it is open, check that the '
             '"hermes.mcp.enabled" setting is on, or pass --url and --token.')


class NoWindowError(Exception):
    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text

    def __str__(self) -> str:
        return self.text


def select_window(windows: 'List[JsonObject]', cwd: str, options: 'CliOptions') -> 'ChosenWindow':
    """`windows`: live discovery dicts, newest first (one that names no URL is passed over). Returns a dict with url, token, port, pid,
    workspaceFolders, reason (a phrase saying why this window) and count (how many were found).
    Raises NoWindowError with a message for the user."""
    url = options['url']
    token = options['token']
    port = options['port']
    windows = [window for window in windows if json_type(get_key(window, 'url')) == 'string']
    if url is not None:
        match = _by_origin(windows, url)
        chosen = _describe(match, 'given with --url', len(windows)) if match is not None else {
            'url': url, 'token': None, 'port': port_of(url), 'pid': None, 'workspaceFolders': [],
            'reason': 'given with --url', 'count': len(windows)}  # type: ChosenWindow
        chosen['url'] = url
        if token is not None:
            chosen['token'] = token
        return chosen
    if port is not None:
        match = _by_port(windows, port)
        if match is None:
            raise NoWindowError('No running Hermes window serves on port ' + str(port) + '.' + _listing(windows))
        return _with_token(_describe(match, 'chosen with --port', len(windows)), token)
    if len(windows) == 0:
        raise NoWindowError(NO_WINDOW)
    best = None  # type: Optional[JsonObject]
    best_length = -1
    for window in windows:
        for folder in _folders(window):
            if contains_path(folder, cwd) and len(folder) > best_length:
                best = window
                best_length = len(folder)
    if best is not None:
        return _with_token(_describe(best, 'its workspace holds the current directory', len(windows)), token)
    return _with_token(_describe(windows[0], 'the newest window' if len(windows) > 1 else 'the only window',
                                 len(windows)), token)


def contains_path(folder: 'Optional[str]', path: 'Optional[str]') -> bool:
    """Is `path` the folder or inside it? Separator-aware: /a/b holds /a/b/c but not /a/bc."""
    if folder is None or path is None or folder == '':
        return False
    folder = _trim(_normalize(folder))
    path = _trim(_normalize(path))
    if _is_windows_path(folder):
        folder = folder.lower()
        path = path.lower()
    if path == folder:
        return True
    prefix = folder if folder.endswith('/') else folder + '/'
    return path.startswith(prefix)


def _normalize(path: str) -> str:
    return path.replace('\\', '/') if _is_windows_path(path) else path


def _is_windows_path(path: str) -> bool:
    return len(path) >= 2 and path[1] == ':' or path.startswith('\\\\')


def _trim(path: str) -> str:
    while len(path) > 1 and path.endswith('/') and not path.endswith(':/'):
        path = path[:len(path) - 1]
    return path


def _folders(window: 'JsonObject') -> 'List[str]':
    folders = get_key(window, 'workspaceFolders')
    if not isinstance(folders, list):
        return []
    return [folder for folder in folders if isinstance(folder, str)]


def _by_port(windows: 'List[JsonObject]', port: 'Optional[int]') -> 'Optional[JsonObject]':
    if port is None:
        return None
    for window in windows:
        if get_key(window, 'port') == port:
            return window
    return None


def origin_of(url: 'Json') -> 'Optional[str]':
    """'scheme://host:port' of a URL, lower-case (the port written out: 80/443 when absent); None when it is
    no http(s) URL."""
    if json_type(url) != 'string':
        return None
    text = url.strip().lower()
    scheme_end = text.find('://')
    if scheme_end == -1:
        return None
    scheme = text[:scheme_end]
    if scheme != 'http' and scheme != 'https':
        return None
    rest = text[scheme_end + 3:]
    for stop in ['/', '?', '#']:
        cut = rest.find(stop)
        if cut != -1:
            rest = rest[:cut]
    if rest.find('@') != -1:
        return None  # user info: not what any discovery file names
    host = rest
    port = '443' if scheme == 'https' else '80'
    colon = rest.rfind(':')
    if colon != -1 and rest.find(']', colon) == -1:
        host = rest[:colon]
        port = rest[colon + 1:]
    return scheme + '://' + host + ':' + port


def _by_origin(windows: 'List[JsonObject]', url: str) -> 'Optional[JsonObject]':
    """The window whose discovery file names the same scheme, host and port as `url`, or None."""
    wanted = origin_of(url)
    if wanted is None:
        return None
    for window in windows:
        if origin_of(get_key(window, 'url')) == wanted:
            return window
    return None


def _describe(window: 'JsonObject', reason: str, count: int) -> 'ChosenWindow':
    """`window`: a discovery file's JSON that names its URL; a field of another type than the file's writer
    (net/discovery.py) gives is left out (a number for the token would be sent as the header's text)."""
    return {
        'url': window['url'],
        'token': _of_type(window, 'token', 'string'),
        'port': _of_type(window, 'port', 'integer'),
        'pid': _of_type(window, 'pid', 'integer'),
        'workspaceFolders': _folders(window),
        'reason': reason,
        'count': count,
    }


def _of_type(window: 'JsonObject', key: str, kind: str) -> 'Json':
    value = get_key(window, key)
    return value if json_type(value) == kind else None


def _with_token(chosen: 'ChosenWindow', token: 'Optional[str]') -> 'ChosenWindow':
    if token is not None:
        chosen['token'] = token
    return chosen


def _listing(windows: 'List[JsonObject]') -> str:
    if len(windows) == 0:
        return ' ' + NO_WINDOW
    ports = [str(get_key(window, 'port')) + ' (' + (', '.join(_folders(window)) or 'no folder') + ')'
             for window in windows]
    return ' Running windows: ' + '; '.join(ports) + '.'
