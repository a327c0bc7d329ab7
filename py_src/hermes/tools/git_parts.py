"""Parts the git tools share."""
# __pragma__('tconv')

PATH_ARG = {'type': 'string', 'description': 'A file or folder inside the repository (default: the first workspace folder).'}
