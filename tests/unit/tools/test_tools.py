import asyncio

import pytest

from hermes.core.tools import Tool, ToolCall, ToolError, ToolRegistry, every_declared, to_call_result, with_defaults

PATH_SCHEMA = {'type': 'object', 'properties': {'path': {'type': 'string'}}, 'required': ['path'],
               'additionalProperties': False}


def make_tool(name='read', handler=None, **kwargs):
    async def default_handler(args, call):
        return 'read ' + args['path']
    return Tool(name, 'Read a file', PATH_SCHEMA, handler or default_handler, **kwargs)


def call(registry, name, arguments, tool_call=None):
    return asyncio.run(registry.call(name, arguments, tool_call))


def text_of(result):
    [item] = result['content']
    assert item['type'] == 'text'
    return item['text']


# ---------------------------------------------------------------------------------------- Tool

def test_to_mcp_without_title():
    assert make_tool().to_mcp() == {
        'name': 'read', 'description': 'Read a file', 'inputSchema': PATH_SCHEMA,
        'annotations': {'readOnlyHint': True, 'destructiveHint': False}}


def test_to_mcp_with_title_and_output_schema():
    spec = make_tool(title='Read File', read_only=False, destructive=True, output_schema={'type': 'object'}).to_mcp()
    assert list(spec) == ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations']
    assert spec['title'] == 'Read File'
    assert spec['annotations'] == {'readOnlyHint': False, 'destructiveHint': True, 'title': 'Read File'}


def test_declaration_mistakes_fail_at_construction():
    with pytest.raises(ValueError, match='read-only tool cannot be destructive'):
        make_tool(destructive=True)
    with pytest.raises(ValueError, match='non-empty string name'):
        make_tool(name='')
    with pytest.raises(ValueError, match='input_schema'):
        Tool('x', 'd', None, make_tool().handler)


# ---------------------------------------------------------------------------------------- registry

def test_registry_keeps_registration_order_and_looks_up_by_name():
    registry = ToolRegistry()
    for name in ['b', 'a', 'c']:
        registry.add(make_tool(name))
    assert registry.names() == ['b', 'a', 'c']
    assert [tool.name for tool in registry.list()] == ['b', 'a', 'c']
    assert registry.get('a').name == 'a' and registry.get('zzz') is None
    registry.list().clear()
    assert registry.names() == ['b', 'a', 'c'], 'list() hands out a copy'


def test_add_returns_a_remover_and_duplicates_are_refused():
    registry = ToolRegistry()
    remove = registry.add(make_tool('a'))
    with pytest.raises(ValueError, match="Tool 'a' is already registered"):
        registry.add(make_tool('a'))
    remove()
    assert registry.names() == []
    newer = make_tool('a')
    registry.add(newer)
    remove()  # a stale remover must not take away the tool that replaced its own
    assert registry.get('a') is newer
    assert registry.remove('a') is True and registry.remove('a') is False


def test_on_change_fires_on_add_and_remove_until_unsubscribed():
    registry = ToolRegistry()
    events = []
    unsubscribe = registry.on_change(lambda: events.append(registry.names()))
    registry.add(make_tool('a'))
    registry.remove('a')
    registry.remove('a')  # nothing removed: no event
    unsubscribe()
    registry.add(make_tool('b'))
    assert events == [['a'], []]


def test_a_failing_listener_does_not_stop_the_others():
    registry = ToolRegistry()
    seen = []
    registry.on_change(lambda: 1 / 0)
    registry.on_change(lambda: seen.append('second'))
    registry.add(make_tool())
    assert seen == ['second']


def test_call_runs_the_handler_with_arguments_and_context():
    registry = ToolRegistry()
    received = []

    async def handler(args, context):
        received.append((args, context))
        return 'ok'
    registry.add(make_tool(handler=handler))
    context = ToolCall()
    assert call(registry, 'read', {'path': 'x'}, context) == {
        'content': [{'type': 'text', 'text': 'ok'}], 'isError': False}
    assert received == [({'path': 'x'}, context)]


def test_unknown_tool_lists_the_available_ones():
    registry = ToolRegistry()
    assert text_of(call(registry, 'x', {})) == "Unknown tool 'x'. Available tools: (none)"
    for name in ['a', 'b', 'c']:
        registry.add(make_tool(name))
    result = call(registry, 'x', {})
    assert result['isError'] is True
    assert text_of(result) == "Unknown tool 'x'. Available tools: a, b, c"


def test_arguments_must_be_an_object():
    registry = ToolRegistry()
    registry.add(make_tool())
    result = call(registry, 'read', ['x'])
    assert result['isError'] is True
    assert text_of(result) == "Invalid arguments for tool 'read': expected an object, got array"


