"""Reviewing agents' changes, wired once in activate: the editor's marks and lenses, the review commands, the
before-texts for diffs, the Changes view and status bar, and checkpoints. All of it reads the one change log
(host/changes/log.py, `services.changes`); the panel and the chat sessions get the same log from activate."""
# __pragma__('tconv')
from hermes.core.changes.checkpoints import turn_of
from hermes.host.changes.files import EditorFiles
from hermes.ui.changes.review import register_change_review
from hermes.ui.changes.commands import register_change_commands
from hermes.ui.changes.diff import register_before_texts
from hermes.ui.changes.view import register_changes_view
from hermes.ui.changes.notes_view import register_change_notes_view
from hermes.ui.changes.checkpoints import register_checkpoints
# __pragma__('skip')
from typing import TYPE_CHECKING, Optional
from hermes.contracts.json import JsonObject
from hermes.core.chat.conversations import ConversationStore
from hermes.host.changes.log import ChangeLog
from hermes.host.log import Log
if TYPE_CHECKING:
    from vscode import ExtensionContext
# __pragma__('noskip')


def register_change_ui(context: 'ExtensionContext', log: 'Log', changes: 'ChangeLog',
                       conversations: 'ConversationStore') -> 'JsonObject':
    def session_title(session_id: str) -> 'Optional[str]':
        conversation = conversations.get(session_id)
        return None if conversation is None else conversation.title

    def turn_title(session_id: str, turn_id: str) -> 'Optional[str]':
        conversation = conversations.get(session_id)
        if conversation is None:
            return None
        for message in conversation.messages:
            if message['role'] == 'user' and turn_of(message) == turn_id:
                return message['text']
        return None

    review = register_change_review(context, changes)
    commands = register_change_commands(context, changes, review, log)
    register_before_texts(context, changes)
    view = register_changes_view(context, changes, session_title, turn_title)
    register_change_notes_view(context, changes.notes, view['view'])
    checkpoints = register_checkpoints(context, changes, conversations, EditorFiles(), log)
    return {'review': review, 'commands': commands, 'view': view, 'checkpoints': checkpoints}
