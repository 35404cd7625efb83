#!/usr/bin/env bats
# history add at scale: a result file's runs stream through (read once to be
# checked and to learn their labels, once more to be stored), so that the
# memory of an add holds one run, not the file; the rows are those a small
# file gives; and a file that is bad anywhere, however far in, leaves the
# database as it was.
# make check: runs beside another file

load helpers

# cycle OUT N: a result of N runs, the same 12 runs over and over (jobs a
# and b; bs, engine and spacing vary; spacing follows bs in job b), each
# with three repeats of the figures run -o json writes
cycle() {
	/usr/bin/python3 - "$@" <<'PY'
import json, sys
out, n = sys.argv[1], int(sys.argv[2])
def run(i):
    c = i % 12
    job = "a" if c < 8 else "b"
    bs = 4096 << (c % 2 if job == "a" else c % 4 % 2)
    engine = ["sync", "libaio"][c // 2 % 2] if job == "a" else "sync"
    spacing = (1 << 20) * (c // 4 % 2 + 1) if job == "a" else bs * 256
    reps = [{"time_to_end_s": 0.01 * (c + 1) + 0.001 * j, "bytes": 1 << 20, "reads": 256,
             "throughput_Bps": (1 << 20) / (0.01 * (c + 1) + 0.001 * j), "iops": 25600.0 / (c + 1),
             "lat_ns": {"min": 500, "mean": 900.0, "p50": 800, "p90": 1200, "p99": 2000 + c,
                        "p99.9": 5000, "max": 9000},
             "interrupted": c == 5 and j == 2} for j in range(3)]
    return {"job": job, "index": i,
            "params": {"filename": "/var/tmp/f", "size": 1 << 30, "bs": bs, "spacing": spacing,
                       "pattern": "sequential", "engine": engine, "iodepth": 1,
                       "cache": "fadvise", "threads": 1, "repeat": 3},
            "repeats": reps}
with open(out, "w") as f:
    f.write('{"iosweep": {"version": "0.1.0", "schema": 1}, "started": "2026-01-01T00:00:00Z",'
            ' "host": {"hostname": "h"}, "job_file": {"path": "c.ini", "text": ""},'
            ' "overrides": [], "complete": true, "runs": [\n')
    f.write(",\n".join(json.dumps(run(i)) for i in range(n)))
    f.write("\n]}\n")
PY
}

db() {
	sqlite3 "$TESTDIR/h.db" "$1"
}

@test "a 20 000-run result is added with the memory of a small one, its rows those of the small one" {
	grep -qE '__(asan|tsan)_init' "$IOSWEEP" && skip "the sanitizers' shadow memory is counted in RSS"
	export IOSWEEP_HISTORY=$TESTDIR/h.db
	cycle "$TESTDIR/small.json" 12
	cycle "$TESTDIR/big.json" 20004
	[ "$(stat -c %s "$TESTDIR/big.json")" -gt 15000000 ]
	small=$("$HELPERS/peakrss" "$IOSWEEP" history add "$TESTDIR/small.json")
	big=$("$HELPERS/peakrss" "$IOSWEEP" history add "$TESTDIR/big.json")
	echo "peak RSS: small $small KiB, big $big KiB"
	# the runs held whole took 1 KiB and more a run (25 MiB here); streamed, the
	# reading buffer and the page cache of SQLite (3 MiB)
	[ "$big" -lt $((small + 8192)) ]
	[ "$(db 'SELECT nruns || " " || ninterrupted || " " || jobs FROM results ORDER BY id')" = "12 1 a,b
20004 1667 a,b" ]
	[ "$(db 'SELECT count(*) FROM runs WHERE result = 2')" = 20004 ]
	# each run of the big file is stored as the same run of the small one
	[ "$(db 'SELECT count(*) FROM (SELECT idx % 12, job, run_key, label, params, nrepeats,
		ninterrupted, failed, figures FROM runs WHERE result = 2 EXCEPT SELECT idx, job,
		run_key, label, params, nrepeats, ninterrupted, failed, figures FROM runs
		WHERE result = 1)')" = 0 ]
	# labels name what varies within the job; the interrupted repeat is left out
	[ "$(db 'SELECT label FROM runs WHERE result = 1 AND idx IN (5, 9) ORDER BY idx')" = "a bs=8KiB spacing=2MiB engine=sync
b bs=8KiB spacing=2MiB" ]
	[ "$(db "SELECT json_extract(figures, '\$.time_to_end_s') FROM runs WHERE result = 1 AND idx = 5")" = '[0.059999999999999998,0.060999999999999999]' ]
}

@test "a result bad far into its runs is refused with one line, exit 2, the database unchanged" {
	export IOSWEEP_HISTORY=$TESTDIR/h.db
	cycle "$TESTDIR/small.json" 12
	"$IOSWEEP" history add "$TESTDIR/small.json"
	cycle "$TESTDIR/big.json" 3000
	before=$(file_state "$TESTDIR/h.db")
	check() { # FILE MESSAGE
		run "$IOSWEEP" history add "$1"
		echo "$output"
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ "$output" == *"$2"* ]]
		[ "$(file_state "$TESTDIR/h.db")" = "$before" ]
	}
	head -c 2000000 "$TESTDIR/big.json" >"$TESTDIR/cut.json"
	check "$TESTDIR/cut.json" "cut.json: not JSON (line "
	sed '2000s/"repeats": \[/"repeats": [7, /' "$TESTDIR/big.json" >"$TESTDIR/bad.json"
	check "$TESTDIR/bad.json" "bad.json: runs[1998].repeats[0]: not an object"
	echo '{"iosweep": {"version": "0.1.0", "schema": 1}, "runs": {"job": "a"}}' >"$TESTDIR/obj.json"
	check "$TESTDIR/obj.json" 'obj.json: not an iosweep result file (no "runs" array)'
	echo 'runs' >"$TESTDIR/text.json"
	check "$TESTDIR/text.json" "text.json: not JSON"
	# an 8 MB job name, then a bad number halfway through the runs: refused in one short line
	/usr/bin/python3 -c 'import sys; t = open(sys.argv[1]).read().replace("\"job\": \"b\"", "\"job\": \"" + "x" * 8000000 + "\"", 1); i = t.index("\"bs\": 4096", len(t) // 2); open(sys.argv[2], "w").write(t[:i] + "\"bs\": -1" + t[i + 10:])' "$TESTDIR/big.json" "$TESTDIR/huge.json"
	check "$TESTDIR/huge.json" "huge.json: runs["
	[ "${#output}" -lt 300 ]
	[ "$(db 'SELECT count(*) FROM results')" = 1 ]
}
