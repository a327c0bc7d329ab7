"""What each bundle is made of: the bytes every transpiled module takes in the minified output (esbuild's metafile,
written by esbuild.js to build/bundle-parts.json), grouped by feature. `inv bundle-report`; `inv bench` prints it too.

A module's feature comes from its name (FEATURES, first match wins), else from its package (core, tools, host, net,
ui); Transcrypt's runtime and its `copy` module are the runtime, hermes/js/ the seam.
"""
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PARTS_FILE = ROOT / 'build' / 'bundle-parts.json'

FEATURES = [
    # (group, pattern over the module's name without 'hermes.')
    ('acp', r'acp|^host\.agent_launch$'),
    ('doors', r'door|^net\.ide_socket$|^js\.websocket$|^host\.proposals$|^ui\.proposal_ui$|^host\.diff_review$'),
    ('changes/review', r'change|hunks|checkpoints|native_edits|disk_changes|edit_scopes|diff_preview|workspace_texts'),
    ('panel protocol', r'^ui\.panel'),
]
PACKAGES = {'core': 'core', 'tools': 'tools', 'host': 'host', 'net': 'net', 'ui': 'ui', 'js': 'seam (js)',
            'cli': 'cli'}
GROUPS = ['runtime', 'seam (js)', 'core', 'tools', 'host', 'net', 'ui', 'acp', 'changes/review', 'doors',
          'panel protocol', 'cli', 'entry']


def group_of(module):
    """'hermes.host.acp.turn_runner' → 'acp'; 'org.transcrypt.__runtime__' → 'runtime'; 'extension' → 'entry'."""
    if module.startswith('org.transcrypt') or module == 'copy':
        return 'runtime'
    if not module.startswith('hermes.'):
        return 'entry'  # the main modules (extension, lazy_parts) and esbuild.js's generated entries
    name = module[len('hermes.'):]
    for group, pattern in FEATURES:
        if re.search(pattern, name):
            return group
    return PACKAGES.get(name.split('.')[0], 'entry')  # hermes.version


def grouped(modules):
    """{group: bytes} over {module: bytes}, every group of GROUPS present."""
    totals = {group: 0 for group in GROUPS}
    for module, size in modules.items():
        totals[group_of(module)] += size
    return totals


def report(parts=None, out=print):
    """The table: a row per group, a column per output file (dist/extension.js first, then the parts loaded on first
    use), then the largest modules of the main bundle."""
    parts = json.loads(PARTS_FILE.read_text()) if parts is None else parts
    files = sorted(parts, key=lambda name: (name != 'extension.js', name))
    columns = {name: grouped(parts[name]) for name in files}
    width = max(len(name) for name in files) + 2
    out(f'  {"group":<16}' + ''.join(f'{name:>{width}}' for name in files))
    for group in GROUPS:
        if any(columns[name][group] for name in files):
            out(f'  {group:<16}' + ''.join(f'{columns[name][group]:>{width},}' for name in files))
    out(f'  {"total (inputs)":<16}' + ''.join(f'{sum(columns[name].values()):>{width},}' for name in files))
    main = parts.get('extension.js', {})
    largest = sorted(main.items(), key=lambda item: -item[1])[:12]
    out('  largest in extension.js: ' + ', '.join(f"{name.replace('hermes.', '')} {size:,}" for name, size in largest))
    return columns


if __name__ == '__main__':
    if not PARTS_FILE.exists():
        sys.exit(f'{PARTS_FILE} is missing: run `inv build --production` first.')
    report()
