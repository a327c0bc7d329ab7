"""The confirmation gate: before a tool that changes things runs, the user says yes (or has said so
for the session). `hermes.tools.confirm`: "destructive" (default) asks for destructive tools,
"always" asks for every tool, "never" asks for none. The gate moves the call's confirmation state
(core/tools.py: WAITING, then CONFIRMED or DECLINED); front ends listen to it, so a tool card can say
"waiting for your confirmation". The log lines are for people (an MCP client's log), not for UIs.

What the user sees is the whole action (docs/SECURITY.md): a "What will happen" line, the tool and every
argument — never cut, invisible and bidi characters escaped (core/dialog_text.py). "Allow for This
Session" covers exactly the call shown: the same tool with the same arguments.
In Restricted Mode (an untrusted workspace) tools that can run a program are refused outright."""
# __pragma__('tconv')
from hermes.js.json import dump_json
from hermes.js.modules import vscode
from hermes.core.tools import WAITING, CONFIRMED, DECLINED, ToolError, every_declared
from hermes.js.errors import error_message, JsError
from hermes.core.dialog_text import escape_invisible
from hermes.core.values import json_type, object_keys, copyable_keys
from hermes.host.settings import setting
# __pragma__('skip')
from typing import Any, List, Optional
from hermes.contracts.json import JsonObject
from hermes.contracts.services import CallContext
from hermes.host.log import Log
# __pragma__('noskip')

ALLOW = 'Allow'
ALLOW_SESSION = 'Allow for This Session'
WAITING_NOTICE = 'Waiting for the user to confirm'
CONFIRMED_NOTICE = 'The user confirmed'
SESSION_SCOPE = ('"Allow for This Session" lets exactly this call (this tool, these arguments) run again without '
                 'asking until VS Code closes; anything else still asks.')
# Tools that can run a program (a shell, a task, a command, a debuggee, git): refused in Restricted Mode.
RUNS_PROGRAMS = ['terminal_create', 'terminal_run', 'terminal_send', 'terminal_kill', 'command_execute',
                 'workspace_run_task', 'debug_start', 'debug_evaluate', 'debug_set_breakpoints', 'debug_continue',
                 'debug_step', 'debug_stop', 'git_command', 'git_diff', 'git_get_status', 'git_get_branches']
RESTRICTED = ('This workspace is in Restricted Mode (not trusted), so Hermes does not run tools that can run a '
              'program. The user can trust the workspace (Manage Workspace Trust) to allow it.')


def session_key(tool_name: str, arguments: 'Optional[JsonObject]') -> str:
    return tool_name + ' ' + dump_json(arguments)


def restricted_mode() -> bool:
    """True when VS Code says the workspace is not trusted (an absent answer counts as trusted: old hosts)."""
    return getattr(vscode.workspace, 'isTrusted', True) == False  # undefined in JS is trusted


def restriction(tool_name: str) -> 'Optional[str]':
    """The refusal for `tool_name` in Restricted Mode, or None."""
    return RESTRICTED if restricted_mode() and tool_name in RUNS_PROGRAMS else None


