"""Problems (diagnostics) VS Code's language services report, as plain dicts."""
# __pragma__('tconv')
from hermes.js.clock import now_ms
from hermes.js.modules import vscode
from hermes.js.promises import make_promise
from hermes.js.timers import clear_timer, set_timer
from hermes.core.values import json_type, get_key
from hermes.core.editor_terms import SEVERITIES
from hermes.host.confinement import place
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional
from hermes.contracts.json import JsonObject
from hermes.contracts.services import CallContext
if TYPE_CHECKING:
    from vscode import Diagnostic, Uri
# __pragma__('noskip')

QUIET_MS = 1000


def severity_rank(name: str) -> int:
    return SEVERITIES.index(name)


def code_text(code: Any) -> 'Optional[str]':
    """A diagnostic's code: a number, a string, or {value, target}."""
    if code is None:
        return None
    kind = json_type(code)
    if kind == 'string' or kind == 'integer' or kind == 'number':
        return str(code)
    value = get_key(code, 'value')
    return None if value is None else str(value)


def describe(uri: 'Uri', diagnostic: 'Diagnostic') -> 'JsonObject':
    """A problem as a dict; one in a file the workspace does not hold says only `OUTSIDE` and has 'withheld'
    (its message is that file's business too)."""
    start, end = diagnostic.range.start, diagnostic.range.end
    where = place(uri)
    severity = SEVERITIES[diagnostic.severity] if diagnostic.severity in [0, 1, 2, 3] else 'error'
    if where['uri'] is None:
        return {'path': where['path'], 'withheld': True, 'line': start.line + 1, 'column': start.character + 1,
                'endLine': end.line + 1, 'endColumn': end.character + 1, 'severity': severity, 'message': '',
                'source': None, 'code': None}
    return {
        'path': where['path'],
        'line': start.line + 1, 'column': start.character + 1,
        'endLine': end.line + 1, 'endColumn': end.character + 1,
        'severity': severity,
        'message': diagnostic.message,
        'source': None if diagnostic.source is None else diagnostic.source,
        'code': code_text(diagnostic.code),
    }


def collect(path: 'Optional[str]' = None, min_severity: str = 'hint') -> 'List[JsonObject]':
    """Diagnostics of one file (absolute path) or of every file, at `min_severity` or worse, sorted
    by file and position."""
    limit = severity_rank(min_severity)
    found = []  # type: List[JsonObject]
    if path is not None:
        uri = vscode.Uri.file(path)
        pairs = [[uri, vscode.languages.getDiagnostics(uri)]]  # type: List[Any]
    else:
        pairs = vscode.languages.getDiagnostics()
    for pair in pairs:
        for diagnostic in pair[1]:
            if diagnostic.severity <= limit:
                found.append(describe(pair[0], diagnostic))
    found.sort(key=lambda item: item['path'] + '\x00' + padded(item['line']) + padded(item['column']))
    return found


def padded(number: int) -> str:
    text = str(number)
    while len(text) < 9:
        text = '0' + text
    return text


async def wait_for_change(path: str, timeout_ms: float, call: 'Optional[CallContext]' = None) -> bool:
    """Resolve when diagnostics of `path` change, or after `timeout_ms` (language services report a
    freshly opened file a moment later)."""
    target = vscode.Uri.file(path).toString()
    holder = {}  # type: Dict[str, Any]

    def executor(resolve: 'Callable[[bool], None]', reject: 'Callable[[Any], None]') -> None:
        def done(changed: bool) -> None:
            if holder.get('timer') is not None:
                clear_timer(holder['timer'])
            if holder.get('listener') is not None:
                holder['listener'].dispose()
            if holder.get('unsubscribe') is not None:
                holder['unsubscribe']()
            resolve(changed)

        def on_change(event: Any) -> None:
            for uri in event.uris:
                if uri.toString() == target:
                    done(True)
                    return

        holder['listener'] = vscode.languages.onDidChangeDiagnostics(on_change)
        holder['timer'] = set_timer(lambda: done(False), timeout_ms)
        if call is not None:
            holder['unsubscribe'] = call.on_cancel(lambda: done(False))
    return await make_promise(executor)


async def wait_for_report(path: str, timeout_ms: float, call: 'CallContext') -> None:
    """Wait for a language service to report on `path`: until a change arrives and is followed by a
    quiet second (TypeScript reports syntax first, then semantics), or until `timeout_ms`."""
    deadline = now_ms() + timeout_ms
    changed = await wait_for_change(path, timeout_ms, call)
    while changed and deadline - now_ms() > 0 and not call.cancelled:
        changed = await wait_for_change(path, min(QUIET_MS, deadline - now_ms()), call)
