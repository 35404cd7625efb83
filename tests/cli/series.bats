#!/usr/bin/env bats
# Per-interval series: what happened inside a repeat.  No timing here: a
# fixed rate paces the reads and the slow shim stalls one of them.

load helpers

series() {
	json_get "$TESTDIR/r.json" "d['runs'][0]['repeats'][0]['series']$1"
}

@test "a series sums exactly to its repeat, per direction, and shows a stall in the interval it ended in" {
	head -c 1m /dev/urandom >"$TESTDIR/f"
	# 256 reads due every ms, intervals of 50 ms; one read, due at about 60 ms,
	# takes 100 ms more: nothing completes in [100, 150) ms, it completes in [150, 200)
	job r "[r]\nfilename = $TESTDIR/f\nbs = 4k\nrate_iops = 1000\ninterval = 50ms\nrepeat = 1\ncache = keep\n"
	IOSWEEP_SLOW_FILE=$TESTDIR/f IOSWEEP_SLOW_AFTER=60 IOSWEEP_SLOW_COUNT=1 IOSWEEP_SLOW_MS=100 \
		LD_PRELOAD=$HELPERS/slow_shim.so \
		"$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json" -o series:"$TESTDIR/r.csv" --quiet
	json_get "$TESTDIR/r.json" "[(p['start_s'], p['ops'], p['lat_max_ns']) for p in d['runs'][0]['repeats'][0]['series']['intervals']]"
	[ "$(series "['interval_s']")" = 0.05 ]
	[ "$(series "['coarsened']")" = 0 ]
	[ "$(series "['intervals'][0]['dir']")" = read ]
	[ "$(series "['intervals'][0]['resident']")" = 1.0 ]
	[ "$(json_get "$TESTDIR/r.json" "(r := d['runs'][0]['repeats'][0]) and (sum(p['ops'] for p in r['series']['intervals']), sum(p['bytes'] for p in r['series']['intervals'])) == (r['reads'], r['bytes']) == (256, 1048576)")" = True ]
	[ "$(series "['intervals'][2]['ops']")" -eq 0 ]
	# the same in long-format CSV: a header, one row per interval
	head -1 "$TESTDIR/r.csv" | grep -qx $'job,run,repeat,interval_s,coarsened,start_s,dir,ops,bytes,lat_p50_ns,lat_p99_ns,lat_max_ns,resident,resp_p99_ns,resp_max_ns,late_ops,dev_ios,dev_bytes,dev_await_ns,dev_busy_s,dev_queue_depth\r'
	[ "$(($(wc -l <"$TESTDIR/r.csv") - 1))" -eq "$(series "['intervals'].__len__()")" ]
	[ "$(tail -n +2 "$TESTDIR/r.csv" | awk -F, '{ n += $8 } END { print n }')" -eq 256 ]
	[ "$(sed -n 4p "$TESTDIR/r.csv" | cut -d, -f6-8)" = "0.1,read,0" ]
	[ "$(series "['intervals'][3]['lat_max_ns'] >= 100e6")" = True ]
	[ "$(series "['intervals']" | grep -o "'lat_max_ns': [0-9]*" | awk '$2 >= 100e6' | wc -l)" -eq 1 ]
}

@test "a rated series carries each interval's response p99 and max and its late reads, which add up to the repeat's" {
	head -c 1m /dev/urandom >"$TESTDIR/f"
	# as above: one read due at about 60 ms takes 100 ms more; the ~100 reads due
	# meanwhile are issued when it ends, in [150, 200) ms, late
	job r "[r]\nfilename = $TESTDIR/f\nbs = 4k\nrate_iops = 1000\ninterval = 50ms\nrepeat = 1\ncache = keep\n"
	IOSWEEP_SLOW_FILE=$TESTDIR/f IOSWEEP_SLOW_AFTER=60 IOSWEEP_SLOW_COUNT=1 IOSWEEP_SLOW_MS=100 \
		LD_PRELOAD=$HELPERS/slow_shim.so \
		"$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json" -o series:"$TESTDIR/r.csv" --quiet
	[ "$(series "['intervals'][3]['resp_max_ns'] >= 100e6")" = True ]
	[ "$(series "['intervals'][3]['late_ops'] >= 50")" = True ]
	[ "$(json_get "$TESTDIR/r.json" "(r := d['runs'][0]['repeats'][0]) and sum(p['late_ops'] for p in r['series']['intervals']) == r['late_ops'] > 0")" = True ]
	[ "$(json_get "$TESTDIR/r.json" "max(p['resp_max_ns'] for p in d['runs'][0]['repeats'][0]['series']['intervals']) == d['runs'][0]['repeats'][0]['response_ns']['max']")" = True ]
	# the CSV: the same late reads, in its last column
	[ "$(tail -n +2 "$TESTDIR/r.csv" | awk -F, '{ n += $16 } END { print n }')" -eq "$(json_get "$TESTDIR/r.json" "int(d['runs'][0]['repeats'][0]['late_ops'])")" ]
}

