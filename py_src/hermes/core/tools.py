"""The tool model shared by the MCP server and the chat loop: a declaration, a per-call context (with the
window's services), and one registry that validates arguments and turns every outcome into a CallToolResult.

A tool failure is a *result* (`isError: true` with text the model can act on), never a protocol
error: the registry catches everything a handler raises, including JS errors.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Awaitable, Callable, Dict, List, Optional
from hermes.contracts.json import Json, JsonObject
from hermes.contracts.loop import ChangeAuthor, ConfirmationState
from hermes.contracts.mcp import CallToolResult, ToolArguments, ToolReturn, ToolSpec
from hermes.contracts.services import (Approval, Changes, Commands, Configuration, Debugging, Documents, Files, Git,
                                      Language, Paths, Reviews, Search, Tabs, Tasks, Terminals)

# A handler's `args` is its own tool's TypedDict (contracts/tool_args.py, generated from the schema the registry checks
# the arguments against); tests/unit/test_schema_types.py holds each handler to its tool's.
Handler = Callable[[Any, 'ToolCall'], Awaitable[ToolReturn]]
Listener = Callable[[], None]
# __pragma__('noskip')
from hermes.js.errors import error_message, JsError
from hermes.js.json import dump_json
from hermes.core.values import json_type, is_object, has_key, get_key, object_keys, copyable_keys, copy_object
from hermes.core.schema import validate


class ToolError(Exception):
    """Raised by a handler for a failure the model can act on; its message is the whole result."""


class Tool:
    """A declaration plus an `async def handler(args, call)`.

    A default lives in the schema only (`'default': 60` on a top-level property): the registry hands the
    handler the arguments with every absent default filled in, and the property's description gets
    "Default: 60." so the model reads it too. Every other property the schema declares is there too, None when the
    caller left it out (`every_declared`): the handler's `args` is its tool's TypedDict (contracts/tool_args.py).

    The handler returns a str (one text item), a dict that already is a CallToolResult (it has
    'content'), or any other JSON value (JSON text; a dict is also sent as `structuredContent`).
    """

    # `async preview(args, call)` → the text of what the call will run, resolved (a task's command line, a
    # launch configuration, the shell of a terminal profile): the confirmation dialog shows it, since the
    # arguments alone ({"name": "build"}) do not let the user judge. A ToolError from it is the call's answer.
    preview = None  # type: Optional[Any]

    def __init__(self, name: str, description: str, input_schema: 'JsonObject', handler: 'Handler',
                 title: 'Optional[str]' = None, read_only: bool = True, destructive: bool = False,
                 output_schema: 'Optional[JsonObject]' = None, essential: bool = False,
                 client_capabilities: 'Optional[JsonObject]' = None, preview: 'Optional[Any]' = None) -> None:
        if json_type(name) != 'string' or name == '':
            raise ValueError('a tool needs a non-empty string name')
        if not is_object(input_schema):
            raise ValueError("tool '" + name + "': input_schema must be a JSON Schema object")
        if read_only and destructive:
            raise ValueError("tool '" + name + "': a read-only tool cannot be destructive "
                             '(pass read_only=False)')
        self.name = name
        self.description = description
        self.input_schema = with_default_notes(input_schema)
        self.handler = handler
        self.title = title
        self.read_only = read_only
        self.destructive = destructive
        self.output_schema = output_schema
        # Offered to the embedded agent even when its model's context is too small for every tool
        # definition (stock Ollama: 4096 tokens): reading, searching, editing, running.
        self.essential = essential
        # Client capabilities the handler relies on ({'sampling': {}}): a 2026-07-28 request that
        # does not declare them is refused (MissingRequiredClientCapability) before the call.
        self.client_capabilities = client_capabilities
        if preview is not None:  # (an own field only when given: the class's None stands for the others)
            self.preview = preview

    def to_mcp(self) -> 'ToolSpec':
        """The entry for `tools/list`."""
        spec = {'name': self.name}  # type: Any
        annotations = {'readOnlyHint': self.read_only, 'destructiveHint': self.destructive}  # type: Dict[str, Any]
        if self.title is not None:
            spec['title'] = self.title
            annotations['title'] = self.title
        spec['description'] = self.description
        spec['inputSchema'] = self.input_schema
        if self.output_schema is not None:
            spec['outputSchema'] = self.output_schema
        spec['annotations'] = annotations
        return spec


class DeclaredTool(Tool):
    """A tool known at activation by its index entry (tools/index.py, generated from the tool module: name, title and
    the hints the front ends read before any call), its module loaded on first use: the first read of its
    description, schemas, handler or preview calls `load(name)`, which returns the module's `Tool` (tools/catalog.py:
    from the part hermes.tools.every_tool, docs/DEVELOPING.md "Bundle size"). Read through it, it is that Tool."""

    def __init__(self, name: str, title: 'Optional[str]', read_only: bool, destructive: bool, essential: bool,
                 load: 'Callable[[str], Tool]') -> None:
        self.name = name
        self.title = title
        self.read_only = read_only
        self.destructive = destructive
        self.essential = essential
        self._load = load
        self._tool = None  # type: Optional[Tool]

    def loaded(self) -> 'Tool':
        """The module's Tool (its part required the first time)."""
        if self._tool is None:
            self._tool = self._load(self.name)
        return self._tool

    @property
    def description(self) -> str:  # type: ignore[override]
        return self.loaded().description

    @property
    def input_schema(self) -> 'JsonObject':  # type: ignore[override]
        return self.loaded().input_schema

    @property
    def output_schema(self) -> 'Optional[JsonObject]':  # type: ignore[override]
        return self.loaded().output_schema

    @property
    def client_capabilities(self) -> 'Optional[JsonObject]':  # type: ignore[override]
        return self.loaded().client_capabilities

    @property
    def handler(self) -> 'Handler':  # type: ignore[override]
        return self.loaded().handler

    @property
    def preview(self) -> 'Optional[Any]':  # type: ignore[override]
        return self.loaded().preview


