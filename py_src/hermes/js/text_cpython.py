"""CPython twins of hermes/js/text.py (never transpiled)."""
# __pragma__('skip')
from typing import List, Optional, Pattern, Union, cast
from hermes.contracts.node import Regex
# __pragma__('noskip')
import base64
import binascii
import re
import urllib.parse


def native_regex(source: str, flags: str = '') -> Regex:
    return re.compile(source)


def _pattern(regex: Regex) -> 'Pattern[str]':
    return cast('Pattern[str]', regex)  # (every Regex here came from native_regex above)


def regex_matches(regex: Regex, text: str) -> bool:
    return _pattern(regex).search(text) is not None


def regex_replace_all(regex: Regex, text: str, replacement: str) -> str:
    return _pattern(regex).sub(lambda match: replacement, text)


def regex_count(regex: Regex, text: str) -> int:
    return len(_pattern(regex).findall(text))


def sorted_strings(strings: List[str]) -> List[str]:
    strings.sort()
    return strings


def decode_uri_component(text: str) -> str:
    return urllib.parse.unquote(text, errors='strict')


def base64_utf8(text: str) -> Optional[str]:
    try:
        return base64.b64decode(text.encode('ascii'), validate=True).decode('utf-8')
    except (ValueError, binascii.Error, UnicodeError):
        return None


def utf8_base64(text: str) -> str:
    return base64.b64encode(text.encode('utf-8')).decode('ascii')


def bytes_base64(data: Union[bytes, bytearray, memoryview]) -> str:
    return base64.b64encode(bytes(data)).decode('ascii')


def utf8_bytes(text: str) -> bytes:
    return text.encode('utf-8')


def utf8_text(chunks: List[bytes]) -> str:
    return b''.join(chunks).decode('utf-8', errors='replace')