@test "a series without a rate limit has no response time: null in JSON, empty cells in CSV" {
	head -c 1m /dev/urandom >"$TESTDIR/f"
	job u "[u]\nfilename = $TESTDIR/f\nbs = 4k\nruntime = 60ms\ntime_based = 1\ninterval = 10ms\nrepeat = 1\ncache = keep\n"
	"$IOSWEEP" run "$TESTDIR/u.ini" -o json:"$TESTDIR/r.json" -o series:"$TESTDIR/r.csv" --quiet
	[ "$(series "['intervals'][0]['resp_p99_ns']")" = None ]
	[ "$(series "['intervals'][0]['late_ops']")" = None ]
	[ "$(sed -n 2p "$TESTDIR/r.csv" | cut -d, -f14-16)" = ',,' ]
}

@test "a series is left out for a repeat shorter than three intervals, and with interval = 0" {
	head -c 64k /dev/urandom >"$TESTDIR/f"
	for extra in "" "interval = 0\nrate_iops = 100"; do
		job r "[r]\nfilename = $TESTDIR/f\nbs = 4k\nrepeat = 1\ncache = keep\n$extra\n"
		"$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json" --quiet
		[ "$(json_get "$TESTDIR/r.json" "'series' in d['runs'][0]['repeats'][0]")" = False ]
	done
}

@test "a long repeat's series is coarsened: pairs merged, the interval doubled, and said" {
	head -c 256k /dev/urandom >"$TESTDIR/f"
	# 64 reads at 500/s: 128 ms in intervals of 2 ms needs 64 slots, twice the 32 kept
	job r "[r]\nfilename = $TESTDIR/f\nbs = 4k\nrate_iops = 500\ninterval = 2ms\nrepeat = 1\ncache = keep\nthreads = 2\n"
	"$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json" --quiet
	[ "$(series "['coarsened'] >= 1")" = True ]
	[ "$(series "['interval_s'] == 0.002 * 2 ** d['runs'][0]['repeats'][0]['series']['coarsened']")" = True ]
	# the last interval holds the repeat's end (late or not: no empty one after it)
	[ "$(json_get "$TESTDIR/r.json" "(r := d['runs'][0]['repeats'][0]) and (s := r['series']) and s['intervals'][-1]['start_s'] <= r['time_to_end_s'] < s['intervals'][-1]['start_s'] + s['interval_s']")" = True ]
	[ "$(json_get "$TESTDIR/r.json" "(r := d['runs'][0]['repeats'][0]) and sum(p['ops'] for p in r['series']['intervals']) == r['reads'] == 64")" = True ]
}

@test "an interval shorter than 1ms is refused with its file, line and the floor; 1ms and 0 are taken" {
	head -c 64k /dev/urandom >"$TESTDIR/f"
	for iv in 1ns 999us; do
		job r "[r]\nfilename = $TESTDIR/f\nrepeat = 1\ninterval = $iv\n"
		run "$IOSWEEP" check "$TESTDIR/r.ini"
		[ "$status" -eq 2 ]
		[ "$output" = "iosweep: $TESTDIR/r.ini:4: interval: '$iv' is shorter than 1ms, the shortest interval whose series costs the timed loop at most 3% (0: no series)" ]
	done
	job r "[r]\nfilename = $TESTDIR/f\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/r.ini" --set interval=100us
	[ "$status" -eq 2 ]
	[[ "$output" == *"--set 'interval=100us': interval: '100us' is shorter than 1ms"* ]]
	for iv in 1ms 0; do
		run "$IOSWEEP" check "$TESTDIR/r.ini" --set interval=$iv
		[ "$status" -eq 0 ] && [ -z "$output" ]
	done
}
