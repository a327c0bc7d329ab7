"""Searching the workspace: file names through `vscode.workspace.findFiles`, file contents through the
ripgrep binary VS Code ships (the one its own search view runs), streamed so a search can stop at
its result limit and be cancelled."""
# __pragma__('tconv')
from hermes.js.child_process import start_process, stream_process_lines
from hermes.js.errors import error_message, JsError
from hermes.js.json import parse_json
from hermes.js.modules import node, vscode
from hermes.js.objects import new
from hermes.js.process import platform_id
from hermes.js.promises import make_promise, next_turn, wait_all
from hermes.js.text import regex_matches, sorted_strings
from hermes.core.tools import ToolError
from hermes.core.values import get_key
from hermes.host.files import exclude_patterns
from hermes.core.globs import GlobSet
from hermes.host.paths import folder_paths, is_inside
from hermes.host.confinement import confined_paths
from hermes.host.disk import uses_node_fs
from hermes.host.small_tree import list_small_tree
from hermes.host.workspace import workspace_folders

RIPGREP_PACKAGES = ['@vscode/ripgrep/bin', '@vscode/ripgrep-universal/bin/{platform}']
MODULE_FOLDERS = ['node_modules', 'node_modules.asar.unpacked']
MAX_PREVIEW_COLUMNS = 300
MAX_FOUND = 200000  # findFiles is asked for at most this many when .gitignore filtering needs more
MAX_LISTING_BYTES = 256 * 1024 * 1024  # `rg --files` output kept for one folder (~4M paths)
# A listing longer than this is sorted a slice per turn of the event loop: 100,000 paths sorted at once held the
# extension host ~35-75 ms (a CPU profile in code-server, tests/bench/large_repo_bench.py); a slice takes ~3 ms.
SORT_SLICE = 8192

# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Dict, List, Optional
from hermes.contracts.json import JsonObject
from hermes.contracts.services import CallContext, ContentMatches, FoundFiles
from hermes.host.disk import Disk
if TYPE_CHECKING:
    from vscode import Uri
js_undefined = None  # in the bundle, Transcrypt turns this name into JS `undefined`
# __pragma__('noskip')


def ripgrep_candidates() -> 'List[str]':
    node_path = node('path')
    root = vscode.env.appRoot
    if root is None:
        return []
    binary = 'rg.exe' if platform_id().startswith('win32') else 'rg'
    candidates = []  # type: List[str]
    for folder in MODULE_FOLDERS:
        for package_dir in RIPGREP_PACKAGES:
            candidates.append(node_path.join(root, folder, package_dir.replace('{platform}', platform_id()), binary))
    return candidates


def ripgrep_path(disk: 'Optional[Disk]' = None) -> str:
    """Where VS Code's ripgrep is (remembered by `disk`, host/disk.py Disk, when given); ToolError naming the places
    looked at when it is nowhere."""
    if disk is not None and disk.ripgrep is not None:
        return disk.ripgrep
    fs = node('fs')
    candidates = ripgrep_candidates()
    for candidate in candidates:
        if fs.existsSync(candidate):
            if disk is not None:
                disk.ripgrep = candidate
            return candidate
    raise ToolError('Text search needs the ripgrep binary that ships with VS Code, and it was not found (looked '
                    'in: ' + ', '.join(candidates or ['no vscode.env.appRoot']) + ').')


def excluded_globs() -> 'List[str]':
    """files.exclude + search.exclude (as VS Code's search view applies them), and always .git."""
    patterns = list(exclude_patterns(['files.exclude', 'search.exclude'])['plain'])
    if '**/.git' not in patterns:
        patterns.append('**/.git')
    return patterns


