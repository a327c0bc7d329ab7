"""Who may use Claude Code's door (net/doors/ide_socket.py upgrade_refusal) and the Gemini door's browser rule
(net/guard.py no_browser_refusal): decided before any work, for every combination that matters."""
from hermes.net.guard import no_browser_refusal
from hermes.net.doors.ide_socket import TOKEN_HEADER, choose_subprotocol, upgrade_refusal

TOKEN = 'a' * 64
PORT = 40123


def headers(**extra):
    found = {'host': '127.0.0.1:' + str(PORT), 'origin': None, TOKEN_HEADER: TOKEN}
    found.update(extra)
    return _Headers(found)


class _Headers(dict):
    """Node's headers object: a missing header is undefined (None here), not a KeyError."""

    def __getitem__(self, key):
        return self.get(key)


def status(path, given):
    refusal = upgrade_refusal(path, given, PORT, TOKEN)
    return None if refusal is None else (refusal.status, refusal.message)


def test_the_cli_with_the_token_is_let_in():
    assert status('/', headers()) is None
    assert status('/', headers(host='localhost:' + str(PORT))) is None


def test_no_token_or_a_wrong_one_is_refused_without_saying_the_token():
    for given in [headers(**{TOKEN_HEADER: None}), headers(**{TOKEN_HEADER: 'b' * 64}),
                  headers(**{TOKEN_HEADER: TOKEN[:-1]}), headers(**{TOKEN_HEADER: TOKEN + 'a'})]:
        code, message = status('/', given)
        assert code == 401
        assert TOKEN not in message


def test_any_browser_is_refused_even_from_loopback_and_with_the_token():
    for origin in ['http://127.0.0.1:8080', 'http://localhost', 'vscode-webview://abc', 'null', 'https://evil.example']:
        assert status('/', headers(origin=origin))[0] == 403
        assert no_browser_refusal(origin).status == 403
    assert no_browser_refusal(None) is None


def test_dns_rebinding_and_other_paths_are_refused():
    assert status('/', headers(host='evil.example:' + str(PORT)))[0] == 403
    assert status('/', headers(host='127.0.0.1:1'))[0] == 403
    assert status('/', headers(host=None))[0] == 403
    assert status('/mcp', headers())[0] == 404
    assert status('/?x=1', headers()) is None


def test_the_subprotocol_is_mcp_when_offered():
    assert choose_subprotocol(['mcp']) == 'mcp'
    assert choose_subprotocol(['other', 'mcp']) == 'mcp'
    assert choose_subprotocol([]) is False
