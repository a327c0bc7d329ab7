"""`str.lstrip(chars)` / `str.rstrip(chars)` that mean the same in the bundle.

Transcrypt's `strip`, `lstrip` and `rstrip` ignore their argument and remove whitespace
(`'\\tx'.lstrip(' ')` is `'x'` in JS, `'\\tx'` in CPython); the lint (toolchain/lint.py) points here.
"""
# __pragma__('tconv')


def lstrip_chars(text: str, chars: str) -> str:
    """`text` without the leading characters that are in `chars`."""
    start = 0
    while start < len(text) and chars.find(text[start]) >= 0:
        start += 1
    return text[start:]


def rstrip_chars(text: str, chars: str) -> str:
    """`text` without the trailing characters that are in `chars`."""
    end = len(text)
    while end > 0 and chars.find(text[end - 1]) >= 0:
        end -= 1
    return text[:end]
