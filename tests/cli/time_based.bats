#!/usr/bin/env bats
# time_based runs: a repeat reads for its runtime, round the file again at
# its end, after an unmeasured ramp.  Bounds only, no timing: the loop stops
# at the first completion after the deadline, and a rate caps the reads.

load helpers

rep() {
	json_get "$TESTDIR/t.json" "d['runs'][0]['repeats'][0]$1"
}

@test "a time_based repeat reads past the end of the file, round again, for its runtime" {
	head -c 64k /dev/urandom >"$TESTDIR/f"
	job t "[t]\nfilename = $TESTDIR/f\nbs = 4k\nrepeat = 1\ncache = keep\ntime_based = 1\nruntime = 200ms\ninterval = 50ms\n"
	run "$IOSWEEP" run "$TESTDIR/t.ini" -o json:"$TESTDIR/t.json" -o table
	echo "$output"
	[ "$status" -eq 0 ]
	# 16 reads make one pass
	[ "$(rep "['reads'] > 16 and d['runs'][0]['repeats'][0]['bytes'] > 65536")" = True ]
	[ "$(rep "['runtime_limited']")" = False ]
	# the runtime is honoured: not stopped before it (both count from the first
	# I/O), and no interval starts after it
	[ "$(rep "['time_to_end_s'] >= 0.2")" = True ]
	[ "$(rep "['series']['intervals'][-1]['start_s'] <= 0.2")" = True ]
	[ "$(rep "['series']['intervals'].__len__() <= 5")" = True ]
	[ "$(json_get "$TESTDIR/t.json" "(r := d['runs'][0]['repeats'][0]) and sum(p['ops'] for p in r['series']['intervals']) == r['reads']")" = True ]
	# a pass over the file is covered once however often it was read
	[ "$(json_get "$TESTDIR/t.json" "(r := d['runs'][0]['repeats'][0]) and abs(r['coverage_Bps'] * r['time_to_end_s'] - 65536) < 1")" = True ]
	# the table does not call the runtime a time to end
	[[ "$output" == *"time_based=1"* ]]
	[[ "$(grep -m1 '^#' <<<"$output")" != *"time to end"* ]]
	[[ "$output" != *"stopped by runtime"* ]]
}

@test "the ramp is not measured: at a fixed rate only the runtime's reads are counted" {
	head -c 64k /dev/urandom >"$TESTDIR/f"
	# 100 reads/s: 20 in the ramp, at most 21 in the runtime
	job t "[t]\nfilename = $TESTDIR/f\nbs = 4k\nrepeat = 1\ncache = keep\ntime_based = 1\nruntime = 200ms\nramp = 200ms\nrate_iops = 100\n"
	"$IOSWEEP" run "$TESTDIR/t.ini" -o json:"$TESTDIR/t.json" --quiet
	rep "['reads']"
	[ "$(rep "['reads']")" -le 22 ]
	# the measured time starts at the ramp's end, and so does the runtime
	[ "$(rep "['time_to_end_s'] >= 0.2")" = True ]
}

@test "time_based needs a runtime, and ramp needs time_based" {
	head -c 64k /dev/urandom >"$TESTDIR/f"
	job a "[t]\nfilename = $TESTDIR/f\ntime_based = 1\n"
	run "$IOSWEEP" run "$TESTDIR/a.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *"a.ini:3: "*"time_based needs a runtime"* ]]
	job b "[t]\nfilename = $TESTDIR/f\nruntime = 1s\nramp = 1s\n"
	run "$IOSWEEP" run "$TESTDIR/b.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *"b.ini:4: "*"ramp is for time_based runs"* ]]
}

@test "plan says a time_based run without a rate is bounded by runtime, not one pass; planned_reads is null" {
	head -c 64k /dev/urandom >"$TESTDIR/f"
	job t "[t]\nfilename = $TESTDIR/f\nbs = 4k\nrepeat = 1\ncache = keep\ntime_based = 1\nruntime = 100ms\n\n[w]\nfilename = $TESTDIR/w.dat\nsize = 1m\nbs = 64k\nop = write\nrepeat = 1\ntime_based = 1\nruntime = 100ms\n"
	run "$IOSWEEP" plan "$TESTDIR/t.ini"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(awk '$1 == "0" && $2 == "t" {print $(NF - 4), $(NF - 3), $(NF - 2), $(NF - 1)}' <<<"$output")" = "runtime runtime runtime runtime" ]
	[[ "$output" == *"run 0: bounded by runtime: time_based, as many reads as 100 ms allow (one pass is 16)"* ]]
	[[ "$output" == *"run 1: bounded by runtime: time_based, as many writes as 100 ms allow (one pass is 16)"* ]]
	[[ "$output" == *"total: 2 runs, 0 reads, 0 writes, 0 bytes (0), 0 of them written (0) over all measured repeats, besides 2 runs bounded by runtime"* ]]
	[[ "$output" == *"writes $TESTDIR/w.dat (to be created): as much as the runtime allows"* ]]
	"$IOSWEEP" plan "$TESTDIR/t.ini" -o json >"$TESTDIR/p.json"
	[ "$(json_get "$TESTDIR/p.json" "[(r['bound'], r['reads'], r['bytes']) for r in d['runs']]")" = "[('runtime', None, None), ('runtime', None, None)]" ]
	"$IOSWEEP" run "$TESTDIR/t.ini" --job t -o json:"$TESTDIR/t.json" --quiet
	[ "$(json_get "$TESTDIR/t.json" "d['runs'][0]['planned_reads']")" = None ]
	[ "$(rep "['reads'] > 16")" = True ]
}