def test_schema_violations_are_listed_one_per_line():
    registry = ToolRegistry()
    registry.add(make_tool())
    result = call(registry, 'read', {'path': 3, 'extra': 1})
    assert result['isError'] is True
    assert text_of(result) == ("Invalid arguments for tool 'read':\n"
                               'arguments.path: expected string, got number\n'
                               "arguments: unexpected property 'extra' (allowed: path)")


def test_absent_arguments_count_as_an_empty_object():
    registry = ToolRegistry()
    registry.add(make_tool())
    assert text_of(call(registry, 'read', None)) == (
        "Invalid arguments for tool 'read':\narguments: missing required property 'path'")


def test_tool_error_message_is_the_result():
    async def handler(args, context):
        raise ToolError('File not found: x. Use list_files to see what exists.')
    registry = ToolRegistry()
    registry.add(make_tool(handler=handler))
    result = call(registry, 'read', {'path': 'x'})
    assert result == {'content': [{'type': 'text', 'text': 'File not found: x. Use list_files to see what exists.'}],
                      'isError': True}


def test_any_other_exception_becomes_a_failed_result():
    async def handler(args, context):
        raise RuntimeError('disk on fire')
    registry = ToolRegistry()
    registry.add(make_tool(handler=handler))
    assert call(registry, 'read', {'path': 'x'}) == {
        'content': [{'type': 'text', 'text': "Tool 'read' failed: disk on fire"}], 'isError': True}


# ---------------------------------------------------------------------------------------- results

def test_handler_return_values_become_call_results():
    assert to_call_result('hi') == {'content': [{'type': 'text', 'text': 'hi'}], 'isError': False}
    assert to_call_result({'files': ['a'], 'count': 1}) == {
        'content': [{'type': 'text', 'text': '{\n  "files": [\n    "a"\n  ],\n  "count": 1\n}'}],
        'isError': False, 'structuredContent': {'files': ['a'], 'count': 1}}
    assert to_call_result([1, 2]) == {'content': [{'type': 'text', 'text': '[\n  1,\n  2\n]'}], 'isError': False}
    assert to_call_result(None) == {'content': [], 'isError': False}


def test_a_call_tool_result_passes_through_with_is_error_filled_in():
    image = {'content': [{'type': 'image', 'data': 'AAA', 'mimeType': 'image/png'}]}
    assert to_call_result(image) == {'content': image['content'], 'isError': False}
    assert 'isError' not in image, 'the handler’s dict is not modified'
    failed = {'content': [], 'isError': True}
    assert to_call_result(failed) == failed


# ---------------------------------------------------------------------------------------- ToolCall

def test_progress_goes_to_the_reporter_and_is_a_no_op_without_one():
    reports = []
    context = ToolCall(lambda progress, total, message: reports.append((progress, total, message)))
    context.progress(1)
    context.progress(2, 4, 'half')
    assert reports == [(1, None, None), (2, 4, 'half')]
    ToolCall().progress(1, 2, 'nobody listens')
    context.cancel()
    context.progress(3, 4)
    assert len(reports) == 2, 'no progress after the caller gave up'


def test_log_goes_to_the_logger():
    lines = []
    ToolCall(None, lambda level, message: lines.append((level, message))).log('info', 'hello')
    ToolCall().log('info', 'nobody listens')
    assert lines == [('info', 'hello')]


def test_cancel_fires_listeners_once_and_late_listeners_at_once():
    context = ToolCall()
    fired = []
    context.on_cancel(lambda: fired.append('first'))
    unsubscribe = context.on_cancel(lambda: fired.append('unsubscribed'))
    context.on_cancel(lambda: 1 / 0)
    context.on_cancel(lambda: fired.append('after a failing one'))
    unsubscribe()
    assert context.cancelled is False
    context.cancel('user pressed stop')
    context.cancel()
    assert context.cancelled is True and context.cancel_reason == 'user pressed stop'
    assert fired == ['first', 'after a failing one']
    context.on_cancel(lambda: fired.append('late'))()
    assert fired[-1] == 'late'


def test_a_handler_can_stop_when_cancelled():
    async def scenario():
        async def handler(args, context):
            stopped = asyncio.get_running_loop().create_future()
            context.on_cancel(lambda: stopped.set_result('stopped early'))
            return await stopped
        registry = ToolRegistry()
        registry.add(make_tool(handler=handler))
        context = ToolCall()
        running = asyncio.ensure_future(registry.call('read', {'path': 'x'}, context))
        await asyncio.sleep(0)
        context.cancel()
        return await running
    assert text_of(asyncio.run(scenario())) == 'stopped early'


