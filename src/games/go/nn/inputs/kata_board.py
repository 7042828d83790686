"""kata_board.py: a small Go board, KataGo's ladders and pass-alive area.

Used by kata_game.py (the game history and the input features). Python 3 standard
library only. The definitions follow KataGo (https://github.com/lightvector/KataGo, MIT
licence, v1.17.2): cpp/neuralnet/nninputs.cpp (iterLadders) and cpp/game/board.cpp
(ladder search, Benson's pass-alive area). This is an independent re-implementation for
the rules tengen uses: area scoring, positional superko, suicide illegal, no button, tax
none, 19x19.

Points: a padded array of 21x21 (one ring of walls), loc = (y+1)*21 + (x+1). A policy
index is y*19 + x (row-major from the top-left, KataGo's order), 361 = pass.
"""

import random

SIZE = 19
W = SIZE + 2
NPOS = SIZE * SIZE
PASS = NPOS
EMPTY, BLACK, WHITE, WALL = 0, 1, 2, 3
ADJ = (-W, -1, 1, W)  # same order as KataGo's adj_offsets (up, left, right, down)
LOCS = [(y + 1) * W + x + 1 for y in range(SIZE) for x in range(SIZE)]  # policy idx -> loc
IDX = {loc: i for i, loc in enumerate(LOCS)}
LADDER_BUDGET = 25000  # KataGo's MAX_LADDER_SEARCH_NODE_BUDGET

_rng = random.Random(20240817)
ZOBRIST = [[0, _rng.getrandbits(64), _rng.getrandbits(64), 0] for _ in range(W * W)]


def idx_to_loc(i):
    return None if i == PASS else LOCS[i]


class Board:
    """Stones, the simple-ko point and a Zobrist hash of the stones. Chains are found by
    flood fill when needed (no incremental chain bookkeeping: simple, fast enough)."""

    __slots__ = ("c", "ko", "h")

    def __init__(self, other=None):
        if other is None:
            self.c = [WALL] * (W * W)
            for loc in LOCS:
                self.c[loc] = EMPTY
            self.ko = None
            self.h = 0
        else:
            self.c = other.c[:]
            self.ko = other.ko
            self.h = other.h

    def copy(self):
        return Board(self)

    def chain(self, loc):
        """Stones (list) and liberties (set) of the chain at loc."""
        c = self.c
        col = c[loc]
        stones = [loc]
        seen = {loc}
        libs = set()
        i = 0
        while i < len(stones):
            s = stones[i]
            i += 1
            for d in ADJ:
                a = s + d
                ca = c[a]
                if ca == col:
                    if a not in seen:
                        seen.add(a)
                        stones.append(a)
                elif ca == EMPTY:
                    libs.add(a)
        return stones, libs

    def libs(self, loc):
        return len(self.chain(loc)[1])

    def is_suicide(self, loc, pla):
        """Board::isIllegalSuicide with multi-stone suicide illegal (= isSuicide)."""
        c = self.c
        opp = 3 - pla
        for d in ADJ:
            a = loc + d
            ca = c[a]
            if ca == EMPTY:
                return False
            if ca == pla:
                if self.libs(a) > 1:
                    return False
            elif ca == opp:
                if self.libs(a) == 1:
                    return False
        return True

    def is_legal(self, loc, pla):
        """Board::isLegal (simple ko, suicide illegal); loc None = pass."""
        if loc is None:
            return True
        return self.c[loc] == EMPTY and loc != self.ko and not self.is_suicide(loc, pla)

    def play(self, loc, pla):
        """Plays a legal move (loc None = pass). Returns an undo record."""
        rec = (self.ko, self.h, loc, [])
        if loc is None:
            self.ko = None
            return rec
        c = self.c
        opp = 3 - pla
        c[loc] = pla
        self.h ^= ZOBRIST[loc][pla]
        captured = rec[3]
        for d in ADJ:
            a = loc + d
            if c[a] == opp:
                stones, libs = self.chain(a)
                if not libs:
                    for s in stones:
                        c[s] = EMPTY
                        self.h ^= ZOBRIST[s][opp]
                    captured.extend(stones)
        self.ko = None
        if len(captured) == 1:
            # a ko: one stone captured by a lone stone that now has one liberty
            stones, libs = self.chain(loc)
            if len(stones) == 1 and len(libs) == 1:
                self.ko = captured[0]
        elif not captured and not any(c[loc + d] == EMPTY for d in ADJ):
            if not self.chain(loc)[1]:
                raise ValueError("suicide at %d" % IDX[loc])
        return rec

    def undo(self, rec):
        ko, h, loc, captured = rec
        self.ko, self.h = ko, h
        if loc is None:
            return
        c = self.c
        opp = 3 - c[loc]
        c[loc] = EMPTY
        for s in captured:
            c[s] = opp

    def hash_after(self, loc, pla):
        """Zobrist hash of the stones after pla plays at loc (captures included)."""
        c = self.c
        h = self.h ^ ZOBRIST[loc][pla]
        opp = 3 - pla
        done = set()
        for d in ADJ:
            a = loc + d
            if c[a] == opp and a not in done:
                stones, libs = self.chain(a)
                done.update(stones)
                if libs == {loc}:
                    for s in stones:
                        h ^= ZOBRIST[s][opp]
        return h

    # --- helpers of the ladder search (board.cpp) -------------------------------------

    def bound_libs_after(self, loc, pla):
        """getBoundNumLibertiesAfterPlay: (lower, upper) bound of the new stone's libs."""
        c = self.c
        opp = 3 - pla
        imm = caps = cap_stones = conn = max_conn = 0
        for d in ADJ:
            a = loc + d
            ca = c[a]
            if ca == EMPTY:
                imm += 1
            elif ca == opp:
                stones, libs = self.chain(a)
                if len(libs) == 1:
                    caps += 1
                    cap_stones += len(stones)
            elif ca == pla:
                k = self.libs(a) - 1
                conn += k
                max_conn = max(max_conn, k)
        return caps + max(max_conn, imm), imm + cap_stones + conn

    def libs_after(self, loc, pla, cap):
        """getNumLibertiesAfterPlay: liberties of a stone played at loc, at most cap."""
        b = self.copy()
        b.c[loc] = pla
        opp = 3 - pla
        for d in ADJ:
            a = loc + d
            if b.c[a] == opp:
                stones, libs = b.chain(a)
                if not libs:
                    for s in stones:
                        b.c[s] = EMPTY
        return min(cap, len(b.chain(loc)[1]))

    def would_be_ko_capture(self, loc, pla):
        c = self.c
        if c[loc] != EMPTY:
            return False
        opp = 3 - pla
        capt = None
        for d in ADJ:
            a = loc + d
            if c[a] != WALL and c[a] != opp:
                return False
            if c[a] == opp:
                stones, libs = self.chain(a)
                if len(libs) == 1:
                    if capt is not None:
                        return False
                    capt = stones
        return capt is not None and len(capt) == 1

    def capture_moves(self, stones):
        """Liberties of the opposing chains in atari next to the chain (its
        liberty-gaining captures), in search order, without duplicates."""
        c = self.c
        opp = 3 - c[stones[0]]
        out, seen = [], set()
        for s in stones:
            for d in ADJ:
                a = s + d
                if c[a] == opp and a not in seen:
                    st, libs = self.chain(a)
                    seen.update(st)
                    if len(libs) == 1:
                        for lib in libs:
                            if lib not in out:
                                out.append(lib)
        return out


