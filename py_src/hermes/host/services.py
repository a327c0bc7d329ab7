"""The window's services, built once at activation and passed on, never fetched from a module: the
registry hands them to every tool call (`call.services`, core/tools.py `Services`), the MCP resources get
the terminals by constructor (host/mcp_features.py)."""
# __pragma__('tconv')
from hermes.core.tools import Services
from hermes.host.terminals import register_terminals
from hermes.host.debugging import register_debugging
from hermes.host.diff_review import register_diff_review
from hermes.host.language_service import LanguageService
from hermes.host.editors import EditorTabs
from hermes.host.configuration import ConfigurationService


def register_services(context):
    """Start each service (its listeners' disposables go into `context.subscriptions`) and return them."""
    return Services(register_terminals(context), register_debugging(context), register_diff_review(context),
                    LanguageService(), EditorTabs(), ConfigurationService())
