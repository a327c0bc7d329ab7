"""Git for the tools: the `git` program run without a shell (no pager, no prompts, no editor) in the
repository that holds a workspace path, plus the parsing of its machine-readable output.

Why the program and not only the built-in git extension's API: the API has no log/blame/show and its
status needs the SCM view to have scanned; the program gives the same answers in VS Code, in tests and
for any subcommand.

Read-only calls run without asking only when nothing the repository controls can run a program or read
outside the workspace (docs/SECURITY.md):
- the command line is read-only by core/git_args.py's allowlist, and its path arguments stay inside;
- the repository (its work tree and git directory) is inside the workspace;
- git runs with SAFE_CONFIG (fsmonitor, pager, hooks, external diff, ssh, credential helpers, gpg off;
  no network; no bare repository found by walking up — a clone can deliver one inside its tree), without
  the system config and with every inherited GIT_* variable dropped;
- the repository's own config names none of the programs those overrides cannot switch off (filter,
  textconv and merge drivers, includes, an outside work tree…: `unsafe_config_keys`).
Anything else goes to the gate (`confirm`), which says why; once the user allows it, git runs as usual.
"""
# __pragma__('tconv')
from hermes.js.child_process import start_process
from hermes.js.errors import JsError
from hermes.js.modules import node
from hermes.core.tools import ToolError
from hermes.core.git_args import classify
from hermes.host.approval import confirm
from hermes.host.paths import resolve_path, folder_paths, in_workspace
# __pragma__('skip')
from typing import Any, Callable, Dict, List, Optional
from hermes.contracts.json import JsonObject
from hermes.contracts.node import ProcessOptions
from hermes.contracts.services import CallContext, ProcessResult
# __pragma__('noskip')

GIT_ENV = {'GIT_TERMINAL_PROMPT': '0', 'GIT_PAGER': 'cat', 'PAGER': 'cat', 'GIT_EDITOR': 'true',
           'GIT_SEQUENCE_EDITOR': 'true', 'GIT_OPTIONAL_LOCKS': '0', 'GIT_ASKPASS': '', 'SSH_ASKPASS': ''}
SAFE_ENV = {'GIT_CONFIG_NOSYSTEM': '1', 'GIT_TERMINAL_PROMPT': '0', 'GIT_PAGER': 'cat', 'PAGER': 'cat',
            'GIT_EDITOR': 'true', 'GIT_SEQUENCE_EDITOR': 'true', 'GIT_OPTIONAL_LOCKS': '0'}
DROPPED_ENV = ['GIT_*', 'SSH_ASKPASS', 'PAGER', 'LESSOPEN', 'LESSCLOSE']
SAFE_CONFIG = ['core.fsmonitor=false', 'core.pager=cat', 'core.hooksPath=/dev/null', 'diff.external=',
               'core.sshCommand=false', 'core.askPass=', 'credential.helper=', 'protocol.allow=never',
               'safe.bareRepository=explicit', 'gpg.program=false', 'gpg.openpgp.program=false',
               'gpg.x509.program=false', 'gpg.ssh.program=false', 'log.showSignature=false',
               'diff.ignoreSubmodules=all', 'submodule.recurse=false', 'status.submoduleSummary=false',
               'core.alternateRefsCommand=', 'core.editor=true', 'sequence.editor=true']
# Subcommands that take --no-ext-diff / --no-textconv (a repository's .gitattributes picks the driver).
DIFF_FAMILY = ['diff', 'log', 'show', 'whatchanged', 'diff-tree', 'diff-files', 'diff-index', 'reflog']
MAX_OUTPUT_BYTES = 8388608
DEFAULT_TIMEOUT_MS = 30000


def is_read_only(args: 'List[str]') -> bool:
    """True when `git <args>` (args[0] is the subcommand) only reads, by its command line alone."""
    return classify(args)['read_only']


# The last part of a config key that names a program git may run (filter.<d>.clean, diff.<d>.textconv,
# credential.<url>.helper, difftool.<t>.cmd, remote.<r>.uploadpack, submodule.<n>.update = !cmd, …) or a file it
# reads (blame.ignoreRevsFile: git prints a line of a file that is no list of commits in its error; mailmap.file,
# diff.orderFile, include.path, core.worktree, http.sslKey, …). Matched by the last part, so a key git adds later
# with such a name is caught too.
PROGRAM_KEYS = ['clean', 'smudge', 'process', 'textconv', 'command', 'cmd', 'driver', 'helper', 'program',
                'uploadpack', 'receivepack', 'vcs', 'packobjectshook', 'defaultkeycommand', 'gitproxy', 'sshcommand',
                'editor', 'askpass', 'fsmonitor', 'alternaterefscommand', 'difffilter', 'sendmailcmd', 'tocmd',
                'cccmd', 'browser', 'external', 'update', 'hook', 'proxycommand']
