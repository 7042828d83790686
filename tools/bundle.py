#!/usr/bin/env python3
"""tools/bundle.py: one crate's modules, and the crates it depends on, as
one source file, for the uploads that take no dependencies.

  bundle.py single SPEC OUT [--from DIR]
      OUT: the modules SPEC names from src/ (tools/arena.spec,
      src/games/*/GAME.spec; tests and comments left out), inlined, with
      the facade src/deps.rs holding the crates they use, and SPEC's
      `main`. The files it includes are listed on stdout, each twice:
      relative to src/ and to OUT's folder. --from: read DIR/src instead.

  bundle.py split SPEC OUT [--from DIR]
      The same modules as separate one-file crates, compiled one rustc at
      a time (the arena zip's build.rs): OUT/crates/ holds each crate the
      facade uses and each of SPEC's `parts:`, with OUT/crates/PLAN, the
      build order; OUT/src/main.rs the other modules and `main`. Listed
      on stdout: each included file, under src/ and under OUT.

The crates' code is theirs, as cargo fetched it, with the features the
project builds them with (cargo tree): comments and tests are dropped,
`feature = "x"` is settled, and paths are moved under the facade:
`crate::`/`$crate::` gain `deps::NAME::`, another crate's name becomes
`crate::deps::OTHER`, and `alloc::` becomes `std::` (single; split leaves
paths alone: there each crate is a crate).
"""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from rustsrc import Tok, cfg_value, close, settle_features, sig, squeeze, text, tokenize  # noqa: E402,E501

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# while bundling a single file: the folder it will be compiled in, and the
# files its include_bytes!/include_str! bring in (their paths made relative)
INCLUDES = None
SRC = ROOT  # where the project's src/ is read from (--from DIR)
FACADE = "deps"  # the project's module through which it reaches its crates


def die(msg):
    print(f"bundle.py: {msg}", file=sys.stderr)
    sys.exit(1)


# ------------------------------------------------------------------ modules
def attrs_before(toks, i):
    """Start index of the attributes/visibility written before item token i,
    the attributes' token spans, and whether an outer #[cfg] is false."""
    j = sig(toks, i - 1, -1)
    start = i
    if j >= 0 and toks[j].text == ")":  # pub(crate), pub(super)
        k = j
        while toks[k].text != "(":
            k -= 1
        k = sig(toks, k - 1, -1)
        if toks[k].text == "pub":
            start, j = k, sig(toks, k - 1, -1)
    elif j >= 0 and toks[j].text == "pub":
        start, j = j, sig(toks, j - 1, -1)
    spans = []
    while j >= 0 and toks[j].text == "]":
        depth, k = 0, j
        while True:
            if toks[k].text == "]":
                depth += 1
            elif toks[k].text == "[":
                depth -= 1
                if depth == 0:
                    break
            k -= 1
        h = sig(toks, k - 1, -1)
        if h < 0 or toks[h].text != "#":
            break
        spans.append((h, j))
        start, j = h, sig(toks, h - 1, -1)
    return start, spans


def attr_info(toks, spans):
    """(cfg is surely false, #[path] value, the other attributes' text)."""
    dead, path, keep = False, None, []
    for h, j in reversed(spans):
        body = toks[sig(toks, h + 1) + 1:j]
        b = [t for t in body if t.kind not in ("ws", "comment")]
        if b and b[0].text == "cfg" and cfg_value(b[2:-1]) is False:
            dead = True
        elif b and b[0].text == "path":
            path = b[2].text.strip('"')
        else:
            keep.append(text(toks[h:j + 1]))
    return dead, path, keep


