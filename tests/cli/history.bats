#!/usr/bin/env bats
# iosweep history: results kept once each (by the hash of their bytes), with
# their host and label; listed, shown and drawn over time; the database stays
# whole when an add is killed or several run at once, and a database that is
# not ours (corrupt, newer, a symlink) is refused with nothing changed.
# make check: runs beside another file

load helpers

setup_file() {
	export IOSWEEP_HISTORY=$BATS_FILE_TMPDIR/unused.db
}

# result FILE JOB TIME... : a result file of run JOB (bs 4k), one repeat per
# TIME ("iTIME": interrupted); HOST, KERNEL, STARTED and RUNS (runs of the
# job, bs 4k, 8k, ...) from the environment
result() {
	/usr/bin/python3 - "$@" <<'PY'
import json, os, sys
path, job, times = sys.argv[1], sys.argv[2], sys.argv[3:]
env = os.environ.get
def reps():
    out = []
    for t in times:
        s = float(t.lstrip("i"))
        out.append({"time_to_end_s": s, "bytes": 1048576, "reads": 256,
                    "throughput_Bps": 1048576 / s, "iops": 256 / s,
                    "lat_ns": {"p50": 1000, "p99": 2000}, "interrupted": t.startswith("i")})
    return out
runs = [{"job": job, "index": i,
         "params": {"filename": "/x", "size": 1048576, "bs": 4096 * (i + 1), "engine": "sync",
                    "repeat": len(times), "warmup": 0},
         "repeats": reps()} for i in range(int(env("RUNS", "1")))]
doc = {"iosweep": {"version": "0.1.0", "schema": 1},
       "started": env("STARTED", "2026-01-01T00:00:00Z"),
       "host": {"hostname": env("HOST", "ci"), "machine": "x86_64",
                "kernel": env("KERNEL", "Linux 6.1"), "cpu_model": "cpu",
                "filesystem": {"type": "ext4"}, "device": {"model": "disk"}},
       "job_file": {"path": "hand.ini", "text": ""}, "overrides": [], "runs": runs}
json.dump(doc, open(path, "w"))
PY
}

# db SQL: the answer of the database $TESTDIR/h.db to SQL
db() {
	sqlite3 "$TESTDIR/h.db" "$1"
}

@test "a result added twice, or a copy of it, is one entry; add says which" {
	export IOSWEEP_HISTORY=$TESTDIR/h.db
	result "$TESTDIR/a.json" seq 1 1.1 1.2
	cp "$TESTDIR/a.json" "$TESTDIR/copy.json"
	run "$IOSWEEP" history add "$TESTDIR/a.json" --label v1
	[ "$status" -eq 0 ]
	[ "$output" = "added $TESTDIR/a.json as 1" ]
	run "$IOSWEEP" history add "$TESTDIR/a.json" "$TESTDIR/copy.json"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$TESTDIR/a.json is already in the history as 1" ]
	[ "${lines[1]}" = "$TESTDIR/copy.json is already in the history as 1" ]
	[ "$(db 'SELECT count(*) FROM results')" = 1 ]
	[ "$(db 'SELECT count(*) FROM runs')" = 1 ]
	# the key is a hash of the bytes: one more byte is another result
	db 'SELECT hash FROM results' | grep -qxE '[0-9a-f]{16}'
	echo >>"$TESTDIR/copy.json"
	run "$IOSWEEP" history add "$TESTDIR/copy.json"
	[ "$output" = "added $TESTDIR/copy.json as 2" ]
	[ "$(db 'SELECT label FROM results WHERE id = 1')" = v1 ]
}

@test "list filters by job, host, label and date; show gives a result and its runs" {
	export IOSWEEP_HISTORY=$TESTDIR/h.db
	STARTED=2026-01-01T10:00:00Z HOST=alpha result "$TESTDIR/1.json" seq 1 1 1
	STARTED=2026-01-02T10:00:00Z HOST=beta RUNS=2 result "$TESTDIR/2.json" rand 2 2 i9 2
	STARTED=2026-01-03T10:00:00Z HOST=alpha result "$TESTDIR/3.json" seq 3 3 3
	"$IOSWEEP" history add "$TESTDIR/1.json" "$TESTDIR/2.json" --label old
	"$IOSWEEP" history add "$TESTDIR/3.json" --label new
	ids() { "$IOSWEEP" history list "$@" | awk 'NR > 1 {printf "%s ", $1}'; }
	[ "$(ids)" = "1 2 3 " ]
	[ "$(ids --job seq)" = "1 3 " ]
	[ "$(ids --host beta)" = "2 " ]
	[ "$(ids --label old)" = "1 2 " ]
	[ "$(ids --since 2026-01-02)" = "2 3 " ]
	[ "$(ids --until 2026-01-02)" = "1 2 " ]
	[ "$(ids --since 2026-01-02T12:00:00 --host alpha)" = "3 " ]
	"$IOSWEEP" history list | grep -E '^2 .* beta +old +rand +2 \(interrupted\)$'
	hash=$(db 'SELECT hash FROM results WHERE id = 2')
	run "$IOSWEEP" history show "${hash:0:6}"
	[ "$status" -eq 0 ]
	echo "$output" | grep -qx 'id:           2'
	echo "$output" | grep -qx 'hostname      beta'
	echo "$output" | grep -qx 'complete:     yes'
	# the interrupted repeat is kept and marked, its value left out (n=3)
	echo "$output" | grep -qE '^0 +rand bs=4KiB +3 +2\.00 s ± 0% +1 of 4 repeats interrupted$'
	echo "$output" | grep -qE '^1 +rand bs=8KiB +3 +2\.00 s ± 0% +1 of 4 repeats interrupted$'
	run "$IOSWEEP" history show 99
	[ "$status" -eq 2 ]
	[[ "$output" == *"no result '99' in the history"* ]]
	run "$IOSWEEP" history list --since yesterday
	[ "$status" -eq 2 ]
	[[ "$output" == *"--since 'yesterday': expected a date"* ]]
	run "$IOSWEEP" history add "$TESTDIR/1.json" --host alpha
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: history add does not take --host" ]
}

