"""The banner of a failed turn or model list in the side panel: an error from the agent loop or the LLM client → its
text and the actions it offers. Pure (the parity vectors replay it on the bundle)."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Optional, TypedDict


class DescribedError(TypedDict):
    message: str
    kind: Optional[str]  # the LLM client's error kind (core/llm_errors.py), None for others
    settings: bool  # the banner offers the settings
    apiKey: bool  # … and the API key
# __pragma__('noskip')
from hermes.js.errors import error_message, JsError
from hermes.core.values import json_type


def describe_error(error: 'Any') -> 'DescribedError':
    """An error from the loop or the LLM client → the banner's text and which actions it offers."""
    kind = None
    if error is not None and json_type(error) != 'string':
        try:
            kind = error.kind
        except JsError:
            kind = None
    message = error_message(error)
    return {
        'message': message,
        'kind': kind if json_type(kind) == 'string' else None,
        'settings': kind in ['unreachable', 'model_not_found', 'endpoint_not_found', 'timeout'],
        'apiKey': kind == 'auth',
    }
