"""The status bar's total of what agent sessions cost today (core/agent_costs.py), per currency, with each agent's
share in the tooltip; hidden until an agent reports a cost. The day's ledger lives in the extension's global state,
so a reload or another window of the same day adds to it."""
# __pragma__('tconv')
from hermes.js.clock import now_ms, local_day_text
from hermes.js.modules import vscode
from hermes.core.agent_costs import AgentCosts

# __pragma__('skip')
from typing import TYPE_CHECKING, Callable, Optional, Union
from hermes.contracts.json import Json
from hermes.core.acp.conversation import AcpConversations
from hermes.ui.acp.late import LateAcpSessions
if TYPE_CHECKING:
    from vscode import ExtensionContext, Memento, StatusBarItem
# __pragma__('noskip')

LEDGER_KEY = 'hermes.agentCostsToday'


class CostStatus:
    """`memento`: VS Code's globalState; `item`: the status bar item; `day()`: today's local date text."""

    def __init__(self, memento: 'Memento', item: 'StatusBarItem', day: 'Optional[Callable[[], str]]' = None) -> None:
        self.memento = memento
        self.item = item
        self.day = day or (lambda: local_day_text(now_ms()))
        self.costs = AgentCosts(memento.js_get(LEDGER_KEY), self.day())
        self.refresh()

    def record(self, agent: str, session_id: str, cost: 'Json') -> None:
        """An agent session's cumulative cost (ACP usage_update.cost), at the end of its turn."""
        self.costs.new_day(self.day())
        if self.costs.record(agent, session_id, cost):
            self.memento.js_update(LEDGER_KEY, self.costs.to_data())
            self.refresh()

    def refresh(self) -> None:
        totals = self.costs.today()
        if len(totals) == 0:
            self.item.hide()
            return
        self.item.text = '$(credit-card) ' + ' + '.join([total['text'] for total in totals]) + ' today'
        lines = ['What agent sessions cost today (as the agents report it):']
        for total in totals:
            for share in total['agents']:
                lines.append('· ' + share['agent'] + ': ' + share['text'])
        self.item.tooltip = '\n'.join(lines)
        self.item.show()


def register_cost_status(context: 'ExtensionContext',
                         conversations: 'Union[AcpConversations, LateAcpSessions]') -> CostStatus:
    """The item, fed by `conversations` at the end of each agent turn: core/acp/conversation.py AcpConversations, or
    ui/acp/late.py LateAcpSessions, which hands the item to them when it makes them."""
    item = vscode.window.createStatusBarItem('hermes.costs', vscode.StatusBarAlignment.Right, 98)
    item['name'] = 'Hermes: agent costs today'  # subscript: `.name` would be renamed by Transcrypt
    context.subscriptions.push(item)
    status = CostStatus(context.globalState, item)
    conversations.costs = status
    return status
