#!/usr/bin/env bats
# read_iolog: a fio iolog (v2, v3) replayed as a job's I/O: the same I/Os as
# the trace, I/O by I/O, in streamed memory, on the recorded schedule or as
# fast as possible, with a fidelity report; bad traces refused before any I/O.

load helpers

# trace_v3 FILE N: a v3 trace of N 4 KiB I/Os on one file, 1 ms apart (every
# third a write, a sync after every tenth), as fio's write_iolog writes it
trace_v3() {
	awk -v n="$2" 'BEGIN {
		print "fio version 3 iolog"; print "0 /data/a add"; print "1 /data/a open"
		for (i = 0; i < n; i++) {
			printf "%d /data/a %s %d 4096\n", 1000 + i * 1000, i % 3 ? "read" : "write", (i * 7 % n) * 4096
			if (i % 10 == 9) printf "%d /data/a sync 0 0\n", 1000 + i * 1000
		}
		printf "%d /data/a close\n", 1000 + n * 1000 }' >"$1"
}

# ios STRACE_FILE: "op offset length" of each pread64/pwrite64 of 4096 bytes, and each
# fsync/fdatasync of the file they go to (iosweep's own files are synced too)
ios() {
	local fd
	fd=$(sed -nE 's/^[0-9]+ +p(read|write)64\(([0-9]+), .*, 4096, [0-9]+\) += 4096$/\2/p' "$1" | head -1)
	sed -nE "s/^[0-9]+ +(pread64|pwrite64)\\($fd, .*, 4096, ([0-9]+)\\) += 4096\$/\\1 \\2 4096/p; s/^[0-9]+ +(fsync|fdatasync)\\($fd\\) += 0\$/\\1/p" "$1"
}

@test "fio's write_iolog of a small job replays in iosweep with the same I/Os, one by one (strace)" {
	command -v fio >/dev/null || skip "fio is not installed"
	command -v strace >/dev/null || skip "strace is not installed"
	fio --name=t --filename="$TESTDIR/fio.dat" --size=256k --bs=4k --rw=randrw --fsync=4 \
		--ioengine=psync --write_iolog="$TESTDIR/t.log" --output=/dev/null
	head -1 "$TESTDIR/t.log" | grep -q '^fio version [23] iolog$'
	job r "[r]\nread_iolog = $TESTDIR/t.log\nengine = sync\nreplay_no_stall = 1\nrepeat = 1\n"
	strace -f -e trace=pread64,pwrite64,fsync -o "$TESTDIR/s.tr" \
		"$IOSWEEP" run "$TESTDIR/r.ini" -q -o json:"$TESTDIR/r.json"
	ios "$TESTDIR/s.tr" >"$TESTDIR/got"
	awk '$3 == "read" { print "pread64", $4, $5 } $3 == "write" { print "pwrite64", $4, $5 }
	     $3 == "sync" { print "fsync" }' "$TESTDIR/t.log" >"$TESTDIR/want"
	[ "$(wc -l <"$TESTDIR/want")" -gt 64 ]
	diff "$TESTDIR/want" "$TESTDIR/got"
	[ "$(json_get "$TESTDIR/r.json" 'd["runs"][0]["repeats"][0]["replay"]["as_recorded"]')" = True ]
}

