"""Debug tools against the shim's debug API: sessions answer DAP requests from handler tables and
send events through the trackers Hermes registered, like a debug adapter does."""
import asyncio

import pytest
import vscode
from hermes.core.tools import ToolCall, Services
from hermes.host.debugging import register_debugging
from hermes.tools.catalog import build_registry
from shim_services import shim_services
from hermes.host.tool_services import PathService

APP = 'function compute(items) {\n  let total = 0;\n  for (const item of items) {\n    total += item;\n  }\n  return total;\n}\nconsole.log(compute([1, 2, 3]));\n'


@pytest.fixture
def workspace(context, tmp_path):
    (tmp_path / 'app.js').write_text(APP)
    vscode.workspace.open_folders([str(tmp_path)])
    vscode.workspace.settings['launch.configurations'] = [
        {'name': 'Run app', 'type': 'node', 'request': 'launch', 'program': '${workspaceFolder}/app.js'}]
    return tmp_path


@pytest.fixture
def tools(workspace, context):
    """Every tool, with the window's debug service (tracking sessions from now on) in its calls."""
    return build_registry(None, shim_services(debugging=register_debugging(context)))


def adapter(path, line=4):
    """DAP answers for a program paused in compute() at `line`; evaluate and stepping included."""
    state = {'line': line}
    handlers = {
        'threads': lambda args: {'threads': [{'id': 1, 'name': 'Main Thread'}]},
        'stackTrace': lambda args: {'stackFrames': [
            {'id': 10, 'name': 'compute', 'source': {'path': str(path), 'name': 'app.js'}, 'line': state['line'], 'column': 5},
            {'id': 11, 'name': '<anonymous>', 'source': {'path': 'vscode-remote://127.0.0.1:8080' + str(path)}, 'line': 8,
             'column': 13},  # what code-server's JavaScript debugger reports
            {'id': 12, 'name': 'Module._compile', 'source': {'name': 'node:internal/modules/cjs/loader'}, 'line': 1554,
             'column': 14}][:args.get('levels', 20)], 'totalFrames': 3},
        'scopes': lambda args: {'scopes': [{'name': 'Local', 'variablesReference': 100, 'expensive': False},
                                           {'name': 'Global', 'variablesReference': 200, 'expensive': True}]},
        'variables': lambda args: {
            100: {'variables': [{'name': 'total', 'value': '3', 'type': 'number', 'variablesReference': 0},
                                {'name': 'items', 'value': 'Array(3)', 'type': 'object', 'variablesReference': 101}]},
            101: {'variables': [{'name': '0', 'value': '1', 'type': 'number', 'variablesReference': 0},
                                {'name': 'length', 'value': '3', 'type': 'number', 'variablesReference': 0}]},
            200: {'variables': [{'name': 'process', 'value': 'process {…}', 'variablesReference': 0}]},
        }[args['variablesReference']],
        'evaluate': lambda args: {'result': '6' if args['expression'] == 'total * 2' else 'ReferenceError',
                                  'type': 'number', 'variablesReference': 0},
        'continue': lambda args: {'allThreadsContinued': True},
        'next': lambda args: {},
    }
    return state, handlers


def launch_with_child(path, stop_line=4):
    """What the JavaScript debugger does: a parent session, then a child that runs the program and stops."""
    state, handlers = adapter(path, stop_line)

    def launcher(folder, config):
        parent = vscode.debug.add_session(vscode.DebugSession(config['name'], 'pwa-node', config))
        child = vscode.DebugSession('app.js [1234]', 'pwa-node', config, parent=parent, handlers=handlers)

        def start_child():
            vscode.debug.add_session(child)
            child.send_event('stopped', {'reason': 'breakpoint', 'threadId': 1})
        asyncio.get_running_loop().call_later(0.05, start_child)
        return [parent]
    vscode.debug.launcher = launcher
    return state


def run(registry, steps):
    async def scenario():
        results = []
        for name, arguments in steps:
            results.append(await registry.call(name, arguments, ToolCall()))
        return results
    return asyncio.run(scenario())


def text(result):
    return result['content'][0]['text']


