"""Rust source as tokens, for tools/bundle.py: enough of Rust's lexer to
strip comments, find `mod` items and attributes, rewrite paths and squeeze
whitespace without ever touching the inside of a literal; and cfg
predicates settled on those tokens."""

import re

WORD = ("ident", "num", "life")
# characters that glue into one token when adjacent (`- >`, `/ /`, `: :`)
GLUE = set("+-*/%^!&|=<>.:#$?@~")


class Tok:
    __slots__ = ("kind", "text")

    def __init__(self, kind, text):
        self.kind, self.text = kind, text

    def __repr__(self):
        return f"{self.kind}:{self.text!r}"


_ident = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_num = re.compile(r"[0-9][0-9A-Za-z_]*(?:\.[0-9][0-9A-Za-z_]*)?")
_ws = re.compile(r"\s+")


def _string_end(src, i):
    """Index after the closing quote of a (non-raw) string opening at i."""
    j = i + 1
    while True:
        c = src[j]
        if c == "\\":
            j += 2
        elif c == '"':
            return j + 1
        else:
            j += 1


def tokenize(src):
    out, i, n = [], 0, len(src)
    while i < n:
        c = src[i]
        m = _ws.match(src, i)
        if m:
            out.append(Tok("ws", m.group()))
            i = m.end()
            continue
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(Tok("comment", src[i:j]))
            i = j
            continue
        if src.startswith("/*", i):
            depth, j = 1, i + 2
            while depth:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(Tok("comment", src[i:j]))
            i = j
            continue
        m = re.compile(r'(?:b|c)?r(#*)"').match(src, i)
        if m:
            end = src.index('"' + m.group(1), m.end()) + 1 + len(m.group(1))
            out.append(Tok("str", src[i:end]))
            i = end
            continue
        if c == '"' or (c in "bc" and src.startswith('"', i + 1)):
            j = _string_end(src, i if c == '"' else i + 1)
            out.append(Tok("str", src[i:j]))
            i = j
            continue
        if c == "'" or (c == "b" and src.startswith("'", i + 1)):
            k = i if c == "'" else i + 1
            if src[k + 1] == "\\":
                j = src.index("'", k + 3) + 1
                out.append(Tok("char", src[i:j]))
                i = j
                continue
            if k + 2 < n and src[k + 2] == "'":
                out.append(Tok("char", src[i:k + 3]))
                i = k + 3
                continue
            if c == "'":
                m = _ident.match(src, i + 1)
                out.append(Tok("life", "'" + m.group()))
                i = m.end()
                continue
        if src.startswith("r#", i) and _ident.match(src, i + 2):
            m = _ident.match(src, i + 2)
            out.append(Tok("ident", "r#" + m.group()))
            i = m.end()
            continue
        m = _ident.match(src, i)
        if m:
            out.append(Tok("ident", m.group()))
            i = m.end()
            continue
        m = _num.match(src, i)
        if m:
            out.append(Tok("num", m.group()))
            i = m.end()
            continue
        out.append(Tok("punct", c))
        i += 1
    return out


def text(toks):
    return "".join(t.text for t in toks)


def sig(toks, i, step=1):
    """Index of the next significant (not ws/comment) token from i on."""
    while 0 <= i < len(toks) and toks[i].kind in ("ws", "comment"):
        i += step
    return i


def close(toks, i):
    """Index of the bracket closing the one opening at toks[i]."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    opener, closer, depth = toks[i].text, pairs[toks[i].text], 0
    for j in range(i, len(toks)):
        if toks[j].kind == "punct":
            if toks[j].text == opener:
                depth += 1
            elif toks[j].text == closer:
                depth -= 1
                if depth == 0:
                    return j
    raise ValueError("unbalanced brackets")


def squeeze(toks, keep_lines):
    """Drops comments and shrinks whitespace to what keeps the tokens
    apart: one space, or a newline when `keep_lines` and the gap had one."""
    sig_toks = []
    gaps = []  # None: adjacent; False: a gap on one line; True: a line break
    gap = None
    for t in toks:
        if t.kind in ("ws", "comment"):
            nl = "\n" in t.text or t.text.startswith("//")
            gap = bool(gap) or nl
            continue
        sig_toks.append(t)
        gaps.append(gap)
        gap = None
    out = []
    prev = None
    for t, gap in zip(sig_toks, gaps):
        if prev is not None and gap is not None:
            if keep_lines and gap:
                out.append("\n")
            elif needs_space(prev, t):
                out.append(" ")
        out.append(t.text)
        prev = t
    return "".join(out) + "\n"


def needs_space(a, b):
    if a.kind in WORD and b.kind in WORD:
        return True
    if a.kind in WORD + ("str", "char") and (b.kind in WORD + ("str", "char") or b.text == "#"):
        return True
    if a.kind == "num" and b.text == ".":
        return True
    if a.kind == "punct" and b.kind == "punct" and a.text in GLUE and b.text in GLUE:
        return True
    return False


# ------------------------------------------------------------------ cfg
def settle_features(toks, features):
    """`feature = "x"` inside attributes and cfg!() becomes all() or any()."""
    out, i, depth = [], 0, 0
    inside = []  # closing indices of the attribute / cfg! spans we are in
    while i < len(toks):
        t = toks[i]
        if t.text == "#" and t.kind == "punct":
            j = sig(toks, i + 1)
            if j < len(toks) and toks[j].text == "!":
                j = sig(toks, j + 1)
            if j < len(toks) and toks[j].text == "[":
                inside.append(close(toks, j))
        elif t.kind == "ident" and t.text == "cfg":
            j = sig(toks, i + 1)
            if j < len(toks) and toks[j].text == "!":
                k = sig(toks, j + 1)
                if toks[k].text == "(":
                    inside.append(close(toks, k))
        while inside and inside[-1] < i:
            inside.pop()
        if inside and t.kind == "ident" and t.text == "feature":
            j = sig(toks, i + 1)
            k = sig(toks, j + 1)
            if toks[j].text == "=" and toks[k].kind == "str":
                name = toks[k].text.strip('"')
                out.append(Tok("ident", "all" if name in features else "any"))
                out.append(Tok("punct", "("))
                out.append(Tok("punct", ")"))
                i = k + 1
                continue
        out.append(t)
        i += 1
    del depth
    return out


def cfg_value(toks):
    """True/False/None (unknown) of a cfg predicate's tokens."""
    toks = [t for t in toks if t.kind not in ("ws", "comment")]

    def pred(i):
        name = toks[i].text
        if i + 1 < len(toks) and toks[i + 1].text == "(":
            args, j = [], i + 2
            while toks[j].text != ")":
                v, j = pred(j)
                args.append(v)
                if toks[j].text == ",":
                    j += 1
            j += 1
            if name == "all":
                v = False if False in args else (True if all(a is True for a in args) else None)
            elif name == "any":
                v = True if True in args else (False if all(a is False for a in args) else None)
            elif name == "not":
                v = None if args[0] is None else not args[0]
            else:
                v = None
            return v, j
        if i + 1 < len(toks) and toks[i + 1].text == "=":
            return None, i + 3
        return (False if name in ("test", "doc", "docsrs", "doctest", "miri") else None), i + 1

    return pred(0)[0]
