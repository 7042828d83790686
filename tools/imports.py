#!/usr/bin/env python3
"""tools/imports.py: the crate's module graph, its circles and its upward
imports, read from the source (Python 3 standard library only).

usage: tools/imports.py [SRC_DIR] [--tests DIR] [--edges]

A module is a file (`a/b.rs` or `a/b/mod.rs` is `a::b`). An edge A -> B
is a path in A's code (outside comments and strings) that names B or an
item of B: `crate::...`, `super::...`, `self::...`, a child module's
name, or, in tests/, `tengen::...`. A `pub use` in B of an item of C is
followed: a path to the re-exported item leads to C, so a module that
reaches its sibling through the parent's re-export counts as reaching
the sibling. A parent declaring a child (`mod child;`) is not an edge;
its code using the child is.

Circles are the strongly connected components of more than one module
(Tarjan). Layers, lowest first: deps, go, search, games, protocol,
arena, cli, then the crate root; an edge to a higher layer is upward.
--tests adds the integration tests (each file a module above all
layers). Prints the counts and every circle and upward edge; exits 1 if
there is any, so CI or a reviewer can run it as a check.
"""

import os
import re
import sys
from collections import defaultdict

LAYERS = ["deps", "go", "search", "games", "protocol", "arena", "cli"]


def modules(root):
    mods = {}
    for d, _, files in os.walk(root):
        for f in files:
            if f.endswith(".rs"):
                rel = os.path.relpath(os.path.join(d, f), root)[:-3].split(os.sep)
                if rel[-1] in ("mod", "lib", "main"):
                    rel = rel[:-1]
                mods["::".join(rel)] = os.path.join(d, f)
    return mods


def strip(text):
    """The code without comments, strings and chars (paths in docs do not count)."""
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'r#*"(?:.|\n)*?"#*', '""', text)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    return text


def expand_uses(text):
    """Each `use` tree flattened into whole paths."""
    out = []
    for m in re.finditer(r"\b(pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", text):
        pub = bool(m.group(1))
        stack = [("", m.group(2).replace("\n", " "))]
        while stack:
            prefix, t = stack.pop()
            t = t.strip()
            brace = t.find("{")
            if brace >= 0 and t.endswith("}"):
                head = t[:brace].rstrip(":").strip()
                inner, depth, parts, cur = t[brace + 1:-1], 0, [], ""
                for ch in inner:
                    depth += ch == "{"
                    depth -= ch == "}"
                    if ch == "," and depth == 0:
                        parts.append(cur)
                        cur = ""
                    else:
                        cur += ch
                parts.append(cur)
                base = prefix + ("::" if prefix and head else "") + head
                stack.extend((base, p) for p in parts if p.strip())
            else:
                name = t.split(" as ")[0].strip()
                if name == "self":
                    out.append((pub, prefix))
                elif name and name != "*":
                    out.append((pub, prefix + ("::" if prefix else "") + name))
                elif name == "*":
                    out.append((pub, prefix))
    return out


