#!/usr/bin/env bats
# read_iolog with replay_threads = 1: each thread of the trace (a v3 line's
# sixth field, as iosweep record writes it) replayed by a worker of its own,
# its lines in its order, on the trace's schedule or closed-loop at the
# recorded concurrency (replay_no_stall); traces without threads refused.

load helpers

# two_threads FILE GAP_US: a v3 trace of two threads interleaved, thread 0
# reading 4 KiB at 0, 4, 8 and 12 KiB from time 1000, thread 1 at 64, 68, 72
# and 76 KiB from GAP_US later, each line 1 ms after its thread's last
two_threads() {
	awk -v gap="$2" 'BEGIN {
		print "fio version 3 iolog"; print "0 /data/a add"; print "0 /data/a open"
		for (i = 0; i < 4; i++) {
			printf "%d /data/a read %d 4096 0\n", 1000 + i * 1000, i * 4096
			printf "%d /data/a read %d 4096 1\n", 1000 + gap + i * 1000, (16 + i) * 4096
		}
		printf "%d /data/a close\n", 10000 + gap }' >"$1"
}

# per_thread PREFIX: of strace -ff -o PREFIX, for each thread that pread 4 KiB, one
# line of its offsets in order, the lines sorted
per_thread() {
	local f
	for f in "$1".*; do
		sed -nE 's/^pread64\([0-9]+, .*, 4096, ([0-9]+)\) += 4096$/\1/p' "$f" | paste -sd ' '
	done | grep . | sort
}

# first_issues PREFIX: of strace -ff -ttt -o PREFIX, per thread that pread 4 KiB, the
# time of its first one, sorted
first_issues() {
	local f
	for f in "$1".*; do
		sed -nE 's/^([0-9.]+) pread64\([0-9]+, .*, 4096, [0-9]+\) += 4096$/\1/p' "$f" | head -1
	done | sort -n
}

@test "each thread of the trace is replayed by a worker of its own: its lines, in their order (strace)" {
	command -v strace >/dev/null || skip "strace is not installed"
	two_threads "$TESTDIR/t.log" 500
	job r "[r]\nfilename = $TESTDIR/r.dat\nread_iolog = $TESTDIR/t.log\nreplay_threads = 1\nengine = sync\nrepeat = 1\n"
	run "$IOSWEEP" plan "$TESTDIR/r.ini"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"threads=2"* ]]
	strace -ff -e trace=pread64 -o "$TESTDIR/s.tr" \
		"$IOSWEEP" run "$TESTDIR/r.ini" -q -o json:"$TESTDIR/r.json"
	run per_thread "$TESTDIR/s.tr"
	echo "$output"
	[ "$output" = "$(printf '0 4096 8192 12288\n65536 69632 73728 77824')" ]
	r='d["runs"][0]'
	[ "$(json_get "$TESTDIR/r.json" "$r['params']['threads']")" = 2 ]
	[ "$(json_get "$TESTDIR/r.json" "$r['repeats'][0]['replay']['as_recorded']")" = True ]
	[ "$(json_get "$TESTDIR/r.json" "$r['repeats'][0]['replay']['replayed']['reads']")" = 8 ]
	[ "$(json_get "$TESTDIR/r.json" "$r['repeats'][0]['replay']['recorded']['reads']")" = 8 ]
	[ "$(json_get "$TESTDIR/r.json" "$r['repeats'][0]['replay']['replayed']['read_bytes']")" = 32768 ]
	# the lateness of both workers: 8 I/Os issued on the schedule
	[ "$(json_get "$TESTDIR/r.json" "$r['repeats'][0]['replay']['issue_late_max_ns'] is not None")" = True ]
}

