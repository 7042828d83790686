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
                              [--score N] [--value-head [--freeze-trunk | --tune-blocks K
                              [--trunk-lr LR]] [--score-weight W]]
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
a session is trained in pieces, the same as in one go. --value-head
adds a value and score head (value.py), trained on the examples' value
labels; --freeze-trunk trains it alone on a net read with --init.
Needs PyTorch (see tools/teacher/bench_train.py --help).
"""
import argparse
import gzip
import os
import sys
import time
import zlib

# the weight files' reading and writing, used through train (export.py, the tests)
from weights import load_value, load_weights, progress_of, read_net, save_weights  # noqa: F401

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


def load(path, limit, share=1.0, sources=None, values=None):
    """The examples at `path`: planes packed a bit a point (unpacked a batch
    at a time by planes()), soft targets (float16), the teacher's top move
    (-1 where it is not a sensible point), whether held out, the plane count.
    Only the `share` of the games that taken() picks are read. A list given
    as `sources` gets each position's source(), one given as `values` its
    value labels: (1 if White is to move else 0, the side to move's win
    rate 0..1, its score lead in points), NaNs where the line has none."""
    import numpy as np
    xs, ts, tops, held = [], [], [], []
    count = 0
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            hexes, top, qs, p_pass, gid, *value = line.split()
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
            if values is not None:
                values.append((float(value[0] == "w"), int(value[1]) / 1000, int(value[2]) / 10)
                              if len(value) == 3 else (np.nan,) * 3)
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
    ap.add_argument("--score", type=int, default=0, metavar="N",
                    help="score N of the held-out positions, spread evenly (all by default): "
                         "a net that takes seconds a batch scores 100 000 in an hour")
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
    ap.add_argument("--value-head", action="store_true",
                    help="train a value and score head on the trunk (value.py) beside the "
                         "policy: the one the weights read have, else a new one")
    ap.add_argument("--freeze-trunk", action="store_true",
                    help="with --value-head: train the value head alone, the trunk and the "
                         "policy head as read (the policy unchanged)")
    ap.add_argument("--tune-blocks", type=int, default=0, metavar="K",
                    help="with --value-head: train the value head, the last K residual blocks "
                         "and the policy head (its loss kept), the rest as read")
    ap.add_argument("--trunk-lr", type=float, metavar="LR",
                    help="with --tune-blocks: the learning rate of the policy layers trained "
                         "(--lr by default; the value head's is --lr)")
    ap.add_argument("--score-weight", type=float, default=1.0, metavar="W",
                    help="with --value-head: the score's Huber loss counts W times")
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
    if (a.freeze_trunk or a.tune_blocks or a.trunk_lr) and not a.value_head:
        ap.error("--freeze-trunk, --tune-blocks and --trunk-lr go with --value-head")
    if a.freeze_trunk and (a.tune_blocks or a.distil or a.records):
        ap.error("--freeze-trunk trains the value head alone: no --tune-blocks, --distil "
                 "or --records")
    if (a.freeze_trunk or a.tune_blocks) and not (a.init or a.resume):
        ap.error("--freeze-trunk and --tune-blocks keep trained layers: give --init or --resume")
    if a.tune_blocks < 0:
        ap.error("--tune-blocks counts blocks: 1 or more")
    try:
        import numpy as np
        import torch

        import kata_torch as kt
        import net
        import value
    except ImportError as e:
        return refused(f"{e} (see tools/teacher/bench_train.py --help)")
    torch.set_num_threads(a.threads)
    torch.manual_seed(0)
    t0 = time.time()
    sources, labels = [], []
    try:
        x, t, top, held, count = load(a.examples, a.limit, sources=sources, values=labels)
    except (OSError, ValueError) as e:
        return refused(e)
    xtr, ttr = x[~held], t[~held]
    xte, topte = x[held], top[held]
    sources = np.array(sources)[held]
    # (white to move, win rate, score lead) a position, NaN without labels
    labels = np.array(labels, np.float32).reshape(-1, 3)
    ltr, lte = labels[~held], labels[held]
    if 0 < a.score < len(xte):
        pick = np.linspace(0, len(xte) - 1, a.score).astype(int)
        xte, topte, lte, sources = xte[pick], topte[pick], lte[pick], sources[pick]
    if a.value_head and np.isnan(ltr[:, 1]).all():
        return refused(f"{a.examples} has no value labels: remake it with to_planes.py")
    print(f"{len(x)} positions ({int(held.sum())} held out, {len(xte)} scored) loaded in "
          f"{time.time() - t0:.0f} s", flush=True)
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
        ltr = np.concatenate([ltr, np.full((len(rx), 3), np.nan, np.float32)])
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
    if a.value_head:
        # absent from the options of a policy run: those still resume
        options["value"] = [a.freeze_trunk, a.tune_blocks, a.trunk_lr, a.score_weight]
    head = None
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
            head = load_value(a.eval or a.init or a.resume)
        except (OSError, ValueError, KeyError) as e:
            return refused(e)
    trunk = net.trunk_length(params, skip)
    if a.tune_blocks > sum(skip):
        return refused(f"--tune-blocks {a.tune_blocks}: the net has {sum(skip)} blocks")
    if head is None and a.value_head:
        head = value.init(params[trunk - 1][0].shape[3])
    if head is not None and head[0].shape[0] != params[trunk - 1][0].shape[3]:
        return refused(f"a value head that reads {head[0].shape[0]} channels, "
                       f"a trunk of {params[trunk - 1][0].shape[3]}")
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
    elif head is not None and not a.value_head:
        print("the value head read is left out: the trunk trains without it", flush=True)
        head = None
    tparams = net.to_torch(params, grad=True)
    thead = value.to_torch(head, grad=True) if head is not None else None

    def logits(v):
        return masked_logits(tparams, v, skip)

    per_epoch = len(xtr) // a.batch
    steps = a.epochs * per_epoch
    if a.steps:
        steps = min(steps, a.steps)
    if a.value_head:
        # the layers before frozen_end (all of them with --freeze-trunk) stay as read
        frozen_end = trunk if a.freeze_trunk else trunk - 2 * a.tune_blocks if a.tune_blocks else 0
        trained = [] if a.freeze_trunk else [p for layer in tparams[frozen_end:] for p in layer]
        for p in {id(p): p for layer in tparams for p in layer}.values():
            p.requires_grad_(any(p is q for q in trained))
        opt = torch.optim.Adam([{"params": thead, "lr": a.lr}]
                               + [{"params": trained, "lr": a.trunk_lr or a.lr}] * bool(trained))
        sched = net.schedule(opt, steps, a.warmup)
        step = value.train_step(value.model(tparams, skip, thead, frozen_end, trunk,
                                            not a.freeze_trunk, a.bf16,
                                            torch.compile if a.compile else None),
                                opt, sched, a.score_weight)
    else:
        opt = torch.optim.Adam([p for layer in tparams for p in layer], lr=a.lr)
        sched = net.schedule(opt, steps, a.warmup)
        step = net.train_step(torch.compile(logits) if a.compile else logits, opt, sched,
                              bf16=a.bf16)
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
    if thead is not None:
        # the policy and the value from one pass through the trunk
        both = value.model(tparams, skip, thead, trunk, trunk, True, a.bf16,
                           (lambda f: torch.compile(f, dynamic=False)) if a.compile else None)
        means = np.nanmean(ltr[:, 1:], axis=0)

    def agreement(xs=xte, tops=topte, ls=lte):
        """Top-1 and top-5 agreement, the positions scored, and with a value
        head and labels its value.Errors (else None)."""
        hits = top5 = n = 0
        errors = None
        if thead is not None and not np.isnan(ls[:, 1]).all():
            errors = value.Errors(means)
        for i in range(0, len(xs), EVAL_BATCH):
            v = planes(xs[i:i + EVAL_BATCH], count)
            if errors:
                lb = ls[i:i + EVAL_BATCH]
                with torch.no_grad():
                    lg, out = both(torch.from_numpy(v), torch.from_numpy(np.nan_to_num(lb[:, 0])))
                errors.add(out, lb[:, 1], lb[:, 2])
            if errors and a.symmetries == 1:
                p = torch.softmax(lg.float(), 1).numpy()
            else:
                p = policy(scorer, v, a.symmetries, a.bf16)
            want = tops[i:i + EVAL_BATCH]
            order = np.argsort(-p, axis=1, kind="stable")
            ok = want >= 0
            hits += int(np.sum((order[:, 0] == want) & ok))
            top5 += int(np.sum(np.any(order[:, :5] == want[:, None], axis=1) & ok))
            n += int(ok.sum())
        return hits / max(n, 1), top5 / max(n, 1), n, errors

    def save(at):
        """The weights, and for a run not at its end where it stands."""
        unfinished = at < steps
        save_weights(a.out, net.from_torch(tparams), skip,
                     {"done": at, "steps": steps, "options": options} if unfinished else None,
                     head=value.from_torch(thead) if thead is not None else None)
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
            tt = kt.turn(tt, symmetry).reshape(-1, N * N)
            # the value labels do not turn with the board
            total += step(v, tt, *torch.from_numpy(ltr[idx]).T) if a.value_head else step(v, tt)
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
        top1, top5, n, errors = agreement()
        print(f"epoch {epoch + 1}: loss {total / n_steps:.3f}, held out: "
              f"top-1 {100 * top1:.1f} %, top-5 {100 * top5:.1f} % of {n}, "
              f"{time.time() - t1:.0f} s", flush=True)
        if errors:
            print(f"epoch {epoch + 1}: held out: {errors.line()}", flush=True)
        if a.out:
            # kept after every epoch: a long run stopped midway loses one epoch at most
            save(at)
    if a.eval:
        top1, top5, n, errors = agreement()
        print(f"{a.eval}: held out: top-1 {100 * top1:.1f} %, top-5 {100 * top5:.1f} % of {n}")
        if errors:
            print(f"{a.eval}: held out: {errors.line()}")
        if a.by_source:
            # the kinds of positions differ: the bot meets its own games' more than self-play's
            for kind in sorted(set(sources)):
                mine = sources == kind
                top1, top5, n, errors = agreement(xte[mine], topte[mine], lte[mine])
                print(f"{a.eval}: held out, {kind}: top-1 {100 * top1:.1f} %, "
                      f"top-5 {100 * top5:.1f} % of {n}")
                if errors:
                    print(f"{a.eval}: held out, {kind}: {errors.line()}")
        if a.fit:
            # N positions of the training games: a gap means the net learns the games
            pick = np.random.default_rng(a.seed).permutation(len(xtr))[:a.fit]
            top1, top5, n, errors = agreement(xtr[pick], top[~held][pick], ltr[pick])
            print(f"{a.eval}: training games: top-1 {100 * top1:.1f} %, "
                  f"top-5 {100 * top5:.1f} % of {n}")
            if errors:
                print(f"{a.eval}: training games: {errors.line()}")
    if a.out:
        if not a.epochs:
            # --eval with --out: the weights as read (a .net file into an .npz)
            save(at)
        print(f"weights written to {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