def test_set_breakpoints_replace_add_condition_and_clear(workspace, tools):
    first, added, cleared = run(tools, [
        ('debug_set_breakpoints', {'path': 'app.js', 'lines': [2, 4]}),
        ('debug_set_breakpoints', {'path': 'app.js', 'lines': [6], 'condition': 'total > 3', 'replace': False}),
        ('debug_set_breakpoints', {'path': 'app.js', 'lines': []}),
    ])
    assert text(first).startswith('Breakpoints in app.js at line 2, 4.')
    assert first['structuredContent']['breakpoints'] == [{'line': 2, 'enabled': True}, {'line': 4, 'enabled': True}]
    assert text(added).startswith('Breakpoints in app.js at line 2, 4, 6 if total > 3.')
    assert text(cleared) == 'No breakpoints left in app.js.'
    assert vscode.debug.breakpoints == []


def test_set_breakpoints_errors(workspace, tools):
    past_end, outside, missing, bad = run(tools, [
        ('debug_set_breakpoints', {'path': 'app.js', 'lines': [99]}),
        ('debug_set_breakpoints', {'path': '../x.js', 'lines': [1]}),
        ('debug_set_breakpoints', {'path': 'nope.js', 'lines': [1]}),
        ('debug_set_breakpoints', {'path': 'app.js', 'lines': [0]}),
    ])
    assert text(past_end) == 'Line 99 is past the end of app.js (8 lines).'
    assert 'outside the workspace' in text(outside)
    assert text(missing).startswith('Cannot read "nope.js"')
    assert bad['isError'] and text(bad).startswith("Invalid arguments for tool 'debug_set_breakpoints'")


def test_start_waits_for_the_child_session_to_stop_and_reports_where(workspace, tools):
    launch_with_child(workspace / 'app.js')
    [result] = run(tools, [('debug_start', {'name': 'Run app'})])
    assert result['isError'] is False
    assert text(result) == ('Started "Run app". Paused (breakpoint) in "app.js [1234]" at #0 compute  app.js:4\n'
                            '    4 | total += item;')
    sessions = result['structuredContent']['sessions']
    assert [(s['name'], s['state']) for s in sessions] == [('Run app', 'running'), ('app.js [1234]', 'paused')]
    assert sessions[1]['parent'] == 'Run app'


def test_start_errors(workspace, tools):
    unknown, both, refused = run(tools, [
        ('debug_start', {'name': 'Nope'}),
        ('debug_start', {'name': 'Run app', 'configuration': {'type': 'node', 'request': 'launch'}}),
        ('debug_stop', {}),
    ])
    assert text(unknown) == ('No launch configuration "Nope" in launch.json. Available: "Run app". Or pass an inline '
                             '"configuration".')
    assert text(both).startswith('Give exactly one of "name"')
    assert text(refused) == 'No debug session is running.'


def test_inline_configuration_that_runs_to_the_end(workspace, tools):
    def launcher(folder, config):
        session = vscode.debug.add_session(vscode.DebugSession(config['name'], 'node', config))
        asyncio.get_running_loop().call_later(0.02, vscode.debug.end_session, session)
        return [session]
    vscode.debug.launcher = launcher
    [result] = run(tools, [('debug_start', {'configuration': {'type': 'node', 'request': 'launch',
                                                                         'program': 'app.js'}})])
    assert text(result) == 'Started "Hermes: node"; it ran to the end without stopping (no breakpoint hit).'
    assert vscode.debug.started[0][1] == {'type': 'node', 'request': 'launch', 'program': 'app.js', 'name': 'Hermes: node'}


