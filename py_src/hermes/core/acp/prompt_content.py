"""What a prompt carries besides its text, as ACP content blocks, fitted to what the agent reads — free of VS Code.

The front ends attach what the user gave, as richly as ACP allows: an image as an `image` block (base64 data), a
file or a selection with its text as an embedded `resource` block. The agent's `initialize` answer says what it
reads besides text (`agentCapabilities.promptCapabilities`: `image`, `embeddedContext`; `text` and `resource_link`
every agent reads): `fit_prompt` keeps what it reads, turns an embedded resource it cannot read into a
`resource_link` to the same file (as prompts went before), and leaves out an image it cannot read, with a note
that says so.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import List, Optional
from hermes.contracts.json import Json, JsonObject
# __pragma__('noskip')
from hermes.js.json import parse_json
from hermes.js.text import native_regex, regex_matches
from hermes.core.values import json_type, get_key
from hermes.core.untrusted_markdown import plain_text

IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp']
MAX_IMAGE_CHARS = 7 * 1024 * 1024  # base64 of a 5 MB image: a larger one is not sent
MAX_PANEL_IMAGES = 4  # images one prompt in the side panel carries
BASE64 = native_regex('^[A-Za-z0-9+/]+={0,2}$')
MAX_EMBEDDED_CHARS = 256 * 1024  # a longer file or selection goes as a link (the agent reads it itself)


def image_block(mime_type: 'Json', data: 'Json', uri: 'Json' = None) -> 'Optional[JsonObject]':
    """An `image` block, or None when it is no image we send (another type, no data, too large)."""
    if json_type(mime_type) != 'string' or not (mime_type.lower() in IMAGE_TYPES):
        return None
    if json_type(data) != 'string' or data == '' or len(data) > MAX_IMAGE_CHARS:
        return None
    block = {'type': 'image', 'mimeType': mime_type.lower(), 'data': data}  # type: JsonObject
    if json_type(uri) == 'string' and uri != '':
        block['uri'] = uri
    return block


def resource_block(uri: str, text: str, mime_type: 'Optional[str]' = None) -> 'JsonObject':
    """An embedded `resource` block: the text of a file (or of a selection: `uri` then names its lines)."""
    resource = {'uri': uri, 'text': text}  # type: JsonObject
    if mime_type is not None:
        resource['mimeType'] = mime_type
    return {'type': 'resource', 'resource': resource}


def selection_uri(uri: str, first_line: int, last_line: int) -> str:
    """A selection's resource uri: the file's, with its lines (1-based) as the fragment: file:///a.py#L3-L9."""
    return uri + '#L' + str(first_line) + ('-L' + str(last_line) if last_line != first_line else '')


def link_name(uri: str) -> str:
    """A resource_link's name: the file's name, with a selection's lines ('a.py:3-9')."""
    cut = uri.find('#')
    path = uri if cut < 0 else uri[:cut]
    name = path[path.rfind('/') + 1:]
    if cut >= 0 and uri[cut + 1:].startswith('L'):
        name = name + ':' + uri[cut + 2:].replace('-L', '-')
    return name if name != '' else uri


def fit_prompt(blocks: 'List[JsonObject]', capabilities: 'Json', agent_name: str) -> 'JsonObject':
    """`blocks` as the agent reads them (`capabilities`: its agentCapabilities): {'blocks', 'notes' (what was left
    out, in words)}."""
    offered = get_key(capabilities, 'promptCapabilities')
    reads_images = get_key(offered, 'image') is True
    reads_embedded = get_key(offered, 'embeddedContext') is True
    fitted = []  # type: List[JsonObject]
    linked = []  # type: List[str]
    dropped = 0
    for block in blocks:
        kind = get_key(block, 'type')
        if kind == 'image':
            if reads_images:
                fitted.append(block)
            else:
                dropped += 1
        elif kind == 'resource':
            resource = get_key(block, 'resource')
            text = get_key(resource, 'text')
            if reads_embedded and json_type(text) == 'string' and len(text) <= MAX_EMBEDDED_CHARS:
                fitted.append(block)
                continue
            uri = get_key(resource, 'uri')
            if json_type(uri) == 'string' and not (uri in linked):
                linked.append(uri)
                fitted.append({'type': 'resource_link', 'uri': uri, 'name': link_name(uri)})
        else:
            fitted.append(block)
    notes = []  # type: List[str]
    if dropped > 0:
        notes.append(agent_name + ' does not read images: ' + ('the image was' if dropped == 1 else
                                                                str(dropped) + ' images were') + ' not sent.')
    return {'blocks': fitted, 'notes': notes}


def panel_images(text: str) -> 'JsonObject':
    """The images the side panel's webview sent (JSON text of [{mimeType, data, name}]: untrusted) as `image` blocks:
    {'images', 'problems'} — an image that is no image we send (type, size, data that is not base64) is left out,
    and said in `problems`; so are images past MAX_PANEL_IMAGES."""
    images = []  # type: List[JsonObject]
    problems = []  # type: List[str]
    try:
        items = parse_json(text)
    except ValueError:
        return {'images': images, 'problems': ['The images could not be read.']}
    if json_type(items) != 'array':
        return {'images': images, 'problems': ['The images could not be read.']}
    for item in items:
        name = get_key(item, 'name')
        shown = plain_text(name[:80]) if json_type(name) == 'string' and name.strip() != '' else 'an image'
        if len(images) >= MAX_PANEL_IMAGES:
            problems.append(shown + ': at most ' + str(MAX_PANEL_IMAGES) + ' images go with one message.')
            continue
        data = get_key(item, 'data')
        block = image_block(get_key(item, 'mimeType'), data)
        if block is None or not regex_matches(BASE64, data):
            problems.append(shown + ': not sent (a PNG, JPEG, GIF or WebP image of at most 5 MB is).')
            continue
        images.append(block)
    return {'images': images, 'problems': problems}
