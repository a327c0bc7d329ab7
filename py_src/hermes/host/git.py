"""Git for the tools: the `git` program run without a shell (no pager, no prompts, no editor) in the
repository that holds a workspace path, plus the parsing of its machine-readable output.

Why the program and not only the built-in git extension's API: the API has no log/blame/show and its
status needs the SCM view to have scanned; the program gives the same answers in VS Code, in tests and
for any subcommand. Which subcommands only read is decided here (`is_read_only`), conservatively:
anything not known to be read-only counts as writing and is confirmed by the user first.
"""
# __pragma__('tconv')
from hermes.js import node, is_none, start_process
from hermes.core.tools import ToolError
from hermes.host.paths import resolve_path, folder_paths

GIT_ENV = {'GIT_TERMINAL_PROMPT': '0', 'GIT_PAGER': 'cat', 'PAGER': 'cat', 'GIT_EDITOR': 'true',
           'GIT_SEQUENCE_EDITOR': 'true', 'GIT_OPTIONAL_LOCKS': '0', 'GIT_ASKPASS': '', 'SSH_ASKPASS': ''}
MAX_OUTPUT_BYTES = 8388608
DEFAULT_TIMEOUT_MS = 30000

READ_ONLY = ['status', 'log', 'diff', 'show', 'rev-parse', 'blame', 'annotate', 'ls-files', 'ls-tree',
             'cat-file', 'shortlog', 'describe', 'grep', 'rev-list', 'merge-base', 'name-rev', 'show-ref',
             'for-each-ref', 'diff-tree', 'diff-files', 'diff-index', 'whatchanged', 'count-objects',
             'check-ignore', 'check-attr', 'var', 'version', 'cherry', 'range-diff', 'show-branch']
# Options that make an otherwise read-only command write files, run programs or read outside the repo.
UNSAFE_OPTIONS = ['--output', '--no-index', '--upload-pack', '--receive-pack', '--exec', '-O',
                  '--open-files-in-pager', '--ext-diff']
BRANCH_WRITES = ['-d', '-D', '--delete', '-m', '-M', '--move', '-c', '-C', '--copy', '-f', '--force', '-u',
                 '--set-upstream-to', '--unset-upstream', '--edit-description', '-t', '--track', '--no-track',
                 '--create-reflog']
TAG_WRITES = ['-d', '--delete', '-a', '--annotate', '-s', '--sign', '-u', '--local-user', '-f', '--force',
              '-m', '--message', '-F', '--file', '-e', '--edit']
CONFIG_READS = ['--get', '--get-all', '--get-regexp', '--get-urlmatch', '--list', '-l', 'get', 'list']
CONFIG_WRITES = ['--unset', '--unset-all', '--add', '--replace-all', '--rename-section', '--remove-section',
                 '--edit', '-e', 'set', 'unset', 'edit', 'rename-section', 'remove-section']


def _option_name(arg):
    return arg.split('=')[0]


def _positionals(args):
    return [arg for arg in args if not arg.startswith('-')]


def is_read_only(args):
    """True when `git <args>` (args[0] is the subcommand) only reads the repository."""
    if len(args) == 0:
        return False
    command = args[0]
    rest = args[1:]
    for arg in rest:
        name = _option_name(arg)
        if name in UNSAFE_OPTIONS or (name.startswith('-O') and not name.startswith('--')):
            return False
    if command in READ_ONLY:
        return True
    if command == 'branch':
        if any([_option_name(arg) in BRANCH_WRITES for arg in rest]):
            return False
        return len(_positionals(rest)) == 0 or '--list' in rest or '-l' in rest
    if command == 'tag':
        if any([_option_name(arg) in TAG_WRITES for arg in rest]):
            return False
        return len(_positionals(rest)) == 0 or '--list' in rest or '-l' in rest
    if command == 'remote':
        return len(rest) == 0 or rest[0] in ['-v', '--verbose', 'show', 'get-url']
    if command == 'stash':
        return len(rest) > 0 and rest[0] in ['list', 'show']
    if command == 'reflog':
        return len(rest) == 0 or rest[0] == 'show'
    if command == 'worktree':
        return len(rest) > 0 and rest[0] == 'list'
    if command == 'config':
        if any([_option_name(arg) in CONFIG_WRITES for arg in rest]):
            return False
        return any([_option_name(arg) in CONFIG_READS for arg in rest])
    return False


def directory_of(path_text):
    """The folder a git command runs in: the given workspace path (its folder, for a file) or the first
    workspace folder."""
    if is_none(path_text):
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


async def run_git(args, cwd, call=None, timeout_ms=DEFAULT_TIMEOUT_MS):
    """Run `git <args>` in `cwd`; the process result dict. Cancelling `call` stops git."""
    command = ['-c', 'color.ui=never', '-c', 'core.quotepath=off']
    command.extend(args)  # (`+` on lists is string concatenation in the bundle)
    process = start_process('git', command,
                            {'cwd': cwd, 'timeout_ms': timeout_ms, 'max_bytes': MAX_OUTPUT_BYTES, 'env': GIT_ENV})
    unsubscribe = call.on_cancel(process['kill']) if not is_none(call) else None
    result = await process['done']
    if not is_none(unsubscribe):
        unsubscribe()
    if not is_none(result['error']):
        raise ToolError('Could not run git: ' + result['error'] + '. Is git installed and on PATH?')
    return result