def run_lines(command: str, args: 'List[str]', cwd: 'Optional[str]', on_line: 'Callable[[str], bool]',
              call: 'CallContext') -> 'Awaitable[JsonObject]':
    """Run a program, feeding stdout lines to on_line; resolves to {'code', 'stderr'}. A cancelled
    call kills it. `on_line` may return True to stop early (the process is killed)."""
    holder = {'kill': None, 'stopped': False}  # type: Dict[str, Any]

    def executor(resolve: 'Callable[[JsonObject], None]', reject: 'Callable[[Any], None]') -> None:
        def line(text: str) -> None:
            if on_line(text) is True and not holder['stopped']:
                holder['stopped'] = True
                holder['kill']()

        def exit_(code: 'Optional[int]', stderr: str) -> None:
            unsubscribe()
            resolve({'code': code, 'stderr': stderr, 'stopped': holder['stopped']})
        holder['kill'] = stream_process_lines(command, args, cwd, line, exit_)
        unsubscribe = call.on_cancel(lambda: holder['kill']())
    return make_promise(executor)


class ContentSearch:
    """One `rg --json` run, its matches grouped by file, stopped at `max_results` matches."""

    def __init__(self, max_results: int, call: 'CallContext') -> None:
        self.max_results = max_results
        self.call = call
        self.files = []  # type: List[JsonObject]  # [{'path', 'lines': [{'line', 'text', 'match'}]}]
        self.by_path = {}  # type: Dict[str, JsonObject]
        self.matches = 0
        self.truncated = False

    def on_line(self, text: str) -> bool:
        if text == '' or self.truncated:
            return self.truncated
        try:
            message = parse_json(text)
        except ValueError:
            return False
        kind = message['type']
        if kind != 'match' and kind != 'context':
            return False
        data = message['data']
        path = get_key(data['path'], 'text')
        line_text = get_key(data['lines'], 'text')
        if path is None or line_text is None:
            return False  # not valid UTF-8: skip rather than show mangled bytes
        if kind == 'match':
            if self.matches >= self.max_results:
                self.truncated = True
                return True
            self.matches += 1
            if self.matches % 50 == 0:
                self.call.progress(self.matches, self.max_results, str(self.matches) + ' matches')
        entry = self.file_entry(path)
        if len(line_text) > 0 and line_text[len(line_text) - 1] == '\n':
            line_text = line_text[:len(line_text) - 1]
        if len(line_text) > 0 and line_text[len(line_text) - 1] == '\r':
            line_text = line_text[:len(line_text) - 1]
        entry['lines'].append({'line': data['line_number'], 'text': line_text, 'match': kind == 'match'})
        return False

    def file_entry(self, path: str) -> 'JsonObject':
        key = 'f:' + path  # never look up a raw path in a dict (hidden members such as __class__)
        if key not in self.by_path:  # the 'f:' prefix keeps paths clear of dict members
            entry = {'path': path, 'lines': []}
            self.by_path[key] = entry
            self.files.append(entry)
        return self.by_path[key]


def content_args(query: str, options: 'JsonObject') -> 'List[str]':
    args = ['--json', '--no-config', '--hidden', '--no-require-git', '--max-columns', str(MAX_PREVIEW_COLUMNS),
            '--max-columns-preview', '--max-filesize', '50M']
    if options['literal']:
        args.append('--fixed-strings')
    else:
        args.append('--engine=auto')  # PCRE2 when the pattern needs look-around or backreferences
    case = options['case_sensitive']
    if case is True:
        args.append('--case-sensitive')
    elif case is False:
        args.append('--ignore-case')
    else:
        args.append('--smart-case')
    if options['whole_word']:
        args.append('--word-regexp')
    if options['context'] > 0:
        args.extend(['--context', str(options['context'])])
    for glob in options['include']:
        args.extend(['--glob', glob])
    for glob in options['exclude']:
        args.extend(['--glob', '!' + glob])
    for glob in excluded_globs():
        args.extend(['--glob', '!' + glob])
    args.extend(['--regexp', query, '--'])
    return args


