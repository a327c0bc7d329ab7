"""Every tool module, in the order Hermes offers them: a part loaded on first use (hermes/lazy_parts.py), the first
time a tool's description, schema or handler is read (tools/catalog.py builds the registry from tools/index.py,
generated from this list by scripts/gen_schema_types.py). Under CPython a plain import."""
# __pragma__('tconv')
# __pragma__('skip')
from hermes.core.tools import Tool
# __pragma__('noskip')
from hermes.tools import workspace_get_folders, editor_get_open_tabs
from hermes.tools import (terminal_create, terminal_send, terminal_read, terminal_run, terminal_list, terminal_kill,
                          debug_start, debug_stop, debug_get_variables, debug_set_breakpoints, debug_evaluate,
                          debug_continue, debug_step, git_get_branches, git_get_status, git_diff, git_command,
                          lsp_definition, lsp_references, lsp_hover, lsp_document_symbols, lsp_workspace_symbols,
                          lsp_rename)
from hermes.tools import (editor_open_file, editor_get_content, editor_get_selection, editor_edit_file,
                          editor_close_tab, editor_get_diagnostics, editor_open_diff, file_read, file_write,
                          file_create, file_delete, file_list_directory, file_search, file_search_content,
                          workspace_get_config, workspace_set_config, workspace_run_task, command_execute,
                          command_list_common)
from hermes.tools import changes_list

TOOL_MODULES = [
    workspace_get_folders,
    editor_get_open_tabs,
    # terminal, debug, git, language intelligence
    terminal_create, terminal_send, terminal_read, terminal_run, terminal_list, terminal_kill,
    debug_start, debug_stop, debug_get_variables, debug_set_breakpoints, debug_evaluate, debug_continue, debug_step,
    git_get_branches, git_get_status, git_diff, git_command,
    lsp_definition, lsp_references, lsp_hover, lsp_document_symbols, lsp_workspace_symbols, lsp_rename,
    # editor, files, workspace, commands
    editor_open_file, editor_get_content, editor_get_selection, editor_edit_file, editor_close_tab,
    editor_get_diagnostics, editor_open_diff,
    file_read, file_write, file_create, file_delete, file_list_directory, file_search, file_search_content,
    workspace_get_config, workspace_set_config, workspace_run_task,
    command_execute, command_list_common,
    # the change log
    changes_list,
]



def tool_named(name: str) -> 'Tool':
    """The `Tool` of the module whose tool is called `name` (one of tools/index.py's)."""
    for module in TOOL_MODULES:
        if module.TOOL.name == name:
            return module.TOOL
    raise ValueError('no tool module declares ' + name + ': run `inv build` (tools/index.py is stale)')
