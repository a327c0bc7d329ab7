# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import FileSearchArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool, ToolError
from hermes.core.globs import climbs_out


async def search_files(args: 'FileSearchArgs', call: 'CallContext') -> 'ToolReturn':
    pattern = args['pattern']
    if climbs_out(pattern):
        raise ToolError('The glob "' + pattern + '" reaches outside its folder (".." or an absolute path). Use a '
                        'pattern relative to the workspace, and the path argument to pick a folder inside it.')
    paths = call.services.paths
    base = None
    path_text = args['path']
    if path_text is not None:
        base = paths.resolve_path(path_text)
        info = await call.services.files.stat(base)
        if info is None or info['kind'] != 'directory':
            raise ToolError('"' + path_text + '" is not a folder.')
    max_results = args['max_results']
    found = await call.services.search.find_files(pattern, base, max_results, args['use_ignore_files'], call)
    folders = paths.folder_paths()
    shown = [paths.display_path(path, folders) for path in found['paths']]
    where = '' if base is None else ' under ' + paths.display_path(base)
    if len(shown) == 0:
        return 'No files match "' + pattern + '"' + where + '.'
    lines = [str(len(shown)) + ' file' + ('' if len(shown) == 1 else 's') + ' match "' + pattern + '"' + where + ':']
    lines.extend(shown)
    if found['truncated']:
        lines.append('[truncated: more files match; showing the first ' + str(max_results) + '. Narrow the pattern '
                     'or raise max_results]')
    return '\n'.join(lines)


TOOL = Tool(
    'file_search',
    'Find files by glob pattern, like VS Code\'s Quick Open: "**/*.ts", "src/**/test_*.py", "**/package.json". '
    'Patterns are relative to the workspace folder (or to path). Honours the files.exclude and search.exclude '
    'settings and .gitignore. Returns workspace-relative paths, sorted.',
    {'type': 'object', 'properties': {
        'pattern': {'type': 'string', 'minLength': 1, 'description': 'Glob: ** any folders, * any characters in '
                                                                     'a name, {a,b} alternatives.'},
        'path': {'type': 'string', 'description': 'Folder to search in (default: all workspace folders).'},
        'max_results': {'type': 'integer', 'minimum': 1, 'maximum': 5000, 'default': 200},
        'use_ignore_files': {'type': 'boolean', 'default': True, 'description': 'Skip files ignored by .gitignore.'},
    }, 'required': ['pattern'], 'additionalProperties': False},
    search_files,
    title='Search files by name',
    essential=True,  # offered even when the model's context is too small for every tool
)
