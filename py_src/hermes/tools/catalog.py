"""Every tool Hermes offers, in one registry: MCP, the chat loop and VS Code's LM tools all read it. At activation each
tool is its index entry (tools/index.py: name, title, hints), a `DeclaredTool`; its module — description, schemas,
handler — comes with the part hermes.tools.every_tool the first time one of those is read (`tools/list`, a call, the
first LLM request), so the window's start does not load the ~40 handlers and what only they use."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Optional
from hermes.contracts.services import Approval
from hermes.core.tools import Services, Tool
# __pragma__('noskip')
from hermes.js.parts import load_part
from hermes.core.tools import DeclaredTool, ToolRegistry
from hermes.tools.index import TOOL_INDEX


def tool_module_tool(name: str) -> 'Tool':
    """The Tool of the module declaring `name`, from the part (loaded once)."""
    return load_part('hermes.tools.every_tool').tool_named(name)


def build_registry(approver: 'Optional[Approval]' = None, services: 'Optional[Services]' = None) -> 'ToolRegistry':
    """Every tool, behind `approver` (the gate), with `services` handed to each call (core/tools.py Services)."""
    registry = ToolRegistry(approver, services)
    for entry in TOOL_INDEX:
        registry.add(DeclaredTool(entry[0], entry[1], entry[2], entry[3], entry[4], tool_module_tool))
    return registry
