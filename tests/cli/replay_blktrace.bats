#!/usr/bin/env bats
# A replay's own block I/O is the trace that drove it.  On a loop device made for each test (over
# a sparse file, held open by the test), iosweep replays a trace (read_iolog, cache = direct, the
# sync engine at iodepth 1 unless a test says otherwise) while the kernel's block tracer records
# the device's block-layer events; the queue events (Q) that iosweep's process issued are then
# compared with the trace: as many, and per direction the same (sector, sectors), in the trace's
# order at iodepth 1.  A Q event is a bio asked of the device before any split or merge, so it is
# 1:1 with what iosweep submitted; the I/Os here are 4 KiB-aligned and at most 64 KiB, one bio
# each (the loop device takes requests far larger: max_sectors_kb), and the comparison would
# show a split or merge as a different list.
#
# The recorder is the kernel's blk tracer through ftrace (current_tracer = blk and the device's
# trace/enable): the events blktrace reads, from the same kernel code, without debugfs's relay
# files, which a VM may refuse (blktrace fails there with "Operation not permitted").  Skipped
# when not root or the kernel has no block tracer.  The tracer is the machine's, one for all:
# a lock serializes these tests between concurrent runs, a test skips when another tracer is in
# use, and teardown puts back what it changed (tracer nop, the device's trace off, the trace
# clock and tracing_on as they were, the buffer emptied) and detaches the loop device.
#
# iosweep's device checks read the device's signatures (libblkid: buffered reads, readahead
# events of iosweep's own process) before it writes; each job is checked (iosweep check) before
# its recorded run, so the run's checks read from the page cache the test's open descriptor
# keeps, and what the run asks of the device is the replay alone.

load helpers

T=/sys/kernel/tracing
LOCK=/run/lock/iosweep-blk-tracer.lock
[ -d /run/lock ] || LOCK=/tmp/iosweep-blk-tracer.lock

