#!/usr/bin/env bats
# A device that goes away during a run: a loop device shrunk to nothing mid-run (its file
# truncated to 0, then `losetup -c`), which is what an unplugged disk does (capacity 0, every
# I/O fails with EIO).  `losetup -d` cannot do it: an open loop device is only marked to detach
# at its last close.  The run ends with one line, keeps what it measured before, marked
# interrupted, and exits 1.

load helpers

DEV=
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

teardown() {
	[ -n "$DEV" ] && losetup -d "$DEV"
	rm -rf "$TESTDIR"
}

# loopdev: DEV over $TESTDIR/back (4 MiB of random data), or skip
loopdev() {
	[ "$(id -u)" -eq 0 ] || skip "loop devices need root"
	BACK=$TESTDIR/back
	head -c 4194304 /dev/urandom >"$BACK"
	DEV=$(losetup -f --show "$BACK" 2>/dev/null) || skip "cannot create a loop device here"
	udevadm settle 2>/dev/null || true
}

# dev_ios: the reads (W unset) or writes (W=1) the device has completed; a write run's checks
# read the device (libblkid's probe), its measured part writes
dev_ios() {
	awk -v w="${W:-}" '{ print w ? $5 : $1 }' "/sys/block/${DEV#/dev/}/stat"
}

# shrink_after_start BASE: waits until DEV completed 4 I/Os more than BASE, then shrinks it to nothing
shrink_after_start() {
	for _ in $(seq 400); do
		[ "$(dev_ios)" -ge $(($1 + 4)) ] && break
		sleep 0.05
	done
	truncate -s 0 "$BACK"
	losetup -c "$DEV"
}

# rep KEY: figure KEY of the first repeat of the first run in r.json
rep() {
	$PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["repeats"][0][sys.argv[2]])' \
		"$TESTDIR/r.json" "$1"
}

# gone_run NAME: runs NAME.ini while the device goes away under it
gone_run() {
	local base
	base=$(dev_ios)
	shrink_after_start "$base" &
	run "$IOSWEEP" run "$TESTDIR/$1.ini" --quiet -o json:"$TESTDIR/r.json"
	wait
	echo "$output"
}

@test "a device that goes away during a read run: one line, what was read is kept and marked interrupted, exit 1" {
	loopdev
	# 64 reads at 20 a second: the device goes while the run is reading
	job g "[g]\nfilename = $DEV\nbs = 64k\ncache = direct\nrate_iops = 20\nrepeat = 2\n"
	gone_run g
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	# a read in flight as the size drops sees EIO, one after it the new end
	[[ "$output" == "iosweep: run 0 (job 'g'): $DEV: read at offset "*": Input/output error (the device failed or went away during the run: what was measured before is kept, marked interrupted)" ||
	   "$output" == "iosweep: run 0 (job 'g'): $DEV: unexpected end of file at offset "*" (the device failed or went away during the run: what was measured before is kept, marked interrupted)" ]]
	[ "$(json_get "$TESTDIR/r.json" "d['runs'][0]['failed']")" = True ]
	[ "$(json_get "$TESTDIR/r.json" "len(d['runs'][0]['repeats'])")" = 1 ]
	[ "$(rep interrupted)" = True ]
	reads=$(rep reads)
	[ "$reads" -ge 4 ]
	[ "$reads" -lt 64 ]
	[ "$(rep bytes)" = $((reads * 65536)) ]
	# out of every summary
	[ "$(json_get "$TESTDIR/r.json" "d['runs'][0]['summary']['reads']['n']")" = 0 ]
}

@test "a device that goes away during a write run ends it the same way" {
	loopdev
	W=1
	job g "[g]\nfilename = $DEV\nop = write\nallow_write = $DEV\nbs = 64k\ncache = direct\nrate_iops = 20\nrepeat = 1\n"
	gone_run g
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"$DEV: write at offset "*"(the device failed or went away during the run: what was measured before is kept, marked interrupted)" ]]
	[ "$(rep interrupted)" = True ]
	writes=$(rep writes)
	[ "$writes" -ge 4 ]
	[ "$writes" -lt 64 ]
}
