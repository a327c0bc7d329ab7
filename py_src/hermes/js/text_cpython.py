"""CPython twins of hermes/js/text.py (never transpiled)."""
import base64
import binascii
import re
import urllib.parse


def native_regex(source, flags=''):
    return re.compile(source)


def regex_matches(regex, text):
    return regex.search(text) is not None


def regex_replace_all(regex, text, replacement):
    return regex.sub(lambda match: replacement, text)


def regex_count(regex, text):
    return len(regex.findall(text))


def sorted_strings(strings):
    strings.sort()
    return strings


def decode_uri_component(text: str) -> str:
    return urllib.parse.unquote(text, errors='strict')


def base64_utf8(text):
    try:
        return base64.b64decode(text.encode('ascii'), validate=True).decode('utf-8')
    except (ValueError, binascii.Error, UnicodeError):
        return None


def utf8_base64(text):
    return base64.b64encode(text.encode('utf-8')).decode('ascii')


def bytes_base64(data):
    return base64.b64encode(bytes(data)).decode('ascii')


def utf8_bytes(text):
    return text.encode('utf-8')


def utf8_text(chunks):
    return b''.join(chunks).decode('utf-8', errors='replace')
