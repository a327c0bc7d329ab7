"""The plain value types of the API: objects read by subscript, Uri, Position, Range, Selection, Location,
WorkspaceFolder and the enums."""
import os
import urllib.parse


class JsObject:
    """Python code reads some properties by subscript (`obj['name']`) to dodge Transcrypt's renaming."""

    def __getitem__(self, key):
        return getattr(self, key, None)

    def __setitem__(self, key, value):
        setattr(self, key, value)


class JsObjectDict(JsObject):
    def __init__(self, **fields):
        self.__dict__.update(fields)


class _Undefined:
    """An object that reads a missing attribute as None, the way JS reads `undefined`."""

    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)
        return None

    def __getitem__(self, key):
        return getattr(self, key)


class Uri:
    def __init__(self, scheme, path, query='', fragment=''):
        self.scheme, self.path, self.query, self.fragment = scheme, path, query, fragment

    @property
    def fsPath(self):
        return self.path

    @staticmethod
    def file(path):
        return Uri('file', os.path.abspath(path))

    @staticmethod
    def parse(value, strict=False):
        parts = urllib.parse.urlsplit(value)
        if parts.scheme in ('http', 'https'):  # a web address keeps its host
            return _QueryUri(parts.scheme, '//' + parts.netloc + parts.path, parts.query, parts.fragment)
        return Uri(parts.scheme, parts.path, parts.query, parts.fragment)

    @staticmethod
    def js_from(parts):
        """Uri.from({scheme, path, query}) (`from` is a Python keyword: py_src writes `Uri.js_from`)."""
        return _QueryUri(parts['scheme'], parts.get('path', ''), parts.get('query', ''), parts.get('fragment', ''))

    @staticmethod
    def joinPath(base, *segments):
        return Uri(base.scheme, os.path.join(base.path, *segments))

    def toString(self):
        return f'{self.scheme}://{self.path}' if self.scheme != 'file' else f'file://{self.path}'

    def __eq__(self, other):
        return isinstance(other, Uri) and (self.scheme, self.path) == (other.scheme, other.path)

    def __hash__(self):
        return hash((self.scheme, self.path))

    def __repr__(self):
        return f'Uri({self.toString()!r})'


class _QueryUri(Uri):
    """Uri.from({scheme, path, query}): a URI whose string form keeps its query (VS Code's does)."""

    def toString(self):
        return f'{self.scheme}:{self.path}' + (f'?{self.query}' if self.query else '')


class Position:
    def __init__(self, line, character):
        self.line, self.character = line, character

    def __eq__(self, other):  # `== None` too
        return isinstance(other, Position) and (self.line, self.character) == (other.line, other.character)


class Range:
    def __init__(self, start_or_line, end_or_char, end_line=None, end_char=None):
        if end_line is None:
            self.start, self.end = start_or_line, end_or_char
        else:
            self.start = Position(start_or_line, end_or_char)
            self.end = Position(end_line, end_char)

    @property
    def isEmpty(self):
        return self.start == self.end


class Selection(Range):
    def __init__(self, anchor_or_line, active_or_char, active_line=None, active_char=None):
        super().__init__(anchor_or_line, active_or_char, active_line, active_char)
        self.anchor, self.active = self.start, self.end


class Location(_Undefined):
    def __init__(self, uri, range_or_position):
        self.uri = uri
        if isinstance(range_or_position, Position):
            range_or_position = Range(range_or_position, range_or_position)
        self.range = range_or_position


class WorkspaceFolder(JsObject):
    def __init__(self, path, index=0):
        self.uri = Uri.file(path)
        self.name = os.path.basename(path)
        self.index = index


class StatusBarAlignment:
    Left = 1
    Right = 2


class ThemeColor:
    def __init__(self, id):
        self.id = id


class ThemeIcon(_Undefined):
    def __init__(self, icon_id, color=None):
        self.id, self.color = icon_id, color


class MarkdownString(_Undefined):
    def __init__(self, value=''):
        self.value = value


class ConfigurationTarget:
    Global = 1
    Workspace = 2
    WorkspaceFolder = 3


class FileType:
    Unknown = 0
    File = 1
    Directory = 2
    SymbolicLink = 64


class FileSystemError(Exception):
    def __init__(self, message, code):
        super().__init__(message)
        self.message, self.code = message, code


class ProgressLocation:
    SourceControl = 1
    Window = 10
    Notification = 15


class OverviewRulerLane:
    Left = 1
    Center = 2
    Right = 4
    Full = 7


class TextEditorRevealType:
    Default = 0
    InCenter = 1
    InCenterIfOutsideViewport = 2
    AtTop = 3
