#!/usr/bin/env bats
# Discard: op = trim punches holes in a file (fallocate PUNCH_HOLE | KEEP_SIZE) and discards a
# block device's blocks (BLKDISCARD), each trim a unit timed like any I/O, with its own count,
# bytes and latency; op = trimwrite trims each block, then writes it.  A trim is a write: the
# same consent, the same refusals, nothing changed when refused.

load helpers

SIZE=1048576
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
DEV=

teardown() {
	[ -n "$DEV" ] && losetup -d "$DEV"
	rm -rf "$TESTDIR"
}

# rep KEY: figure KEY of the first repeat of the first run in r.json
rep() {
	$PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["repeats"][0][sys.argv[2]])' \
		"$TESTDIR/r.json" "$1"
}

# trim_p50: the trims' p50 latency in r.json
trim_p50() {
	$PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["repeats"][0]["trim_lat_ns"]["p50"])' \
		"$TESTDIR/r.json"
}

# data_at FILE: the offset of FILE's first byte of data (SEEK_DATA), or "none" when it is all hole
data_at() {
	$PY -c '
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
try:
    print(os.lseek(fd, 0, os.SEEK_DATA))
except OSError:
    print("none")' "$1"
}

# tjob NAME TARGET OP [LINES]: a job of bs 64k, one repeat, over TARGET, with LINES added
tjob() {
	job "$1" "[t]\nfilename = $2\nop = $3\nbs = 64k\nrepeat = 1\nseed = 5\n${4:-}"
}

# loopdev: DEV, a loop device over $TESTDIR/back (4 MiB of random data), or skip
loopdev() {
	[ "$(id -u)" -eq 0 ] || skip "loop devices need root"
	BACK=$TESTDIR/back
	head -c 4194304 /dev/urandom >"$BACK"
	DEV=$(losetup -f --show "$BACK" 2>/dev/null) || skip "cannot create a loop device here"
	udevadm settle 2>/dev/null || true
}

@test "op = trim punches every block of a file out, its size kept, in every engine" {
	for e in sync psync2 aio uring mmap; do
		head -c $SIZE /dev/urandom >"$TESTDIR/f"
		[ "$(data_at "$TESTDIR/f")" = 0 ]
		tjob t "$TESTDIR/f" trim "engine = $e\niodepth = $([ $e = aio ] || [ $e = uring ] && echo 4 || echo 1)\nallow_write = $TESTDIR/f\n"
		run "$IOSWEEP" run "$TESTDIR/t.ini" --quiet -o json:"$TESTDIR/r.json"
		echo "$e: $output"
		[ "$status" -eq 0 ]
		[ "$(rep trims)" = 16 ]
		[ "$(rep trim_bytes)" = $SIZE ]
		[ "$(rep reads)" = 0 ]
		[ "$(rep writes)" = 0 ]
		[ "$(rep bytes)" = $SIZE ]
		[ "$(trim_p50)" -gt 0 ]
		[ "$(stat -c %s "$TESTDIR/f")" = $SIZE ]
		[ "$(data_at "$TESTDIR/f")" = none ]
		cmp "$TESTDIR/f" <(head -c $SIZE /dev/zero)
	done
}

@test "op = trim of part of a file punches exactly the blocks drawn" {
	head -c $SIZE /dev/urandom >"$TESTDIR/f"
	cp "$TESTDIR/f" "$TESTDIR/orig"
	# spacing 128k: blocks 0, 2, 4 ... (64 KiB each) trimmed, the others kept
	tjob t "$TESTDIR/f" trim "spacing = 128k\nallow_write = $TESTDIR/f\n"
	run "$IOSWEEP" run "$TESTDIR/t.ini" --quiet -o json:"$TESTDIR/r.json"
	[ "$status" -eq 0 ]
	[ "$(rep trims)" = 8 ]
	[ "$(rep trim_bytes)" = $((SIZE / 2)) ]
	for k in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
		if [ $((k % 2)) = 0 ]; then
			cmp <(tail -c +$((k * 65536 + 1)) "$TESTDIR/f" | head -c 65536) <(head -c 65536 /dev/zero)
		else
			cmp <(tail -c +$((k * 65536 + 1)) "$TESTDIR/f" | head -c 65536) \
				<(tail -c +$((k * 65536 + 1)) "$TESTDIR/orig" | head -c 65536)
		fi
	done
}

@test "op = trimwrite trims then writes each block: both counted, the data verified" {
	head -c $SIZE /dev/urandom >"$TESTDIR/f"
	tjob t "$TESTDIR/f" trimwrite "pattern = random\nverify = after\nallow_write = $TESTDIR/f\n"
	run "$IOSWEEP" run "$TESTDIR/t.ini" --quiet -o json:"$TESTDIR/r.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(rep trims)" = 16 ]
	[ "$(rep trim_bytes)" = $SIZE ]
	[ "$(rep writes)" = 16 ]
	[ "$(rep write_bytes)" = $SIZE ]
	[ "$(rep verified_bytes)" = $SIZE ]
	[ "$(rep bytes)" = $((2 * SIZE)) ]
	$PY "$BATS_TEST_DIRNAME/wdata.py" bytes 5 0 $SIZE | cmp - "$TESTDIR/f"
}

@test "a trim of a file iosweep did not make is refused like a write, and nothing changes" {
	head -c $SIZE /dev/urandom >"$TESTDIR/f"
	before=$(sha256sum <"$TESTDIR/f")
	tjob t "$TESTDIR/f" trim
	run "$IOSWEEP" run "$TESTDIR/t.ini" --quiet -o json:"$TESTDIR/r.json"
	echo "$output"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"was not created by iosweep"*"allow_write = $TESTDIR/f"* ]]
	[ ! -e "$TESTDIR/r.json" ]
	[ "$(sha256sum <"$TESTDIR/f")" = "$before" ]
	[ "$(data_at "$TESTDIR/f")" = 0 ]
}

