"""vscode.languages: diagnostics, and the types language features answer with."""
from vscode._events import Disposable, EventEmitter
from vscode._types import JsObject, JsObjectDict, _Undefined


class DiagnosticSeverity:
    Error = 0
    Warning = 1
    Information = 2
    Hint = 3


class Diagnostic(JsObject):
    def __init__(self, range, message, severity=DiagnosticSeverity.Error):
        self.range, self.message, self.severity = range, message, severity
        self.source = None
        self.code = None


class Hover(_Undefined):
    def __init__(self, contents, range=None):
        self.contents = contents if isinstance(contents, list) else [contents]
        self.range = range


class SymbolKind:
    (File, Module, Namespace, Package, Class, Method, Property, Field, Constructor, Enum, Interface, Function,
     Variable, Constant, String, Number, Boolean, Array, Object, Key, Null, EnumMember, Struct, Event, Operator,
     TypeParameter) = range(26)


class DocumentSymbol(_Undefined):
    def __init__(self, name, detail, kind, range, selectionRange):
        self.name, self.detail, self.kind, self.range, self.selectionRange = name, detail, kind, range, selectionRange
        self.children = []


class SymbolInformation(_Undefined):
    def __init__(self, name, kind, containerName, location):
        self.name, self.kind, self.containerName, self.location = name, kind, containerName, location


class TextEdit(_Undefined):
    def __init__(self, range, newText):
        self.range, self.newText = range, newText

    @staticmethod
    def replace(range, newText):
        return TextEdit(range, newText)


class CodeLens(_Undefined):
    def __init__(self, range, command=None):
        self.range, self.command = range, command
        self.isResolved = command is not None


class _Languages:
    def __init__(self):
        self.code_lens_providers = []  # (selector, provider)
        self.diagnostics = {}  # Uri → [Diagnostic]
        self._changed = EventEmitter()
        self.onDidChangeDiagnostics = self._changed.event

    def registerCodeLensProvider(self, selector, provider):
        entry = (selector, provider)
        self.code_lens_providers.append(entry)
        return Disposable(lambda: self.code_lens_providers.remove(entry))

    def getDiagnostics(self, uri=None):
        if uri is not None:
            return list(self.diagnostics.get(uri, []))
        return [[key, list(value)] for key, value in self.diagnostics.items()]

    def set_diagnostics(self, uri, diagnostics):
        """Test helper: a language service reports."""
        self.diagnostics[uri] = list(diagnostics)
        self._changed.fire(JsObjectDict(uris=[uri]))
