#!/usr/bin/env python3
"""Generates Sources/Unfold/Prepare/Unicode/UnicodeTables.swift from the Unicode 17.0.0 data files in
Data/Unicode/17.0.0/ (LineBreak, EastAsianWidth, DerivedGeneralCategory, emoji-data,
GraphemeBreakProperty).

Usage: scripts/generate-unicode-tables.py        (from anywhere; rewrites the Swift file)

Every code point gets one packed 32-bit value (Line_Break, East_Asian_Width, General_Category and the
emoji flags); the values are stored in a three-level table (code point >> 8, then >> 4, then the value
list), deduplicated, and written into the Swift file as base64 strings that decode once, at first use.
The file also records an FNV-1a hash of every input and of this script, which a test compares with the
files in the repository, so that tables out of date with their data fail the tests.
"""
import base64, os, re, struct, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "Data", "Unicode", "17.0.0")
OUT = os.path.join(ROOT, "Sources", "Unfold", "Prepare", "Unicode", "UnicodeTables.swift")
INPUTS = ["LineBreak.txt", "EastAsianWidth.txt", "DerivedGeneralCategory.txt", "emoji-data.txt",
          "GraphemeBreakProperty.txt"]

# Raw values are the index in these lists; the Swift enums are generated from them too.
LINE_BREAK = ["XX", "AI", "AK", "AL", "AP", "AS", "B2", "BA", "BB", "BK", "CB", "CJ", "CL", "CM", "CP",
              "CR", "EB", "EM", "EX", "GL", "H2", "H3", "HH", "HL", "HY", "ID", "IN", "IS", "JL", "JT",
              "JV", "LF", "NL", "NS", "NU", "OP", "PO", "PR", "QU", "RI", "SA", "SG", "SP", "SY", "VF",
              "VI", "WJ", "ZW", "ZWJ"]
EAST_ASIAN_WIDTH = ["N", "A", "F", "H", "Na", "W"]
GENERAL_CATEGORY = ["Cn", "Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No", "Pc", "Pd",
                    "Ps", "Pe", "Pi", "Pf", "Po", "Sm", "Sc", "Sk", "So", "Zs", "Zl", "Zp", "Cc", "Cf",
                    "Cs", "Co"]
FLAGS = ["Extended_Pictographic", "Emoji", "Emoji_Presentation", "Emoji_Modifier", "Emoji_Modifier_Base",
         "Prepend"]
# Documented defaults of EastAsianWidth.txt for code points the file does not list.
EAW_DEFAULT_W = [(0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x2FFFD),
                 (0x30000, 0x3FFFD)]

def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h

def entries(name):
    line_pattern = re.compile(r"^([0-9A-F]+)(?:\.\.([0-9A-F]+))?\s*;\s*([A-Za-z_0-9]+)")
    for line in open(os.path.join(DATA, name), encoding="utf-8"):
        match = line_pattern.match(line)
        if match:
            low = int(match.group(1), 16)
            high = int(match.group(2) or match.group(1), 16)
            yield low, high, match.group(3)

