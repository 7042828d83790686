#!/usr/bin/env python3
"""Trains a small convolutional policy network on the teacher's labels and
reports its agreement with the teacher on held-out games.

usage: tools/teacher/train.py [--channels 32] [--layers 6 | --blocks B] [--pooled] [--epochs 3]
                              [--batch 256] [--lr 1e-3] [--limit N] [--init WEIGHTS.npz]
                              [--widen C] [--threads T] [--bf16] [--compile]
                              [--distil NPZ [--distil-weight W]]
                              [--records RECORDS.txt.gz [--records-share S]]
                              [--out WEIGHTS.npz [--save-minutes M] [--stop-at STEP]]
                              [--resume WEIGHTS.npz]
                              [--eval WEIGHTS.npz [--fit N] [--by-source] [--symmetries K]]
                              EXAMPLES.txt.gz

EXAMPLES comes from tools/teacher/to_planes.py. Every tenth game (by id)
is held out. The target is the teacher's policy over the board: its top
moves' per-milles, the rest of the mass spread over the other sensible
points (pass left out); illegal points are masked. --init starts from
saved weights: pretrained on game records (to_planes.py --records), then
trained on the teacher's labels. Each batch is turned
by one of the 8 symmetries of the board. --widen makes the --init net
wider before training on (net.widen). --distil mixes another net's
policy (a bigger, better one) into the training targets, W of the mass:
where the teacher gives the rest of its mass evenly to every other
sensible point, that net tells them apart. --records adds the positions
of game records (the move played as the label) to the training ones, a
regulariser for nets too big for the teacher's labels alone.
--stop-at ends a run at a step of its learning-rate cycle, saving where
it stands (the weights, the step, the optimiser's state in OUT.opt);
--resume goes on from there, or from the last --save-minutes save of a
run that was stopped, with the run's own options: a cycle longer than
a session is trained in pieces, the same as in one go. Needs PyTorch
(see tools/teacher/bench_train.py --help).
"""
import argparse
import gzip
import json
import os
import sys
import time
import zlib

N = 19
SENSIBLE = 11  # the plane of the moves the bot may play (src/games/go/planes.rs)


def plane_count(hexes):
    """The planes in one packed line: whole planes of N * N bits."""
    return len(hexes) * 4 // (N * N)


def held_out(gid):
    """Whether a game is held out of training: every tenth, by id."""
    return zlib.crc32(gid.encode()) % 10 == 0


def sgf_index(s):
    return (ord(s[1]) - 97) * N + (ord(s[0]) - 97)


def taken(gid, share):
    """Whether a game is among the `share` of the games taken, by id (a hash
    apart from held_out()'s, so that the two choices do not line up)."""
    return share >= 1 or zlib.crc32(gid.encode(), 7) % 1000 < share * 1000


def source(gid):
    """The kind of game a position comes from: "selfplay" (the teacher's own
    games), else the folder of its SGF record (ids "sgf/FOLDER/NAME")."""
    parts = gid.split("/")
    return parts[1] if parts[0] == "sgf" and len(parts) > 2 else "selfplay"


def load(path, limit, share=1.0, sources=None):
    """The examples at `path`: planes packed a bit a point (unpacked a batch
    at a time by planes()), soft targets (float16), the teacher's top move
    (-1 where it is not a sensible point), whether held out, the plane count.
    Only the `share` of the games that taken() picks are read. A list given
    as `sources` gets each position's source()."""
    import numpy as np
    xs, ts, tops, held = [], [], [], []
    count = 0
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            hexes, top, qs, p_pass, gid = line.split()
            if not taken(gid, share):
                continue
            count = plane_count(hexes)
            packed = np.frombuffer(bytes.fromhex(hexes), np.uint8)
            sensible = np.unpackbits(packed, bitorder="little")[
                SENSIBLE * N * N:(SENSIBLE + 1) * N * N].astype(bool)
            target = np.zeros(N * N, np.float32)
            listed = [] if top == "-" else [sgf_index(top[k:k + 2]) for k in range(0, len(top), 2)]
            mass = [] if qs == "-" else [int(q) for q in qs.split(",")]
            for i, q in zip(listed, mass):
                target[i] = q
            rest = 1000 - int(p_pass) - sum(mass)
            others = sensible.copy()
            others[listed] = False
            if rest > 0 and others.any():
                target[others] += rest / others.sum()
            # the teacher may like a point the bot never plays (an own eye)
            target *= sensible
            if target.sum() <= 0:
                continue
            xs.append(packed)
            ts.append((target / target.sum()).astype(np.float16))
            tops.append(listed[0] if listed and sensible[listed[0]] else -1)
            held.append(held_out(gid))
            if sources is not None:
                sources.append(source(gid))
            if limit and len(xs) >= limit:
                break
    if not xs:
        raise ValueError(f"{path}: no position to train on or score")
    return np.stack(xs), np.stack(ts), np.array(tops), np.array(held), count


