# __pragma__('tconv')
# __pragma__('skip')
from typing import List
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import FileListDirectoryArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.js.modules import node
from hermes.core.tools import Tool, ToolError


def indent(level: int) -> str:
    text = ''
    for index in range(level):
        text = text + '  '
    return text


class Listing:
    def __init__(self, depth: int, max_entries: int, call: 'CallContext') -> None:
        self.depth, self.max_entries, self.call = depth, max_entries, call
        self.files, self.paths = call.services.files, call.services.paths
        self.rules = self.files.exclude_rules(['files.exclude'])
        self.folders = self.paths.folder_paths()  # once, not per entry: each lookup builds every folder's dict
        self.lines = []  # type: List[str]
        self.excluded = 0
        self.full = False

    async def walk(self, folder: str, level: int) -> None:
        entries = await self.files.read_directory(folder)
        names = [entry['name'] for entry in entries]
        for entry in entries:
            if self.call.cancelled:
                raise ToolError('The listing was cancelled.')
            if len(self.lines) >= self.max_entries:
                self.full = True
                return
            child = node('path').join(folder, entry['name'])
            relative = self.paths.relative_to_folder(child, self.folders)
            if relative is not None and self.rules.excludes(relative, names):
                self.excluded += 1
                continue
            is_folder = entry['kind'] == 'directory'
            suffix = '/' if is_folder else ''
            if entry['symlink']:
                suffix = suffix + ' (symlink)'
            self.lines.append(indent(level) + entry['name'] + suffix)
            if len(self.lines) % 200 == 0:
                self.call.progress(len(self.lines), self.max_entries, str(len(self.lines)) + ' entries')
            if is_folder and not entry['symlink'] and level + 1 < self.depth:
                await self.walk(child, level + 1)


async def list_directory(args: 'FileListDirectoryArgs', call: 'CallContext') -> 'ToolReturn':
    paths = call.services.paths
    path = paths.resolve_path(args['path'])
    shown = paths.display_path(path)
    info = await call.services.files.stat(path)
    if info is None:
        raise ToolError('"' + shown + '" does not exist.')
    if info['kind'] != 'directory':
        raise ToolError('"' + shown + '" is a file, not a folder (file_read reads files).')
    listing = Listing(args['depth'], args['max_entries'], call)
    await listing.walk(path, 0)
    header = shown + '/' if shown != '.' else './'
    parts = [header + ' (depth ' + str(listing.depth) + ', ' + str(len(listing.lines)) + ' entries; folders end '
             'with /)']
    parts.extend(['  ' + line for line in listing.lines] if len(listing.lines) > 0 else ['  (empty)'])
    if listing.excluded > 0:
        parts.append('[' + str(listing.excluded) + ' entries hidden by the files.exclude setting]')
    if listing.full:
        parts.append('[truncated: stopped at ' + str(listing.max_entries) + ' entries; list a subfolder, lower the '
                     'depth or raise max_entries]')
    return '\n'.join(parts)


TOOL = Tool(
    'file_list_directory',
    'List a folder of the workspace as an indented tree (folders first, marked with a trailing /), down to '
    'the given depth. Entries hidden by the user\'s files.exclude setting (e.g. .git) are left out. Symlinked '
    'folders are shown but not entered.',
    {'type': 'object', 'properties': {
        'path': {'type': 'string', 'default': '.', 'description': 'Folder path, workspace-relative or absolute '
                                                                   '("." is the workspace folder).'},
        'depth': {'type': 'integer', 'minimum': 1, 'maximum': 10, 'default': 2,
                  'description': 'Levels to show (1 = only the folder\'s own entries).'},
        'max_entries': {'type': 'integer', 'minimum': 1, 'maximum': 5000, 'default': 500,
                        'description': 'Stop after this many entries.'},
    }, 'additionalProperties': False},
    list_directory,
    title='List directory',
    essential=True,  # offered even when the model's context is too small for every tool
)
