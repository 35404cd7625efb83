#!/usr/bin/env bats
# Writes to a block device: only with allow_write naming it, and never when anything on it could
# be destroyed unawares (mounted, swap, claimed, a signature not named, read-only, the root disk).
# Each test makes its own loop device over a file (losetup -f --show) and detaches only that one.
# A refusal is checked against the whole backing file: not a byte of it changes.

load helpers

SIZE=4194304
# Debian's python3 directly: the one on PATH may be a slow-starting shim
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# host_device FILE: "NAME SIZE_BYTES MODEL SERIAL" of the run's host.device
host_device() {
	$PY -c 'import json,sys; d=json.load(open(sys.argv[1]))["host"]["device"]; print(d["name"], d["size_bytes"], d["model"], d["serial"])' "$1"
}

# written_bytes FILE: "VERIFIED WRITTEN" bytes of the first repeat of the first run
written_bytes() {
	$PY -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"][0]["repeats"][0]; print(r["verified_bytes"], r["write_bytes"])' "$1"
}

# loopdev [LOSETUP-OPTIONS...]: DEV, a new loop device over $TESTDIR/back (SIZE bytes of random
# data); BACK its file; skip when loop devices cannot be made here
loopdev() {
	[ "$(id -u)" -eq 0 ] || skip "loop devices need root"
	BACK=$TESTDIR/back
	head -c $SIZE /dev/urandom >"$BACK"
	DEV=$(losetup -f --show "$@" "$BACK" 2>/dev/null) || skip "cannot create a loop device here"
	[ -b "$DEV" ] || skip "losetup gave no block device"
}

teardown() {
	[ -n "${HOLDER:-}" ] && kill "$HOLDER" 2>/dev/null && wait "$HOLDER" 2>/dev/null
	[ -n "${SWAP:-}" ] && swapoff "$SWAP" 2>/dev/null
	mountpoint -q "$TESTDIR/mnt" 2>/dev/null && umount "$TESTDIR/mnt"
	# partitions added with partx outlive the loop device's detaching: deleted first
	[ -n "${PART:-}" ] && partx -d "$DEV" 2>/dev/null
	[ -n "${DEV:-}" ] && losetup -d "$DEV"
	rm -rf "$TESTDIR"
}

# wjob NAME NODE [LINES]: a job writing the whole of NODE sequentially (bs 64k, one repeat,
# verify = after, seed 5), with LINES added
wjob() {
	job "$1" "[w]\nfilename = $2\nop = write\nbs = 64k\nrepeat = 1\nseed = 5\nverify = after\n${3:-}"
}

# refused_nothing_written NAME TEXT: `iosweep run NAME.ini` exits 2 with one line saying TEXT,
# and the backing file is what it was
refused_nothing_written() {
	local before
	before=$(sha256sum <"$BACK")
	run "$IOSWEEP" run "$TESTDIR/$1.ini" --quiet -o json:"$TESTDIR/$1.json"
	echo "$output"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"$2"* ]]
	[ ! -e "$TESTDIR/$1.json" ]
	[ "$(sha256sum <"$BACK")" = "$before" ]
}

# written_as_generated [OFFSET]: the device's bytes from OFFSET (0) on, SIZE - OFFSET of them,
# are what a write of seed 5 puts there (wdata.py, independent of iosweep), checked through the
# backing file; the run's verify read them all back
written_as_generated() {
	local off=${1:-0}
	[ "$status" -eq 0 ]
	[ "$(written_bytes "$TESTDIR/w.json")" = "$((SIZE - off)) $((SIZE - off))" ]
	blockdev --flushbufs "$DEV" # the device's cache, down to the file
	$PY "$BATS_TEST_DIRNAME/wdata.py" bytes 5 0 $((SIZE - off)) |
		cmp - <(tail -c +$((off + 1)) "$BACK")
}

@test "a device is not written without allow_write naming it, and nothing changes" {
	loopdev
	wjob w "$DEV"
	refused_nothing_written w "$DEV is a block device: iosweep writes a device only when the job names it (add 'allow_write = $DEV'"
	wjob w "$DEV" "allow_write = $TESTDIR/back\n"
	refused_nothing_written w "allow_write names '$TESTDIR/back' but the job writes '$DEV'"
	# what only a file can do, or more than the device holds
	wjob w "$DEV" "allow_write = $DEV\nalloc = allocate\n"
	refused_nothing_written w "alloc=allocate empties or preallocates a file, and $DEV is a block device: use alloc=overwrite"
	wjob w "$DEV" "allow_write = $DEV\nsize = 5m\n"
	refused_nothing_written w "w.ini:9: $DEV is a block device of $SIZE bytes, smaller than size=5MiB: give size=4MiB or less, or no size"
	# the signature's consent is for devices only: on a file it is refused, not ignored
	wjob w "$TESTDIR/back" "allow_write = $TESTDIR/back\nallow_overwrite_signature = ext4\n"
	refused_nothing_written w "w.ini:9: allow_overwrite_signature is for block devices, and $TESTDIR/back is not one: remove it"
	wjob w "$DEV" "allow_write = $DEV\nallow_overwrite_signature =\n"
	refused_nothing_written w "allow_overwrite_signature: empty value"
}