def inline(path, child_dir, want, modpath, prefix_fn=None, partial=None, replace=None,
           elsewhere=None, public=()):
    """The module file at `path` with its `mod x;` items inlined, recursively.
    `want(modpath)` says whether a child module is kept; `partial(modpath)`
    whether only its kept child modules are (not the rest of its file);
    `replace` maps a module path to the body it gets instead of its file;
    `elsewhere` a kept module path to the crate that holds it (a `use` of
    it there instead); `public` the module paths declared `pub`;
    `prefix_fn` turns each file's tokens before they are searched (the
    crates' rewrites)."""
    partial = partial or (lambda p: False)
    replace = replace or {}
    elsewhere = elsewhere or {}
    keep_rest = not partial(modpath)
    with open(path, encoding="utf-8") as f:
        toks = tokenize(f.read())
    if prefix_fn:
        toks = prefix_fn(toks)
    if file_is_dead(toks):
        return None
    out, i, depth = [], 0, 0
    emitted = 0
    excluded = set()  # child modules left out: `use` items through them go too
    while i < len(toks):
        t = toks[i]
        if t.kind == "ident" and t.text in ("include_bytes", "include_str") and INCLUDES is not None \
                and prefix_fn is None:
            j = sig(toks, sig(toks, sig(toks, i + 1) + 1) + 1)
            if toks[j].kind == "str":
                file = os.path.normpath(os.path.join(os.path.dirname(path), toks[j].text.strip('"')))
                rel = os.path.relpath(file, INCLUDES["base"])
                INCLUDES["files"].append((file, os.path.join(INCLUDES.get("prefix", ""), rel)))
                toks[j] = Tok("str", '"' + rel + '"')
        if t.kind == "ident" and t.text == "use" and depth == 0 and excluded:
            first = toks[sig(toks, i + 1)].text
            if first == "self":
                first = toks[sig(toks, sig(toks, sig(toks, i + 1) + 1) + 2)].text
            if first in excluded:
                start, _ = attrs_before(toks, i)
                end = i
                while toks[end].text != ";":
                    end += 1
                if keep_rest:
                    out.extend(toks[emitted:start])
                emitted = i = end + 1
                continue
        if t.kind == "punct" and t.text in "{}":
            depth += 1 if t.text == "{" else -1
        if t.kind == "ident" and t.text == "mod" and depth == 0:
            n = sig(toks, i + 1)
            e = sig(toks, n + 1)
            if toks[n].kind == "ident" and toks[e].text in (";", "{"):
                name = toks[n].text
                start, spans = attrs_before(toks, i)
                dead, mpath, keep = attr_info(toks, spans)
                end = e if toks[e].text == ";" else close(toks, e)
                child = modpath + [name]
                if keep_rest:
                    out.extend(toks[emitted:start])
                if dead or not want(child):
                    excluded.add(name)
                    emitted = i = end + 1
                    continue
                vis = text(toks[start:i]).split("]")[-1].strip() if spans else text(toks[start:i]).strip()
                if tuple(child) in public:
                    vis = "pub"
                attrs = "".join(k + "\n" for k in keep)
                if tuple(child) in elsewhere:
                    where = "::".join([elsewhere[tuple(child)]] + child)
                    out.append(Tok("raw", attrs + (vis + " " if vis else "") + f"use {where};\n"))
                    emitted = i = end + 1
                    continue
                head = attrs + (vis + " " if vis else "") + f"mod {name} "
                if toks[e].text == "{":
                    if not keep_rest:
                        die(f"{path}: inline module {name} in a module kept in part")
                    out.append(Tok("raw", head))
                    emitted = e
                    i = e + 1
                    depth += 1
                    continue
                if tuple(child) in replace:
                    out.append(Tok("raw", head + "{\n" + replace[tuple(child)] + "\n}\n"))
                    emitted = i = end + 1
                    continue
                if mpath:
                    file = os.path.join(os.path.dirname(path), mpath)
                    sub = os.path.dirname(file)
                else:
                    file = os.path.join(child_dir, name + ".rs")
                    sub = os.path.join(child_dir, name)
                    if not os.path.exists(file):
                        file = os.path.join(child_dir, name, "mod.rs")
                body = inline(file, sub, want, child, prefix_fn, partial, replace, elsewhere, public)
                if body is None:
                    emitted = i = end + 1
                    continue
                out.append(Tok("raw", head + "{\n"))
                out.extend(body)
                out.append(Tok("raw", "\n}"))
                emitted = i = end + 1
                continue
        i += 1
    if keep_rest:
        out.extend(toks[emitted:])
    return out


