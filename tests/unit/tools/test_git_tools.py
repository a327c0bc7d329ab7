"""Git tools on real repositories (the `git` program), with the shim's VS Code around them."""
import asyncio
import subprocess

import pytest
import vscode
from hermes.core.git_status import parse_status
from hermes.core.tools import Services, ToolCall
from hermes.host.approval import Approver
from hermes.host.git import is_read_only
from hermes.host.tool_services import GitService, PathService
from hermes.tools.catalog import build_registry as build_registry_with
from service_fakes import FakeGit, run_tool


def build_registry(approver=None):
    """The git tools get git and the workspace paths from `call.services`, as in a window (host/services.py)."""
    return build_registry_with(approver, Services(git=GitService(), paths=PathService()))


def git(repo, *args):
    return subprocess.run(['git', *args], cwd=repo, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def repo(tmp_path):
    path = tmp_path / 'project'
    path.mkdir()
    git(path, 'init', '-q', '-b', 'main')
    git(path, 'config', 'user.email', 'test@example.com')
    git(path, 'config', 'user.name', 'Test')
    (path / 'app.py').write_text('print(1)\n')
    (path / 'README.md').write_text('# Project\n')
    git(path, 'add', '.')
    git(path, 'commit', '-q', '-m', 'First commit')
    vscode.workspace.open_folders([str(path)])
    return path


def call(name, arguments=None, registry=None):
    registry = registry or build_registry()
    return asyncio.run(registry.call(name, arguments or {}, ToolCall()))


def text(result):
    return result['content'][0]['text']


def test_status_of_a_clean_repository(repo):
    result = call('git_get_status')
    assert result['isError'] is False
    assert text(result) == ('On branch main — repository .\nNothing to commit: the working tree is clean.')
    assert result['structuredContent']['branch'] == 'main' and result['structuredContent']['files'] == []


def test_status_lists_staged_unstaged_renamed_and_untracked_files(repo):
    (repo / 'app.py').write_text('print(2)\n')
    git(repo, 'mv', 'README.md', 'README.txt')
    (repo / 'new dir').mkdir()
    (repo / 'new dir' / 'notes é.txt').write_text('x\n')
    result = call('git_get_status', {'path': 'app.py'})
    assert text(result) == ('On branch main — repository .\n'
                            'Staged:\n  renamed: README.txt (from README.md)\n'
                            'Not staged:\n  modified: app.py\n'
                            'Untracked:\n  new dir/notes é.txt')
    kinds = {entry['path']: (entry['kind'], entry['index'], entry['worktree'])
             for entry in result['structuredContent']['files']}
    assert kinds == {'README.txt': ('tracked', 'R', '.'), 'app.py': ('tracked', '.', 'M'),
                     'new dir/notes é.txt': ('untracked', '?', '?')}


def test_status_outside_a_repository_or_the_workspace(tmp_path):
    plain = tmp_path / 'plain'
    plain.mkdir()
    vscode.workspace.open_folders([str(plain)])
    result = call('git_get_status')
    assert result['isError'] is True and 'is not inside a git repository' in text(result)
    assert 'outside the workspace' in text(call('git_get_status', {'path': '/etc'}))


def test_branches(repo):
    git(repo, 'branch', 'feature')
    git(repo, 'checkout', '-q', 'feature')
    (repo / 'f.txt').write_text('f\n')
    git(repo, 'add', '.')
    git(repo, 'commit', '-q', '-m', 'Feature work')
    result = call('git_get_branches')
    data = result['structuredContent']
    assert data['current'] == 'feature'
    assert [(b['name'], b['current'], b['subject']) for b in data['branches']] == [
        ('feature', True, 'Feature work'), ('main', False, 'First commit')]
    assert text(result).startswith('Current branch: feature\n* feature ')


def test_diff_unstaged_staged_against_a_ref_and_for_one_path(repo):
    (repo / 'app.py').write_text('print(2)\n')
    unstaged = call('git_diff')
    assert '-print(1)\n+print(2)' in text(unstaged) and text(unstaged).startswith('diff --git a/app.py b/app.py')
    assert text(call('git_diff', {'staged': True})).startswith('No staged changes.')
    git(repo, 'add', 'app.py')
    assert '+print(2)' in text(call('git_diff', {'staged': True}))
    assert '+print(2)' in text(call('git_diff', {'ref': 'HEAD', 'path': 'app.py'}))
    assert text(call('git_diff', {'path': 'README.md'})).startswith('No unstaged changes in README.md.')
    assert 'app.py | 2 +-' in text(call('git_diff', {'ref': 'HEAD', 'stat': True}))


def test_git_tools_take_their_defaults_from_their_schemas(repo):
    registry = build_registry()
    defaults = {name: {key: spec['default'] for key, spec in registry.get(name).input_schema['properties'].items()
                       if 'default' in spec}
                for name in ['git_command', 'git_diff', 'git_get_branches', 'git_get_status']}
    assert defaults == {'git_command': {'timeout_seconds': 60, 'max_chars': 50000},
                        'git_diff': {'staged': False, 'context_lines': 3, 'stat': False, 'max_chars': 50000},
                        'git_get_branches': {'include_remote': True}, 'git_get_status': {}}
    assert registry.get('git_diff').input_schema['properties']['context_lines']['description'] == \
        'Lines of context. Default: 3.'
    # The schema's 3, not the repository's own diff.context: the model reads what the tool does.
    git(repo, 'config', 'diff.context', '0')
    (repo / 'app.py').write_text('a\nb\nc\nd\n')
    git(repo, 'commit', '-qam', 'four lines')
    (repo / 'app.py').write_text('a\nb\nC\nd\n')
    assert '@@ -1,4 +1,4 @@\n a\n b\n-c\n+C\n d' in text(call('git_diff'))
    assert '@@ -3 +3 @@ b\n-c\n+C' in text(call('git_diff', {'context_lines': 0}))


def test_diff_refuses_an_option_as_ref_and_caps_long_output(repo):
    bad = call('git_diff', {'ref': '--output=/tmp/x'})
    assert bad['isError'] is True and '"ref" must be a commit' in text(bad)
    (repo / 'app.py').write_text(''.join(f'line {n}\n' for n in range(5000)))
    capped = text(call('git_diff', {'max_chars': 1000}))
    assert len(capped) < 1200 and 'more lines' in capped


def test_git_command_runs_read_only_subcommands_without_asking(repo):
    vscode.workspace.settings['hermes.tools.confirm'] = 'destructive'
    result = call('git_command', {'args': ['log', '--format=%s']}, build_registry(Approver()))
    assert result['isError'] is False
    assert text(result) == '$ git log --format=%s  (exit code 0)\nFirst commit'
    assert vscode.window.messages == []


def test_git_command_asks_before_writing_and_honours_the_answer(repo):
    registry = build_registry(Approver())
    (repo / 'app.py').write_text('print(3)\n')
    git(repo, 'add', '.')
    vscode.window.message_answers.append(None)  # dismissed
    declined = call('git_command', {'args': ['commit', '-m', 'Change']}, registry)
    assert declined['isError'] is True and text(declined).startswith('The user declined to run git_command.')
    [(level, title, items)] = vscode.window.messages
    assert title == 'Allow Hermes to run "git commit -m Change"?' and '"commit"' in items[0]['detail']
    assert git(repo, 'log', '--format=%s').split('\n')[0] == 'First commit'
    vscode.window.message_answers.append('Allow')
    allowed = call('git_command', {'args': ['commit', '-m', 'Change']}, registry)
    assert allowed['isError'] is False and allowed['structuredContent']['exitCode'] == 0
    assert git(repo, 'log', '--format=%s').split('\n')[0] == 'Change'


def test_git_command_never_asks_with_confirm_never_and_asks_once_with_always(repo):
    registry = build_registry(Approver())
    vscode.workspace.settings['hermes.tools.confirm'] = 'never'
    assert call('git_command', {'args': ['tag', 'v1']}, registry)['isError'] is False
    assert vscode.window.messages == []
    vscode.workspace.settings['hermes.tools.confirm'] = 'always'
    vscode.window.message_answers.append('Allow')
    assert call('git_command', {'args': ['tag', 'v2']}, registry)['isError'] is False
    assert len(vscode.window.messages) == 1, 'the gate asked for the call; the handler must not ask again'
    assert git(repo, 'tag').split() == ['v1', 'v2']


def test_git_command_failures(repo):
    options_first = call('git_command', {'args': ['-c', 'core.pager=evil', 'log']}, build_registry(Approver()))
    assert options_first['isError'] is True and text(options_first).startswith('The user declined')
    assert 'options before the subcommand' in vscode.window.messages[0][2][0]['detail']
    failing = call('git_command', {'args': ['show', 'no-such-ref']})
    assert failing['isError'] is False and failing['structuredContent']['exitCode'] == 128
    assert 'stderr:\nfatal:' in text(failing)
    assert call('git_command', {'args': []})['isError'] is True


@pytest.mark.parametrize('args, read_only', [
    (['status'], True), (['log', '-5'], True), (['diff', '--output=x'], False), (['diff', '--no-index', 'a', 'b'], False),
    (['branch'], True), (['branch', '-a', '-v'], True), (['branch', 'new'], False), (['branch', '-D', 'x'], False),
    (['branch', '--list', 'fea*'], True), (['tag'], True), (['tag', 'v1'], False), (['tag', '-l', 'v*'], True),
    (['remote', '-v'], True), (['remote', 'add', 'o', 'u'], False), (['stash'], False), (['stash', 'list'], True),
    (['config', '--get', 'user.name'], False), (['config', '--local', '--get', 'user.name'], True), (['config', 'user.name', 'x'], False), (['commit', '-m', 'x'], False),
    (['grep', '-Ovim', 'x'], False), (['push'], False), (['checkout', 'main'], False), (['reset', '--hard'], False),
    (['blame', 'a.py'], True), (['rev-parse', 'HEAD'], True), (['help', 'log'], False), ([], False),
])
def test_read_only_classification(args, read_only):
    assert is_read_only(args) is read_only


def test_parse_status_headers_and_conflicts():
    text = '\x00'.join(['# branch.oid abc', '# branch.head feature', '# branch.upstream origin/feature',
                        '# branch.ab +2 -1', 'u UU N... 100644 100644 100644 100644 h1 h2 h3 both.txt',
                        '1 .M N... 100644 100644 100644 h1 h2 with space.txt', '! build/']) + '\x00'
    status = parse_status(text)
    assert (status['branch'], status['upstream'], status['ahead'], status['behind']) == ('feature', 'origin/feature', 2, 1)
    assert [(f['path'], f['kind']) for f in status['files']] == [
        ('both.txt', 'unmerged'), ('with space.txt', 'tracked'), ('build/', 'ignored')]


def test_allow_for_session_covers_exactly_the_command_shown(repo):
    registry = build_registry(Approver())
    vscode.window.message_answers.append('Allow for This Session')
    assert call('git_command', {'args': ['tag', 'a']}, registry)['isError'] is False
    git(repo, 'tag', '-d', 'a')
    assert call('git_command', {'args': ['tag', 'a']}, registry)['isError'] is False
    assert len(vscode.window.messages) == 1
    vscode.window.message_answers.append(None)
    assert call('git_command', {'args': ['tag', 'b']}, registry)['isError'] is True
    assert len(vscode.window.messages) == 2
    assert git(repo, 'tag').split() == ['a']

def test_a_git_tool_runs_on_a_fake_git_service_alone():
    fake = FakeGit({'for-each-ref': 'refs/heads/main\x00main\x00abc1234\x00\x00\x00*\x00First commit\n',
                    'branch': 'main\n'})
    result = run_tool('git_get_branches', {}, git=fake)
    assert text(result) == 'Current branch: main\n* main abc1234 First commit'
    assert fake.ran == [('for-each-ref', '/w', True), ('branch', '/w', True)]
    missing = call('git_get_branches', {}, build_registry_with(None, Services()))
    assert missing['isError'] and text(missing).startswith('git is not available')