@test "trend: a row per result and run, per host, in date order, and an SVG chart" {
	export IOSWEEP_HISTORY=$TESTDIR/h.db
	for d in 3 1 2; do
		STARTED=2026-01-0${d}T00:00:00Z result "$TESTDIR/$d.json" seq $d $d $d $d $d $d
		"$IOSWEEP" history add "$TESTDIR/$d.json" --label "c$d"
	done
	KERNEL="Linux 9" HOST=ci result "$TESTDIR/k.json" seq 7 7 7
	"$IOSWEEP" history add "$TESTDIR/k.json"
	run "$IOSWEEP" history trend --job seq -o "$TESTDIR/t.svg"
	[ "$status" -eq 0 ]
	# the chart says where it went, on stderr
	[[ "$output" == *"plot: wrote $TESTDIR/t.svg"* ]]
	output=$(echo "$output" | grep -v '^plot: wrote ')
	# host Linux 6.1, its results by date: c1, c2, c3; then the same run on another kernel
	[ "$(echo "$output" | grep -cE '^seq @ ci ')" = 4 ]
	[ "$(echo "$output" | awk 'NR > 1 && NR < 5 {print $6}' | tr '\n' ' ')" = "c1 c2 c3 " ]
	echo "$output" | sed -n 5p | grep -qE '^seq @ ci \(Linux 9, ext4, disk\) +4 +2026-01-01T00:00:00Z +3 +7\.00 s ± 0% +-$'
	echo "$output" | grep -qE '^seq @ ci +2 +2026-01-01T00:00:00Z +c1 +6 +1\.00 s ± 0% +1\.00 s \.\. 1\.00 s$'
	/usr/bin/python3 -c 'import sys, xml.dom.minidom as m; d = m.parse(sys.argv[1]); t = d.toxml(); assert "seq @ ci" in t and "c3" in t, t[:300]' "$TESTDIR/t.svg"
	run "$IOSWEEP" history trend --job nosuch
	[ "$status" -eq 2 ]
	[[ "$output" == *"no run of job 'nosuch' in the history"* ]]
	run "$IOSWEEP" history trend
	[ "$status" -eq 2 ]
	run "$IOSWEEP" history trend --job seq --figure bytes
	[ "$status" -eq 2 ]
}

@test "the default database is in XDG_DATA_HOME, else ~/.local/share; --db wins over IOSWEEP_HISTORY" {
	result "$TESTDIR/a.json" seq 1 1 1
	unset IOSWEEP_HISTORY XDG_DATA_HOME
	HOME=$TESTDIR/home "$IOSWEEP" history add "$TESTDIR/a.json"
	[ -f "$TESTDIR/home/.local/share/iosweep/history.db" ]
	XDG_DATA_HOME=$TESTDIR/xdg "$IOSWEEP" history add "$TESTDIR/a.json"
	[ -f "$TESTDIR/xdg/iosweep/history.db" ]
	IOSWEEP_HISTORY=$TESTDIR/env.db "$IOSWEEP" history add "$TESTDIR/a.json" --db "$TESTDIR/flag.db"
	[ -f "$TESTDIR/flag.db" ] && [ ! -e "$TESTDIR/env.db" ]
	# reading does not make a database
	run env IOSWEEP_HISTORY="$TESTDIR/none.db" "$IOSWEEP" history list
	[ "$status" -eq 2 ]
	[[ "$output" == *"none.db: no history database"* ]]
	[ ! -e "$TESTDIR/none.db" ]
}

