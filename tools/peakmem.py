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
    """{pid: (name, rss kB, anonymous rss kB)} of root and its descendants."""
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
        anon = int(st.get("RssAnon", "0 kB").split()[0])
        info[pid] = (st["Name"].strip(), rss, anon)
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
    peak = {"sum": 0, "sum_at": "", "single": 0, "single_name": "", "anon": 0, "anon_sum": 0}
    done = threading.Event()

    def sample():
        while not done.is_set():
            procs = tree_rss(proc.pid)
            total = sum(r for _, r, _ in procs.values())
            if total > peak["sum"]:
                names = sorted(procs.values(), key=lambda x: -x[1])[:4]
                peak["sum"] = total
                peak["sum_at"] = ", ".join(f"{n} {r // 1024} MB" for n, r, _ in names)
            peak["anon_sum"] = max(peak["anon_sum"], sum(a for _, _, a in procs.values()))
            for name, rss, anon in procs.values():
                if rss > peak["single"]:
                    peak["single"], peak["single_name"] = rss, name
                peak["anon"] = max(peak["anon"], anon)
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
            f"{every * 1000:.0f} ms; then: {peak['sum_at']}); anonymous memory alone "
            f"(no mapped files): largest {peak['anon'] / 1024:.0f} MB, together "
            f"{peak['anon_sum'] / 1024:.0f} MB\n")
    if out:
        with open(out, "w") as f:
            f.write(text)
    else:
        sys.stderr.write(text)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