@test "the fidelity report sets the trace's I/Os, bytes and syncs beside the replay's, in JSON and the table" {
	trace_v3 "$TESTDIR/t.log" 60
	job r "[r]\nread_iolog = $TESTDIR/t.log\nrepeat = 1\ninterval = 10ms\n"
	run "$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json" -o table
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"replay 1 of $TESTDIR/t.log:"$'\n'"  60 of 60 I/Os (r 40 of 40, w 20 of 20), 245760 of 245760 bytes, 6 of 6 syncs: as recorded"* ]]
	[[ "$output" == *"issued late p50 "*", recorded 0.059000 s (x 100%: 0.059000 s)"* ]]
	r='d["runs"][0]["repeats"][0]["replay"]'
	[ "$(json_get "$TESTDIR/r.json" "$r[\"recorded\"] == {'reads': 40, 'writes': 20, 'trims': 0, 'read_bytes': 163840, 'write_bytes': 81920, 'trim_bytes': 0, 'syncs': 6, 'span_s': 0.059}")" = True ]
	[ "$(json_get "$TESTDIR/r.json" "{k: v for k, v in $r[\"replayed\"].items() if k != 'span_s'} == {'reads': 40, 'writes': 20, 'trims': 0, 'read_bytes': 163840, 'write_bytes': 81920, 'trim_bytes': 0, 'syncs': 6}")" = True ]
	[ "$(json_get "$TESTDIR/r.json" "$r[\"issue_late_max_ns\"] >= $r[\"issue_late_p99_ns\"] >= $r[\"issue_late_p50_ns\"] >= 0")" = True ]
	# the recorded rate per interval: every I/O of the trace, in its interval of the schedule
	[ "$(json_get "$TESTDIR/r.json" "sum(p['recorded_ops'] for p in $r['rate']['intervals'])")" = 60 ]
	[ "$(json_get "$TESTDIR/r.json" "$r['rate']['intervals'][0]['recorded_ops']")" = 10 ]
	# the replayed series sums to the I/Os completed
	[ "$(json_get "$TESTDIR/r.json" "sum(p['replayed_ops'] for p in $r['rate']['intervals'])")" = 60 ]
}

@test "replay_time_scale scales the schedule; replay_no_stall drops it, and lateness with it; counts stay the trace's" {
	trace_v3 "$TESTDIR/t.log" 30
	job r "[fast]\nread_iolog = $TESTDIR/t.log\nrepeat = 1\nreplay_time_scale = 400\n[free]\nread_iolog = $TESTDIR/t.log\nrepeat = 1\nreplay_no_stall = 1\n"
	run "$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json" -o table
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"recorded 0.029000 s (x 400%: 0.007250 s)"* ]]
	[[ "$output" == *"as fast as possible (replay_no_stall): first to last issue "*" s, recorded 0.029000 s"* ]]
	for k in 0 1; do
		r="d['runs'][$k]['repeats'][0]['replay']"
		[ "$(json_get "$TESTDIR/r.json" "$r['as_recorded'] and $r['recorded']['span_s'] == 0.029 and $r['replayed']['reads'] == 20")" = True ]
	done
	[ "$(json_get "$TESTDIR/r.json" "d['runs'][1]['repeats'][0]['replay']['issue_late_p50_ns']")" = None ]
	[ "$(json_get "$TESTDIR/r.json" "d['runs'][0]['repeats'][0]['replay']['issue_late_p50_ns'] is not None")" = True ]
}

@test "a v2 trace's files become regions of the job's file, end to end (strace)" {
	command -v strace >/dev/null || skip "strace is not installed"
	printf 'fio version 2 iolog\n/a add\n/b add\n/a open\n/b open\n/a read 4096 4096\n/b read 0 4096\n/a wait 1000 0\n/b write 8192 4096\n/a datasync 0 0\n/a read 0 4096\n' >"$TESTDIR/t.log"
	job r "[r]\nread_iolog = $TESTDIR/t.log\nengine = sync\nrepeat = 1\n"
	run "$IOSWEEP" plan "$TESTDIR/r.ini"
	echo "$output"
	# a reaches 8 KiB, b 12 KiB: a file of 20 KiB
	[[ "$output" == *"size=20KiB"* ]]
	strace -f -e trace=pread64,pwrite64,fdatasync -o "$TESTDIR/s.tr" \
		"$IOSWEEP" run "$TESTDIR/r.ini" -q
	run ios "$TESTDIR/s.tr"
	[ "$output" = "$(printf 'pread64 4096 4096\npread64 8192 4096\npwrite64 16384 4096\nfdatasync\npread64 0 4096')" ]
}

@test "a bad trace line is refused as TRACE:LINE before any I/O, and nothing is created" {
	printf 'fio version 3 iolog\n0 /a add\n1 /a open\n5 /a reed 0 4096\n' >"$TESTDIR/bad.log"
	job r "[r]\nread_iolog = $TESTDIR/bad.log\nrepeat = 1\n"
	refused run r "$TESTDIR/bad.log:4: 'reed' is not an action of a fio iolog"
	[ -z "$(ls "$TESTDIR" | grep '\.dat$')" ]
	# cut short: the last line has no newline
	printf 'fio version 3 iolog\n0 /a add\n5 /a read 0 4096\n6 /a read 4096 40' >"$TESTDIR/bad.log"
	refused run r "$TESTDIR/bad.log:4: the last line has no newline: the trace was cut short"
	printf 'fio version 3 iolog\n0 /a add\n5 /a read 0 4096\n6 /a read 4096\n' >"$TESTDIR/bad.log"
	refused run r "$TESTDIR/bad.log:4: read needs OFFSET and LENGTH"
	printf 'not a trace\n' >"$TESTDIR/bad.log"
	refused run r "$TESTDIR/bad.log:1: not a fio iolog"
	[ -z "$(ls "$TESTDIR" | grep '\.dat$')" ]
}

@test "a trace that writes needs consent for the job's file; one that reaches beyond size is refused" {
	trace_v3 "$TESTDIR/t.log" 12
	head -c 100000 /dev/urandom >"$TESTDIR/mine.dat"
	job r "[r]\nread_iolog = $TESTDIR/t.log\nfilename = $TESTDIR/mine.dat\nrepeat = 1\n"
	refused run r "was not created by iosweep" "$TESTDIR/mine.dat"
	job r "[r]\nread_iolog = $TESTDIR/t.log\nsize = 16k\nrepeat = 1\n"
	refused run r "the trace's offsets reach beyond size=16KiB: its files need 48KiB end to end"
	job r "[r]\nread_iolog = $TESTDIR/t.log\nthreads = 2\nrepeat = 1\n"
	refused run r "threads = 1"
	job r "[r]\nread_iolog = $TESTDIR/t.log\nrate_iops = 100\nrepeat = 1\n"
	refused run r "rate_iops does not go with read_iolog"
	job r "[r]\nread_iolog = $TESTDIR/t.log\nverify = after\nrepeat = 1\n"
	refused run r "verify does not go with read_iolog"
	job r "[r]\nread_iolog = $TESTDIR/none.log\nrepeat = 1\n"
	refused run r "r.ini:2: read_iolog: $TESTDIR/none.log: No such file or directory"
}

@test "a trace of a million I/Os replays streamed, in less than 64 MiB" {
	grep -qE '__(asan|tsan)_init' "$IOSWEEP" && skip "the sanitizers' shadow memory is counted in RSS"
	awk 'BEGIN { print "fio version 3 iolog"; print "0 /d/a add"
		for (i = 0; i < 1000000; i++) printf "%d /d/a read %d 512\n", i, (i * 13 % 4096) * 512 }' >"$TESTDIR/big.log"
	[ "$(stat -c %s "$TESTDIR/big.log")" -gt 20000000 ]
	job r "[r]\nread_iolog = $TESTDIR/big.log\nreplay_no_stall = 1\ncache = keep\nrepeat = 1\ninterval = 0\n"
	peak=$("$HELPERS/peakrss" "$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json")
	echo "peak $peak KiB"
	[ "$(json_get "$TESTDIR/r.json" 'd["runs"][0]["repeats"][0]["replay"]["replayed"]["reads"]')" = 1000000 ]
	[ "$peak" -lt $((64 * 1024)) ]
}