@test "on the recorded schedule a thread starts when the trace says; replay_no_stall starts every thread at once (strace)" {
	command -v strace >/dev/null || skip "strace is not installed"
	# thread 1's lines are due 300 ms after thread 0's
	two_threads "$TESTDIR/t.log" 300000
	job r "[r]\nfilename = $TESTDIR/r.dat\nread_iolog = $TESTDIR/t.log\nreplay_threads = 1\nrepeat = 1\n"
	rm -f "$TESTDIR"/s.tr.*
	strace -ff -ttt -e trace=pread64 -o "$TESTDIR/s.tr" "$IOSWEEP" run "$TESTDIR/r.ini" -q
	run first_issues "$TESTDIR/s.tr"
	echo "$output"
	[ "${#lines[@]}" -eq 2 ]
	# never before it is due: 300 ms after thread 0's, less the workers' start skew and thread
	# 0's lateness (under strace); replay_no_stall's below are less than 0.2 s apart
	[ "$(awk -v a="${lines[0]}" -v b="${lines[1]}" 'BEGIN { print (b - a >= 0.25) }')" = 1 ]
	job r "[r]\nfilename = $TESTDIR/r.dat\nread_iolog = $TESTDIR/t.log\nreplay_threads = 1\nreplay_no_stall = 1\nrepeat = 1\n"
	rm -f "$TESTDIR"/s.tr.*
	strace -ff -ttt -e trace=pread64 -o "$TESTDIR/s.tr" "$IOSWEEP" run "$TESTDIR/r.ini" -q
	run first_issues "$TESTDIR/s.tr"
	echo "$output"
	[ "${#lines[@]}" -eq 2 ]
	[ "$(awk -v a="${lines[0]}" -v b="${lines[1]}" 'BEGIN { print (b - a < 0.2) }')" = 1 ]
}

@test "replay_no_stall is closed-loop per thread: a thread due later runs ahead; replay_time_scale scales every thread's schedule" {
	two_threads "$TESTDIR/t.log" 300000
	job r "[free]\nfilename = $TESTDIR/r.dat\nread_iolog = $TESTDIR/t.log\nreplay_threads = 1\nreplay_no_stall = 1\nrepeat = 1\n[timed]\nfilename = $TESTDIR/r.dat\nread_iolog = $TESTDIR/t.log\nreplay_threads = 1\nrepeat = 1\n[fast]\nfilename = $TESTDIR/r.dat\nread_iolog = $TESTDIR/t.log\nreplay_threads = 1\nreplay_time_scale = 200\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json" -o table
	echo "$output"
	[ "$status" -eq 0 ]
	rep() { json_get "$TESTDIR/r.json" "d['runs'][$1]['repeats'][0]['replay']$2"; }
	# a thread due 300 ms later starts 300 ms later: not a start skew to be noted
	[[ "$output" != *"threads' first reads were up to"* ]]
	for k in 0 1 2; do
		[ "$(rep $k "['as_recorded']")" = True ]
		[ "$(rep $k "['recorded']['span_s']")" = 0.303 ]
	done
	# closed-loop: thread 1 does not wait 300 ms for its first line
	[ "$(rep 0 "['replayed']['span_s'] < 0.15")" = True ]
	[ "$(rep 0 "['issue_late_p50_ns']")" = None ]
	# as recorded: from thread 0's first issue to thread 1's last, 303 ms at least
	[ "$(rep 1 "['replayed']['span_s'] >= 0.29")" = True ]
	# twice as fast: 151.5 ms
	[ "$(rep 2 "['replayed']['span_s'] >= 0.14 and d['runs'][2]['repeats'][0]['replay']['replayed']['span_s'] < 0.29")" = True ]
}

