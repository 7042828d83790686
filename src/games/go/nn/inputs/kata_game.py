"""kata_game.py: a game from the empty board and KataGo's V7 input features.

What cpp/game/boardhistory.cpp keeps (positional superko bans, passes, recent boards) and
fillRowV7 of cpp/neuralnet/nninputs.cpp (KataGo v1.17.2, MIT licence), re-implemented on
the board, ladders and pass-alive area of kata_board.py. Used by gen_fixture.py.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kata_board import (  # noqa: E402
    BLACK, EMPTY, IDX, LOCS, NPOS, PASS, SIZE, WHITE, Board, area, idx_to_loc, ladders,
)

NUM_SPATIAL, NUM_GLOBAL = 22, 19  # the V7 input planes and global inputs


class Game:
    """A game from the empty board: moves alternate B, W, ... (policy indices, 361 =
    pass). Keeps what KataGo's BoardHistory needs for the features and legality."""

    def __init__(self, moves=(), komi=7.5):
        self.board = Board()
        self.komi = komi
        self.moves = []
        self.hashes = {0}              # positional superko: all stone hashes so far
        self.ever = set()              # wasEverOccupiedOrPlayed
        self.boards = [self.board.copy()]  # recent boards (last 3)
        self.passes = 0                # consecutive passes
        self.valid_turns = 0           # numApproxValidTurnsThisPhase
        self._ban = None
        for m in moves:
            self.play(m)

    @property
    def to_move(self):
        return BLACK if len(self.moves) % 2 == 0 else WHITE

    def play(self, m):
        pla = self.to_move
        loc = idx_to_loc(m)
        if self.passes >= 2:  # a move after the game ended: keep one turn of history
            self.valid_turns = min(self.valid_turns, 1)
        if loc is not None and not self.board.is_legal(loc, pla):  # superko not checked
            raise ValueError("illegal move %d (%d) at turn %d" % (m, pla, len(self.moves)))
        self.board.play(loc, pla)
        self.passes = self.passes + 1 if loc is None else 0
        if loc is not None:
            self.ever.add(loc)
        self.hashes.add(self.board.h)
        self.moves.append(m)
        self.valid_turns += 1
        self.boards = (self.boards + [self.board.copy()])[-3:]
        self._ban = None

    def superko_banned(self):
        """Points where the player to move may not play by positional superko (KataGo's
        superKoBanned: only previously used, non-suicide, non-simple-ko points)."""
        if self._ban is not None:
            return self._ban
        b, pla = self.board, self.to_move
        ban = set()
        for loc in self.ever:
            if b.c[loc] != EMPTY or loc == b.ko or b.is_suicide(loc, pla):
                continue
            if b.hash_after(loc, pla) in self.hashes:
                ban.add(loc)
        self._ban = ban
        return ban

    def is_legal(self, loc, pla=None):
        pla = self.to_move if pla is None else pla
        if loc is None:
            return True
        b = self.board
        if b.c[loc] != EMPTY or loc == b.ko or b.is_suicide(loc, pla):
            return False
        return loc not in self.superko_banned()

    def legal_mask(self):
        """bool array of 362: legal moves of the player to move (pass always legal)."""
        out = np.zeros(NPOS + 1, dtype=bool)
        b, pla = self.board, self.to_move
        ban = self.superko_banned()
        c = b.c
        for i, loc in enumerate(LOCS):
            if c[loc] == EMPTY and loc != b.ko and loc not in ban and not b.is_suicide(loc, pla):
                out[i] = True
        out[PASS] = True
        return out

    def features(self, max_history=0, passing_hacks=True):
        """KataGo's fillRowV7 -> (spatial float32 [22, 19, 19], global float32 [19]).

        max_history=0 is what the analysis engine feeds the net at the root of a query
        (ignorePreRootHistory defaults to true there): no last-move planes, and the
        previous-board ladder planes use the current board. max_history=5 is the full
        history as in self-play. passing_hacks as the analysis engine (on)."""
        b, pla = self.board, self.to_move
        opp = 3 - pla
        c = b.c
        sp = np.zeros((NUM_SPATIAL, NPOS), dtype=np.float32)
        gl = np.zeros(NUM_GLOBAL, dtype=np.float32)
        sp[0] = 1.0
        seen = {}
        for i, loc in enumerate(LOCS):
            col = c[loc]
            if col == EMPTY:
                continue
            sp[1 if col == pla else 2, i] = 1.0
            n = seen.get(loc)
            if n is None:
                stones, libs = b.chain(loc)
                n = len(libs)
                for s in stones:
                    seen[s] = n
            if 1 <= n <= 3:
                sp[2 + n, i] = 1.0
        if b.ko is not None:
            sp[6, IDX[b.ko]] = 1.0
        for loc in self.superko_banned():
            sp[6, IDX[loc]] = 1.0
        # 18, 19: area (pass-alive groups and territory, other stones as they are)
        ar = area(b)
        score = 0
        for loc, col in ar.items():
            if col == pla:
                sp[18, IDX[loc]] = 1.0
                score += 1
            elif col == opp:
                sp[19, IDX[loc]] = 1.0
                score -= 1
        self_komi = self.komi if pla == WHITE else -self.komi
        self_komi = max(-NPOS - 40.0, min(NPOS + 40.0, self_komi))  # KOMI_CLIP_RADIUS 20+20
        pass_ends = self.passes >= 1  # area scoring, no button: a second pass ends it
        suppress = pass_ends and passing_hacks and score + self_komi <= 0
        turns = 0 if suppress else (1 if self.passes >= 2 else 5)
        turns = min(turns, max_history, self.valid_turns)
        # 9-13 and global 0-4: the last moves, alternating colours back from opp
        n_hist = 0
        for k in range(turns):
            mv = self.moves[-1 - k]
            n_hist = k + 1
            if mv == PASS:
                gl[k] = 1.0
            else:
                sp[9 + k, mv] = 1.0
        # 14-17: ladders on the current board and the boards 1 and 2 moves ago
        lad, working = ladders(b)
        for loc in lad:
            sp[14, IDX[loc]] = 1.0
        for head, wm in working.items():
            if c[head] == opp:
                for m in wm:
                    sp[17, IDX[m]] = 1.0
        prev = self.boards[-2] if n_hist >= 1 else b
        lad1 = lad if prev is b else ladders(prev)[0]
        for loc in lad1:
            sp[15, IDX[loc]] = 1.0
        prev2 = self.boards[-3] if n_hist >= 2 else prev
        lad2 = lad1 if prev2 is prev else ladders(prev2)[0]
        for loc in lad2:
            sp[16, IDX[loc]] = 1.0
        gl[5] = self_komi / 20.0
        gl[6], gl[7] = 1.0, 0.5  # positional superko
        gl[14] = 1.0 if pass_ends and not suppress else 0.0
        # 18: komi parity wave (area scoring, odd board area: drawable komis are odd)
        floor = np.floor((self_komi - 1.0) / 2.0) * 2.0 + 1.0
        delta = min(2.0, max(0.0, self_komi - floor))
        gl[18] = delta if delta < 0.5 else (1.0 - delta if delta < 1.5 else delta - 2.0)
        return sp.reshape(NUM_SPATIAL, SIZE, SIZE), gl
