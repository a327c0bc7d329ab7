"""A CPython stand-in for the `vscode` module, for pytest (put on sys.path by pyproject's `pythonpath`).

It behaves like VS Code where Hermes depends on it (disposables dispose, commands dispatch, output
channels keep their lines, configuration reads settings with defaults, files are real, documents hold
text until saved) and records what the code did, so tests can assert on it. `reset()` gives every test a
fresh world. Anything not here raises AttributeError, so a test can't silently pass on a missing API.

One module per `vscode` namespace, and one for the types they share:
  _types       Uri, Position, Range, Selection, Location, WorkspaceFolder, the enums; JsObject/_Undefined
  _events      Disposable, EventEmitter, cancellation; when listeners and Thenables run
  _window      vscode.window (editors, tabs, messages, webview views); _terminals: its terminals
  _workspace   vscode.workspace (folders, settings); _documents: its documents and edits; _files: its fs
  _commands    vscode.commands (with the built-in vscode.diff and setContext)
  _debug, _languages, _tasks, _env    vscode.debug, vscode.languages, vscode.tasks, vscode.env
  _chat        vscode.lm and vscode.chat (language-model parts and tools, participants, chat sessions)
  _context     ExtensionContext (what activate() gets)
The namespaces are attributes of this package, made anew by reset(); code in the modules that needs
another namespace reads it from here at call time (`vscode.workspace`).
"""
from vscode._chat import (
    ChatParticipant, ChatQuestion, ChatQuestionType, ChatRequestTurn, ChatRequestTurn2, ChatResponseMarkdownPart,
    ChatResponseProgressPart, ChatResponseCommandButtonPart,
    ChatResponseReferencePart, ChatResponseStream, ChatSubagentToolInvocationData, ChatToolInvocationPart, ChatResponseTurn, ChatResponseTurn2, ChatSessionChangedFile,
    ChatSessionItem, ChatSessionItemCollection, ChatSessionItemController, ChatSessionStatus, LanguageModelChatMessage,
    LanguageModelChatMessageRole, LanguageModelChatToolMode, LanguageModelDataPart, LanguageModelTextPart,
    LanguageModelToolCallPart, LanguageModelToolResult, LanguageModelToolResultPart, McpHttpServerDefinition, _Chat, _Lm,
)
from vscode._commands import _Commands
from vscode._context import ExtensionContext, Memento, SecretStorage, Subscriptions
from vscode._debug import DebugSession, FunctionBreakpoint, SourceBreakpoint, _Debug
from vscode._documents import WorkspaceEdit, _load_document, _TextEdit
from vscode._env import _Env
from vscode._events import CancellationError, CancellationTokenSource, Disposable, EventEmitter
from vscode._files import RelativePattern
from vscode._languages import (
    CodeLens, Diagnostic, DiagnosticSeverity, DocumentSymbol, Hover, SymbolInformation, SymbolKind, TextEdit, _Languages,
)
from vscode._tasks import _Task, _Tasks
from vscode._terminals import ShellExecution, ShellExecutionCommandLine, ShellIntegration, Terminal
from vscode._types import (
    ConfigurationTarget, FileSystemError, FileType, JsObject, JsObjectDict, Location, MarkdownString, OverviewRulerLane,
    Position,
    ProgressLocation, Range, Selection, StatusBarAlignment, TextEditorRevealType, ThemeColor, ThemeIcon, Uri,
    WorkspaceFolder, _Undefined,
)
from vscode._window import (
    OutputChannel, StatusBarItem, Tab, TabGroup, TabGroups, TextDocument, TextEditor, TextEditorDecorationType, TreeItem,
    TreeItemCollapsibleState, TreeView, Webview, WebviewView, _Window,
)
from vscode._workspace import Configuration, ConfigurationChangeEvent, _Workspace

version = '1.139.1'
window = workspace = commands = env = lm = chat = debug = languages = tasks = None


def reset():
    """A fresh VS Code for every test (tests/unit/conftest.py calls it): every namespace, new."""
    global window, workspace, commands, env, lm, chat, debug, languages, tasks
    window = _Window()
    workspace = _Workspace()
    commands = _Commands()
    env = _Env()
    lm = _Lm()
    chat = _Chat()
    debug = _Debug()
    languages = _Languages()
    tasks = _Tasks()


reset()
