"""tools/teacher/kata_validate.py: kata_torch.py against KataGo's own analysis engine.

Runs both on the same positions of real games (data/match-games), KataGo with
nnRandomize off (the identity symmetry, as kata_torch's default), and prints the
top-1 agreement, the policy, value and lead differences, and the speeds of each on
one thread, in float32 and in bf16:

    ~/.cache/tengen-train/bin/python tools/teacher/kata_validate.py --validate 240
"""

import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kata_torch import _bf16_copy, features, kg, load_model, postprocess  # noqa: E402


def sample_positions(n, seed=1, pattern="data/match-games/*.sgf"):
    """n (game id, move list, turn) positions from real games: 19x19, komi 7.5, no setup
    stones, colours alternating from Black. Eight random turns per game."""
    import glob, random, shards  # noqa: E401
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    paths = sorted(glob.glob(os.path.join(root, pattern)))
    rng = random.Random(seed)
    rng.shuffle(paths)
    out = []
    for path in paths:
        g = shards.game_from_sgf(path, path)
        alt = "".join("BW"[k % 2] for k in range(len(g.moves)))
        if g.komi != 7.5 or g.setup_b or g.setup_w or g.colors != alt or len(g.moves) < 10:
            continue
        for t in sorted(rng.sample(range(len(g.moves)), min(8, len(g.moves)))):
            out.append((path, g.moves, t))
        if len(out) >= n:
            break
    return out[:n]


def katago_labels(samples, cpu):
    """KataGo's own answers (symmetry 0: nnRandomize = false), one query per game."""
    import json, subprocess, tempfile, time, shards  # noqa: E401
    with open(os.path.expanduser("~/.cache/tengen-teacher/teacher.json")) as f:
        teacher = json.load(f)
    cfg = tempfile.NamedTemporaryFile("w", suffix=".cfg", dir="/tmp", delete=False)
    with open(teacher["config"]) as f:
        cfg.write("".join(line for line in f if not line.startswith("logFile")))
    cfg.write("logFile = /tmp/kata_torch_validate.log\nnnRandomize = false\n")
    cfg.close()
    env = dict(os.environ, LD_PRELOAD=teacher.get("preload", ""))
    cmd = ["taskset", "-c", str(cpu), teacher["katago"], "analysis", "-config", cfg.name,
           "-model", teacher["model"]]
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, env=env, text=True)
    by_game = {}
    for k, (gid, moves, t) in enumerate(samples):
        by_game.setdefault(gid, (moves, []))[1].append((t, k))
    res = [None] * len(samples)
    warm = {"id": "warm", "moves": [], "rules": teacher["rules"], "komi": 7.5, "boardXSize": 19,
            "boardYSize": 19, "maxVisits": 1}
    p.stdin.write(json.dumps(warm) + "\n")
    p.stdin.flush()
    json.loads(p.stdout.readline())  # start-up and first evaluation not timed
    t0 = time.time()
    for gid, (moves, turns) in by_game.items():
        q = dict(warm, id=gid, includePolicy=True, analyzeTurns=[t for t, _ in turns],
                 moves=[["BW"[i % 2], shards.idx_to_gtp(m)] for i, m in enumerate(moves)])
        p.stdin.write(json.dumps(q) + "\n")
        p.stdin.flush()
        for _ in turns:
            r = json.loads(p.stdout.readline())
            if "error" in r:
                raise RuntimeError("katago: %s" % r)
            k = dict(turns)[r["turnNumber"]]
            ri = r["rootInfo"]
            res[k] = (np.array(r["policy"], dtype=np.float64), ri["rawWinrate"], ri["winrate"], ri["rawLead"])
    dt = time.time() - t0
    p.stdin.close()
    p.wait()
    os.unlink(cfg.name)
    return res, len(samples) / dt


def validate(n, cpu, model_path, history):
    import time
    os.sched_setaffinity(0, {cpu})
    torch.set_num_threads(1)
    torch.set_flush_denormal(True)
    samples = sample_positions(n)
    n = len(samples)
    print("%d positions from %d games; KataGo on cpu %d..." % (n, len({s[0] for s in samples}), cpu))
    kata, kata_speed = katago_labels(samples, cpu)
    net = load_model(model_path)
    games = [kg.Game(moves[:t]) for _, moves, t in samples]
    t0 = time.time()
    feats = [features([g], history) for g in games]
    t_feat = (time.time() - t0) / n
    kp = np.stack([k[0] for k in kata])
    kv = np.array([k[1] for k in kata])
    kw = np.array([k[2] for k in kata])
    print("KataGo (Eigen, 1 thread, its own features + net): %.2f positions/s; its rootInfo "
          "winrate - rawWinrate: mean |diff| %.2e, max %.2e" % (kata_speed, np.abs(kw - kv).mean(), np.abs(kw - kv).max()))
    print("features (Python): %.1f ms/position" % (1000 * t_feat))
    for bf16 in (False, True):
        model = _bf16_copy(net) if bf16 else net
        outs, speeds = [], {}
        for bs in (1, 8):
            with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
                model(*[torch.cat([f[j] for f in feats[:bs]]) for j in (0, 1)])  # warm-up
                t0 = time.time()
                for i in range(0, n, bs):
                    chunk = feats[i:i + bs]
                    pol, val, misc = model(torch.cat([f[0] for f in chunk]), torch.cat([f[1] for f in chunk]))
                    if bs == 1:
                        outs.append(postprocess(net, pol, val, misc, chunk[0][2], chunk[0][3]))
                speeds[bs] = n / (time.time() - t0)
        pp = np.concatenate([o[0] for o in outs])
        pv = np.concatenate([o[1] for o in outs])
        plead = np.concatenate([o[2] for o in outs])
        legal_mismatch = int(((pp < 0) != (kp < 0)).any(1).sum())
        top1 = float((pp.argmax(1) == kp.argmax(1)).mean())
        d = np.abs(pp - kp)
        worst = int(d.max(1).argmax())
        print("%s: top-1 agreement %.2f %%, policy |diff| mean %.2e max %.2e (worst: %s turn %d), "
              "legality mismatches %d, value (rawWinrate) |diff| mean %.2e max %.2e, vs winrate %.2e, lead |diff| mean %.3f; "
              "net only %.2f pos/s (batch 1), %.2f pos/s (batch 8)" % (
                  "bf16" if bf16 else "fp32", 100 * top1, d.mean(), d.max(), samples[worst][0],
                  samples[worst][2], legal_mismatch, np.abs(pv - kv).mean(), np.abs(pv - kv).max(), np.abs(pv - kw).mean(),
                  np.abs(plead - np.array([k[3] for k in kata])).mean(), speeds[1], speeds[8]))
        print("      with features: %.2f pos/s (batch 1), %.2f pos/s (batch 8)" % (
            1 / (1 / speeds[1] + t_feat), 1 / (1 / speeds[8] + t_feat)))


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--validate", type=int, metavar="N", help="compare with KataGo on N positions")
    ap.add_argument("--cpu", type=int, default=1, help="core for KataGo and us (taskset)")
    ap.add_argument("--model", default="~/.cache/tengen-teacher/model.bin.gz")
    ap.add_argument("--history", type=int, default=0,
                    help="turns of move history in the features (analysis engine root: 0)")
    a = ap.parse_args(argv)
    if not a.validate:
        ap.error("nothing to do (try --validate 200)")
    validate(a.validate, a.cpu, a.model, a.history)


if __name__ == "__main__":
    main(sys.argv[1:])
