"""The host's module functions the tools use, as services (`call.services.git`, `.paths`, `.commands`, `.tasks`): a tool
imports no host module, and a test hands it a fake with the same methods (contracts/services.py Git, Paths).
Each method is the host function of the same name."""
# __pragma__('tconv')
from hermes.host.git import DEFAULT_TIMEOUT_MS, directory_of, gate_read_only, git_output, repository_root, run_git
from hermes.host.paths import display_path, folder_paths, is_confined, resolve_path
from hermes.host.workspace import workspace_folders, workspace_name
from hermes.host.commands import all_commands, execute
from hermes.host.tasks import command_line, fetch_tasks, pick, run_task, task_label


class GitService:
    def directory_of(self, path_text):
        return directory_of(path_text)

    async def run_git(self, args, cwd, call=None, timeout_ms=DEFAULT_TIMEOUT_MS, safe=True):
        return await run_git(args, cwd, call, timeout_ms, safe)

    async def git_output(self, args, cwd, call=None, safe=True):
        return await git_output(args, cwd, call, safe)

    async def repository_root(self, cwd, call=None):
        return await repository_root(cwd, call)

    async def gate_read_only(self, tool_name, shown, arguments, cwd, paths, call):
        return await gate_read_only(tool_name, shown, arguments, cwd, paths, call)


class PathService:
    def folder_paths(self):
        return folder_paths()

    def resolve_path(self, path_text):
        return resolve_path(path_text)

    def is_confined(self, path):
        return is_confined(path)

    def display_path(self, path, folders=None):
        return display_path(path, folders)

    def workspace_folders(self):
        return workspace_folders()

    def workspace_name(self):
        return workspace_name()


class CommandService:
    async def execute(self, command, args):
        return await execute(command, args)

    async def all_commands(self):
        return await all_commands()


class TaskService:
    async def fetch_tasks(self):
        return await fetch_tasks()

    def pick(self, tasks, wanted):
        return pick(tasks, wanted)

    def task_label(self, task):
        return task_label(task)

    def command_line(self, task):
        return command_line(task)

    async def run_task(self, task, timeout_ms, call):
        return await run_task(task, timeout_ms, call)


# __pragma__('skip')
from hermes.contracts.services import Commands, Git, Paths, Tasks


def _implements(git: GitService, paths: PathService, commands: CommandService,
                tasks: TaskService) -> 'tuple[Git, Paths, Commands, Tasks]':  # held to contracts/services.py
    return git, paths, commands, tasks
# __pragma__('noskip')
