"""Who may talk to the MCP server: Host, Origin and token decisions (net/guard.py)."""
import pytest

from hermes.net.guard import auth_refusal, host_refusal, origin_refusal, same_secret, split_host, split_target

PORT = 19999


@pytest.mark.parametrize('host', ['127.0.0.1:19999', 'localhost:19999', '[::1]:19999', '127.0.0.1', 'LOCALHOST:19999'])
def test_loopback_hosts_on_our_port_are_allowed(host):
    assert host_refusal(host, PORT) is None


@pytest.mark.parametrize('host, reason', [
    ('evil.example.com', 'Forbidden: Host evil.example.com is not this local server'),
    ('evil.example.com:19999', 'Forbidden: Host evil.example.com:19999 is not this local server'),
    ('127.0.0.1:8080', 'Forbidden: Host 127.0.0.1:8080 is not this local server'),
    ('127.0.0.1.evil.com:19999', 'Forbidden: Host 127.0.0.1.evil.com:19999 is not this local server'),
    ('', 'Forbidden: missing Host header'),
    (None, 'Forbidden: missing Host header'),
])
def test_other_hosts_are_refused_with_403(host, reason):
    refusal = host_refusal(host, PORT)
    assert (refusal.status, refusal.message) == (403, reason)


def test_the_forwarded_authority_is_accepted_exactly_and_nothing_else():
    forwarded = ['127.0.0.1:48663']  # what VS Code's asExternalUri gave (code-server's proxy, a forwarded port)
    assert host_refusal('127.0.0.1:48663', PORT, forwarded) is None
    assert host_refusal('127.0.0.1:48663', PORT) is not None  # not without the setting
    for other in ['127.0.0.1:48664', 'evil.example.com:48663', '127.0.0.1:48663.evil.com']:
        assert host_refusal(other, PORT, forwarded).message == 'Forbidden: Host ' + other + ' is not this local server'
    assert host_refusal('Box.Example:8080', PORT, ['box.example:8080']) is None


@pytest.mark.parametrize('origin', [None, 'http://127.0.0.1:3000', 'http://localhost', 'https://localhost:8443',
                                    'http://[::1]:5000', 'vscode-webview://abc123', 'vscode-file://vscode-app'])
def test_loopback_and_vscode_origins_are_allowed(origin):
    assert origin_refusal(origin) is None


@pytest.mark.parametrize('origin', ['https://evil.example.com', 'http://evil.example.com:19999', 'null',
                                    'http://localhost.evil.com', 'file://', 'http://127.0.0.2'])
def test_other_origins_are_refused_with_403(origin):
    refusal = origin_refusal(origin)
    assert refusal.status == 403
    assert refusal.message == f'Forbidden: Origin {origin} is not allowed'


def test_token_is_required_when_configured():
    missing = auth_refusal(None, 'secret')
    assert missing.status == 401 and missing.message.startswith('Unauthorized: send "Authorization: Bearer <token>"')
    assert missing.headers == {'WWW-Authenticate': 'Bearer realm="hermes-vscode"'}
    wrong = auth_refusal('Bearer nope', 'secret')
    assert (wrong.status, wrong.message) == (401, 'Unauthorized: the bearer token is wrong')
    assert auth_refusal('Basic c2VjcmV0', 'secret').status == 401
    assert auth_refusal('Bearer secret', 'secret') is None


def test_no_token_configured_means_no_auth():
    assert auth_refusal(None, None) is None
    assert auth_refusal('Bearer anything', '') is None


def test_same_secret():
    assert same_secret('abc', 'abc')
    assert not same_secret('abd', 'abc')
    assert not same_secret('ab', 'abc')


def test_split_host_and_target():
    assert split_host('[::1]:80') == ('[::1]', '80')
    assert split_host('::1') == ('::1', '')
    assert split_host('Example.com:1') == ('example.com', '1')
    assert split_target('/messages?sessionId=a%20b&x=1&sessionId=2') == ('/messages', {'sessionId': 'a b', 'x': '1'})
    assert split_target('/mcp') == ('/mcp', {})
    assert split_target('/m?bad=%E0%A4%A') == ('/m', {'bad': '%E0%A4%A'})
