"""A change an agent proposes (a file's text before and after), as the lines a card shows: its hunks with the
removed and added lines, bounded so a rewritten 10 MB file still posts a small message. Pure (replayed on the
bundle by the parity vectors)."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import List
from hermes.contracts.json import Json
from hermes.contracts.panel import DiffHunk, DiffPreview
# __pragma__('noskip')
from hermes.core.values import json_type
from hermes.core.changes.hunks import diff_texts, visible_line
from hermes.core.changes.report import capped_lines

MAX_HUNKS = 20
MAX_TEXT = 2000000
"""Texts longer than this are not diffed: the preview says so (the editor's diff still opens them)."""


def diff_preview(old_text: 'Json', new_text: 'Json') -> 'DiffPreview':
    """{'added', 'removed', 'created', 'hunks': [{'line' (1-based, in the new text), 'removed': [lines],
    'added': [lines]}], 'more' (hunks left out), 'tooLarge'}. `old_text` None: the file is created."""
    created = old_text is None
    old = '' if created or json_type(old_text) != 'string' else old_text
    new = new_text if json_type(new_text) == 'string' else ''
    if len(old) > MAX_TEXT or len(new) > MAX_TEXT:
        return {'added': 0, 'removed': 0, 'created': created, 'hunks': [], 'more': 0, 'tooLarge': True}
    hunks = diff_texts(old, new)
    added = 0
    removed = 0
    shown = []  # type: List[DiffHunk]
    for hunk in hunks:
        added = added + len(hunk['after'])
        removed = removed + len(hunk['before'])
        if len(shown) < MAX_HUNKS:
            shown.append({'line': hunk['start'] + 1,
                          'removed': capped_lines([visible_line(line) for line in hunk['before']]),
                          'added': capped_lines([visible_line(line) for line in hunk['after']])})
    return {'added': added, 'removed': removed, 'created': created, 'hunks': shown,
            'more': len(hunks) - len(shown), 'tooLarge': False}
