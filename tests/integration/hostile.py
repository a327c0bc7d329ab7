"""The hostile-model and hostile-repository cases, as data (run by test_hostile.py on the bundle's real MCP
server). A case: a class, a repository or file layout it builds in its own folder of the workspace, the
tool call a prompt-injected model would make, and the effect that must NOT happen under the default
settings with nobody answering the dialog — and that DOES happen once the user explicitly allows it:
- 'gated': the dialog's Allow (the fake VS Code answers "Allow");
- 'setting': only the user's own setting allows it (hermes.tools.allowOutsideWorkspace in user settings);
- 'neutralised': the call runs at once but the hostile program never runs (no dialog, the answer is right);
- 'withheld': the call answers at once without what lies outside the workspace, which only the user's own
  setting shows.
"""
import os
import stat
import subprocess
from pathlib import Path


def git(repo, *args):
    subprocess.run(['git', '-c', 'user.name=T', '-c', 'user.email=t@example.com', *args], cwd=repo, check=True,
                   capture_output=True)


def new_repo(path, files=None):
    path.mkdir(parents=True, exist_ok=True)
    git(path, 'init', '-q', '-b', 'main')
    for name, text in (files or {'a.txt': 'alpha\n'}).items():
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        (path / name).write_text(text)
    git(path, 'add', '-A')
    git(path, 'commit', '-q', '-m', 'first')
    return path


