"""A prompt's attachments as ACP content blocks (core/acp/prompt_content.py, ui/acp/session.py attached_blocks): an image
from VS Code's chat as an `image` block, a file or a selection with its text as an embedded `resource`, each only
where the agent's promptCapabilities say it reads them — else a link to the file (as before) or, for an image, a note
that it was not sent."""
import asyncio
import base64
import json

import vscode

from hermes.core.acp.prompt_content import (image_block, resource_block, selection_uri, link_name, fit_prompt,
                                        panel_images, MAX_IMAGE_CHARS, MAX_EMBEDDED_CHARS, MAX_PANEL_IMAGES)
from hermes.ui.acp.session import attached_blocks
from test_acp_sessions import make_world, ask_in
from test_chat_sessions import request, session_context
from test_acp_turn import chunk
from test_panel_acp import panel, of

PNG = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
RICH = {'loadSession': True, 'promptCapabilities': {'image': True, 'embeddedContext': True}}


def test_an_image_block_is_one_of_the_image_types_with_its_data():
    assert image_block('image/PNG', 'iVBO', 'file:///a.png') == {'type': 'image', 'mimeType': 'image/png',
                                                                  'data': 'iVBO', 'uri': 'file:///a.png'}
    assert image_block('image/jpeg', 'x') == {'type': 'image', 'mimeType': 'image/jpeg', 'data': 'x'}
    for mime_type, data in [('image/svg+xml', 'x'), ('text/plain', 'x'), (None, 'x'), ('image/png', ''),
                            ('image/png', None), ('image/png', 'x' * (MAX_IMAGE_CHARS + 1))]:
        assert image_block(mime_type, data) is None


def test_a_selections_uri_names_its_lines_and_a_links_name_says_them():
    assert selection_uri('file:///w/a.py', 3, 9) == 'file:///w/a.py#L3-L9'
    assert selection_uri('file:///w/a.py', 4, 4) == 'file:///w/a.py#L4'
    assert link_name('file:///w/a.py#L3-L9') == 'a.py:3-9'
    assert link_name('file:///w/a.py') == 'a.py' and link_name('file:///') == 'file:///'
    assert resource_block('file:///w/a.py', 'x = 1', 'text/x-python') == {
        'type': 'resource', 'resource': {'uri': 'file:///w/a.py', 'text': 'x = 1', 'mimeType': 'text/x-python'}}


PROMPT = [{'type': 'text', 'text': 'look'}, {'type': 'image', 'mimeType': 'image/png', 'data': 'iVBO'},
          resource_block('file:///w/a.py', 'x = 1'), resource_block('file:///w/a.py#L1', 'x = 1'),
          resource_block('file:///w/a.py', 'x = 1'), {'type': 'resource_link', 'uri': 'file:///w/b', 'name': 'b'}]


def test_an_agent_that_reads_images_and_embedded_context_gets_them_as_they_are():
    assert fit_prompt(PROMPT, RICH, 'A') == {'blocks': PROMPT, 'notes': []}


def test_an_agent_that_reads_neither_gets_links_to_the_files_once_and_a_note_for_the_image():
    fitted = fit_prompt(PROMPT, {'promptCapabilities': {'image': False}}, 'Scripted')
    assert fitted['blocks'] == [{'type': 'text', 'text': 'look'},
                                {'type': 'resource_link', 'uri': 'file:///w/a.py', 'name': 'a.py'},
                                {'type': 'resource_link', 'uri': 'file:///w/a.py#L1', 'name': 'a.py:1'},
                                {'type': 'resource_link', 'uri': 'file:///w/b', 'name': 'b'}]
    assert fitted['notes'] == ['Scripted does not read images: the image was not sent.']
    two = fit_prompt(PROMPT[:2] + PROMPT[1:2], None, 'B')
    assert two == {'blocks': PROMPT[:1], 'notes': ['B does not read images: 2 images were not sent.']}
    # capabilities that are no object, or a "true" that is not true, read nothing more
    for capabilities in ['all', [], {'promptCapabilities': {'image': 'yes', 'embeddedContext': 1}}]:
        assert [b['type'] for b in fit_prompt(PROMPT, capabilities, 'C')['blocks']] == ['text', 'resource_link',
                                                                                       'resource_link', 'resource_link']


def test_a_file_too_long_to_embed_goes_as_a_link_even_to_an_agent_that_reads_embedded_context():
    long = resource_block('file:///w/big.log', 'x' * (MAX_EMBEDDED_CHARS + 1))
    assert fit_prompt([long], RICH, 'A')['blocks'] == [{'type': 'resource_link', 'uri': 'file:///w/big.log',
                                                        'name': 'big.log'}]


class BinaryData(vscode._Undefined):
    """VS Code's ChatReferenceBinaryData: an attached image."""

    def __init__(self, mime_type, data, reference=None):
        self.mimeType, self._data, self.reference = mime_type, data, reference

    def data(self):
        async def read():
            return self._data
        return read()


def reference(value):
    item = vscode._Undefined()
    item.value = value
    return item


def with_references(prompt, values):
    value = request(prompt)
    value.references = [reference(v) for v in values]
    return value


