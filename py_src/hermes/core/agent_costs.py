"""What the agents' sessions cost today, across agents (the status bar's total), free of VS Code.

ACP's `usage_update.cost` is the session's cumulative cost ({amount, currency}). Today's share of a session is its
latest amount minus what it had reached before today (0 for a session first seen today); a day's ledger is kept in
the extension's global state, so a reload or another window of the same day adds to the same total. Amounts in
different currencies are never added together: a total per currency.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, List, Optional
from hermes.contracts.json import Json, JsonObject
# __pragma__('noskip')
from hermes.core.values import json_type, get_key
from hermes.core.acp.turn_usage import cost_text

MAX_SESSIONS = 500
"""The ledger keeps the sessions most recently costed (a day with more is unusual; the oldest leave first)."""


def cost_of(value: 'Json') -> 'Optional[JsonObject]':
    """A `usage_update.cost` as {'amount', 'currency'} (currency upper case), or None when it is not money
    (cost_text's rules)."""
    if cost_text(value) is None:
        return None
    return {'amount': get_key(value, 'amount'), 'currency': get_key(value, 'currency').upper()}


class AgentCosts:
    """`stored`: the ledger as to_data() gave it (any other value: an empty one); `day`: today's date text."""

    def __init__(self, stored: 'Json', day: str) -> None:
        self.day = day
        # {'key', 'agent', 'currency', 'before', 'last'} per session, least recently costed first (a list, not a
        # dict: the keys are the agents' words)
        self.entries = []  # type: List[JsonObject]
        if get_key(stored, 'day') == day and json_type(get_key(stored, 'sessions')) == 'array':
            for entry in get_key(stored, 'sessions'):
                self._load(entry)

    def _load(self, entry: 'Json') -> None:
        key = get_key(entry, 'key')
        agent = get_key(entry, 'agent')
        currency = get_key(entry, 'currency')
        before = get_key(entry, 'before')
        last = get_key(entry, 'last')
        if json_type(key) != 'string' or json_type(agent) != 'string' or json_type(currency) != 'string':
            return
        if not (json_type(before) in ['integer', 'number']) or not (json_type(last) in ['integer', 'number']):
            return
        self.entries.append({'key': key, 'agent': agent, 'currency': currency, 'before': before, 'last': last})

    def new_day(self, day: str) -> None:
        """Past midnight: what each session reached so far is before today."""
        if day == self.day:
            return
        self.day = day
        for entry in self.entries:
            entry['before'] = entry['last']

    def record(self, agent: str, session_id: str, value: 'Json') -> bool:
        """A session's cumulative cost as the agent said it; True when today's totals changed. A first amount of a
        session is all today's; a lower amount than before (the agent started counting anew) is a new start."""
        cost = cost_of(value)
        if cost is None:
            return False
        key = agent + '\n' + session_id
        found = [entry for entry in self.entries if entry['key'] == key]
        entry = found[0] if len(found) > 0 else None
        if entry is not None and cost['amount'] == entry['last'] and entry['currency'] == cost['currency']:
            return False
        if entry is None or entry['currency'] != cost['currency'] or cost['amount'] < entry['last']:
            entry = {'key': key, 'agent': agent, 'currency': cost['currency'], 'before': 0, 'last': 0}
        entry['last'] = cost['amount']
        self.entries = [other for other in self.entries if other['key'] != key]
        self.entries.append(entry)
        if len(self.entries) > MAX_SESSIONS:
            self.entries = self.entries[len(self.entries) - MAX_SESSIONS:]
        return True

    def today(self) -> 'List[JsonObject]':
        """Today's totals, one per currency in the order first costed: {'currency', 'amount', 'text', 'agents':
        [{'agent', 'amount', 'text'}]} — amounts above 0 only."""
        totals = []  # type: List[JsonObject]
        for entry in self.entries:
            spent = entry['last'] - entry['before']
            if spent <= 0:
                continue
            matching = [total for total in totals if total['currency'] == entry['currency']]
            if len(matching) == 0:
                totals.append({'currency': entry['currency'], 'amount': 0, 'agents': []})
                matching = [totals[len(totals) - 1]]
            total = matching[0]
            total['amount'] = total['amount'] + spent
            shares = [share for share in total['agents'] if share['agent'] == entry['agent']]
            if len(shares) == 0:
                total['agents'].append({'agent': entry['agent'], 'amount': 0})
                shares = [total['agents'][len(total['agents']) - 1]]
            shares[0]['amount'] = shares[0]['amount'] + spent
        for total in totals:
            total['text'] = _money(total['amount'], total['currency'])
            for share in total['agents']:
                share['text'] = _money(share['amount'], total['currency'])
        return totals

    def to_data(self) -> 'JsonObject':
        return {'day': self.day, 'sessions': [{'key': entry['key'], 'agent': entry['agent'],
                                               'currency': entry['currency'], 'before': entry['before'],
                                               'last': entry['last']} for entry in self.entries]}


def _money(amount: 'Any', currency: str) -> str:
    text = cost_text({'amount': amount, 'currency': currency})
    return '' if text is None else text
