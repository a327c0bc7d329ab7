"""The one list of what a front end hears from an agent run. Every sink (the panel's, `@hermes`'s, the chat
sessions' recorder, the language model's) implements all of it, and the type checker holds each one to it
wherever a sink is handed to the loop: a misspelt or missing method is an error, not a silence.

The loop delivers each event to each sink on its own (core/agent_loop.py `Sinks.emit`): a sink that raises stops
neither the other sinks nor the run, and a plain JS object that lacks a method is skipped for that event."""
# __pragma__('skip')
from typing import Optional, Protocol

from hermes.contracts.loop import ChangeAuthor, ConfirmationState, Outcome, ShownCall, ToolLogLevel
from hermes.contracts.mcp import CallToolResult


class EventSink(Protocol):
    def on_iteration(self, number: int) -> None:
        """The loop is about to ask the model for reply number `number` (1-based)."""

    def on_text(self, text: str) -> None:
        """A piece of the model's answer (```tool blocks are not included)."""

    def on_tool_call(self, call: ShownCall) -> None:
        """A tool is about to run."""

    def on_tool_result(self, call: ShownCall, result: CallToolResult) -> None:
        """It finished."""

    def on_tool_log(self, call: ShownCall, level: ToolLogLevel, message: str) -> None:
        """A running tool said something (for people: the text is not a protocol); tools may log and
        report progress ('progress', '<n>/<total> …')."""

    def on_tool_confirmation(self, call: ShownCall, state: ConfirmationState) -> None:
        """The call's confirmation state changed: 'waiting' while the user is asked, then 'confirmed' or
        'declined'."""

    def change_author(self) -> Optional[ChangeAuthor]:
        """Not an event but a question, asked once per run: who the change log names for the files this run's tools
        change ({'client', 'session', 'turn'}: the front end's name, its conversation or session id, this turn's
        id), or None: 'Hermes' with a turn id per run. With several sinks, the last that names one."""

    def on_notice(self, message: str) -> None:
        """Something worth a quiet line: a switch to the text protocol, history trimmed."""

    def on_error(self, error: Exception) -> None:
        """The run failed: an LlmError; `str(error)` is the text for the user, `error.kind` what failed
        (contracts/loop.py LlmErrorKind)."""

    def on_done(self, outcome: Outcome) -> None:
        """Always last."""
# __pragma__('noskip')