setup() {
	TESTDIR=$(mktemp -d "${IOSWEEP_TEST_DIR:-/var/tmp}/iosweep-bats.XXXXXX")
	export IOSWEEP_DIR=$TESTDIR
	[ "$(id -u)" -eq 0 ] || skip "the kernel's block tracer and loop devices need root"
	if [ ! -e $T/trace ]; then
		mount -t tracefs tracefs $T 2>/dev/null || skip "no tracefs at $T"
		MOUNTED=1
	fi
	grep -qw blk $T/available_tracers || skip "the kernel has no block tracer (CONFIG_BLK_DEV_IO_TRACE)"
	exec {LOCKFD}>"$LOCK"
	flock -w 60 "$LOCKFD" || skip "another run has held the block tracer for 60 s ($LOCK)"
	[ "$(cat $T/current_tracer)" = nop ] || skip "the tracer is in use: current_tracer = $(cat $T/current_tracer)"
	CLOCK=$(sed -E 's/.*\[([^]]*)\].*/\1/' $T/trace_clock)
	TRACING_ON=$(cat $T/tracing_on)
	TRACER=1
	truncate -s 4M "$TESTDIR/back"
	DEV=$(losetup -f --show "$TESTDIR/back" 2>/dev/null) || skip "cannot create a loop device here"
	exec {DEVFD}<"$DEV"
	NAME=${DEV#/dev/}
	MAJMIN=$(printf '%d,%d' "0x$(stat -c %t "$DEV")" "0x$(stat -c %T "$DEV")")
	# udev probes a new device: done before anything is recorded
	udevadm settle -t 10 2>/dev/null || true
}

teardown() {
	if [ -n "${TRACER:-}" ]; then
		echo 0 >$T/tracing_on
		if [ -n "${NAME:-}" ]; then echo 0 >/sys/block/"$NAME"/trace/enable 2>/dev/null || true; fi
		echo nop >$T/current_tracer
		echo >$T/trace
		echo "$CLOCK" >$T/trace_clock
		echo "$TRACING_ON" >$T/tracing_on
	fi
	if [ -n "${DEVFD:-}" ]; then exec {DEVFD}<&-; fi
	if [ -n "${DEV:-}" ]; then losetup -d "$DEV"; fi
	if [ -n "${MOUNTED:-}" ]; then umount $T; fi
	if [ -n "${LOCKFD:-}" ]; then exec {LOCKFD}>&-; fi
	rm -rf "$TESTDIR"
}

# blk_on: the block tracer recording the loop device's events, from an empty buffer, on one clock
# for every CPU (global), so that the trace's order is the events' order
blk_on() {
	echo 0 >$T/tracing_on
	echo blk >$T/current_tracer
	echo global >$T/trace_clock
	echo >$T/trace
	echo 1 >/sys/block/"$NAME"/trace/enable
	echo 1 >$T/tracing_on
}

# blk_off FILE: the tracer stopped, its trace (the tracer's text) in FILE; no event was lost
blk_off() {
	echo 0 >$T/tracing_on
	echo 0 >/sys/block/"$NAME"/trace/enable
	cat $T/trace >"$1"
	if grep -q '\[LOST [0-9]* EVENTS\]' "$1"; then
		echo "the tracer lost events: $(grep LOST "$1")"
		return 1
	fi
}

# queued FILE PID: the queue events of process PID on the loop device in the tracer's text FILE,
# one a line: "R|W|T SECTOR SECTORS" (read, write, trim: a discard), or "F 0 0" (a flush).
# Readahead (RWBS "RA") is left out: the replays here are direct, so only the device check's
# signature probe (libblkid's buffered reads) reads ahead.  It reads from the page cache that
# `iosweep check` warmed, mostly: in one fresh-clone make check of 20, two of those pages
# (sectors 0 and 8128) were no longer cached at the run, whose probe then read them from the
# device (why they went was not found; with `blockdev --flushbufs` between check and run, every
# test that writes the device failed that way before this filter, and passes with it).
queued() {
	awk -v dev="$MAJMIN" -v pid="$2" '{
		for (i = 1; i <= NF && $i !~ /^\[[0-9]+\]$/; i++);
		if (i > NF) next
		p = $(i - 1); sub(/.*-/, "", p)
		for (; i <= NF && $i !~ /^[0-9]+\.[0-9]+:$/; i++);
		if (p != pid || $(i + 1) != dev || $(i + 2) != "Q" || $(i + 3) ~ /A/) next
		r = $(i + 3)
		if ($(i + 5) != "+")
			print (r ~ /F/ ? "F" : "?" r), 0, 0
		else
			print (r ~ /D/ ? "T" : r ~ /W/ ? "W" : r ~ /R/ ? "R" : "?" r), $(i + 4), $(i + 6)
	}' "$1"
}

# iolog_asks FILE: what the fio iolog FILE (of one file) asks of the device, as queued prints it
# (a sync or datasync is a flush only where the device has a write cache to flush)
iolog_asks() {
	awk -v wc="$(cat /sys/block/"$NAME"/queue/write_cache)" '
		$3 == "read" { print "R", $4 / 512, $5 / 512 }
		$3 == "write" { print "W", $4 / 512, $5 / 512 }
		$3 == "trim" { print "T", $4 / 512, $5 / 512 }
		($3 == "sync" || $3 == "datasync") && wc == "write back" { print "F 0 0" }' "$1"
}

# blkparse_asks FILE: what the queue events of blkparse's text FILE ask, as queued prints them
blkparse_asks() {
	awk -v wc="$(cat /sys/block/"$NAME"/queue/write_cache)" '
		$1 ~ /^[0-9]+,[0-9]+$/ && $6 == "Q" {
			r = $7
			if (r ~ /D/) print "T", $8, $10
			else if (r ~ /W/ && $9 == "+") print "W", $8, $10
			else if (r ~ /R/ && $9 == "+") print "R", $8, $10
			else if (r ~ /F/ && wc == "write back") print "F 0 0"
		}' "$1"
}