def inner_attrs(toks):
    """Spans (h, j) of the `#![...]` attributes anywhere in `toks`."""
    spans, i = [], 0
    while i < len(toks):
        j = sig(toks, i + 1)
        if toks[i].text == "#" and j < len(toks) and toks[j].text == "!":
            k = sig(toks, j + 1)
            if k < len(toks) and toks[k].text == "[":
                spans.append((i, close(toks, k)))
                i = spans[-1][1] + 1
                continue
        i += 1
    return spans


def file_is_dead(toks):
    """Whether a module file's own `#![cfg(...)]` is surely false."""
    for h, j in inner_attrs(toks):
        b = [t for t in toks[h:j + 1] if t.kind not in ("ws", "comment")]
        if b[3].text == "cfg" and cfg_value(b[5:-2]) is False:
            return True
    return False


# ------------------------------------------------------------------ crates
def crate_graph():
    """The crates the project's library builds with, as cargo resolves
    them: {lib name: (lib src path, features, [dependency lib names])}."""
    def run(*args):
        r = subprocess.run(["cargo", *args], cwd=ROOT, capture_output=True, text=True)
        if r.returncode:
            die(f"cargo {' '.join(args)} failed:\n{r.stderr}")
        return r.stdout

    meta = json.loads(run("metadata", "--format-version", "1", "--offline", "--locked"))
    src = {}
    for p in meta["packages"]:
        for t in p["targets"]:
            if "lib" in t["kind"]:
                src[(p["name"], p["version"])] = (t["src_path"], p["edition"])
    tree = run("tree", "-e", "normal", "--no-dedupe", "--prefix", "depth",
               "-f", "{lib}|{p}|{f}", "--offline", "--locked")
    graph, stack = {}, []
    for line in tree.splitlines():
        k = 0
        while line[k].isdigit():
            k += 1
        depth = int(line[:k])
        lib, pkg, feats = line[k:].split("|")
        name, version = pkg.split()[:2]
        del stack[depth:]
        if depth:
            path, edition = src[(name, version.lstrip("v"))]
            graph.setdefault(lib, (path, set(feats.split(",")) - {""}, set(), edition))
            if depth > 1:
                graph[stack[-1]][2].add(lib)
        stack.append(lib)
    return graph


def macro_exports(toks):
    names, i = [], 0
    while i < len(toks):
        if toks[i].text == "macro_export":
            j = i
            while toks[j].text != "macro_rules":
                j += 1
            names.append(toks[sig(toks, sig(toks, j + 1) + 1)].text)
            i = j
        i += 1
    return names


def rewrite_paths(toks, here, deps, macros):
    """Moves crate `here`'s paths under crate::deps::here (see the top)."""
    to = {d: ["crate", "::", FACADE, "::", d] for d in deps}
    to["alloc"] = ["std"]
    out, i = [], 0

    def prev(k):
        p = sig(toks, k - 1, -1)
        return toks[p].text if p >= 0 else ""

    def is_path_sep(k):
        return k + 1 < len(toks) and toks[k].text == ":" and toks[k + 1].text == ":"

    while i < len(toks):
        t = toks[i]
        n = sig(toks, i + 1)
        if t.kind == "ident" and t.text == "extern" and toks[n].text == "crate":
            name_i = sig(toks, n + 1)
            name = toks[name_i].text
            semi = name_i
            while toks[semi].text != ";":
                semi += 1
            rest = text(toks[name_i + 1:semi])
            if name in to and name != "alloc":
                out.append(Tok("raw", f"use crate::{FACADE}::{name}{rest};"))
            else:  # std, core, alloc: already there; keep the item for its attributes
                out.append(Tok("raw", "const _: () = ();"))
            i = semi + 1
            continue
        if t.kind == "ident" and t.text == "crate" and n < len(toks) and is_path_sep(n):
            after = sig(toks, n + 2)
            dollar = out and out[-1].text == "$"
            if not (dollar and toks[after].text in macros):
                out.append(Tok("raw", f"crate::{FACADE}::{here}"))
                i = n
                continue
        if t.kind == "ident" and t.text in to and prev(i) not in (".", "$"):
            leading = False
            p = sig(toks, i - 1, -1)
            if p >= 1 and toks[p].text == ":" and toks[p - 1].text == ":":
                q = sig(toks, p - 2, -1)
                if q >= 0 and (toks[q].kind in ("ident", "num") or toks[q].text in ">)"):
                    out.append(t)
                    i += 1
                    continue
                leading = True
            if (n < len(toks) and is_path_sep(n)) or prev(i) == "use" or leading:
                if leading:  # drop the `::` already copied
                    while out[-1].kind in ("ws", "comment"):
                        out.pop()
                    del out[-2:]
                out.append(Tok("raw", "".join(to[t.text])))
                i += 1
                continue
        out.append(t)
        i += 1
    return out


