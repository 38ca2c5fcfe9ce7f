#!/usr/bin/env python3
"""Checks the relative links of the project's Markdown documents.

usage: tools/check-links.py [FILE.md ...]

Without arguments it checks README.md, ARCHITECTURE.md, CHANGELOG.md, results/README.md and
docs/*.md. Every relative link, inline (`[text](path)`, `[text](path#anchor)`) or by reference
(`[text]: path`), must name a file or directory that exists, relative to the document; a link
with an anchor into a Markdown file (or `#anchor` alone, into the document itself) must name one
of its headings as GitHub spells their anchors. Links inside code spans and fenced code blocks,
and absolute URLs (`https:`, `mailto:`, ...), are not checked. Prints each broken link as
`file:line: link (why)` and exits with status 1 when there is one.
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT = ["README.md", "ARCHITECTURE.md", "CHANGELOG.md", "results/README.md"]

INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^()\s>]+(?:\([^()\s]*\))?[^()\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
FENCE = re.compile(r"^\s{0,3}(```|~~~)")
HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def prose_lines(text):
    """(line number, line) of the lines outside fenced code blocks, code spans blanked."""
    fenced = False
    for n, line in enumerate(text.split("\n"), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield n, re.sub(r"(`+)(?:(?!\1).)+?\1", lambda m: " " * len(m.group(0)), line)


def slug(heading):
    """GitHub's anchor of a heading: lower case, markup and punctuation dropped, spaces to '-'."""
    h = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text only
    h = h.replace("`", "").replace("*", "")
    h = re.sub(r"<[^>]+>", "", h)
    h = re.sub(r"[^\w\- ]", "", h.strip().lower())
    return h.replace(" ", "-")


def anchors(path, cache={}):
    """The anchors of a Markdown file's headings (a repeated one gets -1, -2, ... as on GitHub)."""
    if path not in cache:
        seen, out = {}, set()
        fenced = False
        for line in open(path, encoding="utf-8").read().split("\n"):
            if FENCE.match(line):
                fenced = not fenced
                continue
            m = HEADING.match(line) if not fenced else None
            if m:
                s = slug(m.group(1))
                k = seen.get(s, 0)
                out.add(s if k == 0 else f"{s}-{k}")
                seen[s] = k + 1
        cache[path] = out
    return cache[path]


def links(path):
    """(line number, target) of every link in a Markdown file."""
    text = open(path, encoding="utf-8").read()
    for n, line in prose_lines(text):
        for m in INLINE.finditer(line):
            yield n, m.group(1)
        m = REFERENCE.match(line)
        if m:
            yield n, m.group(1)


def broken(path):
    """(line, target, why) of the broken relative links of one file."""
    base = os.path.dirname(path)
    for n, target in links(path):
        if SCHEME.match(target) or target.startswith("//"):
            continue
        file_part, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(base, file_part)) if file_part else path
        if file_part and not os.path.exists(dest):
            yield n, target, "no such file"
            continue
        if anchor and dest.endswith(".md") and os.path.isfile(dest) and anchor not in anchors(dest):
            yield n, target, f"no heading with anchor #{anchor} in {os.path.relpath(dest, ROOT)}"


def main(argv):
    files = argv or DEFAULT + sorted(glob.glob("docs/*.md", root_dir=ROOT))
    bad = 0
    for f in files:
        path = os.path.join(ROOT, f)
        if not os.path.exists(path):
            print(f"{f}: missing")
            bad += 1
            continue
        for n, target, why in broken(path):
            print(f"{os.path.relpath(path, ROOT)}:{n}: {target} ({why})")
            bad += 1
    if bad:
        print(f"links: {bad} broken")
        return 1
    print(f"links: ok ({len(files)} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