@test "an unused device without signatures is written with allow_write, all of it, as generated" {
	loopdev
	wjob w "$DEV" "allow_write = $DEV\n"
	run "$IOSWEEP" check "$TESTDIR/w.ini"
	[ "$status" -eq 0 ]
	[[ "$output" == *"writes $DEV (block device, checked unused: allow_write): 4MiB per repeat"* ]]
	run "$IOSWEEP" run "$TESTDIR/w.ini" --quiet -o json:"$TESTDIR/w.json"
	written_as_generated
	# the host facts name the drive and its size (a loop device has no model or serial)
	[ "$(host_device "$TESTDIR/w.json")" = "${DEV#/dev/} $SIZE None None" ]
	# the device node is on devtmpfs; the device itself keeps what was written
	[ "$(json_get "$TESTDIR/w.json" "d['runs'][0]['memory_fs']")" = None ]
}

@test "an ext4 on the device is refused, and destroyed only when allow_overwrite_signature names it" {
	loopdev
	command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
	mkfs.ext4 -q -F "$DEV"
	uuid=$(blkid -p -o value -s UUID "$DEV")
	wjob w "$DEV" "allow_write = $DEV\n"
	refused_nothing_written w "$DEV carries an ext4 file system (UUID $uuid); add allow_overwrite_signature = ext4 to destroy it"
	wjob w "$DEV" "allow_write = $DEV\nallow_overwrite_signature = xfs\n"
	refused_nothing_written w "add allow_overwrite_signature = ext4 to destroy it"
	wjob w "$DEV" "allow_write = $DEV\nallow_overwrite_signature = ext4\n"
	run "$IOSWEEP" plan "$TESTDIR/w.ini"
	[[ "$output" == *"(block device, checked unused: allow_write, allow_overwrite_signature = ext4)"* ]]
	run "$IOSWEEP" run "$TESTDIR/w.ini" --quiet -o json:"$TESTDIR/w.json"
	written_as_generated
	[ -z "$(blkid -p -o value -s TYPE "$DEV")" ]
}

@test "a mounted device is refused whatever the job says, and its file system is untouched" {
	loopdev
	command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
	mkfs.ext4 -q -F "$DEV"
	mkdir "$TESTDIR/mnt"
	mount "$DEV" "$TESTDIR/mnt"
	wjob w "$DEV" "allow_write = $DEV\nallow_overwrite_signature = ext4\n"
	refused_nothing_written w "$DEV is mounted at $TESTDIR/mnt: writing it would destroy that file system (unmount it first: umount $TESTDIR/mnt)"
}

@test "a device in use as swap is refused, with what would make it safe" {
	loopdev
	mkswap -q "$DEV" >/dev/null 2>&1 || skip "no mkswap"
	swapon "$DEV" 2>/dev/null || skip "swapon is not allowed here"
	SWAP=$DEV
	wjob w "$DEV" "allow_write = $DEV\nallow_overwrite_signature = swap\n"
	refused_nothing_written w "$DEV is in use as swap ($DEV): writing it would corrupt memory (swapoff $DEV first)"
}

@test "a device another process holds open with O_EXCL is refused" {
	loopdev
	"$HELPERS/holdexcl" "$DEV" >"$TESTDIR/held" &
	HOLDER=$!
	wait_for grep -q held "$TESTDIR/held"
	wjob w "$DEV" "allow_write = $DEV\n"
	refused_nothing_written w "$DEV is held open exclusively by another process"
}

@test "a partition table is a signature: refused unless named (dos), and the table is destroyed then" {
	loopdev
	command -v sfdisk >/dev/null || skip "no sfdisk"
	printf 'label: dos\n,1M\n,\n' | sfdisk -q "$DEV" >/dev/null 2>&1
	wjob w "$DEV" "allow_write = $DEV\n"
	refused_nothing_written w "$DEV carries a dos partition table"
	wjob w "$DEV" "allow_write = $DEV\nallow_overwrite_signature = dos\n"
	run "$IOSWEEP" run "$TESTDIR/w.ini" --quiet -o json:"$TESTDIR/w.json"
	written_as_generated
}

