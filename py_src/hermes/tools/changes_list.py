# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import ChangesListArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool
from hermes.core.changes.report import view_text
from hermes.core.output_text import text_and_data
from hermes.core.changes.authors import author_of


async def list_changes(args: 'ChangesListArgs', call: 'CallContext') -> 'ToolReturn':
    client = args['client']
    if args['mine'] is True:
        client = author_of(call.author)['client']  # the name the change log records this caller's writes under
    wanted = {'client': client, 'session': args['session'], 'turn': args['turn']}
    view = call.services.changes.for_agents(wanted, args['include_lines'])
    return text_and_data(view_text(view), view)


TOOL = Tool(
    'changes_list',
    'The changes agents made through Hermes in this workspace that the user has not kept or undone yet (by file, '
    'with who made them: the MCP client\'s name, @hermes, a session; and their hunks with line numbers), and what '
    'the user decided about earlier ones (kept, undone). Edit a file with pending changes by another client only '
    'after reading it again (file_read or editor_get_content).',
    {'type': 'object', 'properties': {
        'client': {'type': 'string', 'description': 'Only the changes of this client (e.g. "claude-code", "@hermes").'},
        'mine': {'type': 'boolean', 'description': 'Only the changes made by the caller (its MCP client name).'},
        'session': {'type': 'string', 'description': 'Only the changes of this session.'},
        'turn': {'type': 'string', 'description': 'Only the changes of this turn.'},
        'include_lines': {'type': 'boolean', 'default': True,
                          'description': 'Include the removed and added lines of each hunk (capped).'},
    }, 'additionalProperties': False},
    list_changes,
    title='List pending changes',
)
