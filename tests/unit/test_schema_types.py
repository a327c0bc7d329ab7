"""The typing contracts generated from the JSON schemas the code declares (scripts/gen_schema_types.py): each tool's
arguments (contracts/tool_args.py, from its input schema) and the settings' keys and value types (contracts/settings.py,
from core/settings_spec.py). Stale copies fail here: run `inv build` and commit them.

A handler (and its preview) is typed with its own tool's TypedDict and reads every argument by key: the registry hands
it each one its schema declares, the default filled in, None where the caller gave none (core/tools.py every_declared)."""
import importlib
import inspect
import subprocess
import sys
import typing
from pathlib import Path

import pytest

from hermes.contracts import settings as settings_contract
from hermes.contracts import tool_args
from hermes.core.settings_spec import SETTINGS
from hermes.tools.every_tool import TOOL_MODULES

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / 'scripts'))
gen_schema_types = importlib.import_module('gen_schema_types')


def test_the_generated_contracts_match_the_schemas():
    assert gen_schema_types.stale() == [], 'run `inv build` and commit the generated contracts'


def test_the_check_fails_on_a_stale_copy_and_says_what_to_run(tmp_path, monkeypatch, capsys):
    stale = tmp_path / 'tool_args.py'
    stale.write_text('"""an older copy"""\n')
    monkeypatch.setattr(gen_schema_types, 'ROOT', tmp_path)
    monkeypatch.setattr(gen_schema_types, 'TOOL_ARGS_PY', stale)
    monkeypatch.setattr(gen_schema_types, 'SETTINGS_PY', tmp_path / 'settings.py')
    assert gen_schema_types.main(['--check']) == 1
    assert stale.read_text() == '"""an older copy"""\n'  # --check writes nothing
    assert capsys.readouterr().err == ("tool_args.py, settings.py: stale against the tools' schemas or "
                                       'core/settings_spec.py. Run `inv build` (or `python scripts/gen_schema_types.py`) '
                                       'and commit them.\n')
    assert not (tmp_path / 'settings.py').exists()


# ------------------------------------------------------------------------------- tool arguments

def test_one_typed_dict_per_tool_with_the_keys_its_schema_declares():
    for module in TOOL_MODULES:
        tool = module.TOOL
        declared = getattr(tool_args, gen_schema_types.class_name(tool.name))
        properties = tool.input_schema.get('properties', {})
        always = set(tool.input_schema.get('required', [])) | {key for key, value in properties.items()
                                                               if 'default' in value}
        hints = typing.get_type_hints(declared)
        assert set(hints) == set(properties) == declared.__required_keys__, tool.name  # every one is there
        may_be_none = {key for key, hint in hints.items() if type(None) in typing.get_args(hint)}
        assert set(properties) - always <= may_be_none, tool.name  # (and one whose schema allows null)


def test_the_arguments_of_a_tool_as_a_typed_dict():
    schema = {'type': 'object', 'properties': {
        'path': {'type': 'string'},
        'line': {'type': 'integer', 'minimum': 1},
        'kind': {'type': 'string', 'enum': ['over', 'into'], 'default': 'over'},
        'terminal': {'anyOf': [{'type': 'integer'}, {'type': 'string'}]},
        'globs': {'type': 'array', 'items': {'type': 'string'}},
        'env': {'type': 'object', 'additionalProperties': {'type': 'string'}},
        'configuration': {'type': 'object', 'required': ['type']},
        'value': {'type': ['string', 'null']},
        'anything': {},
    }, 'required': ['path'], 'additionalProperties': False}
    used = set()
    assert gen_schema_types.tool_args_class('debug_go', 'debug_go', schema, used) == (
        'class DebugGoArgs(TypedDict):\n'
        '    """debug_go (tools/debug_go.py)."""\n'
        '    path: str\n'
        '    line: Optional[int]\n'
        "    kind: Literal['over', 'into']  # default 'over'\n"
        '    terminal: Optional[Union[int, str]]\n'
        '    globs: Optional[List[str]]\n'
        '    env: Optional[Dict[str, str]]\n'
        '    configuration: Optional[JsonObject]\n'
        '    value: Union[str, None]\n'
        '    anything: Json\n')
    assert used == {'Optional', 'Literal', 'Union', 'List', 'Dict', 'JsonObject', 'Json'}


@pytest.mark.parametrize('name', ['__proto__', '__class__', 'py_name'])
def test_an_argument_named_as_a_member_of_the_bundles_dicts_is_refused(name):
    schema = {'type': 'object', 'properties': {name: {'type': 'string'}}}
    with pytest.raises(gen_schema_types.SchemaProblem) as refused:
        gen_schema_types.tool_args_class('file_tag', 'file_tag', schema, set())
    assert str(refused.value) == (f"file_tag: the argument {name!r} is a name of the bundle's own dicts "
                                  f"(`args[{name!r}]` would not be the argument there): rename it")