def planes(packed, count):
    """Packed rows -> the NCHW float batch the net takes."""
    import numpy as np
    bits = np.unpackbits(packed, axis=1, bitorder="little")[:, :count * N * N]
    return bits.reshape(-1, count, N, N).astype(np.float32)


def load_weights(path):
    """The layers train.py saved at `path` (numpy (weights HWIO, biases),
    or with the pooled bias's matrix as a third member: net.py), and each
    layer's residual flag (none in files from before the flags). `path`
    may also be a weight file of the bot's (src/games/go/net/policy.net)."""
    import numpy as np

    import net
    with open(path, "rb") as f:
        if f.read(6) == b"TGPOLN":
            f.seek(0)
            return net.from_bytes(f.read())
    arrays = np.load(path)
    count = sum(1 for f in arrays.files if f.startswith("arr_"))
    if count % 2:
        raise ValueError(f"{path}: an odd number of arrays, not weights and biases")
    # float32 whatever was kept: data/nets holds wide nets in float16 (export.py --half)
    flat = [arrays[f"arr_{k}"].astype(np.float32) for k in range(count)]
    params = [pair + ((arrays[f"pooled{k}"].astype(np.float32),)
                      if f"pooled{k}" in arrays.files else ())
              for k, pair in enumerate(zip(flat[0::2], flat[1::2]))]
    skip = tuple(bool(v) for v in arrays["skips"]) if "skips" in arrays.files \
        else (False,) * len(params)
    return params, skip


def save_weights(path, params, skip, progress=None, half=False):
    """Writes what load_weights() reads; `progress` (a dict: the steps
    done, the steps of the run, its options) for a run saved before its
    end, which --resume reads. `half`: the weights in float16, compressed
    (how data/nets keeps a wide net)."""
    import numpy as np

    def kept(p):
        return np.asarray(p).astype(np.float16) if half else np.asarray(p)
    extra = {f"pooled{k}": kept(layer[2]) for k, layer in enumerate(params) if len(layer) > 2}
    if progress is not None:
        extra["progress"] = np.array(json.dumps(progress, sort_keys=True))
    (np.savez_compressed if half else np.savez)(
        path, *[kept(p) for layer in params for p in layer[:2]],
        skips=np.array(skip, dtype=np.int32), **extra)


def progress_of(path):
    """The progress that save_weights() kept in `path`, or None."""
    import numpy as np
    with np.load(path) as arrays:
        return json.loads(str(arrays["progress"])) if "progress" in arrays.files else None


def read_net(path, count):
    """load_weights(), with a ValueError unless the net takes `count` planes."""
    params, skip = load_weights(path)
    if params[0][0].shape[2] != count:
        raise ValueError(f"{path} takes {params[0][0].shape[2]} planes, "
                         f"the examples have {count}")
    return params, skip


# positions a forward pass takes at once: on one core, 1 024 positions of a
# 64 x 12 net took 11.1 s in batches of 512, 6.7 s in batches of 64 (the cache)
EVAL_BATCH = 64


def masked_logits(tparams, v, skip):
    """net.logits() with every point but the sensible ones masked out: only
    they may be chosen."""
    import net
    mask = v[:, SENSIBLE].reshape(v.shape[0], -1) > 0
    return net.logits(tparams, v, skip).masked_fill(~mask, -1e9)


def distil(x, t, count, params, skip, weight, batch=EVAL_BATCH):
    """The soft targets `t` of the packed positions `x`, each mixed with the
    policy of the net (`params`, `skip`) over its sensible points:
    (1 - weight) * t + weight * softmax(logits). float16, as load() gives."""
    import numpy as np

    import net
    tparams = net.to_torch(params)
    out = np.empty_like(t)
    for i in range(0, len(x), batch):
        p = policy(lambda v: masked_logits(tparams, v, skip), planes(x[i:i + batch], count))
        mixed = (1 - weight) * t[i:i + batch].astype(np.float32) + weight * p
        out[i:i + batch] = (mixed / mixed.sum(1, keepdims=True)).astype(np.float16)
    return out


