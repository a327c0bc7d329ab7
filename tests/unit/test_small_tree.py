"""host/small_tree.py lists a small tree in process exactly as `rg --files` does (the file_search fast path
for small folders): every case here is listed both ways, by the real ripgrep VS Code ships and in process,
and the two answers must be the same. Cases it must leave to ripgrep are given up (None)."""
import os
import subprocess
from pathlib import Path

import pytest

from hermes.host import small_tree
from hermes.host.search import anchored

APP_ROOT = Path.home() / '.cache/hermes-dev/code-server-4.139.1/node_modules/code-server/lib/vscode'
RIPGREP = APP_ROOT / 'node_modules/@vscode/ripgrep-universal/bin/linux-x64/rg'
EXCLUDED = ['**/.git', '**/node_modules', 'build', '*.tmp', '**/gen/**']


@pytest.fixture(autouse=True)
def plain_home(tmp_path, monkeypatch):
    """ripgrep and the walker read git's global excludes from HOME: one without any."""
    home = tmp_path / 'home'
    home.mkdir()
    monkeypatch.setenv('HOME', str(home))
    monkeypatch.delenv('XDG_CONFIG_HOME', raising=False)
    return home


def make(root, files):
    """`files`: relative path → text ('->target' makes a symlink, None a folder)."""
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if content is None:
            path.mkdir(exist_ok=True)
        elif content.startswith('->'):
            os.symlink(content[2:], path)
        else:
            path.write_text(content)
    return root


def by_ripgrep(folder, where, excluded):
    if not RIPGREP.exists():
        pytest.skip('code-server (and its ripgrep) is not installed: run `inv setup`')
    args = [str(RIPGREP), '--files', '--no-config', '--hidden', '--no-require-git']
    for glob in excluded:
        args += ['--glob', '!' + anchored(glob)]
    result = subprocess.run(args + ['--', where], cwd=folder, capture_output=True, text=True)
    assert result.returncode in (0, 1), result.stderr
    return sorted(line for line in result.stdout.split('\n') if line)


def in_process(folder, where, excluded=EXCLUDED):
    listed = small_tree.list_small_tree(str(folder), where, excluded)
    return None if listed is None else sorted(listed)


TREE = {
    'a.ts': '', '.env': '', '.hidden/h.ts': '', 'x.log': '', 'keep.log': '', 'notes.tmp': '', 'sub/n.tmp': '',
    'dist/d.ts': '', 'sub/b.ts': '', 'sub/y.log': '', 'sub/deep/c.ts': '', 'sub/deep/more/e.ts': '',
    'build/out.ts': '', 'sub/build/keep.ts': '', 'node_modules/m/index.js': '', 'sub/node_modules/x.js': '',
    'src/gen/g.ts': '', 'src/gen': None, '.git/HEAD': 'ref\n', '.git/info/exclude': '# only comments\n',
    'link.ts': '->a.ts', 'linkdir': '->sub', 'dangling': '->nowhere', 'cache.pyc': '', 'cache.pyo': '', 'cache.py': '',
    'logs/today/app.txt': '', 'logs/readme': '', 'docs/api/index.md': '', 'docs/guide/api/x.md': '', 'Dist': None,
    'only_dir/': None, 'sub/only_dir': 'a file named like a folder rule',
    '.gitignore': 'dist/\n*.log\n!keep.log\n/sub/deep\n*.py[co]\n  \n# comment\nlogs/**\n!logs/readme\ndocs/**/api\n'
                  'only_dir/\n',
    'sub/.gitignore': '!y.log\nmore/\n',
}


@pytest.mark.parametrize('where', ['.', 'sub', 'dist', 'src', 'sub/deep', 'logs', 'docs/guide'])
def test_a_tree_with_gitignore_rules_is_listed_as_ripgrep_lists_it(tmp_path, where):
    folder = make(tmp_path / 'w', TREE)
    os.mkfifo(folder / 'pipe')
    listed = in_process(folder, where)
    assert listed is not None
    assert listed == by_ripgrep(folder, where, EXCLUDED)


