#!/usr/bin/env bats
# precondition: passes that write the run's file before its warmup and repeats (fill:N, random:N),
# each timed and reported apart, never in the measured figures, under the write-target rules of a
# write job; the file's record then says it was written.

load helpers

PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# pjob NAME FILE PRECONDITION [LINES]: random 4 KiB reads of FILE (1 MiB), two repeats, engine
# sync, with PRECONDITION and LINES
pjob() {
	job "$1" "[r]\nfilename = $2\nsize = 1m\nop = read\npattern = random\nbs = 4k\nengine = sync\nrepeat = 2\nprecondition = $3\n${4:-}"
}

# written_by_pwrite TRACE FILE: "CALLS BYTES" of the pwrite64 calls in strace's TRACE
written_by_pwrite() {
	awk '/pwrite64\(/ && $NF ~ /^[0-9]+$/ { n++; s += $NF } END { print n + 0, s + 0 }' "$1"
}

@test "plan and check announce the bytes the passes write, as written to the file" {
	pjob p "$TESTDIR/f" "fill:2, random:1"
	run "$IOSWEEP" plan "$TESTDIR/p.ini"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"; 3145728 bytes (3MiB) written by precondition before them"* ]]
	[[ "$output" == *"writes $TESTDIR/f (to be created): 3MiB by precondition (3145728 bytes, before the measured repeats)"* ]]
	run "$IOSWEEP" check "$TESTDIR/p.ini"
	[ "$status" -eq 0 ]
	[[ "$output" == *"writes $TESTDIR/f (to be created): 3MiB by precondition"* ]]
	"$IOSWEEP" plan "$TESTDIR/p.ini" -o json >"$TESTDIR/plan.json"
	[ "$(json_get "$TESTDIR/plan.json" "[(r['precondition_bytes'], r['write_bytes']) for r in d['runs']]")" = "[(3145728, 0)]" ]
}

@test "the passes write exactly the bytes announced, and the measured repeats only read" {
	command -v strace >/dev/null || skip "needs strace"
	pjob p "$TESTDIR/f" "fill:2, random:1"
	run strace -f -qq -e trace=pwrite64,pread64 -o "$TESTDIR/trace" "$IOSWEEP" run "$TESTDIR/p.ini" -q -o json:"$TESTDIR/p.json"
	[ "$status" -eq 0 ]
	# fill:2 is 2 x 8 writes of 128 KiB, random:1 256 writes of 4 KiB: 3 MiB
	[ "$(written_by_pwrite "$TESTDIR/trace")" = "272 3145728" ]
	# the repeats' figures are the reads' alone
	[ "$(json_get "$TESTDIR/p.json" "[(x['bytes'], x['write_bytes']) for x in d['runs'][0]['repeats']]")" = "[(1048576, 0), (1048576, 0)]" ]
	[ "$(json_get "$TESTDIR/p.json" "(s := d['runs'][0]['summary']) and (int(s['bytes']['median']), int(s['writes']['max']), int(s['write_bytes']['max']))")" = "(1048576, 0, 0)" ]
}

@test "each run of a job is preconditioned once, before its warmup, and its writes stay its own" {
	command -v strace >/dev/null || skip "needs strace"
	job w "[w]\nfilename = $TESTDIR/f\nsize = 1m\nop = write\nbs = 4k, 8k\nengine = sync\nwarmup = 1\nrepeat = 2\nprecondition = fill:1\n"
	run strace -f -qq -e trace=pwrite64 -o "$TESTDIR/trace" "$IOSWEEP" run "$TESTDIR/w.ini" -q -o json:"$TESTDIR/w.json"
	[ "$status" -eq 0 ]
	# per run: one fill of 8 x 128 KiB, then 3 sequential passes (warmup and 2 repeats)
	[ "$(written_by_pwrite "$TESTDIR/trace")" = "$((2 * 8 + 3 * 256 + 3 * 128)) $((2 * 1048576 + 6 * 1048576))" ]
	[ "$(json_get "$TESTDIR/w.json" "[([p['bytes'] for p in r['precondition']], [x['write_bytes'] for x in r['repeats']]) for r in d['runs']]")" = "[([1048576], [1048576, 1048576]), ([1048576], [1048576, 1048576])]" ]
}

@test "the JSON has each pass: its bytes, time, throughput, one repeat per time, and a series with interval" {
	# O_DIRECT: 256 writes of 4 KiB per random pass take more than three intervals of 1 ms
	pjob p "$TESTDIR/f" "random:2, fill:1" "interval = 1ms\ncache = direct\n"
	run "$IOSWEEP" run "$TESTDIR/p.ini" -o json:"$TESTDIR/p.json" -o table
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/p.json" "[(p['pass'], p['times'], p['bs'], p['bytes'], len(p['repeats']), p['failed']) for p in d['runs'][0]['precondition']]")" = "[('random', 2, 4096, 2097152, 2, False), ('fill', 1, 131072, 1048576, 1, False)]" ]
	# time and throughput agree with the repeats
	[ "$(json_get "$TESTDIR/p.json" "all(abs(p['time_s'] - sum(x['time_s'] for x in p['repeats'])) < 1e-6 and abs(p['throughput_Bps'] * p['time_s'] - p['bytes']) < 1 for p in d['runs'][0]['precondition'])")" = True ]
	# a series whose bytes are the pass's wherever a pass had three intervals: each random one did
	[ "$(json_get "$TESTDIR/p.json" "all('series' in x for x in d['runs'][0]['precondition'][0]['repeats'])")" = True ]
	[ "$(json_get "$TESTDIR/p.json" "all(sum(i['bytes'] for i in x['series']['intervals']) == x['bytes'] for p in d['runs'][0]['precondition'] for x in p['repeats'] if 'series' in x)")" = True ]
	[[ "$output" == *"run 0: preconditioned (not in its figures): random:2 wrote 2MiB in "* ]]
	[[ "$output" == *"run 0: preconditioned (not in its figures): fill:1 wrote 1MiB in "* ]]
}