def test_variables_of_the_paused_frame(workspace, tools):
    launch_with_child(workspace / 'app.js')
    _, result, global_scope = run(tools, [('debug_start', {'name': 'Run app'}),
                                                     ('debug_get_variables', {}),
                                                     ('debug_get_variables', {'scope': 'Global', 'depth': 0})])
    assert text(result) == '\n'.join([
        'Session "app.js [1234]" paused (breakpoint), thread 1.',
        'Stack (3 of 3 frames):',
        '  #0 compute  app.js:4',
        '  #1 <anonymous>  app.js:8',
        '  #2 Module._compile  node:internal/modules/cjs/loader:1554',
        '',
        'Variables of frame #0 (compute):',
        'Local:',
        '  total = 3 (number)',
        '  items = Array(3) (object)',
        '    0 = 1 (number)',
        '    length = 3 (number)',
        'Global: (not expanded; pass scope="Global" to see it)'])
    scopes = result['structuredContent']['scopes']
    assert scopes[0]['variables'][0] == {'name': 'total', 'value': '3', 'type': 'number'}
    assert 'process = process {…}' in text(global_scope) and 'Local: (not expanded' in text(global_scope)


def test_evaluate_in_the_paused_frame(workspace, tools):
    launch_with_child(workspace / 'app.js')
    _, result = run(tools, [('debug_start', {'name': 'Run app'}),
                                       ('debug_evaluate', {'expression': 'total * 2'})])
    assert text(result) == '6  (number)\n— evaluated in frame #0 (compute) in "app.js [1234]"'
    child = vscode.debug.sessions[1]
    assert ('evaluate', {'expression': 'total * 2', 'context': 'repl', 'frameId': 10}) in child.requests


def test_step_waits_for_the_next_stop(workspace, tools):
    state = launch_with_child(workspace / 'app.js')
    child_holder = {}

    def next_handler(args):
        child = child_holder['child']
        state['line'] = 5
        asyncio.get_running_loop().call_later(0.02, child.send_event, 'stopped', {'reason': 'step', 'threadId': 1})
        return {}

    async def scenario():
        await tools.call('debug_start', {'name': 'Run app'}, ToolCall())
        child = vscode.debug.sessions[1]
        child_holder['child'] = child
        child.handlers['next'] = next_handler
        return await tools.call('debug_step', {'kind': 'over'}, ToolCall())
    result = asyncio.run(scenario())
    assert text(result) == 'Stepped over. Paused (step) in "app.js [1234]" at #0 compute  app.js:5\n    5 | }'
    assert ('next', {'threadId': 1}) in child_holder['child'].requests


def test_continue_to_the_end_then_stop(workspace, tools):
    launch_with_child(workspace / 'app.js')

    async def scenario():
        await tools.call('debug_start', {'name': 'Run app'}, ToolCall())
        child = vscode.debug.sessions[1]
        child.handlers['continue'] = lambda args: asyncio.get_running_loop().call_later(
            0.02, vscode.debug.end_session, child.parentSession) and {}
        continued = await tools.call('debug_continue', {}, ToolCall())
        again = await tools.call('debug_get_variables', {}, ToolCall())
        return continued, again
    continued, again = asyncio.run(scenario())
    assert text(continued) == 'Continued. Debug session "app.js [1234]" has ended.'
    assert again['isError'] and text(again) == 'No debug session is running. Start one with debug_start.'


def test_stop_ends_the_session_tree(workspace, tools):
    launch_with_child(workspace / 'app.js')
    _, stopped = run(tools, [('debug_start', {'name': 'Run app'}), ('debug_stop', {'session': 'app.js [1234]'})])
    assert text(stopped) == 'Stopped "Run app", "app.js [1234]".'
    assert vscode.debug.sessions == []


def test_tools_that_need_a_paused_session(workspace, tools):
    def launcher(folder, config):
        return [vscode.debug.add_session(vscode.DebugSession(config['name'], 'node', config))]
    vscode.debug.launcher = launcher
    started, variables, stepped = run(tools, [
        ('debug_start', {'name': 'Run app', 'timeout_seconds': 1}),
        ('debug_get_variables', {}),
        ('debug_step', {'kind': 'into'}),
    ])
    assert text(started).startswith('Started "Run app"; it is running (no breakpoint hit within 1 s).')
    assert text(variables).startswith('Debug session "Run app" is running, not paused')
    assert stepped['isError'] is True


def test_debug_start_is_destructive():
    registry = build_registry()
    assert registry.get('debug_start').destructive is True
    assert registry.get('debug_get_variables').read_only is True
