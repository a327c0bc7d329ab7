""""Restore to before this turn" for a Hermes conversation (the side panel's and the chat sessions'): the user picks
files, the conversation, or both (core/changes/checkpoints.py RESTORE_CHOICES); files go back through the change log
(Undo All of this turn and every later one, asking first when the user edited those lines since), the
conversation is cut before the turn's prompt. The restore itself can be undone ("Undo Restore" on its message,
or the command): the files get their text from just before the restore back, pending review again, and the
conversation its turns.

Offered from the Changes view (a turn's context menu), a chat session's answers (a button) and the side panel
(a button on each prompt), all through `hermes.restoreTurn(conversationId, turnId, what?)`."""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError
from hermes.js.modules import vscode
from hermes.js.promises import spawn
from hermes.core.values import json_type, get_key
from hermes.core.chat.messages import prop
from hermes.core.changes.checkpoints import (RESTORE_CHOICES, FILES, CONVERSATION, turns_from, cut_conversation,
                                     put_back, restore_summary, is_restore_choice, CHANGE_CLIENT)
from hermes.ui.commands import register_command
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, List, Optional
from hermes.contracts.json import JsonObject
from hermes.core.chat.conversations import ConversationStore
from hermes.host.changes.files import EditorFiles
from hermes.host.changes.log import ChangeLog
from hermes.host.log import Log
if TYPE_CHECKING:
    from vscode import ExtensionContext
# __pragma__('noskip')

RESTORE_COMMAND = 'hermes.restoreTurn'
UNDO_RESTORE_COMMAND = 'hermes.undoRestore'
UNDO_RESTORE = 'Undo Restore'
UNDO_ANYWAY = 'Undo Anyway'
CHECKPOINT_ORIGIN = 'checkpoint'


class Checkpoints:
    """`changes`: the change log; `store`: the conversation store; `files`: reads and writes files undoably
    (host/changes/files.py EditorFiles: `read(path)`, `write(path, text)`)."""

    def __init__(self, changes: 'ChangeLog', store: 'ConversationStore', files: 'EditorFiles',
                 log: 'Optional[Log]' = None) -> None:
        self.changes = changes
        self.store = store
        self.files = files
        self.log = log
        self.last = None  # type: Optional[JsonObject]  # what the last restore changed, for Undo Restore

    async def restore(self, conversation_id: Any = None, turn_id: Any = None,
                      what: Any = None) -> 'Optional[JsonObject]':
        if json_type(conversation_id) != 'string':  # from the Changes view: a turn element
            node = prop(conversation_id, 'node')
            change_filter = get_key(node, 'filter')
            turn_id = get_key(change_filter, 'turn')
            conversation_id = get_key(change_filter, 'session')
        conversation = None if json_type(conversation_id) != 'string' else self.store.get(conversation_id)
        if conversation is None or json_type(turn_id) != 'string':
            vscode.window.showWarningMessage('Hermes: this turn is not in a stored conversation any more, so there is '
                                             'no checkpoint to restore.')
            return None
        turns = turns_from(conversation.messages, turn_id)
        if len(turns) == 0:
            vscode.window.showWarningMessage('Hermes: this turn is no longer in the conversation.')
            return None
        status = conversation.status()
        if status == 'in_progress' or status == 'needs_input':
            vscode.window.showWarningMessage('Hermes: this conversation is still answering; stop it first, then '
                                             'restore.')
            return None
        if not is_restore_choice(what):
            picked = await vscode.window.showQuickPick(RESTORE_CHOICES, {'placeHolder': 'Restore to before this turn: '
                                                                         'what should go back?'})
            if picked is None:
                return None
            what = picked['what']
        # the conversation itself, not its id: cut to nothing, the store leaves it out of its list until it is
        # put back
        undo = {'files': [], 'conversation': None, 'target': conversation}  # type: JsonObject
        restored_files = 0
        if what != CONVERSATION:
            restored = await self._restore_files(conversation_id, turns)
            if restored is None:
                return None
            undo['files'] = restored
            restored_files = len(restored)
        if what != FILES:
            undo['conversation'] = cut_conversation(conversation, turn_id)
            self.store.put(conversation, CHECKPOINT_ORIGIN)
        self.last = undo
        text = restore_summary(what, restored_files, len(turns))
        self._offer_undo(text)
        return {'what': what, 'files': restored_files, 'turns': len(turns)}

    async def _restore_files(self, conversation_id: str, turns: 'List[str]') -> 'Optional[List[JsonObject]]':
        """Undo the pending changes of these turns; returns [{'path', 'text', 'author'}] (each file's text just
        before, for Undo Restore), or None when the user declined a conflict."""
        saved = []  # type: List[JsonObject]
        entries = [entry for entry in self.changes.pending() if get_key(entry['author'], 'session') == conversation_id
                   and get_key(entry['author'], 'turn') in turns]
        for entry in entries:
            if len([item for item in saved if item['path'] == entry['path']]) == 0:
                saved.append({'path': entry['path'], 'text': await self.files.read(entry['path']),
                              'author': entry['author']})
        force = False
        for attempt in [1, 2]:
            conflicts = []  # type: List[Any]
            for turn in turns:
                result = await self.changes.undo_all({'client': CHANGE_CLIENT, 'session': conversation_id,
                                                      'turn': turn}, force)
                conflicts.extend(get_key(result, 'conflicts', []))
            if len(conflicts) == 0 or force:
                break
            question = ('You edited lines of ' + str(len(conflicts)) + (' file' if len(conflicts) == 1 else ' files') +
                        ' that these turns changed. Restore them anyway (your edits there are lost)?')
            if await vscode.window.showWarningMessage(question, {'modal': True}, UNDO_ANYWAY) != UNDO_ANYWAY:
                return None if len(saved) == 0 else await self._partial(saved)
            force = True
        return saved

    async def _partial(self, saved: 'List[JsonObject]') -> 'List[JsonObject]':
        """The files the first round restored before the user declined the rest (Undo Restore puts them back)."""
        changed = []  # type: List[JsonObject]
        for item in saved:
            if await self.files.read(item['path']) != item['text']:
                changed.append(item)
        return changed

    def _offer_undo(self, text: str) -> None:
        async def offer() -> None:
            choice = await vscode.window.showInformationMessage(text, UNDO_RESTORE)
            if choice == UNDO_RESTORE:
                await self.undo_restore()
        spawn(offer())

    async def undo_restore(self) -> bool:
        """Put back what the last restore changed: the files' texts (pending review again, by their turns'
        author) and the conversation's turns."""
        undo = self.last
        if undo is None:
            vscode.window.showInformationMessage('Hermes: there is no restore to undo.')
            return False
        self.last = None
        for item in undo['files']:
            try:
                now = await self.files.read(item['path'])
                await self.changes.write_confined(item['path'], item['text'])  # confined again now
                self.changes.record(item['path'], now, item['text'], item['author'])
            except JsError as error:
                vscode.window.showErrorMessage('Hermes: could not put back ' + item['path'] + ': ' + error_message(error))
        if undo['conversation'] is not None:
            put_back(undo['target'], undo['conversation'])
            self.store.put(undo['target'], CHECKPOINT_ORIGIN)
        return True


def register_checkpoints(context: 'ExtensionContext', changes: 'ChangeLog', store: 'ConversationStore',
                         files: 'EditorFiles', log: 'Optional[Log]' = None) -> 'Checkpoints':
    checkpoints = Checkpoints(changes, store, files, log)
    register_command(context, RESTORE_COMMAND, checkpoints.restore)
    register_command(context, UNDO_RESTORE_COMMAND, checkpoints.undo_restore)
    return checkpoints

