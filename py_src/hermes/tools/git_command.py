# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import GitCommandArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.js.json import dump_json
from hermes.core.tools import Tool, ToolError
from hermes.core.output_text import text_and_data, cap_head
from hermes.core.git_args import classify, quote_args


async def run_command(args: 'GitCommandArgs', call: 'CallContext') -> 'ToolReturn':
    git = call.services.git
    git_args = args['args']
    cwd = git.directory_of(args['path'])
    verdict = classify(git_args)
    read_only = verdict['read_only']
    shown = 'git ' + quote_args(git_args)
    if read_only:
        safe = await git.gate_read_only('git_command', shown, {'args': git_args, 'cwd': cwd}, cwd, verdict['paths'], call)
    else:
        # "Allow for this session" covers exactly this command line, nothing that merely shares its subcommand.
        refusal = await call.confirm('git_command', shown, {'args': git_args, 'cwd': cwd, 'why': verdict['reason']},
                                     'git_command ' + dump_json(git_args))
        if refusal is not None:
            raise ToolError(refusal)
        safe = False
    timeout_s = args['timeout_seconds']
    result = await git.run_git(git_args, cwd, call, timeout_s * 1000, safe)
    limit = args['max_chars']
    stdout = cap_head(result['stdout'], limit)
    stderr = cap_head(result['stderr'], 10000)
    if result['timedOut']:
        status = 'stopped after ' + str(timeout_s) + ' s (timeout)'
    elif result['code'] is None:
        status = 'ended by signal ' + str(result['signal'])
    else:
        status = 'exit code ' + str(result['code'])
    parts = ['$ ' + shown + '  (' + status + ')']
    if stdout.strip() != '':
        parts.append(stdout.rstrip())
    if stderr.strip() != '':
        parts.append('stderr:\n' + stderr.rstrip())
    if result['truncated']:
        parts.append('(output beyond 8 MB was dropped)')
    return text_and_data('\n'.join(parts), {'args': git_args, 'readOnly': read_only, 'exitCode': result['code'],
                                             'stdout': stdout, 'stderr': stderr, 'timedOut': result['timedOut']})


TOOL = Tool(
    'git_command',
    'Run one git command in the repository holding a workspace path, given as an argument list starting '
    'with the subcommand, e.g. ["log", "--oneline", "-10"] or ["commit", "-m", "Fix typo"]. Read-only '
    'subcommands with read-only options (status, log, diff, show, branch listing, rev-parse, blame, grep, ...) '
    'run at once; anything else (commit, checkout, reset, push, unknown or abbreviated options, options before '
    'the subcommand, paths outside the workspace) asks the user first. No shell, pager, '
    'editor or credential prompt: pass messages with -m. Returns exit code, stdout and stderr.',
    {'type': 'object', 'properties': {
        'args': {'type': 'array', 'items': {'type': 'string'}, 'minItems': 1,
                 'description': 'git arguments, subcommand first (without "git").'},
        'path': {'type': 'string', 'description': 'Folder (or file) to run in, workspace-relative (default: the first workspace folder).'},
        'timeout_seconds': {'type': 'integer', 'minimum': 1, 'maximum': 600, 'default': 60,
                            'description': 'How long to wait for git.'},
        'max_chars': {'type': 'integer', 'minimum': 1000, 'maximum': 500000, 'default': 50000,
                      'description': 'stdout size limit.'},
    }, 'required': ['args'], 'additionalProperties': False},
    run_command,
    title='Run git command',
    read_only=False,
)
