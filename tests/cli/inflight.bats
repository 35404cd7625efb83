#!/usr/bin/env bats
# The queue depth a run really had (mean_depth: the sum of the I/Os' latencies
# over the time, Little's law), and flushes that do not drain the queue
# (sync_mode=inflight): counted by strace, not timed.

load helpers

rep() {
	json_get "$TESTDIR/r.json" "d['runs'][$1]['repeats'][0]$2"
}

# writes JOB: 256 direct random writes of 32 KiB at iodepth 32, a flush every 4
writes() {
	job w "[w]\nfilename = $TESTDIR/w.dat\nsize = 8m\nop = write\npattern = random\nbs = 32k\niodepth = 32\ncache = direct\nsync = fsync\nsync_every = 4\nrepeat = 1\n$1"
}

@test "one read at a time is a mean depth of 1.0, in the JSON and the table" {
	head -c 4m /dev/urandom >"$TESTDIR/f"
	job q "[q]\nfilename = $TESTDIR/f\nbs = 4k\ncount = 500\npattern = random\nengine = aio, sync\niodepth = 1\ncache = direct\nconsume = none\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/q.ini" -o table -o json:"$TESTDIR/r.json"
	[ "$status" -eq 0 ]
	# never more than one in flight: the latencies add up to at most the time
	[ "$(rep 0 "['mean_depth'] <= 1")" = True ]
	[ "$(rep 1 "['mean_depth'] <= 1")" = True ]
	[ "$(json_get "$TESTDIR/r.json" "round(d['runs'][0]['repeats'][0]['mean_depth'], 1)")" = 1.0 ]
	[ "$(printf '%s\n' "$output" | awk '$1 == "0" && $2 == "aio" {print $(NF - 2)}')" = 1.0 ]
	[[ "$output" == *"depth: mean number of I/Os in flight"* ]]
	[[ "$output" != *"I/Os were in flight, of iodepth"* ]]
}

@test "a draining flush every 4 writes empties the queue: the depth says so, and a note" {
	writes "engine = aio, uring\nsync_mode = drain\n"
	run "$IOSWEEP" run "$TESTDIR/w.ini" -o table -o json:"$TESTDIR/r.json"
	[ "$status" -eq 0 ]
	for k in 0 1; do
		[ "$(rep $k "['writes']")" -eq 256 ]
		[ "$(rep $k "['flushes']")" -eq 64 ]
		[ "$(rep $k "['mean_depth'] < 8")" = True ]
	done
	[[ "$output" == *"run 0: a mean of "*" I/Os were in flight, of iodepth 32: each flush waits for every I/O in flight (sync_mode=drain)"* ]]
	[[ "$output" == *"run 1: a mean of "* ]]
}

@test "sync_mode=inflight queues the flushes with the writes in flight: the depth stays above 8" {
	writes "engine = aio, uring\nsync_mode = inflight\n"
	run "$IOSWEEP" run "$TESTDIR/w.ini" -o table -o json:"$TESTDIR/r.json"
	[ "$status" -eq 0 ]
	for k in 0 1; do
		[ "$(rep $k "['writes']")" -eq 256 ]
		# 64 in the loop, and one after the queue has drained
		[ "$(rep $k "['flushes']")" -eq 65 ]
		# draining every 4 writes keeps about 2.3 in flight (the test above holds it under
		# 8); queued flushes keep 15 to 23 here, the filling and emptying of the queue at the
		# ends of 256 writes taking their share (16 failed 1 run in 7)
		[ "$(rep $k "['mean_depth'] > 8")" = True ]
		[ "$(rep $k "['flush_lat_ns']['max'] > 0")" = True ]
	done
	# no note blames draining flushes (one may still say the depth was under half of 32)
	[[ "$output" != *"(sync_mode=drain)"* ]]
}

# fsyncs JOBOPTS: the fsync(2) calls of a run (its result to stdout, which is not synced)
fsyncs() {
	writes "$1"
	strace -f -c -o "$TESTDIR/strace" -e trace=fsync,fdatasync \
		"$IOSWEEP" run "$TESTDIR/w.ini" -o json --quiet >"$TESTDIR/r.json"
	awk '$NF == "fsync" {print $4}' "$TESTDIR/strace"
}

@test "strace: a draining flush is one fsync call each; inflight ones are queued, and only the last is a call" {
	command -v strace >/dev/null || skip "no strace"
	[ "$(fsyncs "engine = aio\nsync_mode = drain\n")" -eq 64 ]
	[ "$(rep 0 "['flushes']")" -eq 64 ]
	for e in aio uring; do
		[ "$(fsyncs "engine = $e\nsync_mode = inflight\n")" -eq 1 ]
		[ "$(rep 0 "['flushes']")" -eq 65 ]
	done
}

@test "sync_mode=inflight is refused for an engine that cannot queue a flush, before any I/O" {
	writes "engine = sync\nsync_mode = inflight\n"
	run "$IOSWEEP" run "$TESTDIR/w.ini"
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: $TESTDIR/w.ini:13: sync_mode=inflight queues the flush with the I/O in flight, which engine=sync cannot: use engine=aio or uring, or sync_mode=drain (job 'w')" ]
	[ ! -e "$TESTDIR/w.dat" ]
}