def test_the_chats_attachments_become_an_image_a_file_and_a_selection_with_their_texts(tmp_path):
    source = tmp_path / 'a.py'
    source.write_text('one\ntwo\nthree\n')
    uri = vscode.Uri.file(str(source))
    selection = vscode.Location(uri, vscode.Range(vscode.Position(1, 0), vscode.Position(2, 5)))
    values = [BinaryData('image/png', PNG, vscode.Uri.file('/w/shot.png')), uri, selection,
              BinaryData('application/pdf', b'%PDF'), vscode.Uri.parse('https://example.com/x'),
              vscode.Uri.file(str(tmp_path / 'missing.bin'))]
    blocks = asyncio.run(attached_blocks(with_references('see', values)))
    assert blocks == [
        {'type': 'image', 'mimeType': 'image/png', 'data': base64.b64encode(PNG).decode(), 'uri': 'file:///w/shot.png'},
        {'type': 'resource', 'resource': {'uri': uri.toString(), 'text': 'one\ntwo\nthree\n'}},
        {'type': 'resource', 'resource': {'uri': uri.toString() + '#L2-L3', 'text': 'two\nthree'}},
        {'type': 'resource_link', 'uri': vscode.Uri.file(str(tmp_path / 'missing.bin')).toString(),
         'name': 'missing.bin'}]


def test_a_session_sends_the_image_to_an_agent_that_reads_images(tmp_path):
    world = make_world({'turns': [[chunk('seen')]], 'capabilities': RICH}, cwd=str(tmp_path))
    stream = vscode.ChatResponseStream()
    asyncio.run(world['sessions'].handle(with_references('what is this', [BinaryData('image/png', PNG)]),
                                         session_context(vscode.Uri.parse('hermes:/untitled-1')), stream, None))
    prompt = [call for call in world['made'][0].calls if call[0] == 'prompt'][0]
    assert prompt[2] == [{'type': 'text', 'text': 'what is this'},
                         {'type': 'image', 'mimeType': 'image/png', 'data': base64.b64encode(PNG).decode()}]
    assert stream.text() == 'seen'


def test_to_an_agent_that_reads_no_images_the_session_says_the_image_was_not_sent(tmp_path):
    source = tmp_path / 'a.py'
    source.write_text('x = 1\n')
    world = make_world({'turns': [[chunk('seen')]]}, cwd=str(tmp_path))  # (Hermes 0.19.0 alike: no promptCapabilities)
    stream = vscode.ChatResponseStream()
    value = with_references('what is this', [BinaryData('image/png', PNG), vscode.Uri.file(str(source))])
    asyncio.run(world['sessions'].handle(value, session_context(vscode.Uri.parse('hermes:/untitled-1')), stream, None))
    prompt = [call for call in world['made'][0].calls if call[0] == 'prompt'][0]
    assert prompt[2] == [{'type': 'text', 'text': 'what is this'},
                         {'type': 'resource_link', 'uri': vscode.Uri.file(str(source)).toString(), 'name': 'a.py'}]
    assert stream.text() == 'seen\n\n> Hermes Agent does not read images: the image was not sent.\n\n'


# ---------------------------------------------------------------- images attached in the side panel

DATA = base64.b64encode(PNG).decode()


def images_text(*images):
    return json.dumps([{'mimeType': mime, 'data': data, 'name': name} for mime, data, name in images])


def test_the_panels_images_are_checked_each_and_what_is_not_sent_is_said():
    assert panel_images(images_text(('image/png', DATA, 'shot.png'))) == {
        'images': [{'type': 'image', 'mimeType': 'image/png', 'data': DATA}], 'problems': []}
    checked = panel_images(images_text(('image/svg+xml', DATA, 'logo.svg'), ('image/png', 'not base64!', '*x*.png'),
                                       ('image/png', '', ''), *[('image/gif', DATA, 'g.gif')] * (MAX_PANEL_IMAGES + 1)))
    assert [block['mimeType'] for block in checked['images']] == ['image/gif'] * MAX_PANEL_IMAGES
    assert checked['problems'] == [
        'logo.svg: not sent (a PNG, JPEG, GIF or WebP image of at most 5 MB is).',
        '\\*x\\*.png: not sent (a PNG, JPEG, GIF or WebP image of at most 5 MB is).',
        'an image: not sent (a PNG, JPEG, GIF or WebP image of at most 5 MB is).',
        'g.gif: at most 4 images go with one message.']
    for text in ['', 'nope', '{"mimeType": "image/png"}', 'null', '[1, "x", null]']:
        result = panel_images(text)
        assert result['images'] == []
        assert result['problems'] in (['The images could not be read.'], [
            'an image: not sent (a PNG, JPEG, GIF or WebP image of at most 5 MB is).'] * 3)


def test_an_image_sent_in_the_panel_reaches_an_agent_that_reads_images():
    world = make_world({'turns': [[chunk('seen')], [chunk('plain')]], 'capabilities': RICH})
    controller, host = panel(world)
    asyncio.run(controller.handle({'type': 'sendImages', 'text': 'what is this',
                                   'images': images_text(('image/png', DATA, 'shot.png'), ('text/html', 'PGI+', 'x'))}))
    prompt = [call for call in world['made'][0].calls if call[0] == 'prompt'][0]
    assert prompt[2] == [{'type': 'text', 'text': 'what is this'},
                         {'type': 'image', 'mimeType': 'image/png', 'data': DATA}]
    assert [m['text'] for m in of(host, 'notice')] == [
        'x: not sent (a PNG, JPEG, GIF or WebP image of at most 5 MB is).']


def test_an_image_sent_in_the_panel_to_the_built_in_loop_is_said_not_sent():
    world = make_world({'turns': []}, backend='builtin')
    controller, host = panel(world)
    asyncio.run(controller.handle({'type': 'sendImages', 'text': 'hi', 'images': images_text(('image/png', DATA, 'a'))}))
    assert of(host, 'error')[0]['message'].startswith('Images go only to an ACP agent that reads them')
    assert of(host, 'turnEnded')[-1]['status'] == 'done'
