#!/usr/bin/env bats
# iosweep compare: runs matched by job and parameters, medians and their
# change, the Mann-Whitney U test and its `~`, and refusal of files that are
# not iosweep results.
# make check: runs beside another file

load helpers

# result FILE JOB TIME...: a minimal result file (schema 1) whose run JOB
# has one repeat per TIME (time to end in seconds, 1 MiB read in 256 reads).
result() {
	local file=$1 name=$2 sep="" reps=""
	shift 2
	for t in "$@"; do
		reps="$reps$sep{\"time_to_end_s\": $t, \"bytes\": 1048576, \"reads\": 256,
		  \"throughput_Bps\": $(awk "BEGIN {print 1048576 / $t}"), \"iops\": $(awk "BEGIN {print 256 / $t}"),
		  \"lat_ns\": {\"p50\": 1000, \"p99\": 2000}, \"interrupted\": false}"
		sep=", "
	done
	cat >"$file" <<EOF
{"iosweep": {"version": "0.1.0", "schema": 1}, "started": "2026-01-01T00:00:00Z",
 "job_file": {"path": "hand.ini", "text": ""}, "overrides": [],
 "runs": [{"job": "$name", "index": 0,
           "params": {"filename": "/x", "size": 1048576, "bs": 4096, "engine": "sync",
                      "repeat": $#, "warmup": 0},
           "repeats": [$reps]}]}
EOF
}

@test "runs match by job and parameters, not repeat; the others are listed as only in one file" {
	job j "[a]\nfilename = $TESTDIR/f\nsize = 1m\nbs = 4k, 8k\nrepeat = 3\n"
	"$IOSWEEP" run "$TESTDIR/j.ini" -q -o json:"$TESTDIR/old.json"
	"$IOSWEEP" run "$TESTDIR/j.ini" -q -o json:"$TESTDIR/new.json" --set bs=8k,16k --set repeat=4
	run "$IOSWEEP" compare "$TESTDIR/old.json" "$TESTDIR/new.json"
	[ "$status" -eq 0 ]
	# (spacing, left at its default, follows bs: the labels do not repeat it)
	echo "$output" | grep -E '^a bs=8KiB +[0-9].* (~|[-+][0-9.]+%) \(p=[0-9.e-]+ n=3\+4\)$'
	[ "$(echo "$output" | grep -c '^a bs=8KiB ')" = 4 ]     # one row per figure
	echo "$output" | grep -qx 'only in OLD: a bs=4KiB'
	echo "$output" | grep -qx 'only in NEW: a bs=16KiB'
	[ "$(echo "$output" | grep -cE '^a bs=(4|16)KiB ')" = 0 ]
}

@test "two runs done the same way with 3 repeats show ~, and say once why nothing can be significant" {
	job j "[global]\nfilename = $TESTDIR/f\nsize = 1m\nrepeat = 3\n[seq]\n[sparse]\nspacing = 64k, 256k\n"
	"$IOSWEEP" run "$TESTDIR/j.ini" -q -o json:"$TESTDIR/a.json"
	"$IOSWEEP" run "$TESTDIR/j.ini" -q -o json:"$TESTDIR/b.json"
	run "$IOSWEEP" compare "$TESTDIR/a.json" "$TESTDIR/b.json"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c ' ~ (p=[0-9.e-]* n=3+3)$')" = 12 ]   # 3 runs x 4 figures
	[ "$(echo "$output" | grep -cE '[-+][0-9.]+% \(p=')" = 0 ]
	echo "$output" | grep -E '^sparse spacing=64KiB +[0-9.]+ [mµ]?s ± [0-9]+% ¹ '
	[ "$(echo "$output" | grep -c '^note: ')" = 1 ]
	echo "$output" | grep -qx 'note: with 3+3 repeats no change can be significant at alpha=0.05; use repeat >= 4'
	[ "$(echo "$output" | grep -c '^geomean ')" = 4 ]
}

@test "a spread wider than the median itself is marked ² and explained, never shown bare" {
	result "$TESTDIR/old.json" scan 1.00 0.20 3.00
	result "$TESTDIR/new.json" scan 1.00 1.01 1.02
	run "$IOSWEEP" compare "$TESTDIR/old.json" "$TESTDIR/new.json"
	[ "$status" -eq 0 ]
	# old: median 1 s, min..max 0.2..3 s: the farther end is 200% away
	echo "$output" | grep -E '^scan +1\.00 s ± 200% ¹ ² +1\.01 s ± 1% ¹ +'
	echo "$output" | grep -qx '²: ± over 100%: the repeats differ by more than the median itself, so no change can be told from noise there'
	run "$IOSWEEP" compare "$TESTDIR/new.json" "$TESTDIR/new.json"
	[ "$(echo "$output" | grep -c '²')" = 0 ]
}

@test "a file compared with itself shows no change: ~ with p=1 everywhere" {
	job j "[a]\nfilename = $TESTDIR/f\nsize = 1m\nspacing = 4k, 64k\nrepeat = 5\n"
	"$IOSWEEP" run "$TESTDIR/j.ini" -q -o json:"$TESTDIR/a.json"
	run "$IOSWEEP" compare "$TESTDIR/a.json" "$TESTDIR/a.json"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c '(p=')" = 8 ]
	[ "$(echo "$output" | grep -c ' ~ (p=1 n=5+5)$')" = 8 ]
	[ "$(echo "$output" | grep -cE '^geomean .* \+0\.00%$')" = 4 ]
	[[ "$output" != *"use repeat >="* ]]     # 5+5 repeats can be significant
	[ "$(echo "$output" | grep '^note:')" = "note: OLD and NEW are the same file: every change is 0" ]
}

