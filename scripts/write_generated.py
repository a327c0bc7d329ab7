"""What every generator of the toolchain does with its files (scripts/gen_panel_protocol.py, gen_schema_types.py):
write those whose text changed, or with --check write nothing and fail naming them and what to run."""
import sys


def stale(files):
    """`files`: {path: the text generated for it} → the paths whose file is missing or differs."""
    return [path for path, text in files.items() if not path.exists() or path.read_text() != text]


def write_or_check(argv, files, root, label, what, source, script):
    """0 when `files` are up to date (or were written), 1 with --check when some are stale. `label`, `what`: the
    report's words ('panel protocol', 'generated files'); `source`: what the files are generated from; `script`:
    the generator's file name under scripts/."""
    outdated = stale(files)
    if not outdated:
        print(f'{label}: {what} up to date')
        return 0
    names = ', '.join(str(path.relative_to(root)) for path in outdated)
    if '--check' in argv:
        print(f'{names}: stale against {source}. Run `inv build` (or `python scripts/{script}`) and commit them.',
              file=sys.stderr)
        return 1
    for path in outdated:
        path.write_text(files[path])
    print(f'{label}: regenerated {names}')
    return 0
