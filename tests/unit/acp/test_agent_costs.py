"""What agent sessions cost today (core/agent_costs.py, ui/chat/cost_status.py): a session's cumulative cost counted from
what it had reached before today, per currency (never added across currencies), kept across a reload, reset at
midnight to what the sessions reached by then, malformed amounts ignored; the status bar hidden until a cost comes."""
import vscode

from hermes.core.agent_costs import AgentCosts, MAX_SESSIONS
from hermes.ui.chat.cost_status import CostStatus, LEDGER_KEY


def usd(amount):
    return {'amount': amount, 'currency': 'usd'}


def test_today_is_the_sum_of_each_sessions_latest_cost_per_currency():
    costs = AgentCosts(None, '2026-12-05')
    assert costs.record('Claude', 's1', usd(0.10)) and costs.record('Claude', 's1', usd(0.25))
    assert not costs.record('Claude', 's1', usd(0.25))  # the same amount again: nothing changed
    costs.record('Codex', 's2', usd(0.50))
    costs.record('Codex', 's3', {'amount': 2, 'currency': 'EUR'})
    assert [(t['currency'], t['text'], [(a['agent'], a['text']) for a in t['agents']]) for t in costs.today()] == [
        ('USD', '$0.75', [('Claude', '$0.25'), ('Codex', '$0.50')]), ('EUR', '€2.00', [('Codex', '€2.00')])]


def test_malformed_costs_are_ignored_and_a_lower_amount_is_a_new_count():
    costs = AgentCosts({'day': '2026-12-05', 'sessions': 'not a list'}, '2026-12-05')
    for bad in [None, {'amount': -1, 'currency': 'USD'}, {'amount': 1, 'currency': 'DOLLARS'}, {'amount': '1'}]:
        assert not costs.record('A', 's', bad)
    costs.record('A', 's', usd(1))
    costs.record('A', 's', usd(0.2))  # the agent counts anew (a restarted session)
    assert costs.today()[0]['text'] == '$0.20'


def test_a_new_day_counts_from_what_the_sessions_reached_and_a_reload_keeps_the_day():
    costs = AgentCosts(None, '2026-12-05')
    costs.record('A', 's', usd(1))
    again = AgentCosts(costs.to_data(), '2026-12-05')  # a reload the same day
    assert again.today()[0]['text'] == '$1.00'
    again.new_day('2026-12-06')
    assert again.today() == []
    again.record('A', 's', usd(1.5))
    assert again.today()[0]['text'] == '$0.50'
    assert AgentCosts(costs.to_data(), '2026-12-07').today() == []  # a ledger of another day starts empty


def test_the_ledger_is_bounded():
    costs = AgentCosts(None, 'd')
    for index in range(MAX_SESSIONS + 5):
        costs.record('A', 's' + str(index), usd(0.01))
    assert len(costs.to_data()['sessions']) == MAX_SESSIONS


class Item:
    def __init__(self):
        self.text, self.tooltip, self.visible = '', '', False

    def show(self):
        self.visible = True

    def hide(self):
        self.visible = False


def test_the_status_bar_shows_todays_total_once_a_cost_comes_and_stores_the_ledger():
    memento = vscode.ExtensionContext().globalState
    item = Item()
    status = CostStatus(memento, item, lambda: '2026-12-05')
    assert not item.visible
    status.record('Claude', 's1', usd(0.4251))
    assert item.visible and item.text == '$(credit-card) $0.43 today'
    assert 'Claude: $0.43' in item.tooltip
    assert memento.js_get(LEDGER_KEY)['day'] == '2026-12-05'
    assert CostStatus(memento, Item(), lambda: '2026-12-05').item.text == '$(credit-card) $0.43 today'
