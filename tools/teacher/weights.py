"""The weight files of tools/teacher/train.py: the .npz it saves (the
policy's layers, their flags, a value head, an unfinished run's progress)
and the bot's own weight file (net.from_bytes), read the same way."""
import json


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


def load_value(path):
    """The value head kept at `path` (value.py's arrays), or None: from a
    .npz train.py saved, or the value section of a weight file of the bot's."""
    import numpy as np

    import net
    import value
    with open(path, "rb") as f:
        blob = f.read()
    if blob[:6] == b"TGPOLN":
        section = net.value_section(blob)
        return value.from_section(section)[0] if section else None
    with np.load(path) as arrays:
        return value.from_arrays(arrays)


def save_weights(path, params, skip, progress=None, half=False, head=None):
    """Writes what load_weights() reads, and the value head `head` if any
    (load_value() reads it); `progress` (a dict: the steps done, the
    steps of the run, its options) for a run saved before its end, which
    --resume reads. `half`: the weights in float16, compressed (how
    data/nets keeps a wide net)."""
    import numpy as np

    import value

    def kept(p):
        return np.asarray(p).astype(np.float16) if half else np.asarray(p)
    extra = {f"pooled{k}": kept(layer[2]) for k, layer in enumerate(params) if len(layer) > 2}
    if head is not None:
        extra.update({k: kept(p) for k, p in value.arrays(head).items()})
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