@test "the issue lateness of the fidelity report is every worker's: a slow thread's late lines are in it" {
	# thread 0 reads once; thread 1 four times, 1 ms apart, each pread made 50 ms slow:
	# its last line is issued some 150 ms after it was due, in worker 1
	printf 'fio version 3 iolog\n0 /d/a add\n1000 /d/a read 0 4096 0\n1000 /d/a read 65536 4096 1\n2000 /d/a read 69632 4096 1\n3000 /d/a read 73728 4096 1\n4000 /d/a read 77824 4096 1\n' >"$TESTDIR/t.log"
	mkdir "$TESTDIR/slow"
	job r "[r]\nfilename = $TESTDIR/slow/r.dat\nread_iolog = $TESTDIR/t.log\nreplay_threads = 1\nrepeat = 1\n"
	run env IOSWEEP_SLOW_DIR="$TESTDIR/slow" IOSWEEP_SLOW_MS=50 LD_PRELOAD="$HELPERS/slow_shim.so" \
		"$IOSWEEP" run "$TESTDIR/r.ini" -q -o json:"$TESTDIR/r.json"
	echo "$output"
	[ "$status" -eq 0 ]
	r="d['runs'][0]['repeats'][0]"
	json_get "$TESTDIR/r.json" "$r['replay']['issue_late_max_ns'], $r['behind_max_s']"
	[ "$(json_get "$TESTDIR/r.json" "$r['replay']['issue_late_max_ns'] >= 100e6")" = True ]
	# the same maximum as the workers' own (behind_max_s: the latest of every worker)
	[ "$(json_get "$TESTDIR/r.json" "$r['replay']['issue_late_max_ns'] == round($r['behind_max_s'] * 1e9)")" = True ]
}

@test "a program recorded with two threads replays with a worker for each, its I/Os and bytes as recorded" {
	head -c 81920 /dev/urandom >"$TESTDIR/in.dat"
	run "$IOSWEEP" record -o "$TESTDIR/k.iolog" -- "$HELPERS/iotrace" threads "$TESTDIR/in.dat" 2
	echo "$output"
	[ "$status" -eq 0 ]
	# every I/O line names its thread, an index of the meta file's threads
	[ "$(awk 'NR > 1 && NF == 6 && $6 ~ /^[0-9]+$/' "$TESTDIR/k.iolog" | wc -l)" = 20 ]
	[ "$(awk 'NR > 1 && NF != 6 && $3 != "add" && $3 != "open" && $3 != "close"' "$TESTDIR/k.iolog" | wc -l)" = 0 ]
	meta=$TESTDIR/k.iolog.meta.json
	for t in $(awk 'NR > 1 && NF == 6 { print $6 }' "$TESTDIR/k.iolog" | sort -u); do
		[ "$(json_get "$meta" "d['threads'][$t]['ios']")" = "$(awk -v t="$t" 'NR > 1 && NF == 6 && $6 == t' "$TESTDIR/k.iolog" | wc -l)" ]
	done
	job r "[r]\nfilename = $TESTDIR/r.dat\nread_iolog = $TESTDIR/k.iolog\nreplay_threads = 1\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json" -o table
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/r.json" "d['runs'][0]['params']['threads']")" = 2 ]
	[ "$(json_get "$TESTDIR/r.json" "d['runs'][0]['repeats'][0]['reads']")" = "$(json_get "$meta" "d['counts']['reads']")" ]
	[ "$(json_get "$TESTDIR/r.json" "d['runs'][0]['repeats'][0]['read_bytes']")" = "$(json_get "$meta" "d['counts']['read_bytes']")" ]
	[ "$(json_get "$TESTDIR/r.json" "d['runs'][0]['repeats'][0]['replay']['as_recorded']")" = True ]
	[[ "$output" == *"20 of 20 I/Os (r 20 of 20, w 0 of 0), 81920 of 81920 bytes, 0 of 0 syncs: as recorded"* ]]
}

