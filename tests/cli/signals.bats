#!/usr/bin/env bats
# Signals: SIGINT, SIGTERM, SIGHUP and a closed stdout all stop a run the
# same way: what was measured is written, JSON and CSV are marked
# interrupted, and the exit status is 128 + the signal's number (141, as
# SIGPIPE, for a closed stdout).

load helpers

@test "SIGINT stops the run: results written, marked interrupted, exit 130" {
	interrupt_second_run INT
	grep -q "interrupted: results of 2 of 2 runs written (SIGINT)" "$TESTDIR/out"
}

@test "SIGTERM stops the run the same way, exit 143" {
	interrupt_second_run TERM
	grep -q "interrupted: results of 2 of 2 runs written (SIGTERM)" "$TESTDIR/out"
}

@test "SIGHUP (a closed terminal) stops the run the same way, exit 129" {
	interrupt_second_run HUP -o table
	grep -q "interrupted: results of 2 of 2 runs written (SIGHUP)" "$TESTDIR/out"
	grep -q "interrupted: 1 of 2 runs done, 1 cut short (marked interrupted)" "$TESTDIR/out"
}

# the two-run job of interrupt_second_run, with its outputs to files and
# FORMAT to stdout into a reader that reads LINES lines and goes away
closed_stdout() {
	local format=$1 lines=$2
	head -c 4m /dev/urandom >"$TESTDIR/f"
	job i "[global]\nfilename = $TESTDIR/f\nrepeat = 1\n[quick]\n[slow]\npattern = random\ncount = 1000000000\nruntime = 60s\nbs = 512\n"
	set +e
	"$IOSWEEP" run "$TESTDIR/i.ini" -q -o "$format" -o json:"$TESTDIR/i.json" \
		-o csv:"$TESTDIR/i.csv" 2>"$TESTDIR/err" | head -n "$lines" >"$TESTDIR/out"
	rc=${PIPESTATUS[0]}
	set -e
	cat "$TESTDIR/err"
}

@test "a reader that goes away (| head -2) stops the run like a signal: results kept, exit 141" {
	closed_stdout csv 2
	[ "$rc" -eq 141 ]
	# the reader may go before the slow run starts (1 of 2) or during it (2 of 2)
	grep -qE "interrupted: results of [12] of 2 runs written \(closed stdout\)" "$TESTDIR/err"
	[ "$(head -c 4 "$TESTDIR/out")" = "job," ]
	[ "$(json_get "$TESTDIR/i.json" 'd["interrupted"]')" = True ]
	[ "$(json_get "$TESTDIR/i.json" 'd["stopped_by"]')" = "closed stdout" ]
	[ "$(json_get "$TESTDIR/i.json" 'd["runs"][0]["repeats"][0]["interrupted"]')" = False ]
	[ "$(json_get "$TESTDIR/i.json" 'all(r["repeats"][0]["interrupted"] for r in d["runs"][1:])')" = True ]
	python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1]))); assert len(r) in (2, 3) and r[1][-1] == "false", r' "$TESTDIR/i.csv"
}

@test "a reader that never reads (| head -0) stops a run whose stdout gets the table only at the end" {
	closed_stdout table 0
	[ "$rc" -eq 141 ]
	[ ! -s "$TESTDIR/out" ]
	[ "$(json_get "$TESTDIR/i.json" 'd["interrupted"]')" = True ]
	[ "$(json_get "$TESTDIR/i.json" 'd["stopped_by"]')" = "closed stdout" ]
}

@test "a reader that goes away while the table is written at the end (| head -1): exit 141, the files whole" {
	head -c 64k /dev/urandom >"$TESTDIR/f"
	# 1000 runs of a few reads: a table of several times a pipe's 64 KiB, so
	# that what head reads before it goes cannot leave room for the rest, however
	# late head exits (400 runs were 72 KiB: under load they could all fit)
	bs=$(python3 -c 'print(",\n  ".join(", ".join(str(512 * (i + j + 1)) for j in range(10)) for i in range(0, 1000, 10)))')
	job t "[a]\nfilename = $TESTDIR/f\nrepeat = 1\ncache = keep\nbs = $bs\n"
	set +e
	"$IOSWEEP" run "$TESTDIR/t.ini" -q -o table -o json:"$TESTDIR/t.json" 2>"$TESTDIR/err" |
		head -n 1 >"$TESTDIR/out"
	rc=${PIPESTATUS[0]}
	set -e
	cat "$TESTDIR/err"
	[ "$rc" -eq 141 ]
	grep -q "interrupted while the outputs were written (closed stdout): what went to stdout is cut short" "$TESTDIR/err"
	[ "$(json_get "$TESTDIR/t.json" 'd["complete"], len(d["runs"])')" = "(True, 1000)" ]
}

