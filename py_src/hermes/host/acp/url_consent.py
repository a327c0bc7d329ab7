"""A web page an ACP agent asks the user to open (an elicitation in URL mode, core/acp/elicitation.py): opened only
after the user agrees in a modal dialog that names the page's host and shows its whole address — the protocol
requires both before any navigation — and only for http and https (core/acp/elicitation.py read_url refused anything
else before the question was asked). Nothing is added to the address: no token or other secret of ours travels with
it (net/acp/agent.py refuses a URL that carries one the agent was handed), and VS Code opens it in the user's
browser, where neither the agent nor a model can read the page."""
# __pragma__('tconv')
from hermes.js.modules import vscode
from hermes.core.acp.elicitation import accepted, declined, cancelled
# __pragma__('skip')
from typing import Callable, List, Optional
from hermes.contracts.json import JsonObject
# __pragma__('noskip')

DECLINE = 'Decline'


def open_label(host: str) -> str:
    return 'Open ' + host


def consent_detail(question: 'JsonObject') -> str:
    """The dialog's text under its title: the agent's words, then the host and the whole address on lines of their
    own (a modal shows plain text: nothing in it is a link)."""
    parts = []  # type: List[str]
    if question['message'] != '':
        parts.append(question['message'])
    parts.append('Host: ' + question['host'])
    parts.append('Address: ' + question['url'])
    if question['warning'] != '':
        parts.append('Warning: ' + question['warning'])
    return '\n\n'.join(parts)


async def ask_to_open(agent_name: str, question: 'JsonObject',
                      still_waiting: 'Callable[[], bool]') -> 'Optional[JsonObject]':
    """The modal; `still_waiting()` is False once the question was answered otherwise (its deadline passed, the
    turn stopped): a late click then opens nothing. Returns the elicitation result, or None (dismissed)."""
    open_button = open_label(question['host'])
    picked = await vscode.window.showWarningMessage(agent_name + ' asks you to open a web page on ' + question['host'],
                                                    {'modal': True, 'detail': consent_detail(question)},
                                                    open_button, DECLINE)
    if picked == DECLINE:
        return declined()
    if picked != open_button:
        return None
    if not still_waiting():
        return None
    opened = await vscode.env.openExternal(vscode.Uri.parse(question['url'], True))
    return accepted() if opened else cancelled()
