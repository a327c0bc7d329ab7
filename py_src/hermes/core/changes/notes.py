"""Notes about changes Hermes saw but could not put under review exactly, for the Changes view: a file an agent
changed on disk whose text before is unknown (too large, not text, never seen: there is nothing exact to undo it
to), a span with more changed files than are reviewable one by one, and a change listed under one of several
terminal CLIs connected at once (the disk does not say which wrote it: host/doors/watch.py guesses the one active
last). The change log owns one ChangeNotes (host/changes/log.py `notes`); the view shows `notes_message`, "Show
Notes" lists them, "Dismiss" clears them. In memory only: they are about this window's session.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Callable, List
from hermes.contracts.json import JsonObject
# __pragma__('noskip')
from hermes.js.errors import JsError

MAX_NOTES = 50
NAMED_IN_MESSAGE = 3

UNKNOWN_BEFORE = 'unknown-before'
GUESSED = 'guessed'
TOO_MANY = 'too-many'


class ChangeNotes:
    def __init__(self) -> None:
        self.items = []  # type: List[JsonObject]
        self._listeners = []  # type: List[Callable[[], None]]

    def add(self, kind: str, path: str, client: str, detail: str = '') -> None:
        """Note `path` (the newest MAX_NOTES are kept, one per path and kind). `client`: who changed it (as listed);
        `detail`: for GUESSED, who else was connected; for TOO_MANY, how many more files changed."""
        kept = [item for item in self.items if not (item['path'] == path and item['kind'] == kind)]
        kept.append({'kind': kind, 'path': path, 'client': client, 'detail': detail})
        self.items = kept[max(0, len(kept) - MAX_NOTES):]
        self._changed()

    def clear(self) -> None:
        if len(self.items) == 0:
            return
        self.items = []
        self._changed()

    def on_change(self, listener: 'Callable[[], None]') -> 'Callable[[], None]':
        """Call `listener()` after each change; returns a function that stops it."""
        self._listeners.append(listener)

        def remove() -> None:
            self._listeners = [known for known in self._listeners if known is not listener]
        return remove

    def _changed(self) -> None:
        for listener in self._listeners[:]:
            try:
                listener()
            except JsError:
                pass


def note_text(item: 'Any', relative: 'Callable[[str], str]') -> str:
    """One note as a sentence: 'data.bin: changed by Claude Code; its text before is unknown, so it cannot be
    reviewed or undone here'."""
    name = relative(item['path'])
    if item['kind'] == GUESSED:
        return (name + ': changed on disk while ' + item['client'] + ' and ' + item['detail'] + ' were connected; '
                'listed as ' + item['client'] + '\'s (the one active last), which may be wrong')
    if item['kind'] == TOO_MANY:
        return (name + ' and ' + item['detail'] + ' more files: changed at once by ' + item['client'] +
                ', more than can be reviewed one by one; only the first are listed')
    return (name + ': changed by ' + item['client'] + '; its text before is unknown, so it cannot be reviewed or '
            'undone here')


def notes_message(items: 'List[Any]', relative: 'Callable[[str], str]') -> str:
    """The Changes view's message: empty without notes; else how many, the first NAMED_IN_MESSAGE of them."""
    if len(items) == 0:
        return ''
    newest = items[max(0, len(items) - NAMED_IN_MESSAGE):]
    newest.reverse()
    texts = [note_text(item, relative) for item in newest]
    more = len(items) - len(newest)
    head = 'Not under review exactly: ' if len(items) == 1 else \
        str(len(items)) + ' changes not under review exactly: '
    return head + '; '.join(texts) + ('; and ' + str(more) + ' more (Show Notes)' if more > 0 else '') + '.'
