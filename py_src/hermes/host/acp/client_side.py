"""What an ACP agent may ask of this window (the `client_side` net/acp/agent.py hands the agent's requests to):
permission questions, files and terminals — each through the parts the tools use, so an agent gets exactly the
confinement and consent an MCP client gets.

- `session/request_permission` goes to the prompter the front end set for that session
  (`set_permission_prompter(session_id, async fn(params) → outcome)`); with none, the answer is 'cancelled'.
- `elicitation/create` (a question: a form, or a URL to open; read and checked by net/acp/agent.py with
  core/acp/elicitation.py) goes to the session's question prompter (`set_question_prompter(session_id,
  async fn(question) → result)`); with none, the answer is `{"action": "cancel"}`.
- `fs/read_text_file`: the editor's text when the file is open (unsaved changes included), else the disk;
  confined to the workspace (host/paths.py resolve_path); `line` (1-based) and `limit` select lines.
- `fs/write_text_file`: the `file_write` tool through the window's registry — its gate (the same dialog, the same
  "Allow for This Session"), confinement, the editor's undo, and the change log: every write lands in
  host/files.py write_text with the text before and after, authored as the agent's session.
- `terminal/*`: a VS Code terminal per command (host/terminals.py TerminalService, shell integration), asked
  about first as `terminal_run` is; output, wait, kill (Ctrl+C), release (the terminal closes).
- One consent per action (core/acp/consent.py): a write or command the user has just allowed in the agent's own
  permission question — exactly that text at that path, or exactly that command line — is not asked about again.
- Hermes Agent's observe mode (its main branch's plan_gate.py; `set_observing(session_id, fn() → bool)`, which the
  service sets for a turn from the session's mode, core/acp/options.py `observing`): the agent proposes edits for the
  user's review and must run no command, as its gate promises "atop the client's auto-deny". So a write is captured
  without a question — through the same `file_write` (confinement, Restricted Mode, the editor's undo) into the change
  log as the session's pending change, which the review keeps or undoes — and `terminal/create` is refused at once.
"""
# __pragma__('tconv')
from hermes.core.acp.protocol import RequestError, INTERNAL_ERROR, INVALID_PARAMS, RESOURCE_NOT_FOUND
from hermes.core.acp.consent import Consents, allowed_actions, chosen_allows
from hermes.core.acp.elicitation import cancelled as cancelled_question
from hermes.core.git_args import quote_args
from hermes.core.tools import CONFIRMED, ToolCall, ToolError, result_text
from hermes.core.values import get_key, json_type
from hermes.js.clock import now_ms
from hermes.js.errors import JsError, error_message
from hermes.js.promises import deferred
from hermes.host.documents import open_document_for
from hermes.host.files import read_text
from hermes.host.paths import folder_paths, resolve_path
# __pragma__('skip')
from typing import Callable, Dict, List, Optional, TypedDict
from hermes.contracts.acp import ObservingCheck, PermissionPrompter, QuestionPrompter
from hermes.contracts.json import Json, JsonObject
from hermes.contracts.loop import ChangeAuthor
from hermes.core.tools import ToolRegistry
from hermes.host.log import Log
from hermes.host.terminals import Execution, TerminalRecord, TerminalService


class RunningTerminal(TypedDict):
    record: TerminalRecord
    entry: Execution
    limit: int  # the bytes of output terminal/output returns at most
# __pragma__('noskip')

OBSERVE_REFUSAL = ('Observe mode: this window runs no command for the agent (it may read the workspace and '
                   'propose edits, which the user reviews).')
# How long a new terminal's shell may take to report shell integration before terminal/create gives up.
INTEGRATION_WAIT_MS = 10000
DEFAULT_OUTPUT_LIMIT = 1048576


def _text_param(params: 'Json', key: str) -> str:
    value = get_key(params, key)
    if json_type(value) != 'string':
        raise RequestError(INVALID_PARAMS, 'Invalid params: "' + key + '" must be a string')
    return value


