"""Every Hermes tool as a VS Code language-model tool (`vscode.lm.registerTool`), so any agent in
VS Code — Copilot's agent mode, other participants, `#hermes_…` in the chat input — can use it.

Declared in package.json (`contributes.languageModelTools`, generated from the registry) and
registered here under the same names (core/lm_tools.py). A call runs through the registry like
every other call (argument validation, isError results), with one difference in confirmation:

- `prepareInvocation` asks VS Code to confirm exactly the calls Hermes's own gate would ask about
  (`Approver.would_ask`: `hermes.tools.confirm`, destructive tools, session allowances), with the
  tool and its arguments in the message. VS Code runs `invoke` only once the user agreed (or their
  own VS Code settings approve it for them), so
- `invoke` marks such a call CONFIRMED and the gate does not ask a second time. It does so
  only for a call VS Code was asked to confirm: the exact (tool, arguments) pair recorded by
  `prepareInvocation`. A call nobody confirmed (a setting changed in between, input edited in the
  confirmation) meets Hermes's own prompt as usual.
"""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError, to_js_callback
from hermes.js.json import dump_json
from hermes.js.modules import vscode
from hermes.js.objects import new
from hermes.core.tools import ToolCall, CONFIRMED, result_text, marked_error
from hermes.core.chat.messages import prop
from hermes.core.lm_tools import lm_tool_name, describe_call, confirmation
from hermes.host.chat.host import tool_result, markdown
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional
from hermes.contracts.json import Json, JsonObject
from hermes.core.tools import ToolRegistry
from hermes.host.log import Log
if TYPE_CHECKING:
    from vscode import Disposable, ExtensionContext, LanguageModelToolResult
# __pragma__('noskip')

MAX_PENDING = 64


class LmToolBridge:
    """The registry's tools behind VS Code's tool API (testable without VS Code registering them)."""

    def __init__(self, registry: 'ToolRegistry', log: 'Optional[Log]' = None) -> None:
        self.registry = registry
        self.log = log
        self.confirmed = []  # type: List[str]  # keys of calls VS Code was asked to confirm, waiting for `invoke`

    def _approver_would_ask(self, tool: Any, arguments: 'Optional[JsonObject]') -> bool:
        approver = self.registry.approver
        return approver is not None and approver.would_ask(tool, arguments)

    def prepare(self, tool_name: str, options: Any) -> 'Optional[JsonObject]':
        """LanguageModelToolInvocationPrepareOptions → PreparedToolInvocation (a dict)."""
        tool = self.registry.get(tool_name)
        if tool is None:
            return None
        arguments = prop(options, 'input')
        prepared = {'invocationMessage': describe_call(tool.name, arguments, tool.title)}  # type: JsonObject
        # A tool whose dialog shows what its arguments resolve to (a task's command line: Tool.preview) is not
        # confirmed here, where only the arguments would show: Hermes's own dialog asks, with what will run.
        if self._approver_would_ask(tool, arguments) and tool.preview is None:
            words = confirmation(tool, arguments)
            prepared['confirmationMessages'] = {'title': words['title'], 'message': markdown(words['message'])}
            self.confirmed.append(_key(tool_name, arguments))
            if len(self.confirmed) > MAX_PENDING:
                self.confirmed.pop(0)
        return prepared

    async def invoke(self, tool_name: str, options: Any, token: Any) -> 'LanguageModelToolResult':
        """Run the call; the CallToolResult as a LanguageModelToolResult (errors as text the model reads)."""
        call = ToolCall(None, self._logger(tool_name))
        call.author = {'client': 'VS Code agent', 'session': None, 'turn': None}  # VS Code's own chat calling our tools
        key = _key(tool_name, prop(options, 'input'))
        if key in self.confirmed:
            self.confirmed = [item for item in self.confirmed if item != key]
            call.set_confirmation(CONFIRMED)  # VS Code's confirmation stood in for the gate's
        subscription = None
        if token is not None:
            subscription = token.onCancellationRequested(lambda event: call.cancel('Cancelled in VS Code.'))
        try:
            result = await self.registry.call(tool_name, prop(options, 'input'), call)
        finally:
            if subscription is not None:
                subscription.dispose()
        return tool_result(marked_error(result_text(result), result['isError'] is True))

    def _logger(self, tool_name: str) -> 'Callable[[str, str], None]':
        def log(level: str, message: str) -> None:
            if self.log is not None:
                self.log.info(lm_tool_name(tool_name) + ': ' + str(message))
        return log


def _key(tool_name: str, arguments: 'Json') -> str:
    return tool_name + '\n' + dump_json(arguments if arguments is not None else {})


def register_lm_tools(context: 'ExtensionContext', log: 'Log', registry: 'ToolRegistry') -> 'Optional[LmToolBridge]':
    """Register every registry tool with VS Code, and keep the registrations in step with the registry.
    Returns the bridge (None on a VS Code without the tool API)."""
    if vscode.lm is None or vscode.lm.registerTool is None:
        return None
    bridge = LmToolBridge(registry, log)
    registered = {}  # type: Dict[str, Disposable]

    def register(tool_name: str) -> None:
        name = lm_tool_name(tool_name)

        def prepare_invocation(options: Any, token: Any) -> 'Optional[JsonObject]':
            return bridge.prepare(tool_name, options)

        async def invoke(options: Any, token: Any) -> 'LanguageModelToolResult':
            return await bridge.invoke(tool_name, options, token)
        try:
            registered[tool_name] = vscode.lm.registerTool(name, {
                'prepareInvocation': to_js_callback(prepare_invocation), 'invoke': to_js_callback(invoke)})
        except JsError as error:  # not declared in package.json: run `inv build` to regenerate it
            log.warn('Could not register the language model tool ' + name + ': ' + error_message(error))

    def sync() -> None:
        names = registry.names()
        for tool_name in names:
            if not (tool_name in registered):
                register(tool_name)
        for tool_name in list(registered.keys()):
            if not (tool_name in names):
                registered.pop(tool_name).dispose()

    sync()
    unsubscribe = registry.on_change(sync)

    def dispose() -> None:
        unsubscribe()
        for tool_name in list(registered.keys()):
            registered[tool_name].dispose()
        registered.clear()
    context.subscriptions.push(new(vscode.Disposable, dispose))
    return bridge
