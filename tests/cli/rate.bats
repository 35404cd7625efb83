#!/usr/bin/env bats
# Rate limits: an open-loop schedule, and response time (due -> completion)
# beside latency (issue -> completion).  Timing only where the schedule is what is
# tested, with a period to spare; elsewhere the slow shim makes
# one read slow, and the assertions are on how many reads a stall delays.

load helpers

# stalled_run ENGINE: 256 reads of 4 KiB due every ms; read 61 of the file takes 100 ms more
stalled_run() {
	head -c 1m /dev/urandom >"$TESTDIR/f"
	job r "[r]\nfilename = $TESTDIR/f\nbs = 4k\nrate_iops = 1000\nrepeat = 1\ncache = keep\nconsume = none\nengine = $1\n"
	IOSWEEP_SLOW_FILE=$TESTDIR/f IOSWEEP_SLOW_AFTER=60 IOSWEEP_SLOW_COUNT=1 IOSWEEP_SLOW_MS=100 \
		LD_PRELOAD=$HELPERS/slow_shim.so \
		"$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json" --quiet
}

rep() {
	json_get "$TESTDIR/r.json" "d['runs'][0]['repeats'][0]$1"
}

@test "a stall at a fixed rate shows in the response time of the reads due during it, not in their latency" {
	stalled_run sync
	[ "$(rep "['reads']")" -eq 256 ]
	# the slow read itself: latency and response of 100 ms or more
	[ "$(rep "['lat_ns']['max'] >= 100e6")" = True ]
	[ "$(rep "['response_ns']['max'] >= 100e6")" = True ]
	# no other read was slow to serve: p99 is the 254th of 256
	[ "$(rep "['lat_ns']['p99'] < 20e6")" = True ]
	# the ~100 reads due during the stall start when it ends: the first ~80 of them
	# (31% of the reads) respond more than 20 ms after they were due; p90 needs 26
	# of them, p50 would need 128
	[ "$(rep "['response_ns']['p90'] >= 20e6")" = True ]
	[ "$(rep "['response_ns']['p50'] < 20e6")" = True ]
	[ "$(rep "['behind_schedule_s'] >= 0")" = True ]
}

@test "a rate is an upper bound: a repeat stopped by runtime has issued at most runtime x rate + 1 reads" {
	head -c 1m /dev/urandom >"$TESTDIR/f"
	# 100 reads/s, as ops or as bytes (the stricter of the two), one worker or two sharing it
	for rate in "rate_iops = 100" "rate = 400k" "rate = 4m\nrate_iops = 100" \
		    "rate_iops = 100\nthreads = 2"; do
		job r "[r]\nfilename = $TESTDIR/f\nbs = 4k\n$rate\nruntime = 200ms\nrepeat = 1\ncache = keep\n"
		"$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json" --quiet
		echo "$rate: $(rep "['reads']")"
		[ "$(rep "['reads']")" -le 22 ]
		[ "$(rep "['runtime_limited']")" = True ]
	done
}

@test "without a rate limit there is no response time and nothing about a schedule" {
	head -c 64k /dev/urandom >"$TESTDIR/f"
	job r "[r]\nfilename = $TESTDIR/f\nbs = 4k\nrepeat = 1\ncache = keep\n"
	run "$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json"
	[ "$status" -eq 0 ]
	[[ "$output" != *rate* ]]
	[ "$(rep "['response_ns']")" = "{'p50': None, 'p90': None, 'p99': None, 'p99.9': None, 'max': None}" ]
	[ "$(rep "['behind_schedule_s']")" = None ]
	[ "$(json_get "$TESTDIR/r.json" "d['runs'][0]['summary']['resp_p99_ns']['n']")" -eq 0 ]
}

@test "a rate limit is said above the table" {
	head -c 64k /dev/urandom >"$TESTDIR/f"
	job r "[r]\nfilename = $TESTDIR/f\nbs = 4k\nrepeat = 1\ncache = keep\nrate = 1m\n"
	run "$IOSWEEP" run "$TESTDIR/r.ini"
	[ "$status" -eq 0 ]
	[[ "$output" == *"rate=1MiB"* ]]
	[[ "$output" != *rate_iops* ]]
}

