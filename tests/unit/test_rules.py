"""The rules of the code base, checked by reading the sources (docs/ARCHITECTURE.md explains them):

1. Layers: each layer imports only the layers listed for it (imports point downward), and every module
   may use the seam (`hermes.js`) and `hermes.version`.
2. Tools: a tool module imports no other tool; what a family of tools shares lives in
   tools/<family>_parts.py (debug_parts, terminal_parts, git_parts, lsp_parts, editor_parts).
3. Who touches VS Code: `vscode` (from the seam) is used by host/ and ui/ (and extension.py) only; tools/
   reach VS Code through host/ services, the window's through `call.services`.
4. The seam: only the modules of `hermes/js/` call `require`, and each one alone imports its CPython
   twin (`hermes/js/<name>_cpython.py`), inside a skip block.
5. Truthiness: every module runs with Python truthiness in the bundle (`# __pragma__('tconv')`, so
   `if []:` is false there as under CPython); the `_cpython.py` twins are never transpiled and empty
   `__init__.py` files have nothing to convert.
6. The repository explains itself: nothing in it points at notes outside it (the team's shared folder).
7. A tool argument's default lives in its schema (`'default': 60`, filled in by the registry): no handler
   writes one in code (`args.get('x') or 60`, `args.get('x', 60)`, `args.get('x') != False`, or the same through
   `get_key`).
8. Contracts (hermes/contracts/: Protocols, TypedDicts, Literals) are typing only and never reach the bundle:
   they import nothing but `typing` and each other, and every import of them, like every `typing` import,
   sits inside a skip block (docs/ARCHITECTURE.md, "Contracts").
9. The build's toolchain (toolchain/: Transcrypt's patches, the lint, the parity recorder) imports nothing from
   tests/: tests use the toolchain, never the other way.
10. Confinement: a URI becomes a path (`.fsPath`) in host/ and tools/ only in the modules FS_PATH_READERS lists,
   each with its reason (docs/SECURITY.md, host/confinement.py).
11. Tools import core and contracts only (and the seam, and their family's parts): what a tool needs of the window
   comes through `call.services` (contracts/services.py), so a test hands it a small typed fake
   (tests/unit/service_fakes.py). No tool module imports host/.
12. No module-level state: what code keeps between calls (a choice such as reading through Node's fs or VS Code's,
   a memo such as where ripgrep is, a counter) lives in an object built with the window's services and passed in,
   so a test builds the choice it wants instead of flipping a module's switch. No `global`; no function changes a
   module-level name (an item, an attribute, a mutating method). MODULE_STATE lists the few that must stay, each with
   why; the `_cpython.py` twins (CPython stand-ins for JS globals, never bundled) are not checked.
13. Untyped reads at the boundary: `get_key` / `json_type` read values whose shape nobody promised —
   what a transport received, a message of an agent, a CLI or the panel, a tool's arguments before the registry
   checked them, the seam's JS values. BOUNDARY_READERS lists where such values enter; inside, typed records are
   read by attribute or key. The calls other modules still make are recorded per module in
   tests/unit/untyped_reads.json, a ratchet: a count may fall (the test then asks for the lower number), never rise,
   and a module not listed makes none. (`x is None` is no such read: the build compiles it to `== null`, true for a JS
   `undefined` too, toolchain/compact.py, so it is Python's test for a missing value everywhere.)
14. Parts loaded on first use: a module hermes/lazy_parts.py imports is bundled as a file of its own
   (dist/part-<module>.js, esbuild.js), so no other module imports it (but inside a skip block, for types), and
   the code asks for it by name, `load_part('<module>')` (hermes/js/parts.py).
"""
import ast
import json
import re
import subprocess
from pathlib import Path

from toolchain.lint import skipped_lines

HERMES = Path(__file__).resolve().parents[2] / 'py_src' / 'hermes'
EVERYONE = {'js', 'version', 'contracts'}
LAYERS = {
    'core': {'core'},  # pure logic: no VS Code, no Node
    'net': {'core', 'net'},  # Node I/O (HTTP)
    'host': {'core', 'net', 'host'},  # VS Code services
    'tools': {'core', 'tools'},  # one module per tool, over the window's services (`call.services`): rule 11
    'ui': {'core', 'host', 'ui'},  # front ends
    'cli': {'core', 'net', 'cli'},  # dist/mcp-server.js: runs without VS Code
    'mcp_server_cli': {'cli'},
    'extension': {'core', 'net', 'host', 'tools', 'ui'},
    'lazy_parts': {'core', 'net', 'host', 'tools', 'ui'},  # Transcrypt's entry for the parts loaded on first use
    'contracts': {'contracts'},  # typing only, read by the type checker (rule 8)
    'js': {'js'},  # the seam: the one layer that reaches JS globals and require (docs/TRANSCRYPT.md)
    'version': set(),
    'hermes': set(),
}
VSCODE_LAYERS = {'host', 'ui', 'extension'}
TCONV = "# __pragma__('tconv')"


