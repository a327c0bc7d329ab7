"""What an ACP agent's turn used and cost (core/acp/turn_usage.py), and where it shows: a line under the turn in a chat
session (live and in its history), the session item's tooltip, kept in the store across a reload."""
import asyncio

import pytest

from hermes.core.acp.turn_usage import (turn_tokens, count_text, tokens_text, turn_cost, turn_usage, restore_usage,
                                    session_usage, cost_text, money_of)
from hermes.core.chat.conversations import Conversation, ConversationStore
from hermes.core.chat.sessions import item_view, history_plan
from test_acp_sessions import make_world, ask
from test_acp_turn import chunk

WIRE = {'totalTokens': 1234, 'inputTokens': 1000, 'outputTokens': 200, 'thoughtTokens': 34}


def usd(amount, currency='USD'):
    return {'amount': amount, 'currency': currency}


def spent(amount, currency='USD'):
    return {'sessionUpdate': 'usage_update', 'used': 50000, 'size': 200000, 'cost': usd(amount, currency)}


def test_the_answers_tokens_are_read_with_the_optional_counts_the_agent_gave():
    assert turn_tokens(WIRE) == {'total': 1234, 'input': 1000, 'output': 200, 'thought': 34}
    assert turn_tokens(dict(WIRE, cachedReadTokens=800, cachedWriteTokens=0)) == {
        'total': 1234, 'input': 1000, 'output': 200, 'thought': 34, 'cachedRead': 800, 'cachedWrite': 0}


@pytest.mark.parametrize('usage', [None, 'lots', [], {}, {'totalTokens': 1, 'inputTokens': 1},
                                   dict(WIRE, totalTokens=-1), dict(WIRE, inputTokens=1.5),
                                   dict(WIRE, outputTokens='200'), dict(WIRE, totalTokens=1e16),
                                   dict(WIRE, totalTokens=True)])
def test_an_answer_without_the_required_counts_says_no_tokens(usage):
    assert turn_tokens(usage) is None


def test_a_wrong_optional_count_is_left_out():
    assert turn_tokens(dict(WIRE, thoughtTokens=-3, cachedReadTokens='9')) == {'total': 1234, 'input': 1000,
                                                                                 'output': 200}


def test_counts_are_said_with_thousands_separators():
    assert [count_text(n) for n in [0, 7, 999, 1000, 12345, 1234567]] == ['0', '7', '999', '1,000', '12,345',
                                                                          '1,234,567']
    assert tokens_text({'total': 1, 'input': 1, 'output': 0}) == '1 token (1 in, 0 out)'
    assert tokens_text(turn_tokens(dict(WIRE, cachedReadTokens=800))) == \
        '1,234 tokens (1,000 in, 200 out, 34 thinking, 800 cache read)'


def test_a_turns_cost_is_what_the_sessions_cost_grew_by_in_one_currency():
    assert turn_cost(None, usd(0.25)) == usd(0.25)  # the session's first cost: all this turn's
    assert turn_cost(usd(0.25), usd(0.75)) == usd(0.5)
    assert turn_cost(usd(0.25), usd(0.25)) == usd(0)
    assert turn_cost(usd(0.25), None) is None  # no cost said in the turn
    assert turn_cost(usd(0.25), usd(0.5, 'EUR')) is None  # never subtracted across currencies
    assert turn_cost(usd(0.75), usd(0.25)) is None  # the agent counts anew: nothing known of the turn
    assert turn_cost(usd(0.25), usd(-1)) is None and turn_cost(usd(0.25), {'amount': 1, 'currency': 'US'}) is None
    assert turn_cost('junk', usd(0.25, 'eur')) is None
    assert turn_cost(None, usd(0.25, 'eur')) == usd(0.25, 'EUR')


def test_a_turns_line_says_its_tokens_then_its_cost_in_the_agents_currency():
    assert turn_usage(turn_tokens(WIRE), usd(0.25)) == {
        'tokens': {'total': 1234, 'input': 1000, 'output': 200, 'thought': 34}, 'cost': usd(0.25),
        'text': 'This turn: 1,234 tokens (1,000 in, 200 out, 34 thinking) · $0.25'}
    assert turn_usage(None, usd(0.5, 'CHF'))['text'] == 'This turn: 0.50 CHF'
    assert turn_usage(turn_tokens(WIRE), None)['text'] == 'This turn: 1,234 tokens (1,000 in, 200 out, 34 thinking)'
    assert turn_usage(None, None) is None


