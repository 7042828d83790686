"""tools/teacher/engines.py: the teachers label.py asks. Engine drives KataGo's
analysis engine (JSON lines over a pipe); TorchEngine evaluates the same network in
PyTorch (kata_torch.py), in bfloat16 if asked. Both answer analyze(moves, komi, turns)
with {turn: (policy, black winrate, black lead)}, the policy KataGo's: 362 values,
-1 at illegal points."""

import io
import json
import os
import random
import subprocess
import sys
import time

from shards import SIZE, gtp_to_idx


def log(msg):
    sys.stderr.write(time.strftime("%Y-%m-%d %H:%M:%S ") + msg + "\n")
    sys.stderr.flush()


DEFAULT_RULES = {"hasButton": False, "ko": "POSITIONAL", "scoring": "AREA", "suicide": False,
                 "tax": "NONE", "whiteHandicapBonus": "0", "friendlyPassOk": False}


class EngineError(Exception):
    pass


LIVE_ENGINES = []  # engines to kill if the labeller is stopped


class Engine:
    """KataGo's analysis engine over stdin/stdout (JSON lines)."""

    def __init__(self, teacher, use_preload=True):
        self.teacher = teacher
        env = dict(os.environ)
        if use_preload and teacher.get("preload"):
            env["LD_PRELOAD"] = (teacher["preload"] + " " + env.get("LD_PRELOAD", "")).strip()
        logdir = os.path.join(os.path.dirname(teacher["config"]), "logs")
        os.makedirs(logdir, exist_ok=True)
        self.errf = open(os.path.join(logdir, "katago.stderr"), "ab")
        self.proc = subprocess.Popen(
            [teacher["katago"], "analysis", "-config", teacher["config"], "-model", teacher["model"]],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.errf, env=env,
            bufsize=0)
        self.out = io.TextIOWrapper(self.proc.stdout, encoding="utf-8")
        self.counter = 0
        self.rules = teacher.get("rules", DEFAULT_RULES)
        LIVE_ENGINES.append(self)

    def kill(self):
        """Stops katago now (closing stdin would let it finish the query under way)."""
        self.proc.kill()
        self.close()

    def close(self):
        if self in LIVE_ENGINES:
            LIVE_ENGINES.remove(self)
        try:
            self.proc.stdin.close()
        except Exception:
            pass
        try:
            self.proc.wait(timeout=20)
        except Exception:
            self.proc.kill()
            self.proc.wait()
        self.errf.close()

    def cpu_seconds(self):
        """CPU time katago has used so far (Linux /proc), 0 if unknown."""
        try:
            with open("/proc/%d/stat" % self.proc.pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return 0.0

    def _send(self, q):
        try:
            self.proc.stdin.write((json.dumps(q) + "\n").encode("utf-8"))
            self.proc.stdin.flush()
        except OSError as e:
            raise EngineError("cannot write to katago: %s" % e)

    def _recv(self):
        line = self.out.readline()
        if not line:
            raise EngineError("katago exited (code %s)" % self.proc.poll())
        return json.loads(line)

    def analyze(self, moves, komi, turns=None, initial_stones=None):
        """moves: [["B","Q16"], ...]. Returns {turn: (policy, black winrate, black lead)}
        for each turn in turns (default: the last position only)."""
        self.counter += 1
        qid = "q%d" % self.counter
        q = {"id": qid, "moves": moves, "rules": self.rules, "komi": komi,
             "boardXSize": SIZE, "boardYSize": SIZE, "maxVisits": 1, "includePolicy": True}
        if initial_stones:
            q["initialStones"] = initial_stones
        if turns is not None:
            q["analyzeTurns"] = list(turns)
            want = set(turns)
        else:
            want = {len(moves)}
        self._send(q)
        res = {}
        while len(res) < len(want):
            r = self._recv()
            if r.get("id") not in (qid, None):
                continue
            if "error" in r:
                raise QueryError(r.get("error", "") + " (field %s)" % r.get("field"))
            if "warning" in r:
                log("katago warning: %s" % r)
                continue
            t = r.get("turnNumber", len(moves))
            ri = r["rootInfo"]
            wr = ri.get("rawWinrate", ri["winrate"])
            lead = ri.get("rawLead", ri["scoreLead"])
            res[t] = (r["policy"], wr, lead)
        return res


class QueryError(Exception):
    """KataGo rejected a query (e.g. an illegal move in a record)."""


class TorchEngine:
    """The same network evaluated in PyTorch (kata_torch.py), with Engine's analyze():
    in float32 it gives KataGo's answer to 1e-5; with bf16 it runs faster on CPUs with
    AMX. Each forward pass takes a random one of the 8 symmetries, as KataGo does. The
    games being asked about are kept between queries (by key), so self-play replays
    nothing, and analyze_many() asks about several games in one forward pass."""

    def __init__(self, teacher, bf16, batch=8, seed=None, compile=False):
        try:
            import torch
            import kata_torch
        except ImportError as e:
            raise SystemExit("label.py: --engine torch needs PyTorch and numpy (%s): run it "
                             "with the training venv's python (tools/teacher/bench_train.py)" % e)
        torch.set_num_threads(1)
        torch.set_flush_denormal(True)  # as KataGo's preload: denormals are ~10x slow
        self.kt, self.kg = kata_torch, kata_torch.kg
        self.net = kata_torch.load_model(teacher["model"])
        self.bf16, self.batch = bf16, batch
        self.model = kata_torch.compiled(self.net, bf16) if compile else None
        self.rng = random.Random(seed)
        self.games = {}  # key -> (kata_game.Game, its moves as policy indices)

    def kill(self):
        pass

    close = kill

    def cpu_seconds(self):
        return time.process_time()

    def _game_at(self, moves, komi, key=None):
        """The game after `moves` ([["B", "Q16"], ...]), from the one kept under `key`
        if it leads there."""
        idx = []
        for k, (col, m) in enumerate(moves):
            if col != "BW"[k % 2]:
                raise QueryError("move %d is %s's: the torch engine needs colours "
                                 "alternating from Black" % (k, col))
            idx.append(gtp_to_idx(m))
        g, played = self.games.pop(key, (None, []))
        if g is None or g.komi != komi or idx[:len(played)] != played:
            g, played = self.kg.Game(komi=komi), []
        for m in idx[len(played):]:
            try:
                g.play(m)
            except ValueError as e:
                raise QueryError(str(e))
            played.append(m)
        self.games[key] = (g, played)
        return g

    def _ask(self, feats):
        """One forward pass for kata_torch.position()s: [(policy, winrate, lead)]."""
        p, w, ld = self.kt.run(self.net, *self.kt.batch(feats), self.bf16,
                               self.rng.randrange(8), self.model)
        return [([float(v) for v in p[k]], float(w[k]), float(ld[k])) for k in range(len(feats))]

    def _ask_all(self, feats):
        out = []
        for i in range(0, len(feats), self.batch):
            out += self._ask(feats[i:i + self.batch])
        return out

    def analyze(self, moves, komi, turns=None, initial_stones=None):
        """As Engine.analyze(): {turn: (policy, black winrate, black lead)}."""
        if initial_stones:
            raise QueryError("setup stones: the torch engine plays games from the empty board")
        want = sorted(set(turns)) if turns is not None else [len(moves)]
        # each turn's features before the kept game moves on to the next
        feats = [self.kt.position(self._game_at(moves[:t], komi)) for t in want]
        return dict(zip(want, self._ask_all(feats)))

    def analyze_many(self, queries, komi, keys):
        """The last position of each query (a move list), the game of each kept under its
        key (games not asked about are dropped): [(policy, black winrate, black lead)]."""
        feats = [self.kt.position(self._game_at(q, komi, key)) for q, key in zip(queries, keys)]
        for key in set(self.games) - set(keys):
            del self.games[key]
        return self._ask_all(feats)
