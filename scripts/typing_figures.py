"""How typed py_src/hermes is, in the figures issue 33 asks for (docs/DEVELOPING.md, "Typing figures"):

    python scripts/typing_figures.py

- untyped reads: the calls of get_key / is_none / json_type, inside and at the boundary, counted as rule 13 of
  tests/unit/test_rules.py counts them (its `untyped_reads` and `is_boundary_reader`), the inside ones by layer;
- annotated functions: those whose return and every parameter (but `self`/`cls`) carry an annotation;
- strict modules: those pyproject.toml's strict override names (`hermes.core.*` covers the package and its modules).
"""
import ast
import fnmatch
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HERMES = ROOT / 'py_src' / 'hermes'


def _rules():
    for path in [ROOT, ROOT / 'tests' / 'unit']:  # (test_rules uses the toolchain's lint)
        sys.path.insert(0, str(path))
    import test_rules
    return test_rules


def _annotated(function):
    arguments = function.args
    parameters = arguments.posonlyargs + arguments.args + arguments.kwonlyargs + \
        [item for item in [arguments.vararg, arguments.kwarg] if item is not None]
    if parameters and parameters[0].arg in ('self', 'cls'):
        parameters = parameters[1:]
    return function.returns is not None and all(parameter.annotation is not None for parameter in parameters)


def _strict_patterns():
    config = tomllib.loads((ROOT / 'pyproject.toml').read_text())['tool']['mypy']
    return [name for override in config.get('overrides', []) if override.get('disallow_untyped_defs')
            for name in override['module']]


def _is_strict(module, patterns):
    return any(module == pattern or fnmatch.fnmatchcase(module, pattern) or
               (pattern.endswith('.*') and module == pattern[:-2]) for pattern in patterns)


def figures():
    rules = _rules()
    inside, boundary, layers = {}, {}, {}
    functions = annotated = strict = modules = 0
    patterns = _strict_patterns()
    for path in sorted(HERMES.rglob('*.py')):
        if path.name.endswith('_cpython.py'):  # (rule 13 leaves the CPython twins out too)
            continue
        relative = str(path.relative_to(HERMES))
        tree = ast.parse(path.read_text())
        counts = inside if not rules.is_boundary_reader(relative) else boundary
        for name, count in rules.untyped_reads(tree).items():
            counts[name] = counts.get(name, 0) + count
            if counts is inside:
                layer = relative.split('/')[0]
                layers[layer] = layers.get(layer, 0) + count
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                functions += 1
                annotated += _annotated(node)
        module = 'hermes.' + relative[:-3].replace('/', '.')
        module = module[:-len('.__init__')] if module.endswith('.__init__') else module
        modules += 1
        strict += _is_strict(module, patterns)
    return {'inside': inside, 'inside_by_layer': dict(sorted(layers.items())), 'boundary': boundary,
            'annotated_functions': [annotated, functions], 'strict_modules': [strict, modules]}


def main():
    found = figures()
    for label, key in [('untyped reads inside', 'inside'), ('untyped reads at the boundary', 'boundary')]:
        counts = found[key]
        print(f'{label}: {sum(counts.values())} ' + ', '.join(f'{name} {counts.get(name, 0)}'
                                                               for name in ['get_key', 'is_none', 'json_type']))
    print('inside, by layer: ' + ', '.join(f'{layer} {count}' for layer, count in found['inside_by_layer'].items()))
    print('annotated functions: {} of {}'.format(*found['annotated_functions']))
    print('strict modules: {} of {}'.format(*found['strict_modules']))


if __name__ == '__main__':
    main()
