#!/usr/bin/env bats
# What the device did: the counters of the block device under a run, against
# the counts the run must produce on a loop device of its own (attached here,
# detached in teardown whatever happened), with read-ahead off and on.

load helpers

LOOP=
MNT=

# loop_dev MIB: LOOP, a loop device over a new file of MIB MiB of random
# bytes, settled (udev's probe of a new device is done before we measure),
# or skip when there is none to be had
loop_dev() {
	[ "$(id -u)" -eq 0 ] || skip "needs root for losetup"
	head -c "$1M" /dev/urandom >"$TESTDIR/back.img"
	LOOP=$(losetup -f --show "$TESTDIR/back.img" 2>/dev/null) || skip "no loop device"
	udevadm settle 2>/dev/null || true
}

teardown() {
	[ -z "$MNT" ] || umount "$MNT"
	[ -z "$LOOP" ] || losetup -d "$LOOP"
	rm -rf "$TESTDIR" ${SHM:+"$SHM"}
}

# get EXPR: a Python expression on r.json (`d`), by the system's python (fast to start)
get() {
	/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' \
		"$TESTDIR/r.json" "$1"
}

# dev RUN REPEAT KEY: the device figure KEY of that repeat in r.json
dev() {
	get "d['runs'][$1]['repeats'][$2]['device']['$3']"
}

# app RUN REPEAT KEY: the run's own figure
app() {
	get "d['runs'][$1]['repeats'][$2]['$3']"
}

@test "with read-ahead off, a cold buffered read makes the device read exactly the run's bytes" {
	loop_dev 16
	blockdev --setra 0 "$LOOP"
	job r "[a]\nfilename = $LOOP\nsize = 4m\nbs = 64k, 4k\ncache = fadvise\nrepeat = 2\n"
	run "$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json" -o csv:"$TESTDIR/r.csv"
	[ "$status" -eq 0 ]
	[ "$(get "d['runs'][0]['device']")" = "$(basename "$LOOP")" ]
	# every repeat of both runs: the device read exactly the run's 4 MiB, wrote nothing
	/usr/bin/python3 - "$TESTDIR/r.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for run in d["runs"]:
    for rep in run["repeats"]:
        dev = rep["device"]
        assert rep["read_bytes"] == 4194304, rep["read_bytes"]
        assert dev["read_bytes"] == 4194304 and dev["write_bytes"] == 0, dev
        assert dev["read_amp"] == 1 and dev["read_excess_bytes"] == 0, dev
        assert dev["write_amp"] is None, dev
PY
	# the table says 1.00 for both runs, and nothing is foreign
	echo "$output" | grep -E '^0 +64KiB .* 1\.00× '
	echo "$output" | grep -E '^1 +4KiB .* 1\.00× '
	! echo "$output" | grep -q 'another process'
	# CSV: the same figure under its flat name
	col=$(head -n1 "$TESTDIR/r.csv" | tr ',' '\n' | grep -nx dev_read_bytes | cut -d: -f1)
	[ "$(tail -n +2 "$TESTDIR/r.csv" | cut -d, -f"$col" | sort -u)" = 4194304 ]
}

@test "with read-ahead on, the device reads more than a sparse buffered read asks, within its window" {
	loop_dev 16
	blockdev --setra 256 "$LOOP"
	# 16 reads of 4 KiB, 1 MiB apart: each miss reads ahead
	job r "[a]\nfilename = $LOOP\nsize = 16m\nbs = 4k\nspacing = 1m\ncache = fadvise\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json"
	[ "$status" -eq 0 ]
	[ "$(app 0 0 read_bytes)" -eq 65536 ]
	bytes=$(dev 0 0 read_bytes)
	# more than the run read, at most a 128 KiB window per read
	/usr/bin/python3 -c "import sys; b = float(sys.argv[1]); sys.exit(not (65536 < b <= 16 * (4096 + 131072)))" "$bytes"
	/usr/bin/python3 -c "import sys; sys.exit(not float(sys.argv[1]) > 1)" "$(dev 0 0 read_amp)"
	[ "$(dev 0 0 read_excess_bytes)" = 0.0 ]
	echo "$output" | grep -E '^0 .* [0-9.]+× ' | grep -vq ' 1\.00× '
}

