"""`inv release`'s check of a packaged .vsix (tasks.py release_problems): every field a marketplace page needs, the
files it shows (icon, readme, changelog, license), no API proposals in the marketplace build, and what the pinned
`ovsx` checks before publishing the Open VSX build."""
import json
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import tasks  # (after the path: tasks.py lives at the root)

FILES = ['extension/readme.md', 'extension/changelog.md', 'extension/LICENSE.txt', 'extension/dist/extension.js',
         'extension/media/icon.png']


def vsix(tmp_path, manifest, files=FILES):
    path = tmp_path / 'x.vsix'
    with zipfile.ZipFile(path, 'w') as archive:
        archive.writestr('extension/package.json', json.dumps(manifest))
        for name in files:
            archive.writestr(name, 'x')
    return path


def test_the_repositorys_manifest_has_every_field_a_marketplace_page_needs(tmp_path):
    manifest = json.loads((ROOT / 'package.json').read_text())
    assert tasks.release_problems(vsix(tmp_path, manifest), marketplace=False) == []
    problems = tasks.release_problems(vsix(tmp_path, manifest), marketplace=True)
    assert problems == ['x.vsix: declares enabledApiProposals (stable VS Code and vsce publish refuse them)']


def test_a_missing_field_or_file_is_named(tmp_path):
    manifest = json.loads((ROOT / 'package.json').read_text())
    del manifest['galleryBanner']
    del manifest['enabledApiProposals']
    problems = tasks.release_problems(vsix(tmp_path, manifest, FILES[1:]), marketplace=True)
    assert problems == ['x.vsix: package.json has no "galleryBanner"', 'x.vsix: extension/readme.md is missing']


def test_what_ovsx_refuses_is_named_for_the_open_vsx_build(tmp_path):
    manifest = json.loads((ROOT / 'package.json').read_text())
    del manifest['publisher']
    del manifest['license']
    problems = tasks.release_problems(vsix(tmp_path, manifest, [name for name in FILES if 'LICENSE' not in name]),
                                      marketplace=False)
    assert problems == ['x.vsix: package.json has no "publisher"', 'x.vsix: package.json has no "license"',
                        'x.vsix: extension/license.txt is missing',
                        "x.vsix: ovsx: Missing required field 'publisher'.",
                        'x.vsix: ovsx: no "license" in package.json and no LICENSE file (Open VSX requires one)']


def test_ovsx_reads_a_file_that_is_no_vsix_as_a_problem(tmp_path):
    broken = tmp_path / 'broken.vsix'
    broken.write_text('not a zip')
    assert tasks.ovsx_problems(broken) == ['End of Central Directory Record not found']


def test_a_part_the_bundle_loads_on_first_use_must_ride_along(tmp_path):
    manifest = json.loads((ROOT / 'package.json').read_text())
    path = tmp_path / 'x.vsix'
    with zipfile.ZipFile(path, 'w') as archive:
        archive.writestr('extension/package.json', json.dumps(manifest))
        for name in FILES:
            archive.writestr(name, 'const parts = { "hermes.net.acp.agent": () => require("./part-net.acp.agent.js") };'
                             if name.endswith('extension.js') else 'x')
    assert tasks.release_problems(path, marketplace=False) == [
        'x.vsix: extension/dist/part-net.acp.agent.js is missing (dist/extension.js loads it)']