def drop_tool_attrs(toks):
    """`#[clippy::...]`, `#[rustfmt::...]`: lint hints, but an item carrying
    one counts as macro-expanded, and a macro_export macro that is cannot be
    reached by path from inside its own crate."""
    out, i = [], 0
    while i < len(toks):
        if toks[i].text == "#":
            j = sig(toks, i + 1)
            if j < len(toks) and toks[j].text == "[":
                k = sig(toks, j + 1)
                if toks[k].text in ("clippy", "rustfmt") and toks[sig(toks, k + 1)].text == ":":
                    i = close(toks, j) + 1
                    continue
        out.append(toks[i])
        i += 1
    return out


def name_anonymous_params(toks):
    """Edition 2015's `fn f(&self, u32);` in traits: the parameter gets `_:`."""
    out, i = [], 0
    while i < len(toks):
        out.append(toks[i])
        if toks[i].text == "fn":
            j = sig(toks, sig(toks, i + 1) + 1)
            if toks[j].text == "(":
                end = close(toks, j)
                params, depth, cur = [], 0, []
                for t in toks[j + 1:end]:
                    if t.text in "([{<" and t.kind == "punct":
                        depth += 1
                    elif t.text in ")]}>" and t.kind == "punct":
                        depth -= 1
                    if t.text == "," and depth == 0:
                        params.append(cur)
                        cur = []
                    else:
                        cur.append(t)
                params.append(cur)
                fixed = []
                for prm in params:
                    words = [t.text for t in prm if t.kind not in ("ws", "comment")]
                    if words and ":" not in words and "self" not in words:
                        prm = [Tok("raw", "_: ")] + prm
                    fixed.append(text(prm))
                out.extend(toks[i + 1:j + 1])
                out.append(Tok("raw", ",".join(fixed)))
                i = end
                continue
        i += 1
    return out


def bundle_crate(name, graph, keep_lines, alone=False):
    """Crate `name` as one module of the facade (`pub mod name { ... }`,
    its paths moved under it), or, `alone`, as the one-file source of the
    crate itself, its paths untouched (`bundle.py crates`)."""
    src, feats, deps, edition = graph[name]
    with open(src, encoding="utf-8") as f:
        macros = macro_exports(tokenize(f.read()))
    files = []

    def prep(toks):
        toks = drop_tool_attrs(settle_features(toks, feats))
        if edition == "2015":
            toks = name_anonymous_params(toks)
        files.append(toks)
        return toks

    body = inline(src, os.path.dirname(src), lambda p: True, [], prep)
    # macros exported from any file of the crate
    for toks in files:
        macros += macro_exports(toks)
    body = retokenize(body) if alone else rewrite_paths(retokenize(body), name, deps, set(macros))
    drop = {h for h, j in inner_attrs(body) if not is_cfg(body, h, j)}
    spans = {h: j for h, j in inner_attrs(body)}
    kept, i = [], 0
    while i < len(body):
        if i in drop:
            i = spans[i] + 1
            continue
        kept.append(body[i])
        i += 1
    code = squeeze(retokenize(kept), keep_lines)
    if alone:
        return code + "\n"
    reexport = ""
    if macros:
        reexport = "#[allow(unused_imports)] pub use crate::{" + ", ".join(sorted(set(macros))) + "};\n"
    return (f"#[allow(warnings, clippy::all)]\npub mod {name} {{\n"
            f"{code}{reexport}}}\n")


def is_cfg(toks, h, j):
    b = [t for t in toks[h:j + 1] if t.kind not in ("ws", "comment")]
    return b[3].text == "cfg"