@test "replay_threads is refused for a trace without threads, beside threads or iodepth, and a bad thread field is TRACE:LINE" {
	printf 'fio version 3 iolog\n0 /a add\n1 /a open\n5 /a read 0 4096\n6 /a read 4096 4096\n' >"$TESTDIR/fio.log"
	job r "[r]\nfilename = $TESTDIR/r.dat\nread_iolog = $TESTDIR/fio.log\nreplay_threads = 1\nrepeat = 1\n"
	refused run r "$TESTDIR/r.ini:4: replay_threads = 1, but $TESTDIR/fio.log does not say which thread did each I/O (fio's iologs do not): record it with iosweep record, or give blkparse or blk tracer text"
	two_threads "$TESTDIR/t.log" 500
	job r "[r]\nfilename = $TESTDIR/r.dat\nread_iolog = $TESTDIR/t.log\nreplay_threads = 1\nthreads = 2\nrepeat = 1\n"
	refused run r "$TESTDIR/r.ini:5: threads does not go with replay_threads = 1: the run has a thread for each of the trace's (2 here)"
	job r "[r]\nfilename = $TESTDIR/r.dat\nread_iolog = $TESTDIR/t.log\nreplay_threads = 1\nengine = uring\niodepth = 4\nrepeat = 1\n"
	refused run r "$TESTDIR/r.ini:6: iodepth = 4 does not go with replay_threads = 1"
	# without replay_threads, threads other than 1 stays refused
	job r "[r]\nfilename = $TESTDIR/r.dat\nread_iolog = $TESTDIR/t.log\nthreads = 2\nrepeat = 1\n"
	refused run r "$TESTDIR/r.ini:4: read_iolog replays a trace in order, in one thread: threads = 1 (or replay_threads = 1"
	printf 'fio version 3 iolog\n0 /a add\n1 /a open\n5 /a read 0 4096 0\n6 /a read 4096 4096 x1\n' >"$TESTDIR/bad.log"
	job r "[r]\nfilename = $TESTDIR/r.dat\nread_iolog = $TESTDIR/bad.log\nrepeat = 1\n"
	refused run r "$TESTDIR/bad.log:5: 'x1' is not a thread: the sixth field of a version 3 I/O line"
	# every I/O line names its thread, or none does
	printf 'fio version 3 iolog\n0 /a add\n1 /a open\n5 /a read 0 4096 0\n6 /a read 4096 4096\n' >"$TESTDIR/bad.log"
	refused run r "$TESTDIR/bad.log:5: an I/O line without a thread (a sixth field), and those before it with"
	[ -z "$(ls "$TESTDIR" | grep '\.dat$')" ]
}

@test "a blkparse trace's PIDs are its threads: each replayed by a worker, its sectors in its order (strace)" {
	command -v strace >/dev/null || skip "strace is not installed"
	# PID 300 reads sectors 0, 8, 16; PID 301 sectors 128, 136, interleaved in time
	cat >"$TESTDIR/b.txt" <<'TXT'
  8,0    0        1     0.000000000   300  Q   R 0 + 8 [db]
  8,0    1        2     0.000500000   301  Q   R 128 + 8 [backup]
  8,0    0        3     0.001000000   300  Q   R 8 + 8 [db]
  8,0    1        4     0.001500000   301  Q   R 136 + 8 [backup]
  8,0    0        5     0.002000000   300  Q   R 16 + 8 [db]
TXT
	job r "[r]\nfilename = $TESTDIR/r.dat\nread_iolog = $TESTDIR/b.txt\nreplay_threads = 1\nengine = sync\nrepeat = 1\n"
	strace -ff -e trace=pread64 -o "$TESTDIR/s.tr" \
		"$IOSWEEP" run "$TESTDIR/r.ini" -q -o json:"$TESTDIR/r.json"
	run per_thread "$TESTDIR/s.tr"
	echo "$output"
	[ "$output" = "$(printf '0 4096 8192\n65536 69632')" ]
	r='d["runs"][0]'
	[ "$(json_get "$TESTDIR/r.json" "$r['params']['threads']")" = 2 ]
	[ "$(json_get "$TESTDIR/r.json" "$r['repeats'][0]['replay']['as_recorded']")" = True ]
}