@test "Ctrl-C while the next read is not yet due stops the run at once, results kept" {
	head -c 64k /dev/urandom >"$TESTDIR/f"
	# 100 bytes/s of 4 KiB reads: one every 41 s; the first read marks that the
	# run is measuring, and the signal comes while the loop waits for the second
	job r "[r]\nfilename = $TESTDIR/f\nbs = 4k\nrepeat = 1\ncache = keep\nrate = 100\n"
	IOSWEEP_SLOW_FILE=$TESTDIR/f IOSWEEP_SLOW_AFTER=0 IOSWEEP_SLOW_COUNT=1 IOSWEEP_SLOW_MS=1 \
		IOSWEEP_SLOW_MARK=$TESTDIR/slow LD_PRELOAD=$HELPERS/slow_shim.so \
		timeout 20 "$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json" --quiet &
	pid=$!
	wait_for test -e "$TESTDIR/slow"
	kill -INT $pid
	rc=0
	wait $pid || rc=$?
	[ "$rc" -eq 130 ]
	[ "$(rep "['interrupted']")" = True ]
	[ "$(rep "['reads']")" -lt 16 ]
}

@test "the time to end of a rated run ends at its last read: no wait for a read the pattern does not have" {
	head -c 16k /dev/urandom >"$TESTDIR/f"
	# 4 reads due 200 ms apart: the last at 0.6 s (it was 0.8 s: one more period
	# waited, with every engine and thread count)
	job r "[r]\nfilename = $TESTDIR/f\nbs = 4k\nrate_iops = 5\nrepeat = 1\ncache = keep\nengine = sync, uring\n"
	"$IOSWEEP" run "$TESTDIR/r.ini" -q -o json:"$TESTDIR/r.json"
	for i in 0 1; do
		[ "$(json_get "$TESTDIR/r.json" "d['runs'][$i]['repeats'][0]['reads']")" -eq 4 ]
		[ "$(json_get "$TESTDIR/r.json" "0.59 < d['runs'][$i]['repeats'][0]['time_to_end_s'] < 0.75")" = True ]
	done
	# a runtime past the last read does not cut a run that read the whole file
	"$IOSWEEP" run "$TESTDIR/r.ini" -q --set runtime=700ms -o json:"$TESTDIR/r.json"
	[ "$(json_get "$TESTDIR/r.json" "d['runs'][0]['repeats'][0]['runtime_limited']")" = False ]
}

@test "the threads of a rated job take turns: the job's reads are due evenly, not one per thread at once" {
	head -c 16k /dev/urandom >"$TESTDIR/f"
	# 5 reads/s for the job, one read a thread: due at 0, 200, 400 and 600 ms
	# (they were all due at 0: 4 reads at once, 20/s over the first 200 ms)
	job r "[r]\nfilename = $TESTDIR/f\nbs = 4k\nrate_iops = 5\nrepeat = 1\ncache = keep\nthreads = 4\nengine = sync, uring\n"
	"$IOSWEEP" run "$TESTDIR/r.ini" -q -o json:"$TESTDIR/r.json"
	for i in 0 1; do
		rep="d['runs'][$i]['repeats'][0]"
		[ "$(json_get "$TESTDIR/r.json" "$rep['reads']")" -eq 4 ]
		[ "$(json_get "$TESTDIR/r.json" "0.59 < $rep['time_to_end_s'] < 0.75")" = True ]
		# each thread's time is its one read's; each started when it was due
		[ "$(json_get "$TESTDIR/r.json" "max($rep['thread_time_to_end_s']) < 0.1")" = True ]
		[ "$(json_get "$TESTDIR/r.json" "$rep['start_skew_s'] < 0.1")" = True ]
		[ "$(json_get "$TESTDIR/r.json" "$rep['response_ns']['max'] < 100e6")" = True ]
	done
	run "$IOSWEEP" run "$TESTDIR/r.ini" -q --job r --set engine=sync
	[[ "$output" != *"first reads were"* ]]
}