def test_a_default_lives_in_the_schema_the_handler_gets_it_and_the_model_reads_it():
    seen = []

    async def handler(args, call):
        seen.append(args)
        return 'ok'
    schema = {'type': 'object', 'properties': {
        'timeout_seconds': {'type': 'integer', 'default': 60, 'description': 'How long to wait.'},
        'name': {'type': 'string', 'default': 'Hermes'},
        'path': {'type': 'string', 'description': 'A path.'}}}
    registry = ToolRegistry()
    registry.add(Tool('waits', 'Waits.', schema, handler))
    given = {'path': 'a'}
    asyncio.run(registry.call('waits', given))
    asyncio.run(registry.call('waits', {'timeout_seconds': 5}))
    assert seen == [{'path': 'a', 'timeout_seconds': 60, 'name': 'Hermes'},
                    {'timeout_seconds': 5, 'name': 'Hermes', 'path': None}]  # every declared argument, None if left out
    assert given == {'path': 'a'}  # the caller's arguments are not changed
    properties = registry.get('waits').to_mcp()['inputSchema']['properties']
    assert properties['timeout_seconds']['description'] == 'How long to wait. Default: 60.'
    assert properties['name']['description'] == 'Default: "Hermes".'
    assert properties['path'] == {'type': 'string', 'description': 'A path.'}
    assert schema['properties']['timeout_seconds']['description'] == 'How long to wait.'  # declarations stay as written


def test_defaults_fill_absent_arguments_and_a_proto_key_is_dropped():
    # In JS, `copy['__proto__'] = value` sets the copy's prototype: the handler would read the caller's
    # unvalidated values through subscripts ({"__proto__": {"path": "/etc/passwd"}} had args['path']).
    schema = {'type': 'object', 'properties': {'path': {'type': 'string'}, 'wait': {'type': 'boolean', 'default': True}}}
    assert with_defaults({'path': 'a'}, schema) == {'path': 'a', 'wait': True}
    assert with_defaults({'__proto__': {'path': '/etc/passwd'}}, schema) == {'wait': True}


def test_every_declared_argument_is_there_none_when_left_out_and_a_proto_key_is_dropped():
    schema = {'type': 'object', 'properties': {'path': {'type': 'string'}, 'line': {'type': 'integer'},
                                               '__proto__': {'type': 'object'}}}
    given = {'path': 'a', 'extra': 1}
    assert every_declared(given, schema) == {'path': 'a', 'extra': 1, 'line': None}
    assert given == {'path': 'a', 'extra': 1}  # a copy
    assert every_declared({'__proto__': {'line': 7}}, schema) == {'path': None, 'line': None}
    assert every_declared({'path': 'a'}, {'type': 'object'}) == {'path': 'a'}


# ------------------------------------------------------------------------------------------ tools declared at activation

def test_a_declared_tool_loads_its_module_only_when_more_than_its_index_entry_is_read():
    from hermes.core.tools import DeclaredTool
    from hermes.tools import file_read
    loads = []

    def load(name):
        loads.append(name)
        return file_read.TOOL
    tool = DeclaredTool('file_read', 'Read file', True, False, True, load)
    assert (tool.name, tool.title, tool.read_only, tool.destructive, tool.essential) == (
        'file_read', 'Read file', True, False, True)
    assert loads == []  # what the front ends read at activation (titles, hints) needs no module
    assert tool.to_mcp() == file_read.TOOL.to_mcp()
    assert tool.handler is file_read.TOOL.handler and tool.preview is None
    assert loads == ['file_read']  # once: the module's Tool is kept


def test_the_registry_offers_each_tool_modules_spec_in_the_modules_order():
    from hermes.tools.catalog import build_registry
    from hermes.tools.every_tool import TOOL_MODULES
    registry = build_registry()
    assert [tool.to_mcp() for tool in registry.list()] == [module.TOOL.to_mcp() for module in TOOL_MODULES]
    assert [(tool.essential, tool.client_capabilities, tool.output_schema) for tool in registry.list()] == [
        (module.TOOL.essential, module.TOOL.client_capabilities, module.TOOL.output_schema) for module in TOOL_MODULES]


def test_the_host_side_of_the_tools_is_built_on_first_read_once():
    from hermes.core.tools import Services
    built = []

    class Side:
        language, tabs, configuration = 'l', 'tabs', 'conf'
        git, paths, commands, tasks, files, documents, search = 'g', 'p', 'c', 't', 'f', 'd', 's'

    def tool_side():
        built.append(1)
        return Side()
    services = Services(None, None, None, None, None, None, None, None, None, None, None, None, None, None, tool_side)
    assert built == []
    assert [services.git, services.paths, services.commands, services.tasks, services.files, services.documents,
            services.search, services.language, services.tabs, services.configuration] == [
        'g', 'p', 'c', 't', 'f', 'd', 's', 'l', 'tabs', 'conf']
    assert built == [1]
