#!/usr/bin/env bats
# docs/ci.md's CI step, run as written: its shell block taken from the page,
# with only what a test cannot have replaced (the runner's cache directory,
# git, and the timed run itself, whose speed a loaded machine cannot promise:
# the step is given made results instead).  The first result on a host passes
# as undecided, one as fast passes, a slower one fails the step, and each is
# kept in the history with its commit as label.
# make check: runs beside another file

load helpers

# result FILE TIME...: a result of run seq (bs 4k), one repeat per TIME
result() {
	/usr/bin/python3 - "$@" <<'PY'
import json, sys
path, times = sys.argv[1], [float(t) for t in sys.argv[2:]]
reps = [{"time_to_end_s": s, "bytes": 1048576, "reads": 256, "throughput_Bps": 1048576 / s,
         "iops": 256 / s, "lat_ns": {"p50": 1000, "p99": 2000}, "interrupted": False}
        for s in times]
doc = {"iosweep": {"version": "0.1.0", "schema": 1}, "started": "2026-01-01T00:00:00Z",
       "host": {"hostname": "ci", "machine": "x86_64", "kernel": "Linux 6.1"},
       "job_file": {"path": "jobs/demo.ini", "text": ""}, "overrides": [],
       "runs": [{"job": "seq", "index": 0,
                 "params": {"filename": "/x", "size": 1048576, "bs": 4096, "engine": "sync",
                            "repeat": len(times)},
                 "repeats": reps}]}
json.dump(doc, open(path, "w"))
PY
}

@test "docs/ci.md's step: the first result passes undecided, as fast passes, slower fails; all are kept" {
	doc=$BATS_TEST_DIRNAME/../../docs/ci.md
	# the shell block, as the page shows it
	sed -n '/^```sh$/,/^```$/p' "$doc" | sed '1d;$d' >"$TESTDIR/step.sh"
	grep -q '^iosweep run jobs/demo.ini ' "$TESTDIR/step.sh"
	grep -q '^export IOSWEEP_HISTORY=/var/lib/ci-cache/iosweep/history.db$' "$TESTDIR/step.sh"
	grep -q '^commit=$(git rev-parse --short HEAD)$' "$TESTDIR/step.sh"
	sed -i -e "s|^export IOSWEEP_HISTORY=.*|export IOSWEEP_HISTORY=$TESTDIR/cache/history.db|" \
		-e 's|^commit=.*|commit=$COMMIT|' \
		-e 's|^iosweep run jobs/demo.ini .*|cp "$RESULT" result.json|' "$TESTDIR/step.sh"
	export PATH=$(dirname "$IOSWEEP"):$PATH
	result "$TESTDIR/r1.json" 1.00 1.01 0.99 1.02 1.00
	result "$TESTDIR/r2.json" 1.01 1.00 0.99 1.00 1.02
	result "$TESTDIR/r3.json" 1.20 1.21 1.19 1.22 1.18
	cd "$TESTDIR"
	RESULT=r1.json COMMIT=c1 run sh step.sh
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "some run could not be decided (first run on this host, or too few repeats)" ]
	[[ "$output" == *"| seq | time to end | "*"| inconclusive (no history) |"* ]]
	RESULT=r2.json COMMIT=c2 run sh step.sh
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "no run got slower" ]
	RESULT=r3.json COMMIT=c3 run sh step.sh
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${lines[-1]}" = "a run got slower by more than 5%" ]
	[[ "$output" == *"| **slower** |"* ]]
	[ "$(sqlite3 cache/history.db 'SELECT group_concat(label) FROM results')" = c1,c2,c3 ]
}