FILE_KEYS = ['path', 'file', 'worktree', 'attributesfile', 'excludesfile', 'hookspath', 'ignorerevsfile',
             'orderfile', 'template', 'skiplist', 'allowedsignersfile', 'revocationfile', 'sslcert', 'sslkey',
             'sslcainfo', 'sslcapath', 'cookiefile', 'aliasesfile', 'blob', 'smtpserver', 'sslcertpasswordprotected']


def _neutralised_keys() -> 'List[str]':
    """The keys SAFE_CONFIG sets (so the repository's value of them never applies), lower-case."""
    return [entry.split('=')[0].lower() for entry in SAFE_CONFIG]


def config_key_kind(key: str) -> 'Optional[str]':
    """'program' or 'file' when a repository's `key` names a program git may run or a file it may read that
    SAFE_CONFIG does not override; None when it names neither."""
    key = key.lower()
    if key in _neutralised_keys():
        return None
    parts = key.split('.')
    last = parts[len(parts) - 1]
    if parts[0] == 'submodule' and last == 'path':
        return None  # a folder of the work tree
    if last in PROGRAM_KEYS:
        return 'program'
    if last in FILE_KEYS:
        return 'file'
    return None


def unsafe_config_keys(listing: str, file_inside: 'Optional[Callable[[str], bool]]' = None) -> 'List[str]':
    """Keys from `git config --list --show-scope -z` that the repository (not the user) set unsafely: every key
    naming a program; a key naming a file unless `file_inside(value)` says the file is inside the workspace
    (without `file_inside`, every such key)."""
    keys = []  # type: List[str]
    fields = listing.split('\x00')
    index = 0
    while index + 1 < len(fields):
        scope = fields[index]
        entry = fields[index + 1]
        index = index + 2
        cut = entry.find('\n')
        key = entry if cut == -1 else entry[:cut]
        value = '' if cut == -1 else entry[cut + 1:]
        if not (scope in ['local', 'worktree']) or key in keys:
            continue
        kind = config_key_kind(key)
        if kind == 'program' or (kind == 'file' and (file_inside is None or not file_inside(value))):
            keys.append(key)
    return keys


def config_file_inside(bases: 'List[str]') -> 'Callable[[str], bool]':
    """A `file_inside` for unsafe_config_keys: whether a config value naming a file stays in the workspace
    wherever git resolves it from (`bases`: the work tree, the folder git runs in, the git directory). `~` and
    `%(prefix)` lead out."""
    node_path = node('path')

    def inside(value: str) -> bool:
        if value == '' or value.startswith('~') or value.startswith('%('):
            return value == ''
        for base in bases:
            if not in_workspace(node_path.resolve(base, value)):
                return False
        return True
    return inside


def directory_of(path_text: 'Optional[str]') -> str:
    """The folder a git command runs in: the given workspace path (its folder, for a file) or the first
    workspace folder."""
    if path_text is None:
        folders = folder_paths()
        if len(folders) == 0:
            raise ToolError('No folder is open in VS Code, so there is no repository to look at.')
        return folders[0]
    path = resolve_path(path_text)
    fs = node('fs')
    if not fs.existsSync(path):
        raise ToolError('"' + path_text + '" does not exist.')
    if fs.statSync(path).isDirectory():
        return path
    return node('path').dirname(path)


async def run_git(args: 'List[str]', cwd: str, call: 'Optional[CallContext]' = None, timeout_ms: int = DEFAULT_TIMEOUT_MS,
                  safe: bool = True) -> 'ProcessResult':
    """Run `git <args>` in `cwd`; the process result dict. Cancelling `call` stops git. `safe`: with
    SAFE_CONFIG and a scrubbed environment (every read-only call); False only for what the user allowed."""
    command = ['-c', 'color.ui=never', '-c', 'core.quotepath=off']
    options = {'cwd': cwd, 'timeout_ms': timeout_ms, 'max_bytes': MAX_OUTPUT_BYTES, 'env': GIT_ENV}  # type: ProcessOptions
    if safe:
        for entry in SAFE_CONFIG:
            command.extend(['-c', entry])
        options = {'cwd': cwd, 'timeout_ms': timeout_ms, 'max_bytes': MAX_OUTPUT_BYTES, 'env': SAFE_ENV,
                   'drop_env': DROPPED_ENV}
    command.extend(args[:1])  # (`+` on lists is string concatenation in the bundle)
    if safe and len(args) > 0 and args[0] in DIFF_FAMILY:
        command.extend(['--no-ext-diff', '--no-textconv'])
    command.extend(args[1:])
    process = start_process('git', command, options)
    unsubscribe = call.on_cancel(process['kill']) if call is not None else None
    result = await process['done']
    if unsubscribe is not None:
        unsubscribe()
    if result['error'] is not None:
        raise ToolError('Could not run git: ' + result['error'] + '. Is git installed and on PATH?')
    return result


