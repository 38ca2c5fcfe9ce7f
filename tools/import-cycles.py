#!/usr/bin/env python3
"""Folder-level import graph of src/: prints every cycle between folders, exits 1 if any.

A node is a folder under src/ (`heap/uber`, `machine`) or a top-level file (`config`).
An edge A -> B means a file of A names `crate::B...` (the deepest folder that exists) or,
through `super::`, a module of another folder. A child module using its parent is an edge
like any other, so the check is only about folders: a file may use its own folder freely.
"""
import os
import re
import sys

REEXPORTS = {"Error": "error", "Result": "error", "Config": "config"}
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")


def node_of(path_parts):
    """The node of a module path (list of names below src/)."""
    parts = []
    for p in path_parts:
        cand = os.path.join(SRC, *parts, p)
        if os.path.isdir(cand):
            parts.append(p)
        else:
            if not parts and os.path.isfile(cand + ".rs"):
                return p
            break
    return "/".join(parts) if parts else None


def file_node(rel):
    d = os.path.dirname(rel)
    if d:
        return d
    return os.path.splitext(rel)[0]


def module_of(rel):
    """The module path of a file (`heap/uber/mod.rs` -> [heap, uber])."""
    parts = rel[:-3].split("/")
    if parts[-1] == "mod":
        parts = parts[:-1]
    return parts


def main():
    edges = {}
    crate_re = re.compile(r"crate::((?:[a-z_][a-z0-9_]*::)*[a-z_][a-z0-9_]*)")
    super_re = re.compile(r"\b((?:super::)+)((?:[a-z_][a-z0-9_]*::)*[a-z_][a-z0-9_]*)")
    for root, _, files in os.walk(SRC):
        for f in files:
            if not f.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(root, f), SRC).replace(os.sep, "/")
            if rel in ("lib.rs", "main.rs"):
                continue
            src = open(os.path.join(root, f), encoding="utf-8").read()
            src = re.sub(r"//.*", "", src)
            me = file_node(rel)
            targets = set()
            for m in crate_re.finditer(src):
                path = m.group(1).split("::")
                targets.add(REEXPORTS.get(path[0]) or node_of(path))
            # `use crate::{Error, Result}`: the crate root's re-exports.
            for m in re.finditer(r"crate::\{([^}]*)\}", src):
                for name in re.split(r"[,\s]+", m.group(1)):
                    targets.add(REEXPORTS.get(name) or node_of(name.split("::")))
            mod = module_of(rel)
            for m in super_re.finditer(src):
                ups = m.group(1).count("super::")
                base = mod[: len(mod) - ups] if ups <= len(mod) else []
                targets.add(node_of(base + m.group(2).split("::")) or ("/".join(base) or None))
            for t in targets:
                if t and t != me:
                    edges.setdefault(me, set()).add(t)
    if os.environ.get("SHOW_EDGES"):
        for a in sorted(edges):
            print(a, "->", " ".join(sorted(edges[a])))
    # Cycles: strongly connected components with more than one node.
    index, low, stack, on, comps = {}, {}, [], set(), []
    counter = [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            strong(v)
    for c in comps:
        print("import cycle between folders: " + " <-> ".join(c))
        for a in c:
            for b in sorted(edges.get(a, ())):
                if b in c:
                    print(f"  {a} -> {b}")
    return 1 if comps else 0


if __name__ == "__main__":
    sys.exit(main())
