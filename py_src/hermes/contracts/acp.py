"""What the ACP front ends (ui/acp/chat.py, the panel) hand the turn runner (host/acp/turn_runner.py run_turn) to ask the
user, and what the client side (host/acp/client_side.py) hands a session's running turn."""
# __pragma__('skip')
from typing import Awaitable, Callable, Optional
from hermes.contracts.json import Json, JsonObject

# A permission question (core/acp/turn.py permission_summary's shape, with its `choices`) → the chosen option's id, or
# None (skipped, closed: the service denies).
Asker = Callable[[JsonObject], Awaitable[Optional[str]]]
# An agent's form question (core/acp/elicitation.py read_question's shape) → {'action': 'accept', 'content'} or
# {'action': 'decline'}, or None (cancelled).
Elicitor = Callable[[JsonObject], Awaitable[Optional[JsonObject]]]
# A session's running turn answers its agent's permission requests (params → outcome) and questions (→ a result).
PermissionPrompter = Callable[[Json], Awaitable[Json]]
QuestionPrompter = Callable[[JsonObject], Awaitable[JsonObject]]
# `is_observing()`: whether the session is in Hermes Agent's observe mode now.
ObservingCheck = Callable[[], bool]
# __pragma__('noskip')
