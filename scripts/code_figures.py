"""The code's shape in figures (issue 33's "before → after"): strict modules, annotated functions, the untyped
readers inside vs at the boundary (tests/unit/test_rules.py rule 13), the largest classes, and how many folders
hold each feature's files. `inv figures`; read from the sources alone, nothing is run.
"""
import ast
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HERMES = ROOT / 'py_src' / 'hermes'
sys.path[:0] = [str(ROOT), str(ROOT / 'tests' / 'unit')]
from test_rules import UNTYPED_READS, is_boundary_reader  # the rule's own list of boundary modules

FEATURES = ['acp', 'changes', 'chat', 'panel', 'doors', 'mcp']  # each a package in the layers it reaches (ARCHITECTURE)


def modules():
    """(path inside hermes/, tree) of every transpiled module: not the CPython twins, not empty package files."""
    for path in sorted(HERMES.rglob('*.py')):
        if path.name.endswith('_cpython.py') or (path.name == '__init__.py' and path.stat().st_size == 0):
            continue
        yield str(path.relative_to(HERMES)), ast.parse(path.read_text())


def strict_patterns():
    config = tomllib.loads((ROOT / 'pyproject.toml').read_text())['tool']['mypy']
    patterns = []
    for override in config.get('overrides', []):
        if override.get('disallow_untyped_defs'):
            names = override['module']
            patterns.extend([names] if isinstance(names, str) else names)
    return patterns


def is_strict(relative, patterns):
    name = 'hermes.' + relative[:-len('.py')].replace('/', '.').replace('.__init__', '')
    return any(name == pattern or (pattern.endswith('.*') and name.startswith(pattern[:-1])) for pattern in patterns)


def annotated(function):
    """The function's return and every parameter but `self` / `cls` carry an annotation."""
    given = function.args
    arguments = given.posonlyargs + given.args + given.kwonlyargs + [item for item in [given.vararg, given.kwarg] if item]
    if arguments and arguments[0].arg in ('self', 'cls'):
        arguments = arguments[1:]
    return function.returns is not None and all(argument.annotation is not None for argument in arguments)


def figures():
    patterns = strict_patterns()
    found = {'modules': 0, 'strict': 0, 'functions': 0, 'annotated': 0, 'inside': 0, 'boundary': 0,
             'inside by reader': {name: 0 for name in UNTYPED_READS}, 'inside by layer': {}}
    classes, features = [], {name: set() for name in FEATURES}
    for relative, tree in modules():
        found['modules'] += 1
        found['strict'] += is_strict(relative, patterns)
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found['functions'] += 1
                found['annotated'] += annotated(node)
            elif isinstance(node, ast.ClassDef):
                classes.append((node.end_lineno - node.lineno + 1, relative + ' ' + node.name))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in UNTYPED_READS:
                if is_boundary_reader(relative):
                    found['boundary'] += 1
                    continue
                layer = relative.split('/')[0]
                found['inside'] += 1
                found['inside by reader'][node.func.id] += 1
                found['inside by layer'][layer] = found['inside by layer'].get(layer, 0) + 1
        for name in FEATURES:
            if re.search('(^|/)' + name + '(/|_)', relative):  # its package, or a name prefix outside it
                features[name].add(str(Path(relative).parent))
    found['largest classes'] = sorted(classes, reverse=True)[:5]
    found['folders per feature'] = {name: sorted(folders) for name, folders in features.items()}
    return found


def main():
    found = figures()
    print(f"strict modules: {found['strict']} of {found['modules']}")
    print(f"annotated functions: {found['annotated']} of {found['functions']}")
    print(f"untyped reads: {found['boundary']} at the boundary, {found['inside']} inside (" +
          ', '.join(f'{name} {count}' for name, count in found['inside by reader'].items()) + '; ' +
          ', '.join(f'{layer} {count}' for layer, count in sorted(found['inside by layer'].items())) + ')')
    print('largest classes: ' + ', '.join(f'{name} ({lines} lines)' for lines, name in found['largest classes']))
    for name, folders in found['folders per feature'].items():
        print(f'{name}: {len(folders)} folders ({", ".join(folders)})')


if __name__ == '__main__':
    main()