def main():
    size = 0x110000
    lb = [LINE_BREAK.index("XX")] * size
    eaw = [EAST_ASIAN_WIDTH.index("N")] * size
    for low, high in EAW_DEFAULT_W:
        for cp in range(low, high + 1):
            eaw[cp] = EAST_ASIAN_WIDTH.index("W")
    gc = [GENERAL_CATEGORY.index("Cn")] * size
    flags = [0] * size
    for low, high, value in entries("LineBreak.txt"):
        lb[low:high + 1] = [LINE_BREAK.index(value)] * (high - low + 1)
    for low, high, value in entries("EastAsianWidth.txt"):
        eaw[low:high + 1] = [EAST_ASIAN_WIDTH.index(value)] * (high - low + 1)
    for low, high, value in entries("DerivedGeneralCategory.txt"):
        gc[low:high + 1] = [GENERAL_CATEGORY.index(value)] * (high - low + 1)
    for name in ("emoji-data.txt", "GraphemeBreakProperty.txt"):
        for low, high, value in entries(name):
            if value in FLAGS:
                bit = 1 << FLAGS.index(value)
                for cp in range(low, high + 1):
                    flags[cp] |= bit
    packed = [lb[cp] | eaw[cp] << 6 | gc[cp] << 9 | flags[cp] << 14 for cp in range(size)]

    values = sorted(set(packed))
    value_index = {v: i for i, v in enumerate(values)}
    # Level 2: blocks of 16 value indexes; level 1: blocks of 16 level-2 block indexes (256 code points).
    blocks2, block2_index, level2 = [], {}, []
    for start in range(0, size, 16):
        block = tuple(value_index[v] for v in packed[start:start + 16])
        if block not in block2_index:
            block2_index[block] = len(blocks2)
            blocks2.append(block)
        level2.append(block2_index[block])
    blocks1, block1_index, level1 = [], {}, []
    for start in range(0, len(level2), 16):
        block = tuple(level2[start:start + 16])
        if block not in block1_index:
            block1_index[block] = len(blocks1)
            blocks1.append(block)
        level1.append(block1_index[block])
    assert len(values) < 65536 and len(blocks2) < 65536 and len(blocks1) < 65536

    def encode(fmt, numbers):
        return base64.b64encode(struct.pack("<%d%s" % (len(numbers), fmt), *numbers)).decode()

    stage1 = encode("H", level1)                                    # 4352 entries
    stage2 = encode("H", [i for block in blocks1 for i in block])   # 16 per level-1 block
    stage3 = encode("H", [i for block in blocks2 for i in block])   # 16 per level-2 block
    value_table = encode("I", values)

    hashes = {name: fnv1a64(open(os.path.join(DATA, name), "rb").read()) for name in INPUTS}
    hashes["scripts/generate-unicode-tables.py"] = fnv1a64(open(os.path.abspath(__file__), "rb").read())

    def chunks(text, width=100):
        # A multi-line string literal whose lines end in a backslash: one string, no newlines.
        lines = ["    " + text[i:i + width] for i in range(0, len(text), width)]
        return '    """\n' + "\\\n".join(lines) + '\n    """'

    def swift_case(name):
        name = name.lower()
        return "`%s`" % name if name in ("as", "in", "is") else name

    with open(OUT, "w", encoding="utf-8") as out:
        out.write("// Generated by scripts/generate-unicode-tables.py from Data/Unicode/17.0.0. Do not edit.\n")
        out.write("// swift-format-ignore-file\n\n")
        out.write("/// The Line_Break property values of UAX #14, in the order of the packed tables.\n")
        out.write("enum LineBreakClass: UInt8, CaseIterable, Sendable {\n")
        out.write("  case %s\n}\n\n" % ", ".join(swift_case(n) for n in LINE_BREAK))
        out.write("/// The East_Asian_Width property values of UAX #11.\n")
        out.write("enum EastAsianWidthClass: UInt8, CaseIterable, Sendable {\n")
        out.write("  case %s\n}\n\n" % ", ".join(swift_case(n) for n in EAST_ASIAN_WIDTH))
        out.write("/// General_Category values.\n")
        out.write("enum GeneralCategoryClass: UInt8, CaseIterable, Sendable {\n")
        out.write("  case %s\n}\n\n" % ", ".join(swift_case(n) for n in GENERAL_CATEGORY))
        out.write("/// The packed property tables.\n")
        out.write("enum UnicodeTables {\n")
        out.write('  /// The Unicode version of the data.\n  static let unicodeVersion = "17.0.0"\n\n')
        out.write("  /// FNV-1a 64 hashes of the generator's inputs, checked by a test against the repository's files.\n")
        out.write("  static let sourceHashes: [String: UInt64] = [\n")
        for name in sorted(hashes):
            out.write('    "%s": 0x%016x,\n' % (name, hashes[name]))
        out.write("  ]\n\n")
        out.write("  /// Bit positions in a packed value: Line_Break in bits 0-5, East_Asian_Width 6-8,\n")
        out.write("  /// General_Category 9-13, then one bit per flag from bit 14.\n")
        for i, name in enumerate(FLAGS):
            out.write("  static let flag%s: UInt32 = 1 << %d\n" % (name.replace("_", ""), 14 + i))
        out.write("\n  static let stage1Base64 =\n%s\n\n" % chunks(stage1))
        out.write("  static let stage2Base64 =\n%s\n\n" % chunks(stage2))
        out.write("  static let stage3Base64 =\n%s\n\n" % chunks(stage3))
        out.write("  static let valuesBase64 =\n%s\n" % chunks(value_table))
        out.write("}\n")
    print("values %d, level-2 blocks %d, level-1 blocks %d; %d bytes of base64" % (
        len(values), len(blocks2), len(blocks1), len(stage1) + len(stage2) + len(stage3) + len(value_table)))

if __name__ == "__main__":
    main()
