"""core/git_args.py: read-only is decided the way git parses the command line (exact long options only,
bundled and attached short options, `--`, options before the subcommand), and host/git.py's config scan."""
import pytest

from hermes.core.git_args import classify, quote_args
from hermes.host.git import unsafe_config_keys, config_key_kind, config_file_inside


@pytest.mark.parametrize('args', [
    ['log', '--oneline', '-n', '5'], ['log', '-n5', '--stat'], ['log', '-5'], ['log', '--format=%h %s', 'main..HEAD'],
    ['log', '--format', '%h', '--', 'src'], ['diff', '-U3', '--cached'], ['diff', '--stat=80', 'HEAD~1'],
    ['show', 'HEAD:README.md'], ['grep', '-niw', 'TODO'], ['grep', '-e', 'x', '-C', '2'], ['blame', '-L', '1,5', 'a.py'],
    ['branch', '-vv'], ['branch', '--list', 'fea*'], ['tag', '-l', 'v*'], ['remote', 'show', '-n', 'origin'],
    ['config', '--local', '--get', 'user.name'], ['stash', 'list'], ['reflog'], ['worktree', 'list'],
    ['status', '--porcelain=v2', '-z'], ['ls-files', '-z', '--', 'src'], ['rev-parse', '--abbrev-ref', 'HEAD'],
])
def test_read_only_command_lines(args):
    assert classify(args)['read_only'] is True, classify(args)['reason']


@pytest.mark.parametrize('args, reason', [
    (['diff', '--out=x'], '"--out=x" is not an option known to be read-only for git diff'),
    (['diff', '--outp', 'x'], '"--outp" is not an option known'),
    (['log', '--output=x'], '"--output=x" is not an option known'),
    (['grep', '-O', 'x'], '"-O" is not an option known'),
    (['grep', '-iOvim', 'x'], '"-iOvim" is not an option known'),
    (['grep', '--open=vim', 'x'], '"--open=vim" is not an option known'),
    (['diff', '--ext-d'], '"--ext-d" is not an option known'),
    (['diff', '--no-index', 'a', 'b'], '"--no-index" is not an option known'),
    (['log', '--show-signature'], '"--show-signature" is not an option known'),
    (['log', '--format=%G?'], 'signature checks'),
    (['branch', '--del', 'x'], '"--del" is not an option known'),
    (['branch', '-vD', 'x'], '"-vD" is not an option known'),
    (['branch', 'new'], 'creates a branch'), (['tag', 'v1'], 'creates a tag'),
    (['config', '--get', 'user.name'], 'global settings'), (['config', '--local', 'user.name', 'x'], 'without --get'),
    (['config', '--local', '--unse', 'user.name'], '"--unse" is not an option known'),
    (['remote', 'show', 'origin'], 'contact the network'), (['stash'], 'changes the working tree'),
    (['stash', 'list', '--output=x'], '"--output=x" is not an option known'),
    (['reflog', 'expire'], 'changes the reflog'), (['-c', 'core.pager=x', 'log'], 'options before the subcommand'),
    (['-C', '/', 'log'], 'options before the subcommand'), (['--exec-path=/tmp', 'status'], 'options before'),
    (['commit', '-m', 'x'], 'not on the list'), (['log', '-'], '"-" is not an option known'),
    (['log', '-n'], '"-n" is not an option known'), (['help', 'log'], 'not on the list'), ([], 'no subcommand'),
])
def test_command_lines_that_ask(args, reason):
    verdict = classify(args)
    assert verdict['read_only'] is False and reason in verdict['reason']


def test_paths_are_reported_for_confinement():
    assert classify(['log', '-p', 'HEAD', '--', '../x', 'y'])['paths'] == ['HEAD', '../x', 'y']
    assert classify(['blame', '-L', '1,2:../a.py', 'b.py'])['paths'] == ['b.py', '../a.py']
    assert classify(['branch', '--list', '../x'])['paths'] == []


def test_quote_args_shows_what_git_receives():
    assert quote_args(['commit', '-m', "it's a b", '--', '']) == "commit -m 'it'\\''s a b' -- ''"


def test_unsafe_config_keys_come_from_the_repository_only():
    listing = '\x00'.join(['global', 'filter.lfs.clean\ngit-lfs clean', 'local', 'filter.x.clean\nevil',
                           'local', 'core.fsmonitor\nevil', 'local', 'diff.x.textconv\nevil', 'local',
                           'include.path\n/tmp/x', 'worktree', 'core.worktree\n/', 'local', 'user.name\nme']) + '\x00'
    assert unsafe_config_keys(listing) == ['filter.x.clean', 'diff.x.textconv', 'include.path', 'core.worktree']


@pytest.mark.parametrize('key, kind', [
    ('blame.ignoreRevsFile', 'file'), ('mailmap.file', 'file'), ('diff.orderFile', 'file'), ('include.path', 'file'),
    ('includeIf.gitdir:/x/.path', 'file'), ('core.worktree', 'file'), ('http.https://h.example.sslKey', 'file'),
    ('commit.template', 'file'), ('fsck.skipList', 'file'), ('filter.x.clean', 'program'),
    ('credential.https://h.example.helper', 'program'), ('difftool.x.cmd', 'program'),
    ('submodule.x.update', 'program'), ('remote.origin.uploadpack', 'program'), ('gpg.ssh.defaultKeyCommand', 'program'),
    # what SAFE_CONFIG overrides, and what names neither
    ('core.fsmonitor', None), ('core.hooksPath', None), ('credential.helper', None), ('diff.external', None),
    ('core.pager', None), ('user.name', None), ('submodule.x.path', None), ('remote.origin.url', None)])
def test_config_keys_naming_programs_or_files(key, kind):
    assert config_key_kind(key) == kind


def test_a_config_file_inside_the_workspace_is_no_concern_but_one_outside_is(tmp_path):
    import vscode
    (tmp_path / 'ws').mkdir()
    vscode.workspace.open_folders([str(tmp_path / 'ws')])
    inside = config_file_inside([str(tmp_path / 'ws'), str(tmp_path / 'ws' / '.git')])
    listing = '\x00'.join(['local', 'blame.ignorerevsfile\n.git-blame-ignore-revs', 'local',
                           'mailmap.file\n' + str(tmp_path / 'elsewhere'), 'local', 'diff.orderfile\n~/order',
                           'local', 'commit.template\n../../t', 'local', 'filter.x.clean\nin-workspace-but-a-program']) + '\x00'
    assert unsafe_config_keys(listing, inside) == ['mailmap.file', 'diff.orderfile', 'commit.template', 'filter.x.clean']
    assert unsafe_config_keys(listing) == ['blame.ignorerevsfile', 'mailmap.file', 'diff.orderfile', 'commit.template',
                                           'filter.x.clean']
