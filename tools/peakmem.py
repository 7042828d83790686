#!/usr/bin/env python3
"""tools/peakmem.py: the peak memory of a command and all its descendants.

usage: tools/peakmem.py [-o FILE] [--every MS] -- COMMAND [ARGS...]

Runs COMMAND and samples /proc every MS ms (default 20): the resident set
(VmRSS) of each process of its tree. At the end it prints, to stderr (or
FILE), the largest single process's peak as the kernel counted it (the
children's maximum resident set, as `/usr/bin/time -v` reports it) and the
peak of the sum over the tree as sampled (a lower bound: a spike shorter
than a sample can be missed). Exits with COMMAND's exit code.
"""

import os
import resource
import subprocess
import sys
import threading
import time


def tree_rss(root):
    """{pid: (name, rss kB)} of root and its descendants."""
    parent, info = {}, {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/status") as f:
                st = dict(line.split(":", 1) for line in f if ":" in line)
        except OSError:
            continue
        pid = int(d)
        parent[pid] = int(st["PPid"])
        rss = int(st.get("VmRSS", "0 kB").split()[0])
        info[pid] = (st["Name"].strip(), rss)
    out = {}
    for pid in info:
        p = pid
        while p and p != root:
            p = parent.get(p, 0)
        if p == root:
            out[pid] = info[pid]
    return out


def main(argv):
    out, every = None, 0.02
    while argv and argv[0] != "--":
        if argv[0] == "-o" and len(argv) > 1:
            out, argv = argv[1], argv[2:]
        elif argv[0] == "--every" and len(argv) > 1:
            every, argv = float(argv[1]) / 1000, argv[2:]
        else:
            print(__doc__, file=sys.stderr)
            return 2
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    proc = subprocess.Popen(argv[1:])
    peak = {"sum": 0, "sum_at": "", "single": 0, "single_name": ""}
    done = threading.Event()

    def sample():
        while not done.is_set():
            procs = tree_rss(proc.pid)
            total = sum(r for _, r in procs.values())
            if total > peak["sum"]:
                names = sorted(procs.values(), key=lambda x: -x[1])[:4]
                peak["sum"] = total
                peak["sum_at"] = ", ".join(f"{n} {r // 1024} MB" for n, r in names)
            for name, rss in procs.values():
                if rss > peak["single"]:
                    peak["single"], peak["single_name"] = rss, name
            time.sleep(every)

    t = threading.Thread(target=sample, daemon=True)
    t.start()
    code = proc.wait()
    done.set()
    t.join()
    kernel = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    text = (f"peak memory: largest process {kernel / 1024:.0f} MB (kernel's maxrss; "
            f"sampled {peak['single'] / 1024:.0f} MB, {peak['single_name']}); "
            f"all processes together {peak['sum'] / 1024:.0f} MB (sampled every "
            f"{every * 1000:.0f} ms; then: {peak['sum_at']})\n")
    if out:
        with open(out, "w") as f:
            f.write(text)
    else:
        sys.stderr.write(text)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