# replay_traced JOB: `iosweep check`, then `iosweep run` of $TESTDIR/JOB.ini, recorded: the
# tracer's text in JOB.trace, the queue events of iosweep's process in JOB.got (queued), the
# process's id in PID, the run's JSON in JOB.json
replay_traced() {
	local rc=0
	"$IOSWEEP" check "$TESTDIR/$1.ini" >/dev/null
	blk_on
	"$IOSWEEP" run "$TESTDIR/$1.ini" -q -o json:"$TESTDIR/$1.json" >"$TESTDIR/$1.out" 2>&1 &
	PID=$!
	wait "$PID" || rc=$?
	blk_off "$TESTDIR/$1.trace"
	if [ "$rc" -ne 0 ]; then
		echo "iosweep run $1.ini: exit $rc"
		cat "$TESTDIR/$1.out"
		return 1
	fi
	queued "$TESTDIR/$1.trace" "$PID" >"$TESTDIR/$1.got"
	[ "$(json_get "$TESTDIR/$1.json" "d['runs'][0]['repeats'][0]['replay']['as_recorded']")" = True ]
}

# same FILE1 FILE2: the two lists of I/Os are the same, and not empty
same() {
	[ -s "$1" ] || { echo "$1 is empty"; return 1; }
	diff "$1" "$2"
}

# reads_v3 FILE: a fio iolog v3 of 12 reads of 4 to 64 KiB, 4 KiB-aligned, out of order
reads_v3() {
	{
		echo "fio version 3 iolog"
		echo "0 /data/f add"
		echo "0 /data/f open"
		local i=0 off
		for off in 1048576 4096 2093056 65536 0 3145728 524288 12288 4128768 8192 40960 1572864; do
			echo "$((10 + i * 5)) /data/f read $off $(((i % 4 + 1) * 4096 * (i % 3 == 2 ? 4 : 1)))"
			i=$((i + 1))
		done
		echo "100 /data/f close"
	} >"$1"
}

# mixed_v3 FILE [TRIM]: a fio iolog v3 of reads and writes (one over what was read before), a
# sync, a datasync, and with TRIM two trims.  Its last write keeps off the device's last 4 KiB:
# once (make sanitize, aio at iodepth 4) the device was also asked a read of that block by
# iosweep's process, the block the trace wrote there last and the one a signature probe reads
# at the end of a device: most likely that probe's readahead from the device (see queued), which
# the comparison now leaves out
mixed_v3() {
	{
		echo "fio version 3 iolog"
		echo "0 /data/f add"
		echo "10 /data/f write 65536 8192"
		echo "20 /data/f read 65536 8192"
		echo "30 /data/f write 2097152 65536"
		echo "40 /data/f sync 0 0"
		echo "50 /data/f read 0 4096"
		echo "60 /data/f write 4096 4096"
		[ -z "${2:-}" ] || echo "70 /data/f trim 1048576 65536"
		echo "80 /data/f read 2097152 16384"
		echo "90 /data/f datasync 0 0"
		[ -z "${2:-}" ] || echo "95 /data/f trim 3145728 4096"
		echo "100 /data/f write 4186112 4096"
	} >"$1"
}

# rjob NAME TRACE [LINES]: a job replaying TRACE on the loop device, direct, one repeat
rjob() {
	job "$1" "[r]\nread_iolog = $2\nfilename = $DEV\ncache = direct\nrepeat = 1\n${3:-}"
}

@test "a read trace (fio iolog v3) replayed on a loop device asks the device its reads, in order, and nothing else" {
	reads_v3 "$TESTDIR/a.log"
	# a read job: no write consent
	rjob a "$TESTDIR/a.log"
	replay_traced a
	iolog_asks "$TESTDIR/a.log" >"$TESTDIR/a.want"
	[ "$(wc -l <"$TESTDIR/a.want")" -eq 12 ]
	same "$TESTDIR/a.want" "$TESTDIR/a.got"
	[ "$(json_get "$TESTDIR/a.json" "d['runs'][0]['repeats'][0]['reads']")" = 12 ]
}