async def git_output(args: 'List[str]', cwd: str, call: 'Optional[CallContext]' = None, safe: bool = True) -> str:
    """stdout of a git command that must succeed; its stderr as a ToolError otherwise."""
    result = await run_git(args, cwd, call, DEFAULT_TIMEOUT_MS, safe)
    if result['code'] != 0:
        message = result['stderr'].strip() or ('git ' + args[0] + ' failed with exit code ' + str(result['code']))
        raise ToolError(message)
    return result['stdout']


async def repository_root(cwd: str, call: 'Optional[CallContext]' = None) -> str:
    result = await run_git(['rev-parse', '--show-toplevel'], cwd, call)
    if result['code'] != 0:
        raise ToolError('"' + cwd + '" is not inside a git repository (' + result['stderr'].strip() + ').')
    return result['stdout'].strip()


async def read_only_concerns(cwd: str, paths: 'List[str]', call: 'Optional[CallContext]' = None) -> 'List[str]':
    """Why running a read-only git command in `cwd` without asking would not be safe ([] when it is):
    a repository outside the workspace, a path argument leading out, repository config naming programs."""
    located = await run_git(['rev-parse', '--show-toplevel', '--absolute-git-dir', '--path-format=absolute',
                              '--git-common-dir'], cwd, call)
    if located['code'] != 0:
        return []  # not a repository (or a bare one found by walking up): git itself will refuse
    lines = located['stdout'].strip().split('\n')
    concerns = []  # type: List[str]
    # the work tree, the git directory and the common one (.git/commondir can point at another project's)
    for place in lines:
        if not in_workspace(place):
            concerns.append('the repository (' + place + ') is outside the workspace')
    root = lines[0]
    for borrowed in _alternates(lines[len(lines) - 1]):
        if not in_workspace(borrowed):
            concerns.append('the repository borrows objects from ' + borrowed + ', outside the workspace')
    node_path = node('path')
    for path in paths:
        target = _path_target(path, cwd, root)
        if target is None:
            concerns.append('"' + path + '" uses pathspec magic, which can reach outside the workspace')
        elif not in_workspace(node_path.resolve(cwd, target[1]) if target[0] == 'cwd' else node_path.resolve(root, target[1])):
            concerns.append('"' + path + '" is outside the workspace')
    listing = await run_git(['config', '--list', '--show-scope', '-z'], cwd, call)
    keys = unsafe_config_keys(listing['stdout'], config_file_inside([root, cwd, lines[1]]))
    if len(keys) > 0:
        concerns.append("the repository's config names programs or outside files git would use (" +
                        ', '.join(keys) + ')')
    return concerns


def _alternates(common_dir: str) -> 'List[str]':
    """The object folders a repository borrows (objects/info/alternates, relative to its objects folder)."""
    node_path = node('path')
    fs = node('fs')
    objects = node_path.join(common_dir, 'objects')
    try:
        text = fs.readFileSync(node_path.join(objects, 'info', 'alternates'), 'utf8')
    except JsError:
        return []
    found = []  # type: List[str]
    for line in text.split('\n'):
        line = line.strip()
        if line != '' and not line.startswith('#'):
            found.append(node_path.resolve(objects, line))
    return found


def _path_target(path: str, cwd: str, root: str) -> 'Optional[List[str]]':
    """['cwd' | 'root', relative path] a path argument names (`rev:path` is relative to the root unless it
    starts with ./ or ../); None for pathspec magic (':(top)…', ':/…')."""
    if path.startswith(':'):
        return None
    colon = path.find(':')
    if colon == -1:
        return ['cwd', path]
    rest = path[colon + 1:]
    if rest.startswith('./') or rest.startswith('../'):
        return ['cwd', rest]
    return ['root', rest]


async def gate_read_only(tool_name: str, shown: str, arguments: 'JsonObject', cwd: str, paths: 'List[str]',
                         call: 'CallContext') -> bool:
    """For a read-only git call: True when it may run at once (safely: `run_git(..., safe=True)`); else
    the user is asked, with the reasons in `arguments['why']`: a refusal is raised, a yes returns False
    (run it as git normally runs)."""
    concerns = await read_only_concerns(cwd, paths, call)
    if len(concerns) == 0:
        return True
    arguments['why'] = '; '.join(concerns)
    refusal = await confirm(tool_name, shown, arguments, call, tool_name + ' ' + shown)
    if refusal is not None:
        raise ToolError(refusal + ' (asked because ' + '; '.join(concerns) + ')')
    return False
