"""The window's services as host/ builds them, over the vscode shim: for the tests of host code through a tool (what
the tool does to the files, editors and search of the shim's window). A test of the tool alone hands it typed fakes
instead (service_fakes.py)."""
from hermes.core.tools import Services
from hermes.host.tool_services import (CommandService, DocumentService, FileService, GitService, PathService,
                                       SearchService, TaskService)


def shim_services(**parts):
    """Services with the host's stateless ones (paths, files, documents, search, git, commands, tasks) real over the
    shim, and `parts` (terminals=, changes=, language=, …) as given."""
    given = {'paths': PathService(), 'files': FileService(), 'documents': DocumentService(),
             'search': SearchService(), 'git': GitService(), 'commands': CommandService(), 'tasks': TaskService()}
    given.update(parts)
    return Services(**given)
