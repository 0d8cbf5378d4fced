#!/usr/bin/env python3
"""Checks that the library's folders depend on each other one way, in the order of the pipeline:

    Model  ->  Source  ->  Parse  ->  Prepare  ->  Layout  ->  Truncate  ->  Render  ->  Paragraph  ->  Checks

A file may name the types of its own folder and of the folders before it, never of one after it (Model holds the
values every stage shares). Of a folder before the one just before its own, it names only what that folder makes
public (or `package`): a stage reaches further back through the doors of the stages between, not into their
internals. `SHARED` lists the internal readers every later stage may use, and Checks, which holds each fitter to the
reference, may name anything before it. Type names are read from the top-level declarations; comments are left
out. A C library's module is imported only by the files that `C_IMPORTERS` lists for it, so that its C stays behind
them. Prints each name a file takes from a later folder or past a stage's door, and each import of a C module by
another file, and exits 1 if there is one.
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "Unfold")
ORDER = ["Model", "Source", "Parse", "Prepare", "Layout", "Truncate", "Render", "Paragraph", "Checks"]
# Each C library's module, and the files (under Sources/Unfold) that may import it.
C_IMPORTERS = {
    "CCmarkGFM": ["Parse/MarkdownParser.swift"],
    "CHarfBuzz": ["Prepare/Fonts/HarfBuzzFont.swift"],
    "CFreeType": ["Prepare/Fonts/FreeTypeFont.swift"],
    # Dictionary words; bidi levels and properties, for the HTML's items and the terminal's lines.
    "CICU": ["Prepare/Break/DictionaryBreaks.swift", "Prepare/Unicode/Bidi.swift"],
}
# Prepare's readers of Unicode text, which measuring, drawing and ordering a line all read again (a text's bidi
# levels among them: the HTML's items and the terminal's lines read them).
SHARED = {
    "Bidi", "BidiLevels", "BidiResolver", "ParagraphLevels", "Cluster", "ClusterWalk", "GraphemeReader", "UnicodeProperties",
    "UnicodeTables", "WordShaper",
}
C_IMPORT = re.compile(r"^(?:@_implementationOnly |internal |public |package |private |fileprivate )*import\s+(C\w+)", re.M)
DECLARATION = re.compile(
    r"^((?:public |package |private |fileprivate |internal |final |indirect )*)"
    r"(?:struct|enum|class|protocol|typealias|actor)\s+([A-Z]\w*)",
    re.M,
)


def main():
    owner = {}  # type name -> folder
    opened = set()  # the type names declared public or package
    files = []
    for folder in sorted(os.listdir(ROOT)):
        path = os.path.join(ROOT, folder)
        if not os.path.isdir(path) or folder.endswith(".docc"):
            continue
        if folder not in ORDER:
            print(f"check-dependencies: Sources/Unfold/{folder} is in no stage: add it to ORDER")
            return 1
        for directory, _, names in os.walk(path):
            for name in sorted(names):
                if name.endswith(".swift"):
                    text = open(os.path.join(directory, name), encoding="utf-8").read()
                    files.append((folder, os.path.relpath(os.path.join(directory, name), ROOT), text))
                    for match in DECLARATION.finditer(text):
                        owner.setdefault(match.group(2), folder)
                        if re.search(r"\b(public|package)\b", match.group(1)):
                            opened.add(match.group(2))
    problems = 0
    for folder, path, text in files:
        for match in C_IMPORT.finditer(text):
            module = match.group(1)
            if path not in C_IMPORTERS.get(module, []):
                print(f"Sources/Unfold/{path}: imports {module}, which only {C_IMPORTERS.get(module, [])} may import")
                problems += 1
        code = re.sub(r"//.*", "", text)
        for name, other in sorted(owner.items()):
            later = ORDER.index(other) > ORDER.index(folder)
            past_door = (
                ORDER.index(other) < ORDER.index(folder) - 1
                and other != "Model"
                and folder != "Checks"
                and name not in opened
                and name not in SHARED
            )
            if (later or past_door) and re.search(r"\b" + name + r"\b", code):
                where = f"of the later {other}" if later else f"internal to {other}, past {ORDER[ORDER.index(folder) - 1]}"
                print(f"Sources/Unfold/{path}: {folder} names {name}, {where}")
                problems += 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
