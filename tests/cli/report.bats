#!/usr/bin/env bats
# Reports: JSON and CSV that other programs read, the table, several -o at
# once, unwritable destinations, and interrupted runs.
# make check: runs beside another file

load helpers

# small_tree: a tree of 20 small files in $TESTDIR/tree (made once), for a
# job that reads a directory (opendir)
small_tree() {
	if [ ! -d "$TESTDIR/tree" ]; then
		mkdir -p "$TESTDIR/tree/sub"
		for k in $(seq 1 20); do head -c $((k * 300)) /dev/urandom >"$TESTDIR/tree/sub/f$k"; done
	fi
	echo "$TESTDIR/tree"
}

@test "every example job gives JSON and CSV that match the contract and the plan" {
	for j in "$BATS_TEST_DIRNAME"/../../jobs/*.ini; do
		# a time_based job writes what its time allows, not what was planned
		# (steady.ini: steady.bats runs it)
		grep -q '^time_based *= *1' "$j" && continue
		# a replay's file is as large as its trace needs, more than size=2m
		# (replay-seeds.ini: record_replay.bats and replay.bats run replays)
		grep -q '^read_iolog *=' "$j" && continue
		n=$(basename "$j" .ini)
		set -- --set size=2m --set repeat=2
		# a file set's size is its files' (dataset.ini: 64 KiB each): 32 of them
		grep -q '^nrfiles' "$j" && set -- --set size=2m --set nrfiles=32 --set repeat=2
		# a tree's size is its files' (dataset-tree.ini): a small one of its own
		grep -q '^opendir' "$j" && set -- --set opendir="$(small_tree)" --set repeat=2 \
			$([ "$(id -u)" = 0 ] || echo --set cache=fadvise,warm) # drop needs root
		# a tree's size is its files' (metadata.ini): a small one
		grep -q '^tree' "$j" && set -- --set tree=2x20 --set directory="$TESTDIR" --set repeat=2 \
			$([ "$(id -u)" = 0 ] || echo --set cache=keep)
		"$IOSWEEP" plan "$j" "$@" -o json >"$TESTDIR/$n.plan.json"
		run "$IOSWEEP" run "$j" "$@" -o json:"$TESTDIR/$n.json" -o csv:"$TESTDIR/$n.csv" -o table
		[ "$status" -eq 0 ] || { echo "$n: $output"; false; }
		python3 -m json.tool "$TESTDIR/$n.json" >/dev/null
		python3 "$BATS_TEST_DIRNAME/check_result.py" "$TESTDIR/$n.json" "$TESTDIR/$n.plan.json" "$TESTDIR/$n.csv"
		[ "$(json_get "$TESTDIR/$n.json" 'd["overrides"]')" = "$(python3 -c 'import sys; print([a for a in sys.argv[1:] if a != "--set"])' "$@")" ]
	done
}

@test "JSON to stdout is nothing but JSON" {
	job j "[a]\nfilename = $TESTDIR/f\nsize = 1m\nrepeat = 1\ncache = fadvise\n"
	"$IOSWEEP" run "$TESTDIR/j.ini" -o json >"$TESTDIR/out.json" 2>"$TESTDIR/err"
	python3 -m json.tool "$TESTDIR/out.json" >/dev/null
	[ "$(json_get "$TESTDIR/out.json" 'd["runs"][0]["params"]["size"]')" = 1048576 ]
}

@test "two formats on stdout is a usage error, found before anything runs" {
	job j "[a]\nfilename = $TESTDIR/f\nsize = 1m\n"
	run "$IOSWEEP" run "$TESTDIR/j.ini" -o json -o csv
	[ "$status" -eq 2 ]
	[[ "$output" == *"only one -o format can go to stdout"* ]]
	[ ! -e "$TESTDIR/f" ]
	run "$IOSWEEP" run "$TESTDIR/j.ini" -o yaml
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown output format 'yaml' (known: table, json, csv, series, md)"* ]]
}

@test "an unwritable output path is found before any I/O" {
	job j "[a]\nfilename = $TESTDIR/f\nsize = 1m\n"
	for o in json:"$TESTDIR/no/such/dir/r.json" csv:/proc/nope.csv table:"$TESTDIR/no/t.txt"; do
		run "$IOSWEEP" run "$TESTDIR/j.ini" -o "$o"
		[ "$status" -eq 2 ]
		[[ "$output" == *"cannot write"* ]]
		[ ! -e "$TESTDIR/f" ]
	done
}

@test "the table puts constants above and varying parameters in columns, within 120 columns" {
	for j in "$BATS_TEST_DIRNAME"/../../jobs/*.ini; do
		grep -q '^time_based *= *1' "$j" && continue # steady.bats runs it
		set -- --set size=1m --set repeat=1
		# a file set's size is its files' (dataset.ini: 64 KiB each); a trace's, what it reaches
		grep -q '^nrfiles' "$j" && set -- --set size=1m --set nrfiles=16 --set repeat=1
		grep -q '^opendir' "$j" && set -- --set opendir="$(small_tree)" --set repeat=1 \
			$([ "$(id -u)" = 0 ] || echo --set cache=fadvise,warm)
		grep -q '^tree' "$j" && set -- --set tree=2x20 --set directory="$TESTDIR" --set repeat=1 \
			$([ "$(id -u)" = 0 ] || echo --set cache=keep)
		# (replay-seeds.ini: its two traces side by side vary in six columns, and
		# its fidelity notes name the trace: wider than 120, not yet folded)
		grep -q '^read_iolog *=' "$j" && continue
		"$IOSWEEP" run "$j" "$@" >"$TESTDIR/out" 2>"$TESTDIR/err" || { cat "$TESTDIR/err"; false; }
		python3 -c 'import sys; bad = [l for l in sys.stdin if len(l.rstrip("\n")) > 120]; print("".join(bad)); sys.exit(bool(bad))' <"$TESTDIR/out"
	done
	job t "[global]\nfilename = $TESTDIR/f\nsize = 1m\nrepeat = 3\n[seq]\n[sparse]\nspacing = 64k, 256k\nbaseline = seq\n"
	run "$IOSWEEP" run "$TESTDIR/t.ini"
	[ "$status" -eq 0 ]
	echo "$output" | grep -E "^filename=$TESTDIR/f +size=1MiB"
	echo "$output" | grep -E '^# +job +spacing +time to end'
	echo "$output" | grep -E '^0 +seq +4KiB .* baseline '
	echo "$output" | grep -E '^1 +sparse +64KiB .*× (faster|slower) '
}

@test "buffered aio runs carry a note that libaio blocks without O_DIRECT" {
	job a "[a]\nfilename = $TESTDIR/f\nsize = 1m\nengine = aio\niodepth = 8\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/a.ini"
	[ "$status" -eq 0 ]
	[[ "$output" == *"libaio blocks in io_submit without O_DIRECT"* ]]
}

@test "SIGINT after the first run leaves valid JSON and CSV marked interrupted, and exits 130" {
	interrupt_second_run INT -o table
	grep -q "interrupted: 1 of 2 runs done, 1 cut short (marked interrupted)" "$TESTDIR/out"
}

@test "a baseline ratio is the baseline's median time to end over the run's" {
	job b "[global]\nfilename = $TESTDIR/f\nsize = 2m\nrepeat = 3\n[seq]\n[sparse]\nspacing = 256k\nbaseline = seq\n"
	run "$IOSWEEP" run "$TESTDIR/b.ini" -o json:"$TESTDIR/b.json"
	[ "$status" -eq 0 ]
	python3 - "$TESTDIR/b.json" <<'PY'
import json, statistics, sys
d = json.load(open(sys.argv[1]))
med = [statistics.median(r["time_to_end_s"] for r in run["repeats"]) for run in d["runs"]]
ratio = d["runs"][1]["baseline"]["ratio"]
assert d["runs"][1]["baseline"]["job"] == "seq"
assert abs(ratio - med[0] / med[1]) < 1e-6 * ratio, (ratio, med)
# the baseline job's run is its own reference
assert d["runs"][0]["baseline"] == {"job": "seq", "run": 0, "ratio": 1.0}, d["runs"][0]["baseline"]
assert d["runs"][1]["baseline"]["run"] == 0
PY
}