async def git_output(args, cwd, call=None):
    """stdout of a git command that must succeed; its stderr as a ToolError otherwise."""
    result = await run_git(args, cwd, call)
    if result['code'] != 0:
        message = result['stderr'].strip() or ('git ' + args[0] + ' failed with exit code ' + str(result['code']))
        raise ToolError(message)
    return result['stdout']


async def repository_root(cwd, call=None):
    result = await run_git(['rev-parse', '--show-toplevel'], cwd, call)
    if result['code'] != 0:
        raise ToolError('"' + cwd + '" is not inside a git repository (' + result['stderr'].strip() + ').')
    return result['stdout'].strip()


# ---------------------------------------------------------------------------- status

XY_NAMES = {'M': 'modified', 'T': 'type changed', 'A': 'added', 'D': 'deleted', 'R': 'renamed',
            'C': 'copied', 'U': 'unmerged'}


def parse_status(text):
    """`git status --porcelain=v2 --branch -z` → {branch, upstream, ahead, behind, files}; each file
    {path, origPath, index, worktree, kind} with kind 'tracked', 'untracked', 'unmerged' or 'ignored'."""
    status = {'branch': None, 'commit': None, 'upstream': None, 'ahead': 0, 'behind': 0, 'files': []}
    fields = text.split('\x00')
    index = 0
    while index < len(fields):
        field = fields[index]
        index = index + 1
        if field == '':
            continue
        if field.startswith('# '):
            _branch_header(status, field[2:])
        elif field.startswith('1 '):
            parts = _split_n(field, ' ', 8)
            status['files'].append(_entry(parts[8], None, parts[1], 'tracked'))
        elif field.startswith('2 '):
            parts = _split_n(field, ' ', 9)
            original = fields[index] if index < len(fields) else None
            index = index + 1
            status['files'].append(_entry(parts[9], original, parts[1], 'tracked'))
        elif field.startswith('u '):
            parts = _split_n(field, ' ', 10)
            status['files'].append(_entry(parts[10], None, parts[1], 'unmerged'))
        elif field.startswith('? '):
            status['files'].append(_entry(field[2:], None, '??', 'untracked'))
        elif field.startswith('! '):
            status['files'].append(_entry(field[2:], None, '!!', 'ignored'))
    return status


def _split_n(text, separator, count):
    """text split on the first `count` separators (the last part keeps any further ones)."""
    parts = []
    rest = text
    while len(parts) < count:
        position = rest.find(separator)
        if position == -1:
            break
        parts.append(rest[:position])
        rest = rest[position + 1:]
    parts.append(rest)
    return parts


def _branch_header(status, header):
    parts = header.split(' ')
    key = parts[0]
    value = ' '.join(parts[1:])
    if key == 'branch.head':
        status['branch'] = None if value == '(detached)' else value
    elif key == 'branch.oid':
        status['commit'] = None if value == '(initial)' else value
    elif key == 'branch.upstream':
        status['upstream'] = value
    elif key == 'branch.ab' and len(parts) >= 3:
        status['ahead'] = int(parts[1][1:])  # transcrypt-ok[int-text]: git prints '+<decimal>'
        status['behind'] = int(parts[2][1:])  # transcrypt-ok[int-text]: git prints '-<decimal>'


def _entry(path, original, xy, kind):
    return {'path': path, 'origPath': original, 'index': xy[0], 'worktree': xy[1], 'kind': kind}


def describe_change(code):
    return XY_NAMES[code] if code in XY_NAMES else code


# ---------------------------------------------------------------------------- branches

BRANCH_FORMAT = '%(refname)%00%(refname:short)%00%(objectname:short)%00%(upstream:short)%00%(upstream:track)%00%(HEAD)%00%(contents:subject)'


def parse_branches(text):
    """`git for-each-ref --format=BRANCH_FORMAT refs/heads refs/remotes` → a list of branch dicts."""
    branches = []
    for line in text.split('\n'):
        if line.strip() == '':
            continue
        parts = line.split('\x00')
        if len(parts) < 7:
            continue
        ref = parts[0]
        if ref.endswith('/HEAD'):
            continue  # refs/remotes/origin/HEAD points at another remote branch
        ahead, behind = _track_counts(parts[4])
        branches.append({'name': parts[1], 'remote': ref.startswith('refs/remotes/'), 'commit': parts[2],
                         'upstream': parts[3] or None, 'ahead': ahead, 'behind': behind,
                         'current': parts[5] == '*', 'subject': parts[6]})
    return branches


def _track_counts(track):
    """'[ahead 2, behind 1]' → (2, 1); '[gone]' or '' → (0, 0)."""
    ahead = 0
    behind = 0
    for part in track.replace('[', '').replace(']', '').split(','):
        words = part.strip().split(' ')
        if len(words) == 2 and words[0] == 'ahead':
            ahead = int(words[1])  # transcrypt-ok[int-text]: git prints '[ahead <decimal>]'
        elif len(words) == 2 and words[0] == 'behind':
            behind = int(words[1])  # transcrypt-ok[int-text]: git prints 'behind <decimal>'
    return ahead, behind
