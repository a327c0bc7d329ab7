"""Hermes Agent's background work, as its ACP adapter reports it outside ACP's turns (two extension notifications
of Hermes Agent after 0.19.0, acp_adapter/background.py): read defensively and turned into one session update the
front ends show.

- `_hermes/process` {sessionId, toolCallId, processId, command, status: "running" | "exited", exitCode?, reason?}:
  a `terminal` call left a process running, and later it ended;
- `_hermes/notification` {sessionId, kind, title, text, notificationIds}: what the Hermes CLI would inject as the
  next turn (a background process finished, a delegated subagent's result), sent while the session is idle. A
  client that wants the CLI's behaviour prompts the session with `text`.

Both become `{'sessionUpdate': BACKGROUND_UPDATE, 'text': Markdown that renders as the agent's words, 'plain': the
same words for a message box (one line, bounded), 'prompt': the suggested next prompt or None}`: during a turn a
line in the reply; between turns a notification's message offers its prompt (host/acp/session_updates.py). Every word is the agent's: shown as text (core/untrusted_markdown.py), bounded."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Optional
from hermes.contracts.json import Json, JsonObject
# __pragma__('noskip')
from hermes.core.untrusted_markdown import inline_code, plain_text
from hermes.core.values import get_key, json_type

PROCESS_METHOD = '_hermes/process'
NOTIFICATION_METHOD = '_hermes/notification'
METHODS = [PROCESS_METHOD, NOTIFICATION_METHOD]
BACKGROUND_UPDATE = '_hermes_background'
"""The session update both become (a name ACP leaves to extensions: it begins with `_`)."""

MAX_PROMPT_CHARS = 8000
"""A suggested prompt longer than this is cut (it goes into the chat input as the user's draft, never sent by us)."""


def _string(params: 'Json', key: str) -> 'Optional[str]':
    value = get_key(params, key)
    return value if json_type(value) == 'string' and value != '' else None


def background_update(method: str, params: 'Json') -> 'Optional[JsonObject]':
    """The session update for one of Hermes' background notifications, or None for anything else or malformed."""
    if method == PROCESS_METHOD:
        command = _string(params, 'command')
        status = _string(params, 'status')
        if command is None or status is None:
            return None
        if status == 'running':
            return {'sessionUpdate': BACKGROUND_UPDATE, 'prompt': None, 'plain': 'running ' + command[:200],
                    'text': 'Running in the background: ' + inline_code(command)}
        if status == 'exited':
            code = get_key(params, 'exitCode')
            ended = 'exit code ' + str(code) if json_type(code) == 'integer' else 'no exit code'
            reason = _string(params, 'reason')
            return {'sessionUpdate': BACKGROUND_UPDATE, 'prompt': None, 'plain': 'ended ' + command[:200],
                    'text': 'Background command ' + inline_code(command) + ' ended (' + ended +
                            ('' if reason is None else '; ' + plain_text(reason, 200)) + ')'}
        return None
    if method == NOTIFICATION_METHOD:
        title = _string(params, 'title')
        text = _string(params, 'text')
        if title is None and text is None:
            return None
        prompt = None if text is None else text[:MAX_PROMPT_CHARS]
        shown = title or text or ''
        plain = ' '.join(shown.split('\n'))
        return {'sessionUpdate': BACKGROUND_UPDATE, 'prompt': prompt, 'text': plain_text(shown, 300),
                'plain': plain[:300]}
    return None
