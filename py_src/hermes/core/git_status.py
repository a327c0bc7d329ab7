"""What git prints, read: `git status --porcelain=v2 --branch -z` and `git for-each-ref` with BRANCH_FORMAT. Pure
(tested under CPython and replayed on the bundle); host/git.py runs git."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Dict, List, Optional, Tuple
# __pragma__('noskip')


# ---------------------------------------------------------------------------- status

XY_NAMES = {'M': 'modified', 'T': 'type changed', 'A': 'added', 'D': 'deleted', 'R': 'renamed',
            'C': 'copied', 'U': 'unmerged'}


def parse_status(text: str) -> 'Dict[str, Any]':
    """`git status --porcelain=v2 --branch -z` → {branch, upstream, ahead, behind, files}; each file
    {path, origPath, index, worktree, kind} with kind 'tracked', 'untracked', 'unmerged' or 'ignored'."""
    status = {'branch': None, 'commit': None, 'upstream': None, 'ahead': 0, 'behind': 0, 'files': []}  # type: Dict[str, Any]
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


def _split_n(text: str, separator: str, count: int) -> 'List[str]':
    """text split on the first `count` separators (the last part keeps any further ones)."""
    parts = []  # type: List[str]
    rest = text
    while len(parts) < count:
        position = rest.find(separator)
        if position == -1:
            break
        parts.append(rest[:position])
        rest = rest[position + 1:]
    parts.append(rest)
    return parts


def _branch_header(status: 'Dict[str, Any]', header: str) -> None:
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


def _entry(path: str, original: 'Optional[str]', xy: str, kind: str) -> 'Dict[str, Any]':
    return {'path': path, 'origPath': original, 'index': xy[0], 'worktree': xy[1], 'kind': kind}


def describe_change(code: str) -> str:
    return XY_NAMES[code] if code in XY_NAMES else code


# ---------------------------------------------------------------------------- branches

BRANCH_FORMAT = '%(refname)%00%(refname:short)%00%(objectname:short)%00%(upstream:short)%00%(upstream:track)%00%(HEAD)%00%(contents:subject)'


def parse_branches(text: str) -> 'List[Dict[str, Any]]':
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


def _track_counts(track: str) -> 'Tuple[int, int]':
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
