#!/usr/bin/env python3
"""Generates Sources/Unfold/Prepare/Unicode/WordModels.swift: the four LSTM word models (Burmese, Khmer, Lao,
Thai) with which Gecko breaks lines inside runs of Line_Break SA, read from the installed Firefox ESR.

Usage: scripts/extract-gecko-word-models.py [--check] [path/to/libxul.so]   (default /usr/lib/firefox-esr/libxul.so)

With --check, writes nothing and fails unless the Swift file holds exactly the installed Firefox's models (the
header's version and hash aside, so that a Firefox update with the same models passes).

Firefox breaks lines with ICU4X's LineSegmenter::new_auto (intl/lwbrk/LineBreaker.cpp), which hands each run
of SA characters to an LSTM model per script: the "codepoints_exclusive_model4_heavy" models of ICU4X's
compiled data (Unicode License v3, Data/ICU4X/LICENSE), baked into libxul.so. Each model is
found by its structure in .data.rel.ro: a dictionary of single characters (a VarZeroVec of UTF-8 keys and a
ZeroVec of u16 indexes), then nine float matrices, each a pointer into .rodata, a length, a capacity of zero
and up to four u16 dimensions: embedding (N+1, E), forward W (4, H, E), U (4, H, H), b (4, H), the same
backward, time W (2, 4, H) and time b (4). The pointers are relative relocations (RELR), so the file holds
their targets in place. Every dimension is checked against its length, and the dictionary against its
indexes, before anything is written.
"""
import base64, hashlib, os, struct, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Sources", "Unfold", "Prepare", "Unicode", "WordModels.swift")
ARGS = [a for a in sys.argv[1:] if a != "--check"]
CHECK = "--check" in sys.argv[1:]
LIB = ARGS[0] if ARGS else "/usr/lib/firefox-esr/libxul.so"
SCRIPTS = {"\u1000": "burmese", "\u1780": "khmer", "\u0e81": "lao", "\u0e01": "thai"}

data = open(LIB, "rb").read()

def sections():
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    entsize, count, names = struct.unpack_from("<HHH", data, 0x3A)
    table = [struct.unpack_from("<IIQQQQ", data, shoff + i * entsize) for i in range(count)]
    strings = table[names][4]
    return {data[strings + t[0]:data.index(b"\0", strings + t[0])].decode(): (t[3], t[4], t[5]) for t in table}

SECTIONS = sections()
RODATA = SECTIONS[".rodata"]
RELRO = SECTIONS[".data.rel.ro"]

def file_offset(address):
    start, offset, size = RODATA
    return address - start + offset if start <= address < start + size else None

def word(offset):
    return struct.unpack_from("<Q", data, offset)[0]

def dims_of(packed):
    return [d for d in ((packed >> (16 * i)) & 0xFFFF for i in range(4)) if d]

def models():
    found = {}
    start, offset, size = RELRO
    for at in range(offset, offset + size - 0x180, 8):
        keys, key_bytes, values, value_count, zero, embedding, embedding_count, zero2, packed = (
            word(at + 8 * i) for i in range(9))
        if zero or zero2 or packed >> 32 or None in (file_offset(keys), file_offset(values), file_offset(embedding)):
            continue
        dims = dims_of(packed)
        if len(dims) != 2 or dims[0] != value_count + 1 or dims[0] * dims[1] != embedding_count:
            continue
        blob = data[file_offset(keys):file_offset(keys) + key_bytes]
        n = struct.unpack_from("<H", blob, 0)[0]
        if n != value_count:
            continue
        starts = [0] + list(struct.unpack_from("<%dH" % (n - 1), blob, 2))
        base = 2 + 2 * (n - 1)
        ends = starts[1:] + [key_bytes - base]
        chars = [blob[base + s:base + e].decode() for s, e in zip(starts, ends)]
        ids = list(struct.unpack_from("<%dH" % n, data, file_offset(values)))
        assert all(len(c) == 1 for c in chars) and ids == list(range(n)), "unexpected dictionary"
        assert chars == sorted(chars, key=lambda c: c.encode()), "dictionary out of order"
        matrices = []
        for k in range(9):
            pointer, count, capacity, packed = (word(at + 40 + 32 * k + 8 * i) for i in range(4))
            shape = dims_of(packed)
            product = 1
            for d in shape:
                product *= d
            assert capacity == 0 and product == count and file_offset(pointer) is not None, "unexpected matrix"
            matrices.append((shape, data[file_offset(pointer):file_offset(pointer) + 4 * count]))
        hidden, embed = matrices[1][0][1], matrices[1][0][2]
        expected = [[n + 1, embed], [4, hidden, embed], [4, hidden, hidden], [4, hidden],
                    [4, hidden, embed], [4, hidden, hidden], [4, hidden], [2, 4, hidden], [4]]
        assert [m[0] for m in matrices] == expected, "unexpected shapes"
        name = SCRIPTS[chars[0]]
        assert name not in found, "two models for " + name
        found[name] = (chars, hidden, embed, b"".join(m[1] for m in matrices))
    assert sorted(found) == sorted(SCRIPTS.values()), "models missing: %s" % sorted(found)
    return found

def firefox_version():
    try:
        return subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "firefox-esr"], capture_output=True,
                              text=True).stdout.strip() or "unknown"
    except OSError:
        return "unknown"

def main():
    found = models()
    lines = [
        "// Generated by scripts/extract-gecko-word-models.py from Firefox ESR %s (libxul.so, SHA-256 %s)."
        % (firefox_version(), hashlib.sha256(data).hexdigest()[:16]),
        "// ICU4X's compiled LSTM data, under the Unicode License v3 (Data/ICU4X/LICENSE). Do not edit.",
        "// swift-format-ignore-file",
        "",
        "extension WordModel {",
    ]
    for name in sorted(found):
        chars, hidden, embed, floats = found[name]
        encoded = base64.b64encode(floats).decode()
        rows = [encoded[i:i + 100] for i in range(0, len(encoded), 100)]
        lines += [
            "  /// The %s model (`%s_codepoints_exclusive_model4_heavy`): %d characters, %d hidden units."
            % (name.capitalize(), name.capitalize(), len(chars), hidden),
            "  static let %s = WordModel(" % name,
            "    characters: \"%s\"," % "".join("\\u{%04X}" % ord(c) for c in chars),
            "    hiddenUnits: %d, embeddingSize: %d," % (hidden, embed),
            "    weightsBase64:",
            "      \"\"\"",
        ]
        lines += ["      %s\\" % row for row in rows[:-1]] + ["      %s" % rows[-1], "      \"\"\"", "  )", ""]
    lines[-1:] = ["}", ""]
    text = "\n".join(lines)
    if CHECK:
        with open(OUT) as current:
            if current.read().split("\n", 1)[1] != text.split("\n", 1)[1]:
                sys.exit("%s: the word models differ from %s's: run scripts/extract-gecko-word-models.py"
                         % (os.path.relpath(OUT, ROOT), LIB))
        print("the word models equal", LIB + "'s")
        return
    with open(OUT, "w") as out:
        out.write(text)
    print("wrote", os.path.relpath(OUT, ROOT), {k: len(v[0]) for k, v in found.items()})

main()
