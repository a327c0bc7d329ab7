"""`rg --files` for a small local tree, answered in process: starting ripgrep costs ~15 ms in VS Code's
extension host (a fork of a large process), many times a small file_search's whole answer.

`list_small_tree` prints exactly the lines `rg --files --no-config --hidden --no-require-git` with the
exclude globs prints, or gives up (None) and ripgrep answers: a tree of more than MAX_ENTRIES
entries, an ignore rule this module does not read exactly as ripgrep does (character escapes, braces,
`**` inside a name), or an ignore source outside the tree (an ignore file above the workspace
folder, a git repository's info/exclude, git's global excludes). What it follows, as ripgrep does:
.rgignore over .ignore over .gitignore, a deeper folder's file over a higher one's, the last
matching line of a file, `!` re-including, a trailing `/` for folders only, a `/` anchoring to the
file's folder; symlinks and special files are not listed; the folder searched is listed even when it
is itself ignored.
tests/unit/test_small_tree.py compares both answers on the same trees. Whether a search asks this module at all is
the window's choice (host/disk.py Disk `small_trees`)."""
# __pragma__('tconv')
from hermes.js.errors import JsError
from hermes.js.modules import node
from hermes.js.process import environment_variable
from hermes.js.text import native_regex, regex_matches
from hermes.core.globs import GlobSet
# __pragma__('skip')
from typing import Any, List, Optional
from hermes.contracts.json import JsonObject
# __pragma__('noskip')

MAX_ENTRIES = 2000
IGNORE_FILES = ['.rgignore', '.ignore', '.gitignore']  # ripgrep's precedence, highest first
_REGEX_SPECIAL = '.+^$()|{}\\'

class GiveUp(Exception):
    """Something ripgrep must answer."""


def list_small_tree(folder: str, where: str, excluded: 'List[str]') -> 'Optional[List[str]]':
    """The lines `rg --files` prints for `where` ('.' or a relative folder) run in `folder`, excluding
    the VS Code globs `excluded` (relative to `folder`); None when ripgrep must answer."""
    if node('path').sep != '/':
        return None
    try:
        return _list(folder, where, excluded)
    except GiveUp:
        return None
    except JsError:  # unreadable folders, races with changes: ripgrep reports those its own way
        return None


def _list(folder: str, where: str, excluded: 'List[str]') -> 'List[str]':
    for glob in excluded:
        if not _plain_glob(glob):
            raise GiveUp()
    if _global_git_excludes_possible():
        raise GiveUp()
    node_path = node('path')
    parent = node_path.dirname(folder)
    while True:  # ignore files above the workspace folder: ripgrep reads them, this module does not
        for name in IGNORE_FILES:
            if _exists(node_path.join(parent, name)):
                raise GiveUp()
        _check_git_folder(parent)
        if node_path.dirname(parent) == parent:
            break
        parent = node_path.dirname(parent)
    walk = Walk(folder, GlobSet(excluded), './' if where == '.' else '')
    chain = walk.chain_to(where)
    walk.list(where, chain)
    return walk.lines


class Walk:
    def __init__(self, root: str, excluded: 'GlobSet', prefix: str) -> None:
        self.root = root
        self.prefix = prefix  # ripgrep prints './a/b' when asked for '.', 'src/a/b' when asked for 'src'
        self.excluded = excluded
        self.lines = []  # type: List[str]
        self.entries = 0

    def folder_rules(self, relative: str, parent_chain: 'List[JsonObject]',
                     names: 'Optional[List[str]]' = None) -> 'List[JsonObject]':
        """The rules of this folder, then its parents' (deepest first):
        [{'base', 'rules': [.rgignore's, .ignore's, .gitignore's]}]. `names`: the folder's
        entries when already read (else each file is looked for)."""
        path = self.root if relative == '.' else self.root + '/' + relative
        if ('.git' in names) if names is not None else _exists(path + '/.git'):
            _check_git_folder(path)
        rules = []  # type: List[List[JsonObject]]
        for name in IGNORE_FILES:
            present = (name in names) if names is not None else _exists(path + '/' + name)
            rules.append(_read_rules(path + '/' + name) if present else [])
        chain = [{'base': '' if relative == '.' else relative + '/', 'rules': rules}]
        chain.extend(parent_chain)
        return chain

    def chain_to(self, where: str) -> 'List[JsonObject]':
        """The rules of the folders above `where`, from the root down (deepest first)."""
        chain = []  # type: List[JsonObject]
        if where == '.':
            return chain
        parts = where.split('/')
        chain = self.folder_rules('.', chain)
        for index in range(len(parts) - 1):
            chain = self.folder_rules('/'.join(parts[:index + 1]), chain)
        return chain

    def list(self, relative: str, parent_chain: 'List[JsonObject]') -> None:
        fs = node('fs')
        path = self.root if relative == '.' else self.root + '/' + relative
        entries = fs.readdirSync(path, {'withFileTypes': True})
        self.entries += len(entries)
        if self.entries > MAX_ENTRIES:
            raise GiveUp()
        names = [entry['name'] for entry in entries]  # subscript: `.name` would be renamed by Transcrypt
        chain = self.folder_rules(relative, parent_chain, names)
        folders = []  # type: List[str]
        for entry in entries:
            name = entry['name']
            if name.find('\ufffd') != -1:
                raise GiveUp()  # not valid UTF-8: ripgrep prints the raw bytes
            is_folder = entry.isDirectory()
            if not is_folder and not entry.isFile():
                continue  # symlinks, sockets, pipes: ripgrep lists regular files only
            child = name if relative == '.' else relative + '/' + name
            if self.excluded.matches(child) or _ignored(chain, child, is_folder):
                continue
            if is_folder:
                folders.append(child)
            else:
                self.lines.append(self.prefix + child)
        for child in folders:
            self.list(child, chain)