def retokenize(toks):
    return tokenize(text(toks))


# ------------------------------------------------------------------ outputs
def facade(graph, names, inside):
    """src/deps.rs for an upload that carries the crates `names`: the
    re-exports of the project's other crates dropped (the full binary's
    alone, as flate2), and, when the crates come `inside` the facade, a
    whole-crate re-export (`pub use log;`) too: the module of that name
    takes its place."""
    with open(os.path.join(SRC, "src", FACADE + ".rs"), encoding="utf-8") as f:
        lines = f.read().splitlines(keepends=True)
    out = []
    for line in lines:
        s = line.strip()
        first = s[8:].split("::")[0].rstrip(";") if s.startswith("pub use ") else None
        if first in graph and (first not in names or (inside and s == f"pub use {first};")):
            continue
        out.append(line)
    return "".join(out)


def facade_with_crates(graph, names, keep_lines):
    """src/deps.rs with the crates `names` inside it (`facade`)."""
    head = facade(graph, names, inside=True)
    parts = [head, "\n// The crates' own sources, bundled by tools/bundle.py.\n"]
    for name in sorted(names):
        parts.append(bundle_crate(name, graph, keep_lines))
    return "".join(parts)


def read_spec(spec_path):
    """A spec's keys (lists of words; `key+:` adds to the key's line
    before) and the lines after `main:`."""
    spec, main_text, key = {}, [], None
    for line in open(spec_path, encoding="utf-8"):
        if key == "main":
            main_text.append(line)
        elif line.strip() and not line.startswith("#"):
            key, _, rest = line.partition(":")
            key = key.strip()
            if key.endswith("+"):
                spec.setdefault(key[:-1], []).extend(rest.split())
            else:
                spec[key] = rest.split()
    keep = [m.split("::") for m in spec.get("modules", [])]
    without = [m.split("::") for m in spec.get("without", [])]

    def under(p, ms):
        return any(p[:len(m)] == m for m in ms)

    def want(p):
        return not under(p, without) and (under(p, keep) or any(m[:len(p)] == p for m in keep))

    def partial(p):
        return not under(p, keep)

    return spec, "".join(main_text), want, partial


def spec_crates(spec_path, spec, graph):
    """The spec's `crates:` and the crates they need, dependencies first."""
    order, seen = [], set()

    def visit(c):
        if c not in graph:
            die(f"{spec_path}: {c} is not a crate the project builds with")
        if c not in seen:
            seen.add(c)
            for d in sorted(graph[c][2]):
                visit(d)
            order.append(c)

    for c in spec.get("crates", []):
        visit(c)
    return order


def single(spec_path):
    """The one source file `spec_path` describes: lines `modules: a a::b`
    (kept whole, their tests left out), `without: a::c` (left out of them),
    `crates: x y` (bundled into the facade; the crates they need come
    along) or `facade: FILE` (a module standing in for the facade and its
    crates), then `main:` and the file's last lines, its entry point."""
    spec, main_text, want, partial = read_spec(spec_path)
    lib = os.path.join(SRC, "src", "lib.rs")
    if "facade" in spec:  # a stand-in for the facade and its crates
        path = os.path.join(SRC, spec["facade"][0])
        deps = text(inline(path, os.path.splitext(path)[0], lambda p: True, []))
        body = inline(lib, os.path.dirname(lib), want, [], None, partial, {(FACADE,): deps})
        return squeeze(retokenize(body), keep_lines=True) + main_text
    graph = crate_graph()
    deps = facade_with_crates(graph, set(spec_crates(spec_path, spec, graph)), keep_lines=False)
    body = inline(lib, os.path.dirname(lib), want, [], None, partial, {(FACADE,): deps})
    code = squeeze(retokenize(body), keep_lines=True)
    return code + main_text


