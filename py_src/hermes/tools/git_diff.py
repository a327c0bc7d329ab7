# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import GitDiffArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool, ToolError
from hermes.core.output_text import text_and_data, cap_head
from hermes.core.git_args import quote_args


async def get_diff(args: 'GitDiffArgs', call: 'CallContext') -> 'ToolReturn':
    git = call.services.git
    path_text = args['path']
    root = await git.repository_root(git.directory_of(path_text), call)
    command = ['diff', '--no-color', '--no-ext-diff']
    if args['staged']:
        command.append('--cached')
    command.append('--unified=' + str(args['context_lines']))
    if args['stat']:
        command.append('--stat')
    ref = args['ref']
    if ref is not None:
        if ref.startswith('-') or ref.strip() == '':
            raise ToolError('"ref" must be a commit, branch or range such as "HEAD~1" or "main...HEAD", not an option.')
        command.append(ref)
    command.append('--')
    if path_text is not None:
        command.append(call.services.paths.resolve_path(path_text))
    safe = await git.gate_read_only('git_diff', 'git ' + quote_args(command), {'path': path_text, 'ref': ref}, root,
                                [] if ref is None else [ref], call)
    diff = await git.git_output(command, root, call, safe)
    limit = args['max_chars']
    what = ('staged changes' if args['staged'] else 'unstaged changes') if ref is None else 'changes against ' + ref
    if diff.strip() == '':
        text = 'No ' + what + (' in ' + path_text if path_text is not None else '') + '.'
        if ref is None and not args['staged']:
            text = text + ' (Untracked files are not diffed; see git_get_status. Staged changes: staged=true.)'
        return text_and_data(text, {'root': root, 'diff': ''})
    return text_and_data(cap_head(diff, limit), {'root': root, 'diff': cap_head(diff, limit)})


TOOL = Tool(
    'git_diff',
    'Show a unified git diff for the repository holding a workspace path: unstaged changes by default, '
    'staged ones with staged=true, or changes against a commit/branch/range with ref (e.g. "HEAD~1", '
    '"main...HEAD"). Limit it to one file or folder with path; stat=true gives a summary. Read-only.',
    {'type': 'object', 'properties': {
        'path': {'type': 'string', 'description': 'Only this file or folder (workspace-relative).'},
        'staged': {'type': 'boolean', 'default': False, 'description': 'Diff the index against HEAD (what would be committed).'},
        'ref': {'type': 'string', 'description': 'Compare the working tree (or index with staged) to this commit, or a range.'},
        'context_lines': {'type': 'integer', 'minimum': 0, 'maximum': 100, 'default': 3, 'description': 'Lines of context.'},
        'stat': {'type': 'boolean', 'default': False, 'description': 'Only a per-file summary of changed lines.'},
        'max_chars': {'type': 'integer', 'minimum': 1000, 'maximum': 500000, 'default': 50000, 'description': 'Size limit.'},
    }, 'additionalProperties': False},
    get_diff,
    title='Git diff',
)
