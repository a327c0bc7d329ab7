"""Who made a change, as the change log names them (core/changes/model.py keeps and compares these), and the one
note a reading tool leaves there: that its caller read a file whole (so its next edit of another agent's pending
change is allowed). Pure: the log itself comes with the call (`call.services.change_log_or_none`)."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Optional
from hermes.contracts.loop import ChangeAuthor
# __pragma__('noskip')
from hermes.core.values import get_key, json_type


def author_of(value: 'Any') -> 'ChangeAuthor':
    """An author as the log keeps it: {'client', 'session', 'turn'} (+ 'external': edits by MCP clients)."""
    client = get_key(value, 'client')
    author = {'client': client if json_type(client) == 'string' and client != '' else 'Hermes',
              'session': _id_or_none(get_key(value, 'session')),
              'turn': _id_or_none(get_key(value, 'turn'))}  # type: Any
    if get_key(value, 'external') is True:
        author['external'] = True
    return author


def _id_or_none(value: 'Any') -> 'Optional[str]':
    kind = json_type(value)
    if kind == 'string' or kind == 'integer':
        return str(value)
    return None


def note_read(call: 'Any', path: str) -> None:
    """The call's client read the whole current text of `path` (file_read, editor_get_content)."""
    log = call.services.change_log_or_none
    if log is not None:
        log.note_read(author_of(call.author)['client'], path)