def _confined(path_text: str) -> str:
    """The absolute path of an agent's path argument, confined as a tool's would be."""
    try:
        return resolve_path(path_text)
    except ToolError as error:
        raise RequestError(INVALID_PARAMS, error_message(error))


def _default_folder() -> 'Optional[str]':
    """Where a terminal without a cwd starts: the first workspace folder (None in a window without one)."""
    folders = folder_paths()
    return folders[0] if len(folders) > 0 else None


def select_lines(text: str, line: 'Optional[int]', limit: 'Optional[int]') -> str:
    """The lines of `text` from `line` (1-based; None: the first) and at most `limit` of them (None: all),
    each with its line ending, as ACP's fs/read_text_file defines them."""
    if line is None and limit is None:
        return text
    rows = text.split('\n')
    ends_with_newline = text.endswith('\n')
    if ends_with_newline:
        rows.pop()
    start = 0 if line is None else max(line - 1, 0)
    end = len(rows) if limit is None else min(start + max(limit, 0), len(rows))
    chosen = rows[start:end]
    joined = '\n'.join(chosen)
    if len(chosen) > 0 and (end < len(rows) or ends_with_newline):
        joined = joined + '\n'
    return joined


def command_line(command: str, args: 'List[str]', env: 'Json') -> str:
    """What terminal/create runs, as a shell line: `NAME=value … command args…`, each part quoted where needed."""
    words = []  # type: List[str]
    if json_type(env) == 'array':
        for variable in env:
            name = get_key(variable, 'name')
            value = get_key(variable, 'value')
            if json_type(name) == 'string' and json_type(value) == 'string':
                words.append(quote_args([name + '=' + value]))
    parts = [command]
    parts.extend(args)
    words.append(quote_args(parts))
    return ' '.join(words)