class Services:
    """The window's services a handler uses besides its arguments, built once at activation
    (host/services.py `register_services`) and handed to every call by the registry: a handler reads
    `call.services.terminals`, never a module's singleton. Tests build one with the parts they need (real or
    fake); a service it was built without is a ToolError naming it, as in a window where it never started."""

    def __init__(self, terminals: 'Optional[Terminals]' = None, debugging: 'Optional[Debugging]' = None,
                 reviews: 'Optional[Reviews]' = None, language: 'Optional[Language]' = None, tabs: 'Optional[Tabs]' = None,
                 configuration: 'Optional[Configuration]' = None, changes: 'Optional[Any]' = None,
                 git: 'Optional[Git]' = None, paths: 'Optional[Paths]' = None, commands: 'Optional[Commands]' = None,
                 tasks: 'Optional[Tasks]' = None, files: 'Optional[Files]' = None,
                 documents: 'Optional[Documents]' = None, search: 'Optional[Search]' = None,
                 tool_side: 'Optional[Callable[[], Any]]' = None) -> None:
        self._terminals = terminals  # host/terminals.py TerminalService
        self._debugging = debugging  # host/debugging.py DebugService
        self._reviews = reviews  # host/doors/diff_review.py DiffReviews
        self._language = language  # host/language_service.py LanguageService
        self._tabs = tabs  # host/editors.py EditorTabs
        self._configuration = configuration  # host/configuration.py ConfigurationService
        self._changes = changes  # host/changes/log.py ChangeLog
        self._git = git  # host/tool_services.py GitService
        self._paths = paths  # host/tool_services.py PathService
        self._commands = commands  # host/tool_services.py CommandService
        self._tasks = tasks  # host/tool_services.py TaskService
        self._files = files  # host/tool_services.py FileService
        self._documents = documents  # host/tool_services.py DocumentService
        self._search = search  # host/tool_services.py SearchService
        # Or, for the services only tools use (language, tabs, configuration, git to search), a function that builds
        # them, called the first time one is read: an object with those names as attributes (host/services.py, from
        # the part host/tool_services.py ToolServices).
        self._tool_side = tool_side

    def _with_tool_side(self) -> 'Services':
        if self._tool_side is not None:
            built = self._tool_side()
            self._tool_side = None
            self._language = built.language
            self._tabs = built.tabs
            self._configuration = built.configuration
            self._git = built.git
            self._paths = built.paths
            self._commands = built.commands
            self._tasks = built.tasks
            self._files = built.files
            self._documents = built.documents
            self._search = built.search
        return self

    @property
    def terminals(self) -> 'Terminals':
        return _present(self._terminals, 'The terminal service')

    @property
    def debugging(self) -> 'Debugging':
        return _present(self._debugging, 'The debug service')

    @property
    def reviews(self) -> 'Reviews':
        return _present(self._reviews, 'Diff review')

    @property
    def language(self) -> 'Language':
        return _present(self._with_tool_side()._language, 'The language service')

    @property
    def tabs(self) -> 'Tabs':
        return _present(self._with_tool_side()._tabs, 'The editor tab service')

    @property
    def configuration(self) -> 'Configuration':
        return _present(self._with_tool_side()._configuration, 'The settings service')

    @property
    def changes(self) -> 'Changes':
        return _present(self._changes, 'The change log')

    @property
    def git(self) -> 'Git':
        return _present(self._with_tool_side()._git, 'git')

    @property
    def paths(self) -> 'Paths':
        return _present(self._with_tool_side()._paths, 'The workspace path service')

    @property
    def commands(self) -> 'Commands':
        return _present(self._with_tool_side()._commands, "VS Code's commands")

    @property
    def tasks(self) -> 'Tasks':
        return _present(self._with_tool_side()._tasks, 'The task service')

    @property
    def files(self) -> 'Files':
        return _present(self._with_tool_side()._files, 'The file service')

    @property
    def documents(self) -> 'Documents':
        return _present(self._with_tool_side()._documents, 'The document service')

    @property
    def search(self) -> 'Search':
        return _present(self._with_tool_side()._search, 'The search service')

    @property
    def change_log_or_none(self) -> 'Optional[Any]':
        """The change log, or None: writes are recorded where there is one and still happen where there is none."""
        return self._changes