# partition DEV N: PART, the device node of partition N of DEV (the kernel told with partx -a);
# skip when the partitions cannot be added here
partition() {
	local n=${DEV#/dev/}
	command -v sfdisk >/dev/null && command -v partx >/dev/null || skip "no sfdisk or partx"
	partx -d "$DEV" 2>/dev/null || true # any left by an earlier device of this number
	PART=${DEV}p$1
	partx -a "$DEV" 2>/dev/null || true
	[ -e "/sys/block/$n/${n}p$1/dev" ] || skip "the kernel adds no partitions to loop devices here"
	wait_for test -b "$PART" || skip "no device node for $PART"
}

@test "a partition is written when it passes the checks itself: its disk's partition table is no reason" {
	loopdev
	printf 'label: dos\n,1M\n,\n' | sfdisk -q "$DEV" >/dev/null 2>&1 || skip "sfdisk failed"
	partition 2
	start=$(($(cat "/sys/block/${DEV#/dev/}/${DEV#/dev/}p2/start") * 512))
	pbytes=$(blockdev --getsize64 "$PART")
	before=$(head -c "$start" "$BACK" | sha256sum)
	job w "[w]\nfilename = $PART\nop = write\nbs = 64k\nrepeat = 1\nseed = 5\nverify = after\nallow_write = $PART\n"
	run "$IOSWEEP" run "$TESTDIR/w.ini" --quiet -o json:"$TESTDIR/w.json"
	[ "$status" -eq 0 ]
	[ "$(written_bytes "$TESTDIR/w.json")" = "$pbytes $pbytes" ]
	blockdev --flushbufs "$PART"
	$PY "$BATS_TEST_DIRNAME/wdata.py" bytes 5 0 "$pbytes" |
		cmp - <(tail -c +$((start + 1)) "$BACK" | head -c "$pbytes")
	# the table and the first partition are as they were
	[ "$(head -c "$start" "$BACK" | sha256sum)" = "$before" ]
	# the host facts are the whole disk's
	[ "$(host_device "$TESTDIR/w.json")" = "${DEV#/dev/} $SIZE None None" ]
}

@test "the whole disk is refused while a partition of it is mounted" {
	loopdev
	command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
	printf 'label: dos\n,1M\n,\n' | sfdisk -q "$DEV" >/dev/null 2>&1 || skip "sfdisk failed"
	partition 1
	mkfs.ext4 -q -F "$PART"
	mkdir "$TESTDIR/mnt"
	mount "$PART" "$TESTDIR/mnt"
	wjob w "$DEV" "allow_write = $DEV\nallow_overwrite_signature = dos\n"
	refused_nothing_written w "$DEV: $PART, a partition of it, is mounted at $TESTDIR/mnt"
}

@test "a read-only device is refused for writes, and still read" {
	loopdev -r
	wjob w "$DEV" "allow_write = $DEV\n"
	refused_nothing_written w "$DEV is a read-only device: it cannot be written"
	job r "[r]\nfilename = $DEV\nbs = 64k\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/r.ini" --quiet -o json:"$TESTDIR/r.json"
	[ "$status" -eq 0 ]
	[ "$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["repeats"][0]["checksum"])' "$TESTDIR/r.json")" = \
		"$($PY "$BATS_TEST_DIRNAME/offsets.py" sequential $SIZE 65536 65536 0 1 | "$HELPERS/refsum" "$BACK")" ]
}

@test "a device named through a link is written when allow_write repeats the link; the node alone is not the consent" {
	loopdev
	ln -s "$DEV" "$TESTDIR/disk-by-id"
	wjob w "$TESTDIR/disk-by-id" "allow_write = $DEV\n"
	refused_nothing_written w "allow_write names '$DEV' but the job writes '$TESTDIR/disk-by-id'"
	wjob w "$TESTDIR/disk-by-id" "allow_write = $TESTDIR/disk-by-id\n"
	run "$IOSWEEP" run "$TESTDIR/w.ini" --quiet -o json:"$TESTDIR/w.json"
	written_as_generated
}

@test "the disk under the root file system is refused whatever the job says" {
	root=$(findmnt -n -o SOURCE / 2>/dev/null || true)
	[ -b "$root" ] || skip "the root file system is not on a block device here"
	job w "[w]\nfilename = $root\nop = write\nallow_write = $root\nallow_overwrite_signature = $(blkid -p -o value -s TYPE "$root" 2>/dev/null || echo ext4)\n"
	# check only: it never writes, whatever it decides
	run "$IOSWEEP" check "$TESTDIR/w.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *"$root is the disk under the root file system (or part of it): iosweep never writes it, whatever the job says"* ]]
}

@test "cache=direct on a device of 4096-byte logical blocks: bs 512 is refused, bs 4k is written" {
	loopdev --sector-size 4096
	[ "$(blockdev --getss "$DEV")" = 4096 ] || skip "no 4096-byte sectors for loop devices here"
	wjob w "$DEV" "allow_write = $DEV\ncache = direct\n"
	sed -i 's/^bs = 64k/bs = 512/' "$TESTDIR/w.ini"
	refused_nothing_written w "cache=direct needs bs and spacing to be multiples of the device's logical block size (4096)"
	sed -i 's/^bs = 512/bs = 4k/' "$TESTDIR/w.ini"
	run "$IOSWEEP" run "$TESTDIR/w.ini" --quiet -o json:"$TESTDIR/w.json"
	written_as_generated
}

@test "every engine and pattern reads a device, buffered and direct, with the checksum of its bytes" {
	loopdev
	job r "[r]\nfilename = $DEV\nbs = 64k\nrepeat = 1\nengine = sync, aio, uring, psync2\npattern = sequential, random\ncache = fadvise, direct\n[m]\nfilename = $DEV\nbs = 64k\nrepeat = 1\nengine = mmap\npattern = sequential, random\n"
	run "$IOSWEEP" run "$TESTDIR/r.ini" --quiet -o json:"$TESTDIR/r.json"
	[ "$status" -eq 0 ]
	want=$($PY "$BATS_TEST_DIRNAME/offsets.py" sequential $SIZE 65536 65536 0 1 | "$HELPERS/refsum" "$BACK")
	# size is the device's: 64 blocks of 64 KiB, read once each
	$PY -c 'import json,sys
d = json.load(open(sys.argv[1]))
for r in d["runs"]:
    print(r["params"]["size"], r["repeats"][0]["reads"], r["repeats"][0]["checksum"])' "$TESTDIR/r.json" | sort | uniq -c >"$TESTDIR/got"
	[ "$(cat "$TESTDIR/got" | tr -s ' ')" = " 18 $SIZE 64 $want" ]
}

@test "every engine writes a consented device, each run verified, the device left as generated" {
	loopdev
	wjob w "$DEV" "allow_write = $DEV\nengine = sync, aio, uring, psync2, mmap\npattern = random\n"
	run "$IOSWEEP" run "$TESTDIR/w.ini" --quiet -o json:"$TESTDIR/w.json"
	[ "$status" -eq 0 ]
	[ "$($PY -c 'import json,sys; print(sorted({r["repeats"][0]["verified_bytes"] for r in json.load(open(sys.argv[1]))["runs"]}), len(json.load(open(sys.argv[1]))["runs"]))' "$TESTDIR/w.json")" = "[$SIZE] 5" ]
	blockdev --flushbufs "$DEV"
	$PY "$BATS_TEST_DIRNAME/wdata.py" bytes 5 0 $SIZE | cmp - "$BACK"
}

@test "while a run writes a device it holds it O_EXCL: nobody can claim (or mount) it meanwhile" {
	loopdev
	head -c 65536 "$BACK" >"$TESTDIR/first"
	# 1 MiB at 256 KiB/s: the run lasts about 4 s, written as it goes (O_DIRECT)
	wjob w "$DEV" "allow_write = $DEV\ncache = direct\nsize = 1m\nrate = 256k\n"
	"$IOSWEEP" run "$TESTDIR/w.ini" --quiet -o json:"$TESTDIR/w.json" &
	pid=$!
	# its first write has reached the device: it is claimed by now
	wait_for bash -c "! head -c 65536 '$BACK' | cmp -s - '$TESTDIR/first'"
	run timeout 10 "$HELPERS/holdexcl" "$DEV" # 124 (timed out holding it) if it got the claim
	[ "$status" -eq 1 ]
	[[ "$output" == *"Device or resource busy"* ]]
	wait "$pid"
	# released at the end
	"$HELPERS/holdexcl" "$DEV" >"$TESTDIR/held" &
	HOLDER=$!
	wait_for grep -q held "$TESTDIR/held"
}

@test "a signal during a device write ends the run with what was measured, marked, and releases the device" {
	loopdev
	head -c 65536 "$BACK" >"$TESTDIR/first"
	wjob w "$DEV" "allow_write = $DEV\ncache = direct\nsize = 1m\nrate = 128k\nthreads = 2\n"
	"$IOSWEEP" run "$TESTDIR/w.ini" --quiet -o json:"$TESTDIR/w.json" &
	pid=$!
	wait_for bash -c "! head -c 65536 '$BACK' | cmp -s - '$TESTDIR/first'"
	stop_with INT "$pid"
	[ "$($PY -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["interrupted"], d["runs"][0]["repeats"][0]["interrupted"] if d["runs"][0]["repeats"] else "none")' "$TESTDIR/w.json")" = "True True" ]
	# nothing holds the device any more
	"$HELPERS/holdexcl" "$DEV" >"$TESTDIR/held" &
	HOLDER=$!
	wait_for grep -q held "$TESTDIR/held"
}
