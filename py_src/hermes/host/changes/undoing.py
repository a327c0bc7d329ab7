"""Undo in the change log (host/changes/log.py `undo`): the plan (core/changes/model.py `undo_plan_of`) against the
file's text now, its conflicts, the other end of a move (both ends go back, or neither), and the writes — each one
confined to the workspace again at the moment it is made."""
# __pragma__('tconv')
from hermes.core.changes.model import (ChangeConflict, ChangeModel, matches, partner_of, too_large_to_undo_text,
                                      undo_plan_of)
from hermes.host.paths import display_path
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Callable, List, Optional
from hermes.contracts.json import JsonObject
from hermes.contracts.changes import ChangeEntry, ChangeHunk
if TYPE_CHECKING:
    from hermes.host.changes.files import EditorFiles  # (it imports the log, which imports this module)
# __pragma__('noskip')


class ChangeUndo:
    """`files` reads and writes the files, `model` is the log's, `confined(path)` its rule for paths, `clock` its
    time, `changed(paths)` journals and announces (the log's)."""

    def __init__(self, files: 'EditorFiles', model: 'ChangeModel', confined: 'Callable[[str], bool]',
                 clock: 'Callable[[], float]', changed: 'Callable[[List[str]], None]') -> None:
        self._files = files
        self._model = model
        self._confined = confined
        self._clock = clock
        self._changed = changed

    async def write_confined(self, path: str, text: 'Optional[str]') -> None:
        """Every write of the log goes through here: the path is confined again at this moment, not only when it was
        recorded or loaded — a folder on the way may have become a link to elsewhere since (an agent's shell, a
        checkout), and Undo of a recorded deletion would then create the file wherever the link points."""
        if not self._confined(path):
            raise ValueError('Hermes did not write ' + display_path(path) + ': it now leads outside the workspace '
                             '(a folder on its way became a link since the change was recorded). Nothing was changed.')
        await self._files.write(path, text)

    async def undo(self, path: str, hunk_id: 'Optional[str]', force: bool) -> 'List[str]':
        """Undo the hunk `hunk_id` of `path` (None: all its hunks) as ChangeLog.undo says; the ids undone."""
        found = self._model.chosen(path, the_hunk_or_all(hunk_id))
        if found is None:
            return []
        entry = found['entry']
        chosen = found['hunks']
        if entry['too_large']:
            raise ValueError(too_large_to_undo_text())
        current = await self._files.read(path)
        plan = undo_plan_of(entry, chosen, current, force)
        if len(plan['conflicts']) > 0:
            raise ChangeConflict(path, plan['conflicts'])
        if plan['file']:  # created or deleted: the file itself goes or comes back
            await self._undo_file(path, entry, chosen, plan['text'], force)
            return plan['undone']
        if len(plan['undone']) == 0:
            return []
        await self.write_confined(path, plan['text'])
        self._model.remember(path, 'undone', [hunk for hunk in chosen if hunk['id'] in plan['undone']],
                             self._clock())
        self._model.undone_lines(path, plan['undone'], self._clock())  # (the write may have been recorded meanwhile)
        self._changed([path])
        return plan['undone']

    async def undo_all(self, wanted: 'Optional[JsonObject]', force: bool) -> 'JsonObject':
        """Undo every pending hunk whose author fits `wanted`, file by file (ChangeLog.undo_all says how)."""
        undone = 0
        conflicts = []  # type: List[JsonObject]
        for path in self._model.order[:]:
            found = self._model.chosen(path, lambda hunk: matches(hunk['author'], wanted))
            if found is None:
                continue
            entry = found['entry']
            chosen = found['hunks']
            try:
                if len(chosen) == len(entry['hunks']):
                    undone = undone + len(await self.undo(path, None, force))
                else:
                    for hunk in chosen:
                        undone = undone + len(await self.undo(path, hunk['id'], force))
            except ChangeConflict as conflict:
                conflicts.append({'path': path, 'hunk_ids': conflict.hunk_ids})
        return {'undone': undone, 'conflicts': conflicts}

    async def _undo_file(self, path: str, entry: 'ChangeEntry', chosen: 'List[ChangeHunk]', text: 'Optional[str]',
                         force: bool) -> None:
        """The file created or deleted goes or comes back, and the other end of its move with it."""
        partner = partner_of(entry)
        partner_entry = None if partner is None else self._model.entry(partner)  # type: Any
        if partner is not None and partner_entry is not None:  # a move: both ends go back, or neither
            partner_now = await self._files.read(partner)
            if partner_now != partner_entry['text'] and not force:
                raise ChangeConflict(partner, [hunk['id'] for hunk in partner_entry['hunks']])
        await self.write_confined(path, text)
        self._model.remember(path, 'undone', chosen, self._clock())
        self._model.forget(path)
        touched = [path]
        if partner is not None and partner_entry is not None:
            await self.write_confined(partner, partner_entry['base'])
            self._model.remember(partner, 'undone', partner_entry['hunks'], self._clock())
            self._model.forget(partner)
            touched.append(partner)
        self._changed(touched)


def the_hunk_or_all(hunk_id: 'Optional[str]') -> 'Callable[[ChangeHunk], bool]':
    """Keep's and Undo's choice: the hunk named `hunk_id`, or every hunk of the file when none is named."""
    return lambda hunk: hunk_id is None or hunk['id'] == hunk_id
