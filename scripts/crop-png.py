#!/usr/bin/env python3
"""Crops a PNG (8-bit RGB or RGBA, not interlaced, as browsers write screenshots) to its top-left WIDTH x HEIGHT.

    scripts/crop-png.py IN.png OUT.png WIDTH HEIGHT

Headless Chromium draws no window narrower than 500 px, so a phone's screenshot is taken at 500 px with the page in
a frame of the phone's width at the left, and cut to it here. Only the standard library: zlib and struct.
"""
import struct
import sys
import zlib


def chunks(data):
    position = 8
    while position < len(data):
        (length,) = struct.unpack(">I", data[position:position + 4])
        kind = data[position + 4:position + 8]
        yield kind, data[position + 8:position + 8 + length]
        position += 12 + length


def unfiltered(raw, width, height, channels):
    """The rows of pixels, each filter (None, Sub, Up, Average, Paeth) undone."""
    stride = width * channels
    rows, previous, position = [], bytearray(stride), 0
    for _ in range(height):
        kind, row = raw[position], bytearray(raw[position + 1:position + 1 + stride])
        position += 1 + stride
        for i in range(stride):
            left = row[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                row[i] = (row[i] + left) & 0xFF
            elif kind == 2:
                row[i] = (row[i] + up) & 0xFF
            elif kind == 3:
                row[i] = (row[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                predictor = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                row[i] = (row[i] + predictor) & 0xFF
        rows.append(row)
        previous = row
    return rows


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def main():
    source, target, width, height = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    data = open(source, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"crop-png: {source}: not a PNG")
    header, idat = None, b""
    for kind, body in chunks(data):
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    full_width, full_height, depth, colour, _, _, interlace = header
    channels = {2: 3, 6: 4}.get(colour)
    if depth != 8 or channels is None or interlace != 0:
        sys.exit(f"crop-png: {source}: only 8-bit RGB or RGBA, not interlaced")
    if width > full_width or height > full_height:
        sys.exit(f"crop-png: {source} is {full_width} x {full_height}, smaller than {width} x {height}")
    rows = unfiltered(zlib.decompress(idat), full_width, height, channels)
    raw = b"".join(b"\x00" + bytes(row[:width * channels]) for row in rows)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, 0))
    out += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    open(target, "wb").write(out)


main()
