"""scripts/code_figures.py (`inv figures`): what it counts, on small sources."""
import ast

from scripts.code_figures import annotated, is_strict, figures


def test_a_function_is_annotated_when_its_return_and_every_argument_but_self_are():
    tree = ast.parse('def a(self, x: int) -> int: ...\ndef b(x) -> int: ...\ndef c(x: int): ...\ndef d() -> None: ...')
    assert [annotated(node) for node in tree.body] == [True, False, False, True]


def test_a_module_is_strict_by_its_name_or_a_package_pattern():
    patterns = ['hermes.core.*', 'hermes.host.log']
    assert is_strict('core/mcp/protocol.py', patterns) and is_strict('host/log.py', patterns)
    assert not is_strict('host/logs.py', patterns) and not is_strict('ui/panel/view.py', patterns)


def test_the_figures_of_this_tree_add_up():
    found = figures()
    assert 0 < found['strict'] <= found['modules'] and 0 < found['annotated'] <= found['functions']
    assert found['boundary'] > 0 and len(found['largest classes']) == 5
    assert 'core/mcp' in found['folders per feature']['mcp']