def _present(service: 'Optional[Any]', what: str) -> 'Any':
    if service is None:
        raise ToolError(what + ' is not available: the Hermes extension is not fully active in this window.')
    return service


NO_SERVICES = Services()


NO_GATE = ('needs the user\'s confirmation, but this call came through no confirmation gate (a tool registry '
           'built without one), so it is not done.')

# Where a call stands with the user's consent (ToolCall.confirmation). The gate moves it; front ends listen
# (`on_confirmation`) to show "waiting for your confirmation" — never by reading log text.
NOT_ASKED = 'not_asked'  # type: ConfirmationState
WAITING = 'waiting'  # type: ConfirmationState  # the user is being asked now
CONFIRMED = 'confirmed'  # type: ConfirmationState  # the user said yes to this very call (in our dialog, or in VS Code's own)
DECLINED = 'declined'  # type: ConfirmationState  # no, or the call was cancelled while asking


class ToolCall:
    """What a running handler may do besides computing its result: report progress, log, and
    notice that its caller gave up; where the call stands with the user's consent; and the window's
    services (`services`, set by the registry that runs the call). Front ends decide where progress and
    logs go."""

    def __init__(self, reporter: 'Optional[Callable[[float, Optional[float], Optional[str]], None]]' = None,
                 logger: 'Optional[Callable[[str, str], None]]' = None) -> None:
        self._reporter = reporter
        self._logger = logger
        self._cancelled = False
        self.cancel_reason = None  # type: Optional[str]
        self._cancel_listeners = []  # type: List[Listener]
        self.confirmation = NOT_ASKED  # type: ConfirmationState
        self._confirmation_listeners = []  # type: List[Callable[[ConfirmationState], None]]
        # The approver of the registry that runs this call: handlers that ask again use it (host/approval.py
        # confirm), and refuse what needs asking when there is none.
        self.gate = None  # type: Optional[Approval]
        self.services = NO_SERVICES  # the registry's services (terminals, debugging, diff reviews)
        # Top-level argument names the caller sent that the tool does not declare, left out by the registry
        # (declared_arguments); front ends log them (core/ignored_arguments.py).
        self.ignored = []  # type: List[str]
        # Who makes this call, for the change log (host/changes/log.py author_of): {'client', 'session', 'turn',
        # 'external'?}, set by the front end that builds the call (an MCP session: the client's name from its
        # clientInfo; the chat loop: its sink's change_author()). None: recorded as 'Hermes'.
        self.author = None  # type: Optional[ChangeAuthor]

    @property
    def confirmed(self) -> bool:
        return self.confirmation == CONFIRMED

    def set_confirmation(self, state: 'ConfirmationState') -> None:
        """Move to `state` (one of the constants above) and tell every listener."""
        if state == self.confirmation:
            return
        self.confirmation = state
        for listener in self._confirmation_listeners[:]:
            _call_quietly(lambda: listener(state))

    def on_confirmation(self, listener: 'Callable[[ConfirmationState], None]') -> 'Listener':
        """Call `listener(state)` on every change of `confirmation`; returns a function that unsubscribes."""
        self._confirmation_listeners.append(listener)

        def unsubscribe() -> None:
            self._confirmation_listeners = [item for item in self._confirmation_listeners if item is not listener]
        return unsubscribe

    async def confirm(self, tool_name: str, title: str, arguments: 'JsonObject',
                      key: 'Optional[str]' = None) -> 'Optional[str]':
        """For a tool that is only sometimes destructive (git_command: `git log` runs freely, `git commit` must ask):
        ask the user through the gate this call came through (`gate.confirm`, host/approval.py). None to go ahead,
        or the refusal (raise it as a ToolError). Without a gate nobody could ask, so nothing is done unasked."""
        if self.gate is None:
            return tool_name + ': "' + title + '" ' + NO_GATE
        return await self.gate.confirm(tool_name, title, arguments, self, key)

    def progress(self, progress: float, total: 'Optional[float]' = None, message: 'Optional[str]' = None) -> None:
        if self._reporter is not None and not self._cancelled:
            self._reporter(progress, total, message)

    def log(self, level: str, message: str) -> None:
        if self._logger is not None:
            self._logger(level, message)

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    def cancel(self, reason: 'Optional[str]' = None) -> None:
        if self._cancelled:
            return
        self._cancelled = True
        self.cancel_reason = reason
        listeners = self._cancel_listeners[:]
        self._cancel_listeners = []
        for listener in listeners:
            _call_quietly(listener)

    def on_cancel(self, callback: 'Listener') -> 'Listener':
        """Run `callback` once when the call is cancelled (at once if it already is); returns a
        function that unsubscribes."""
        if self._cancelled:
            _call_quietly(callback)
            return _nothing
        self._cancel_listeners.append(callback)

        def unsubscribe() -> None:
            self._cancel_listeners = [item for item in self._cancel_listeners if item is not callback]
        return unsubscribe


