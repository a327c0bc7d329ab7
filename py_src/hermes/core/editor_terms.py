"""How the tools and resources speak of what an editor shows: places as 1-based line and column (VS Code counts
from 0), and a problem's severity by name. One home, so the host's readings and the tools' schemas agree."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Dict
# __pragma__('noskip')

SEVERITIES = ['error', 'warning', 'information', 'hint']  # vscode.DiagnosticSeverity 0..3, worst first


def point(position: 'Any') -> 'Dict[str, int]':
    """A vscode.Position (0-based `line`, `character`) as the 1-based {'line', 'column'} the tools speak."""
    return {'line': position.line + 1, 'column': position.character + 1}
