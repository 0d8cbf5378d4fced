#!/usr/bin/env python3
"""Development check (not a test): compares `unfold --format runs` with Apple's inline-only,
whitespace-preserving parse of every cmark-gfm spec input.

Usage: scripts/check-apple-reference.py [path/to/spec-inputs.jsonl] [-v]
Default path: ../shared/apple-inline-reference/spec-inputs.jsonl (beside the repository).
Inputs whose Apple parse holds raw HTML or images are skipped: how Foundation draws those is not public.
Prints the agreement count and, with -v, each difference.
"""
import json, os, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
args = [a for a in sys.argv[1:] if a != "-v"]
verbose = "-v" in sys.argv
path = args[0] if args else os.path.join(root, "..", "shared", "apple-inline-reference", "spec-inputs.jsonl")
binary = os.path.join(root, ".build", "debug", "unfold")

def unquote(s, i):
    """Parses a dump string starting at s[i] == '"'; returns (text, index after the closing quote)."""
    assert s[i] == '"'
    out, i = [], i + 1
    while s[i] != '"':
        if s[i] == "\\":
            c = s[i + 1]
            if c == "u":
                end = s.index("}", i)
                out.append(chr(int(s[i + 3:end], 16)))
                i = end + 1
                continue
            out.append({"n": "\n", "t": "\t", "r": "\r", "0": "\0"}.get(c, c))
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out), i + 1

def our_runs(markdown):
    # The command takes one line end off a key read from a pipe (a file's last line end is not part of it).
    dump = subprocess.run(
        [binary, "--format", "runs", "--no-autolinks"], input=(markdown + "\n").encode(), capture_output=True, check=True)
    runs = []
    for line in dump.stdout.decode().splitlines():
        flags, link, i = "", "", 0
        while line[i] != '"':
            if line.startswith("link=", i):
                link, i = unquote(line, i + 5)
                i += 1
                continue
            word = line[i:line.index(" ", i)]
            flags += {"bold": "b", "italic": "i", "strikethrough": "s", "code": "c"}.get(word, "")
            i += len(word) + 1
        text, _ = unquote(line, i)
        runs.append((text, "".join(sorted(flags)), link))
    return coalesce(runs)

def coalesce(runs):
    out = []
    for text, flags, link in runs:
        flags = "".join(sorted(flags))
        if not text:
            continue
        if out and out[-1][1:] == (flags, link):
            out[-1] = (out[-1][0] + text, flags, link)
        else:
            out.append((text, flags, link))
    return out

same = different = skipped = 0
for line in open(path, encoding="utf-8"):
    case = json.loads(line)
    if any(kind in ("html_inline", "image") for kind in case["other"]):
        skipped += 1
        continue
    apple = coalesce([tuple(run) for run in case["runs"]])
    ours = our_runs(case["input"])
    if apple == ours:
        same += 1
    else:
        different += 1
        if verbose:
            print("input:", json.dumps(case["input"], ensure_ascii=False))
            print("  apple:", apple)
            print("  ours: ", ours)
print(f"{same} of {same + different} inputs parse as Apple's does ({different} differ, {skipped} skipped: raw HTML or images)")
