"""The side panel's protocol is declared once (py_src/hermes/contracts/panel.py); the validator's table
(ui/panel/messages.py) and the webview's TypeScript types (media/panel/protocol.d.ts) are generated from it.
Stale copies fail here: run `inv build` (scripts/gen_panel_protocol.py) and commit them."""
import importlib
import sys
import types
from pathlib import Path
from typing import Annotated, Literal, TypedDict, Union

import pytest

from hermes.contracts import panel
from hermes.ui.panel.messages import MESSAGES

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / 'scripts'))
gen_panel_protocol = importlib.import_module('gen_panel_protocol')


def test_the_generated_files_match_the_declaration():
    assert gen_panel_protocol.stale() == [], 'run `inv build` and commit the generated panel protocol files'


def test_the_validator_table_holds_every_declared_kind_with_its_limits():
    assert MESSAGES == gen_panel_protocol.messages_table()
    kinds = [kind for kind, _ in MESSAGES]
    assert len(kinds) == len(set(kinds))
    assert dict(MESSAGES)['send'] == [('text', 'string', panel.TEXT.chars, False)]
    assert dict(MESSAGES)['keepTurn'] == [('turn', 'string', panel.TURN_ID.chars, False)]


def test_every_kind_both_ways_is_in_the_typescript():
    text = gen_panel_protocol.protocol_ts()
    for message in panel.ToWebview.__args__ + panel.FromWebview.__args__:
        assert f'export interface {message.__name__} {{' in text
    assert 'postMessage(message: FromWebview): void;' in text


def _contract_with(field_type):
    class Bad(TypedDict):
        type: Literal['bad']
        value: field_type
    module = types.SimpleNamespace(Limit=panel.Limit, FromWebview=Union[panel.ReadyMessage, Bad])
    return module


def test_a_webview_field_without_a_limit_is_refused_with_its_name():
    with pytest.raises(SystemExit, match=r'Bad\.value: a webview → host field is Annotated\[str, Limit'):
        gen_panel_protocol.messages_table(_contract_with(str))
    with pytest.raises(SystemExit, match=r'Bad\.value'):
        gen_panel_protocol.messages_table(_contract_with(Annotated[int, panel.Limit(3)]))
    table = gen_panel_protocol.messages_table(_contract_with(Annotated[str, panel.Limit(3, blank=True)]))
    assert table == [('ready', []), ('bad', [('value', 'string', 3, True)])]


def test_the_check_fails_on_a_stale_copy_and_says_what_to_run(tmp_path, monkeypatch, capsys):
    """The check and the message are scripts/write_generated.py's, shared with the other generators."""
    stale = tmp_path / 'messages.py'
    stale.write_text('"""an older copy"""\n')
    monkeypatch.setattr(gen_panel_protocol, 'ROOT', tmp_path)
    monkeypatch.setattr(gen_panel_protocol, 'MESSAGES_PY', stale)
    monkeypatch.setattr(gen_panel_protocol, 'PROTOCOL_TS', tmp_path / 'protocol.d.ts')
    assert gen_panel_protocol.main(['--check']) == 1
    assert stale.read_text() == '"""an older copy"""\n'  # --check writes nothing
    assert capsys.readouterr().err == ('messages.py, protocol.d.ts: stale against py_src/hermes/contracts/panel.py. '
                                       'Run `inv build` (or `python scripts/gen_panel_protocol.py`) and commit them.\n')
    assert gen_panel_protocol.main([]) == 0
    assert stale.read_text() == gen_panel_protocol.messages_py()
    assert capsys.readouterr().out == 'panel protocol: regenerated messages.py, protocol.d.ts\n'
