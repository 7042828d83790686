"""tools/teacher/shards.py: the teacher's labels on disk, and what reads them.

Python 3 standard library only. Coordinates (KataGo's policy index, SGF letters, GTP
vertices), a small SGF reader, the compact per-game shard line of label.py (its format
in data/teacher/README.md and in shard_line() below) and the resumable shard store.
Used by label.py, agree.py, to_sgf.py and the tests.
"""

import gzip
import json
import os
import re


SIZE = 19
NPOS = SIZE * SIZE
PASS = NPOS  # index of pass in KataGo's policy array
GTP_COLS = "ABCDEFGHJKLMNOPQRST"  # no I
SGF_COLS = "abcdefghijklmnopqrs"
PASS_STR = ".."  # a pass in the compact move string
FORMAT_VERSION = 1
TOP_K = 8
MIN_PERMILLE = 10  # top moves kept: probability >= 1 %
RULES_TAG = "area,positional-superko,no-suicide"


# --- coordinates --------------------------------------------------------------------
# A point is an index into KataGo's policy array: row-major from the top-left (A19),
# idx = y * 19 + x with y = 0 the top row; PASS (361) is a pass. SGF "xy" letters count
# x from the left and y from the top, so they map straight onto (x, y).

def sgf_to_idx(s):
    """SGF move value ("pd", "" or "tt" for a pass on 19x19) -> policy index."""
    if s == "" or s == "tt" or s == PASS_STR:
        return PASS
    if len(s) != 2 or s[0] not in SGF_COLS or s[1] not in SGF_COLS:
        raise ValueError("bad SGF point %r" % s)
    return SGF_COLS.index(s[1]) * SIZE + SGF_COLS.index(s[0])


