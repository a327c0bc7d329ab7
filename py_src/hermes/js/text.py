"""Strings and bytes: native regexes, sorting, UTF-8, Base64 and URI decoding."""
# __pragma__('tconv')
from hermes.js.objects import new


def native_regex(source: str, flags: str = '') -> 'Regex':
    """A JS RegExp. Transcrypt's `re` builds a Match object per match (measured: most of the CPU of
    matching a glob against 30,000 paths) and weighs 34 kB of the bundle, so no module uses it.
    `flags`: JS flags; 'g' for regex_replace_all / regex_count. CPython: `re.compile` (flags ignored).
    Write sources both engines read alike: no backreferences in replacements, no Python-only syntax."""
    return new(RegExp, source, flags)


def regex_matches(regex: 'Regex', text: str) -> bool:
    """Whether a native_regex finds a match in `text` (anchor the source with ^…$ for a full match)."""
    return regex.test(text)


def regex_replace_all(regex: 'Regex', text: str, replacement: str) -> str:
    """Every match (a regex made with flags 'g') replaced by the plain string `replacement`."""
    return text.js_replace(regex, replacement)


def regex_count(regex: 'Regex', text: str) -> int:
    """How many times a regex made with flags 'g' matches in `text`."""
    found = __pragma__('js', '{}', 'text.match (regex)')  # `match` has no js_ alias
    return 0 if found is None else len(found)


def sorted_strings(strings: 'List[str]') -> 'List[str]':
    """Sort a list of strings in place, by code unit, without Transcrypt's per-comparison wrapper
    (the same order as Python's for text without astral characters). Returns the list."""
    return strings.js_sort()  # `js_sort` compiles to the native `sort` (`sort` would be Transcrypt's)


def decode_uri_component(text: str) -> str:
    return decodeURIComponent(text)


def base64_utf8(text: str) -> 'Optional[str]':
    """Base64 → the UTF-8 text it encodes, or None when `text` is not canonical base64 or not UTF-8."""
    return __pragma__('js', '{}', """(() => {
        if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) { return null; }
        try { return new TextDecoder('utf-8', {fatal: true}).decode(Buffer.from(text, 'base64')); }
        catch (error) { return null; }
    })()""")


def utf8_base64(text: str) -> str:
    """The Base64 of `text`'s UTF-8 bytes."""
    return __pragma__('js', '{}', 'Buffer.from(text, "utf8").toString("base64")')


def bytes_base64(data: 'Any') -> str:
    """The Base64 of bytes (a Uint8Array or Buffer in JS: what ChatReferenceBinaryData.data() gives)."""
    return Buffer.js_from(data.buffer, data.byteOffset, data.byteLength).toString('base64')


def utf8_bytes(text: str) -> bytes:
    """str → UTF-8 bytes (a Uint8Array in JS: what vscode.workspace.fs.writeFile takes).
    The way back is `utf8_text([data])`."""
    return new(TextEncoder).encode(text)


def utf8_text(chunks: 'List[Any]') -> str:
    """Node Buffers (or Uint8Arrays) received from a stream or a read → one string. A single chunk is
    decoded in place (concat would copy it first: 10 MB for a big file_read)."""
    if len(chunks) == 1:
        chunk = chunks[0]
        return Buffer.js_from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8')
    return Buffer.concat(chunks).toString('utf8')


# __pragma__('skip')
from typing import Any, List, Optional
from hermes.contracts.node import Regex
from hermes.js.text_cpython import (
    native_regex, regex_matches, regex_replace_all, regex_count, sorted_strings, decode_uri_component,
    base64_utf8, utf8_base64, bytes_base64, utf8_bytes, utf8_text,
)
# __pragma__('noskip')