def policy(logits, v, symmetries=1, bf16=False):
    """The policy (N, 361) of the net `logits` (a batch of planes -> masked
    logits) on the batch `v`, averaged over the first `symmetries` of the 8
    symmetries (kata_torch.turn()'s, as training turns its batches): what
    evaluating each position that many times would give. With `bf16` the
    net runs under bfloat16 autocast, the softmax in float32."""
    import torch

    import kata_torch as kt
    x = torch.from_numpy(v)
    total = 0.0
    with torch.no_grad():
        for s in range(symmetries):
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
                lg = logits(kt.turn(x, s).contiguous())
            p = torch.softmax(lg.float(), 1).reshape(-1, N, N)
            total = total + kt.unturn(p, s).reshape(-1, N * N)
    return (total / symmetries).numpy()


def refused(why):
    """Reports why the run stops, on stderr, and gives its exit code."""
    print(f"train.py: {why}", file=sys.stderr)
    return 2


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("examples")
    ap.add_argument("--channels", type=int, default=32)
    ap.add_argument("--layers", type=int, default=6)
    ap.add_argument("--blocks", type=int, default=0,
                    help="a first layer then B residual blocks of two layers, instead of --layers")
    ap.add_argument("--pooled", action="store_true",
                    help="global pooling: a pooled bias in each block and in the head (net.py)")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--steps", type=int, default=0, metavar="N",
                    help="end the cycle after N steps in all, within an epoch if need be "
                         "(the learning rate runs down over them): a run sized to the hours at hand")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--warmup", type=int, default=0, metavar="STEPS",
                    help="raise the learning rate linearly over the first STEPS steps "
                         "(Adam's first steps can wreck a trained or widened net)")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1,
                    help="of the order and turns of the examples (another one when resuming a run)")
    ap.add_argument("--threads", type=int, default=1,
                    help="CPU threads for torch (1: the labeller usually has the other core)")
    ap.add_argument("--bf16", action="store_true",
                    help="train and score with the forward pass in bfloat16 (several times "
                         "faster on CPUs with AMX); weights and loss stay float32")
    ap.add_argument("--compile", action="store_true",
                    help="run the forward pass (training and scoring) through torch.compile: "
                         "about twice as fast on one core (bench_train.py), after a minute of "
                         "compiling; not an option of the run, so a --resume may add or drop it")
    ap.add_argument("--out")
    ap.add_argument("--save-minutes", type=float, default=0,
                    help="also save the weights every this many minutes within an epoch")
    ap.add_argument("--stop-at", type=int, default=0, metavar="STEP",
                    help="stop the run after this step of its cycle (counted across epochs), "
                         "saved for --resume")
    ap.add_argument("--resume", metavar="NPZ",
                    help="go on with the run saved in NPZ (and NPZ.opt); give the run's own "
                         "options and examples")
    ap.add_argument("--eval", metavar="NPZ",
                    help="report the agreement of these weights on the held-out games, no training")
    ap.add_argument("--fit", type=int, default=0, metavar="N",
                    help="with --eval: also score N positions of the training games")
    ap.add_argument("--symmetries", type=int, default=1, choices=range(1, 9), metavar="K",
                    help="score the policy averaged over the first K of the 8 symmetries")
    ap.add_argument("--by-source", action="store_true",
                    help="with --eval: also the held-out agreement by the kind of game "
                         "(the teacher's self-play, or the folder of the SGF records)")
    ap.add_argument("--init", metavar="NPZ",
                    help="start from these weights (e.g. pretrained on game records)")
    ap.add_argument("--widen", type=int, metavar="C",
                    help="with --init: first widen its hidden layers to C channels, "
                         "the same logits (net.widen)")
    ap.add_argument("--deepen", type=int, metavar="B",
                    help="with --init: first give the net B residual blocks (new ones "
                         "start as the identity: net.deepen)")
    ap.add_argument("--records", metavar="EXAMPLES",
                    help="game records' examples (to_planes.py --records) added to the "
                         "training positions (all their games unless --records-share)")
    ap.add_argument("--records-share", type=float, default=1.0, metavar="S",
                    help="the share of the records' games added (chosen by id)")
    ap.add_argument("--distil", metavar="NPZ",
                    help="mix these weights' policy into the training targets (distil)")
    ap.add_argument("--distil-weight", type=float, default=0.5, metavar="W",
                    help="with --distil: the share of the mass that net's policy gets")
    a = ap.parse_args(argv)
    if (a.widen or a.deepen) and not a.init:
        ap.error("--widen and --deepen need --init")
    if a.resume and (a.init or a.eval):
        ap.error("--resume starts from its own weights: no --init or --eval")
    if a.steps < 0:
        ap.error("--steps counts steps: 0 (a whole number of epochs) or more")
    if a.stop_at and not a.out:
        ap.error("--stop-at needs --out")
    if not 0 <= a.distil_weight <= 1:
        ap.error("--distil-weight is a share, from 0 to 1")
    if (a.fit or a.by_source) and not a.eval:
        ap.error("--fit and --by-source need --eval")
    if a.distil and a.eval:
        ap.error("--distil trains; --eval does not")
    if a.records and a.eval:
        ap.error("--records trains; --eval does not")
    if not 0 <= a.records_share <= 1:
        ap.error("--records-share is a share, from 0 to 1")
    try:
        import numpy as np
        import torch

        import kata_torch as kt
        import net
    except ImportError as e:
        return refused(f"{e} (see tools/teacher/bench_train.py --help)")
    torch.set_num_threads(a.threads)
    torch.manual_seed(0)
    t0 = time.time()
    sources = []
    try:
        x, t, top, held, count = load(a.examples, a.limit, sources=sources)
    except (OSError, ValueError) as e:
        return refused(e)
    xtr, ttr = x[~held], t[~held]
    xte, topte = x[held], top[held]
    sources = np.array(sources)[held]
    print(f"{len(x)} positions ({len(xte)} held out) loaded in {time.time() - t0:.0f} s")
    if a.records:
        # more positions against the big nets' overfit: the move played is the label
        t0 = time.time()
        try:
            rx, rt, _, _, rcount = load(a.records, 0, a.records_share)
        except (OSError, ValueError) as e:
            return refused(e)
        if rcount != count:
            return refused(f"{a.records} has {rcount} planes, {a.examples} {count}")
        xtr, ttr = np.concatenate([xtr, rx]), np.concatenate([ttr, rt])
        print(f"{len(rx)} record positions added: {len(xtr)} training positions "
              f"({time.time() - t0:.0f} s)", flush=True)

    params = net.init(count, a.channels, a.layers, first=5, blocks=a.blocks, pooled=a.pooled)
    skip = net.skips(params, a.blocks)
    done = 0
    # what makes a run: a resumed one must have the same
    options = {"batch": a.batch, "epochs": a.epochs, "lr": a.lr, "seed": a.seed,
               "warmup": a.warmup, "examples": len(xtr), "bf16": a.bf16,
               "steps": a.steps or None,
               "distil": a.distil and [a.distil, a.distil_weight],
               "records": a.records and [a.records, a.records_share]}
    if a.eval or a.init or a.resume:
        try:
            params, skip = read_net(a.eval or a.init or a.resume, count)
            if a.resume:
                kept = progress_of(a.resume)
                if not kept:
                    raise ValueError(f"{a.resume} holds no unfinished run")
                differ = [f"{k} {kept['options'].get(k)} there, {v} here"
                          for k, v in options.items() if kept["options"].get(k) != v]
                if differ:
                    raise ValueError(f"{a.resume} is another run: " + "; ".join(differ))
                done = kept["done"]
                if 0 < a.stop_at <= done:
                    raise ValueError(f"{a.resume} is already at step {done}: "
                                     f"--stop-at {a.stop_at} would never stop it")
            if a.widen:
                params = net.widen(params, a.widen, noise=0.01)
            if a.deepen:
                params, skip = net.deepen(params, skip, a.deepen)
        except (OSError, ValueError) as e:
            return refused(e)
    # after --init is read: a bad file fails before the long pass through the big net
    if a.distil:
        t0 = time.time()
        try:
            big, big_skip = read_net(a.distil, count)
        except (OSError, ValueError) as e:
            return refused(e)
        ttr = distil(xtr, ttr, count, big, big_skip, a.distil_weight)
        print(f"{a.distil}'s policy mixed into the targets ({a.distil_weight:g} of the mass) "
              f"in {time.time() - t0:.0f} s", flush=True)
    if a.eval:
        a.epochs = 0
    tparams = net.to_torch(params, grad=True)

    def logits(v):
        return masked_logits(tparams, v, skip)

    per_epoch = len(xtr) // a.batch
    steps = a.epochs * per_epoch
    if a.steps:
        steps = min(steps, a.steps)
    opt = torch.optim.Adam([p for layer in tparams for p in layer], lr=a.lr)
    sched = net.schedule(opt, steps, a.warmup)
    step = net.train_step(torch.compile(logits) if a.compile else logits, opt, sched, bf16=a.bf16)
    if a.resume:
        import warnings
        with warnings.catch_warnings():
            # the schedule is wound on to the step the run reached, from the first
            # rate: a cosine steps on from the rate it finds (the saved one, once loaded)
            warnings.simplefilter("ignore")
            for _ in range(done):
                sched.step()
        try:
            opt.load_state_dict(torch.load(a.resume + ".opt"))
        except (OSError, RuntimeError, ValueError) as e:
            return refused(f"{a.resume}.opt: {e}")
        print(f"{a.resume}: going on from step {done} of {steps}", flush=True)

    # scored as trained: bf16 and compiled give the float32 agreement within 0.1 (network.md)
    scorer = torch.compile(logits, dynamic=False) if a.compile else logits

    def agreement(xs=xte, tops=topte):
        hits = top5 = n = 0
        for i in range(0, len(xs), EVAL_BATCH):
            p = policy(scorer, planes(xs[i:i + EVAL_BATCH], count), a.symmetries, a.bf16)
            want = tops[i:i + EVAL_BATCH]
            order = np.argsort(-p, axis=1, kind="stable")
            ok = want >= 0
            hits += int(np.sum((order[:, 0] == want) & ok))
            top5 += int(np.sum(np.any(order[:, :5] == want[:, None], axis=1) & ok))
            n += int(ok.sum())
        return hits / max(n, 1), top5 / max(n, 1), n

    def save(at):
        """The weights, and for a run not at its end where it stands."""
        unfinished = at < steps
        save_weights(a.out, net.from_torch(tparams), skip,
                     {"done": at, "steps": steps, "options": options} if unfinished else None)
        if unfinished:
            torch.save(opt.state_dict(), a.out + ".opt")
        elif os.path.exists(a.out + ".opt"):
            os.remove(a.out + ".opt")

    rng = np.random.default_rng(a.seed)
    saved = time.time()
    at = 0  # steps of the cycle behind us, this run's and those it resumes
    for epoch in range(a.epochs):
        t1 = time.time()
        order = rng.permutation(len(xtr))
        total, n_steps = 0.0, 0
        for k in range(per_epoch):
            if at == steps:
                break  # a --steps cycle ends within an epoch
            # drawn for the steps a resumed run skips too: the same order as in one go
            symmetry = int(rng.integers(8))
            at += 1
            if at <= done:
                continue
            idx = order[k * a.batch:(k + 1) * a.batch]
            # contiguous: a compiled step would compile again for each turn's strides
            v = kt.turn(torch.from_numpy(planes(xtr[idx], count)), symmetry).contiguous()
            tt = torch.from_numpy(ttr[idx].astype(np.float32)).reshape(-1, N, N)
            total += step(v, kt.turn(tt, symmetry).reshape(-1, N * N))
            n_steps += 1
            if at == a.stop_at:
                save(at)
                print(f"epoch {epoch + 1}: stopped at step {at} of {steps}, loss "
                      f"{total / n_steps:.3f}; go on with --resume {a.out}", flush=True)
                return 0
            if a.out and a.save_minutes and time.time() - saved > 60 * a.save_minutes:
                save(at)
                saved = time.time()
                print(f"epoch {epoch + 1}: step {k + 1} of {per_epoch}, loss "
                      f"{total / n_steps:.3f}, weights saved", flush=True)
        if not n_steps:
            continue
        top1, top5, n = agreement()
        print(f"epoch {epoch + 1}: loss {total / n_steps:.3f}, held out: "
              f"top-1 {100 * top1:.1f} %, top-5 {100 * top5:.1f} % of {n}, "
              f"{time.time() - t1:.0f} s", flush=True)
        if a.out:
            # kept after every epoch: a long run stopped midway loses one epoch at most
            save(at)
    if a.eval:
        top1, top5, n = agreement()
        print(f"{a.eval}: held out: top-1 {100 * top1:.1f} %, top-5 {100 * top5:.1f} % of {n}")
        if a.by_source:
            # the kinds of positions differ: the bot meets its own games' more than self-play's
            for kind in sorted(set(sources)):
                mine = sources == kind
                top1, top5, n = agreement(xte[mine], topte[mine])
                print(f"{a.eval}: held out, {kind}: top-1 {100 * top1:.1f} %, "
                      f"top-5 {100 * top5:.1f} % of {n}")
        if a.fit:
            # N positions of the training games: a gap means the net learns the games
            pick = np.random.default_rng(a.seed).permutation(len(xtr))[:a.fit]
            top1, top5, n = agreement(xtr[pick], top[~held][pick])
            print(f"{a.eval}: training games: top-1 {100 * top1:.1f} %, "
                  f"top-5 {100 * top5:.1f} % of {n}")
    if a.out:
        if not a.epochs:
            # --eval with --out: the weights as read (a .net file into an .npz)
            save(at)
        print(f"weights written to {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
