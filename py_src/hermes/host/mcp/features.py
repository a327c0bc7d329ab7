"""MCP beyond tools for this window: resources with change notifications, prompts and completions.
One hub, one provider and one recent-files list for the window; each client session gets its own
features (its own subscriptions) on top of them."""
# __pragma__('tconv')
from hermes.core.mcp.resources import ResourceHub, ResourceCatalog, McpResources, ListenEvents, CHANGES
from hermes.core.mcp.prompts import McpPrompts
from hermes.core.completions import McpCompletions
from hermes.host.recent_files import RecentFiles
from hermes.host.resource_provider import HostResources
from hermes.host.resource_events import ResourceEvents
# __pragma__('skip')
from typing import TYPE_CHECKING, Optional
from hermes.core.mcp.protocol import McpSession
from hermes.core.mcp.stateless import McpStatelessServer
from hermes.host.changes.log import ChangeLog
from hermes.host.terminals import TerminalService
if TYPE_CHECKING:
    from vscode import ExtensionContext
# __pragma__('noskip')


class McpFeatures:
    def __init__(self, hub: 'ResourceHub', provider: 'HostResources') -> None:
        self.hub = hub  # the event source a protocol revision's subscriptions listen to
        self.provider = provider
        self.catalog = ResourceCatalog(provider)

    def add_to(self, session: 'McpSession') -> None:
        """A handshake-era session (core/mcp/protocol.py): subscriptions are its own."""
        session.add_feature(McpResources(session, self.catalog, self.hub))
        session.add_feature(McpPrompts(self.provider))
        session.add_feature(McpCompletions(self.provider))

    def add_to_stateless(self, server: 'McpStatelessServer') -> None:
        """The 2026-07-28 server (core/mcp/stateless.py): list/read/prompts/completions per request,
        change events through `subscriptions/listen`."""
        server.add_feature(McpResources(None, self.catalog, self.hub))
        server.add_feature(McpPrompts(self.provider))
        server.add_feature(McpCompletions(self.provider))
        server.add_event_source(ListenEvents(self.catalog, self.hub))

    def dispose(self) -> None:
        self.hub.dispose()


def register_mcp_features(context: 'ExtensionContext', terminals: 'TerminalService',
                          change_log: 'Optional[ChangeLog]' = None) -> McpFeatures:
    """`terminals`: the window's TerminalService (host/services.py), for the `hermes://terminal/{id}`
    resources and their change events; `change_log`: the window's ChangeLog, for `hermes://changes` and its
    change events."""
    recent = RecentFiles()
    context.subscriptions.push(recent.listen())
    hub = ResourceHub()
    for disposable in ResourceEvents(hub, terminals).listen():
        context.subscriptions.push(disposable)
    if change_log is not None:
        context.subscriptions.push(change_log.on_change(lambda paths: hub.changed(CHANGES)))
    features = McpFeatures(hub, HostResources(recent, terminals, change_log))
    context.subscriptions.push(features)
    return features