@test "a 300 ms SIGSTOP during a rated run shows in the table and the series: the most behind and the late reads" {
	head -c 4m /dev/urandom >"$TESTDIR/f"
	job r "[r]\nfilename = $TESTDIR/f\nbs = 4k\nrate_iops = 1000\ntime_based = 1\nruntime = 1500ms\ninterval = 100ms\nrepeat = 1\ncache = keep\nconsume = none\n"
	"$IOSWEEP" run "$TESTDIR/r.ini" -o table -o series:"$TESTDIR/r.csv" -o json:"$TESTDIR/r.json" \
		>"$TESTDIR/out" 2>&1 &
	pid=$!
	# stopped once some 200 reads are done (a read is a read(2) call: /proc counts them)
	wait_for awk '$1 == "syscr:" && $2 > 250 {ok = 1} END {exit !ok}' /proc/$pid/io
	kill -STOP $pid
	sleep 0.3
	kill -CONT $pid
	wait $pid
	cat "$TESTDIR/out"
	# the table: late and behind, the last cells but cached and dev/app (behind: "3xx ms")
	row=$(grep '^0 ' "$TESTDIR/out")
	late=$(awk '{print $(NF - 4)}' <<<"$row")
	behind=$(awk '{print $(NF - 2) == "s" ? $(NF - 3) : $(NF - 3) / 1000}' <<<"$row")
	[ "$late" -gt 0 ]
	python3 -c "assert $behind >= 0.25, $behind"
	grep -q "^run 0: p99 response time .* I/Os waited behind their due time" "$TESTDIR/out"
	[ "$(rep "['behind_max_s'] >= 0.25")" = True ]
	[ "$(rep "['late_ops'] == $late")" = True ]
	# the series: one interval has the reads issued late when the process went on
	[ "$(tail -n +2 "$TESTDIR/r.csv" | awk -F, '$15 >= 0.25e9 && $16 > 0' | wc -l)" -ge 1 ]
	[ "$(tail -n +2 "$TESTDIR/r.csv" | awk -F, '{ n += $16 } END { print n }')" -eq "$late" ]
}

@test "plan announces a rated run's bound: runtime x rate under one pass, and how long a rated pass takes" {
	head -c 4m /dev/urandom >"$TESTDIR/f"
	head -c 256k /dev/urandom >"$TESTDIR/g"
	# 1024 reads make a pass of f; 500 ms at 1000/s is 500 of them.  g: 64 reads, 64 ms
	job r "[r]\nfilename = $TESTDIR/f\nbs = 4k\nrate_iops = 1000\nruntime = 500ms\nrepeat = 1\ncache = keep\n\n[s]\nfilename = $TESTDIR/g\nbs = 4k\nrate_iops = 1000\nrepeat = 1\ncache = keep\n"
	run "$IOSWEEP" plan "$TESTDIR/r.ini"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(awk '$1 == "0" && $2 == "r" {print $(NF - 2)}' <<<"$output")" = 500 ]
	[ "$(awk '$1 == "0" && $2 == "r" {print $(NF - 1)}' <<<"$output")" = 2000KiB ]
	[[ "$output" == *"run 0: about 500 reads a repeat, in 500 ms: its runtime at its rate (one pass is 1024)"* ]]
	[[ "$output" == *"run 1: a repeat at its rate takes about 64.0 ms"* ]]
	[[ "$output" == *"total: 2 runs, 564 reads, 2310144 bytes (2.20MiB) over all measured repeats"* ]]
	"$IOSWEEP" plan "$TESTDIR/r.ini" -o json >"$TESTDIR/p.json"
	[ "$(json_get "$TESTDIR/p.json" "[(r['bound'], r['reads'], r['bytes']) for r in d['runs']]")" = "[('rate', 500, 2048000), ('pass', 64, 262144)]" ]
	# the result's planned_reads is the same bound, and the run keeps it
	"$IOSWEEP" run "$TESTDIR/r.ini" --job r -o json:"$TESTDIR/r.json" --quiet
	[ "$(json_get "$TESTDIR/r.json" "d['runs'][0]['planned_reads']")" -eq 500 ]
	[ "$(rep "['reads'] <= 501")" = True ]
}
