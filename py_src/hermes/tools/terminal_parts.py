"""Parts the terminal tools share."""
# __pragma__('tconv')

# anyOf rather than a type list: clients that map schemas onto one `type` per value (Gemini) reject type lists.
TERMINAL_REF = {'anyOf': [{'type': 'integer'}, {'type': 'string'}],
                'description': 'Terminal id (from terminal_list/terminal_create) or exact name; default: the active terminal.'}
