"""The marketplace package.json (scripts/marketplace_manifest.py): nothing that needs an API proposal, which stable
VS Code refuses from a marketplace extension, and extensionKind declared; the rest as package.json has it."""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / 'scripts'))
from marketplace_manifest import marketplace_manifest  # (scripts/ is not a package: on the path above)

PACKAGE = json.loads((ROOT / 'package.json').read_text())


def test_no_proposals_nor_the_contributions_needing_them():
    manifest = marketplace_manifest(PACKAGE)
    assert 'enabledApiProposals' not in manifest
    assert 'chatSessions' not in manifest['contributes']
    assert 'chat/chatSessions' not in manifest['contributes']['menus']
    assert manifest['extensionKind'] == ['workspace']


def test_everything_else_is_package_jsons_and_package_json_is_left_alone():
    manifest = marketplace_manifest(PACKAGE)
    assert PACKAGE['enabledApiProposals'] and 'chatSessions' in PACKAGE['contributes']  # the copy changed only
    for key in ['chatParticipants', 'languageModelTools', 'configuration', 'commands', 'views']:
        assert manifest['contributes'][key] == PACKAGE['contributes'][key]
    menus = dict(PACKAGE['contributes']['menus'])
    del menus['chat/chatSessions']
    assert manifest['contributes']['menus'] == menus
    assert (manifest['name'], manifest['version'], manifest['main']) == (PACKAGE['name'], PACKAGE['version'],
                                                                         PACKAGE['main'])