def _nothing() -> None:
    return None


def _call_quietly(callback: 'Listener') -> None:
    """Listeners belong to different owners (tools, sessions): one that throws must neither stop
    the others nor turn a cancel or a registration into a failure."""
    try:
        callback()
    except JsError:
        pass


def text_result(text: str, is_error: bool = False) -> 'CallToolResult':
    return {'content': [{'type': 'text', 'text': text}], 'isError': is_error}


def error_result(text: str) -> 'CallToolResult':
    return text_result(text, True)


def result_text(result: 'Json') -> str:
    """A tool's result as text, the one rendering for the model (the loop's history, VS Code's language-model
    tools) and for people (a conversation's tool card): text items as they are, an image as `[image: <mime>]`, an
    embedded resource as its text (or `[resource: <uri>]`), anything else as JSON. A string is itself."""
    if json_type(result) == 'string':
        return result
    content = get_key(result, 'content', [])
    if json_type(content) != 'array':
        return ''
    parts = []
    for item in content:
        kind = get_key(item, 'type')
        if kind == 'text':
            parts.append(get_key(item, 'text', ''))
        elif kind == 'image':
            parts.append('[image: ' + str(get_key(item, 'mimeType', 'image')) + ']')
        elif kind == 'resource' or kind == 'resource_link':
            resource = get_key(item, 'resource', item)
            text = get_key(resource, 'text')
            parts.append(text if json_type(text) == 'string' else '[resource: ' + str(get_key(resource, 'uri', '')) + ']')
        else:
            parts.append(dump_json(item))
    return '\n'.join(parts)


