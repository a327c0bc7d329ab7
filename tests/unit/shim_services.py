"""The window's services as host/ builds them, over the vscode shim: for the tests of host code through a tool (what
the tool does to the files, editors and search of the shim's window). A test of the tool alone hands it typed fakes
instead (service_fakes.py)."""
from hermes.core.tools import Services
from hermes.host.disk import Disk
from hermes.host.tool_services import (CommandService, DocumentService, FileService, GitService, PathService,
                                       SearchService, TaskService)


def shim_services(disk=None, **parts):
    """Services with the host's stateless ones (paths, files, documents, search, git, commands, tasks) real over the
    shim, and `parts` (terminals=, changes=, language=, …) as given. `disk`: how the file and search services read
    local folders (host/disk.py Disk; a fresh product choice when None)."""
    disk = Disk() if disk is None else disk
    given = {'paths': PathService(), 'files': FileService(disk), 'documents': DocumentService(),
             'search': SearchService(disk), 'git': GitService(), 'commands': CommandService(), 'tasks': TaskService()}
    given.update(parts)
    return Services(**given)


def window_services(context):
    """The window's services as activate() builds them (host/services.py register_services and the three it hands it)."""
    from hermes.host.doors.diff_review import register_diff_review
    from hermes.host.services import register_change_log, register_services
    from hermes.host.terminals import register_terminals
    return register_services(context, register_terminals(context), register_diff_review(context),
                             register_change_log(context))
