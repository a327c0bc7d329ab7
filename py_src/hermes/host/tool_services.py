"""The host's module functions the tools use, as services (`call.services.git`, `call.services.paths`): a tool
imports no host module, and a test hands it a fake with the same methods (contracts/services.py Git, Paths).
Each method is the host function of the same name."""
# __pragma__('tconv')
from hermes.host.git import DEFAULT_TIMEOUT_MS, directory_of, gate_read_only, git_output, repository_root, run_git
from hermes.host.paths import display_path, folder_paths, is_confined, resolve_path


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


# __pragma__('skip')
from hermes.contracts.services import Git, Paths


def _implements(git: GitService, paths: PathService) -> 'tuple[Git, Paths]':  # held to contracts/services.py
    return git, paths
# __pragma__('noskip')
