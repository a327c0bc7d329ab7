"""The model picker of the side panel: the LLM server's models (the host lists them), the one chosen, and why the
list failed if it did."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import List, Optional
# __pragma__('noskip')
from hermes.js.errors import error_message, JsError
from hermes.core.values import json_type
from hermes.ui.panel.backends import PanelBackends
from hermes.ui.panel.errors import describe_error
from hermes.ui.panel.state import PanelState


class PanelModels:
    def __init__(self, state: PanelState, backends: PanelBackends) -> None:
        self.state = state
        self.backends = backends
        self.models = []  # type: List[str]
        self.error = None  # type: Optional[str]

    def post(self) -> None:
        host = self.state.host
        self.state.post({'type': 'models', 'models': self.models, 'current': host.model(),
                         'endpoint': host.endpoint(), 'error': self.error})

    async def refresh(self) -> 'List[str]':
        try:
            models = await self.state.host.list_models()
            self.models = [name for name in models if json_type(name) == 'string']
            self.error = None
        except JsError as error:
            self.models = []
            message = error_message(error)
            self.error = message
            self.state.log.warn('Panel: could not list models: ' + message)
            described = describe_error(error)
            if self.backends.builtin_answers():  # (an agent brings its own model)
                self.state.post({'type': 'error', 'message': message, 'retry': 'models', 'settings': True,
                                 'apiKey': described['apiKey'], 'setup': None})
        self.post()
        return self.models
