#!/usr/bin/env bats
# thinktime: pauses after every thinktime_blocks I/Os, inside the time to
# end and outside every latency; with a rate, late I/Os are measured from
# their due times.  The bounds asserted are the pauses' own (a sleep lasts
# at least as long as asked), never how fast anything ran.

load helpers

# holds EXPR: whether a Python expression is true
holds() {
	python3 -c "import sys; sys.exit(not ($1))"
}

# get JSON RUN KEY: a figure of the run's first repeat
get() {
	json_get "$1" "d['runs'][$2]['repeats'][0]['$3']"
}

@test "thinktime pauses are in the time to end and in no latency, for sync and a queue with thinktime_spin" {
	head -c 256k /dev/urandom >"$TESTDIR/data"
	job t "[global]\nfilename = $TESTDIR/data\nrepeat = 1\ncache = keep\nbs = 4k\n[plain]\n[think]\nthinktime = 50ms\nthinktime_blocks = 16\n[queue]\nengine = aio\niodepth = 4\nthinktime = 50ms\nthinktime_blocks = 16\nthinktime_spin = 10ms\n"
	run "$IOSWEEP" run "$TESTDIR/t.ini" -o json:"$TESTDIR/t.json"
	[ "$status" -eq 0 ]
	for i in 0 1 2; do
		[ "$(get "$TESTDIR/t.json" $i reads)" = 64 ]
	done
	# 64 reads, a pause after every 16 but the last: 3 pauses of 50 ms
	for i in 1 2; do
		holds "$(get "$TESTDIR/t.json" $i time_to_end_s) >= 0.150" || { echo "run $i too short"; false; }
		# the latencies add up to far less than the pauses: none is in them
		holds "$(json_get "$TESTDIR/t.json" "d['runs'][$i]['repeats'][0]['lat_ns']['mean'] * 64") < 75e6" ||
			{ echo "run $i: the pauses are in the latencies"; false; }
	done
	# the same reads as without pauses: the checksum
	[ "$(get "$TESTDIR/t.json" 0 checksum)" = "$(get "$TESTDIR/t.json" 1 checksum)" ]
	[ "$(get "$TESTDIR/t.json" 0 checksum)" = "$(get "$TESTDIR/t.json" 2 checksum)" ]
}

@test "with a rate, the I/O after a pause is late and measured from its due time" {
	head -c 128k /dev/urandom >"$TESTDIR/data"
	job r "[r]\nfilename = $TESTDIR/data\nrepeat = 1\ncache = keep\nbs = 4k\nrate_iops = 1000\nthinktime = 20ms\nthinktime_blocks = 8\n"
	run "$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json"
	[ "$status" -eq 0 ]
	# 32 reads due 1 ms apart; 3 pauses of 20 ms: the reads after them are late by at least 19 ms
	holds "$(get "$TESTDIR/r.json" 0 late_ops) >= 3"
	holds "$(get "$TESTDIR/r.json" 0 behind_max_s) >= 0.019"
	holds "$(get "$TESTDIR/r.json" 0 time_to_end_s) >= 0.060"
}

@test "bad thinktime values are refused with FILE:LINE; fio's thinktime options import" {
	head -c 64k /dev/urandom >"$TESTDIR/data"
	job b "[b]\nfilename = $TESTDIR/data\nthinktime = -1ms\n"
	refused run b "is negative" "$TESTDIR/data"
	[[ "$output" = "iosweep: $TESTDIR/b.ini:3: thinktime"* ]]
	job b "[b]\nfilename = $TESTDIR/data\nthinktime = 1ms\nthinktime_spin = 2ms\n"
	refused run b "at most thinktime" "$TESTDIR/data"
	[[ "$output" = "iosweep: $TESTDIR/b.ini:4: "* ]]
	job b "[b]\nfilename = $TESTDIR/data\nthinktime = 1ms\nthinktime_blocks = 0\n"
	refused run b "thinktime_blocks" "$TESTDIR/data"
	cd "$TESTDIR"
	printf '[t]\nsize=1m\nrw=randread\nthinktime=500\nthinktime_spin=100\nthinktime_blocks=4\n' >t.fio
	run "$IOSWEEP" import t.fio
	[ "$status" -eq 0 ]
	[[ "$output" = *"thinktime = 500000ns"* && "$output" = *"thinktime_spin = 100000ns"* && "$output" = *"thinktime_blocks = 4"* ]]
	printf '[t]\nsize=1m\nthinktime=-5\n' >t.fio
	run "$IOSWEEP" import t.fio
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: t.fio:3: thinktime=-5: a time of at least 0" ]
}
