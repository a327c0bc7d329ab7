"""The MCP Inspector's CLI on the window's resources and prompts: resources/list, resources/templates/list,
resources/read of the workspace file through `file:///{+path}` (and a refusal outside the workspace),
prompts/list and prompts/get with the file embedded — over both transports, with nothing on stderr."""
import json

import pytest

from conftest import PROOF_FILE, complaints
from test_inspector_cli import inspector

EDITOR_RESOURCES = ['hermes://editor/active', 'hermes://editor/selection', 'hermes://editor/tabs',
                    'hermes://diagnostics', 'hermes://workspace', 'hermes://changes']


@pytest.mark.parametrize('path', ['/mcp', '/sse'])
def test_resources_are_listed_and_a_workspace_file_is_read(path, tmp_path, window, base, workspace, proof):
    listed = inspector(tmp_path, window, base + path, '--method', 'resources/list')
    assert listed.returncode == 0, listed.stderr
    uris = [resource['uri'] for resource in json.loads(listed.stdout)['resources']]
    assert uris[:len(EDITOR_RESOURCES)] == EDITOR_RESOURCES
    templates = inspector(tmp_path, window, base + path, '--method', 'resources/templates/list')
    assert templates.returncode == 0, templates.stderr
    assert [item['uriTemplate'] for item in json.loads(templates.stdout)['resourceTemplates']] == \
        ['file:///{+path}', 'hermes://terminal/{id}']
    read = inspector(tmp_path, window, base + path, '--method', 'resources/read',
                     '--uri', 'file://' + str(workspace / PROOF_FILE))
    assert read.returncode == 0, read.stderr
    assert json.loads(read.stdout)['contents'][0]['text'].strip() == proof
    assert complaints(listed.stderr + templates.stderr + read.stderr) == []


def test_a_file_outside_the_workspace_is_refused(tmp_path, window, base):
    result = inspector(tmp_path, window, base + '/mcp', '--method', 'resources/read', '--uri', 'file:///etc/hostname')
    assert result.returncode != 0
    assert 'is outside the workspace' in result.stdout + result.stderr


@pytest.mark.parametrize('path', ['/mcp', '/sse'])
def test_the_explain_prompt_comes_with_the_file_embedded(path, tmp_path, window, base, workspace, proof):
    listed = inspector(tmp_path, window, base + path, '--method', 'prompts/list')
    assert listed.returncode == 0, listed.stderr
    assert [prompt['name'] for prompt in json.loads(listed.stdout)['prompts']] == ['explain', 'fix', 'write_tests']
    result = inspector(tmp_path, window, base + path, '--method', 'prompts/get', '--prompt-name', 'explain',
                       '--prompt-args', 'path=' + PROOF_FILE)
    assert result.returncode == 0, result.stderr
    embedded, instruction = [message['content'] for message in json.loads(result.stdout)['messages']]
    assert embedded['type'] == 'resource' and embedded['resource']['text'].strip() == proof
    assert instruction['text'].startswith('Explain `' + PROOF_FILE + '`')
    assert complaints(listed.stderr + result.stderr) == []