@test "a clear change over 6+6 repeats is significant: change in percent and p-value" {
	result "$TESTDIR/old.json" scan 1.00 1.05 1.01 1.04 1.02 1.03
	result "$TESTDIR/new.json" scan 1.25 1.20 1.24 1.21 1.23 1.22
	run "$IOSWEEP" compare "$TESTDIR/old.json" "$TESTDIR/new.json"
	[ "$status" -eq 0 ]
	# medians 1.025 and 1.225: +19.51%; every new time is above every old one,
	# so the exact two-sided p is 2 / C(12, 6) = 2/924 = 0.00216
	echo "$output" | grep -E '^scan +1\.0[23] s ± 2% +1\.2[23] s ± 2% +\+19\.51% \(p=0\.00216 n=6\+6\)$'
	echo "$output" | grep -E '^scan +.* -1[0-9]\.[0-9]+% \(p=0\.00216 n=6\+6\)$'   # throughput, IOPS
	echo "$output" | grep -E '^scan +2\.00 µs ± 0% +2\.00 µs ± 0% +~ \(p=1 n=6\+6\)$'  # p99
	echo "$output" | grep -E '^geomean +1\.0[23] s +1\.2[23] s +\+19\.51%$'
	[ "$(echo "$output" | grep -c '¹')" = 0 ]          # 6 repeats give a confidence interval
	[ "$(echo "$output" | grep -c '^note:')" = 0 ]
	# a stricter alpha makes the same change not significant
	run "$IOSWEEP" compare "$TESTDIR/old.json" "$TESTDIR/new.json" --alpha 0.001
	echo "$output" | grep -E '^scan .* ~ \(p=0\.00216 n=6\+6\)$'
}

@test "-o json and -o csv carry the same comparison for scripts" {
	result "$TESTDIR/old.json" scan 1.00 1.05 1.01 1.04 1.02 1.03
	result "$TESTDIR/new.json" scan 1.25 1.20 1.24 1.21 1.23 1.22
	"$IOSWEEP" compare "$TESTDIR/old.json" "$TESTDIR/new.json" -o json >"$TESTDIR/c.json"
	python3 - "$TESTDIR/c.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = d["runs"][0]["figures"]["time_to_end_s"]
assert d["alpha"] == 0.05 and d["only_in_old"] == [] and d["only_in_new"] == []
assert f["old"] == {"n": 6, "median": 1.025, "low": 1.0, "high": 1.05, "interval": "ci95"}, f
assert abs(f["change_pct"] - (1.225 / 1.025 - 1) * 100) < 1e-6
assert abs(f["p"] - 2 / 924) < 1e-9 and f["significant"] is True
assert f["new"]["median"] == 1.225
assert abs(d["geomean"]["time_to_end_s"]["change_pct"] - f["change_pct"]) < 1e-6
assert d["runs"][0]["figures"]["lat_p99_ns"]["significant"] is False
PY
	"$IOSWEEP" compare "$TESTDIR/old.json" "$TESTDIR/new.json" -o csv >"$TESTDIR/c.csv"
	python3 - "$TESTDIR/c.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert len(rows) == 8, rows          # 4 figures, then 4 geomean rows
t = rows[0]
assert (t["job"], t["label"], t["figure"]) == ("scan", "scan", "time_to_end_s"), t
assert (t["old_n"], t["old_median"], t["new_median"], t["significant"]) == ("6", "1.025", "1.225", "true"), t
assert abs(float(t["p"]) - 2 / 924) < 1e-9
assert [r["label"] for r in rows[4:]] == ["geomean"] * 4
PY
}

@test "files that are not iosweep results are refused with exit 2, naming the file" {
	result "$TESTDIR/ok.json" scan 1 2 3
	echo 'this is not { json' >"$TESTDIR/text.json"
	echo '{"runs": []}' >"$TESTDIR/other.json"
	sed 's/"schema": 1/"schema": 2/' "$TESTDIR/ok.json" >"$TESTDIR/schema2.json"
	run "$IOSWEEP" compare "$TESTDIR/text.json" "$TESTDIR/ok.json"
	[ "$status" -eq 2 ]
	[[ "$output" == "iosweep: $TESTDIR/text.json: not JSON (line 1:"* ]]
	run "$IOSWEEP" compare "$TESTDIR/ok.json" "$TESTDIR/other.json"
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: $TESTDIR/other.json: not an iosweep result file (no \"iosweep\" object)" ]
	run "$IOSWEEP" compare "$TESTDIR/ok.json" "$TESTDIR/schema2.json"
	[ "$status" -eq 2 ]
	[[ "$output" == "iosweep: $TESTDIR/schema2.json: schema 2, but iosweep "*" reads schema 1" ]]
	run "$IOSWEEP" compare "$TESTDIR/missing.json" "$TESTDIR/ok.json"
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: $TESTDIR/missing.json: cannot open: No such file or directory" ]
}

@test "compare takes exactly two files and one of four formats, to stdout" {
	result "$TESTDIR/ok.json" scan 1 2 3
	run "$IOSWEEP" compare "$TESTDIR/ok.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *"compare: expected two result files"* ]]
	run "$IOSWEEP" compare "$TESTDIR/ok.json" "$TESTDIR/ok.json" -o yaml
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown output format 'yaml' (known: table, csv, json, md)"* ]]
	run "$IOSWEEP" compare "$TESTDIR/ok.json" "$TESTDIR/ok.json" -o json:"$TESTDIR/c.json"
	[ "$status" -eq 2 ]
	run "$IOSWEEP" compare "$TESTDIR/ok.json" "$TESTDIR/ok.json" --alpha 2
	[ "$status" -eq 2 ]
}
