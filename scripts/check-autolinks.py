#!/usr/bin/env python3
"""Compares the engine's autolinks with cmark-gfm's autolink extension on cmark-gfm's own examples.

A development check, not a test (the examples are others' text): run it with the spec files' folder,
    scripts/check-autolinks.py ../shared/cmark-gfm-tests
It prints each example whose links (destination and text) differ, and a count.
"""
import html, pathlib, re, subprocess, sys

folder = pathlib.Path(sys.argv[1])
unfold = pathlib.Path(__file__).resolve().parent.parent / ".build/debug/unfold"
fence = "`" * 32
examples = []
for name in ["spec-debian-gfm6.txt", "extensions.txt", "regression.txt"]:
    text = (folder / name).read_text()
    for match in re.finditer(fence + r" example([^\n]*)\n(.*?)\n\.\n", text, re.S):
        if "autolink" in match.group(1):
            examples.append((name, match.group(2).replace("→", "\t")))

def cmark_links(markdown):
    out = subprocess.run(["cmark-gfm", "-e", "autolink"], input=markdown, capture_output=True, text=True).stdout
    return [(html.unescape(h), html.unescape(re.sub("<[^>]+>", "", t)))
            for h, t in re.findall(r'<a href="([^"]*)"[^>]*>(.*?)</a>', out, re.S)]

def engine_links(markdown):
    out = subprocess.run([str(unfold), "--format", "runs"], input=markdown, capture_output=True, text=True).stdout
    links, previous = [], None
    for line in out.splitlines():
        m = re.search(r'link="((?:[^"\\]|\\.)*)" "(.*)"$', line)
        if m:
            text = m.group(2).encode().decode("unicode_escape").encode("latin-1").decode("utf-8")
            if previous == m.group(1):  # one link in several styles
                links[-1] = (links[-1][0], links[-1][1] + text)
            else:
                links.append((m.group(1), text))
        previous = m.group(1) if m else None
    return links

differ = 0
for name, markdown in examples:
    # Block syntax stays text in the engine: compare paragraphs' inline links only.
    # ftp: links are not made: the engine allows only http, https and mailto links.
    expected = [link for link in cmark_links(markdown) if not link[0].startswith("ftp:")]
    got = engine_links(markdown)
    if expected != got:
        differ += 1
        print(f"{name}: {markdown!r}\n  cmark-gfm: {expected}\n  engine:    {got}")
print(f"{len(examples) - differ} of {len(examples)} examples link the same")
