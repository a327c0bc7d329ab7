"""`config`: the client snippets (core/client_config.py) for the selected window, ready to paste."""
# __pragma__('tconv')
from hermes.js.json import dump_json
from hermes.core.client_config import all_snippets, snippet_for, CLIENTS


def config_text(window, client='all', as_json=False):
    url = window['url']
    token = window['token']
    if as_json:
        snippets = {}
        for entry in CLIENTS:
            if client == 'all' or client == entry[0]:
                snippets[entry[0]] = snippet_for(entry[0], url, token)
        return dump_json({'url': url, 'snippets': snippets}, 2) + '\n'
    if client == 'all':
        return all_snippets(url, token)
    return snippet_for(client, url, token)