# --- ladders (board.cpp searchIsLadderCaptured / ...AttackerFirst2Libs) ----------------

class _Budget(Exception):
    pass


def _ladder_node(b, loc, pla, is_def, depth, count):
    """One node of the ladder search: True if the chain at loc (colour pla) is captured."""
    if count[0] >= LADDER_BUDGET:
        raise _Budget()
    if depth >= NPOS * 3 // 2:  # KataGo's stack limit: counts as captured
        return True
    stones, libset = b.chain(loc)
    nlibs = len(libset)
    opp = 3 - pla
    if not is_def:
        if nlibs <= 1:
            return True
        if nlibs >= 3:
            return False
        moves = sorted(libset)
        m0, m1 = moves
        c = b.c
        l0 = sum(1 for d in ADJ if c[m0 + d] == EMPTY)
        l1 = sum(1 for d in ADJ if c[m1 + d] == EMPTY)
        if (l0 == 0 and l1 == 0 and b.would_be_ko_capture(m0, opp)
                and b.would_be_ko_capture(m1, opp)
                and b.libs_after(m0, pla, 3) <= 2 and b.libs_after(m1, pla, 3) <= 2
                and not _has_capture(b, stones)):
            return True  # double ko: assume the attacker wins
        if m1 - m0 not in (1, W):  # not adjacent
            if l0 >= 3 and l1 >= 3:
                return False
            if l0 >= 3:
                moves = [m0]
            elif l1 >= 3:
                moves = [m1]
        if len(moves) > 1:
            h0 = l0 * 2 + _conn_libs_x2(b, m0, pla)
            h1 = l1 * 2 + _conn_libs_x2(b, m1, pla)
            if h1 > h0:
                moves = [m1, m0]
        mover = opp
    else:
        if nlibs >= 2:
            return False
        if b.ko is not None:
            return False  # the attacker left a ko: do not count ladders that need kos
        moves = b.capture_moves(stones)
        for lib in libset:
            if lib not in moves:
                moves.append(lib)
        lo, hi = b.bound_libs_after(moves[-1], pla)
        if lo >= 3:
            return False
        if len(moves) == 1 and hi <= 1:
            return True
        mover = pla
    for m in moves:
        if not b.is_legal(m, mover):
            continue
        rec = b.play(m, mover)
        count[0] += 1
        try:
            r = _ladder_node(b, loc, pla, not is_def, depth + 1, count)
        finally:
            b.undo(rec)
        if is_def and not r:
            return False
        if not is_def and r:
            return True
    return is_def


def _has_capture(b, stones):
    c = b.c
    opp = 3 - c[stones[0]]
    return any(c[s + d] == opp and b.libs(s + d) == 1 for s in stones for d in ADJ)


