"""The shapes of Node's objects as the seam (hermes/js/) uses them, and of what the seam hands back: a child process
and its streams, a finished run, a long-running line process, a settled-from-outside promise, a fetch response.
Only the members the code reads are listed; the JS bodies type their Node values with them (type comments), and
the CPython twins are held to the same shapes."""
# __pragma__('skip')
from typing import Any, Awaitable, Callable, Dict, List, Optional, Protocol, TypedDict

from hermes.contracts.services import ProcessResult  # how a run ended: the git service hands it on


class ReadableStream(Protocol):
    """A child's stdout / stderr (stream.Readable): chunks are Buffers, or strings after setEncoding."""
    def on(self, event: str, listener: Callable[..., Any]) -> Any: ...

    def setEncoding(self, encoding: str) -> Any: ...


class WritableStream(Protocol):
    """A child's stdin (stream.Writable)."""
    destroyed: bool
    writable: bool

    def on(self, event: str, listener: Callable[..., Any]) -> Any: ...

    def write(self, text: str) -> bool: ...

    def end(self, text: str = '') -> Any: ...

    def unref(self) -> None: ...


class ChildProcess(Protocol):
    """What `require('child_process').spawn(...)` gives (child_process.ChildProcess). `pid` is undefined when the
    program could not start."""
    pid: Optional[int]
    stdin: WritableStream
    stdout: ReadableStream
    stderr: ReadableStream

    def on(self, event: str, listener: Callable[..., Any]) -> Any: ...

    def kill(self, signal: str = 'SIGTERM') -> bool: ...

    def unref(self) -> None: ...


class ProcessOptions(TypedDict, total=False):
    """`start_process`'s options: each may be left out (JS: undefined)."""
    cwd: Optional[str]
    timeout_ms: float  # 0: no timeout
    max_bytes: int  # per stream; the rest is dropped (default 4 MiB)
    env: Dict[str, str]  # variables added to the inherited ones
    drop_env: List[str]  # inherited variables left out ('NAME', or a prefix 'NAME_*')


class RunningProcess(TypedDict):
    """`start_process`: `done` resolves (never rejects) when the program has ended; `kill()` sends SIGTERM."""
    done: Awaitable[ProcessResult]
    kill: Callable[[], None]


class LineProcessOptions(TypedDict):
    """`open_line_process`'s options."""
    cwd: Optional[str]
    env: Optional[Dict[str, str]]  # added to this process's environment
    max_line_bytes: int  # a longer stdout line is not delivered: on_overflow(limit), and no line follows


class LineProcessHandlers(TypedDict):
    """What `open_line_process` reports: each line of stdout, a line too long, each piece of stderr, and the end
    (code, signal name, the reason it could not start) exactly once."""
    on_line: Callable[[str], Any]
    on_overflow: Callable[[int], Any]
    on_stderr: Callable[[str], Any]
    on_exit: Callable[[Optional[int], Optional[str], Optional[str]], Any]


class LineProcess(TypedDict):
    """A running `open_line_process`: `pid` None when it could not start; `write` says whether the text was handed
    to the pipe; `kill(signal)` signals its process group."""
    pid: Optional[int]
    write: Callable[[str], bool]
    end: Callable[[], None]
    kill: Callable[[str], None]
    running: Callable[[], bool]


class Deferred(TypedDict):
    """`deferred()`: a promise settled from outside by `resolve(value)` or `reject(error)`."""
    promise: Awaitable[Any]
    resolve: Callable[..., None]
    reject: Callable[..., None]


class TimerHandle(Protocol):
    """A timer or an interval (js/timers.py): only handed back to clear it (JS: a Timeout; CPython: a TimerHandle)."""


class Regex(Protocol):
    """A native regex (js/text.py `native_regex`): only handed to the seam's regex functions (JS: a RegExp; CPython: a
    compiled `re` pattern), so no code comes to rely on one engine's methods."""


class AbortSignal(Protocol):
    """An AbortSignal, handed to fetch (`options['signal']`)."""
    @property
    def aborted(self) -> bool: ...

    def addEventListener(self, kind: str, listener: Callable[[], None]) -> None: ...


class AbortController(Protocol):
    """`abort_controller()`: its `signal` aborts when `abort()` is called."""
    @property
    def signal(self) -> AbortSignal: ...

    def abort(self) -> None: ...


class FetchResponse(Protocol):
    """A fetch Response as the code reads it: the status itself, the headers through `response_header`, the body
    through `body_reader` (JS: a Headers and a ReadableStream or null; the tests' fakes hold a dict and chunks)."""
    status: int
    statusText: str
    headers: Any
    body: Any
# __pragma__('noskip')