@test "O_DIRECT reads reach the device as they are: its bytes are the run's, read-ahead or not" {
	loop_dev 16
	blockdev --setra 256 "$LOOP"
	job r "[a]\nfilename = $LOOP\nsize = 8m\nbs = 128k\ncache = direct\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json"
	[ "$status" -eq 0 ]
	[ "$(dev 0 0 read_bytes)" = 8388608.0 ]
	[ "$(dev 0 0 read_amp)" = 1.0 ]
	# each request at most as many as the run's (merges only join them)
	/usr/bin/python3 -c "import sys; sys.exit(not 0 < float(sys.argv[1]) <= 64)" "$(dev 0 0 reads)"
}

foreign_shim() {
	if [ -e "$HELPERS/foreign_shim.so" ]; then
		echo "$HELPERS/foreign_shim.so"
	else
		cc -shared -fPIC -o "$TESTDIR/foreign_shim.so" \
			"$BATS_TEST_DIRNAME/../shim/foreign_shim.c" -ldl &&
			echo "$TESTDIR/foreign_shim.so"
	fi
}

@test "device reads the run did not do are counted beyond its bytes and noted as another process's" {
	loop_dev 16
	blockdev --setra 0 "$LOOP"
	shim=$(foreign_shim)
	job r "[a]\nfilename = $LOOP\nsize = 1m\nbs = 64k\ncache = direct\nrepeat = 1\n"
	IOSWEEP_FOREIGN_DEV=$LOOP IOSWEEP_FOREIGN_OFFSET=$((8 << 20)) IOSWEEP_FOREIGN_BYTES=$((4 << 20)) \
		LD_PRELOAD=$shim run "$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json"
	[ "$status" -eq 0 ]
	# 1 MiB the run's, 4 MiB the other's; 1 MiB of them allowed for metadata
	[ "$(dev 0 0 read_bytes)" = 5242880.0 ]
	[ "$(dev 0 0 read_amp)" = 5.0 ]
	[ "$(dev 0 0 read_excess_bytes)" = 3145728.0 ]
	echo "$output" | grep -qx "run 0: its device ($(basename "$LOOP")) read up to 3.15 MB more than the run's I/O explains:"
	echo "$output" | grep -qx '  another process used it during the measurement (dev_read_excess_bytes in JSON)'
}

@test "a file on tmpfs has no device figures: null in JSON, empty in CSV, - in the table with the reason once" {
	use_tmpfs
	head -c 256k /dev/urandom >"$SHM/f"
	job r "[a]\nfilename = $SHM/f\nbs = 4k, 64k\ncache = keep\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json" -o csv:"$TESTDIR/r.csv" -o table:"$TESTDIR/r.txt"
	[ "$status" -eq 0 ]
	[ "$(get "d['runs'][1]['device']")" = None ]
	[ "$(get "d['runs'][1]['device_absent']")" = "its file system (tmpfs) has no block device" ]
	[ "$(dev 0 0 read_bytes)" = None ]
	[ "$(dev 1 0 read_amp)" = None ]
	col=$(head -n1 "$TESTDIR/r.csv" | tr ',' '\n' | grep -nx dev_read_bytes | cut -d: -f1)
	[ "$(tail -n +2 "$TESTDIR/r.csv" | cut -d, -f"$col" | sort -u)" = "" ]
	grep -E '^0 .* - ' "$TESTDIR/r.txt"
	grep -E '^1 .* - ' "$TESTDIR/r.txt"
	[ "$(grep -c 'no device statistics' "$TESTDIR/r.txt")" -eq 1 ]
	grep -qx 'dev/app -: run 0 and others like it: no device statistics: its file system (tmpfs) has no block device' "$TESTDIR/r.txt"
}

