# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import GitGetBranchesArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool
from hermes.core.output_text import text_and_data, cap_list
from hermes.core.git_status import parse_branches, BRANCH_FORMAT
from hermes.tools.git_parts import PATH_ARG

MAX_BRANCHES = 200


async def get_branches(args: 'GitGetBranchesArgs', call: 'CallContext') -> 'ToolReturn':
    git = call.services.git
    root = await git.repository_root(git.directory_of(args['path']), call)
    safe = await git.gate_read_only('git_get_branches', 'git branch', {'path': root}, root, [], call)
    refs = ['refs/heads']
    if args['include_remote']:
        refs.append('refs/remotes')
    format_args = ['for-each-ref', '--sort=-committerdate', '--format=' + BRANCH_FORMAT]
    format_args.extend(refs)
    branches = parse_branches(await git.git_output(format_args, root, call, safe))
    output = await git.git_output(['branch', '--show-current'], root, call, safe)  # (`(await x).strip()` loses its
    current = output.strip() or None                                                # parentheses in Transcrypt)
    shown, note = cap_list(branches, MAX_BRANCHES)
    lines = ['Current branch: ' + (current if current is not None else '(detached HEAD)')]
    for branch in shown:
        line = ('* ' if branch['current'] else '  ') + branch['name'] + ' ' + branch['commit']
        if branch['upstream'] is not None:
            line = line + ' [' + branch['upstream']
            if branch['ahead'] or branch['behind']:
                line = line + ': ahead ' + str(branch['ahead']) + ', behind ' + str(branch['behind'])
            line = line + ']'
        lines.append(line + ' ' + branch['subject'])
    if len(branches) == 0:
        lines.append('(no branches yet: the repository has no commits)')
    if note is not None:
        lines.append(note)
    return text_and_data('\n'.join(lines), {'root': root, 'current': current, 'branches': shown})


TOOL = Tool(
    'git_get_branches',
    'List the git branches of the repository holding a workspace path: local and (by default) remote-tracking '
    'branches, most recently committed first, each with its commit, upstream, ahead/behind counts and last '
    'commit subject; the current branch is marked with *. Read-only.',
    {'type': 'object', 'properties': {
        'path': PATH_ARG,
        'include_remote': {'type': 'boolean', 'default': True, 'description': 'Include remote-tracking branches.'},
    }, 'additionalProperties': False},
    get_branches,
    title='Git branches',
)