@test "a trace with writes and syncs (fio iolog v3, allow_write) asks the device its reads, writes and flushes, in order" {
	mixed_v3 "$TESTDIR/m.log"
	rjob m "$TESTDIR/m.log" "allow_write = $DEV\n"
	replay_traced m
	iolog_asks "$TESTDIR/m.log" >"$TESTDIR/m.want"
	same "$TESTDIR/m.want" "$TESTDIR/m.got"
	grep -c '^W ' "$TESTDIR/m.got" | grep -qx 4
}

@test "a trace's trims are discards of the device, in their place among the I/Os" {
	[ "$(cat /sys/block/"$NAME"/queue/discard_max_bytes)" -gt 0 ] || skip "the loop device does not discard here"
	mixed_v3 "$TESTDIR/m.log" trim
	rjob m "$TESTDIR/m.log" "allow_write = $DEV\n"
	replay_traced m
	iolog_asks "$TESTDIR/m.log" >"$TESTDIR/m.want"
	grep -q '^T 2048 128$' "$TESTDIR/m.want"
	same "$TESTDIR/m.want" "$TESTDIR/m.got"
}

@test "a blkparse trace replayed asks the device its queue events, sector for sector, in order" {
	cat >"$TESTDIR/b.txt" <<'TRACE'
  8,0    1        1     0.000000000  4217  Q   R 2048 + 8 [dd]
  8,0    1        2     0.000001000  4217  G   R 2048 + 8 [dd]
  8,0    1        3     0.000002000  4217  D   R 2048 + 8 [dd]
  8,0    0        4     0.000100000  4217  Q  WS 4096 + 16 [dd]
  8,0    0        5     0.000150000   200  Q FWS [jbd2/sda1-8]
  8,0    1        6     0.000200000  4217  Q   R 16 + 128 [dd]
  8,0    0        7     0.000250000  4217  Q  WS 8184 + 8 [dd]
  8,0    1        8     0.000300000     0  C   R 2048 + 8 [0]
  8,0    1        9     0.000400000  4217  Q  RA 4096 + 16 [dd]
CPU0 (8,0):
 Reads Queued:           3,       76KiB	 Writes Queued:           2,       12KiB
TRACE
	rjob b "$TESTDIR/b.txt" "allow_write = $DEV\n"
	replay_traced b
	blkparse_asks "$TESTDIR/b.txt" >"$TESTDIR/b.want"
	[ "$(grep -c '^[RW] ' "$TESTDIR/b.want")" -eq 5 ]
	same "$TESTDIR/b.want" "$TESTDIR/b.got"
}

@test "at iodepth 4 (aio, as fast as it goes) the device is asked the same I/Os per direction" {
	reads_v3 "$TESTDIR/a.log"
	mixed_v3 "$TESTDIR/m.log"
	# the reads, then the mixed trace's I/Os without its syncs, 1 ms later
	{
		cat "$TESTDIR/a.log"
		awk '$3 == "read" || $3 == "write" { $1 += 1000; print }' "$TESTDIR/m.log"
	} >"$TESTDIR/q.log"
	rjob q "$TESTDIR/q.log" "allow_write = $DEV\nengine = aio\niodepth = 4\nreplay_no_stall = 1\n"
	replay_traced q
	for d in R W; do
		iolog_asks "$TESTDIR/q.log" | grep "^$d " | sort >"$TESTDIR/q.want.$d"
		grep "^$d " "$TESTDIR/q.got" | sort >"$TESTDIR/q.got.$d"
		same "$TESTDIR/q.want.$d" "$TESTDIR/q.got.$d"
	done
	[ "$(wc -l <"$TESTDIR/q.got")" -eq $(($(wc -l <"$TESTDIR/q.want.R") + $(wc -l <"$TESTDIR/q.want.W"))) ]
}

