#!/usr/bin/env python3
"""many_runs.py N OUT.json [SEED]: a result file of N runs, as `iosweep run -o json`
writes them but made up (for the scale tests and make bench): one job, runs told
apart by bs, spacing and engine, three repeats each with the figures that
compare and plot read.  SEED changes the figures, not the runs, so two files
of the same N have the same runs."""

import json
import random
import sys

ENGINES = ["sync", "aio", "mmap", "uring"]


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    rnd = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    nbs = 100
    nsp = max(1, -(-n // (nbs * len(ENGINES))))
    with open(out, "w", encoding="utf-8") as f:
        f.write('{"iosweep": {"version": "0.1.0", "schema": 1}, "started": '
                '"2026-01-01T00:00:00Z", "host": {}, "ranks": 1, "job_file": '
                '{"path": "many.ini", "text": ""}, "overrides": [], "interrupted": false, '
                '"complete": true, "runs": [\n')
        for i in range(n):
            bs = 512 * (i % nbs + 1)
            spacing = (1 << 20) * ((i // nbs) % nsp + 1)
            engine = ENGINES[i // (nbs * nsp) % len(ENGINES)]
            reps = []
            for _ in range(3):
                t = 0.001 * (1 + (i % 97) / 10) * rnd.uniform(0.9, 1.1)
                reps.append({"time_to_end_s": t, "bytes": 1 << 20, "reads": 256,
                             "throughput_Bps": (1 << 20) / t, "coverage_Bps": (1 << 30) / t,
                             "iops": 256 / t,
                             "lat_ns": {"min": 500, "mean": 900.0, "p50": 800, "p90": 1200,
                                        "p99": int(2000 * rnd.uniform(0.9, 1.1)),
                                        "p99.9": 5000, "max": 9000},
                             "resident_before": 0.0, "resident_after": 0.0,
                             "interrupted": False})
            run = {"job": "many", "index": i,
                   "params": {"filename": "/var/tmp/f", "size": 1 << 30, "bs": bs,
                              "spacing": spacing, "pattern": "sequential", "engine": engine,
                              "iodepth": 1, "cache": "fadvise", "threads": 1, "repeat": 3},
                   "repeats": reps}
            f.write((",\n" if i else "") + json.dumps(run))
        f.write("\n]}\n")


if __name__ == "__main__":
    main()
