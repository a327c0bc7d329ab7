"""core/acp/hermes_background.py: Hermes Agent's `_hermes/process` and `_hermes/notification` read defensively into one
session update whose words render as text."""
from hermes.core.acp.hermes_background import BACKGROUND_UPDATE, MAX_PROMPT_CHARS, background_update


def test_a_background_process_starting_and_ending():
    running = background_update('_hermes/process', {'sessionId': 's', 'toolCallId': 't1', 'processId': 'p1',
                                                    'command': 'npm run watch', 'status': 'running'})
    assert running == {'sessionUpdate': BACKGROUND_UPDATE, 'prompt': None, 'plain': 'running npm run watch',
                       'text': 'Running in the background: `npm run watch`'}
    ended = background_update('_hermes/process', {'command': 'npm run watch', 'status': 'exited', 'exitCode': 1,
                                                  'reason': 'killed [by](command:x) user'})
    assert ended['text'] == 'Background command `npm run watch` ended (exit code 1; killed \\[by\\](command:x) user)'
    assert background_update('_hermes/process', {'command': 'x', 'status': 'exited'})['text'].endswith(
        '(no exit code)')


def test_a_notification_is_shown_by_its_title_and_offers_its_text_as_the_next_prompt():
    update = background_update('_hermes/notification', {'sessionId': 's', 'kind': 'completion',
                                                        'title': 'Background process p1 finished',
                                                        'text': '[process p1 exited 0]\nsummarize the log',
                                                        'notificationIds': []})
    assert update == {'sessionUpdate': BACKGROUND_UPDATE, 'text': 'Background process p1 finished',
                      'plain': 'Background process p1 finished', 'prompt': '[process p1 exited 0]\nsummarize the log'}
    untitled = background_update('_hermes/notification', {'text': 'x' * (MAX_PROMPT_CHARS + 10)})
    assert len(untitled['prompt']) == MAX_PROMPT_CHARS and untitled['text'].startswith('xxx')


def test_malformed_or_unknown_notifications_are_nothing():
    assert background_update('_hermes/process', {'command': 'x'}) is None
    assert background_update('_hermes/process', {'command': 'x', 'status': 'paused'}) is None
    assert background_update('_hermes/process', {'command': 7, 'status': 'running'}) is None
    assert background_update('_hermes/notification', {'title': '', 'text': 3}) is None
    assert background_update('_hermes/other', {'title': 't'}) is None
    assert background_update('_hermes/notification', None) is None