@test "a file on ext4 on the device: a synced write reaches it whole, within what a journal explains" {
	loop_dev 32
	command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
	# no lazy init: its kernel thread would write the inode tables during the runs
	mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 "$LOOP"
	mkdir "$TESTDIR/mnt"
	mount "$LOOP" "$TESTDIR/mnt" || skip "cannot mount ext4 here"
	MNT=$TESTDIR/mnt
	job r "[a]\nfilename = $MNT/f\nsize = 4m\nbs = 64k\nop = write\nsync = end\nrepeat = 2\n"
	run "$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json"
	[ "$status" -eq 0 ]
	[ "$(get "d['runs'][0]['device']")" = "$(basename "$LOOP")" ]
	/usr/bin/python3 - "$TESTDIR/r.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for rep in d["runs"][0]["repeats"]:
    dev = rep["device"]
    assert rep["write_bytes"] == 4194304, rep["write_bytes"]
    # the flush at the end made every byte reach the device before the sample
    assert 4194304 <= dev["write_bytes"] <= 2 * 4194304 + (1 << 20), dev
    assert dev["write_amp"] >= 1 and dev["write_excess_bytes"] == 0, dev
    assert dev["read_amp"] is None, dev
PY
	! echo "$output" | grep -q 'another process'
}

@test "a run with an unmeasured ramp has no device figures, and says why" {
	head -c 256k /dev/urandom >"$TESTDIR/f"
	job r "[a]\nfilename = $TESTDIR/f\nbs = 4k\nrepeat = 1\ncache = keep\ntime_based = 1\nruntime = 50ms\nramp = 50ms\n"
	run "$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json"
	[ "$status" -eq 0 ]
	[ "$(get "d['runs'][0]['device']")" = None ]
	[ "$(get "d['runs'][0]['device_absent']")" = "its ramp is not measured, and the device's counters cannot leave it out" ]
	[ "$(dev 0 0 read_bytes)" = None ]
	echo "$output" | grep -qx "dev/app -: run 0: no device statistics: its ramp is not measured, and the device's counters cannot leave it out"
}

@test "per interval of a series: the device's reads add up to the repeat's, read-ahead off and on" {
	loop_dev 8
	for ra in 0 256; do
		blockdev --setra $ra "$LOOP"
		# 64 reads at 40 a second, intervals of 250 ms: six or more; direct (the device reads
		# exactly the run's bytes) and buffered (read-ahead: the intervals add up to the repeat)
		job r "[a]\nfilename = $LOOP\nsize = 4m\nbs = 64k\ncache = direct, fadvise\nrate_iops = 40\ninterval = 250ms\nrepeat = 1\n"
		run "$IOSWEEP" run "$TESTDIR/r.ini" --quiet -o json:"$TESTDIR/r.json" -o series:"$TESTDIR/s.csv"
		[ "$status" -eq 0 ]
		/usr/bin/python3 - "$TESTDIR/r.json" "$TESTDIR/s.csv" <<'PY'
import csv, json, sys
d = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
for i, run in enumerate(d["runs"]):
    rep = run["repeats"][0]
    dev = rep["device"]
    iv = rep["series"]["intervals"]
    assert len(iv) >= 3, len(iv)
    assert all(p["device"] is not None for p in iv), iv
    # the intervals' samples telescope: they add up to the repeat's exactly
    assert sum(p["device"]["ios"] for p in iv) == dev["reads"], (iv, dev)
    assert sum(p["device"]["bytes"] for p in iv) == dev["read_bytes"], (iv, dev)
    assert all(p["device"]["busy_s"] >= 0 and p["device"]["queue_depth"] >= 0 for p in iv)
    if i == 0:  # direct: the device read what the run read, 64 reads of 64 KiB
        assert dev["reads"] == 64 and dev["read_bytes"] == 4194304, dev
    mine = [r for r in rows if r["run"] == str(i)]
    assert [int(r["dev_bytes"]) for r in mine] == [p["device"]["bytes"] for p in iv], mine
PY
	done
}