@test "round trip: a replay recorded by the kernel's tracer replays as the same block I/O, from the tracer's text and as blkparse's" {
	mixed_v3 "$TESTDIR/a.log"
	rjob a "$TESTDIR/a.log" "allow_write = $DEV\n"
	replay_traced a
	iolog_asks "$TESTDIR/a.log" >"$TESTDIR/a.want"
	same "$TESTDIR/a.want" "$TESTDIR/a.got"
	# the recording as it is (header, comments, every event) less other processes' queue
	# events (udev's probe may read the device once iosweep has closed it) and the readahead
	# of iosweep's device check (see queued)
	awk -v pid="$PID" '{
		for (i = 1; i <= NF && $i !~ /^\[[0-9]+\]$/; i++);
		p = $(i - 1); sub(/.*-/, "", p)
		for (; i <= NF && $i !~ /^[0-9]+\.[0-9]+:$/; i++);
		if (!(i < NF && $(i + 2) == "Q" && (p != pid || $(i + 3) ~ /A/))) print
	}' "$TESTDIR/a.trace" >"$TESTDIR/r.trace"
	[ "$(head -n1 "$TESTDIR/r.trace")" = "# tracer: blk" ]
	grep -q ' C ' "$TESTDIR/r.trace" # completions: events that are not replayed
	# replayed at its recorded times
	rjob b "$TESTDIR/r.trace" "allow_write = $DEV\n"
	replay_traced b
	same "$TESTDIR/a.got" "$TESTDIR/b.got"
	# the same recording written as blkparse writes it (DEV CPU SEQ TIME PID ACTION RWBS ...),
	# from its first queue event (blkparse's text is known by an event's line first)
	awk '{
		for (i = 1; i <= NF && $i !~ /^\[[0-9]+\]$/; i++);
		if (i > NF) next
		p = $(i - 1); sub(/.*-/, "", p); cpu = substr($i, 2, length($i) - 2)
		for (; i <= NF && $i !~ /^[0-9]+\.[0-9]+:$/; i++);
		line = sprintf("%s %d %d %s %s", $(i + 1), cpu, NR, substr($i, 1, length($i) - 1), p)
		for (j = i + 2; j <= NF; j++) line = line " " $j
		if (q || $(i + 2) == "Q") print line
		q = q || $(i + 2) == "Q"
	}' "$TESTDIR/r.trace" >"$TESTDIR/c.txt"
	rjob c "$TESTDIR/c.txt" "allow_write = $DEV\n"
	replay_traced c
	same "$TESTDIR/a.got" "$TESTDIR/c.got"
}

@test "a recording with a line cut short, or with lost events, is refused before any I/O: TRACE:LINE, exit 2" {
	mixed_v3 "$TESTDIR/a.log"
	rjob a "$TESTDIR/a.log" "allow_write = $DEV\n"
	replay_traced a
	# its third queue event (a write) cut after its sector: nothing of the trace is written
	n=$(grep -n ' Q ' "$TESTDIR/a.trace" | sed -n 3p | cut -d: -f1)
	sed -E "${n}s/ \\+ [0-9]+ \\[.*//" "$TESTDIR/a.trace" >"$TESTDIR/cut.trace"
	rjob cut "$TESTDIR/cut.trace" "allow_write = $DEV\nseed = 7\n"
	refused run cut "cut.trace:$n: a blk tracer line cut short: SECTOR + SECTORS after RWBS" "$TESTDIR/back"
	sed "${n}i CPU:0 [LOST 3 EVENTS]" "$TESTDIR/a.trace" >"$TESTDIR/lost.trace"
	rjob lost "$TESTDIR/lost.trace" "allow_write = $DEV\nseed = 7\n"
	refused run lost "lost.trace:$n: 'CPU:0 [LOST 3 EVENTS]': the kernel's trace buffer was full" "$TESTDIR/back"
}