def _ignored(chain: 'List[JsonObject]', path: str, is_folder: bool) -> bool:
    """ripgrep's verdict: per kind of ignore file (highest first), the deepest folder whose file has a
    matching line decides. (With --no-require-git a .gitignore applies inside a nested repository too.)"""
    for kind in range(len(IGNORE_FILES)):
        for level in chain:
            rules = level['rules'][kind]
            if len(rules) > 0:
                verdict = _verdict(rules, path[len(level['base']):], is_folder)
                if verdict is not None:
                    return verdict
    return False


def _verdict(rules: 'List[JsonObject]', relative: str, is_folder: bool) -> 'Optional[bool]':
    """True (ignored), False (re-included by `!`) or None (no line matches): the last matching line wins."""
    index = len(rules) - 1
    while index >= 0:
        rule = rules[index]
        if (is_folder or not rule['folders_only']) and regex_matches(rule['regex'], relative):
            return not rule['negated']
        index -= 1
    return None


def _read_rules(path: str) -> 'List[JsonObject]':
    text = node('fs').readFileSync(path, 'utf8')  # (a folder or an unreadable file: ripgrep answers)
    if text.startswith('\ufeff'):
        raise GiveUp()
    rules = []  # type: List[JsonObject]
    for raw in text.split('\n'):
        rule = parse_rule(raw)
        if rule is not None:
            rules.append(rule)
    return rules


def parse_rule(line: str) -> 'Optional[JsonObject]':
    """One .gitignore line as {'regex', 'negated', 'folders_only'}; None for blanks and comments;
    GiveUp for what only ripgrep reads exactly."""
    if line.startswith('#'):
        return None
    line = line.rstrip()
    if line == '':
        return None
    if line.find('\\') != -1 or line.find('{') != -1:
        raise GiveUp()
    negated = line.startswith('!')
    if negated:
        line = line[1:]
    anchored = line.startswith('/')
    if anchored:
        line = line[1:]
    folders_only = line.endswith('/')
    if folders_only:
        line = line[:len(line) - 1]
    if line == '' or line.find('//') != -1 or line.endswith('/'):
        raise GiveUp()
    if not anchored and line.find('/') == -1 and not line.startswith('**/'):
        line = '**/' + line
    if line.endswith('/**'):
        line = line + '/*'
    return {'regex': native_regex('^' + _glob_regex(line) + '$'), 'negated': negated, 'folders_only': folders_only}


def _glob_regex(glob: str) -> str:
    """A gitignore glob (already anchored) as a regex source: `*`/`?` stay within a name, `**` is a whole part."""
    parts = glob.split('/')
    out = []  # type: List[str]
    last = len(parts) - 1
    for index in range(len(parts)):
        part = parts[index]
        if part == '**':
            if index == last:
                out.append('.*' if index == 0 else '/.*')
            else:
                out.append('(?:.*/)?' if index == 0 else '/(?:.*/)?')
            continue
        if part.find('**') != -1:
            raise GiveUp()
        previous_was_globstar = index > 0 and parts[index - 1] == '**'
        out.append(('' if index == 0 or previous_was_globstar else '/') + _name_regex(part))
    return ''.join(out)


def _name_regex(part: str) -> str:
    out = []  # type: List[str]
    index = 0
    while index < len(part):
        char = part[index]
        if char == '*':
            out.append('[^/]*')
        elif char == '?':
            out.append('[^/]')
        elif char == '[':
            close = part.find(']', index + 2)
            if close == -1:
                raise GiveUp()
            body = part[index + 1:close]
            if body.startswith('!') or body.startswith('^'):
                body = '^' + body[1:]
            if body.find('[') != -1:
                raise GiveUp()
            out.append('[' + body + ']')
            index = close + 1
            continue
        elif char == ']':
            raise GiveUp()
        elif _REGEX_SPECIAL.find(char) != -1:
            out.append('\\' + char)
        else:
            out.append(char)
        index += 1
    return ''.join(out)


def _plain_glob(glob: str) -> bool:
    """An exclude glob ripgrep's override and core/globs.py read alike (no braces, classes, escapes)."""
    for char in ['{', '}', '[', ']', '\\']:
        if glob.find(char) != -1:
            return False
    return not glob.endswith('/')


def _exists(path: str) -> bool:
    return node('fs').existsSync(path)


def _check_git_folder(path: str) -> None:
    """A folder holding `.git`: ripgrep also reads the repository's info/exclude (and follows a `.git`
    file to the repository it names); give up unless that adds nothing."""
    fs = node('fs')
    git = path + '/.git'
    try:
        info = fs.lstatSync(git)
    except JsError:
        return
    if not info.isDirectory():
        raise GiveUp()
    try:
        text = fs.readFileSync(git + '/info/exclude', 'utf8')
    except JsError:
        return
    for raw in text.split('\n'):
        if parse_rule(raw) is not None:
            raise GiveUp()


def _global_git_excludes_possible() -> bool:
    """Whether git's global excludes file (core.excludesFile, or git/ignore in the config folder) may exist."""
    home = environment_variable('HOME')  # where ripgrep looks (not the password database)
    if home is None or home == '':
        return True
    config_home = environment_variable('XDG_CONFIG_HOME')
    if config_home is None or config_home == '':
        config_home = home + '/.config'
    if _exists(config_home + '/git/ignore'):
        return True
    fs = node('fs')
    for config in [home + '/.gitconfig', config_home + '/git/config']:
        try:
            text = fs.readFileSync(config, 'utf8')
        except JsError:
            continue
        if text.lower().find('excludesfile') != -1:
            return True
    return False