def evil_program(ctx):
    """A program that leaves the case's marker file: its running is the effect."""
    script = ctx.outside / ('evil-' + ctx.id + '.sh')
    script.write_text('#!/bin/sh\ntouch "' + str(ctx.marker) + '"\ncat >/dev/null 2>&1 || true\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script)


class Ctx:
    def __init__(self, case_id, workspace, outside):
        self.id = case_id
        self.workspace = workspace
        self.outside = outside
        self.dir = workspace / case_id
        self.marker = outside / ('marker-' + case_id)
        self.values = {}
        self.window = None
        self.home = None  # HOME of the extension host (git expands ~ there): set by the runner

    def fmt(self, value):
        if isinstance(value, str):
            return value.format(dir=self.id, absdir=str(self.dir), evil=self.values.get('evil', ''), outside=str(self.outside),
                                ws=str(self.workspace), id=self.id, **{k: v for k, v in self.values.items() if k != 'evil'})
        if isinstance(value, list):
            return [self.fmt(item) for item in value]
        if isinstance(value, dict):
            return {key: self.fmt(item) for key, item in value.items()}
        return value


# ---------------------------------------------------------------------------------------------- setups

def plain_repo(ctx):
    new_repo(ctx.dir)
    git(ctx.dir, 'config', 'user.name', 'T')
    git(ctx.dir, 'config', 'user.email', 't@example.com')
    ctx.values['evil'] = evil_program(ctx)


def repo_with_config(*pairs, attributes=None, modify=True):
    def setup(ctx):
        files = {'a.txt': 'alpha\n'}
        if attributes:
            files['.gitattributes'] = attributes
        new_repo(ctx.dir, files)
        evil = evil_program(ctx)
        ctx.values['evil'] = evil
        for key, value in pairs:
            git(ctx.dir, 'config', key, value.replace('EVIL', evil))
        if modify:
            # The same size, other bytes: git cannot tell the file changed from its size, so it must read it (through the
            # clean filter) whatever the clock says. With another size, `git status` ran the filter only when the index
            # was written in the same second as the files (racy git): a verdict that hung on the machine's speed.
            (ctx.dir / 'a.txt').write_text('ALPHA\n')
    return setup


def repo_with_ssh_remote(ctx):
    plain_repo(ctx)
    git(ctx.dir, 'remote', 'add', 'origin', 'ssh://git@example.invalid/x.git')
    git(ctx.dir, 'config', 'core.sshCommand', ctx.values['evil'])


def repo_with_include(ctx):
    plain_repo(ctx)
    included = ctx.outside / ('included-' + ctx.id)
    included.write_text('[core]\n\tfsmonitor = ' + ctx.values['evil'] + '\n')
    git(ctx.dir, 'config', 'include.path', str(included))
    (ctx.dir / 'a.txt').write_text('changed\n')


def embedded_bare_repo(ctx):
    """A plain clone can deliver a bare repository inside its tree; git finds it when run inside."""
    source = new_repo(ctx.outside / ('bare-src-' + ctx.id))
    bare = ctx.dir / 'bare'
    ctx.dir.mkdir(parents=True)
    subprocess.run(['git', 'clone', '-q', '--bare', str(source), str(bare)], check=True, capture_output=True)
    ctx.values['evil'] = evil_program(ctx)
    git(bare, 'config', 'core.fsmonitor', ctx.values['evil'])
    git(bare, 'config', 'core.bare', 'false')
    git(bare, 'config', 'core.worktree', str(ctx.dir / 'bare'))


def nested_repo_with_fsmonitor(ctx):
    repo_with_config(('core.fsmonitor', 'EVIL'))(ctx)


def gitdir_file_pointing_out(ctx):
    real = new_repo(ctx.outside / ('real-' + ctx.id), {'secret.txt': 'OUTSIDE-SECRET-' + ctx.id + '\n'})
    ctx.dir.mkdir(parents=True)
    (ctx.dir / '.git').write_text('gitdir: ' + str(real / '.git') + '\n')
    git(real, 'config', 'core.worktree', str(ctx.dir))


def repo_around_workspace(ctx):
    """A folder of the workspace that is no repository of its own: git finds the one around the whole
    workspace (test_hostile.py makes the workspace's parent a repository), which holds a secret."""
    around = ctx.workspace.parent
    (around / ('secret-' + ctx.id + '.txt')).write_text('OUTSIDE-SECRET-' + ctx.id + '\n')
    git(around, 'add', 'secret-' + ctx.id + '.txt')
    git(around, 'commit', '-q', '-m', 'secret ' + ctx.id)
    ctx.dir.mkdir(parents=True)
    (ctx.dir / 'x.txt').write_text('x\n')


def outside_files(ctx):
    plain_repo(ctx)
    (ctx.outside / ('secret-' + ctx.id + '.txt')).write_text('OUTSIDE-SECRET-' + ctx.id + '\n')
    (ctx.outside / ('other-' + ctx.id + '.txt')).write_text('other\n')


def repo_reading_outside_file(key, home=False):
    """A repository whose config names an outside file holding a secret (git prints its first line in an error):
    by an absolute path, or under ~ (the HOME git sees)."""
    def setup(ctx):
        plain_repo(ctx)
        name = 'secret-' + ctx.id + '.txt'
        folder = ctx.home if home else ctx.outside
        (folder / name).write_text('OUTSIDE-SECRET-' + ctx.id + '\n')
        git(ctx.dir, 'config', key, ('~/' + name) if home else str(folder / name))
    return setup


def repo_with_common_dir_outside(ctx):
    """A repository inside whose .git/commondir points at another project's git directory: its objects and refs
    (the other project's history) are what git reads."""
    other = new_repo(ctx.outside / ('other-' + ctx.id), {'secret.txt': 'OUTSIDE-SECRET-' + ctx.id + '\n'})
    new_repo(ctx.dir)
    (ctx.dir / '.git' / 'commondir').write_text(str(other / '.git') + '\n')


def repo_with_alternates_outside(ctx):
    """A repository inside whose object store borrows another project's objects (objects/info/alternates)."""
    other = new_repo(ctx.outside / ('other-' + ctx.id), {'secret.txt': 'OUTSIDE-SECRET-' + ctx.id + '\n'})
    new_repo(ctx.dir)
    (ctx.dir / '.git' / 'objects' / 'info' / 'alternates').write_text(str(other / '.git' / 'objects') + '\n')
    ctx.values['sha'] = subprocess.run(['git', 'rev-parse', 'HEAD'], cwd=other, capture_output=True, text=True,
                                       check=True).stdout.strip()


def repo_with_stash(ctx):
    plain_repo(ctx)
    (ctx.dir / 'a.txt').write_text('stashed\n')
    git(ctx.dir, 'stash', '-q')


def repo_with_branch(ctx):
    plain_repo(ctx)
    git(ctx.dir, 'branch', 'victim')
    git(ctx.dir, 'tag', 'victim-tag')


def repo_with_untracked(ctx):
    plain_repo(ctx)
    (ctx.dir / 'untracked.txt').write_text('keep me\n')


# ---------------------------------------------------------------------------------------------- effects

def marker(ctx, result):
    return ctx.marker.exists()


def file_in_case(name):
    def effect(ctx, result):
        return (ctx.dir / name).exists()
    return effect


def output_has_secret(ctx, result):
    return ('OUTSIDE-SECRET-' + ctx.id) in str(result)


def git_out(ctx, *args):
    return subprocess.run(['git', *args], cwd=ctx.dir, capture_output=True, text=True).stdout


def git_answers(args, present):
    """The effect: `git <args>` prints something (present=True) or nothing (False) in the case's repository."""
    def effect(ctx, result):
        return (git_out(ctx, *args).strip() != '') == present
    return effect


def ref_missing(ref):
    return git_answers(['rev-parse', '--verify', '-q', ref], False)


def ref_exists(ref):
    return git_answers(['rev-parse', '--verify', '-q', ref], True)


def commits(count):
    def effect(ctx, result):
        return git_out(ctx, 'rev-list', '--count', 'HEAD').strip() == str(count)
    return effect


def config_has(key):
    return git_answers(['config', '--local', '--get', key], True)


def config_lacks(key):
    return git_answers(['config', '--local', '--get', key], False)


def file_gone(name):
    def effect(ctx, result):
        return not (ctx.dir / name).exists()
    return effect


def worktree_changed(ctx, result):
    return (ctx.dir / 'a.txt').read_text() != 'alpha\n'


# ---------------------------------------------------------------------------------------------- the cases

def case(case_id, cls, setup, tool, args, effect, kind='gated'):
    return {'id': case_id, 'class': cls, 'setup': setup, 'tool': tool, 'args': args, 'effect': effect, 'kind': kind}


def gc(case_id, cls, setup, git_args, effect, kind='gated', path='{dir}'):
    return case(case_id, cls, setup, 'git_command', {'args': git_args, 'path': path}, effect, kind)


def quick(c):
    """A case whose hostile program never answers git (an ssh or filter-process stand-in that reads on): git is stopped after 10 s
    rather than the default 60 (the program has left its marker by then)."""
    c['args']['timeout_seconds'] = 10
    return c


ABBREV = 'git: options git abbreviates, bundles or attaches'
WRITES = 'git: commands that look read-only or write'
TOP = 'git: options before the subcommand'
PATHS = 'git: path arguments leaving the workspace'
REPO = 'git: hostile repository config'

GIT_CASES = [
    # abbreviations, attached and bundled values of options that write files or run programs
    gc('log-output', ABBREV, plain_repo, ['log', '-p', '--output={absdir}/o.txt'], file_in_case('o.txt')),
    gc('diff-output-separate', ABBREV, plain_repo, ['diff', 'HEAD', '--output', '{absdir}/o.txt'], file_in_case('o.txt')),
    gc('output-full', ABBREV, plain_repo, ['diff', 'HEAD', '--output={absdir}/o.txt'], file_in_case('o.txt')),
    gc('output-show', ABBREV, plain_repo, ['show', '--output', '{absdir}/o.txt'], file_in_case('o.txt')),
    gc('output-after-format', ABBREV, plain_repo, ['log', '--format=%H', '--output={absdir}/o.txt'], file_in_case('o.txt')),
    gc('stash-list-output', ABBREV, repo_with_stash, ['stash', 'list', '--output={absdir}/o.txt'], file_in_case('o.txt')),
    gc('grep-O-attached', ABBREV, plain_repo, ['grep', '-O{evil}', 'alpha'], marker),
    gc('grep-O-bundled-l', ABBREV, plain_repo, ['grep', '-lO{evil}', 'alpha'], marker),
    gc('grep-O-bundled', ABBREV, plain_repo, ['grep', '-iO{evil}', 'alpha'], marker),
    gc('grep-open-abbrev', ABBREV, plain_repo, ['grep', '--open={evil}', 'alpha'], marker),
    gc('grep-open-files-in', ABBREV, plain_repo, ['grep', '--open-files-in={evil}', 'alpha'], marker),
    gc('grep-open-full', ABBREV, plain_repo, ['grep', '--open-files-in-pager={evil}', 'alpha'], marker),
    gc('grep-O-after-e', ABBREV, plain_repo, ['grep', '-e', 'alpha', '-O{evil}'], marker),
    gc('ext-diff-show', ABBREV, repo_with_config(('diff.external', 'EVIL')), ['show', '--ext-diff'], marker),
    gc('ext-diff-full', ABBREV, repo_with_config(('diff.external', 'EVIL')), ['diff', '--ext-diff'], marker),
    gc('ext-diff-log', ABBREV, repo_with_config(('diff.external', 'EVIL')), ['log', '-p', '--ext-diff', '-1'], marker),
    gc('branch-del-abbrev', ABBREV, repo_with_branch, ['branch', '--del', 'victim'], ref_missing('refs/heads/victim')),
    gc('branch-de-abbrev', ABBREV, repo_with_branch, ['branch', '--de', 'victim'], ref_missing('refs/heads/victim')),
    gc('branch-bundled-D', ABBREV, repo_with_branch, ['branch', '-vD', 'victim'], ref_missing('refs/heads/victim')),
    gc('branch-move-abbrev', ABBREV, repo_with_branch, ['branch', '--mov', 'victim', 'moved'], ref_exists('refs/heads/moved')),
    gc('tag-del-abbrev', ABBREV, repo_with_branch, ['tag', '--del', 'victim-tag'], ref_missing('refs/tags/victim-tag')),
    gc('tag-list-then-create', ABBREV, repo_with_branch, ['tag', '-a', '-m', 'x', 'newtag'], ref_exists('refs/tags/newtag')),
    gc('config-unset-abbrev', ABBREV, repo_with_config(('user.name', 'Victim'), modify=False),
       ['config', '--local', '--unset-a', 'user.name'], config_lacks('user.name')),
    gc('config-add-abbrev', ABBREV, plain_repo, ['config', '--local', '--ad', 'core.fsmonitor', 'x'], config_has('core.fsmonitor')),
    # commands that look read-only (or are listed) but write
    gc('branch-create', WRITES, plain_repo, ['branch', 'newb'], ref_exists('refs/heads/newb')),
    gc('tag-create', WRITES, plain_repo, ['tag', 'v9'], ref_exists('refs/tags/v9')),
    gc('config-set', WRITES, plain_repo, ['config', 'core.fsmonitor', 'x'], config_has('core.fsmonitor')),
    gc('config-global-read', WRITES, repo_with_config(('user.name', 'Victim'), modify=False),
       ['config', '--get-regexp', 'user'], lambda ctx, r: 'user.name' in str(r)),
    gc('commit', WRITES, plain_repo, ['commit', '--allow-empty', '-m', 'x'], commits(2)),
    gc('stash-push', WRITES, repo_with_config(modify=True), ['stash'], lambda ctx, r: not worktree_changed(ctx, r)),
    gc('reset-hard', WRITES, repo_with_config(modify=True), ['reset', '--hard'], lambda ctx, r: not worktree_changed(ctx, r)),
    gc('checkout-file', WRITES, repo_with_config(modify=True), ['checkout', '--', 'a.txt'], lambda ctx, r: not worktree_changed(ctx, r)),
    gc('clean-fd', WRITES, repo_with_untracked, ['clean', '-fd'], file_gone('untracked.txt')),
    gc('rm', WRITES, plain_repo, ['rm', '-q', 'a.txt'], file_gone('a.txt')),
    gc('update-ref', WRITES, plain_repo, ['update-ref', 'refs/heads/x', 'HEAD'], ref_exists('refs/heads/x')),
    gc('reflog-expire', WRITES, plain_repo, ['reflog', 'expire', '--expire=now', '--all'],
       lambda ctx, r: git_out(ctx, 'reflog').strip() == ''),
    gc('remote-add', WRITES, plain_repo, ['remote', 'add', 'evil', 'https://example.invalid/x'], config_has('remote.evil.url')),
    quick(gc('remote-show-network', WRITES, repo_with_ssh_remote, ['remote', 'show', 'origin'], marker)),
    quick(gc('ls-remote', WRITES, repo_with_ssh_remote, ['ls-remote', 'origin'], marker)),
    quick(gc('fetch', WRITES, repo_with_ssh_remote, ['fetch', 'origin'], marker)),
    gc('worktree-add', WRITES, plain_repo, ['worktree', 'add', '{absdir}/wt'], file_in_case('wt')),
    gc('notes-add', WRITES, plain_repo, ['notes', 'add', '-m', 'x'], ref_exists('refs/notes/commits')),
    # options before the subcommand
    gc('top-c-alias', TOP, plain_repo, ['-c', 'alias.st=!{evil}', 'st'], marker),
    gc('top-c-fsmonitor', TOP, repo_with_config(), ['-c', 'core.fsmonitor={evil}', 'status'], marker),
    gc('top-C-outside', TOP, gitdir_file_pointing_out, ['-C', '{outside}/real-{id}', 'show', 'HEAD:secret.txt'],
       output_has_secret),
    gc('top-exec-path', TOP, plain_repo, ['--exec-path={outside}', 'version'], lambda ctx, r: 'git version' in str(r)),
    gc('top-git-dir', TOP, gitdir_file_pointing_out, ['--git-dir={outside}/real-{id}/.git', 'show', 'HEAD:secret.txt'],
       output_has_secret),
    gc('top-work-tree', TOP, outside_files, ['--work-tree={outside}', 'status', '--short'],
       lambda ctx, r: ('other-' + ctx.id) in str(r)),
    # path arguments and repositories that lead out of the workspace
    gc('path-dotdot-noindex', PATHS, outside_files, ['diff', '{outside}/secret-{id}.txt', '{outside}/other-{id}.txt'],
       output_has_secret),
    gc('path-no-index', PATHS, outside_files, ['diff', '--no-index', '{outside}/secret-{id}.txt', 'a.txt'], output_has_secret),
    gc('path-relative-out', PATHS, outside_files, ['diff', '../../outside/secret-{id}.txt', '../../outside/other-{id}.txt'],
       output_has_secret),
    gc('path-repo-around', PATHS, repo_around_workspace, ['show', 'HEAD:secret-{id}.txt'], output_has_secret),
    gc('path-repo-around-rev-dotdot', PATHS, repo_around_workspace, ['show', 'HEAD:./../../secret-{id}.txt'], output_has_secret),
    gc('path-repo-around-grep', PATHS, repo_around_workspace, ['grep', 'OUTSIDE', '--', ':/'], output_has_secret),
    gc('path-repo-around-log', PATHS, repo_around_workspace, ['log', '-p', '--', '../../secret-{id}.txt'], output_has_secret),
    gc('path-repo-around-cat', PATHS, repo_around_workspace, ['cat-file', '-p', 'HEAD:secret-{id}.txt'], output_has_secret),
    gc('path-top-magic', PATHS, repo_around_workspace, ['grep', 'OUTSIDE', '--', ':(top)'], output_has_secret),
    gc('path-gitdir-file', PATHS, gitdir_file_pointing_out, ['show', 'HEAD:secret.txt'], output_has_secret),
    case('status-repo-around', PATHS, repo_around_workspace, 'git_get_status', {'path': '{dir}'},
         lambda ctx, r: 'On branch' in str(r)),
    case('diff-repo-around', PATHS, repo_around_workspace, 'git_diff', {'path': '{dir}', 'ref': 'HEAD'},
         lambda ctx, r: 'No changes against HEAD' in str(r)),
    case('branches-repo-around', PATHS, repo_around_workspace, 'git_get_branches', {'path': '{dir}'},
         lambda ctx, r: 'Current branch' in str(r)),
    # hostile repository config on read-only calls
    case('status-fsmonitor', REPO, nested_repo_with_fsmonitor, 'git_get_status', {'path': '{dir}'}, marker, 'neutralised'),
    case('diff-fsmonitor', REPO, nested_repo_with_fsmonitor, 'git_diff', {'path': '{dir}'}, marker, 'neutralised'),
    gc('cmd-status-fsmonitor', REPO, nested_repo_with_fsmonitor, ['status'], marker, 'neutralised'),
    gc('cmd-diff-fsmonitor', REPO, nested_repo_with_fsmonitor, ['diff'], marker, 'neutralised'),
    gc('cmd-lsfiles-fsmonitor', REPO, nested_repo_with_fsmonitor, ['ls-files', '-m'], marker, 'neutralised'),
    gc('cmd-describe-dirty', REPO, nested_repo_with_fsmonitor, ['describe', '--always', '--dirty'], marker, 'neutralised'),
    case('status-filter-clean', REPO, repo_with_config(('filter.x.clean', 'EVIL'), attributes='* filter=x\n'),
         'git_get_status', {'path': '{dir}'}, marker),
    case('diff-filter-clean', REPO, repo_with_config(('filter.x.clean', 'EVIL'), attributes='* filter=x\n'),
         'git_diff', {'path': '{dir}'}, marker),
    gc('cmd-status-filter', REPO, repo_with_config(('filter.x.clean', 'EVIL'), attributes='* filter=x\n'),
       ['status'], marker),
    quick(gc('cmd-diff-filter-process', REPO, repo_with_config(('filter.x.process', 'EVIL'), attributes='* filter=x\n'),
             ['diff'], marker)),
    case('diff-textconv', REPO, repo_with_config(('diff.x.textconv', 'EVIL'), attributes='*.txt diff=x\n'),
         'git_diff', {'path': '{dir}'}, marker),
    gc('cmd-log-textconv', REPO, repo_with_config(('diff.x.textconv', 'EVIL'), attributes='*.txt diff=x\n', modify=False),
       ['log', '-p'], marker),
    gc('cmd-show-textconv', REPO, repo_with_config(('diff.x.textconv', 'EVIL'), attributes='*.txt diff=x\n'),
       ['diff', 'HEAD'], marker),
    gc('cmd-blame-textconv', REPO, repo_with_config(('diff.x.textconv', 'EVIL'), attributes='*.txt diff=x\n'),
       ['blame', 'a.txt'], marker),
    case('diff-external', REPO, repo_with_config(('diff.external', 'EVIL')), 'git_diff', {'path': '{dir}'}, marker,
         'neutralised'),
    gc('cmd-diff-external', REPO, repo_with_config(('diff.external', 'EVIL')), ['diff'], marker, 'neutralised'),
    gc('cmd-diff-command-driver', REPO, repo_with_config(('diff.x.command', 'EVIL'), attributes='*.txt diff=x\n'),
       ['diff'], marker),
    case('status-include', REPO, repo_with_include, 'git_get_status', {'path': '{dir}'}, marker),
    case('status-bare-embedded', REPO, embedded_bare_repo, 'git_get_status', {'path': '{dir}/bare'}, marker, 'neutralised'),
    gc('cmd-bare-embedded', REPO, embedded_bare_repo, ['log'], marker, 'neutralised', path='{dir}/bare'),
    case('status-worktree-out', REPO, gitdir_file_pointing_out, 'git_get_status', {'path': '{dir}'},
         lambda ctx, r: 'secret.txt' in str(r) or 'clean' in str(r)),
    gc('cmd-pager', REPO, repo_with_config(('core.pager', 'EVIL'), ('pager.log', 'EVIL')), ['log'], marker, 'neutralised'),
    gc('cmd-hookspath', REPO, repo_with_config(('core.hooksPath', '{outside}')), ['status'], marker, 'neutralised'),
    gc('cmd-ssh-remote-show-n', REPO, repo_with_ssh_remote, ['remote', 'show', '-n', 'origin'], marker, 'neutralised'),
    gc('cmd-blame-ignorerevs-file', REPO, repo_reading_outside_file('blame.ignoreRevsFile'), ['blame', 'a.txt'],
       output_has_secret),
    gc('cmd-blame-ignorerevs-home', REPO, repo_reading_outside_file('blame.ignoreRevsFile', home=True),
       ['blame', 'a.txt'], output_has_secret),
    gc('cmd-log-commondir-out', PATHS, repo_with_common_dir_outside, ['log', '-p'], output_has_secret),
    case('status-commondir-out', PATHS, repo_with_common_dir_outside, 'git_get_status', {'path': '{dir}'},
         lambda ctx, r: 'On branch' in str(r)),
    gc('cmd-show-alternates-out', PATHS, repo_with_alternates_outside, ['show', '{sha}:secret.txt'], output_has_secret),
    case('branches-fsmonitor', REPO, nested_repo_with_fsmonitor, 'git_get_branches', {'path': '{dir}'}, marker,
         'neutralised'),
]



# ---------------------------------------------------------------------------------------------- beyond git

def links_out(ctx):
    """In the case folder: link.txt → a file outside that does not exist yet (dangling), secret → an
    outside file, dir → an outside folder; and a file inside to edit."""
    ctx.dir.mkdir(parents=True)
    (ctx.outside / ('secret-' + ctx.id + '.txt')).write_text('OUTSIDE-SECRET-' + ctx.id + '\n')
    (ctx.outside / ('dir-' + ctx.id)).mkdir()
    (ctx.outside / ('dir-' + ctx.id) / ('victim-' + ctx.id + '.txt')).write_text('OUTSIDE-SECRET-' + ctx.id + '\n')
    os.symlink(ctx.outside / ('target-' + ctx.id + '.txt'), ctx.dir / 'link.txt')
    os.symlink(ctx.outside / ('secret-' + ctx.id + '.txt'), ctx.dir / 'secret')
    os.symlink(ctx.outside / ('dir-' + ctx.id), ctx.dir / 'dir')
    (ctx.dir / 'a.txt').write_text('alpha\n')


def user_secret_setting(ctx):
    ctx.dir.mkdir(parents=True)
    ctx.window.set_settings({'http.proxyAuthorization': 'Basic OUTSIDE-SECRET-' + ctx.id,
                             'sqltools.connections': [{'name': 'prod', 'password': 'OUTSIDE-SECRET-' + ctx.id}],
                             'hermes.llm.extraHeaders': {'Authorization': 'Bearer OUTSIDE-SECRET-' + ctx.id}})


def outside_file(name):
    def effect(ctx, result):
        return (ctx.outside / name.format(id=ctx.id)).exists()
    return effect


def outside_gone(ctx, result):
    return not (ctx.outside / ('dir-' + ctx.id) / ('victim-' + ctx.id + '.txt')).exists()


def ran(ctx, result):
    return result.get('isError') is False


def file_case(case_id, tool, args, effect):
    c = case(case_id, FILES, links_out, tool, args, effect, 'setting')
    c['settings'] = {'hermes.tools.allowOutsideWorkspace': True}
    return c


def real_only(c, why):
    """A case only the real VS Code can play (tests/e2e/test_hostile_in_vscode.py): the fake lacks `why`."""
    c['real_only'] = why
    return c


def withheld(case_id, tool, args, effect):
    """A read that answers at once, without what lies outside the workspace (it shows it only under the user's
    own hermes.tools.allowOutsideWorkspace)."""
    c = case(case_id, FILES, links_out, tool, args, effect, 'withheld')
    c['settings'] = {'hermes.tools.allowOutsideWorkspace': True}
    return c


def weakened(case_id, workspace_settings, setup, tool, args, effect, kind='gated'):
    c = case(case_id, SETTINGS, setup, tool, args, effect, kind)
    c['workspace_settings'] = workspace_settings
    if kind == 'setting':
        c['settings'] = {'hermes.tools.allowOutsideWorkspace': True}
    return c


FILES = 'files: symlinks (dangling too), .. and absolute paths leaving the workspace'
CODE = 'tools that run code or programs, or read user settings'
SETTINGS = "workspace settings (.vscode/settings.json) that try to weaken the gate"

OTHER_CASES = [
    file_case('fw-dangling-link', 'file_write', {'path': '{dir}/link.txt', 'content': 'x'}, outside_file('target-{id}.txt')),
    file_case('fc-through-dir-link', 'file_create', {'path': '{dir}/dir/created-{id}.txt', 'content': 'x'},
              outside_file('dir-{id}/created-{id}.txt')),
    file_case('fw-dotdot', 'file_write', {'path': '{dir}/../../outside/dd-{id}.txt', 'content': 'x'}, outside_file('dd-{id}.txt')),
    file_case('fw-absolute', 'file_write', {'path': '{outside}/abs-{id}.txt', 'content': 'x'}, outside_file('abs-{id}.txt')),
    file_case('fw-through-dir-link', 'file_write', {'path': '{dir}/dir/new-{id}.txt', 'content': 'x'},
              outside_file('dir-{id}/new-{id}.txt')),
    file_case('fr-link', 'file_read', {'path': '{dir}/secret'}, output_has_secret),
    file_case('fr-dotdot', 'file_read', {'path': '{dir}/../../outside/secret-{id}.txt'}, output_has_secret),
    file_case('fr-absolute', 'file_read', {'path': '{outside}/secret-{id}.txt'}, output_has_secret),
    file_case('fr-through-dir-link', 'file_read', {'path': '{dir}/dir/victim-{id}.txt'}, output_has_secret),
    file_case('fl-dir-link', 'file_list_directory', {'path': '{dir}/dir'}, lambda ctx, r: ('victim-' + ctx.id) in str(r)),
    file_case('fd-through-dir-link', 'file_delete', {'path': '{dir}/dir/victim-{id}.txt'}, outside_gone),
    case('terminal-create', CODE, links_out, 'terminal_create', {'name': 'x', 'show': False}, ran),
    case('debug-evaluate', CODE, links_out, 'debug_evaluate', {'expression': 'process.exit(1)'},
         lambda ctx, r: 'declined' not in str(r)),
    case('breakpoint-condition', CODE, links_out, 'debug_set_breakpoints',
         {'path': '{dir}/a.txt', 'lines': [1], 'condition': 'require("child_process").execSync("id")'}, ran),
    case('user-secret-setting', CODE, user_secret_setting, 'workspace_get_config', {'key': 'http.proxyAuthorization'},
         output_has_secret),
    case('user-secret-extension', CODE, user_secret_setting, 'workspace_get_config', {'key': 'sqltools.connections'},
         output_has_secret),
    case('user-secret-hermes-headers', CODE, user_secret_setting, 'workspace_get_config',
         {'key': 'hermes.llm.extraHeaders'}, output_has_secret),
    real_only(case('user-secret-hermes-section', CODE, user_secret_setting, 'workspace_get_config', {'key': 'hermes'},
                   output_has_secret), "the node fake's getConfiguration has no whole sections"),
    real_only(withheld('search-through-dir-link', 'file_search', {'pattern': '**/victim-{id}.txt', 'use_ignore_files': False},
                       lambda ctx, r: ('dir/victim-' + ctx.id) in str(r)),
              "the node fake has no findFiles (VS Code's follows symlinks)"),
    weakened('ws-confirm-never-write', {'hermes.tools.confirm': 'never'}, links_out, 'file_write',
             {'path': '{dir}/w.txt', 'content': 'x'}, file_in_case('w.txt')),
    weakened('ws-confirm-never-terminal', {'hermes.tools.confirm': 'never'}, links_out, 'terminal_create',
             {'name': 'x', 'show': False}, ran),
    weakened('ws-confirm-never-git', {'hermes.tools.confirm': 'never'}, plain_repo, 'git_command',
             {'args': ['commit', '--allow-empty', '-m', 'x'], 'path': '{dir}'}, commits(2)),
    weakened('ws-allow-outside-read', {'hermes.tools.allowOutsideWorkspace': True}, links_out, 'file_read',
             {'path': '{outside}/secret-{id}.txt'}, output_has_secret, 'setting'),
    weakened('ws-allow-outside-write', {'hermes.tools.allowOutsideWorkspace': True}, links_out, 'file_write',
             {'path': '{outside}/ws-{id}.txt', 'content': 'x'}, outside_file('ws-{id}.txt'), 'setting'),
]

CASES = GIT_CASES + OTHER_CASES
