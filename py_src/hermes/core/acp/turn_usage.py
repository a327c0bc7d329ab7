"""What one ACP prompt turn used and cost, and what the session did over its turns, free of VS Code.

Two sources, as ACP v1 has them:
- `PromptResponse.usage` (unstable in the spec): the turn's tokens — `totalTokens`, `inputTokens`, `outputTokens`
  (required), `thoughtTokens`, `cachedReadTokens`, `cachedWriteTokens` (optional). The spec's draft leaves open whether
  they count the turn or the session; agents send the turn's, and so it is shown: "This turn".
- `usage_update.cost` (stable): the session's cumulative cost {amount, currency}. A turn's cost is what the session's
  cost grew by during the turn, when it was said before and after in the same currency; a session's first cost is
  all its first costed turn's. A lower amount, or another currency, says nothing about the turn (no turn cost shown):
  amounts in two currencies are never subtracted or added.

A reply keeps what its turn used as `reply['usage']` = {'tokens': {total, input, output, thought?, cachedRead?,
cachedWrite?} | None, 'cost': {amount, currency} | None, 'text'}; a session's totals are summed from its replies.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, List, Optional
from hermes.contracts.json import Json, JsonObject
# __pragma__('noskip')
from hermes.core.values import json_type, get_key

CURRENCY_SIGNS = {'USD': '$', 'EUR': '€', 'GBP': '£', 'JPY': '¥'}
MAX_COST = 1e9


def cost_text(cost: 'Json') -> 'Optional[str]':
    """A `usage_update.cost` ({amount, currency: ISO 4217}) as people read it — '$0.42', '€1.50', '0.42 CHF' — or
    None when the agent said none or something that is no amount of money (negative, huge, not a number, a currency
    that is not three letters)."""
    amount = get_key(cost, 'amount')
    currency = get_key(cost, 'currency')
    if not (json_type(amount) in ['integer', 'number']) or json_type(currency) != 'string':
        return None
    currency = currency.upper()
    if not (amount >= 0 and amount < MAX_COST) or len(currency) != 3:
        return None
    for letter in currency:
        if not ('A' <= letter and letter <= 'Z'):
            return None
    digits = 4 if amount < 0.01 and amount > 0 else 2
    scale = 10 ** digits
    number = str(int(amount * scale + 0.5) / scale)  # half up in both worlds (Python's round() rounds half to even)
    if not ('.' in number):
        number = number + '.'
    while len(number.split('.')[1]) < digits:
        number = number + '0'
    sign = get_key(CURRENCY_SIGNS, currency)
    return sign + number if sign is not None else number + ' ' + currency


MAX_TOKENS = 2147483647  # more is no count of one turn's tokens (and int() in JS wraps past it)
TOKEN_FIELDS = [['totalTokens', 'total'], ['inputTokens', 'input'], ['outputTokens', 'output'],
                ['thoughtTokens', 'thought'], ['cachedReadTokens', 'cachedRead'], ['cachedWriteTokens', 'cachedWrite']]
REQUIRED_TOKENS = ['total', 'input', 'output']
# how each count is named in a turn's line, in this order (total comes first, without a name)
TOKEN_NAMES = [['input', 'in'], ['output', 'out'], ['thought', 'thinking'], ['cachedRead', 'cache read'],
               ['cachedWrite', 'cache write']]


def _count(value: 'Json') -> 'Optional[int]':
    """A token count: a whole number from 0 below MAX_TOKENS, else None."""
    if not (json_type(value) in ['integer', 'number']):
        return None
    if not (value >= 0 and value <= MAX_TOKENS) or value % 1 != 0:
        return None
    return int(value)  # transcrypt-ok[int-text]: a whole number from 0 to 2**31 - 1, checked above


def turn_tokens(usage: 'Json', names: 'Optional[List[List[str]]]' = None) -> 'Optional[JsonObject]':
    """A `PromptResponse.usage` (wire names; `names`: other [wire, ours] pairs, e.g. ours for a stored one) as
    {total, input, output, thought?, cachedRead?, cachedWrite?}, or None when it is absent or not counts of tokens
    (a required count missing or wrong; an optional one that is wrong is left out)."""
    tokens = {}  # type: JsonObject
    for pair in (TOKEN_FIELDS if names is None else names):
        count = _count(get_key(usage, pair[0]))
        if count is None:  # (absent: the same)
            if pair[1] in REQUIRED_TOKENS:
                return None
            continue
        tokens[pair[1]] = count
    return tokens


def count_text(count: int) -> str:
    """12345 → '12,345' (`count`: a whole number: a sum of _count's)."""
    digits = str(count)
    groups = []  # type: List[str]
    while len(digits) > 3:
        groups.insert(0, digits[len(digits) - 3:])
        digits = digits[:len(digits) - 3]
    groups.insert(0, digits)
    return ','.join(groups)


def tokens_text(tokens: 'JsonObject') -> str:
    """'1,234 tokens (1,000 in, 234 out, 50 thinking)': the total, then each count the agent gave."""
    details = []  # type: List[str]
    for pair in TOKEN_NAMES:
        if pair[0] in tokens:
            details.append(count_text(tokens[pair[0]]) + ' ' + pair[1])
    total = tokens['total']
    text = count_text(total) + (' token' if total == 1 else ' tokens')
    return text + (' (' + ', '.join(details) + ')' if len(details) > 0 else '')


def money_of(cost: 'Json') -> 'Optional[JsonObject]':
    if cost_text(cost) is None:
        return None
    return {'amount': get_key(cost, 'amount'), 'currency': get_key(cost, 'currency').upper()}


def turn_cost(before: 'Json', after: 'Json') -> 'Optional[JsonObject]':
    """What the session's cumulative cost grew by in the turn ({amount, currency}): `before` as it was said before
    the turn (None: never), `after` as the turn left it (None: the agent said none in the turn). None when that is
    not known: no cost after, another currency, a lower amount."""
    spent = money_of(after)
    if spent is None:
        return None
    if before is None:
        return spent
    earlier = money_of(before)
    if earlier is None or earlier['currency'] != spent['currency'] or spent['amount'] < earlier['amount']:
        return None
    return {'amount': spent['amount'] - earlier['amount'], 'currency': spent['currency']}


def turn_usage(tokens: 'Optional[JsonObject]', cost: 'Optional[JsonObject]') -> 'Optional[JsonObject]':
    """What a reply keeps of its turn: {'tokens', 'cost', 'text': 'This turn: … · $0.25'}, or None when the agent
    said neither."""
    if tokens is None and cost is None:
        return None
    said = []  # type: List[str]
    if tokens is not None:
        said.append(tokens_text(tokens))
    if cost is not None:
        said.append(cost_text(cost) or '')
    return {'tokens': tokens, 'cost': cost, 'text': 'This turn: ' + ' · '.join(said)}


def restore_usage(value: 'Json') -> 'Optional[JsonObject]':
    """A stored reply's `usage`, checked again (the store is a file anyone could have written), else None."""
    tokens = turn_tokens(get_key(value, 'tokens'), [[pair[1], pair[1]] for pair in TOKEN_FIELDS])
    cost = money_of(get_key(value, 'cost'))
    return turn_usage(tokens, cost)


def session_usage(messages: 'List[Any]', cost: 'Json' = None) -> 'Optional[JsonObject]':
    """A session's totals: {'turns' (those that said tokens), 'tokens' (their sum), 'cost' (text of the session's
    cumulative `cost`, or None), 'text': 'This session: $0.50 · 2,468 tokens over 2 turns'}, or None when its agent
    said nothing of either."""
    turns = 0
    total = 0
    for message in messages:
        usage = get_key(message, 'usage') if get_key(message, 'role') == 'assistant' else None
        tokens = get_key(usage, 'tokens')
        if tokens is not None and _count(get_key(tokens, 'total')) is not None:
            turns += 1
            total += tokens['total']
    money = cost_text(cost) if cost is not None else None
    if turns == 0 and money is None:
        return None
    said = []  # type: List[str]
    if money is not None:
        said.append(money or '')
    if turns > 0:
        said.append(count_text(total) + (' token' if total == 1 else ' tokens') + ' over ' + str(turns) +
                    (' turn' if turns == 1 else ' turns'))
    return {'turns': turns, 'tokens': total, 'cost': money, 'text': 'This session: ' + ' · '.join(said)}
