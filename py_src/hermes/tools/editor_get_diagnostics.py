# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import EditorGetDiagnosticsArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool
from hermes.core.editor_terms import SEVERITIES

MAX_ITEMS = 300


async def get_diagnostics(args: 'EditorGetDiagnosticsArgs', call: 'CallContext') -> 'ToolReturn':
    severity = args['severity']
    path = None
    label = 'the workspace'
    withheld = 0
    language = call.services.language
    path_text = args['path']
    if path_text is not None:
        tabs = call.services.tabs
        paths = call.services.paths
        path = paths.resolve_path(path_text)
        label = paths.display_path(path)
        opened = len(tabs.showing(path)) == 0
        if opened:
            # Language services (TypeScript's among them) only check files open in an editor tab: open
            # one without taking the focus, and close it again once the report is in.
            await tabs.open_in_background(path, label)
        wait_seconds = args['wait_seconds']
        if wait_seconds is None:  # (a file just opened needs a moment for its language service to report)
            wait_seconds = 3 if opened else 0
        if wait_seconds > 0 and len(language.problems(path)) == 0:
            await language.wait_for_problems(path, wait_seconds * 1000, call)
        found = language.problems(path, severity)  # before closing: a closed file's problems may be cleared
        if opened:
            await tabs.close(tabs.showing(path))
    else:
        everywhere = language.problems(None, severity)
        # As the diagnostics resource: an outside file's path is not shown (nor could a tool open it).
        found = [item for item in everywhere if not ('withheld' in item)]
        withheld = len(everywhere) - len(found)
    outside = '' if withheld == 0 else ('\n[not listed: ' + str(withheld) + ' problem' + ('' if withheld == 1 else 's') +
                                         ' in files outside the workspace, whose paths are withheld]')
    if len(found) == 0:
        worse = '' if severity == 'hint' else ' at severity ' + severity + ' or worse'
        return 'No problems reported for ' + label + worse + '.' + outside
    lines = []
    for item in found[:MAX_ITEMS]:
        code = '' if item['code'] is None else ' ' + item['code']
        source = '' if item['source'] is None else ' (' + item['source'] + ')'
        lines.append(item['path'] + ':' + str(item['line']) + ':' + str(item['column']) + ' ' + item['severity'] +
                     code + ': ' + item['message'] + source)
    counts = []
    for name in SEVERITIES:
        count = len([item for item in found if item['severity'] == name])
        if count > 0:
            counts.append(str(count) + ' ' + name + ('' if count == 1 else 's'))
    text = str(len(found)) + ' problem' + ('' if len(found) == 1 else 's') + ' in ' + label + ' (' + \
        ', '.join(counts) + '):\n' + '\n'.join(lines)
    if len(found) > MAX_ITEMS:
        text = text + '\n[truncated: ' + str(len(found) - MAX_ITEMS) + ' more problems; filter by path or severity]'
    return text + outside


TOOL = Tool(
    'editor_get_diagnostics',
    'The problems (errors, warnings, …) VS Code\'s language services report, as "path:line:column severity '
    'code: message (source)" lines. For one file, or for every file VS Code has checked. Language services '
    'check only files open in editor tabs: with a path, a file that is not open is opened in a tab (without '
    'taking the focus) while the tool waits for the report, then closed again.',
    {'type': 'object', 'properties': {
        'path': {'type': 'string', 'description': 'One file (workspace-relative or absolute); default: all files.'},
        'severity': {'type': 'string', 'enum': SEVERITIES, 'default': 'hint',
                     'description': 'Report this severity and worse ("hint": everything).'},
        'wait_seconds': {'type': 'number', 'minimum': 0, 'maximum': 30,
                         'description': 'With a path: how long to wait for a report when there is none yet '
                                        '(default 3 for files not open in a tab, else 0).'},
    }, 'additionalProperties': False},
    get_diagnostics,
    title='Get diagnostics',
    essential=True,  # offered even when the model's context is too small for every tool
)
