"""Write the contributions that come from the code into package.json: one source of truth.

    python scripts/gen_contributions.py          # update package.json (inv build runs this first)
    python scripts/gen_contributions.py --check  # exit 1 if package.json is stale (CI, tests)

Generated keys of `contributes` (everything else in package.json is left exactly as it is):
- `languageModelTools`: every tool in the registry (tools/catalog.py), as core/lm_tools.py describes it;
  VS Code refuses `vscode.lm.registerTool` for a tool that is not declared here.
- `configuration`: every `hermes.*` setting, from core/settings_spec.py (scopes included).
- `chatParticipants`, `languageModelChatProviders`: the @hermes participant and the "Hermes Agent"
  vendor, from core/chat/prompts.py, so the ids and slash commands the code uses are the declared ones.
- `chatSessions` (and the top-level `enabledApiProposals` it needs): the "Hermes Agent" chat session
  type, from core/chat/sessions.py; `enabledApiProposals` also names chatParticipantAdditions (core/changes/edit_scopes.py:
  the turns' writes in VS Code's own chat editing).

The registry is imported under CPython with the test shim standing in for `vscode` (declaring a tool
touches no VS Code API).
"""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_JSON = ROOT / 'package.json'
GENERATED_KEYS = ['chatParticipants', 'chatSessions', 'configuration', 'languageModelChatProviders', 'languageModelTools']


def _import_paths():
    for path in [ROOT / 'tests' / 'shim', ROOT / 'py_src']:
        if str(path) not in sys.path:
            sys.path.insert(0, str(path))


def generated_contributions():
    _import_paths()
    from hermes.tools.catalog import build_registry
    from hermes.core.lm_tools import contributions
    from hermes.core.chat.prompts import participant_contribution, provider_contribution
    from hermes.core.settings_spec import configuration_contribution
    from hermes.core.chat.sessions import session_contribution
    return {
        'configuration': configuration_contribution(),
        'chatParticipants': participant_contribution(),
        'chatSessions': session_contribution(),
        'languageModelChatProviders': provider_contribution(),
        'languageModelTools': contributions(build_registry().list()),
    }


def enabled_api_proposals():
    _import_paths()
    from hermes.core.chat.sessions import API_PROPOSAL, COMMANDS_PROPOSAL
    from hermes.core.changes.edit_scopes import API_PROPOSAL as EDITS_PROPOSAL
    return [API_PROPOSAL, EDITS_PROPOSAL, COMMANDS_PROPOSAL]


def render(package):
    return json.dumps(package, indent=2, ensure_ascii=False) + '\n'


def updated_text(text):
    """package.json text with the generated contributions in place (other keys keep their order)."""
    package = json.loads(text)
    package['enabledApiProposals'] = enabled_api_proposals()
    contributes = package.setdefault('contributes', {})
    for key, value in generated_contributions().items():
        contributes[key] = value
    return render(package)


def main(argv):
    check = '--check' in argv
    current = PACKAGE_JSON.read_text()
    wanted = updated_text(current)
    if current == wanted:
        print('package.json: contributions up to date')
        return 0
    if check:
        print('package.json is stale: the tool registry, the settings or the chat contributions changed. '
              'Run `inv build` (or `python scripts/gen_contributions.py`) and commit package.json.', file=sys.stderr)
        return 1
    PACKAGE_JSON.write_text(wanted)
    print('package.json: contributions regenerated')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
