"""Draws media/icon.png (128×128): a winged "H" for Hermes on a deep-blue rounded tile.
Pure Python (zlib only), so the icon can be regenerated on any machine: python scripts/make_icon.py"""
import math
import struct
import zlib
from pathlib import Path

SIZE = 128


def inside_rounded_square(x, y, radius=24):
    cx = min(max(x, radius), SIZE - 1 - radius)
    cy = min(max(y, radius), SIZE - 1 - radius)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2


def in_letter_h(x, y):
    stems = (34 <= x <= 50 or 78 <= x <= 94) and 30 <= y <= 98
    bar = 50 <= x <= 78 and 57 <= y <= 71
    return stems or bar


def in_wing(x, y):
    # three feathers sweeping up and out from the top of each stem
    for side in (-1, 1):
        root_x = 42 if side < 0 else 86
        for i, length in enumerate((22, 17, 12)):
            angle = math.radians(200 - i * 18) if side < 0 else math.radians(-20 + i * 18)
            for t in range(0, length):
                px = root_x + side * 0 + math.cos(angle) * t * (1 if side > 0 else 1)
                py = 34 - i * 3 - abs(math.sin(angle)) * t * 0.55 - t * 0.35
                if (x - px) ** 2 + (y - py) ** 2 <= 5.5:
                    return True
    return False


def pixel(x, y):
    if not inside_rounded_square(x, y):
        return (0, 0, 0, 0)
    if in_letter_h(x, y) or in_wing(x, y):
        return (255, 214, 102, 255)  # gold
    shade = y / SIZE
    return (int(22 + 20 * shade), int(58 + 30 * shade), int(120 + 60 * shade), 255)


def png(pixels):
    raw = b''.join(b'\x00' + bytes(c for px in row for c in px) for row in pixels)

    def chunk(kind, data):
        return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)
    header = struct.pack('>IIBBBBB', SIZE, SIZE, 8, 6, 0, 0, 0)
    return b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', header) + chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b'')


if __name__ == '__main__':
    out = Path(__file__).resolve().parents[1] / 'media' / 'icon.png'
    out.write_bytes(png([[pixel(x, y) for x in range(SIZE)] for y in range(SIZE)]))
    print(f'wrote {out}')