async def search_content(query: str, options: 'JsonObject', call: 'CallContext',
                         disk: 'Optional[Disk]' = None) -> 'ContentMatches':
    """{'files', 'matches', 'truncated'} for `query` under `options['paths']` (absolute). `disk` (here and below):
    host/disk.py Disk, the window's choice of how local folders are read; None is the product's."""
    rg = ripgrep_path(disk)
    args = content_args(query, options)
    args.extend(options['paths'])  # (list + list would be string concatenation in the bundle)
    search = ContentSearch(options['max_results'], call)
    result = await run_lines(rg, args, options['cwd'], search.on_line, call)
    if call.cancelled:
        raise ToolError('The search was cancelled.')
    if result['code'] == 2 and search.matches == 0:
        raise ToolError('ripgrep could not run this search: ' + first_lines(result['stderr']))
    if result['code'] is None and not result['stopped']:
        raise ToolError('ripgrep stopped unexpectedly: ' + first_lines(result['stderr']))
    return {'files': search.files, 'matches': search.matches, 'truncated': search.truncated,
            'warnings': first_lines(result['stderr']) if result['code'] == 2 else None}


def first_lines(text: 'Optional[str]', count: int = 5) -> str:
    lines = [line for line in (text or '').split('\n') if line.strip() != '']
    return '\n'.join(lines[:count]) or 'no error output'


async def list_unignored(paths: 'List[str]', cwd: 'Optional[str]', call: 'CallContext',
                         disk: 'Optional[Disk]' = None) -> 'Optional[Dict[str, bool]]':
    """Every file ripgrep would search under `paths` (absolute), honouring .gitignore/.ignore files;
    a set-like dict keyed 'f:<path>'. None when ripgrep is unavailable."""
    try:
        rg = ripgrep_path(disk)
    except ToolError:
        return None
    seen = {}  # type: Dict[str, bool]

    def on_line(text: str) -> bool:
        if text != '':
            seen['f:' + text] = True
        return False
    args = ['--files', '--no-config', '--hidden', '--no-require-git', '--glob', '!**/.git', '--']
    args.extend(paths)
    result = await run_lines(rg, args, cwd, on_line, call)
    if result['code'] == 2 and len(seen.keys()) == 0:
        return None
    return seen


async def find_files(glob: str, base: 'Optional[str]', max_results: int, use_ignore_files: bool, call: 'CallContext',
                     disk: 'Optional[Disk]' = None) -> 'FoundFiles':
    """Workspace files matching `glob` (relative to `base`, an absolute folder, or to every workspace
    folder when None), honouring files.exclude and search.exclude, and .gitignore unless told not to.
    {'paths': [absolute], 'truncated', 'ignore_files_applied'}."""
    if use_ignore_files and uses_node_fs(disk) and folders_are_local():
        rg = None  # type: Optional[str]
        try:
            rg = ripgrep_path(disk)
        except ToolError:
            pass
        if rg is not None:
            return await find_files_with_ripgrep(rg, glob, base, max_results, call, disk)
    return await find_files_through_vscode(glob, base, max_results, use_ignore_files, call, disk)


def folders_are_local() -> bool:
    """Every workspace folder is a file: folder, so ripgrep can list it directly."""
    for folder in workspace_folders():
        if not folder['uri'].startswith('file:'):
            return False
    return True


def anchored(glob: str) -> str:
    """A workspace glob as a ripgrep glob: VS Code's 'build' means the top-level build only, ripgrep's
    any 'build' (gitignore rules), so it is anchored with '/' as VS Code's own search does."""
    return glob if glob.startswith('**') or glob.startswith('/') else '/' + glob


