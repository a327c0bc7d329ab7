"""One agent run against an endpoint under CPython, reported as the same JSON events that
tests/node/llm_turn.js prints for the transpiled loop — so one set of assertions checks both."""
import asyncio
import json
import time
import urllib.request
from urllib.parse import urlsplit

import hermes.js.fetch_cpython as cpython
from hermes.core.agent_loop import AgentLoop
from hermes.core.cancellation import Cancellation
from hermes.core.tools import Tool, ToolRegistry, ToolError
from hermes.net.llm_client import LlmClient

from llm_server.cpython_fetch import fetch
from llm_server.server import PROGRESS_PATH

TEST_CLIENT_OPTIONS = {'retry_base_ms': 50, 'max_retries': 2, 'connect_timeout_ms': 60000, 'idle_timeout_ms': 60000}  # generous: a busy machine is slow, not broken
OBJECT = {'type': 'object', 'properties': {}}


class DenyDestructive:
    """The confirmation gate, as a test: destructive tools are declined."""

    async def approve(self, tool, arguments, call):
        return ('The user declined to run ' + tool.name + '.') if tool.destructive else None


def make_registry():
    registry = ToolRegistry(DenyDestructive())

    async def echo(args, call):
        return args['text']

    async def add(args, call):
        return {'sum': args['a'] + args['b']}

    async def wait(args, call):  # ignores cancel on purpose: the loop must not wait for it
        await asyncio.sleep(20)
        return 'waited'

    async def fail(args, call):
        raise ToolError('It failed on purpose.')

    async def dangerous(args, call):
        return 'deleted ' + args['path']

    registry.add(Tool('echo', 'Echo the text back.', {'type': 'object', 'properties': {'text': {'type': 'string'}},
                                                       'required': ['text']}, echo))
    registry.add(Tool('add', 'Add two integers.', {'type': 'object', 'properties': {
        'a': {'type': 'integer'}, 'b': {'type': 'integer'}}, 'required': ['a', 'b']}, add))
    registry.add(Tool('wait', 'Wait a long time.', OBJECT, wait))
    registry.add(Tool('fail', 'Always fails.', OBJECT, fail))
    registry.add(Tool('dangerous', 'Delete a file.', {'type': 'object', 'properties': {'path': {'type': 'string'}}},
                      dangerous, read_only=False, destructive=True))
    return registry


def result_text(result):
    return '\n'.join(item.get('text', '') for item in result.get('content', []))


# A scenario's `cancel_when` names what must have happened before the test cancels the run: counts of the
# loop's own events (texts, tool_calls) or of what the scripted server has seen (requests_received,
# replies_sent). A condition, not a delay: a loaded machine cannot make it fire too early or too late.
EVENT_COUNTS = {'texts': 'text', 'tool_calls': 'tool_call'}


def cancel_due(condition, events, progress=None):
    for key, wanted in condition.items():
        if key in EVENT_COUNTS:
            if sum(1 for e in events if e['event'] == EVENT_COUNTS[key]) < wanted:
                return False
        elif progress is None or progress[key] < wanted:
            return False
    return True


async def cancel_when(condition, cancel, interval=0.005):
    """Call `cancel()` as soon as `condition()` holds (checked every few milliseconds): a test cancels on what
    has happened, never after a delay a loaded machine could outrun."""
    while not condition():
        await asyncio.sleep(interval)
    cancel()


def server_progress(endpoint):
    parts = urlsplit(endpoint)
    with urllib.request.urlopen(f'{parts.scheme}://{parts.netloc}{PROGRESS_PATH}', timeout=60) as response:
        return json.loads(response.read())


class RecordingSink:
    def __init__(self):
        self.events = []
        self.after_event = lambda: None

    def _add(self, event):
        self.events.append(event)
        self.after_event()

    def on_iteration(self, number):
        self._add({'event': 'iteration', 'number': number})

    def on_text(self, text):
        self._add({'event': 'text', 'text': text})

    def on_tool_call(self, call):
        self._add({'event': 'tool_call', 'id': call['id'], 'name': call['name'],
                            'arguments': call['arguments']})

    def on_tool_result(self, call, result):
        self._add({'event': 'tool_result', 'id': call['id'], 'isError': result['isError'],
                            'text': result_text(result)})

    def on_notice(self, message):
        self._add({'event': 'notice', 'message': message})

    def on_error(self, error):
        self._add({'event': 'error', 'message': str(error), 'kind': error.kind})

    def on_done(self, outcome):
        self._add({'event': 'done', 'outcome': dict(outcome)})


async def run_turn(endpoint, run):
    cpython.FETCH = fetch
    options = dict(TEST_CLIENT_OPTIONS, **run.get('client', {}))
    client = LlmClient(endpoint, run.get('api_key'), run.get('extra_headers'), options)
    loop = AgentLoop(client, make_registry(), {'model': run.get('model', 'qwen2.5:7b'),
                                               'tool_calling': run.get('tool_calling', 'auto'),
                                               'max_iterations': run.get('max_iterations', 10)})
    history = [{'role': 'user', 'content': run['prompt']}]
    sink = RecordingSink()
    cancellation = Cancellation()
    cancelled_at = {}

    def cancel():
        if 't' not in cancelled_at:
            cancelled_at['t'] = time.perf_counter()
            cancellation.cancel('test')

    condition = run.get('cancel_when')
    watcher = None
    if condition:
        # After the event is handled (the next turn of the event loop): a cancel that lands while the loop
        # is inside what the event announced, e.g. a running tool.
        sink.after_event = lambda: cancel_due(condition, sink.events) and asyncio.get_running_loop().call_soon(cancel)
        if any(key not in EVENT_COUNTS for key in condition):
            async def watch_server():
                while not cancel_due(condition, sink.events, await asyncio.to_thread(server_progress, endpoint)):
                    await asyncio.sleep(0.01)
                cancel()
            watcher = asyncio.create_task(watch_server())
    started = time.perf_counter()
    await loop.run(history, sink, cancellation)
    ended = time.perf_counter()
    if watcher is not None:
        watcher.cancel()
    sink.events.append({'event': 'finished', 'history': history, 'elapsed_ms': (ended - started) * 1000,
                        'cancel_to_done_ms': (ended - cancelled_at['t']) * 1000 if 't' in cancelled_at else None})
    return sink.events


def run_turn_sync(endpoint, run):
    return asyncio.run(run_turn(endpoint, run))