def modules():
    for path in sorted(HERMES.rglob('*.py')):
        yield path, ast.parse(path.read_text(), str(path))


def layer_of(dotted):
    """'hermes.host.files' → 'host'; 'hermes.js.json' → 'js'."""
    parts = dotted.split('.')
    return parts[1] if len(parts) > 1 else parts[0]


def module_name(path):
    parts = path.relative_to(HERMES).with_suffix('').parts
    return '.'.join(('hermes',) + (parts[:-1] if parts[-1] == '__init__' else parts))


def hermes_imports(tree):
    """(module, names) for every import of a hermes module."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split('.')[0] == 'hermes':
            yield node.module, [alias.name for alias in node.names]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split('.')[0] == 'hermes':
                    yield alias.name, []


def test_every_layer_imports_only_the_layers_below_it():
    wrong = []
    for path, tree in modules():
        layer = layer_of(module_name(path))
        allowed = LAYERS[layer] | EVERYONE | {layer}
        for module, _ in hermes_imports(tree):
            if module != 'hermes' and layer_of(module) not in allowed:
                wrong.append(f'{path.relative_to(HERMES)} ({layer}) imports {module}')
    assert wrong == [], 'imports against the layering rule:\n' + '\n'.join(wrong)


def test_tools_import_core_and_contracts_only():
    """Rule 11, on its own so its message says where a tool's window comes from."""
    wrong = [f'tools/{path.name} imports {module}' for path, tree in modules() if layer_of(module_name(path)) == 'tools'
             for module, _ in hermes_imports(tree) if layer_of(module) not in LAYERS['tools'] | EVERYONE]
    assert wrong == [], 'a tool takes the window from call.services (contracts/services.py), never host/:\n' + \
        '\n'.join(wrong)


def test_a_tool_module_imports_no_other_tool_only_its_familys_parts():
    wrong = []
    for path, tree in modules():
        if layer_of(module_name(path)) != 'tools' or path.name in ('catalog.py', 'every_tool.py'):  # the registry's and the part's lists
            continue
        for module, _ in hermes_imports(tree):
            if layer_of(module) == 'tools' and not module.endswith('_parts'):
                wrong.append(f'{path.name} imports {module}: move what they share into tools/<family>_parts.py')
    assert wrong == []


def test_only_host_and_ui_touch_vscode():
    users = set()
    for path, tree in modules():
        layer = layer_of(module_name(path))
        if any(module == 'hermes.js.modules' and 'vscode' in names for module, names in hermes_imports(tree)):
            users.add((layer, path.name))
    others = {f'{layer}/{name}' for layer, name in users if layer not in VSCODE_LAYERS}
    assert others == set(), 'only host/ and ui/ may use vscode (a tool reaches VS Code through a host/ service)'


def test_only_the_seam_reaches_javascript_and_each_module_alone_its_cpython_twin():
    offenders = []
    for path, tree in modules():
        name = module_name(path)
        in_seam = layer_of(name) == 'js'
        skipped = skipped_lines(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or '').endswith('_cpython'):
                if node.module != name + '_cpython':
                    offenders.append(f'{path.relative_to(HERMES)} imports {node.module}: only its own module may')
                elif node.lineno not in skipped:
                    offenders.append(f'{path.relative_to(HERMES)} imports {node.module} outside a skip block')
            elif isinstance(node, ast.Import) and any(alias.name.endswith('_cpython') for alias in node.names):
                offenders.append(f'{path.relative_to(HERMES)} imports a CPython twin with `import`')
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == 'require'
                  and not in_seam):
                offenders.append(f'{path.relative_to(HERMES)} calls require()')
    assert offenders == []


def test_every_seam_module_has_its_twin_beside_it():
    seam = HERMES / 'js'
    twins = {path.name[:-len('_cpython.py')] for path in seam.glob('*_cpython.py')}
    modules_ = {path.stem for path in seam.glob('*.py') if not path.stem.endswith('_cpython')} - {'__init__'}
    assert twins <= modules_, 'a CPython twin without its module'