def _conn_libs_x2(b, loc, pla):
    n = 0
    for d in ADJ:
        a = loc + d
        if b.c[a] == pla:
            k = b.libs(a)
            if k > 1:
                n += 2 * k - 3
    return n


def ladder_captured(b, loc, defender_first=True):
    """searchIsLadderCaptured: can the chain at loc be captured in a ladder?"""
    nlibs = b.libs(loc)
    if nlibs > 2 or (defender_first and nlibs > 1):
        return False
    saved = b.ko
    if defender_first:
        b.ko = None  # all kos work for the defender at the root
    try:
        return _ladder_node(b, loc, b.c[loc], defender_first, 0, [0])
    except _Budget:
        return False
    finally:
        b.ko = saved


def ladder_2libs(b, loc):
    """searchIsLadderCapturedAttackerFirst2Libs -> (laddered, working attacker moves)."""
    pla = b.c[loc]
    opp = 3 - pla
    libs = sorted(b.chain(loc)[1])
    working = []
    for m in libs:
        if b.is_legal(m, opp):
            rec = b.play(m, opp)
            try:
                if ladder_captured(b, loc, True):
                    working.append(m)
            finally:
                b.undo(rec)
    return bool(working), working


def ladders(board):
    """iterLadders: (set of laddered stone locs, {chain head: working moves} for the
    2-liberty chains). Chains of 1 or 2 liberties only, as KataGo."""
    b = board.copy()
    laddered, working = set(), {}
    seen = set()
    for loc in LOCS:
        if b.c[loc] in (BLACK, WHITE) and loc not in seen:
            stones, libs = b.chain(loc)
            seen.update(stones)
            if len(libs) == 1:
                if ladder_captured(b, loc, True):
                    laddered.update(stones)
            elif len(libs) == 2:
                ok, wm = ladder_2libs(b, loc)
                if ok:
                    laddered.update(stones)
                    working[loc] = wm
    return laddered, working


# --- pass-alive area (board.cpp calculateAreaForPla, Benson's algorithm) ----------------

def _area_for(b, pla, result):
    """Marks pla's pass-alive chains and territory in result (suicide illegal,
    safeBigTerritories and unsafeBigTerritories on, as calculateArea in the features)."""
    c = b.c
    opp = 3 - pla
    region_of = {}
    regions = []  # [points, vital chain ids, internal count (max 2), contains opp]
    chain_of = {}
    chains = []
    for loc in LOCS:
        if c[loc] == pla and loc not in chain_of:
            stones, _ = b.chain(loc)
            for s in stones:
                chain_of[s] = len(chains)
            chains.append(stones)
    for loc in LOCS:
        if c[loc] != EMPTY or loc in region_of:
            continue
        ri = len(regions)
        vital = []
        for d in ADJ:
            a = loc + d
            if c[a] == pla and chain_of[a] not in vital:
                vital.append(chain_of[a])
        pts = [loc]
        region_of[loc] = ri
        internal = 0
        has_opp = False
        i = 0
        while i < len(pts):
            p = pts[i]
            i += 1
            adj_chains = [chain_of[p + d] for d in ADJ if c[p + d] == pla]
            if vital and c[p] == EMPTY:  # only empty points filter (suicide illegal)
                vital = [v for v in vital if v in adj_chains]
            if internal < 2 and not adj_chains:
                internal += 1
            if c[p] == opp:
                has_opp = True
            for d in ADJ:
                a = p + d
                if (c[a] == EMPTY or c[a] == opp) and a not in region_of:
                    region_of[a] = ri
                    pts.append(a)
        regions.append([pts, vital, internal, has_opp])
    vital_count = [0] * len(chains)
    for r in regions:
        for v in r[1]:
            vital_count[v] += 1
    killed = [False] * len(chains)
    borders_dead = [False] * len(regions)
    while True:
        any_killed = False
        for ci, stones in enumerate(chains):
            if killed[ci] or vital_count[ci] >= 2:
                continue
            killed[ci] = True
            any_killed = True
            for s in stones:
                for d in ADJ:
                    a = s + d
                    ri = region_of.get(a)
                    if ri is not None and not borders_dead[ri]:
                        borders_dead[ri] = True
                        for v in regions[ri][1]:
                            vital_count[v] -= 1
        if not any_killed:
            break
    for ci, stones in enumerate(chains):
        if not killed[ci]:
            for s in stones:
                result[s] = pla
    some_pla = bool(chains)
    for ri, (pts, vital, internal, has_opp) in enumerate(regions):
        if some_pla and not borders_dead[ri] and (internal <= 1 or not has_opp):
            for p in pts:
                result[p] = pla
        elif some_pla and not has_opp:
            for p in pts:
                if p not in result:
                    result[p] = pla


def area(board):
    """Board::calculateArea(nonPassAliveStones, safeBig, unsafeBig, suicide illegal):
    dict loc -> BLACK/WHITE for the points counted to a player."""
    result = {}
    _area_for(board, BLACK, result)
    _area_for(board, WHITE, result)
    c = board.c
    for loc in LOCS:
        if loc not in result and c[loc] != EMPTY:
            result[loc] = c[loc]
    return result
