"""The tools an agent loop's reply asked for (core/agent_loop.py), run one after the other through the registry (so
the same argument validation and confirmation gate as MCP apply), each answered in the history by one tool message —
also when its arguments cannot be read, it fails, or the user cancels."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import TYPE_CHECKING, List, Optional
from hermes.contracts.chat import ChatMessage, History, ToolCallMessage
from hermes.contracts.json import JsonObject
from hermes.contracts.loop import ShownCall
from hermes.contracts.mcp import CallToolResult
from hermes.core.tools import ToolRegistry
if TYPE_CHECKING:
    from hermes.core.agent_loop import Sinks  # (it imports this module)
# __pragma__('noskip')
from hermes.js.errors import error_message, JsError
from hermes.core.values import has_key
from hermes.core.tools import ToolCall, error_result, result_text, marked_error
from hermes.core.cancellation import Cancellation, CANCELLED
from hermes.core.llm_wire import tool_message, parse_arguments
from hermes.core.output_text import cap_chars
from hermes.core.context_budget import FOR_CONTEXT

CANCELLED_TEXT = 'Cancelled by the user before this tool finished.'


async def run_tools(registry: 'ToolRegistry', calls: 'List[ToolCallMessage]', history: 'History', events: 'Sinks',
                    cancellation: Cancellation, max_result_chars: int) -> None:
    """Run `calls` in order, appending each one's result (at most `max_result_chars`) to `history`; the sinks hear of
    each call and its result. Once cancelled, the calls left are answered as cancelled without running."""
    for call in calls:
        name = call['function']['name']
        parsed = parse_arguments(call['function']['arguments'])
        shown = {'id': call['id'], 'name': name,
                 'arguments': parsed['value'] if has_key(parsed, 'value') else call['function']['arguments']}  # type: ShownCall
        if cancellation.cancelled:
            result = error_result(CANCELLED_TEXT)
        else:
            events.emit(lambda sink: sink.on_tool_call(shown))
            if has_key(parsed, 'error'):
                result = error_result('Invalid arguments for tool \'' + name + '\': ' + parsed['error'] +
                                      '. Call it again with the arguments as one JSON object.')
            else:
                result = await _call_tool(registry, name, parsed['value'], cancellation, events, shown)
        text = cap_chars(result_text(result), max_result_chars, FOR_CONTEXT)
        history.append(tool_result_message(call, text, result['isError'] is True))
        events.emit(lambda sink: sink.on_tool_result(shown, result))


async def _call_tool(registry: 'ToolRegistry', name: str, arguments: 'JsonObject', cancellation: Cancellation,
                     events: 'Sinks', shown: 'ShownCall') -> 'CallToolResult':
    if cancellation.cancelled:  # cancelled while the call was announced: never start it (in JS, calling an
        return error_result(CANCELLED_TEXT)  # async function runs it up to its first await)
    def report(progress: float, total: 'Optional[float]', message: 'Optional[str]') -> None:
        text = str(progress) + ('/' + str(total) if total is not None else '')
        events.emit(lambda sink: sink.on_tool_log(shown, 'progress', text + (' ' + message if message is not None else '')))

    def log(level: str, message: str) -> None:
        events.emit(lambda sink: sink.on_tool_log(shown, level, message))
    tool_call = ToolCall(report, log)
    tool_call.author = events.author
    tool_call.on_confirmation(lambda state: events.emit(lambda sink: sink.on_tool_confirmation(shown, state)))
    unsubscribe = cancellation.on_cancel(lambda: tool_call.cancel('The user cancelled the request.'))
    try:
        result = await cancellation.race(registry.call(name, arguments, tool_call))
    except JsError as error:
        result = error_result('Tool \'' + name + '\' failed: ' + error_message(error))
    unsubscribe()
    if result is CANCELLED:
        return error_result(CANCELLED_TEXT)
    return result


def tool_result_message(call: 'ToolCallMessage', text: str, is_error: bool) -> 'ChatMessage':
    """A tool's answer in the history: the name and whether it failed ride along in `hermes_` keys."""
    message = tool_message(call['id'], marked_error(text, is_error))
    message['hermes_tool'] = call['function']['name']
    message['hermes_is_error'] = is_error
    return message
