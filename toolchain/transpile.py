"""Transcrypt as this project runs it: the pinned version, the generator patched (toolchain/kwargs.py,
toolchain/compact.py), the runtime patched (toolchain/runtime.py). Same command line as `transcrypt`:

    python -m toolchain.transpile -n -m -k -xp py_src -od <absolute build dir> py_src/hermes/extension.py

Run by `inv build` (tasks.py `transpile`) once per entry module, into one folder. `--root <folder>` (first) reads
the sources from another tree laid out like this one (py_src/, tests/): the snippet tests use it.
"""
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from toolchain import compact, kwargs, runtime

ROOT = Path(__file__).resolve().parents[1]


def pinned_transcrypt(pyproject=ROOT / 'pyproject.toml'):
    """The Transcrypt version pyproject.toml pins (its one home): the patches were written against it."""
    import tomllib
    for requirement in tomllib.loads(pyproject.read_text())['project']['optional-dependencies']['dev']:
        name, _, pin = requirement.partition('==')
        if name.strip().lower() == 'transcrypt':
            return pin.strip()
    raise SystemExit('toolchain: pyproject.toml pins no Transcrypt version (dev: "transcrypt==…")')


def check_transcrypt(pinned):
    try:
        installed = version('transcrypt')
    except PackageNotFoundError:
        raise SystemExit('toolchain: Transcrypt is not installed. Run `inv setup`.')
    if installed != pinned:
        raise SystemExit(f'toolchain: Transcrypt {installed} is installed, but the patches in toolchain/ were written '
                         f'for {pinned} (pyproject.toml). Run `inv setup`, or review every patch before moving the pin.')
    return installed


def project_sources(root=ROOT):
    """What the patches read: the Python that is transpiled, the Python that calls it with keywords (the unit tests,
    whose calls the parity layer replays on the bundle), and the JS tests that call the transpiled code."""
    transpiled = sorted((root / 'py_src').rglob('*.py'))
    callers = transpiled + sorted((root / 'tests' / 'unit').rglob('*.py'))
    js_tests = sorted((root / 'tests').rglob('*.js'))
    return transpiled, callers, js_tests


def patch(transpiled, callers, js_tests):
    kwargs.patch_transcrypt(kwargs.keyword_callees(callers, js_tests))
    compact.patch(sys.modules['org.transcrypt.compiler'], transpiled, js_tests)


def output_folder(arguments):
    for index, argument in enumerate(arguments[:-1]):
        if argument == '-od':
            return Path(arguments[index + 1])
    return None


def main(arguments):
    check_transcrypt(pinned_transcrypt())
    root = ROOT
    if arguments[:1] == ['--root']:
        root, arguments = Path(arguments[1]), arguments[2:]
    patch(*project_sources(root))
    from transcrypt.__main__ import main as transcrypt_main
    sys.argv = ['transcrypt'] + arguments
    status = transcrypt_main()
    folder = output_folder(arguments)
    if not status and folder is not None and (folder / runtime.RUNTIME).exists():
        runtime.patch_folder(folder)
    return status


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