async def find_files_with_ripgrep(rg: str, glob: str, base: 'Optional[str]', max_results: int, call: 'CallContext',
                                  disk: 'Optional[Disk]' = None) -> 'FoundFiles':
    """The fast path for local folders: one `rg --files` per workspace folder (what findFiles' answer
    was filtered by anyway) with files.exclude and search.exclude as ripgrep globs, the pattern matched
    by core/globs.py. Measured in code-server on 30,000 files: 2× → ~1.1× the bare `rg --files`,
    because findFiles' round trips to the window and its second ripgrep run are gone."""
    pattern = GlobSet([glob]).regex
    folders = [folder for folder in folder_paths() if base is None or is_inside(base, folder)]
    if base is not None and len(folders) == 0:
        folders = [base]  # outside the workspace (hermes.tools.allowOutsideWorkspace)
    excluded = excluded_globs()
    args = ['--files', '--no-config', '--hidden', '--no-require-git']
    for glob in excluded:
        args.extend(['--glob', '!' + anchored(glob)])
    args.append('--')
    wheres = ['.' if base is None else node('path').relative(folder, base) or '.' for folder in folders]
    runs = []  # type: List[Awaitable[List[str]]]
    for index, folder in enumerate(folders):
        # no ripgrep start for a small tree (unless the window's Disk says ripgrep lists every tree)
        listed = list_small_tree(folder, wheres[index], excluded) if disk is None or disk.small_trees else None
        if listed is not None:
            runs.append(as_awaitable(listed))
            continue
        folder_args = list(args)
        folder_args.append(wheres[index])
        runs.append(list_folder(rg, folder_args, folder, call))
    listings = await wait_all(runs)
    if call.cancelled:
        raise ToolError('The search was cancelled.')
    sep = node('path').sep
    found = []  # type: List[List[str]]
    found_count = 0  # the one folder's matching lines, all of them (only the first max_results + 1 are sorted)
    for index, listing in enumerate(listings):
        # ripgrep prints normalised paths under where it looked: './a/b' for '.', 'src/a/b' for 'src'
        where = wheres[index]
        under_where = 2 if where == '.' else len(where) + 1
        lines = []  # type: List[str]
        for line in listing:  # (a hot loop: plain functions, no method calls)
            if line != '' and regex_matches(pattern, line[under_where:] if sep == '/' else
                                            line[under_where:].replace(sep, '/')):
                lines.append(line)
        # one folder's lines share their start: sorted as they are, and only the paths returned are built
        found.append(await sorted_first(lines, max_results + 1) if len(listings) == 1 else lines)
        if len(listings) == 1:
            found_count = len(lines)
    paths = []  # type: List[str]
    for index, lines in enumerate(found):
        in_folder = 2 if wheres[index] == '.' else 0
        prefix = folders[index] + sep
        count = len(lines) if len(found) > 1 else min(len(lines), max_results + 1)
        for line_index in range(count):
            paths.append(prefix + lines[line_index][in_folder:])
    if len(found) > 1:
        sorted_strings(paths)
    truncated = found_count > max_results if len(found) == 1 else len(paths) > max_results
    return {'paths': paths[:max_results], 'truncated': truncated, 'ignore_files_applied': True}


async def sorted_first(strings: 'List[str]', count: int) -> 'List[str]':
    """The first `count` of `strings` in the order `sorted_strings` gives (`strings` may be reordered). A long list
    is sorted a slice per turn of the event loop, then the slices are merged up to `count`: the extension host is
    never held for the whole sort."""
    if len(strings) <= SORT_SLICE:
        return sorted_strings(strings)[:count]
    runs = []
    for start in range(0, len(strings), SORT_SLICE):
        runs.append(sorted_strings(strings[start:start + SORT_SLICE]))
        await next_turn()
    return merge_first(runs, count)


def merge_first(runs: 'List[List[str]]', count: int) -> 'List[str]':
    """The first `count` strings of sorted `runs` merged, in the same code-unit order. (A hot loop: lengths counted
    once, no `len()` or method call per comparison.)"""
    total = len(runs)
    sizes = [len(run) for run in runs]
    heads = [0 for run in runs]
    merged = []
    taken = 0
    while taken < count:
        best = -1
        best_text = ''
        for index in range(total):
            head = heads[index]
            if head < sizes[index]:
                text = runs[index][head]
                if best == -1 or text < best_text:
                    best = index
                    best_text = text
        if best == -1:
            break
        merged.append(best_text)
        heads[best] = heads[best] + 1
        taken = taken + 1
    return merged


