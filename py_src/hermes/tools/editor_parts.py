"""Parts the editor tools share: one text edit (editor_edit_file, editor_open_diff)."""
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