def split(spec_path, out):
    """The crates `spec_path` describes, each its own source file, for a
    build that compiles them one by one (the arena zip's build.rs): OUT/
    crates/NAME.rs for each of the spec's `crates:` (the crate's own code,
    paths untouched) and each `parts: NAME=a,b::c` (the project's modules
    a and b::c, with `use` items for those of the parts before it: a part
    may hold a module inside another's), the plan
    OUT/crates/PLAN (a line a crate, in build order: name, edition, file,
    `feature=F`s, `extern=C`s), and OUT/src/main.rs: the other modules and
    `main:`, with an `extern crate` for each part."""
    spec, main_text, want, partial = read_spec(spec_path)
    graph = crate_graph()
    os.makedirs(os.path.join(out, "crates"), exist_ok=True)
    os.makedirs(os.path.join(out, "src"), exist_ok=True)
    plan, sizes = [], {}

    def write(rel, code):
        with open(os.path.join(out, rel), "w", encoding="utf-8") as f:
            f.write(code)
        sizes[rel] = len(code)

    externs = spec_crates(spec_path, spec, graph)
    facade_text = facade(graph, set(externs), inside=False)
    for name in externs:
        _, feats, deps, edition = graph[name]
        write(f"crates/{name}.rs", bundle_crate(name, graph, keep_lines=False, alone=True))
        plan.append(" ".join([name, edition, f"crates/{name}.rs"] + [f"feature={f}" for f in sorted(feats)]
                             + [f"extern={d}" for d in sorted(deps)]))
    lib = os.path.join(SRC, "src", "lib.rs")
    edition = project_edition()
    home = {}  # module path -> the part that holds it

    def under(p, q):  # module path p is q or inside it
        return tuple(p[:len(q)]) == tuple(q)

    def code(keep, part_partial, header, public=()):
        # the modules of the parts before inside what this crate keeps
        # become `use` items of them
        body = inline(lib, os.path.dirname(lib), keep, [], None, part_partial,
                      {(FACADE,): facade_text}, home, public)
        return header + squeeze(retokenize(body), keep_lines=True)

    for part in spec.get("parts", []):
        name, _, mods = part.partition("=")
        tops = [tuple(m.split("::")) for m in mods.split(",")]
        # its modules, the modules around them (only what leads to them),
        # and beside them the parts' before (`use` items)
        mine = lambda p: any(under(p, t) or under(t, p) for t in tops)  # noqa: E731
        near = lambda p: mine(p) or (tuple(p) in home and mine(p[:-1]))  # noqa: E731
        inside = lambda p: partial(p) or not any(under(p, t) for t in tops)  # noqa: E731
        public = {t[:k] for t in tops for k in range(1, len(t) + 1)}
        INCLUDES["prefix"] = "crates"
        write(f"crates/{name}.rs", code(lambda p: want(p) and near(p), inside, "", public))
        plan.append(" ".join([name, edition, f"crates/{name}.rs"]
                             + [f"extern={c}" for c in externs + sorted(set(home.values()))]))
        home.update({t: name for t in tops})
    header = "".join(f"extern crate {c};\n" for c in sorted(set(home.values())))
    INCLUDES["prefix"] = "src"
    write("src/main.rs", code(want, partial, header) + main_text)
    write("crates/PLAN", "".join(line + "\n" for line in plan))
    return sizes


def project_edition():
    import tomllib
    with open(os.path.join(SRC, "Cargo.toml"), "rb") as f:
        return str(tomllib.load(f)["package"].get("edition", "2015"))


def main(argv):
    global SRC
    if len(argv) == 6 and argv[4] == "--from":
        SRC, argv = os.path.abspath(argv[5]), argv[:4]
    if len(argv) == 4 and argv[1] in ("single", "split"):
        global INCLUDES
        INCLUDES = {"base": os.path.join(SRC, "src"), "files": []}
        if argv[1] == "single":
            code = single(argv[2])
            with open(argv[3], "w", encoding="utf-8") as f:
                f.write(code)
            print(f"bundle.py: {argv[3]}: {len(code)} characters", file=sys.stderr)
        else:
            for rel, n in split(argv[2], argv[3]).items():
                print(f"bundle.py: {rel}: {n} characters", file=sys.stderr)
        for file, rel in INCLUDES["files"]:
            # the files it includes, for the caller to put beside them:
            # the path under the project's src/, the path in the output
            print(os.path.relpath(file, INCLUDES["base"]), rel)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
