"""`config`: the client snippets (core/client_config.py) for the selected window, ready to paste."""
# __pragma__('tconv')
from hermes.js.json import dump_json
from hermes.core.client_config import all_snippets, snippet_for, CLIENTS
# __pragma__('skip')
from hermes.contracts.cli import ChosenWindow
from hermes.contracts.json import JsonObject
# __pragma__('noskip')


def config_text(window: 'ChosenWindow', client: str = 'all', as_json: bool = False) -> str:
    url = window['url']
    token = window['token']
    if as_json:
        snippets = {}  # type: JsonObject
        for entry in CLIENTS:
            if client == 'all' or client == entry[0]:
                snippets[entry[0]] = snippet_for(entry[0], url, token)
        return dump_json({'url': url, 'snippets': snippets}, 2) + '\n'
    if client == 'all':
        return all_snippets(url, token)
    return snippet_for(client, url, token)
