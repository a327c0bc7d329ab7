# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.json import JsonObject
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import GitGetStatusArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool
from hermes.core.output_text import text_and_data, cap_list
from hermes.core.git_status import parse_status, describe_change
from hermes.tools.git_parts import PATH_ARG

MAX_FILES = 500


async def get_status(args: 'GitGetStatusArgs', call: 'CallContext') -> 'ToolReturn':
    git = call.services.git
    root = await git.repository_root(git.directory_of(args['path']), call)
    safe = await git.gate_read_only('git_get_status', 'git status', {'path': root}, root, [], call)
    text = await git.git_output(['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all'], root, call, safe)
    status = parse_status(text)
    status['root'] = root
    lines = [_branch_line(status, call.services.paths.display_path(root))]
    groups = [
        ('Staged', [f for f in status['files'] if f['kind'] == 'tracked' and f['index'] != '.'], 'index'),
        ('Not staged', [f for f in status['files'] if f['kind'] == 'tracked' and f['worktree'] != '.'], 'worktree'),
        ('Unmerged (conflicts)', [f for f in status['files'] if f['kind'] == 'unmerged'], None),
        ('Untracked', [f for f in status['files'] if f['kind'] == 'untracked'], None),
    ]
    for title, files, side in groups:
        if len(files) == 0:
            continue
        shown, note = cap_list(files, MAX_FILES)
        lines.append(title + ':')
        for entry in shown:
            change = '' if side is None else describe_change(entry[side]) + ': '
            renamed = '' if entry['origPath'] is None else ' (from ' + entry['origPath'] + ')'
            lines.append('  ' + change + entry['path'] + renamed)
        if note is not None:
            lines.append('  ' + note)
    if len(status['files']) == 0:
        lines.append('Nothing to commit: the working tree is clean.')
    return text_and_data('\n'.join(lines), status)


def _branch_line(status: 'JsonObject', shown_root: str) -> str:
    branch = status['branch']
    line = ('On branch ' + branch) if branch is not None else 'HEAD detached at ' + str(status['commit'])
    if status['upstream'] is not None:
        line = (line + ', tracking ' + status['upstream'] + ' (ahead ' + str(status['ahead']) + ', behind ' +
                str(status['behind']) + ')')
    if status['commit'] is None:
        line = line + ' (no commits yet)'
    return line + ' — repository ' + shown_root


TOOL = Tool(
    'git_get_status',
    'Show the git status of the repository holding a workspace path: current branch, upstream with '
    'ahead/behind counts, and the staged, unstaged, conflicted and untracked files (paths relative to the '
    'repository root). Read-only.',
    {'type': 'object', 'properties': {'path': PATH_ARG}, 'additionalProperties': False},
    get_status,
    title='Git status',
)