def test_every_module_declares_python_truthiness():
    missing = []
    for path, tree in modules():
        if path.name.endswith('_cpython.py') or (path.name == '__init__.py' and not tree.body) or \
                layer_of(module_name(path)) == 'contracts':  # never transpiled (rule 8)
            continue
        lines = path.read_text().splitlines()
        if TCONV not in lines:
            missing.append(str(path.relative_to(HERMES)))
        elif any(line.strip() == "# __pragma__('notconv')" for line in lines):
            missing.append(str(path.relative_to(HERMES)) + ' (switches it off)')
    assert missing == [], f'add {TCONV} after the module docstring:\n' + '\n'.join(missing)


def test_nothing_in_the_repository_points_outside_it():
    root = HERMES.parents[1]
    tracked = subprocess.run(['git', 'ls-files'], cwd=root, capture_output=True, text=True, check=True).stdout.split()
    outside = ['..' + '/shared', 'shared' + '/notes', 'shared/' + 'DESIGN.md']
    found = []
    for name in tracked:
        path = root / name
        if path.suffix not in ('.py', '.md', '.js', '.json', '.toml', '.yml', '.yaml', '.txt', '') or not path.is_file():
            continue
        text = path.read_text(errors='replace')
        found.extend(f'{name}: {marker}' for marker in outside if marker in text)
    assert found == [], 'the repository must explain itself (docs/ARCHITECTURE.md, docs/TRANSCRYPT.md):\n' + '\n'.join(found)


def test_no_noqa_for_a_linter_that_does_not_run():
    """No task runs flake8 or ruff, so a noqa comment silences nothing and only suggests a check that is not made (the
    type checker's own `# type: ignore[...]`, checked by mypy's warn_unused_ignores, is the way to silence one)."""
    root = HERMES.parents[1]
    tracked = subprocess.run(['git', 'ls-files', '*.py'], cwd=root, capture_output=True, text=True, check=True).stdout.split()
    marker = '# ' + 'noqa'
    found = [name for name in tracked if (root / name).is_file() and marker in (root / name).read_text(errors='replace')]
    assert found == [], 'remove the noqa comments (no linter runs here):\n' + '\n'.join(found)


def _reads_an_argument(node):
    """`args.get(…)`, `args[…]`, or `get_key(args, …)`."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == 'get':
        return isinstance(node.func.value, ast.Name) and node.func.value.id == 'args'
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == 'get_key':
        return len(node.args) > 0 and isinstance(node.args[0], ast.Name) and node.args[0].id == 'args'
    return isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == 'args'


def _fallback_of(read):
    """The fallback a read passes (`args.get(key, x)`, `get_key(args, key, x)`), or None."""
    position = 1 if isinstance(read.func, ast.Attribute) else 2
    return read.args[position] if len(read.args) > position else None


def argument_defaults_in_code(tree, name):
    found = []
    for node in ast.walk(tree):
        where = f'{name}:{getattr(node, "lineno", "?")}'
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and _reads_an_argument(node.values[0]) \
                and any(isinstance(value, ast.Constant) for value in node.values[1:]):
            found.append(where + ' `… or <constant>`')
        elif isinstance(node, ast.Call) and _reads_an_argument(node) \
                and isinstance(_fallback_of(node), ast.Constant):  # (one that depends on the call is code's)
            found.append(where + ' `args.get(key, default)`')
        elif isinstance(node, ast.Compare) and _reads_an_argument(node.left) and any(
                isinstance(comparator, ast.Constant) and comparator.value is False for comparator in node.comparators):
            found.append(where + ' `… != False`')
    return found


def test_a_tool_writes_no_argument_default_in_code():
    found = []
    for path, tree in modules():
        if layer_of(module_name(path)) == 'tools':
            found.extend(argument_defaults_in_code(tree, path.name))
    assert found == [], "declare the default in the tool's schema ('default': …) instead:\n" + '\n'.join(found)


def test_the_argument_default_rule_fires_on_a_default_written_in_code():
    source = """
def handler(args, call, opened):
    a = args.get('timeout_seconds', 60)
    b = get_key(args, 'max_chars', 20000)
    c = args.get('title') or 'Untitled'
    d = args.get('save') != False
    e = args.get('wait_seconds', 3 if opened else 0)
    f = args.get('title') or args['path']
