"""The package.json of the marketplace .vsix (`inv package --target marketplace`): what stable VS Code runs from
the marketplace, where an extension gets no API proposal. Left out: `enabledApiProposals` and the contributions
that need them (the `chatSessions` type, the proposed `chat/chatSessions` menu), which stable VS Code would refuse
with errors in its log. `extensionKind` ["workspace"] comes from package.json as in every build (README, "Remote
windows").

    python scripts/marketplace_manifest.py OUT   # write the marketplace package.json to OUT
"""
import copy
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NEEDS_PROPOSALS = {'contributes': ['chatSessions'], 'menus': ['chat/chatSessions']}


def marketplace_manifest(package):
    """A copy of `package` (package.json as a dict) without what needs API proposals."""
    manifest = copy.deepcopy(package)
    manifest.pop('enabledApiProposals', None)
    contributes = manifest.get('contributes', {})
    for key in NEEDS_PROPOSALS['contributes']:
        contributes.pop(key, None)
    for key in NEEDS_PROPOSALS['menus']:
        contributes.get('menus', {}).pop(key, None)
    return manifest


if __name__ == '__main__':
    package = json.loads((ROOT / 'package.json').read_text())
    Path(sys.argv[1]).write_text(json.dumps(marketplace_manifest(package), indent=2, ensure_ascii=False) + '\n')