def test_an_argument_that_is_no_python_name_is_refused():
    schema = {'type': 'object', 'properties': {'max-results': {'type': 'integer'}}}
    with pytest.raises(gen_schema_types.SchemaProblem) as refused:
        gen_schema_types.tool_args_class('file_tag', 'file_tag', schema, set())
    assert str(refused.value) == ("file_tag: the argument 'max-results' is not a Python name, so no TypedDict field "
                                  'can hold it: rename it')


def _first_parameter(function):
    return next(iter(inspect.signature(function).parameters.values()))


def test_each_handler_and_preview_is_typed_with_its_own_tools_arguments():
    wrong = []
    for module in TOOL_MODULES:
        tool = module.TOOL
        wanted = gen_schema_types.class_name(tool.name)
        for function in [tool.handler, tool.preview]:
            if function is None:
                continue
            parameter = _first_parameter(function)
            if parameter.annotation != wanted:
                wrong.append(f'{tool.name}: {function.__name__}({parameter.name}: {parameter.annotation!r}), '
                             f'not {wanted!r}')
    assert wrong == [], 'type each handler\'s args with its tool\'s TypedDict (contracts/tool_args.py):\n' + \
        '\n'.join(wrong)


# ------------------------------------------------------------------------------- settings

def test_every_declared_setting_is_a_setting_key_and_has_its_typed_read():
    keys = [entry['key'] for entry in SETTINGS]
    assert list(typing.get_args(settings_contract.SettingKey)) == keys
    text = gen_schema_types.settings_py()
    for key in keys:
        assert f"def __call__(self, key: Literal[{key!r}]) ->" in text


def test_a_setting_reads_as_the_type_its_declaration_gives():
    text = gen_schema_types.settings_py([
        {'key': 'mcp.port', 'type': 'integer', 'default': 19999},
        {'key': 'tools.confirm', 'type': 'string', 'default': 'never', 'enum': ['always', 'never']},
        {'key': 'llm.extraHeaders', 'type': 'object', 'default': {}, 'additionalProperties': {'type': 'string'}},
    ])
    assert "SettingKey = Literal[\n    'mcp.port',\n    'tools.confirm',\n    'llm.extraHeaders',\n]\n" in text
    assert "    def __call__(self, key: Literal['mcp.port']) -> int: ...\n" in text
    assert "    def __call__(self, key: Literal['tools.confirm']) -> Literal['always', 'never']: ...\n" in text
    assert "    def __call__(self, key: Literal['llm.extraHeaders']) -> Dict[str, str]: ...\n" in text


# ------------------------------------------------------------------------------- what the type checker now refuses

MISTAKES = '''
from hermes.contracts.services import CallContext
from hermes.contracts.tool_args import FileReadArgs
from hermes.core.settings_spec import default_of
from hermes.host.settings import setting


async def read_file(args: FileReadArgs, call: CallContext) -> str:
    return args['paht'] + str(args['start_line'] + 1)


def port_text() -> str:
    return setting('mcp.port') + ':'


def model() -> str:
    return setting('llm.modle')


def confirm_is_off() -> bool:
    return default_of('tools.confirm') == 'nevr'
'''


def test_the_type_checker_refuses_a_misread_argument_or_setting(tmp_path):
    source = tmp_path / 'mistakes.py'
    source.write_text(MISTAKES)
    checked = subprocess.run([sys.executable, '-m', 'mypy', '--config-file', str(ROOT / 'pyproject.toml'),
                              '--cache-dir', str(tmp_path / 'cache'), '--hide-error-context', '--no-pretty', str(source)],
                             cwd=ROOT, capture_output=True, text=True)
    errors = [line.split(': error: ')[1] for line in checked.stdout.splitlines() if ': error: ' in line]
    assert errors == [
        'TypedDict "FileReadArgs" has no key "paht"  [typeddict-item]',
        'Unsupported operand types for + ("None" and "int")  [operator]',
        'Incompatible return value type (got "int", expected "str")  [return-value]',
        'Unsupported operand types for + ("int" and "str")  [operator]',
        'No overload variant of "__call__" of "SettingReader" matches argument type "str"  [call-overload]',
        'Non-overlapping equality check (left operand type: "Literal[\'destructive\', \'always\', \'never\']", right '
        'operand type: "Literal[\'nevr\']")  [comparison-overlap]',
    ], checked.stdout