"""
    assert argument_defaults_in_code(ast.parse(source), 'tool.py') == [
        'tool.py:3 `args.get(key, default)`', 'tool.py:4 `args.get(key, default)`', 'tool.py:5 `… or <constant>`',
        'tool.py:6 `… != False`']


def test_contracts_are_typing_only_and_imported_inside_skip_blocks():
    """Transcrypt cannot compile `typing` (its stub exports ClassVar only), and a contract in the bundle would be
    dead weight: whoever imports a contract, or typing, does it where only CPython and the type checker look."""
    wrong = []
    for path, tree in modules():
        shown = str(path.relative_to(HERMES))
        in_contracts = layer_of(module_name(path)) == 'contracts'
        skipped = skipped_lines(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or '']
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                typing_only = name == 'typing' or name.startswith('hermes.contracts')
                if in_contracts and not typing_only:
                    wrong.append(f'{shown}:{node.lineno} imports {name}: contracts import typing and contracts only')
                elif typing_only and node.lineno not in skipped:
                    wrong.append(f'{shown}:{node.lineno} imports {name} outside a skip block')
        if in_contracts:
            outside = [node.lineno for node in tree.body if node.lineno not in skipped
                       and not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))]
            wrong.extend(f'{shown}:{line}: a contract outside the skip block' for line in outside)
    assert wrong == [], '\n'.join(wrong)


# Rule 10 (docs/SECURITY.md, host/confinement.py): every location or text Hermes shows a model that no caller named
# by a path goes through one rule (host/ and tools/: what tools and resources return; ui/ shows the user). A URI becomes a path (`.fsPath`) only in these modules, each for a reason that keeps
# it confined; anywhere else, turn a URI into something shown with confinement.shows / place / shown_path.
FS_PATH_READERS = {
    'host/confinement.py': 'the rule itself',
    'host/doors/tools.py': "the CLIs' doors speak absolute paths; each is checked with confinement.shows or "
                          'resolve_path first',
    'host/doors/context.py': 'names only documents that confinement.shows allows',
    'host/language.py': 'location_of goes through confinement.place; documents it opens were resolved by path',
    'host/editors.py': 'compares a tab with a resolved path; open_tabs goes through confinement.shows',
    'host/documents.py': 'compares an open document with a resolved path',
    'host/files.py': 'compares an open document with a resolved path',
    'host/disk.py': 'reads paths the tools resolved',
    'host/search.py': "filters findFiles' answer by ripgrep's listing or confinement.confined_paths",
    'host/resource_provider.py': 'completions: confinement.confined_paths',
    'host/recent_files.py': 'keeps confined paths only (paths.is_confined)',
    'host/commands.py': 'resolve_path on URIs in command arguments',
    'host/chat/conversation_store.py': "the extension's own storage folders",
    'host/workspace.py': 'the workspace folders themselves',
    'host/debugging.py': "DAP sources' URIs as paths; frames go through paths.is_confined",
    'host/debug_workspace.py': 'breakpoints compared with a resolved path',
    'host/resource_events.py': 'keys of changed documents, never shown',
    'host/chat/host.py': 'references the user attached to a chat request themselves',
    'host/changes/log.py': 'the change log keys the writes of paths the tools resolved',
    'host/changes/store.py': "the extension's own storage folders",
    'host/language_service.py': 'the change log records the files of a rename that lsp_rename confined first',
    'host/configuration.py': "the workspace's own settings files",
    'host/changes/disk_changes.py': "files changed on disk during a span (an ACP turn, a terminal command), recorded by the "
                            "change log (never shown as a location)",
    'host/changes/workspace_index.py': "the workspace's files a watcher reported changed, the index spans of disk "
                               "changes read their names and texts from (never shown as a location)",
    'host/tool_services.py': "DocumentService.file_path_of: an open document's path, the change log's key for it",
}


def test_uris_become_shown_paths_only_through_the_confinement_rule():
    readers = set()
    for path in HERMES.rglob('*.py'):
        relative = str(path.relative_to(HERMES))
        if not (relative.startswith('host/') or relative.startswith('tools/')):
            continue  # what tools and resources hand a model comes from host/ and tools/ (ui/ shows the user)
        if '.fsPath' in path.read_text():
            readers.add(relative)
    unexpected = sorted(readers - set(FS_PATH_READERS))
    assert unexpected == [], ('these modules turn URIs into paths outside the confinement rule (host/confinement.py);'
                              ' use shows/place/shown_path, or add the module to FS_PATH_READERS with its reason: ' +
                              ', '.join(unexpected))
    for path in HERMES.rglob('*.py'):
        relative = str(path.relative_to(HERMES))
        if relative != 'host/confinement.py':
            assert 'display_path(uri.fsPath)' not in path.read_text().replace(' ', ''), relative


def test_the_toolchain_imports_nothing_from_tests():
    toolchain = HERMES.parents[1] / 'toolchain'
    wrong = []
    for path in sorted(toolchain.rglob('*.py')):
        if 'tests' in path.relative_to(toolchain).parts:
            continue  # its own snippet tests
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = [node.module or ''] if isinstance(node, ast.ImportFrom) else (
                [alias.name for alias in node.names] if isinstance(node, ast.Import) else [])
            wrong.extend(f'{path.relative_to(toolchain)} imports {name}' for name in names
                         if name.split('.')[0] in ('tests', 'parity', 'shim', 'vscode'))
    for path in sorted(toolchain.rglob('*.js')):
        for relative in re.findall(r"require\(\s*['\"](\.[^'\"]*)['\"]", path.read_text()):
            if toolchain not in (path.parent / relative).resolve().parents:
                wrong.append(f'{path.relative_to(toolchain)} requires {relative}')
    assert wrong == [], 'the toolchain must not depend on tests/:\n' + '\n'.join(wrong)

# 12. No module-level state ----------------------------------------------------------------------------------------

MUTATING_METHODS = {'append', 'extend', 'insert', 'pop', 'remove', 'clear', 'update', 'setdefault', 'add', 'discard',
                    'popitem', 'sort', 'reverse'}
MODULE_STATE = {
    # module: (the module-level name that holds state, why it cannot be a choice passed in)
    'hermes.extension': ('_active', "VS Code calls `deactivate()` with no arguments and awaits what it returns: what "
                         "activate started (the LLM service, the ACP agents) must be reachable from there"),
    'hermes.js.line_process': ('_live', "the process groups still running, for one `process.on('exit')` hook: the exit "
                               "of the extension host is process-wide, so is the list of what to kill on it"),
    'hermes.js.parts': ('_loaded', 'the loader the bundle\'s entry hands over and the parts it has required: a part is '
                        'required once per extension host, like a module, and shares the main bundle\'s modules'),
    'hermes.js.modules': ('_node_modules', 'a memo of `require` (itself a process-wide cache): every `require` runs '
                          "VS Code's module interceptors, measured at 9% of a file_search's CPU"),
    'hermes.js.clock': ('_LOCAL', 'a memo of the one Intl.DateTimeFormat `local_time_text` writes with (the default '
                        'locale and time zone are the extension host\'s own; a new formatter per call cost ~0.4 ms)'),
    'hermes.host.live_values': ('_state', 'a memo of `vscode.workspace` facts (settings, folders) that every path '
                                'check reads, cleared by its events: as process-wide as `vscode.workspace` itself'),
}


def _module_level_names(tree):
    names = set()
    for node in tree.body:
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Import) or (isinstance(node, ast.ImportFrom) and  # a twin's: a JS global
                                              not (node.module or '').endswith('_cpython')):
            names.update((alias.asname or alias.name).split('.')[0] for alias in node.names)
        for target in targets:
            names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return names


def _local_names(function):
    arguments = function.args
    names = {a.arg for a in arguments.posonlyargs + arguments.args + arguments.kwonlyargs}
    names.update(a.arg for a in [arguments.vararg, arguments.kwarg] if a)
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def _base_name(node):
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def module_state(tree):
    """(line, what) for each `global` statement and each change a function makes to a module-level name (its own or
    one it imported): an item or attribute set or deleted, or a mutating method called."""
    shared = _module_level_names(tree)
    found = []
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        mine = _local_names(function) if not isinstance(function, ast.Lambda) else set()
        for node in ast.walk(function):
            if isinstance(node, ast.Global):
                found.append((node.lineno, 'global ' + ', '.join(node.names)))
            targets = []
            if isinstance(node, (ast.Assign, ast.Delete)):
                targets = node.targets
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            for target in targets:
                if isinstance(target, (ast.Subscript, ast.Attribute)):
                    name = _base_name(target)
                    if name in shared and name not in mine:
                        found.append((node.lineno, ast.unparse(target) + ' changed'))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr in MUTATING_METHODS:
                name = _base_name(node.func.value)
                if name in shared and name not in mine and name != 'self':
                    found.append((node.lineno, ast.unparse(node.func) + '() called'))
    return sorted(set(found))


def test_no_module_keeps_state():
    """Rule 12: what a module keeps between calls lives in an object built when the window's services are built
    and passed in (a choice such as Node's fs or VS Code's, a memo such as where ripgrep is), never in a module:
    no `global`, no function changing a module-level name. MODULE_STATE lists the few that must stay, each with
    why. The `_cpython.py` twins stand in for JS globals under CPython only (tests register stand-ins there)."""
    found = []
    for path, tree in modules():
        name = module_name(path)
        if path.name.endswith('_cpython.py') or layer_of(name) == 'contracts':
            continue
        allowed = MODULE_STATE.get(name, (None, ''))[0]
        for line, what in module_state(tree):
            if allowed is None or not what.startswith(allowed):
                found.append(f'{path.relative_to(HERMES)}:{line}: {what}')
    assert found == [], 'module-level state (pass it in: rule 12):\n' + '\n'.join(found)


def test_the_module_state_allowlist_is_still_needed():
    for name, (holder, _) in MODULE_STATE.items():
        path = HERMES / (name[len('hermes.'):].replace('.', '/') + '.py')
        assert any(what.startswith(holder) for _, what in module_state(ast.parse(path.read_text()))), (
            f'{name} keeps no state in {holder} any more: remove it from MODULE_STATE')


def test_the_module_state_rule_sees_each_way_of_keeping_state():
    source = '''
from hermes.host import files
from hermes.js.process_cpython import process
_switch = {'on': True}
SEEN = []
CACHE = {}


def flip(enabled):
    global _flag
    _switch['on'] = enabled
    SEEN.append(enabled)
    files.backend = 'node'
    del CACHE['k']
    process.exitCode = 1


def fine(seen, table):
    seen.append(1)
    table['k'] = 2
    CACHE = {}
    CACHE['k'] = 3
    return SEEN[0]
'''
    assert [what for _, what in module_state(ast.parse(source))] == [
        'global _flag', "_switch['on'] changed", 'SEEN.append() called', 'files.backend changed',
        "CACHE['k'] changed"]


# Rule 13: where values of unknown shape enter, each with what enters there.
BOUNDARY_READERS = {
    'js/': 'the seam: JS values (undefined, plain objects) as Python sees them',
    'net/': 'the transports: HTTP, WebSocket and stdio messages, LLM streams, agent processes',
    'core/values.py': 'the readers themselves',
    'core/jsonrpc.py': 'JSON-RPC messages as received',
    'core/mcp/protocol.py': "an MCP client's requests",
    'core/mcp/stateless.py': "an MCP client's 2026-07-28 requests",
    'core/mcp/headers.py': "the request metadata a client mirrors into headers",
    'core/acp/protocol.py': "an ACP agent's answers and errors",
    'core/acp/turn.py': "an ACP agent's session/update notifications",
    'core/acp/options.py': "an ACP agent's session/new answer (its config options and modes)",
    'core/acp/commands.py': "an ACP agent's available_commands_update",
    'core/acp/subagents.py': "Hermes Agent's subagent progress (_meta.hermes.subagentProgress), read defensively",
    'core/acp/sign_in.py': "an ACP agent's authMethods",
    'core/acp/elicitation.py': "an ACP agent's questions, read defensively",
    'core/acp/consent.py': "an ACP agent's permission questions and the user's answers to them",
    'core/acp/hermes_background.py': "Hermes Agent's background notifications (_hermes/process, _hermes/notification)",
    'core/acp/turn_usage.py': "an ACP agent's usage and cost (PromptResponse.usage, usage_update.cost)",
    'core/acp/prompt_content.py': "VS Code's chat references and the panel's attachments, fitted to an agent's promptCapabilities",
    'host/acp/client_side.py': "the requests an ACP agent sends the client (fs/*, terminal/*)",
    'core/llm_wire.py': "an LLM server's streamed chunks",
    'core/tool_text.py': "a model's ```tool text",
    'ui/panel/protocol.py': "the panel webview's messages (their one validator)",
    'ui/panel/messages.py': 'generated from contracts/panel.py: the panel messages read field by field',
    'core/tools.py': "the registry: a tool call's arguments before they are checked",
    'core/schema.py': "tool arguments checked against their schema",
}
UNTYPED_READS = ('get_key', 'json_type')
UNTYPED_READS_FILE = Path(__file__).resolve().parent / 'untyped_reads.json'


def is_boundary_reader(relative):
    return any(relative == entry or (entry.endswith('/') and relative.startswith(entry)) for entry in BOUNDARY_READERS)


def untyped_reads(tree):
    """{name: how many calls} of the untyped readers in a module."""
    counts = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in UNTYPED_READS:
            counts[node.func.id] = counts.get(node.func.id, 0) + 1
    return counts


def untyped_read_findings(relative, counts, allowed):
    """What is wrong with a module's untyped reads against its recorded allowance ({} when none is recorded):
    more than recorded (a new read inside), or fewer (record the lower number, so the count only falls)."""
    if is_boundary_reader(relative):
        return []
    found = []
    for name in UNTYPED_READS:
        now, limit = counts.get(name, 0), allowed.get(name, 0)
        if now > limit:
            found.append(f'{relative}: {now} calls of {name}, {limit} recorded: read a typed record by attribute or '
                         'key inside; untyped values are read where they enter (BOUNDARY_READERS)')
        elif now < limit:
            found.append(f'{relative}: {now} calls of {name} now, {limit} recorded: lower it in '
                         f'{UNTYPED_READS_FILE.name}')
    return found


def test_untyped_reads_stay_where_untyped_values_enter():
    """Rule 13 (a ratchet): outside BOUNDARY_READERS, a module calls get_key / json_type no more often than
    tests/unit/untyped_reads.json records, and that record follows every drop."""
    recorded = json.loads(UNTYPED_READS_FILE.read_text())['modules']
    found = []
    seen = set()
    for path, tree in modules():
        relative = str(path.relative_to(HERMES))
        if path.name.endswith('_cpython.py'):
            continue
        seen.add(relative)
        found.extend(untyped_read_findings(relative, untyped_reads(tree), recorded.get(relative, {})))
    found.extend(f'{relative}: recorded in {UNTYPED_READS_FILE.name} but gone or a boundary reader now: remove it'
                 for relative in sorted(recorded) if relative not in seen or is_boundary_reader(relative))
    assert found == [], 'untyped reads (rule 13):\n' + '\n'.join(found)


def test_the_untyped_reads_rule_fires_inside_and_follows_a_drop():
    source = """