class AcpClientSide:
    """One per window, shared by every agent. `registry`: the window's ToolRegistry (its gate, services and change
    log); `terminals`: the TerminalService; `clock`: ms now (how long a consent lasts)."""

    def __init__(self, registry: 'ToolRegistry', terminals: 'TerminalService', log: 'Optional[Log]' = None,
                 clock: 'Callable[[], float]' = now_ms) -> None:
        self.registry = registry
        self.terminals = terminals
        self.log = log
        self.clock = clock
        self.consents = Consents()  # what the user allowed in an agent's question, until it is carried out
        self.prompters = {}  # type: Dict[str, PermissionPrompter]  # 's:' + session id → async fn(params) → outcome
        self.questioners = {}  # type: Dict[str, QuestionPrompter]  # 's:' + session id → async fn(question) → elicitation result
        self.authors = {}  # type: Dict[str, ChangeAuthor]  # 's:' + session id → the change log's author of the session's writes
        self.observing = {}  # type: Dict[str, ObservingCheck]  # 's:' + session id → fn() → whether the session is in Hermes Agent's observe mode
        self.running = {}  # type: Dict[str, RunningTerminal]  # 't:' + terminal id → {'record', 'entry', 'limit'}
        self.next_terminal = 1

    # -- permissions ---------------------------------------------------------------------------------------

    def set_permission_prompter(self, session_id: str, prompter: 'Optional[PermissionPrompter]') -> None:
        key = 's:' + str(session_id)
        if prompter is None:  # the turn ended: what it allowed and did not do is asked about again
            if key in self.prompters:
                del self.prompters[key]
            self.consents.forget(str(session_id))
        else:
            self.prompters[key] = prompter

    def set_question_prompter(self, session_id: str, prompter: 'Optional[QuestionPrompter]') -> None:
        key = 's:' + str(session_id)
        if prompter is None:
            if key in self.questioners:
                del self.questioners[key]
        else:
            self.questioners[key] = prompter

    async def create_elicitation(self, session_id: 'Json', question: 'JsonObject') -> 'JsonObject':
        """An agent's question (core/acp/elicitation.py read_question's shape), asked in the session's running turn."""
        key = 's:' + str(session_id)
        if key not in self.questioners:
            if self.log is not None:
                self.log.warn('ACP: a question for a session with no running turn was answered cancel')
            return cancelled_question()
        return await self.questioners[key](question)

    def set_observing(self, session_id: str, is_observing: 'Optional[ObservingCheck]') -> None:
        """`is_observing()` says whether the session is in observe mode now (None: the turn ended)."""
        key = 's:' + str(session_id)
        if is_observing is None:
            if key in self.observing:
                del self.observing[key]
            return
        self.observing[key] = is_observing

    def _observing(self, session_id: 'Json') -> bool:
        key = 's:' + str(session_id)
        return key in self.observing and self.observing[key]() is True

    def set_change_author(self, session_id: str, author: 'ChangeAuthor') -> None:
        """Who the change log names for this session's writes ({'client', 'session', 'turn'})."""
        self.authors['s:' + str(session_id)] = author

    async def request_permission(self, session_id: 'Json', params: 'Json') -> 'JsonObject':
        key = 's:' + str(session_id)
        if key not in self.prompters:
            if self.log is not None:
                self.log.warn('ACP: a permission request for a session with no running turn was answered cancelled')
            return {'outcome': {'outcome': 'cancelled'}}
        outcome = await self.prompters[key](params)
        answer = outcome if json_type(get_key(outcome, 'outcome')) == 'object' else {'outcome': outcome}
        if chosen_allows(params, answer['outcome']):
            self._remember_consent(str(session_id), params)
        return answer

    def _remember_consent(self, session_id: str, params: 'Json') -> None:
        actions = allowed_actions(params)
        writes = []  # type: List[List[str]]
        for write in actions['writes']:
            try:
                writes.append([_confined(write[0]), write[1]])
            except RequestError:
                pass  # a path outside the workspace: no write of it can follow anyway
        self.consents.remember(session_id, writes, actions['commands'], self.clock())

    # -- files ---------------------------------------------------------------------------------------------

    async def read_text_file(self, params: 'Json') -> 'JsonObject':
        path = _confined(_text_param(params, 'path'))
        line = get_key(params, 'line')
        limit = get_key(params, 'limit')
        if (line is not None and json_type(line) != 'integer') or (limit is not None and json_type(limit) != 'integer'):
            raise RequestError(INVALID_PARAMS, 'Invalid params: "line" and "limit" must be integers')
        document = open_document_for(path)
        if document is not None:
            text = document.getText()
        else:
            try:
                found = await read_text(path)
            except ToolError as error:
                raise RequestError(RESOURCE_NOT_FOUND, error_message(error))
            text = found['text']
        return {'content': select_lines(text, line, limit)}

    async def write_text_file(self, params: 'Json') -> None:
        """The one place an agent's write happens: the `file_write` tool (host/files.py write_text records the
        text before and after in the change log, under this session's author)."""
        path = _confined(_text_param(params, 'path'))
        content = _text_param(params, 'content')
        call = ToolCall()
        session_id = get_key(params, 'sessionId')
        call.author = self._author(session_id)
        if self.consents.take_write(str(session_id), path, content, self.clock()):
            call.confirmation = CONFIRMED  # the user allowed exactly this in the agent's question
        elif self._observing(session_id):
            call.confirmation = CONFIRMED  # observe mode: a proposal, captured for the review (kept or undone there)
        result = await self.registry.call('file_write', {'path': path, 'content': content}, call)
        if result['isError']:
            raise RequestError(INTERNAL_ERROR, result_text(result))  # file_write's refusal or failure
        return None

    def _author(self, session_id: 'Json') -> 'ChangeAuthor':
        key = 's:' + str(session_id)
        if key in self.authors:
            return self.authors[key]
        return {'client': 'ACP agent', 'session': session_id if json_type(session_id) == 'string' else None}

    # -- terminals -----------------------------------------------------------------------------------------

    async def terminal_create(self, params: 'Json') -> 'JsonObject':
        command = _text_param(params, 'command')
        if self._observing(get_key(params, 'sessionId')):
            raise RequestError(INTERNAL_ERROR, OBSERVE_REFUSAL)  # asked of nobody: the mode says no command
        args = get_key(params, 'args', [])
        if json_type(args) != 'array' or len([arg for arg in args if json_type(arg) != 'string']) > 0:
            raise RequestError(INVALID_PARAMS, 'Invalid params: "args" must be a list of strings')
        cwd = get_key(params, 'cwd')
        # where it runs is what the user is asked about: without a cwd, the first workspace folder, named (VS Code's
        # own default could come from a workspace setting)
        folder = _default_folder() if cwd is None else _confined(cwd)
        line = command_line(command, args, get_key(params, 'env'))
        limit = get_key(params, 'outputByteLimit')
        call = ToolCall()
        session_id = str(get_key(params, 'sessionId'))
        call.author = self._author(get_key(params, 'sessionId'))
        call.services = self.registry.services  # the gate's preview reads them (terminal_run: the shell that starts)
        tool = self.registry.get('terminal_run')
        plain = len(args) == 0 and get_key(params, 'env') is None
        if self.consents.take_command(session_id, line, self.clock()) or \
                (plain and self.consents.take_command(session_id, command, self.clock())):
            call.confirmation = CONFIRMED  # the user allowed exactly this command line in the agent's question
        if self.registry.approver is not None and tool is not None:
            # the folder is part of what is asked, and of what "Allow for This Session" covers: the same command in
            # another folder asks again
            where = folder if folder is not None else '(no folder is open: VS Code\'s default)'
            refusal = await self.registry.approver.approve(tool, {'command': line, 'cwd': where}, call)
            if refusal is not None:
                raise RequestError(INTERNAL_ERROR, refusal)
        record = self.terminals.create('Agent: ' + command, folder, None, True)
        integration = await self.terminals.wait_for_integration(record.terminal, INTEGRATION_WAIT_MS, call)
        if integration is None:
            self.terminals.kill(record)
            raise RequestError(INTERNAL_ERROR, 'VS Code shell integration did not start in the terminal, so the '
                               'command was not run (its output could not be read).')
        entry = self.terminals.track(record, integration.executeCommand(line), line)
        terminal_id = 'term-' + str(self.next_terminal)
        self.next_terminal = self.next_terminal + 1
        self.running['t:' + terminal_id] = {'record': record, 'entry': entry,
                                     'limit': limit if json_type(limit) == 'integer' and limit > 0 else
                                     DEFAULT_OUTPUT_LIMIT}
        return {'terminalId': terminal_id}

    def _terminal(self, params: 'Json') -> 'RunningTerminal':
        terminal_id = get_key(params, 'terminalId')
        if json_type(terminal_id) != 'string' or 't:' + terminal_id not in self.running:
            raise RequestError(RESOURCE_NOT_FOUND, 'Resource not found: terminal ' + str(terminal_id))
        return self.running['t:' + terminal_id]

    async def terminal_output(self, params: 'Json') -> 'JsonObject':
        found = self._terminal(params)
        entry = found['entry']
        output = entry.output()
        truncated = entry.dropped > 0
        if len(output) > found['limit']:
            output = output[len(output) - found['limit']:]
            truncated = True
        result = {'output': output, 'truncated': truncated}
        if entry.done:
            result['exitStatus'] = {'exitCode': entry.exit_code, 'signal': None}
        return result

    async def terminal_wait_for_exit(self, params: 'Json') -> 'JsonObject':
        entry = self._terminal(params)['entry']
        waiter = deferred()
        entry.when_ended(lambda: waiter['resolve'](None))
        await waiter['promise']
        return {'exitCode': entry.exit_code, 'signal': None}

    async def terminal_kill(self, params: 'Json') -> 'JsonObject':
        found = self._terminal(params)
        if not found['entry'].done and found['record'].alive():
            found['record'].terminal.sendText('\x03', False)
        return {}

    async def terminal_release(self, params: 'Json') -> 'JsonObject':
        found = self._terminal(params)
        del self.running['t:' + params['terminalId']]
        try:
            self.terminals.kill(found['record'])
        except JsError as error:
            if self.log is not None:
                self.log.warn('ACP: closing a terminal failed: ' + error_message(error))
        return {}
