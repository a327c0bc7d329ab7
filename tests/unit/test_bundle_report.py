"""scripts/bundle_report.py: every module of the bundle is counted in a feature group (inv bench's size table)."""
from pathlib import Path

from scripts.bundle_report import GROUPS, group_of, grouped, report

HERMES = Path(__file__).resolve().parents[2] / 'py_src' / 'hermes'
ENTRIES = {'hermes.extension', 'hermes.version', 'hermes.mcp_server_cli', 'hermes.lazy_parts'}


def test_every_transpiled_module_has_a_group_by_its_feature_or_package():
    names = ['.'.join(path.relative_to(HERMES.parent).with_suffix('').parts) for path in HERMES.rglob('*.py')
             if path.name != '__init__.py' and not path.name.endswith('_cpython.py') and 'contracts' not in path.parts]
    unplaced = [name for name in names if group_of(name) == 'entry' and name not in ENTRIES]
    assert unplaced == []
    assert {group_of(name) for name in names} <= set(GROUPS)


def test_features_before_packages():
    assert group_of('hermes.host.acp.turn_runner') == 'acp'
    assert group_of('hermes.net.doors.ide_socket') == 'doors'
    assert group_of('hermes.ui.changes.review') == 'changes/review'
    assert group_of('hermes.ui.panel.controller') == 'panel protocol'
    assert group_of('hermes.host.files') == 'host'
    assert group_of('hermes.js.fetch') == 'seam (js)'
    assert group_of('org.transcrypt.__runtime__') == 'runtime'
    assert group_of('extension') == 'entry'


def test_the_table_has_a_column_per_output_and_sums_each():
    lines = []
    columns = report({'extension.js': {'org.transcrypt.__runtime__': 100, 'hermes.core.tools': 20, 'extension': 3},
                      'part-net.acp.agent.js': {'hermes.net.acp.agent': 50}}, lines.append)
    assert columns['extension.js']['runtime'] == 100 and columns['part-net.acp.agent.js']['acp'] == 50
    assert lines[0].split() == ['group', 'extension.js', 'part-net.acp.agent.js']
    assert lines[-2].split() == ['total', '(inputs)', '123', '50']
    assert sum(grouped({'hermes.core.a': 1, 'hermes.ui.b': 2}).values()) == 3