@test "a replay's result, with its fidelity and rate series, validates against the schema" {
	/usr/bin/python3 -c 'import jsonschema' 2>/dev/null || skip "python3-jsonschema is not installed"
	trace_v3 "$TESTDIR/t.log" 40
	job r "[r]\nread_iolog = $TESTDIR/t.log\nrepeat = 1\ninterval = 5ms\n"
	"$IOSWEEP" run "$TESTDIR/r.ini" -q -o json:"$TESTDIR/r.json"
	[ "$(json_get "$TESTDIR/r.json" 'len(d["runs"][0]["repeats"][0]["replay"]["rate"]["intervals"]) > 2')" = True ]
	run /usr/bin/python3 "$BATS_TEST_DIRNAME/check_schema.py" "$BATS_TEST_DIRNAME/../../docs/result.schema.json" "$TESTDIR/r.json"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "blkparse's text output replays: its queue events, each device a region, a flush a sync (strace)" {
	command -v strace >/dev/null || skip "strace is not installed"
	cat >"$TESTDIR/blk.txt" <<'TXT'
  8,0    1        1     0.000000000  4217  Q   R 2048 + 8 [dd]
  8,0    1        2     0.000001000  4217  G   R 2048 + 8 [dd]
  8,0    1        3     0.000100000  4217  D   R 2048 + 8 [dd]
  8,0    0        1     0.001000000  4217  Q  WS 4096 + 16 [my proc]
  8,0    0        2     0.001500000   200  Q FWS [jbd2/sda1-8]
  8,16   0        3     0.002000000   200  Q   R 0 + 8 [cat]
  8,0    1        4     0.003000000     0  C   R 2048 + 8 [0]
  8,0    1        5     0.004000000  4217  Q   R 8 + 8 [dd]
CPU0 (8,0):
 Reads Queued:           2,        8KiB	 Writes Queued:           1,        8KiB
TXT
	job r "[r]\nread_iolog = $TESTDIR/blk.txt\nengine = sync\nrepeat = 1\n"
	strace -f -e trace=pread64,pwrite64,fsync -o "$TESTDIR/s.tr" \
		"$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json"
	# 8,0 reaches sector 4112 (2105344 bytes): 8,16 begins there
	fd=$(sed -nE 's/^[0-9]+ +pread64\(([0-9]+), .*, 4096, 1048576\) += 4096$/\1/p' "$TESTDIR/s.tr")
	run sed -nE "s/^[0-9]+ +(pread64|pwrite64)\\($fd, .*, (4096|8192), ([0-9]+)\\) += [0-9]+\$/\\1 \\3 \\2/p; s/^[0-9]+ +(fsync)\\($fd\\) += 0\$/\\1/p" "$TESTDIR/s.tr"
	echo "$output"
	[ "$output" = "$(printf 'pread64 1048576 4096\npwrite64 2097152 8192\nfsync\npread64 2105344 4096\npread64 4096 4096')" ]
	[ "$(json_get "$TESTDIR/r.json" 'd["runs"][0]["repeats"][0]["replay"]["recorded"]["span_s"]')" = 0.004 ]
	[ "$(json_get "$TESTDIR/r.json" 'd["runs"][0]["repeats"][0]["replay"]["as_recorded"]')" = True ]
}
