"""Is a git command line read-only? Decided from an allowlist of subcommands AND of their options, parsed
the way git parses them, so that nothing git would read differently slips through:
- long options match only exactly: git also accepts any unambiguous prefix (`--out` is `--output`), so a
  prefix is "not known to be read-only" and asks; `--opt=value` and `--opt value` both consume the value;
- short options may be bundled (`-nw`) and take attached values (`-n5`, `-U3`); every letter must be known;
- `--` ends the options: what follows is paths;
- options before the subcommand (`-c`, `-C`, `--git-dir`, `--exec-path`, …) always ask.
Anything not provably read-only asks (`classify(...)['reason']` says why). Path arguments are returned so
the host can confine them to the workspace (host/git.py). Options that name a file to read or write,
run a program (`--ext-diff`, `--textconv`, `-O`, `--show-signature`), read stdin or leave the repository
(`--no-index`, `--submodule`, `--global`) are simply not on the lists.

Option tables: '--name' a flag, '--name=' takes a value, '--name=?' an optional value (only attached,
`--name=v`, as git takes it); '-x' a flag, '-x=' a value (attached or the next argument), '-x=?' an
optional attached value; '-NUM' allows `-5` (log's count). Each table is written as one string (`_options`).
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, List, Optional
from hermes.contracts.json import JsonObject
# __pragma__('noskip')


def _options(text: str) -> 'List[str]':
    """A table written as one string of options separated by single spaces: in the bundle that is a third of the
    bytes of a list of string literals."""
    return text.split(' ')


DIFF = _options('-p -u --patch -s --no-patch --raw --patch-with-raw --patch-with-stat --stat=? --numstat --shortstat '
                '--dirstat=? --summary --name-only --name-status --compact-summary --no-color --color=? --word-diff=? '
                '--word-diff-regex= --color-words=? --no-renames --find-renames=? -M=? --find-copies=? -C=? '
                '--find-copies-harder -D --irreversible-delete -B=? --break-rewrites=? --diff-filter= -R --relative=? '
                '--no-relative -a --text --ignore-space-at-eol -b --ignore-space-change -w --ignore-all-space '
                '--ignore-blank-lines --ignore-cr-at-eol --inter-hunk-context= -W --function-context --minimal '
                '--patience --histogram --anchored= --diff-algorithm= --full-index --binary --abbrev=? --no-abbrev '
                '-U=? --unified= --src-prefix= --dst-prefix= --no-prefix -z --exit-code --quiet --check -S= -G= '
                '--pickaxe-all --pickaxe-regex --ignore-submodules=? --no-ext-diff --no-textconv '
                '--ita-invisible-in-index --merge-base --cached --staged --indent-heuristic --no-indent-heuristic '
                '--color-moved=? --no-color-moved --stat-width= --stat-count=')
LOG = _options('--oneline --pretty=? --format= --abbrev-commit --no-abbrev-commit --decorate=? --no-decorate --graph '
               '--all --branches=? --tags=? --remotes=? --glob= --exclude= -n= --max-count= -NUM --skip= --since= '
               '--after= --until= --before= --author= --committer= --grep= --all-match --invert-grep -i '
               '--regexp-ignore-case -E --extended-regexp -F --fixed-strings --merges --no-merges --first-parent '
               '--reverse --date= --relative-date --follow --full-history --simplify-merges --ancestry-path '
               '--topo-order --date-order --author-date-order --left-right --cherry-pick --cherry-mark --boundary '
               '--parents --children --no-walk=? --source -m -c --cc --diff-merges= --no-merges --max-parents= '
               '--min-parents= --count --encoding= --name-status -L= --no-notes --walk-reflogs -g --max-age= '
               '--min-age= --objects --in-commit-order')
STATUS = _options('-s --short -b --branch --porcelain=? --long -v --verbose -u=? --untracked-files=? --ignored=? -z '
                  '--column=? --no-column --ahead-behind --no-ahead-behind --renames --no-renames --find-renames=? '
                  '--show-stash')
BLAME = _options('-b --root --show-stats -L= -l -t -s -e --show-email -w -n --show-number -f --show-name -p '
                 '--porcelain --line-porcelain --incremental -M=? -C=? --date= --abbrev=? --reverse= --first-parent '
                 '-c --score-debug --no-textconv --minimal --color-lines --color-by-age --progress --no-progress '
                 '--encoding=')
GREP = _options('--cached --untracked --no-exclude-standard --exclude-standard --recurse-submodules -a --text '
                '--no-textconv -i --ignore-case -I --max-depth= -r --recursive --no-recursive -w --word-regexp -v '
                '--invert-match -h -H --full-name -E --extended-regexp -G --basic-regexp -P --perl-regexp -F '
                '--fixed-strings -n --line-number --column -l --files-with-matches --name-only -L '
                '--files-without-match -z --null -o --only-matching -c --count --color=? --no-color --break --heading '
                '-p --show-function -A= --after-context= -B= --before-context= -C= --context= -NUM -W '
                '--function-context --threads= -e= --and --or --not --all-match -q --quiet -m= --max-count=')
LS_FILES = _options('-c --cached -d --deleted -m --modified -o --others -i --ignored -s --stage --directory '
                    '--no-empty-directory -u --unmerged -k --killed -z -t -v -f --exclude-standard --error-unmatch '
                    '--full-name --recurse-submodules --abbrev=? --debug --eol --deduplicate --format= --sparse -x= '
                    '--exclude=')
LS_TREE = _options('-d -r -t -l --long -z --name-only --name-status --object-only --full-name --full-tree --abbrev=? '
                   '--format=')
CAT_FILE = _options('-t -s -e -p --allow-unknown-type --mailmap --no-mailmap --use-mailmap')
REV_PARSE = _options('--verify -q --quiet --short=? --abbrev-ref=? --symbolic --symbolic-full-name --show-toplevel '
                     '--show-prefix --show-cdup --git-dir --git-common-dir --absolute-git-dir --is-inside-work-tree '
                     '--is-inside-git-dir --is-bare-repository --is-shallow-repository --show-object-format=? --all '
                     '--branches=? --tags=? --remotes=? --not --revs-only --no-revs --flags --no-flags --default= '
                     '--since= --after= --until= --before= --show-ref-format --path-format=')
REFS = _options('--format= --sort= --count= --contains= --no-contains= --merged= --no-merged= --points-at= --shell '
                '--perl --python --tcl --ignore-case --omit-empty --exclude=')
SHOW_REF = _options('--head --heads --tags --branches -d --dereference -s --hash=? --abbrev=? --verify -q --quiet '
                    '--exists')
DESCRIBE = _options('--all --tags --contains --abbrev= --candidates= --exact-match --debug --long --match= --exclude= '
                    '--always --first-parent --dirty=? --broken=?')
BRANCH = _options('-a --all -r --remotes -v -vv --verbose -q --quiet --list -l --show-current --abbrev=? --no-abbrev '
                  '--column=? --no-column --sort= --contains= --no-contains= --merged= --no-merged= --points-at= '
                  '--format= -i --ignore-case --color=? --no-color --omit-empty')
TAG = _options('-l --list -n=? --sort= --contains= --no-contains= --merged= --no-merged= --points-at= --format= '
               '--column=? --no-column -i --ignore-case --color=? --omit-empty')
CONFIG = _options('--local --worktree --get --get-all --get-regexp --list -l --name-only --show-origin --show-scope '
                  '-z --null --type= --bool --int --bool-or-int --path --default= --no-includes --fixed-value')
SHORTLOG = _options('-n --numbered -s --summary -e --email -c --committer --group= -w=?')



def _joined(*tables: 'List[str]') -> 'List[str]':
    """One list from several (`+` on lists is string concatenation in the bundle)."""
    result = []  # type: List[str]
    for table in tables:
        result.extend(table)
    return result


# subcommand → its option table; diff-family and log-family commands also take the diff options.
TABLES = [  # type: List[Any]
    ['status', STATUS], ['log', _joined(LOG, DIFF)], ['whatchanged', _joined(LOG, DIFF)],
    ['show', _joined(LOG, DIFF)], ['diff', DIFF],
    ['diff-tree', _joined(DIFF, _options('-r -t --root --no-commit-id -v'))],
    ['diff-files', _joined(DIFF, _options('-q -0 -1 -2 -3 --base --ours --theirs'))],
    ['diff-index', _joined(DIFF, ['-m'])], ['rev-list', LOG], ['shortlog', _joined(LOG, SHORTLOG)], ['blame', BLAME],
    ['annotate', BLAME], ['grep', GREP], ['ls-files', LS_FILES], ['ls-tree', LS_TREE], ['cat-file', CAT_FILE],
    ['rev-parse', REV_PARSE], ['for-each-ref', REFS], ['show-ref', SHOW_REF], ['describe', DESCRIBE],
    ['merge-base', _options('-a --all --octopus --independent --is-ancestor --fork-point')],
    ['name-rev', _options('--tags --refs= --exclude= --all --name-only --no-undefined --always')],
    ['count-objects', _options('-v --verbose -H --human-readable')],
    ['check-ignore', _options('-q --quiet -v --verbose -n --non-matching --no-index -z')],
    ['check-attr', _options('-a --all --cached -z')], ['cherry', ['-v', '--abbrev=?']],
    ['show-branch', _options('-r --remotes -a --all --current --topo-order --date-order --sparse --more= --list '
                             '--merge-base --independent --no-name --sha1-name --topics')],
    ['range-diff', _joined(DIFF, _options('--creation-factor= --no-dual-color --left-only --right-only'))],
    ['version', ['--build-options']], ['branch', BRANCH], ['tag', TAG], ['config', CONFIG],
    ['remote', ['-v', '--verbose', '-n']], ['stash', DIFF], ['reflog', _joined(LOG, DIFF)],
    ['worktree', _options('--porcelain -v --verbose -z')],
]
# Subcommands whose arguments are never paths (refs, patterns, config names): no path confinement.
NO_PATHS = ['rev-parse', 'for-each-ref', 'show-ref', 'describe', 'merge-base', 'name-rev', 'branch', 'tag',
            'config', 'remote', 'stash', 'worktree', 'version', 'count-objects', 'cherry', 'show-branch', 'range-diff']
TOP_LEVEL = 'options before the subcommand (such as -c, -C, --git-dir, --exec-path) change which repository, ' \
            'configuration and programs git uses'


def _table_for(subcommand: str) -> 'Optional[List[str]]':
    for entry in TABLES:
        if entry[0] == subcommand:
            return entry[1]
    return None


def _kind(table: 'List[str]', name: str) -> 'Optional[str]':
    """'flag', 'value', 'optional' or None for an option name ('--stat', '-n') in a table."""
    if name in table:
        return 'flag'
    if (name + '=') in table:
        return 'value'
    if (name + '=?') in table:
        return 'optional'
    return None


def parse_options(args: 'List[str]', table: 'List[str]') -> 'Any':
    """git's reading of `args` (after the subcommand) against `table`:
    {'options': [[name, value]], 'positionals': [...], 'after_dashdash': [...], 'unknown': None | arg}."""
    parsed = {'options': [], 'positionals': [], 'after_dashdash': [], 'unknown': None}  # type: Any
    index = 0
    while index < len(args):
        arg = args[index]
        index = index + 1
        if arg == '--':
            parsed['after_dashdash'] = args[index:]
            return parsed
        if arg == '-' or not arg.startswith('-'):
            if arg == '-':
                parsed['unknown'] = arg  # stdin
                return parsed
            parsed['positionals'].append(arg)
            continue
        if arg.startswith('--'):
            equals = arg.find('=')
            name = arg if equals == -1 else arg[:equals]
            kind = _kind(table, name)
            if kind is None or (equals != -1 and kind == 'flag'):
                parsed['unknown'] = arg
                return parsed
            if equals != -1:
                parsed['options'].append([name, arg[equals + 1:]])
            elif kind == 'value':
                if index >= len(args):
                    parsed['unknown'] = arg
                    return parsed
                parsed['options'].append([name, args[index]])
                index = index + 1
            else:
                parsed['options'].append([name, None])
            continue
        letters = arg[1:]
        if _all_digits(letters) and '-NUM' in table:
            parsed['options'].append(['-NUM', letters])
            continue
        if arg in table:  # whole-word short options git spells with one dash (-vv)
            parsed['options'].append([arg, None])
            continue
        position = 0
        while position < len(letters):
            name = '-' + letters[position]
            rest = letters[position + 1:]
            kind = _kind(table, name)
            if kind is None:
                parsed['unknown'] = arg
                return parsed
            if kind == 'flag':
                parsed['options'].append([name, None])
                position = position + 1
                continue
            if rest != '' or kind == 'optional':
                parsed['options'].append([name, rest])
            elif index < len(args):
                parsed['options'].append([name, args[index]])
                index = index + 1
            else:
                parsed['unknown'] = arg
                return parsed
            break
    return parsed


def _all_digits(text: str) -> bool:
    if text == '':
        return False
    for char in text:
        if char < '0' or char > '9':
            return False
    return True


def _names(parsed: 'Any') -> 'List[str]':
    return [option[0] for option in parsed['options']]


def _asks(subcommand: 'Optional[str]', reason: str) -> 'JsonObject':
    return {'read_only': False, 'subcommand': subcommand, 'reason': reason, 'paths': []}


def classify(args: 'List[str]') -> 'JsonObject':
    """{'read_only', 'subcommand', 'reason' (why it must ask; '' when read-only), 'paths' (arguments that
    may name files: to be confined to the workspace)} for `git <args>`."""
    if len(args) == 0:
        return _asks(None, 'no subcommand')
    subcommand = args[0]
    if subcommand.startswith('-'):
        return _asks(None, TOP_LEVEL)
    table = _table_for(subcommand)
    if table is None:
        return _asks(subcommand, '"git ' + subcommand + '" is not on the list of read-only subcommands')
    parsed = parse_options(args[1:], table)
    if parsed['unknown'] is not None:
        return _asks(subcommand, '"' + parsed['unknown'] + '" is not an option known to be read-only for git ' +
                     subcommand + ' (git also reads abbreviations of long options, so only exact names count)')
    refusal = _subcommand_rule(subcommand, parsed)
    if refusal is not None:
        return _asks(subcommand, refusal)
    paths = []
    if subcommand not in NO_PATHS:
        paths.extend(parsed['positionals'])
    paths.extend(parsed['after_dashdash'])
    for option in parsed['options']:
        if option[0] == '-L' and option[1] is not None and ':' in option[1]:
            paths.append(option[1][option[1].rfind(':') + 1:])  # -L <range>:<file>
    return {'read_only': True, 'subcommand': subcommand, 'reason': '', 'paths': paths}


def _subcommand_rule(subcommand: str, parsed: 'Any') -> 'Optional[str]':
    """Why a listed subcommand would still write (or reach the network), or None."""
    names = _names(parsed)
    positionals = parsed['positionals']
    listing = '--list' in names or '-l' in names
    if subcommand == 'branch' or subcommand == 'tag':
        if len(positionals) > 0 and not listing:
            return '"git ' + subcommand + ' <name>" creates a ' + subcommand
        return None
    if subcommand == 'config':
        if not ('--local' in names or '--worktree' in names):
            return 'git config reads your global settings outside the workspace unless --local is given'
        if not any([name in ['--get', '--get-all', '--get-regexp', '--list', '-l'] for name in names]):
            return 'git config without --get/--list can change settings'
        return None
    if subcommand == 'remote':
        if len(positionals) == 0:
            return None
        if positionals[0] == 'get-url':
            return None
        if positionals[0] == 'show' and '-n' in names:
            return None
        return '"git remote ' + positionals[0] + '" can change remotes or contact the network (read-only: ' \
               '"remote -v", "remote get-url", "remote show -n")'
    if subcommand == 'stash':
        if len(positionals) > 0 and positionals[0] in ['list', 'show']:
            return None
        return 'git stash without "list"/"show" changes the working tree'
    if subcommand == 'reflog':
        if len(positionals) == 0 or positionals[0] == 'show':
            return None
        return '"git reflog ' + positionals[0] + '" changes the reflog'
    if subcommand == 'worktree':
        if len(positionals) == 1 and positionals[0] == 'list':
            return None
        return 'only "git worktree list" is read-only'
    for option in parsed['options']:
        if option[0] in ['--format', '--pretty'] and option[1] is not None and '%G' in option[1]:
            return 'the format asks for signature checks (%G…), which run gpg'
    return None


def is_read_only(args: 'List[str]') -> bool:
    return classify(args)['read_only']


def quote_args(args: 'List[str]') -> str:
    """`git <args>` as a shell would need it typed: what the user is shown and asked about."""
    quoted = []
    for arg in args:
        plain = arg != ''
        for char in arg:
            if not ((char >= 'a' and char <= 'z') or (char >= 'A' and char <= 'Z') or (char >= '0' and char <= '9')
                    or char in '_./=:@%^~+,-'):
                plain = False
        quoted.append(arg if plain else "'" + arg.replace("'", "'\\''") + "'")
    return ' '.join(quoted)