from hermes.core.values import get_key, json_type


def read(entry, value):
    if value is None or json_type(value) != 'string':
        return get_key(entry, 'hunks')
    return entry['hunks']
"""
    counts = untyped_reads(ast.parse(source))
    assert counts == {'get_key': 1, 'json_type': 1}  # `value is None` is none
    inside = untyped_read_findings('host/changes/log.py', counts, {'get_key': 1})
    assert len(inside) == 1 and inside[0].startswith('host/changes/log.py: 1 calls of json_type, 0 recorded')
    dropped = untyped_read_findings('host/changes/log.py', counts, {'get_key': 2, 'json_type': 1})
    assert len(dropped) == 1 and 'lower it' in dropped[0]
    assert untyped_read_findings('host/changes/log.py', counts, {'get_key': 1, 'json_type': 1}) == []
    assert untyped_read_findings('net/mcp/http.py', counts, {}) == []  # a transport: where untyped values enter


def test_every_boundary_reader_exists():
    for entry in BOUNDARY_READERS:
        assert (HERMES / entry).exists(), entry + ' is in BOUNDARY_READERS but not in py_src/hermes'


def test_a_module_loaded_on_first_use_is_imported_by_lazy_parts_alone_and_asked_for_by_name():
    lazy = {module for module, _ in hermes_imports(ast.parse((HERMES / 'lazy_parts.py').read_text()))}
    assert lazy, 'hermes/lazy_parts.py names the modules loaded on first use'
    wrong, asked = [], set()
    for path, tree in modules():
        text = path.read_text()
        asked.update(re.findall(r"load_part\('([\w.]+)'\)", text))
        if path.name == 'lazy_parts.py':
            continue
        skipped = skipped_lines(text)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in lazy and node.lineno not in skipped:
                wrong.append(f'{path.relative_to(HERMES)} imports {node.module}')
    assert wrong == [], 'these modules load on first use (load_part), an import would put them in the main bundle'
    assert lazy - asked == set(), 'a part nobody asks for is dead code'
