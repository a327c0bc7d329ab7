"""What the side panel's webview is shown whole (when it is ready, or the panel shows another conversation): the
conversation and its running turn, who answers it, the questions still waiting and the pending changes by turn."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Optional
# __pragma__('noskip')
from hermes.js.json import dump_json
from hermes.ui.acp.panel import PanelQuestions
from hermes.ui.panel.backends import PanelBackends
from hermes.ui.panel.state import PanelState


class PanelPage:
    def __init__(self, state: PanelState, backends: PanelBackends, questions: PanelQuestions) -> None:
        self.state = state
        self.backends = backends
        self.questions = questions
        self.changes_posted = None  # type: Optional[str]  # the last `changes` message posted (JSON text), for post_changes(True)

    def post_state(self) -> None:
        state = self.state
        turn = state.turn
        running = turn is not None  # (state.running, with `turn` known not None below)
        messages = state.conversation.messages
        if turn is not None:
            messages = [message for message in messages if message is not turn.assistant]
        state.post({'type': 'state', 'messages': messages, 'running': running,
                    'current': None if turn is None else turn.assistant,
                    'model': state.host.model(), 'endpoint': state.host.endpoint()})
        self.backends.post_backends()
        for question in self.questions.posts():  # a card still waiting when the webview was rebuilt
            state.post(question)
        self.post_changes()

    def post_changes(self, only_news: bool = False) -> None:
        """The conversation's pending changes by turn (the change log's, through the host; None: no change log,
        nothing to post). `only_news`: not when the webview has them already (the change log's listener: most
        changes are another conversation's or another client's)."""
        turns = self.state.host.turn_changes(self.state.conversation.id)
        if turns is None:
            return
        text = dump_json(turns)  # (a conversation shown anew is posted whole by post_state)
        if only_news and text == self.changes_posted:
            return
        self.changes_posted = text
        self.state.post({'type': 'changes', 'turns': turns})