async def as_awaitable(value: 'List[str]') -> 'List[str]':
    return value


async def list_folder(rg: str, args: 'List[str]', folder: str, call: 'CallContext') -> 'List[str]':
    """The lines `rg --files` prints in `folder` (paths relative to it); ToolError when it fails."""
    process = start_process(rg, args, {'cwd': folder, 'timeout_ms': 0, 'max_bytes': MAX_LISTING_BYTES})
    unsubscribe = call.on_cancel(process['kill'])
    result = await process['done']
    unsubscribe()
    if result['error'] is not None or (result['code'] == 2 and result['stdout'] == ''):
        raise ToolError('The file search failed: ' + (result['error'] or first_lines(result['stderr'])))
    return result['stdout'].split('\n')  # (with a last empty line: callers skip empty lines)


async def find_files_through_vscode(glob: str, base: 'Optional[str]', max_results: int, use_ignore_files: bool,
                                    call: 'CallContext', disk: 'Optional[Disk]' = None) -> 'FoundFiles':
    """find_files through `vscode.workspace.findFiles` (any file system VS Code mounts).

    findFiles itself ignores .gitignore, so ripgrep lists the files it would search (concurrently)
    and findFiles' answer is filtered by that list; when the filter leaves too few, findFiles is asked
    again for more."""
    source = new(vscode.CancellationTokenSource)
    unsubscribe = call.on_cancel(lambda: source.cancel())
    include = glob if base is None else new(vscode.RelativePattern, vscode.Uri.file(base), glob)
    search_excludes = exclude_patterns(['search.exclude'])['plain']
    # undefined (not null: that would switch files.exclude off too) when there is nothing to add
    exclude = js_undefined if len(search_excludes) == 0 else '{' + ','.join(search_excludes) + '}'
    limit = max_results + 1 if not use_ignore_files else max_results + max_results // 4 + 100
    allowed = None  # type: Optional[Dict[str, bool]]
    try:
        listing = list_unignored([base] if base is not None else folder_paths(),  # type: Any  # (awaited when used)
                                 base if base is not None else first_folder(), call, disk) if use_ignore_files else None
        uris = await vscode.workspace.findFiles(include, exclude, limit, source.token)
        if use_ignore_files:
            allowed = await listing
        paths = kept_paths(uris, allowed)
        while (allowed is not None and len(uris) >= limit and len(paths) <= max_results and limit < MAX_FOUND and
               not call.cancelled):
            limit = limit * 4
            uris = await vscode.workspace.findFiles(include, exclude, limit, source.token)
            paths = kept_paths(uris, allowed)
    except JsError as error:
        raise ToolError('The file search failed: ' + error_message(error))
    finally:
        unsubscribe()
        source.dispose()
    if call.cancelled:
        raise ToolError('The search was cancelled.')
    paths.sort()
    truncated = len(paths) > max_results or len(uris) >= limit
    return {'paths': paths[:max_results], 'truncated': truncated, 'ignore_files_applied': allowed is not None}


def kept_paths(uris: 'List[Uri]', allowed: 'Optional[Dict[str, bool]]') -> 'List[str]':
    """The file paths among `uris` that the ripgrep listing `allowed` has. Without one, those inside the
    workspace: findFiles follows symlinks (ripgrep's listing does not), so a linked folder would list the
    names of outside files (confinement.py)."""
    paths = []  # type: List[str]
    for uri in uris:
        if uri.scheme != 'file':
            continue
        if allowed is not None and ('f:' + uri.fsPath) not in allowed:
            continue
        paths.append(uri.fsPath)
    return paths if allowed is not None else confined_paths(paths)


def first_folder() -> 'Optional[str]':
    folders = folder_paths()
    return folders[0] if len(folders) > 0 else None