def test_rgignore_over_ignore_over_gitignore_and_the_deepest_file_first(tmp_path):
    folder = make(tmp_path / 'w', {
        'one.txt': '', 'two.txt': '', 'three.txt': '', 'four.txt': '', 'sub/one.txt': '', 'sub/two.txt': '',
        'sub/three.txt': '', 'sub/four.txt': '',
        '.gitignore': 'one.txt\ntwo.txt\nthree.txt\n', '.ignore': '!two.txt\nfour.txt\n', '.rgignore': '!three.txt\n',
        'sub/.gitignore': '!one.txt\n', 'sub/.ignore': '!four.txt\n',
    })
    for where in ['.', 'sub']:
        assert in_process(folder, where) == by_ripgrep(folder, where, EXCLUDED)
    assert in_process(folder, '.') == ['./.gitignore', './.ignore', './.rgignore', './sub/.gitignore', './sub/.ignore',
                                       './sub/four.txt', './sub/one.txt', './sub/three.txt', './sub/two.txt',
                                       './three.txt', './two.txt']


def test_a_gitignore_applies_inside_a_nested_repository_too(tmp_path):  # (ripgrep --no-require-git)
    folder = make(tmp_path / 'w', {
        '.gitignore': '*.gen\n', '.ignore': '*.tmpl\n', 'a.gen': '', 'a.tmpl': '',
        'vendor/lib/.git/HEAD': 'ref\n', 'vendor/lib/b.gen': '', 'vendor/lib/b.tmpl': '', 'vendor/c.gen': '',
    })
    for where in ['.', 'vendor', 'vendor/lib']:
        assert in_process(folder, where) == by_ripgrep(folder, where, EXCLUDED)
    assert in_process(folder, '.') == ['./.gitignore', './.ignore']


def test_what_only_ripgrep_reads_exactly_is_left_to_it(tmp_path, plain_home):
    for rules in ['{a,b}.txt\n', 'a\\ b.txt\n', '\\#x\n', 'a**b\n', '\ufeffa.txt\n']:
        folder = make(tmp_path / f'w{len(list(tmp_path.iterdir()))}', {'.gitignore': rules, 'a.txt': ''})
        assert in_process(folder, '.') is None, rules
    folder = make(tmp_path / 'plain', {'a.txt': ''})
    assert in_process(folder, '.', ['{a,b}']) is None
    assert in_process(folder, '.') == ['./a.txt']
    (folder / '.git' / 'info').mkdir(parents=True)
    (folder / '.git' / 'info' / 'exclude').write_text('a.txt\n')
    assert in_process(folder, '.') is None  # the repository's own excludes
    (folder / '.git' / 'info' / 'exclude').write_text('# nothing\n')
    assert in_process(folder, '.') == ['./a.txt']
    (plain_home / '.gitconfig').write_text('[core]\n\texcludesFile = ~/.global-ignore\n')
    assert in_process(folder, '.') is None  # git's global excludes
    (plain_home / '.gitconfig').unlink()
    (tmp_path / 'above').mkdir()
    inner = make(tmp_path / 'above' / 'w', {'a.txt': ''})
    (tmp_path / 'above' / '.ignore').write_text('a.txt\n')
    assert in_process(inner, '.') is None  # an ignore file above the workspace folder


def test_a_tree_larger_than_the_budget_is_left_to_ripgrep(tmp_path, monkeypatch):
    folder = make(tmp_path / 'w', {f'd{n}/f{m}.txt': '' for n in range(5) for m in range(5)})
    monkeypatch.setattr(small_tree, 'MAX_ENTRIES', 20)
    assert in_process(folder, '.') is None
    monkeypatch.setattr(small_tree, 'MAX_ENTRIES', 40)
    assert in_process(folder, '.') == by_ripgrep(folder, '.', EXCLUDED)

