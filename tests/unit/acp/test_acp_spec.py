"""The ACP spec as the single source (scripts/gen_acp_spec.py → core/acp/spec.py, from the pinned
`@agentclientprotocol/sdk`'s JSON schema): the generated table is current, the client serves every request the spec
lets an agent send and sends only requests the spec defines, and every kind of session update is either handled or
named here as one the client deliberately does not receive. A new spec version: bump the pin, regenerate, and these
tests name what changed."""
import json
import re
import subprocess
import sys
from pathlib import Path

from hermes.core.acp import protocol as acp
from hermes.core.acp import spec as acp_spec

ROOT = Path(__file__).resolve().parents[3]
HERMES = ROOT / 'py_src' / 'hermes'

# Kinds an agent sends only to a client that advertised a capability Hermes does not advertise (yet): `session.notices`
# and `session.compaction` (initialize's clientCapabilities, core/acp/protocol.py).
NOT_ADVERTISED = {'notice', 'compaction_update', 'compaction_summary_chunk'}


def test_the_generated_table_is_current():
    checked = subprocess.run([sys.executable, str(ROOT / 'scripts' / 'gen_acp_spec.py'), '--check'],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout


def test_every_request_the_spec_lets_an_agent_send_is_served():
    assert sorted(acp.CLIENT_METHODS.keys()) == acp_spec.CLIENT_REQUESTS


def test_the_client_sends_only_requests_and_notifications_the_spec_defines():
    source = (HERMES / 'net' / 'acp' / 'agent.py').read_text()
    sent = set(re.findall(r"\.(?:request|start_request|notify)\(\s*'([a-z_/]+)'", source))
    assert {'initialize', 'session/new', 'session/load', 'session/prompt', 'session/cancel',
            'session/set_config_option'} <= sent, sent
    # `session/set_model`, the unstable model selector that config options replaced, is gone from both schemas: it
    # is sent only to an agent that offers the old `models` field (Hermes Agent 0.19.0 does)
    # `session/fork` is in the unstable schema only: sent only to an agent that offers `sessionCapabilities.fork`
    assert sent - set(acp_spec.AGENT_REQUESTS) - set(acp_spec.AGENT_NOTIFICATIONS) == {'session/set_model',
                                                                                        'session/fork'}
    assert 'session/set_model' not in acp_spec.UNSTABLE_AGENT_REQUESTS
    assert 'session/fork' in acp_spec.UNSTABLE_AGENT_REQUESTS


def test_every_kind_of_session_update_is_handled_or_deliberately_not_received():
    sources = '\n'.join(path.read_text() for path in HERMES.rglob('*.py')  # the ACP packages, the generated spec aside
                        if 'acp' in path.relative_to(HERMES).as_posix() and path.relative_to(HERMES).as_posix() != 'core/acp/spec.py')
    compared = set(re.findall(r"[!=]= '([a-z_]+)'", sources))  # what the update readers compare `sessionUpdate` with
    unnamed = set(acp_spec.SESSION_UPDATES) - compared
    assert unnamed == NOT_ADVERTISED
    advertised = json.dumps(acp.initialize_params()['clientCapabilities'])
    assert 'notices' not in advertised and 'compaction' not in advertised