@test "a corrupt, newer or symlinked database, and a bad result, are refused and left as they were" {
	export IOSWEEP_HISTORY=$TESTDIR/h.db
	result "$TESTDIR/a.json" seq 1 1 1
	head -c 8192 /dev/urandom >"$TESTDIR/h.db"
	before=$(file_state "$TESTDIR/h.db")
	run "$IOSWEEP" history add "$TESTDIR/a.json"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"h.db: file is not a database"* ]]
	[ "$(file_state "$TESTDIR/h.db")" = "$before" ]
	rm "$TESTDIR/h.db"
	"$IOSWEEP" history add "$TESTDIR/a.json"
	db 'PRAGMA user_version = 2'
	run "$IOSWEEP" history list
	[ "$status" -eq 2 ]
	[[ "$output" == *"a history database of a newer iosweep (version 2"* ]]
	db 'PRAGMA user_version = 1'
	ln -s "$TESTDIR/h.db" "$TESTDIR/link.db"
	run "$IOSWEEP" history list --db "$TESTDIR/link.db"
	[ "$status" -eq 2 ]
	[[ "$output" == *"link.db: not a regular file"* ]]
	sed 's/"schema": 1/"schema": 2/' "$TESTDIR/a.json" >"$TESTDIR/newer.json"
	run "$IOSWEEP" history add "$TESTDIR/newer.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *"newer.json: schema 2, but iosweep"* ]]
	[ "$(db 'SELECT count(*) FROM results')" = 1 ]
}

@test "an add killed mid-way leaves the database whole, with all of that result or none" {
	export IOSWEEP_HISTORY=$TESTDIR/h.db
	result "$TESTDIR/small.json" seq 1 1 1
	"$IOSWEEP" history add "$TESTDIR/small.json"
	RUNS=20000 result "$TESTDIR/big.json" big 1 2 3
	"$IOSWEEP" history add "$TESTDIR/big.json" >/dev/null &
	pid=$!
	# killed once its transaction has written into the WAL (or has ended)
	wal_grew() { [ "$(stat -c %s "$TESTDIR/h.db-wal" 2>/dev/null || echo 0)" -gt 200000 ] || ! kill -0 $pid; }
	for _ in $(seq 1200); do wal_grew && break; sleep 0.05; done   # (a loaded machine: up to 60 s)
	kill -KILL $pid || true
	wait $pid || true
	[ "$(db 'PRAGMA integrity_check')" = ok ]
	n=$(db "SELECT count(*) FROM runs WHERE job = 'big'")
	r=$(db "SELECT count(*) FROM results")
	[ "$n$r" = 01 ] || [ "$n$r" = 200002 ] || { echo "runs $n results $r"; false; }
	# and it can be added after
	"$IOSWEEP" history add "$TESTDIR/big.json"
	[ "$(db "SELECT count(*) FROM runs WHERE job = 'big'")" = 20000 ]
}

@test "concurrent adders all get in: one entry each, database whole" {
	export IOSWEEP_HISTORY=$TESTDIR/h.db
	for i in 1 2 3 4 5 6; do
		RUNS=300 STARTED=2026-01-0${i}T00:00:00Z result "$TESTDIR/$i.json" seq 1 2 3
	done
	pids=()
	for i in 1 2 3 4 5 6; do
		"$IOSWEEP" history add "$TESTDIR/$i.json" >/dev/null &
		pids+=($!)
	done
	for p in "${pids[@]}"; do
		wait "$p"
	done
	[ "$(db 'PRAGMA integrity_check')" = ok ]
	[ "$(db 'SELECT count(*) FROM results')" = 6 ]
	[ "$(db 'SELECT count(*) FROM runs')" = 1800 ]
}

@test "a bad result file makes no database; one after a good one stops the add, keeping the good" {
	export IOSWEEP_HISTORY=$TESTDIR/h.db
	result "$TESTDIR/a.json" seq 1 1 1
	mkfifo "$TESTDIR/fifo"
	run timeout 20 "$IOSWEEP" history add "$TESTDIR/fifo"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[ ! -e "$TESTDIR/h.db" ]
	run timeout 20 "$IOSWEEP" history add "$TESTDIR/a.json" "$TESTDIR"
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "added $TESTDIR/a.json as 1" ]
	[[ "${lines[1]}" == *"a directory, not a result file"* ]]
	[ "$(db 'SELECT count(*) FROM results')" = 1 ]
}

@test "an add waits for another writer's lock instead of failing" {
	export IOSWEEP_HISTORY=$TESTDIR/h.db
	result "$TESTDIR/a.json" seq 1 1 1
	result "$TESTDIR/b.json" seq 2 2 2
	"$IOSWEEP" history add "$TESTDIR/a.json"
	# a writer that holds the lock for 2 s (the busy timeout is 30 s)
	{ echo 'BEGIN IMMEDIATE;'; sleep 2; echo 'COMMIT;'; } | sqlite3 "$TESTDIR/h.db" &
	wait_for test -e "$TESTDIR/h.db-wal"
	run "$IOSWEEP" history add "$TESTDIR/b.json"
	wait
	[ "$status" -eq 0 ]
	[ "$output" = "added $TESTDIR/b.json as 2" ]
	[ "$(db 'PRAGMA integrity_check')" = ok ]
}