def marked_error(text: str, is_error: bool) -> str:
    """A failed call's text as the model reads it: starting with 'Error' (the words a model looks for)."""
    return ('Error: ' + text) if is_error and not text.startswith('Error') else text


def to_call_result(value: 'Json') -> 'CallToolResult':
    """Normalise whatever a handler returned into a CallToolResult dict."""
    kind = json_type(value)
    if kind == 'string':
        return text_result(value)
    if kind == 'null':
        return {'content': [], 'isError': False}
    if kind == 'object' and has_key(value, 'content'):
        return _with_is_error(value)
    result = text_result(dump_json(value, 2))
    if kind == 'object':
        result['structuredContent'] = value
    return result


def _with_is_error(value: 'JsonObject') -> 'CallToolResult':
    result = copy_object(value)  # type: Any
    if json_type(get_key(result, 'isError')) != 'boolean':
        result['isError'] = False
    return result


class ToolRegistry:
    """The one list of tools. `tools/list`, the LLM prompt and VS Code's tool registrations are all
    generated from it; `call` is the one place arguments are validated."""

    def __init__(self, approver: 'Optional[Approval]' = None, services: 'Optional[Services]' = None) -> None:
        self._tools = []  # type: List[Tool]
        self._listeners = []  # type: List[Listener]
        # The confirmation gate shared by every front end: `await approver.approve(tool, arguments, call)`
        # returns None to go ahead, or the text of a refusal the model gets as the tool's result.
        self.approver = approver
        # What handlers use besides their arguments (`Services`), handed to every call with the gate.
        self.services = NO_SERVICES if services is None else services

    def add(self, tool: Tool) -> 'Listener':
        """Register `tool`; returns a function that removes it again (a disposable's body)."""
        if self.get(tool.name) is not None:
            raise ValueError("Tool '" + tool.name + "' is already registered")
        self._tools.append(tool)
        self._changed()

        def remove() -> None:
            if self.get(tool.name) is tool:
                self.remove(tool.name)
        return remove

    def remove(self, name: str) -> bool:
        """Unregister the tool called `name`; True when there was one."""
        kept = [tool for tool in self._tools if tool.name != name]
        if len(kept) == len(self._tools):
            return False
        self._tools = kept
        self._changed()
        return True

    def get(self, name: str) -> 'Optional[Tool]':
        for tool in self._tools:
            if tool.name == name:
                return tool
        return None

    def names(self) -> 'List[str]':
        return [tool.name for tool in self._tools]

    def list(self) -> 'List[Tool]':
        """The tools in registration order (a copy: callers may not reorder the registry)."""
        return self._tools[:]

    def on_change(self, listener: 'Listener') -> 'Listener':
        """Call `listener()` after every add and remove; returns a function that unsubscribes."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            self._listeners = [item for item in self._listeners if item is not listener]
        return unsubscribe

    def _changed(self) -> None:
        for listener in self._listeners[:]:
            _call_quietly(listener)

    async def call(self, name: str, arguments: 'Optional[JsonObject]', call: 'Optional[ToolCall]' = None) -> 'CallToolResult':
        """Validate and run one tool call; always returns a CallToolResult, never raises."""
        if call is None:
            call = ToolCall()
        tool = self.get(name) if json_type(name) == 'string' else None
        if tool is None:
            available = ', '.join(self.names()) or '(none)'
            return error_result("Unknown tool '" + str(name) + "'. Available tools: " + available)
        problem = self._argument_problem(tool, arguments)
        if problem is not None:
            return error_result(problem)
        declared = declared_arguments(_or_empty(arguments), tool.input_schema)
        call.ignored = declared[1]
        arguments = with_defaults(declared[0], tool.input_schema)
        call.gate = self.approver
        call.services = self.services
        if self.approver is not None:
            refusal = await self.approver.approve(tool, arguments, call)
            if refusal is not None:
                return error_result(refusal)
        try:
            return to_call_result(await tool.handler(every_declared(arguments, tool.input_schema), call))
        except ToolError as error:
            return error_result(error_message(error) or "Tool '" + name + "' failed")
        except JsError as error:
            return error_result("Tool '" + name + "' failed: " + error_message(error))

    def _argument_problem(self, tool: Tool, arguments: 'Json') -> 'Optional[str]':
        arguments = _or_empty(arguments)
        header = "Invalid arguments for tool '" + tool.name + "':"
        if not is_object(arguments):
            return header + ' expected an object, got ' + json_type(arguments)
        if len(validate(declared_arguments(arguments, tool.input_schema)[0], tool.input_schema)) == 0:
            return None  # valid once the top-level names the tool does not declare are left out
        # A call that fails anyway gets today's whole message, the unexpected names included: they are often
        # the cause (a misspelt `paht` beside a missing `path`).
        return header + '\n' + '\n'.join(validate(arguments, tool.input_schema))


def declared_arguments(arguments: 'JsonObject', schema: 'JsonObject') -> 'List[Any]':
    """[the arguments a tool declares, the top-level names it does not] for a schema that forbids others
    (`additionalProperties: false`). Clients add names of their own: Gemini CLI puts `wait_for_previous` on
    every call that depends on an earlier one. Such a name is left out rather than refused, so the handler
    sees only what its schema declares; nested objects stay strict (they are the tool's own data)."""
    if get_key(schema, 'additionalProperties') is not False:
        return [arguments, []]
    properties = get_key(schema, 'properties', {})
    declared = {}  # type: JsonObject
    for key in copyable_keys(arguments):
        if has_key(properties, key):
            declared[key] = arguments[key]
    ignored = [key for key in object_keys(arguments) if not has_key(declared, key)]  # '__proto__' too
    return [arguments, []] if len(ignored) == 0 else [declared, ignored]


def with_defaults(arguments: 'JsonObject', schema: 'JsonObject') -> 'JsonObject':
    """A copy of `arguments` (a dict or a JS object) with each absent top-level property that declares a
    `default` in `schema` set to it."""
    result = copy_object(arguments)
    properties = get_key(schema, 'properties')
    if not is_object(properties):
        return result
    for key in copyable_keys(properties):
        declared = properties[key]
        if not has_key(result, key) and is_object(declared) and has_key(declared, 'default'):
            result[key] = declared['default']
    return result


def every_declared(arguments: 'JsonObject', schema: 'JsonObject') -> 'JsonObject':
    """A copy of `arguments` with each top-level property of `schema` it lacks set to None: what a handler and a
    preview get, so they read every argument their tool declares by key (contracts/tool_args.py, generated from the
    schema), None where the caller gave none. The gate shows and remembers the call's own arguments."""
    result = copy_object(arguments)
    properties = get_key(schema, 'properties')
    if not is_object(properties):
        return result
    for key in copyable_keys(properties):
        if not has_key(result, key):
            result[key] = None
    return result


def with_default_notes(schema: 'JsonObject') -> 'JsonObject':
    """`schema` with "Default: <value>." after the description of each top-level property that declares a
    default (a copy; shared property schemas stay as they are)."""
    properties = get_key(schema, 'properties')
    if not is_object(properties):
        return schema
    noted = {}
    for key in copyable_keys(properties):
        declared = properties[key]
        noted[key] = declared
        if is_object(declared) and has_key(declared, 'default'):
            copy = copy_object(declared)
            note = 'Default: ' + dump_json(declared['default']) + '.'
            description = get_key(declared, 'description')
            copy['description'] = note if json_type(description) != 'string' else description + ' ' + note
            noted[key] = copy
    result = copy_object(schema)
    result['properties'] = noted
    return result


def _or_empty(arguments: 'Json') -> 'Json':
    """Absent arguments mean no arguments (MCP makes `arguments` optional)."""
    return {} if arguments is None else arguments