class Approver:
    def __init__(self, log: 'Optional[Log]' = None) -> None:
        self.log = log
        self.allowed_for_session = []  # type: List[str]

    def needs_approval(self, tool: Any) -> bool:
        mode = setting('tools.confirm')
        if mode == 'never':
            return False
        if mode == 'always':
            return True
        return tool.destructive

    def would_ask(self, tool: Any, arguments: 'Optional[JsonObject]' = None) -> bool:
        """Whether `approve` would ask the user about this call of `tool` now. A front end that has the user
        confirm in its own UI (VS Code's tool confirmation, ui/lm_tools.py) asks exactly when this is true
        and then marks the call CONFIRMED, so the user is asked once, not twice."""
        return self.needs_approval(tool) and not (session_key(tool.name, arguments) in self.allowed_for_session)

    async def approve(self, tool: Any, arguments: 'JsonObject', call: 'CallContext') -> 'Optional[str]':
        refusal = restriction(tool.name)
        if refusal is not None:
            return refusal
        if call.confirmed:
            return None  # the front end already had the user confirm this very call
        if not self.needs_approval(tool):
            return None
        runs = None
        if tool.preview is not None:
            try:
                runs = await tool.preview(every_declared(arguments, tool.input_schema), call)
            except ToolError as error:
                return error_message(error)
            except JsError as error:  # what it would run is unknown: nothing is asked, nothing runs
                return ('Hermes could not tell what ' + tool.name + ' would run (' + error_message(error) +
                        '), so it did not ask and did not run it.')
        # "Allow for This Session" covers what was shown: the arguments and, when the tool has one, what they
        # resolved to (a task whose command line changed since asks again)
        key = session_key(tool.name, arguments) + ('' if runs is None else '\n' + runs)
        if key in self.allowed_for_session:
            return None
        what = tool.description.split('. ')[0]
        return await self._ask(tool.name, tool.title or tool.name, arguments, call, key, what, runs)

    async def confirm(self, tool_name: str, title: str, arguments: 'JsonObject', call: 'CallContext',
                      key: 'Optional[str]' = None) -> 'Optional[str]':
        """Ask for one action a handler is about to take (see the module-level `confirm`)."""
        key = session_key(tool_name, arguments) if key is None else key
        if setting('tools.confirm') == 'never' or key in self.allowed_for_session:
            return None
        if call.confirmed:
            return None  # the gate already asked for this very call ("always")
        what = arguments['what'] if 'what' in arguments.keys() else title
        return await self._ask(tool_name, title, arguments, call, key, what)

    async def _ask(self, tool_name: str, title: str, arguments: 'JsonObject', call: 'CallContext', key: str, what: str,
                   runs: 'Optional[str]' = None) -> 'Optional[str]':
        call.set_confirmation(WAITING)
        call.log('notice', WAITING_NOTICE + ' ' + tool_name)
        choice = await vscode.window.showWarningMessage(
            'Allow Hermes to run "' + escape_invisible(title) + '"?',
            {'modal': True, 'detail': dialog_detail(tool_name, arguments, what, runs)},
            ALLOW, ALLOW_SESSION)
        if call.cancelled:
            call.set_confirmation(DECLINED)
            return 'The call was cancelled while waiting for confirmation.'
        if choice == ALLOW_SESSION:
            self.allowed_for_session.append(key)
        if choice == ALLOW or choice == ALLOW_SESSION:
            call.set_confirmation(CONFIRMED)
            call.log('notice', CONFIRMED_NOTICE + ' ' + tool_name)
            return None
        call.set_confirmation(DECLINED)
        if self.log is not None:
            self.log.info('The user declined ' + tool_name)
        return ('The user declined to run ' + tool_name + '. Do not retry it unless the user asks; '
                'explain what you wanted to do instead.')


def dialog_detail(tool_name: str, arguments: 'JsonObject', what: str, runs: 'Optional[str]' = None) -> str:
    """The dialog's body: what will happen, what will run (the tool's `preview`: the resolved command line,
    every line of it numbered, escaped and uncut), then the tool and ALL its arguments (the dialog scrolls;
    nothing is cut, so nothing that matters can hide after a cut), then what "for this session" covers."""
    lines = ['What will happen: ' + escape_invisible(what), '']
    if runs is not None:
        lines.extend(numbered_lines('What will run', runs))
        lines.append('')
    lines.append('Tool: ' + tool_name)
    if 'why' in arguments.keys():
        lines.append('Asked because: ' + escape_invisible(arguments['why']))
    lines.append('Arguments (complete):')
    blocks = [name for name in object_keys(arguments) if json_type(arguments[name]) == 'string' and '\n' in arguments[name]]
    lines.append(escape_invisible(dump_json(_without(arguments, blocks), 2), True))
    for name in blocks:
        lines.append('')
        lines.extend(numbered_lines(name, arguments[name]))
    lines.append('')
    lines.append(SESSION_SCOPE)
    return '\n'.join(lines)


def numbered_lines(name: str, text: str) -> 'List[str]':
    """A text argument of several lines (a file's content) shown as its lines, each after its number: one
    JSON string would wrap its \\n escapes into a wall nobody reads. Every shown line starts with a number,
    so no text inside can pass for a line of the dialog's own."""
    rows = text.split('\n')
    width = len(str(len(rows)))
    lines = [escape_invisible(dump_json(name)) + ' (' + str(len(rows)) + ' lines, each after its number):']
    for index, row in enumerate(rows):
        number = str(index + 1)
        while len(number) < width:  # no `' ' * n`: in JS a string times a number is NaN
            number = ' ' + number
        lines.append(number + ' \u2502 ' + escape_invisible(row))
    return lines


def _without(arguments: 'JsonObject', names: 'List[str]') -> 'JsonObject':
    rest = {}  # type: JsonObject
    for name in copyable_keys(arguments):
        if not (name in names):
            rest[name] = arguments[name]
    return rest


async def confirm(tool_name: str, title: str, arguments: 'JsonObject', call: 'CallContext',
                  key: 'Optional[str]' = None) -> 'Optional[str]':
    """For a tool that is only sometimes destructive (git_command: `git log` runs freely, `git commit`
    must ask): ask the user the way the gate does, with the gate the call came through (`call.gate`: its
    session allowances and log). Asks unless `hermes.tools.confirm` is "never", the user allowed `key`
    (default: this tool with these arguments) for the session, or the gate already asked for this call.
    `arguments['what']`, when given, is the dialog's "What will happen" line (else the title). Returns None to
    go ahead, or the refusal text (raise it as a ToolError). A call that came through no gate (a registry built
    without one: every front end's has one) is refused: nobody could ask, and nothing is done unasked."""
    return await call.confirm(tool_name, title, arguments, key)
