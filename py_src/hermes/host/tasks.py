"""VS Code tasks (tasks.json and the ones extensions detect: npm scripts, make targets…), run to the end."""
# __pragma__('tconv')
from hermes.js.clock import now_ms
from hermes.js.errors import error_message, JsError
from hermes.js.modules import vscode
from hermes.js.promises import make_promise
from hermes.js.timers import clear_repeating, clear_timer, set_repeating, set_timer
from hermes.core.tools import ToolError
from hermes.core.values import json_type, get_key, object_keys
from hermes.core.git_args import quote_args
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional
from hermes.contracts.json import JsonObject
from hermes.contracts.services import CallContext
if TYPE_CHECKING:
    from vscode import Task, TaskExecution
# __pragma__('noskip')

PROCESS_EVENT_GRACE_MS = 500


def task_label(task: 'Task') -> str:
    """How VS Code's "Run Task" list names it: 'build' for tasks.json, 'npm: build' for detected ones."""
    source = task.source
    if source is None or source == 'Workspace':
        return task['name']
    return source + ': ' + task['name']


def describe(task: 'Task') -> 'JsonObject':
    group = task.group
    return {'label': task_label(task), 'name': task['name'], 'source': task.source,
            'type': None if task.definition is None else task.definition['type'],
            'group': None if group is None else group.id,
            'detail': None if task.detail is None else task.detail}


async def fetch_tasks() -> 'List[Task]':
    try:
        return await vscode.tasks.fetchTasks()
    except JsError as error:
        raise ToolError('VS Code could not list the tasks: ' + error_message(error))


def pick(tasks: 'List[Task]', wanted: str) -> 'Task':
    found = [task for task in tasks if task_label(task) == wanted]
    if len(found) == 0:
        found = [task for task in tasks if task['name'] == wanted]
    if len(found) > 1:
        own = [task for task in found if task.source == 'Workspace']
        found = own if len(own) > 0 else found
    if len(found) == 1:
        return found[0]
    labels = [task_label(task) for task in tasks]
    if len(found) == 0:
        raise ToolError('No task called "' + wanted + '". Available: ' + (', '.join(labels) or '(none: add one to '
                                                                           '.vscode/tasks.json)') + '.')
    raise ToolError('"' + wanted + '" names ' + str(len(found)) + ' tasks; use one of: ' +
                    ', '.join([task_label(task) for task in found]) + '.')


def same_execution(event_execution: 'TaskExecution', execution: 'TaskExecution', task: 'Task') -> bool:
    if event_execution is execution:
        return True
    other = event_execution.task
    return (other is not None and other['name'] == task['name'] and other.source == task.source)


async def run_task(task: 'Task', timeout_ms: float, call: 'CallContext') -> 'JsonObject':
    """Start `task` and wait until it ends: {'exitCode', 'timedOut', 'cancelled', 'durationMs'}."""
    started = now_ms()
    state = {'execution': None, 'done': False, 'events': [], 'resolve': None, 'cleanup': []}  # type: Dict[str, Any]

    def finish(result: 'JsonObject') -> None:
        if state['done']:
            return
        state['done'] = True
        for cleanup in state['cleanup']:
            cleanup()
        result['durationMs'] = round(now_ms() - started)
        state['resolve'](result)

    def consider(kind: str, event: Any) -> None:
        if state['execution'] is None:
            state['events'].append([kind, event])  # it ended before executeTask resolved
            return
        if not same_execution(event.execution, state['execution'], task):
            return
        if kind == 'process':
            finish({'exitCode': or_null(event.exitCode), 'timedOut': False, 'cancelled': False})
        else:  # a task without a process (or its process event is late): give that event a moment
            timer = set_timer(lambda: finish({'exitCode': None, 'timedOut': False, 'cancelled': False}),
                              PROCESS_EVENT_GRACE_MS)
            state['cleanup'].append(lambda: clear_timer(timer))

    def stop(reason: str) -> None:
        if state['done']:
            return
        finish({'exitCode': None, 'timedOut': reason == 'timeout', 'cancelled': reason == 'cancelled'})
        if state['execution'] is not None:
            state['execution'].terminate()  # its end event comes after: the outcome is already decided

    def executor(resolve: 'Callable[[Any], None]', reject: 'Callable[[Any], None]') -> None:
        state['resolve'] = resolve

    finished = make_promise(executor)
    process_listener = vscode.tasks.onDidEndTaskProcess(lambda event: consider('process', event))
    end_listener = vscode.tasks.onDidEndTask(lambda event: consider('end', event))
    state['cleanup'].append(lambda: process_listener.dispose())
    state['cleanup'].append(lambda: end_listener.dispose())
    timer = set_timer(lambda: stop('timeout'), timeout_ms)
    state['cleanup'].append(lambda: clear_timer(timer))
    heartbeat = set_repeating(lambda: call.progress(round((now_ms() - started) / 1000), None, 'running ' +
                                                    task_label(task)), 2000)
    state['cleanup'].append(lambda: clear_repeating(heartbeat))
    state['cleanup'].append(call.on_cancel(lambda: stop('cancelled')))
    try:
        state['execution'] = await vscode.tasks.executeTask(task)
    except JsError as error:
        finish({'exitCode': None, 'timedOut': False, 'cancelled': False})
        raise ToolError('VS Code could not start the task "' + task_label(task) + '": ' + error_message(error))
    if state['done']:  # cancelled or timed out while starting
        state['execution'].terminate()
    for pair in state['events']:
        consider(pair[0], pair[1])
    return await finished


def or_null(value: Any) -> Any:
    return None if value is None else value


def _text(value: Any) -> str:
    """A ShellExecution's command or argument: a string, or a ShellQuotedString {value, quoting}."""
    if value is None:
        return ''
    if json_type(value) == 'string':
        return value
    inner = get_key(value, 'value')
    return str(value) if inner is None else str(inner)


def command_line(task: 'Task') -> str:
    """What running `task` starts, as the user should see it before saying yes: the shell command line or the
    process and its arguments, with the folder and environment the task sets."""
    execution = task.execution  # type: Any  # (read by what it has: shell, process or custom)
    if execution is None:
        return 'VS Code does not say what this task runs (no execution: ' + task_label(task) + ')'
    if execution.commandLine is not None:
        lines = ['shell: ' + execution.commandLine]
    elif execution.command is not None:
        parts = [_text(execution.command)]
        parts.extend([_text(item) for item in (execution.args or [])])
        lines = ['shell: ' + quote_args(parts)]
    elif execution.process is not None:
        parts = [execution.process]
        parts.extend([_text(item) for item in (execution.args or [])])
        lines = ['process: ' + quote_args(parts)]
    else:
        return ("an extension's own code (a custom execution: VS Code does not say what it runs) for the task " +
                task_label(task))
    options = execution.options
    if options is not None:
        if options.cwd is not None:
            lines.append('in: ' + options.cwd)
        env = options.env
        if env is not None:
            for key in object_keys(env):
                lines.append('env: ' + key + '=' + str(env[key]))
        shell = options.executable
        if shell is not None:
            lines.append('shell program: ' + quote_args(_joined([shell], options.shellArgs or [])))
    return '\n'.join(lines)


def _joined(first: 'List[str]', rest: 'List[Any]') -> 'List[str]':
    parts = list(first)
    parts.extend([_text(item) for item in rest])
    return parts