def test_a_stored_usage_is_checked_again_and_its_line_made_anew():
    stored = {'tokens': {'total': 3, 'input': 2, 'output': 1}, 'cost': usd(0.001), 'text': '<b>forged</b>'}
    assert restore_usage(stored) == {'tokens': {'total': 3, 'input': 2, 'output': 1}, 'cost': usd(0.001),
                                     'text': 'This turn: 3 tokens (2 in, 1 out) · $0.0010'}
    assert restore_usage({'tokens': {'total': 'x'}, 'cost': {'amount': 1e12, 'currency': 'USD'}}) is None
    assert restore_usage('junk') is None and restore_usage(None) is None


def test_a_sessions_totals_sum_the_turns_that_said_tokens_and_take_its_cost_as_said():
    messages = [{'role': 'user', 'text': 'a'},
                {'role': 'assistant', 'usage': turn_usage(turn_tokens(WIRE), usd(0.25))},
                {'role': 'assistant', 'usage': turn_usage(None, usd(0.25))},
                {'role': 'assistant'},
                {'role': 'assistant', 'usage': turn_usage(turn_tokens(WIRE), None)}]
    assert session_usage(messages, usd(0.5)) == {'turns': 2, 'tokens': 2468, 'cost': '$0.50',
                                                 'text': 'This session: $0.50 · 2,468 tokens over 2 turns'}
    assert session_usage(messages[:2], None)['text'] == 'This session: 1,234 tokens over 1 turn'
    assert session_usage([], usd(0.5, 'EUR'))['text'] == 'This session: €0.50'
    assert session_usage([], None) is None and session_usage(messages[3:4], 'junk') is None


def test_money_is_read_in_upper_case_or_not_at_all():
    assert money_of(usd(1, 'gbp')) == usd(1, 'GBP') and money_of(usd(1, 'GB1')) is None
    assert cost_text(usd(0.25)) == '$0.25'


# ---------------------------------------------------------------- in a chat session, its item and the store

def test_each_turn_says_what_it_used_and_cost_and_the_item_what_the_session_did():
    world = make_world({'turns': [[spent(0.25), chunk('one'), ('answer', {'usage': WIRE})],
                                  [spent(0.5), chunk('two'), ('answer', {'usage': WIRE})]]})
    first, _ = ask(world, 'first')
    line = '*This turn: 1,234 tokens (1,000 in, 200 out, 34 thinking) · $0.25*'
    assert first.text() == 'one\n\n' + line
    [conversation] = world['store'].conversations
    second, _ = ask(world, 'second', 'hermes:/' + conversation.id)
    assert second.text() == 'two\n\n' + line  # $0.50 − $0.25
    assert conversation.acp['cost'] == usd(0.5)
    view = item_view(conversation, lambda ms: 'at')
    assert view['description'] == 'Hermes Agent · 25% of context · $0.50'
    assert view['tooltip'] == ('Titled by the agent\nHermes Agent · 25% of context · $0.50\n'
                               'This session: $0.50 · 2,468 tokens over 2 turns\nat')
    # the history the session shows when reopened has the same line under each turn
    responses = [turn for turn in history_plan(conversation) if turn['kind'] == 'response']
    assert [part['text'] for part in responses[1]['parts']] == ['two', '\n\n' + line]
    # a reload: the store keeps each turn's usage and the session's cost (the description still says it)
    store = ConversationStore.restore(world['store'].to_data(), lambda: 'x', lambda: 1)
    [restored] = store.conversations
    assert restored.messages[3]['usage'] == conversation.messages[3]['usage']
    assert restored.acp['cost'] == usd(0.5)
    assert item_view(restored, lambda ms: 'at')['description'] == 'Hermes Agent · $0.50'


def test_a_turn_in_another_currency_says_its_tokens_but_no_cost_and_nothing_is_summed_across_currencies():
    world = make_world({'turns': [[spent(0.25), chunk('one')], [spent(0.25, 'EUR'), chunk('two'),
                                                                ('answer', {'usage': WIRE})]]})
    first, _ = ask(world, 'first')
    assert first.text() == 'one\n\n*This turn: $0.25*'
    [conversation] = world['store'].conversations
    second, _ = ask(world, 'second', 'hermes:/' + conversation.id)
    assert second.text() == 'two\n\n*This turn: 1,234 tokens (1,000 in, 200 out, 34 thinking)*'
    assert conversation.acp['cost'] == usd(0.25, 'EUR')
    assert '\nThis session: €0.25 · 1,234 tokens over 1 turn' in item_view(conversation, str)['tooltip']


def test_a_turn_whose_agent_says_neither_has_no_line():
    world = make_world({'turns': [[chunk('one'), ('answer', {'usage': {'totalTokens': 'many'}})]]})
    stream, _ = ask(world, 'first')
    assert stream.text() == 'one'
    [conversation] = world['store'].conversations
    assert 'usage' not in conversation.messages[1] and 'cost' not in conversation.acp
    assert 'This session' not in item_view(conversation, str)['tooltip']
