"""One prompt turn of an ACP agent, free of VS Code: the agent's `session/update` notifications folded
into the conversation's reply (core/chat/conversations.py parts) and told to a front end's TurnView.

What an agent sends (ACP v1) and what it becomes:
- agent_message_chunk → text (Markdown); agent_thought_chunk → a thought (collapsible thinking);
- tool_call / tool_call_update → a tool part, its status running | ok | error (pending and in_progress
  are running), its locations and diffs as paths (relative ones joined to the session's cwd);
- plan → the turn's to-do list; usage_update → context used/size; available_commands_update → the
  session's slash commands; session_info_update → its title; current_mode_update → its mode.
- user_message_chunk (a replay of an earlier turn) is not part of a live turn and is ignored here.

Hermes Agent's subagents (main branch, core/acp/subagents.py) are tool calls of their own, nested: each part
names its `parent` (the call that delegated it, or the subagent that started it), and carries what the child did
(`subagent`: its tools and text) as the card's input line and output.

Quirks absorbed (Hermes Agent 0.19.0): `read_file`, `write_file` and `patch` calls never get a closing
tool_call_update, so `finish()` ends every tool still running (ok when the turn ended normally, cancelled
when it was cancelled); permission requests carry ids of their own (`edit-approval-N`), so a request is a
part of its own that waits for the user and ends with the answer. So is an agent's question (elicitation/create,
core/acp/elicitation.py): a part "Question: …" that waits, then says Answered, Declined or Cancelled.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, List, Optional
from hermes.contracts.json import Json, JsonObject
# __pragma__('noskip')
from hermes.js.json import dump_json
from hermes.core.dialog_text import agent_title
from hermes.core.values import json_type, get_key, is_object
from hermes.core.chat.conversations import append_text, truncate
from hermes.core.acp.commands import commands_of
from hermes.core.acp.hermes_background import BACKGROUND_UPDATE
from hermes.core.acp.turn_usage import cost_text
from hermes.core.acp.subagents import read_subagent, is_stale, subagent_tool_id, subagent_summary

PLAN_STATUSES = ['pending', 'in_progress', 'completed']
FILE_CHANGING_KINDS = ['edit', 'delete', 'move']



class TurnView:
    """What a front end shows of a turn; every method may be left as is (a no-op)."""

    def on_text(self, text: str) -> None:
        return None

    def on_thought(self, text: str) -> None:
        return None

    def on_tool(self, tool: 'JsonObject') -> None:
        """tool: tool_view(part): {'id', 'title', 'kind', 'status', 'complete', 'input', 'output', 'paths',
        'diffs', 'parent' (the id of the tool call it is nested under, or None), 'group' (the top of that tree: the
        ordinary tool call that delegated it), 'subagent' (True for a Hermes subagent's card)}; the same id again is the same tool, updated."""
        return None

    def on_plan(self, entries: 'List[JsonObject]') -> None:
        """entries: [{'title', 'status': pending | in_progress | completed}] (the whole list each time)."""
        return None

    def on_usage(self, used: 'Json', size: 'Json', cost: 'Optional[str]' = None) -> None:
        """The agent's context use; `cost`: what the session cost so far (cost_text), when the agent says."""
        return None

    def on_commands(self, commands: 'List[JsonObject]') -> None:
        """commands: [{'name', 'description', 'hint'}] (core/acp/commands.py), the agent's whole list each time."""
        return None

    def on_title(self, title: str) -> None:
        return None

    def on_mode(self, mode_id: str) -> None:
        return None

    def on_notice(self, text: str) -> None:
        """A line about the turn (a session the agent lost, a permission denied for lack of an answer)."""
        return None


def resolve_path(cwd: 'Json', path: 'Json') -> 'Optional[str]':
    """A path an agent named, absolute: relative ones are relative to the session's cwd."""
    if json_type(path) != 'string' or path == '':
        return None
    if path.startswith('/') or (len(path) > 2 and path[1] == ':') or json_type(cwd) != 'string' or cwd == '':
        return path
    relative = path[2:] if path.startswith('./') else path
    return cwd + ('' if cwd.endswith('/') else '/') + relative


def content_text(content: 'Json') -> str:
    """The text of an ACP content block (text, or a resource's text); '' for anything else."""
    kind = get_key(content, 'type')
    if kind == 'text':
        text = get_key(content, 'text')
        return text if json_type(text) == 'string' else ''
    if kind == 'resource':
        text = get_key(get_key(content, 'resource'), 'text')
        return text if json_type(text) == 'string' else ''
    if kind == 'resource_link':
        name = get_key(content, 'name')
        return '[' + (name if json_type(name) == 'string' else 'resource') + ']'
    if json_type(kind) == 'string':
        return '[' + kind + ']'
    return ''


def _input_text(raw: 'Json') -> str:
    if raw is None:
        return ''
    if json_type(raw) == 'string':
        return raw
    return dump_json(raw)


def tool_view(part: 'JsonObject') -> 'JsonObject':
    """What a front end needs of a tool part."""
    return {'id': part['id'], 'title': part['name'], 'kind': get_key(part, 'toolKind', 'other'),
            'status': part['status'], 'complete': part['status'] != 'running' and part['status'] != 'waiting',
            'input': _input_text(part['arguments']) if is_object(part['arguments']) or
            json_type(part['arguments']) == 'string' else '',
            'output': part['result'], 'paths': get_key(part, 'paths', []), 'diffs': get_key(part, 'diffs', []),
            'parent': get_key(part, 'parent', None), 'group': get_key(part, 'group', get_key(part, 'parent', None)),
            'subagent': get_key(part, 'subagent', None) is not None}


class AcpTurn:
    """`reply`: the conversation's running assistant message; `view`: a TurnView; `cwd`: the session's.

    Over ~250 lines on purpose: it folds every kind of `session/update` of one turn into the one stored reply (text,
    thoughts, tool calls and their subagents, plans, permission and question cards), and the kinds share that reply's
    parts; what reads an update's fields alone is in core/acp/subagents.py, options.py, turn_usage.py."""

    def __init__(self, reply: 'Any', view: 'Optional[TurnView]', cwd: 'Json') -> None:
        self.reply = reply
        self.view = TurnView() if view is None else view
        self.cwd = cwd
        self.plan = None  # type: Optional[List[JsonObject]]
        self.commands = None  # type: Optional[List[JsonObject]]
        self.title = None  # type: Optional[str]
        self.mode = None  # type: Optional[str]
        self.usage = None  # type: Optional[JsonObject]
        self.cost = None  # type: Json  # the session's cumulative cost as the agent last said it (raw)
        self.cost_before = None  # type: Json  # … as it was known before the turn (host/acp/turn_runner.py sets it)
        self.said_usage = None  # type: Json  # the prompt's answer's `usage` (the turn's tokens), raw
        self.changed = []  # type: List[str]  # absolute paths the agent's edit/delete/move calls and diffs named
        self.permissions = 0
        self.questions = 0
        self.text_shown = False

    # ------------------------------------------------------------------ session/update

    def apply(self, update: 'Json') -> None:
        """One `session/update` notification's `update`; unknown kinds are ignored (newer agents)."""
        kind = get_key(update, 'sessionUpdate')
        if kind == 'agent_message_chunk' or kind == 'agent_thought_chunk':
            text = content_text(get_key(update, 'content'))
            if text == '':
                return
            if kind == 'agent_message_chunk':
                append_text(self.reply, text)
                self.text_shown = True
                self.view.on_text(text)
            else:
                self._append_thought(text)
                self.view.on_thought(text)
        elif kind == 'tool_call' or kind == 'tool_call_update':
            self._tool(update, kind == 'tool_call')
        elif kind == 'plan':
            self._plan(get_key(update, 'entries'))
        elif kind == 'usage_update':
            used = get_key(update, 'used')
            size = get_key(update, 'size')
            if json_type(used) in ['integer', 'number'] and json_type(size) in ['integer', 'number']:
                cost = cost_text(get_key(update, 'cost'))
                if cost is not None:
                    self.cost = get_key(update, 'cost')
                self.usage = {'used': used, 'size': size, 'cost': cost}
                self.view.on_usage(used, size, cost)
        elif kind == 'available_commands_update':
            self.commands = commands_of(get_key(update, 'availableCommands'))
            self.view.on_commands(self.commands)
        elif kind == 'session_info_update':
            title = agent_title(get_key(update, 'title'))
            if title is not None:
                self.title = title
                self.view.on_title(title)
        elif kind == BACKGROUND_UPDATE:  # Hermes Agent's background work (core/acp/hermes_background.py)
            self.view.on_notice(get_key(update, 'text'))
        elif kind == 'current_mode_update':
            mode = get_key(update, 'currentModeId')
            if json_type(mode) == 'string':
                self.mode = mode
                self.view.on_mode(mode)

    def _append_thought(self, text: str) -> None:
        parts = self.reply['parts']
        count = len(parts)
        if count > 0 and parts[count - 1]['kind'] == 'thought':
            parts[count - 1]['text'] = parts[count - 1]['text'] + text
        else:
            parts.append({'kind': 'thought', 'text': text})

    def find_tool(self, tool_id: 'Json') -> 'Optional[JsonObject]':
        for part in self.reply['parts']:
            if part['kind'] == 'tool' and part['id'] == tool_id:
                return part
        return None

    def _tool(self, update: 'Json', is_new: bool) -> None:
        tool_id = get_key(update, 'toolCallId')
        if json_type(tool_id) != 'string' or tool_id == '':
            return
        part = self.find_tool(tool_id)
        subagent = read_subagent(update)
        if subagent is not None and part is not None and is_stale(get_key(part, 'subagent', None), subagent):
            return  # an older snapshot than the card shows (a replay, or out of order)
        if part is None:
            part = {'kind': 'tool', 'id': tool_id, 'name': 'tool', 'arguments': {}, 'status': 'running',
                    'result': '', 'toolKind': 'other', 'paths': [], 'diffs': []}
            if subagent is not None:
                parent = self._subagent_parent(subagent)
                if parent is not None:
                    part['parent'] = parent
                    above = self.find_tool(parent)
                    part['group'] = get_key(above, 'group', parent)  # the top of its tree: a tool call of the turn
            self.reply['parts'].append(part)
        self._merge(part, update)
        if subagent is not None:
            self._subagent(part, subagent)
        self.view.on_tool(tool_view(part))

    def _subagent_parent(self, subagent: 'JsonObject') -> 'Optional[str]':
        """The card a new subagent nests under: its parent subagent's, else the ordinary tool call still running
        last (Hermes' `delegate_task`, which waits for its children), else none (top level)."""
        if subagent['parentId'] is not None:
            parent_id = subagent_tool_id(subagent['parentId'])
            if self.find_tool(parent_id) is not None:
                return parent_id
        parts = self.reply['parts']
        for index in range(len(parts) - 1, -1, -1):
            part = parts[index]
            if part['kind'] == 'tool' and part['status'] == 'running' and get_key(part, 'subagent', None) is None \
                    and not part['id'].startswith('permission-') and not part['id'].startswith('question-'):
                return part['id']
        return None

    def _subagent(self, part: 'JsonObject', subagent: 'JsonObject') -> None:
        """A snapshot is the child's whole state: its text is the card's output, its tools the input line; its
        status wins over the tool call's (`canceled` shows as cancelled, which ACP's `failed` cannot say)."""
        part['subagent'] = {'sequence': subagent['sequence'], 'depth': subagent['depth']}
        part['toolKind'] = 'other'
        summary = subagent_summary(subagent)
        if summary != '':
            part['arguments'] = summary
        if subagent['text'] != '':
            part['result'] = truncate(subagent['text'])
        status = subagent['status']
        if status == 'running':
            part['status'] = 'running'
        elif status == 'completed':
            part['status'] = 'ok'
        elif status == 'failed':
            part['status'] = 'error'
        elif status == 'canceled':
            part['status'] = 'cancelled'

    def _merge(self, part: 'JsonObject', update: 'Json') -> None:
        title = get_key(update, 'title')
        if json_type(title) == 'string' and title != '':
            part['name'] = title
        kind = get_key(update, 'kind')
        if json_type(kind) == 'string':
            part['toolKind'] = kind
        raw_input = get_key(update, 'rawInput')
        if raw_input is not None:
            part['arguments'] = raw_input
        status = get_key(update, 'status')
        if status == 'completed':
            part['status'] = 'ok'
        elif status == 'failed':
            part['status'] = 'error'
        elif status == 'pending' or status == 'in_progress':
            part['status'] = 'running'
        locations = get_key(update, 'locations')
        if json_type(locations) == 'array':
            for location in locations:
                self._add_path(part, resolve_path(self.cwd, get_key(location, 'path')))
        content = get_key(update, 'content')
        if json_type(content) == 'array':
            texts = []  # type: List[str]
            for item in content:
                item_type = get_key(item, 'type')
                if item_type == 'diff':
                    self._add_diff(part, item)
                elif item_type == 'content':
                    text = content_text(get_key(item, 'content'))
                    if text != '':
                        texts.append(text)
            if len(texts) > 0:
                part['result'] = truncate('\n'.join(texts))
        raw_output = get_key(update, 'rawOutput')
        if part['result'] == '' and raw_output is not None and part['status'] != 'running':
            part['result'] = truncate(_input_text(raw_output))
        if part['toolKind'] in FILE_CHANGING_KINDS:
            for path in part['paths']:
                self._changed(path)

    def _add_path(self, part: 'JsonObject', path: 'Optional[str]') -> None:
        if path is not None and not (path in part['paths']):
            part['paths'].append(path)

    def _add_diff(self, part: 'JsonObject', item: 'Json') -> None:
        path = resolve_path(self.cwd, get_key(item, 'path'))
        if path is None:
            return
        old_text = get_key(item, 'oldText')
        new_text = get_key(item, 'newText')
        diff = {'path': path, 'oldText': old_text if json_type(old_text) == 'string' else None,
                'newText': new_text if json_type(new_text) == 'string' else ''}
        part['diffs'] = [existing for existing in part['diffs'] if existing['path'] != path]
        part['diffs'].append(diff)
        self._add_path(part, path)
        self._changed(path)

    def _changed(self, path: str) -> None:
        if not (path in self.changed):
            self.changed.append(path)

    def _plan(self, entries: 'Json') -> None:
        if json_type(entries) != 'array':
            return
        plan = []  # type: List[JsonObject]
        for entry in entries:
            title = get_key(entry, 'content')
            status = get_key(entry, 'status')
            if json_type(title) != 'string':
                continue
            plan.append({'title': title, 'status': status if status in PLAN_STATUSES else 'pending'})
        self.plan = plan
        for part in self.reply['parts']:
            if part['kind'] == 'plan':
                part['entries'] = plan
                self.view.on_plan(plan)
                return
        self.reply['parts'].append({'kind': 'plan', 'entries': plan})
        self.view.on_plan(plan)

    # ------------------------------------------------------------------ permissions

    def permission_waiting(self, params: 'Json') -> 'JsonObject':
        """`session/request_permission` arrived: a part that waits for the user (NeedsInput). Returns it."""
        self.permissions += 1
        call = get_key(params, 'toolCall')
        call_id = get_key(call, 'toolCallId')
        part_id = 'permission-' + str(self.permissions) + '-' + (call_id if json_type(call_id) == 'string' else '')
        part = {'kind': 'tool', 'id': part_id, 'name': 'tool', 'arguments': {}, 'status': 'running', 'result': '',
                'toolKind': 'other', 'paths': [], 'diffs': []}
        self.reply['parts'].append(part)
        if is_object(call):
            self._merge(part, call)
        title = get_key(call, 'title')
        part['name'] = 'Permission: ' + (title if json_type(title) == 'string' and title != '' else 'a tool call')
        part['status'] = 'waiting'
        self.view.on_tool(tool_view(part))
        return part

    def permission_answered(self, part: 'JsonObject', answer_text: str, allowed: bool) -> None:
        part['status'] = 'ok' if allowed else 'error'
        part['result'] = answer_text
        self.view.on_tool(tool_view(part))

    def question_waiting(self, question: 'JsonObject') -> 'JsonObject':
        """An agent's question (core/acp/elicitation.py read_question) arrived: a part that waits for the user
        (NeedsInput), titled with its message's first line. Returns it."""
        self.questions += 1
        first_line = question['message'].split('\n')[0]
        title = first_line if len(first_line) <= 120 else first_line[:119] + '…'
        part = {'kind': 'tool', 'id': 'question-' + str(self.questions), 'arguments': {}, 'status': 'waiting',
                'result': '', 'toolKind': 'other', 'paths': [], 'diffs': [],
                'name': ('Question: ' if question['mode'] == 'form' else 'Open a web page: ') +
                (title if title != '' else 'the agent asks')}
        self.reply['parts'].append(part)
        self.view.on_tool(tool_view(part))
        return part

    def question_answered(self, part: 'JsonObject', answer_text: str, accepted: bool) -> None:
        part['status'] = 'ok' if accepted else 'error'
        part['result'] = answer_text
        self.view.on_tool(tool_view(part))

    # ------------------------------------------------------------------ the end

    def finish(self, stop_reason: 'Json') -> None:
        """The prompt's answer arrived (or the turn failed: stop_reason None): every tool still running or
        waiting ends (0.19.0 never closes some), as cancelled when the turn was cancelled."""
        cancelled = stop_reason == 'cancelled' or stop_reason is None
        for part in self.reply['parts']:
            if part['kind'] == 'tool' and (part['status'] == 'running' or part['status'] == 'waiting'):
                part['status'] = 'cancelled' if cancelled else 'ok'
                self.view.on_tool(tool_view(part))


def stop_reason_text(stop_reason: 'Json') -> 'Optional[str]':
    """What the chat says after a turn that did not simply end."""
    if stop_reason == 'max_tokens':
        return 'The agent stopped: the model reached its token limit.'
    if stop_reason == 'max_turn_requests':
        return 'The agent stopped: it reached its limit of model requests for one turn.'
    if stop_reason == 'refusal':
        return 'The agent refused to continue.'
    return None


def permission_choices(params: 'Json') -> 'List[JsonObject]':
    """The options of a permission request as buttons: [{'id', 'label', 'kind', 'allow'}] in the agent's
    order; an option without an id is left out (it could not be answered)."""
    choices = []  # type: List[JsonObject]
    options = get_key(params, 'options')
    if json_type(options) != 'array':
        return choices
    for option in options:
        option_id = get_key(option, 'optionId')
        name = get_key(option, 'name')
        kind = get_key(option, 'kind')
        if json_type(option_id) != 'string' or option_id == '':
            continue
        label = name if json_type(name) == 'string' and name != '' else option_id
        choices.append({'id': option_id, 'label': label, 'kind': kind if json_type(kind) == 'string' else '',
                        'allow': kind == 'allow_once' or kind == 'allow_always'})
    return choices


def deny_choice(choices: 'List[JsonObject]') -> 'Optional[JsonObject]':
    """The option we answer with when the user gives none: reject once, else any reject, else None
    (then the request is answered `cancelled`)."""
    for choice in choices:
        if choice['kind'] == 'reject_once':
            return choice
    for choice in choices:
        if choice['kind'] == 'reject_always':
            continue
        if not choice['allow']:
            return choice
    return None


def selected_outcome(option_id: str) -> 'JsonObject':
    return {'outcome': {'outcome': 'selected', 'optionId': option_id}}


def cancelled_outcome() -> 'JsonObject':
    return {'outcome': {'outcome': 'cancelled'}}


def permission_summary(params: 'Json', cwd: 'Json') -> 'JsonObject':
    """The question the user is asked: {'title', 'detail', 'diffs': [{path, oldText, newText}], 'command'}."""
    call = get_key(params, 'toolCall')
    title = get_key(call, 'title')
    raw = get_key(call, 'rawInput')
    command = get_key(raw, 'command') if is_object(raw) else None  # type: Json
    diffs = []  # type: List[JsonObject]
    content = get_key(call, 'content')
    if json_type(content) == 'array':
        for item in content:
            if get_key(item, 'type') == 'diff':
                path = resolve_path(cwd, get_key(item, 'path'))
                if path is not None:
                    old_text = get_key(item, 'oldText')
                    new_text = get_key(item, 'newText')
                    diffs.append({'path': path, 'shown': get_key(item, 'path'),  # as the agent named it
                                  'oldText': old_text if json_type(old_text) == 'string' else None,
                                  'newText': new_text if json_type(new_text) == 'string' else ''})
    detail = ''
    if json_type(command) == 'string' and command != '':
        detail = 'Command: ' + command
    elif len(diffs) > 0:
        detail = 'Changes ' + ', '.join([diff['shown'] for diff in diffs])
    elif raw is not None:
        detail = truncate(_input_text(raw), 600)
    return {'title': title if json_type(title) == 'string' and title != '' else 'A tool call',
            'detail': detail, 'diffs': diffs, 'command': command if json_type(command) == 'string' else None}