@test "a file iosweep made is recorded as written, and a later read knows it" {
	pjob p "$TESTDIR/f" "fill:1"
	run "$IOSWEEP" run "$TESTDIR/p.ini" -q
	[ "$status" -eq 0 ]
	if [ -e "$TESTDIR/f.iosweep-record" ]; then rec=$(cat "$TESTDIR/f.iosweep-record")
	else rec=$($PY -c 'import os,sys; print(os.getxattr(sys.argv[1], "user.iosweep").decode())' "$TESTDIR/f"); fi
	[[ "$rec" == *" written=1"* ]]
	job q "[q]\nfilename = $TESTDIR/f\nop = read\nrepeat = 1\n"
	run "$IOSWEEP" plan "$TESTDIR/q.ini"
	[[ "$output" == *"fill=existing"* ]]
}

@test "bad passes are refused with the file and line, before anything is made" {
	for v in "fill:0" "random:-1" "fill" "fil:1" "fill:x" "fill:2 random:1" "fill:2,,random:1" "fill:101"; do
		pjob p "$TESTDIR/f" "$v"
		run "$IOSWEEP" run "$TESTDIR/p.ini" -q
		echo "$v: $output"
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ "$output" == *"p.ini:9: precondition: '$v': "* ]]
	done
	[ ! -e "$TESTDIR/f" ]
}

@test "a file of the user's is preconditioned only with allow_write, else refused and unchanged" {
	head -c 1M /dev/urandom >"$TESTDIR/own"
	before=$(sha256sum <"$TESTDIR/own")
	pjob p "$TESTDIR/own" "fill:1"
	run "$IOSWEEP" run "$TESTDIR/p.ini" -q
	echo "$output"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"p.ini:"*"allow_write"* ]]
	[ "$(sha256sum <"$TESTDIR/own")" = "$before" ]
}

@test "precondition in a group or on a file set is refused with the file and line" {
	pjob p "$TESTDIR/f" "fill:1" "group = g\n"
	run "$IOSWEEP" plan "$TESTDIR/p.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *"p.ini:9: precondition runs before a run alone, not in a group"* ]]
	job s "[s]\nnrfiles = 2\nop = read\nsize = 1m\nrepeat = 1\nprecondition = fill:1\n"
	run "$IOSWEEP" plan "$TESTDIR/s.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *"s.ini:6: precondition writes one file: not with a file set (nrfiles > 1)"* ]]
}

# loopdev: DEV, a new loop device over $TESTDIR/back (4 MiB of random data); skip without root
loopdev() {
	[ "$(id -u)" -eq 0 ] || skip "loop devices need root"
	BACK=$TESTDIR/back
	head -c 4194304 /dev/urandom >"$BACK"
	DEV=$(losetup -f --show "$BACK" 2>/dev/null) || skip "cannot create a loop device here"
	[ -b "$DEV" ] || skip "losetup gave no block device"
}

teardown() {
	[ -n "${DEV:-}" ] && losetup -d "$DEV"
	rm -rf "$TESTDIR"
}

@test "a read job's precondition on a device without allow_write is refused at plan time, nothing written" {
	loopdev
	before=$(sha256sum <"$BACK")
	job d "[r]\nfilename = $DEV\nop = read\nbs = 4k\nrepeat = 1\nprecondition = fill:1\n"
	run "$IOSWEEP" plan "$TESTDIR/d.ini"
	echo "$output"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"d.ini:2: $DEV is a block device: iosweep writes a device only when the job names it (add 'allow_write = $DEV'"* ]]
	run "$IOSWEEP" run "$TESTDIR/d.ini" -q
	[ "$status" -eq 2 ]
	[ "$(sha256sum <"$BACK")" = "$before" ]
}

@test "with allow_write the device is written exactly as announced, by the device's own count" {
	loopdev
	job d "[r]\nfilename = $DEV\nop = read\nbs = 4k\nrepeat = 1\ncache = direct\nallow_write = $DEV\nprecondition = random:1, fill:1\n"
	run "$IOSWEEP" check "$TESTDIR/d.ini"
	[[ "$output" == *"writes $DEV (block device, checked unused: allow_write): 8MiB by precondition (8388608 bytes"* ]]
	stat=/sys/block/${DEV#/dev/}/stat
	w0=$(awk '{ print $7 }' "$stat")
	run "$IOSWEEP" run "$TESTDIR/d.ini" -q -o json:"$TESTDIR/d.json"
	[ "$status" -eq 0 ]
	# sectors of 512 bytes written by the device: the two passes, 4 MiB each
	[ $(( ($(awk '{ print $7 }' "$stat") - w0) * 512 )) -eq 8388608 ]
	[ "$(json_get "$TESTDIR/d.json" "[p['bytes'] for p in d['runs'][0]['precondition']]")" = "[4194304, 4194304]" ]
	[ "$(json_get "$TESTDIR/d.json" "d['runs'][0]['repeats'][0]['write_bytes']")" = 0 ]
}