def idx_to_sgf(i):
    """policy index -> two SGF letters, PASS_STR for a pass."""
    if i == PASS:
        return PASS_STR
    if not 0 <= i < NPOS:
        raise ValueError("bad index %r" % i)
    return SGF_COLS[i % SIZE] + SGF_COLS[i // SIZE]


def idx_to_gtp(i):
    """policy index -> GTP vertex ("Q16", "pass"), as the analysis engine takes moves."""
    if i == PASS:
        return "pass"
    y, x = divmod(i, SIZE)
    return GTP_COLS[x] + str(SIZE - y)


def gtp_to_idx(v):
    v = v.strip().upper()
    if v == "PASS":
        return PASS
    x = GTP_COLS.index(v[0])
    row = int(v[1:])
    if not 1 <= row <= SIZE:
        raise ValueError("bad GTP vertex %r" % v)
    return (SIZE - row) * SIZE + x


def moves_to_str(moves):
    return "".join(idx_to_sgf(i) for i in moves)


def str_to_moves(s):
    if len(s) % 2:
        raise ValueError("odd-length move string")
    return [sgf_to_idx(s[k:k + 2]) for k in range(0, len(s), 2)]


# --- SGF ----------------------------------------------------------------------------

def parse_sgf(text):
    """Main line of an SGF game -> list of nodes, each a dict prop -> list of values."""
    nodes = []
    i, n = 0, len(text)
    depth = 0          # nesting of '(' on the main line
    skip = 0           # >0 while inside a side variation
    seen_child = {}    # depth -> whether the main-line child variation was taken
    node = None
    while i < n:
        c = text[i]
        if c == "(":
            if skip:
                skip += 1
            elif depth in seen_child and seen_child[depth]:
                skip = 1   # a second variation at this level: not the main line
            else:
                seen_child[depth] = True
                depth += 1
                seen_child[depth] = False
            i += 1
        elif c == ")":
            if skip:
                skip -= 1
            else:
                depth -= 1
            i += 1
        elif c == ";":
            if not skip:
                node = {}
                nodes.append(node)
            i += 1
        elif c.isalpha():
            j = i
            while j < n and text[j].isalpha():
                j += 1
            ident = "".join(ch for ch in text[i:j] if ch.isupper())
            i = j
            vals = []
            while True:
                while i < n and text[i].isspace():
                    i += 1
                if i >= n or text[i] != "[":
                    break
                i += 1
                buf = []
                while i < n and text[i] != "]":
                    if text[i] == "\\" and i + 1 < n:
                        i += 1
                    buf.append(text[i])
                    i += 1
                i += 1
                vals.append("".join(buf))
            if not skip and node is not None:
                node.setdefault(ident, []).extend(vals)
        else:
            i += 1
    return nodes


class Game:
    def __init__(self, gid, src, moves, colors, komi, setup_b=(), setup_w=(), meta=None):
        self.gid = gid
        self.src = src
        self.moves = list(moves)      # policy indices
        self.colors = colors          # "B"/"W" per move
        self.komi = komi
        self.setup_b = list(setup_b)
        self.setup_w = list(setup_w)
        self.meta = meta or {}

    def query_moves(self, upto=None):
        ms = self.moves if upto is None else self.moves[:upto]
        return [[self.colors[k], idx_to_gtp(m)] for k, m in enumerate(ms)]

    def initial_stones(self):
        return ([["B", idx_to_gtp(i)] for i in self.setup_b] +
                [["W", idx_to_gtp(i)] for i in self.setup_w])


def game_from_sgf(path, gid, default_komi=7.5):
    with open(path, encoding="utf-8", errors="replace") as f:
        nodes = parse_sgf(f.read())
    if not nodes:
        raise ValueError("no SGF nodes")
    root = nodes[0]
    sz = root.get("SZ", ["19"])[0].split(":")[0]
    if int(sz) != SIZE:
        raise ValueError("board size %s, only 19 supported" % sz)
    komi = float(root["KM"][0]) if root.get("KM") and root["KM"][0].strip() else default_komi
    setup_b, setup_w = [], []
    moves, colors = [], []
    for k, nd in enumerate(nodes):
        if k == 0 or not moves:
            setup_b += [sgf_to_idx(v) for v in nd.get("AB", [])]
            setup_w += [sgf_to_idx(v) for v in nd.get("AW", [])]
        for col in ("B", "W"):
            if col in nd:
                moves.append(sgf_to_idx(nd[col][0].strip()))
                colors.append(col)
    meta = {}
    for key, name in (("PB", "pb"), ("PW", "pw"), ("RE", "re")):
        if root.get(key):
            meta[name] = root[key][0]
    return Game(gid, path, moves, "".join(colors), komi, setup_b, setup_w, meta)


# --- quantisation and shard lines -----------------------------------------------------

def quantise_policy(policy, top_k=TOP_K, min_permille=MIN_PERMILLE):
    """KataGo policy array (362, -1 = illegal) -> (pass per-mille, move string, per-milles)
    for the top_k board moves whose rounded per-mille is >= min_permille, best first."""
    if len(policy) != NPOS + 1:
        raise ValueError("policy has %d entries, want %d" % (len(policy), NPOS + 1))
    p_pass = max(0, int(round(policy[PASS] * 1000)))
    order = sorted((i for i in range(NPOS) if policy[i] > 0), key=lambda i: (-policy[i], i))
    mv, qs = [], []
    for i in order[:top_k]:
        q = int(round(policy[i] * 1000))
        if q < min_permille:
            break
        mv.append(idx_to_sgf(i))
        qs.append(q)
    return p_pass, "".join(mv), qs


def quantise_value(winrate, lead):
    """Black's winrate -> per-mille; Black's score lead -> tenths of a point."""
    return int(round(winrate * 1000)), int(round(lead * 10))


def position_record(policy, winrate, lead):
    p_pass, mv, qs = quantise_policy(policy)
    wq, lq = quantise_value(winrate, lead)
    return [wq, lq, p_pass, mv, qs]


def shard_line(game, positions, net, extra=None):
    """One game as a dict (one JSON line of a shard).

    id     unique game id           src   where it came from
    size   19                       komi  komi     rules  RULES_TAG
    net    teacher network          moves SGF letters, 2 per move, ".." = pass
    colors only if not alternating B, W, B, ... (first mover: "first")
    setup  {"B": "...", "W": "..."} setup stones, if any
    pos    one entry per move k (the position before moves[k]):
           [black winrate per-mille, black score lead in tenths, pass per-mille,
            top board moves as SGF letters (up to 8, each >= 10 per-mille, best first),
            their per-milles]
    """
    d = {"v": FORMAT_VERSION, "id": game.gid, "src": game.src, "size": SIZE,
         "komi": game.komi, "rules": RULES_TAG, "net": net,
         "moves": moves_to_str(game.moves)}
    first = game.colors[0] if game.colors else "B"
    alt = "".join("BW"[(k + (first == "W")) % 2] for k in range(len(game.colors)))
    d["first"] = first
    if game.colors != alt:
        d["colors"] = game.colors
    if game.setup_b or game.setup_w:
        d["setup"] = {"B": moves_to_str(game.setup_b), "W": moves_to_str(game.setup_w)}
    d.update(game.meta)
    if extra:
        d.update(extra)
    d["pos"] = positions
    return d


def shard_colors(d):
    """The colour ("B"/"W") of each move of a parsed shard line."""
    n = len(d["moves"]) // 2
    first = d.get("first", "B")
    return d.get("colors") or "".join(
        "B" if (k % 2 == 0) == (first == "B") else "W" for k in range(n))


def decode_position(rec):
    """shard position entry -> dict with floats (for consumers and tests)."""
    wq, lq, p_pass, mv, qs = rec
    return {"winrate": wq / 1000.0, "lead": lq / 10.0, "pass": p_pass / 1000.0,
            "top": [(sgf_to_idx(mv[2 * k:2 * k + 2]), q / 1000.0) for k, q in enumerate(qs)]}


# --- shards --------------------------------------------------------------------------

SHARD_RE = re.compile(r"^(?P<prefix>[A-Za-z0-9_.-]+?)-(?P<num>\d{4,})\.jsonl\.gz$")


def read_shard(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [line for line in f.read().split("\n") if line.strip()]


def write_atomic(path, lines):
    tmp = path + ".tmp"
    raw = ("\n".join(lines) + "\n").encode("utf-8")
    with open(tmp, "wb") as f:
        # mtime=0 and no file name: the same content gives the same bytes
        with gzip.GzipFile(filename="", mode="wb", fileobj=f, compresslevel=9, mtime=0) as gz:
            gz.write(raw)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


class ShardStore:
    """The shards of a folder: every game in them is done; add() writes to
    the shards of `prefix` + `tag` (a labeller's part of the work: its own
    shards, so that several can write one folder)."""

    def __init__(self, outdir, games_per_shard, tag=""):
        self.outdir = outdir
        self.games_per_shard = games_per_shard
        self.tag = tag
        os.makedirs(outdir, exist_ok=True)
        for name in os.listdir(outdir):
            m = name.endswith(".tmp") and SHARD_RE.match(name[:-len(".tmp")])
            # a part leaves the other parts' files being written alone
            if m and m.group("prefix").endswith(tag):
                os.remove(os.path.join(outdir, name))
        self.done = set()
        self.shards = {}  # prefix -> sorted list of shard numbers
        self.open_lines = {}  # prefix -> (num, lines) of the last shard of the prefix
        self.positions = 0
        for name in sorted(os.listdir(outdir)):
            m = SHARD_RE.match(name)
            if not m:
                continue
            self.shards.setdefault(m.group("prefix"), []).append(int(m.group("num")))
            for line in read_shard(os.path.join(outdir, name)):
                d = json.loads(line)
                self.done.add(d["id"])
                self.positions += len(d.get("pos", []))

    def path(self, prefix, num):
        return os.path.join(self.outdir, "%s-%04d.jsonl.gz" % (prefix, num))

    def total_bytes(self):
        return sum(os.path.getsize(self.path(p, n)) for p, ns in self.shards.items() for n in ns)

    def add(self, prefix, record):
        prefix += self.tag
        if prefix not in self.open_lines:
            nums = self.shards.get(prefix, [])
            if nums:
                num = max(nums)
                lines = read_shard(self.path(prefix, num))
            else:
                num, lines = 0, []
            self.open_lines[prefix] = (num, lines)
        num, lines = self.open_lines[prefix]
        if len(lines) >= self.games_per_shard:
            num, lines = num + 1, []
        lines = lines + [json.dumps(record, separators=(",", ":"))]
        write_atomic(self.path(prefix, num), lines)
        self.open_lines[prefix] = (num, lines)
        if num not in self.shards.setdefault(prefix, []):
            self.shards[prefix].append(num)
        self.done.add(record["id"])
        self.positions += len(record["pos"])
