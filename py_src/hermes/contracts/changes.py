"""The change log's records (core/changes/model.py keeps them, host/changes/log.py stores and serves them)."""
# __pragma__('skip')
from typing import Any, Dict, List, Optional, TypedDict

ChangeHunk = Dict[str, Any]
"""A pending hunk (core/changes/hunks.py): {'id', 'start', 'base_start', 'before', 'after', 'author', 'time', 'sequence'?}."""


class _ChangeEntryBase(TypedDict):
    path: str
    uri: str  # the file's URI as text (the host makes it)
    base: Optional[str]  # the text before the pending changes; None: the agent created the file
    text: Optional[str]  # the text the agent left; None: it deleted the file
    hunks: List[ChangeHunk]
    next_id: int  # the number of the next new hunk's id ('h<next_id>')
    too_large: bool  # recorded without its texts (MAX_FILE_CHARS): one empty hunk, Keep only


class ChangeEntry(_ChangeEntryBase, total=False):
    """One file's pending changes. A move's two entries name each other."""
    renamed_from: str
    renamed_to: str


class ChangeDecision(TypedDict):
    """What became of earlier changes of one author in one file (the log's history, newest last)."""
    path: str
    action: str  # 'kept' | 'undone' | 'auto-kept'
    client: str
    session: Optional[str]
    turn: Optional[str]
    hunks: int  # how many
    added: int
    removed: int
    time: float


class UndoPlan(TypedDict):
    """What undoing some hunks of an entry does to the file (core/changes/model.py undo_plan_of)."""
    file: bool  # the file itself goes or comes back (all the hunks of a created or deleted file)
    conflicts: List[str]  # the ids of hunks the user edited since (none when forced): nothing may be written
    undone: List[str]  # the ids undone
    text: Optional[str]  # the file's text after the undo (None: no file)


class ChangeLogData(TypedDict):
    """The whole log as host/changes/store.py saves it (changes.json)."""
    format: int
    files: List[ChangeEntry]
    history: List[ChangeDecision]
    journal_seq: int


class JournalLine(TypedDict):
    """One line of changes.journal: the entries a change touched, the files in order, the decisions since."""
    seq: int
    order: List[str]
    files: List[ChangeEntry]
    history: List[ChangeDecision]

# __pragma__('noskip')
