#!/usr/bin/env python3
"""Import graphs of src/: prints every cycle between folders and between the files of one
folder, exits 1 if any.

Folders: a node is a folder under src/ (`heap/uber`, `machine`) or a top-level file
(`config`). An edge A -> B means a file of A names `crate::B...` (the deepest folder that
exists) or, through `super::`, a module of another folder.

Files: within one folder, a node is a file (`mod.rs` included). An edge F -> G means F names
G's module (`super::g::x`, `crate::folder::g::x`, or, from `mod.rs`, `g::x`), or F names an
item that `mod.rs` defines (an edge to `mod.rs`). `pub use` re-exports and `mod g;`
declarations are not edges: `mod.rs` is the folder's front door. A file's `#[cfg(test)]`
module is left out.
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
    comps = cycles(edges)
    return report("folders", edges, comps)


def expand_use(tree, prefix=""):
    """The paths of a `use` tree (`a::{b, c::{d, e}}` -> a::b, a::c::d, a::c::e)."""
    tree = tree.strip()
    i = tree.find("{")
    if i < 0:
        p = re.sub(r"\s+as\s+\w+$", "", tree).strip()
        return [prefix + p] if p else []
    head, body = tree[:i], tree[i + 1 : tree.rfind("}")]
    depth, start, parts = 0, 0, []
    for j, ch in enumerate(body):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(body[start:j])
            start = j + 1
    parts.append(body[start:])
    out = []
    for p in parts:
        if p.strip() == "self":
            out.append((prefix + head).rstrip(":"))
        elif p.strip():
            out.extend(expand_use(p, prefix + head))
    return out


def named_paths(src):
    """(path, how) for every module path a file names: in `use`, as `crate::`/`super::`/`self::`
    paths, or bare (`x::y`)."""
    src = re.sub(r"//.*", "", src)
    cut = re.search(r"#\[cfg\(test\)\]", src)
    if cut:
        src = src[: cut.start()]
    src = re.sub(r"\bpub(\([^)]*\))?\s+use\s+[^;]*;", "", src, flags=re.S)
    paths = []
    for m in re.finditer(r"\buse\s+([^;]*);", src, re.S):
        paths += [(p, "use") for p in expand_use(m.group(1))]
    body = re.sub(r"\buse\s+[^;]*;", "", src, flags=re.S)
    for m in re.finditer(r"\b((?:crate|super|self)(?:::[A-Za-z_][A-Za-z0-9_]*)+)", body):
        paths.append((m.group(1), "path"))
    for m in re.finditer(r"(?<![:\w])([a-z_][a-z0-9_]*)::[A-Za-z_]", body):
        # `super::g::x` and `crate::...` are anchored paths, read whole above.
        if m.group(1) not in ("crate", "super", "self"):
            paths.append((m.group(1) + "::x", "bare"))
    return paths


def file_edges():
    """Edges between the files of each folder of src/."""
    edges = {}
    for root, dirs, files in os.walk(SRC):
        folder = os.path.relpath(root, SRC).replace(os.sep, "/")
        fmod = [] if folder == "." else folder.split("/")
        names = {f[:-3] for f in files if f.endswith(".rs")}
        front = "lib" if folder == "." else "mod"
        siblings = names - {front, "main"}
        for name in sorted(names - {"main"}):
            is_front = name == front
            me = name + ".rs" if folder == "." else f"{folder}/{name}.rs"
            src = open(os.path.join(root, name + ".rs"), encoding="utf-8").read()
            for p, how in named_paths(src):
                parts = p.split("::")
                anchored = parts[0] in ("crate", "super", "self")
                if parts[0] == "crate":
                    if parts[1 : 1 + len(fmod)] != fmod:
                        continue
                    tail = parts[1 + len(fmod) :]
                elif parts[0] == "super":
                    ups = 0
                    while parts and parts[0] == "super":
                        ups += 1
                        parts = parts[1:]
                    mine = fmod if is_front else fmod + [name]
                    if mine[: len(mine) - ups] != fmod:
                        continue
                    tail = parts
                elif parts[0] == "self" and is_front:
                    tail = parts[1:]
                elif how in ("use", "bare") and is_front and parts[0] != "self":
                    tail = parts
                else:
                    continue
                if not tail or tail[0] in dirs:
                    continue
                if tail[0] in siblings:
                    target = tail[0]
                elif anchored:
                    target = front
                else:
                    continue
                if target != name:
                    tf = target + ".rs" if folder == "." else f"{folder}/{target}.rs"
                    edges.setdefault(me, set()).add(tf)
    return edges


def cycles(edges):
    """Strongly connected components of more than one node (Tarjan)."""
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

    for v in sorted(edges):
        if v not in index:
            strong(v)
    return comps


def report(what, edges, comps):
    """Prints each cycle with its edges; 1 if there is any."""
    for c in comps:
        print(f"import cycle between {what}: " + " <-> ".join(c))
        for a in c:
            for b in sorted(edges.get(a, ())):
                if b in c:
                    print(f"  {a} -> {b}")
    return 1 if comps else 0


def files_main():
    edges = file_edges()
    return report("files", edges, cycles(edges))


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    sys.exit(max(main(), files_main()))
