"""typings/vscode.pyi, the type checker's `vscode`, is what scripts/vscode_stub.py makes of the pinned @types/vscode
(package.json) and the enabled proposals: a stale stub fails here. Fix: `inv build` and commit typings/vscode.pyi."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / 'scripts'))
import vscode_stub

TYPESCRIPT = ROOT / 'node_modules' / 'typescript'
needs_typescript = pytest.mark.skipif(not TYPESCRIPT.exists(), reason='node_modules/typescript is absent (`inv setup`)')


@pytest.mark.skipif(not (vscode_stub.TYPES / 'index.d.ts').exists(),
                    reason='node_modules/@types/vscode is absent: `inv setup` (npm ci) installs the pinned one')
@needs_typescript
def test_the_committed_stub_is_generated_from_the_pinned_types():
    assert vscode_stub.STUB.read_text() == vscode_stub.generate(), (
        'typings/vscode.pyi is stale: run `inv build` (scripts/vscode_stub.py) and commit it')


@needs_typescript
def test_declarations_become_python_as_transcrypt_reaches_them(tmp_path):
    source = tmp_path / 'api.d.ts'
    source.write_text('''declare module 'vscode' {
        export interface Options { name: string; detail?: string }
        export interface Settings { get<T>(section: string): T | undefined; has(section: string): boolean }
        export interface Provider { provide(): Thenable<string[]>; resolve?(item: string): string }
        export class Point { constructor(line: number, character?: number); readonly line: number; with(line: number): Point }
        export enum Kind { A = 1, B }
        export namespace window { export function show(options: Options, ...items: string[]): Thenable<string | undefined> }
    }''')
    stub = vscode_stub.translate([source])
    # An options bag: a Protocol to read, a TypedDict for the dict literal a caller passes.
    assert 'class Options(Protocol):\n    js_name: str\n    detail: str | None\n' in stub
    assert "class OptionsDict(TypedDict):\n    name: str\n    detail: NotRequired[str]\n" in stub
    # `get` is `js_get` (Transcrypt renames `.get`); a type variable only the result mentions is Any.
    assert 'def js_get(self, section: str) -> Any: ...' in stub
    # An optional method is a hook the implementer may leave out.
    assert 'def provide(self) -> Thenable[Array[str]]: ...' in stub and 'resolve' not in stub
    assert 'def __init__(self, line: float, character: float | None = ...) -> None: ...' in stub
    assert '    @property\n    def line(self) -> int: ...\n' in stub  # a number VS Code gives: an int
    assert "# with: not a Python name after Transcrypt; by subscript: x['with']" in stub
    assert 'class Kind(IntEnum):\n    A = 1\n    B = 2\n' in stub
    assert ('class _window:\n    def show(self, options: Options | OptionsDict, *items: str) -> '
            'Thenable[str | None]: ...\n\nwindow: _window\n') in stub


def test_a_proposal_is_read_from_vscodes_own_dts_else_from_the_part_written_by_hand(tmp_path):
    enabled = vscode_stub.enabled_proposals()
    (tmp_path / f'vscode.proposed.{enabled[0]}.d.ts').write_text('')
    for proposal in enabled + ['notEnabled'] + vscode_stub.USED_WITHOUT_PROPOSAL:
        (tmp_path / f'{proposal}.used.d.ts').write_text('')
    files, missing = vscode_stub.proposal_files(tmp_path)
    assert [f.name for f in files] == ([f'vscode.proposed.{enabled[0]}.d.ts'] +
                                       [f'{proposal}.used.d.ts' for proposal in enabled[1:]] +
                                       [f'{proposal}.used.d.ts' for proposal in vscode_stub.USED_WITHOUT_PROPOSAL])
    assert missing == enabled[1:]  # (their names not written by hand stay Any)


@needs_typescript
def test_names_a_hand_written_proposal_declares_are_not_also_any(tmp_path):
    source = tmp_path / 'api.d.ts'
    source.write_text('''declare module 'vscode' {
        export namespace chat { export function createChatParticipant(id: string): void }
        export class ChatSessionChangedFile { constructor(uri: string, insertions: number) }
        export namespace chat { export function createChatSessionItemController(chatSessionType: string): void }
    }''')
    stub = vscode_stub.translate([source], '', ['chatSessionsProvider'])
    assert 'def createChatSessionItemController(self, chatSessionType: str) -> None: ...' in stub
    assert 'createChatSessionItemController: ClassVar[Any]' not in stub
    assert 'registerChatSessionContentProvider: ClassVar[Any]' in stub  # not declared: Any
    assert 'ChatSessionChangedFile: Any' not in stub and 'ChatSessionItem: Any' in stub