@test "an interrupted run never writes complete: true, and a whole run does" {
	interrupt_second_run INT
	[ "$(json_get "$TESTDIR/i.json" 'd["complete"]')" = False ]
	head -c 1m /dev/urandom >"$TESTDIR/g"
	job w "[a]\nfilename = $TESTDIR/g\nrepeat = 1\n"
	"$IOSWEEP" run "$TESTDIR/w.ini" -q -o json:"$TESTDIR/w.json"
	[ "$(json_get "$TESTDIR/w.json" 'd["complete"]')" = True ]
	[ "$(json_get "$TESTDIR/w.json" 'd["interrupted"]')" = False ]
	[ "$(json_get "$TESTDIR/w.json" 'd["stopped_by"]')" = None ]
}

# cut_between SIGNAL RUN: a job of two runs of two repeats, [quick] on an existing file and
# [next] on a new one, stopped by SIGNAL as the test file of RUN (next, or quick: then its
# file is new too) is created (tests/shim/signal_shim.c): a stop that falls between runs, or
# before the first
cut_between() {
	local quick=old.dat
	[ "$2" = quick ] && quick=first.dat
	head -c 1m /dev/urandom >"$TESTDIR/old.dat"
	rm -f "$TESTDIR/new.dat"
	job c "[global]\nrepeat = 2\nsize = 1m\n[quick]\nfilename = $TESTDIR/$quick\n[next]\nfilename = $TESTDIR/new.dat\n"
	run env IOSWEEP_SIGNAL_AT=write IOSWEEP_SIGNAL="$1" \
		IOSWEEP_SIGNAL_FILE="$([ "$2" = quick ] && echo first.dat || echo new.dat)" \
		LD_PRELOAD="$HELPERS/signal_shim.so" "$IOSWEEP" run "$TESTDIR/c.ini" -q \
		-o csv:"$TESTDIR/c.csv" -o json:"$TESTDIR/c.json"
}

# csv_rows FILE EXPR: EXPR over the CSV's rows as dicts (r), with the header (h)
csv_rows() {
	python3 -c 'import csv,sys; rows=list(csv.reader(open(sys.argv[1], newline=""))); h=rows[0]; r=[dict(zip(h, x)) for x in rows[1:]]; assert all(len(x) == len(h) for x in rows); print(eval(sys.argv[2]))' "$@"
}

@test "a stop between runs ends the CSV with a row for the run that was next, without figures, interrupted" {
	for sig in INT TERM; do
		cut_between $sig next
		[ "$status" -eq $((128 + $(kill -l $sig))) ]
		[ "$(json_get "$TESTDIR/c.json" 'len(d["runs"]), d["interrupted"]')" = "(1, True)" ]
		[ "$(csv_rows "$TESTDIR/c.csv" '[(x["job"], x["run"], x["repeat"], x["interrupted"]) for x in r]')" = "[('quick', '0', '0', 'false'), ('quick', '0', '1', 'false'), ('next', '1', '0', 'true')]" ]
		# the cut row has the run's parameters and no figure at all
		[ "$(csv_rows "$TESTDIR/c.csv" 'r[2]["filename"], r[2]["bs"], r[2]["time_to_end_s"], r[2]["reads"], r[2]["consume_result"], r[2]["cache_as_asked"]')" = "('$TESTDIR/new.dat', '4096', '', '', '', '')" ]
		[ "$(csv_rows "$TESTDIR/c.csv" 'r[0]["time_to_end_s"] != "" and r[0]["reads"] == "256"')" = True ]
	done
}

@test "a stop before the first run leaves a CSV of the header and one interrupted row for it" {
	cut_between INT quick
	[ "$status" -eq 130 ]
	[ "$(csv_rows "$TESTDIR/c.csv" '[(x["job"], x["repeat"], x["interrupted"], x["iops"]) for x in r]')" = "[('quick', '0', 'true', '')]" ]
}

@test "a sweep that ran to its end has no interrupted row, and a stop inside a repeat adds none" {
	head -c 1m /dev/urandom >"$TESTDIR/new.dat"
	job c "[global]\nrepeat = 2\n[quick]\nfilename = $TESTDIR/new.dat\n[next]\nfilename = $TESTDIR/new.dat\nbs = 8k\n"
	"$IOSWEEP" run "$TESTDIR/c.ini" -q -o csv:"$TESTDIR/c.csv"
	[ "$(csv_rows "$TESTDIR/c.csv" '[x["interrupted"] for x in r]')" = "['false', 'false', 'false', 'false']" ]
	# the interrupted repeat's own row is the mark (interrupt_second_run: 3 rows)
	interrupt_second_run INT
}