@test "verify = after with op = trim is refused before any I/O" {
	head -c $SIZE /dev/urandom >"$TESTDIR/f"
	before=$(sha256sum <"$TESTDIR/f")
	tjob t "$TESTDIR/f" trim "verify = after\nallow_write = $TESTDIR/f\n"
	run "$IOSWEEP" run "$TESTDIR/t.ini" --quiet
	echo "$output"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"t.ini:"*"op = trim writes no data for verify=after to check"*"op = trimwrite"* ]]
	[ "$(sha256sum <"$TESTDIR/f")" = "$before" ]
}

@test "op = trim discards a loop device's blocks with BLKDISCARD: they read zeros, the backing file has holes" {
	loopdev
	[ "$(cat /sys/block/${DEV#/dev/}/queue/discard_max_bytes)" -gt 0 ] || skip "this loop device does not discard"
	blocks=$(stat -c %b "$BACK")
	# the first MiB, cache = direct (whole logical blocks, the device's own)
	tjob t "$DEV" trim "size = 1m\ncache = direct\nallow_write = $DEV\n"
	run "$IOSWEEP" run "$TESTDIR/t.ini" --quiet -o json:"$TESTDIR/r.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(rep trims)" = 16 ]
	[ "$(rep trim_bytes)" = $SIZE ]
	[ "$(trim_p50)" -gt 0 ]
	cmp <(head -c $SIZE "$DEV") <(head -c $SIZE /dev/zero)
	# the loop driver punched the range out of its file: 1 MiB fewer 512-byte blocks
	[ "$(stat -c %b "$BACK")" -eq $((blocks - SIZE / 512)) ]
	# the rest of the device is untouched
	cmp <(tail -c +$((SIZE + 1)) "$DEV") <(tail -c +$((SIZE + 1)) "$BACK")
}

@test "a device is not trimmed without allow_write naming it, and nothing changes" {
	loopdev
	before=$(sha256sum <"$BACK")
	tjob t "$DEV" trim
	run "$IOSWEEP" run "$TESTDIR/t.ini" --quiet -o json:"$TESTDIR/r.json"
	echo "$output"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"$DEV is a block device: iosweep writes a device only when the job names it"* ]]
	[ ! -e "$TESTDIR/r.json" ]
	[ "$(sha256sum <"$BACK")" = "$before" ]
}

@test "a device carrying a file system is not trimmed unless the job names the signature" {
	loopdev
	command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
	mkfs.ext4 -q -F "$DEV" >/dev/null 2>&1
	blockdev --flushbufs "$DEV"
	before=$(sha256sum <"$BACK")
	tjob t "$DEV" trim "allow_write = $DEV\n"
	run "$IOSWEEP" run "$TESTDIR/t.ini" --quiet -o json:"$TESTDIR/r.json"
	echo "$output"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"ext4"*"allow_overwrite_signature = ext4"* ]]
	[ "$(sha256sum <"$BACK")" = "$before" ]
	tjob t "$DEV" trim "allow_write = $DEV\nallow_overwrite_signature = ext4\n"
	run "$IOSWEEP" run "$TESTDIR/t.ini" --quiet -o json:"$TESTDIR/r.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(rep trims)" = 64 ]
}

@test "fio's trim jobs import: a device's consent line is left for the user, in comments and a warning" {
	printf '[t]\nfilename=/dev/loop7\nrw=randtrim\nbs=4k\n' >"$TESTDIR/t.fio"
	run "$IOSWEEP" import "$TESTDIR/t.fio" -o "$TESTDIR/t.ini"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning:"*"add 'allow_write = /dev/loop7' to the job"* ]]
	grep -qx 'op = trim' "$TESTDIR/t.ini"
	grep -qx 'pattern = random' "$TESTDIR/t.ini"
	grep -q "^;.*add 'allow_write = /dev/loop7'" "$TESTDIR/t.ini"
	! grep -q '^allow_write' "$TESTDIR/t.ini"
}

@test "a fio read job on a device imports without a size, and runs over the whole device" {
	loopdev
	printf '[r]\nfilename=%s\nrw=randread\nbs=64k\ndirect=1\n' "$DEV" >"$TESTDIR/r.fio"
	run "$IOSWEEP" import "$TESTDIR/r.fio" -o "$TESTDIR/r.ini"
	[ "$status" -eq 0 ]
	! grep -q '^size' "$TESTDIR/r.ini"
	! grep -q 'allow_write' "$TESTDIR/r.ini"
	run "$IOSWEEP" run "$TESTDIR/r.ini" --quiet -o json:"$TESTDIR/r.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(rep reads)" = 64 ]
	[ "$(rep bytes)" = 4194304 ]
}

@test "plan counts a trim run's trims and their bytes" {
	head -c $SIZE /dev/urandom >"$TESTDIR/f"
	tjob t "$TESTDIR/f" trim "allow_write = $TESTDIR/f\n"
	run "$IOSWEEP" plan "$TESTDIR/t.ini"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"16 trims of 1048576 bytes (1MiB)"* ]]
	"$IOSWEEP" plan "$TESTDIR/t.ini" -o json >"$TESTDIR/p.json"
	[ "$(json_get "$TESTDIR/p.json" "(d['runs'][0]['trims'], d['runs'][0]['trim_bytes'], d['runs'][0]['bytes'], d['total']['trims'])")" = "(16, 1048576, 1048576, 16)" ]
	# nothing was trimmed by planning
	[ "$(data_at "$TESTDIR/f")" = 0 ]
}
