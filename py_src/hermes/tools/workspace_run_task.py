# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import WorkspaceRunTaskArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool

DEFAULT_TIMEOUT_SECONDS = 600


async def run(args: 'WorkspaceRunTaskArgs', call: 'CallContext') -> 'ToolReturn':
    tasks = call.services.tasks
    task = tasks.pick(await tasks.fetch_tasks(), args['name'])
    label = tasks.task_label(task)
    timeout = args['timeout_seconds']
    call.progress(0, None, 'starting ' + label)
    outcome = await tasks.run_task(task, timeout * 1000, call)
    seconds = str(round(outcome['durationMs'] / 100) / 10)
    if outcome['timedOut']:
        message = 'The task "' + label + '" did not finish within ' + str(timeout) + ' s and was stopped.'
    elif outcome['cancelled']:
        message = 'The task "' + label + '" was stopped because the call was cancelled.'
    elif outcome['exitCode'] is None:
        message = 'The task "' + label + '" ended after ' + seconds + ' s (it reports no exit code).'
    else:
        message = ('The task "' + label + '" finished with exit code ' + str(outcome['exitCode']) + ' after ' +
                   seconds + ' s. Its output is in the task\'s terminal in VS Code.')
    return {'task': label, 'exitCode': outcome['exitCode'], 'timedOut': outcome['timedOut'],
            'cancelled': outcome['cancelled'], 'durationMs': outcome['durationMs'], 'message': message}


async def what_runs(args: 'WorkspaceRunTaskArgs', call: 'CallContext') -> 'ToolReturn':
    """For the dialog: the task's command line (tasks.json can make "build" run anything)."""
    tasks = call.services.tasks
    return tasks.command_line(tasks.pick(await tasks.fetch_tasks(), args['name']))


TOOL = Tool(
    'workspace_run_task',
    'Run a VS Code task — from .vscode/tasks.json or detected by an extension (npm scripts, …) — and wait '
    'until it ends; returns its exit code. Name it as VS Code\'s "Run Task" list does ("build", "npm: test"); '
    'an unknown name gets the list of available tasks.',
    {'type': 'object', 'properties': {
        'name': {'type': 'string', 'minLength': 1, 'description': 'Task label.'},
        'timeout_seconds': {'type': 'number', 'minimum': 1, 'maximum': 7200, 'default': DEFAULT_TIMEOUT_SECONDS,
                            'description': 'Stop the task after this long.'},
    }, 'required': ['name'], 'additionalProperties': False},
    run,
    title='Run task',
    read_only=False,
    destructive=True,
    preview=what_runs,
)
