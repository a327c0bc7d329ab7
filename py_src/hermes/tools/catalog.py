"""Every tool Hermes offers, in one list: MCP, the chat loop and VS Code's LM tools all read it."""
from hermes.core.tools import ToolRegistry
from hermes.tools import workspace_get_folders, editor_get_open_tabs

TOOL_MODULES = [
    workspace_get_folders,
    editor_get_open_tabs,
]


def build_registry(approver=None):
    registry = ToolRegistry(approver)
    for module in TOOL_MODULES:
        registry.add(module.TOOL)
    return registry
