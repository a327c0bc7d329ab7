"""The VS Code side of the native chat front ends (participant, language model, LM tools): the
`vscode.LanguageModel*` classes behind core/chat/messages.py's factory, tool results in VS Code's
shape, #file references read into text, and workspace paths turned into URIs for references."""
# __pragma__('tconv')
from hermes.js.errors import JsError
from hermes.js.modules import node, vscode
from hermes.js.objects import new
from hermes.core.values import json_type
from hermes.core.chat.messages import prop
from hermes.host.paths import resolve_path, display_path
from hermes.host.confinement import shown_path
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, List, Optional
from hermes.contracts.json import JsonObject
if TYPE_CHECKING:
    from vscode import (LanguageModelChatMessage, LanguageModelTextPart, LanguageModelToolCallPart,
                        LanguageModelToolResult, LanguageModelToolResultPart, MarkdownString, Uri)
# __pragma__('noskip')

# vscode.LanguageModelChatMessageRole
ROLE_USER = 1
ROLE_ASSISTANT = 2


class VsCodeParts:
    """core/chat/messages.py's factory over the real classes."""
    system = False  # LanguageModelChatMessageRole.System is a proposed API: system text goes as User

    def text(self, value: str) -> 'LanguageModelTextPart':
        return new(vscode.LanguageModelTextPart, value)

    def tool_call(self, call_id: str, name: str, value: 'Any') -> 'LanguageModelToolCallPart':
        return new(vscode.LanguageModelToolCallPart, call_id, name, value)

    def tool_result(self, call_id: str, texts: 'List[str]') -> 'LanguageModelToolResultPart':
        return new(vscode.LanguageModelToolResultPart, call_id, [self.text(text) for text in texts])

    def message(self, role: int, parts: 'List[Any]', name: 'Optional[str]') -> 'LanguageModelChatMessage':
        if name is None:
            return new(vscode.LanguageModelChatMessage, role, parts)
        return new(vscode.LanguageModelChatMessage, role, parts, name)


def tool_result(text: str) -> 'LanguageModelToolResult':
    """A `vscode.LanguageModelToolResult` holding one text part."""
    return new(vscode.LanguageModelToolResult, [new(vscode.LanguageModelTextPart, text)])


def markdown(text: str) -> 'MarkdownString':
    return new(vscode.MarkdownString, text)


def path_uri(path_text: 'Optional[str]') -> 'Optional[Uri]':
    """The URI of an existing workspace file or folder a tool argument names, or None (outside the
    workspace, missing, or not a path at all)."""
    try:
        path = resolve_path(path_text)
    except JsError:
        return None
    if not node('fs').existsSync(path):
        return None
    return vscode.Uri.file(path)


# ------------------------------------------------------------------------------------ references

IMAGE_NOT_READ = 'An attached image (the built-in loop does not read images: it was not sent)'


async def read_references(references: 'Any') -> 'List[JsonObject]':
    """`request.references` → [{'label', 'text', 'language'}] (text None when it can't be read).
    A reference is a Uri (#file), a Location (#selection, a symbol), a string, or an image (ChatReferenceBinaryData:
    named, not sent — the built-in loop's model reads text only)."""
    result = []  # type: List[JsonObject]
    for reference in references or []:
        try:
            item = await _read_reference(reference)
        except JsError:
            item = None
        if item is not None:
            result.append(item)
    return result


async def _read_reference(reference: 'Any') -> 'Optional[JsonObject]':
    value = prop(reference, 'value')
    description = prop(reference, 'modelDescription')
    if json_type(value) == 'string':
        return {'label': description if json_type(description) == 'string' else 'text', 'text': value,
                'language': ''}
    if value is None:
        return None
    uri = prop(value, 'uri')
    selected = prop(value, 'range')
    if uri is None or selected is None:
        uri = value
        selected = None
    if json_type(prop(uri, 'scheme')) != 'string':
        # no file: an image VS Code attached (ChatReferenceBinaryData, its mimeType image/…), or nothing readable
        return {'label': IMAGE_NOT_READ, 'text': None, 'language': ''} if \
            str(prop(value, 'mimeType')).startswith('image/') else None
    label = shown_path(uri)  # (the user attached it: shown as named, not judged by the confinement rule)
    if node('fs').existsSync(uri.fsPath) and node('fs').statSync(uri.fsPath).isDirectory():
        return {'label': label + ' (folder)', 'text': None, 'language': ''}
    document = await vscode.workspace.openTextDocument(uri)
    if selected is None:
        text = document.getText()
    else:
        text = document.getText(selected)
        label = label + ' (lines ' + str(selected.start.line + 1) + '–' + str(selected.end.line + 1) + ')'
    return {'label': label, 'text': text, 'language': document.languageId}
