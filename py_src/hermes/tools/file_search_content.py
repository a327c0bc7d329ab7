# __pragma__('tconv')
# __pragma__('skip')
from typing import List, Union
from hermes.contracts.json import JsonObject
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import FileSearchContentArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool, ToolError
from hermes.core.globs import climbs_out


def glob_list(value: 'Union[str, List[str], None]', name: str) -> 'List[str]':
    """The `include` or `exclude` argument (`name`) as a list of globs; none when absent."""
    if value is None:
        return []
    globs = [value] if isinstance(value, str) else value
    for glob in globs:
        if climbs_out(glob):
            raise ToolError('The ' + name + ' glob "' + glob + '" reaches outside the workspace (".." or an absolute '
                            'path). Use globs relative to the searched folder.')
    return globs


async def search(args: 'FileSearchContentArgs', call: 'CallContext') -> 'ToolReturn':
    include, exclude = glob_list(args['include'], 'include'), glob_list(args['exclude'], 'exclude')
    paths_service = call.services.paths
    folders = paths_service.folder_paths()
    if len(folders) == 0:
        raise ToolError('No folder is open in VS Code, so there is nothing to search.')
    paths = folders
    where = ''
    path_text = args['path']
    if path_text is not None:
        target = paths_service.resolve_path(path_text)
        if (await call.services.files.stat(target)) is None:
            raise ToolError('"' + path_text + '" does not exist.')
        paths = [target]
        where = ' in ' + paths_service.display_path(target)
    options = {
        'paths': paths, 'cwd': folders[0], 'include': include, 'exclude': exclude,
        'literal': not args['regex'],
        'case_sensitive': args['case_sensitive'],
        'whole_word': args['whole_word'] is True,
        'context': args['context_lines'],
        'max_results': args['max_results'],
    }
    found = await call.services.search.search_content(args['query'], options, call)
    kind = 'regex' if not options['literal'] else 'text'
    if found['matches'] == 0:
        text = 'No matches for ' + kind + ' "' + args['query'] + '"' + where + '.'
        if found['warnings'] is not None:
            text = text + '\nripgrep reported: ' + found['warnings']
        return text
    lines = [str(found['matches']) + ' match' + ('' if found['matches'] == 1 else 'es') + ' in ' +
             str(len(found['files'])) + ' file' + ('' if len(found['files']) == 1 else 's') + ' for ' + kind + ' "' +
             args['query'] + '"' + where + ' (line: match, line- context):']
    for entry in found['files']:
        lines.append(paths_service.display_path(entry['path']))
        previous = None
        for item in entry['lines']:
            if previous is not None and item['line'] > previous + 1:
                lines.append('  --')
            lines.append('  ' + str(item['line']) + (': ' if item['match'] else '- ') + item['text'])
            previous = item['line']
    if found['truncated']:
        lines.append('[truncated: stopped at max_results=' + str(options['max_results']) + ' matches; narrow the '
                     'query, use include globs or path, or raise max_results]')
    if found['warnings'] is not None:
        lines.append('[ripgrep reported: ' + found['warnings'] + ']')
    return '\n'.join(lines)


def globs_schema(description: str) -> 'JsonObject':
    return {'anyOf': [{'type': 'string'}, {'type': 'array', 'items': {'type': 'string'}}], 'description': description}


TOOL = Tool(
    'file_search_content',
    'Search the text of workspace files (ripgrep, as VS Code\'s search view): a literal string by default, or '
    'a regular expression with regex: true. Honours .gitignore and the files.exclude/search.exclude settings. '
    'Returns matches grouped by file as "line: text", with context lines as "line- text" when asked.',
    {'type': 'object', 'properties': {
        'query': {'type': 'string', 'minLength': 1, 'description': 'Text (or regex) to find.'},
        'regex': {'type': 'boolean', 'default': False, 'description': 'Treat query as a regular expression.'},
        'case_sensitive': {'type': 'boolean', 'description': 'Default: case-sensitive only if query has capitals.'},
        'whole_word': {'type': 'boolean', 'description': 'Match whole words only.'},
        'path': {'type': 'string', 'description': 'Folder or file to search (default: all workspace folders).'},
        'include': globs_schema('Glob(s) of files to search, e.g. "*.ts" or ["src/**", "*.md"].'),
        'exclude': globs_schema('Glob(s) of files to skip.'),
        'context_lines': {'type': 'integer', 'minimum': 0, 'maximum': 10, 'default': 0,
                          'description': 'Lines of context around each match.'},
        'max_results': {'type': 'integer', 'minimum': 1, 'maximum': 2000, 'default': 100, 'description': 'Matches.'},
    }, 'required': ['query'], 'additionalProperties': False},
    search,
    title='Search file contents',
    essential=True,  # offered even when the model's context is too small for every tool
)
