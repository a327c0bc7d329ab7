"""package.json's generated contributions match the code: a tool added to the registry (or a slash
command, or the participant's id) without regenerating package.json fails here. Fix: `inv build`
(it runs scripts/gen_contributions.py) and commit package.json."""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / 'scripts'))
import gen_contributions


def test_package_json_contributions_are_generated_from_the_code():
    declared = json.loads((ROOT / 'package.json').read_text())['contributes']
    wanted = gen_contributions.generated_contributions()
    for key in gen_contributions.GENERATED_KEYS:
        assert declared.get(key) == wanted[key], (
            f'package.json contributes.{key} is stale: run `inv build` and commit package.json')


def test_the_generator_only_touches_its_own_keys():
    text = (ROOT / 'package.json').read_text()
    before = json.loads(text)
    after = json.loads(gen_contributions.updated_text(text))
    for key in set(before['contributes']) | set(after['contributes']):
        if key not in gen_contributions.GENERATED_KEYS:
            assert before['contributes'].get(key) == after['contributes'].get(key)
    assert {k: v for k, v in before.items() if k != 'contributes'} == {k: v for k, v in after.items() if k != 'contributes'}


def test_every_registered_tool_is_declared_and_the_participant_matches_the_code():
    from hermes.tools.catalog import build_registry
    from hermes.core.chat.prompts import PARTICIPANT_ID, COMMANDS, VENDOR
    declared = json.loads((ROOT / 'package.json').read_text())['contributes']
    names = {tool['name'] for tool in declared['languageModelTools']}
    assert names == {'hermes_' + name for name in build_registry().names()}
    [participant] = declared['chatParticipants']
    assert participant['id'] == PARTICIPANT_ID and participant['isSticky'] is True
    assert [c['name'] for c in participant['commands']] == [c['name'] for c in COMMANDS]
    assert declared['languageModelChatProviders'] == [{'vendor': VENDOR, 'displayName': 'Hermes Agent'}]