def main():
    args = sys.argv[1:]
    tests = None
    if "--tests" in args:
        i = args.index("--tests")
        tests = args[i + 1]
        del args[i:i + 2]
    show_edges = "--edges" in args
    args = [a for a in args if a != "--edges"]
    root = args[0] if args else "src"
    mods = modules(root)
    texts = {m: strip(open(p, encoding="utf-8").read()) for m, p in mods.items()}
    if tests:
        for f in sorted(os.listdir(tests)):
            p = os.path.join(tests, f)
            name = f[:-3] if f.endswith(".rs") else f
            if f.endswith(".rs") or os.path.isfile(os.path.join(p, "main.rs")):
                src = p if f.endswith(".rs") else os.path.join(p, "main.rs")
                text = open(src, encoding="utf-8").read()
                if not f.endswith(".rs"):
                    for g in sorted(os.listdir(p)):
                        if g.endswith(".rs") and g != "main.rs":
                            text += open(os.path.join(p, g), encoding="utf-8").read()
                texts["tests::" + name] = strip(text)
    children = defaultdict(set)
    for m in mods:
        if m:
            parent = "::".join(m.split("::")[:-1])
            children[parent].add(m.split("::")[-1])

    def resolve(cur, path):
        """The module a path lands in (the longest module prefix)."""
        parts = path.split("::")
        if cur.startswith("tests::"):
            if parts[0] != "tengen":
                return None
            base, parts = [], parts[1:]
        elif parts[0] == "crate":
            base, parts = [], parts[1:]
        elif parts[0] == "super":
            base = cur.split("::")
            while parts and parts[0] == "super":
                base, parts = base[:-1], parts[1:]
        elif parts[0] == "self":
            base, parts = cur.split("::") if cur else [], parts[1:]
        elif parts[0] in children.get(cur, ()):
            base = cur.split("::") if cur else []
        else:
            return None
        full = [p for p in base + parts if p]
        for k in range(len(full), -1, -1):
            if "::".join(full[:k]) in mods:
                return "::".join(full[:k]), full[k:]
        return None

    # re-exports: (module, item name) -> the module the item comes from
    reexport = {}
    for m, text in texts.items():
        for pub, path in expand_uses(text):
            if pub:
                r = resolve(m, path)
                if r and r[1]:
                    reexport[(m, path.split("::")[-1])] = r[0]
                elif r:
                    reexport[(m, path.split("::")[-1])] = r[0]

    def target(m, path):
        r = resolve(m, path)
        if r is None:
            return None
        mod, rest = r
        seen = set()
        while rest and (mod, rest[0]) in reexport and (mod, rest[0]) not in seen:
            seen.add((mod, rest[0]))
            mod = reexport[(mod, rest[0])]
            rest = rest[1:]
        return mod

    def segments(m, text):
        """(module, code) pieces of a file: an inline `mod name { ... }`
        (a test module) is its own module below the file's, so that its
        `super::` is the file itself."""
        out, pos = [], 0
        for x in re.finditer(r"\bmod\s+([a-z_][a-z0-9_]*)\s*\{", text):
            if x.start() < pos:
                continue
            depth, i = 1, x.end()
            while i < len(text) and depth:
                depth += text[i] == "{"
                depth -= text[i] == "}"
                i += 1
            out.append((m + "::" + x.group(1) if m else x.group(1), text[x.end():i - 1]))
            out.append((m, text[pos:x.start()]))
            pos = i
        out.append((m, text[pos:]))
        return out

    edges = defaultdict(set)
    token = re.compile(r"(?<![A-Za-z0-9_:])((?:crate|super|self|tengen|[a-z_][a-z0-9_]*)(?:::[A-Za-z_][A-Za-z0-9_]*)+)")
    for m, text in texts.items():
        for inner, code in segments(m, text):
            body = re.sub(r"\b(pub(\([^)]*\))?\s+)?use\s+[^;]+;", " ", code)
            paths = [p for _, p in expand_uses(code)] + token.findall(body)
            for p in paths:
                t = target(inner, p)
                if t is not None and t != m:
                    edges[m].add(t)
    edges = {a: {b for b in bs if b != a} for a, bs in edges.items()}
    nodes = list(texts)
    index, low, on, stack, sccs, counter = {}, {}, set(), [], [], [0]
    sys.setrecursionlimit(100000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
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
                sccs.append(sorted(comp))

    for v in nodes:
        if v not in index:
            visit(v)

    def layer(m):
        if m.startswith("tests::"):
            return len(LAYERS) + 1
        top = m.split("::")[0]
        return LAYERS.index(top) if top in LAYERS else len(LAYERS)

    upward = sorted((a, b) for a in edges for b in edges[a] if layer(b) > layer(a))
    n_edges = sum(len(v) for v in edges.values())
    print(f"{len(nodes)} modules, {n_edges} edges, {len(sccs)} circles, {len(upward)} upward edges")
    for c in sorted(sccs, key=len):
        print(f"circle of {len(c)}: " + " ".join(x or "(crate root)" for x in c))
        members = set(c)
        for a in c:
            for b in sorted(edges.get(a, ())):
                if b in members:
                    print(f"    {a or '(crate root)'} -> {b or '(crate root)'}")
    for a, b in upward:
        print(f"upward: {a} -> {b or '(crate root)'}")
    if show_edges:
        for a in sorted(edges):
            for b in sorted(edges[a]):
                print(f"edge: {a or '(crate root)'} -> {b or '(crate root)'}")
    return 1 if sccs or upward else 0


if __name__ == "__main__":
    sys.exit(main())
