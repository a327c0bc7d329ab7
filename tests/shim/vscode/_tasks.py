"""vscode.tasks: tasks that "run" for a while and exit."""
import asyncio

from vscode._events import EventEmitter, resolved
from vscode._types import JsObject, JsObjectDict


class _Task(JsObject):
    """A task that "runs" for `duration` seconds and exits with `exit_code` (None: runs until terminated)."""

    def __init__(self, name, source='Workspace', exit_code=0, duration=0.01, task_type='shell', group=None):
        self.name, self.source, self.exit_code, self.duration = name, source, exit_code, duration
        self.definition = {'type': task_type}
        self.group = None if group is None else JsObjectDict(id=group)
        self.detail = None


class _TaskExecution(JsObject):
    def __init__(self, task, owner):
        self.task, self._owner, self.ended = task, owner, False

    def terminate(self):
        self._owner._end(self, None)


class _Tasks:
    def __init__(self):
        self.available = []
        self.executed = []
        self._process_ended = EventEmitter()
        self._ended = EventEmitter()
        self.onDidEndTaskProcess = self._process_ended.event
        self.onDidEndTask = self._ended.event

    def fetchTasks(self, task_filter=None):
        return resolved(list(self.available))

    def executeTask(self, task):
        execution = _TaskExecution(task, self)
        self.executed.append(execution)
        if task.exit_code is not None:
            asyncio.get_running_loop().call_later(task.duration, self._end, execution, task.exit_code)
        return resolved(execution)

    def _end(self, execution, exit_code):
        if execution.ended:
            return
        execution.ended = True
        self._process_ended.fire(JsObjectDict(execution=execution, exitCode=exit_code))
        self._ended.fire(JsObjectDict(execution=execution))
