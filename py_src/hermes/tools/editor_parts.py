"""Parts the editor tools share: one text edit (editor_edit_file, editor_open_diff), and what a model reads when the
active editor shows what it may not see (editor_get_content, editor_get_selection)."""
# __pragma__('tconv')

EDIT_SCHEMA = {
    'type': 'object',
    'properties': {
        'old_text': {'type': 'string', 'description': 'Exact text to replace (whitespace and line breaks '
                                                      'included). Must occur exactly once unless replace_all.'},
        'new_text': {'type': 'string', 'description': 'Replacement text (may be empty to delete).'},
        'replace_all': {'type': 'boolean', 'description': 'Replace every occurrence of old_text.'},
        'start_line': {'type': 'integer', 'minimum': 1, 'description': 'Instead of old_text: first line to '
                                                                       'replace (1-based).'},
        'end_line': {'type': 'integer', 'minimum': 0, 'description': 'Last line to replace (inclusive); '
                                                                     'start_line - 1 inserts before start_line.'},
    },
    'required': ['new_text'],
    'additionalProperties': False,
}

# As the resources: no text or path of what is not a workspace file (host/confinement.py).
WITHHELD_EDITOR = ('The active editor shows a file outside the workspace (or no workspace file): its path and '
                   'text are withheld.')
