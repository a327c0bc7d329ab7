"""Running VS Code commands by id, with JSON arguments, and describing what they return."""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError
from hermes.js.modules import vscode
from hermes.js.objects import keys_of
from hermes.core.tools import ToolError
from hermes.core.values import json_type, copyable_keys
from hermes.host.paths import resolve_path
# __pragma__('skip')
from typing import Any, List
from hermes.contracts.json import Json, JsonObject
# __pragma__('noskip')

URI_KEY = '$uri'


def convert_argument(value: 'Json') -> 'Any':
    """JSON → command argument: {"$uri": "src/a.ts"} (or "file:///…", "untitled:x") becomes a vscode.Uri
    (plain paths go through the workspace path rules); everything else is passed as it is."""
    kind = json_type(value)
    if kind == 'array':
        return [convert_argument(item) for item in value]
    if kind != 'object':
        return value
    keys = keys_of(value)
    if len(keys) == 1 and keys[0] == URI_KEY:
        target = value[URI_KEY]
        if json_type(target) != 'string':
            raise ToolError('"$uri" needs a string: a workspace path or a URI such as "file:///…".')
        colon = target.find(':')
        if colon > 1 and target.find('/') > colon:  # scheme:… (a Windows drive letter has colon == 1)
            uri = vscode.Uri.parse(target)
            if uri.scheme == 'file':
                return vscode.Uri.file(resolve_path(uri.fsPath))
            return uri
        return vscode.Uri.file(resolve_path(target))
    converted = {}  # type: JsonObject
    for key in copyable_keys(value):
        converted[key] = convert_argument(value[key])
    return converted


async def execute(command: str, args: 'List[Json]') -> 'Any':
    converted = [convert_argument(item) for item in args]
    try:
        return await vscode.commands.executeCommand(command, *converted)
    except JsError as error:
        raise ToolError('The command "' + command + '" failed: ' + error_message(error))


async def all_commands() -> 'List[str]':
    return await vscode.commands.getCommands(True)
