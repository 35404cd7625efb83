#!/usr/bin/env bats
# A real cliff: O_DIRECT reads of a loop device at 8 MiB/s (rate) until the
# device has read 8 MiB, when a helper (throttle_at) switches the kernel's I/O
# throttle of iosweep's cgroup to 1 MiB/s: cgroup v2's io.max where the io
# controller is there, else cgroup v1's blkio.throttle.read_bps_device (the
# same throttle).  The cliff must be reported within 2% of those 8 MiB, and
# stop_at_cliff must end the repeat there.  Needs root and losetup.

load helpers

LOOPDEV=
CG=

setup() {
	TESTDIR=$(mktemp -d "${IOSWEEP_TEST_DIR:-/var/tmp}/iosweep-bats.XXXXXX")
	export IOSWEEP_DIR=$TESTDIR
}

teardown() {
	# the throttle off, the (empty) cgroup and the loop device gone
	if [ -n "$CG" ] && [ -d "$CG" ]; then
		printf '%s' "$THROTTLE_OFF" >"$CG/$CONTROL" 2>/dev/null || true
		rmdir "$CG" 2>/dev/null || true
	fi
	[ -z "$LOOPDEV" ] || losetup -d "$LOOPDEV" 2>/dev/null || true
	rm -rf "$TESTDIR"
}

# the cgroup (CG), its throttle file (CONTROL) and the texts that set a read
# limit on MAJ:MIN (throttle_text) and lift it (THROTTLE_OFF); or skip, saying why
find_throttle() {
	local mm=$1 v2=
	if [ "$(stat -fc %T /sys/fs/cgroup 2>/dev/null)" = cgroup2fs ]; then
		v2=/sys/fs/cgroup
	elif [ "$(stat -fc %T /sys/fs/cgroup/unified 2>/dev/null)" = cgroup2fs ]; then
		v2=/sys/fs/cgroup/unified
	fi
	if [ -n "$v2" ] && grep -qw io "$v2/cgroup.controllers" 2>/dev/null; then
		printf '+io' >"$v2/cgroup.subtree_control" 2>/dev/null || true
		CG=$v2/iosweep-cliff-$$
		CONTROL=io.max
		THROTTLE_ON="$mm rbps=1048576"
		THROTTLE_OFF="$mm rbps=max"
	elif [ -f /sys/fs/cgroup/blkio/blkio.throttle.read_bps_device ]; then
		CG=/sys/fs/cgroup/blkio/iosweep-cliff-$$
		CONTROL=blkio.throttle.read_bps_device
		THROTTLE_ON="$mm 1048576"
		THROTTLE_OFF="$mm 0"
	else
		skip "no I/O throttle: cgroup v2 without the io controller and no cgroup v1 blkio"
	fi
	mkdir -p "$CG" || skip "cannot make a cgroup in ${CG%/*}"
	[ -f "$CG/$CONTROL" ] || skip "$CG has no $CONTROL"
}

@test "a loop device throttled after 8 MiB read: the cliff is reported within 2% of 8 MiB and stop_at_cliff ends the repeat there" {
	[ "$(id -u)" -eq 0 ] || skip "needs root (losetup, cgroups)"
	command -v losetup >/dev/null || skip "losetup is not installed"
	head -c 64M /dev/urandom >"$TESTDIR/img"
	sync "$TESTDIR/img" # no writeback of it during the run
	LOOPDEV=$(losetup -f --show "$TESTDIR/img") || skip "no loop device"
	# udev's probe of the new device is done before its read count is taken
	! command -v udevadm >/dev/null || udevadm settle --timeout=10 || true
	local name=${LOOPDEV#/dev/} mm
	mm=$(cat "/sys/block/$name/dev")
	find_throttle "$mm"
	job t "[t]\nfilename = $LOOPDEV\nbs = 64k\nengine = sync\ncache = direct\nrepeat = 1\ntime_based = 1\nruntime = 4s\ninterval = 250ms\nrate = 8m\nstop_at_cliff = 1\n"
	"$HELPERS/throttle_at" "/sys/block/$name/stat" 8388608 "$CG/$CONTROL" "$THROTTLE_ON" >"$TESTDIR/switch" &
	local helper=$!
	# it has read the device's count before iosweep starts
	for _ in $(seq 100); do grep -q ready "$TESTDIR/switch" && break; sleep 0.05; done
	run sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" run "$3" -o json:"$4" -o table' sh "$CG" "$IOSWEEP" "$TESTDIR/t.ini" "$TESTDIR/t.json"
	echo "$output"
	wait "$helper"
	cat "$TESTDIR/switch"
	[ "$status" -eq 0 ]
	grep -q '^switched at ' "$TESTDIR/switch"
	# the throughput's first cliff, within 2% of the 8 MiB at which the throttle came on
	[ "$(json_get "$TESTDIR/t.json" "d['runs'][0]['repeats'][0]['cliffs'][0]['figure']")" = throughput_Bps ]
	json_get "$TESTDIR/t.json" "(r := d['runs'][0]['repeats'][0]) and (r['cliffs'], [p['bytes'] for p in r['series']['intervals']])"
	[ "$(json_get "$TESTDIR/t.json" "abs(d['runs'][0]['repeats'][0]['cliffs'][0]['at_bytes'] - 8388608) <= 0.02 * 8388608")" = True ]
	# from the rate to the throttle
	[ "$(json_get "$TESTDIR/t.json" "(c := d['runs'][0]['repeats'][0]['cliffs'][0]) and c['before'] > 4 * c['after']")" = True ]
	[ "$(json_get "$TESTDIR/t.json" "d['runs'][0]['repeats'][0]['cliff_stopped']")" = True ]
	[ "$(json_get "$TESTDIR/t.json" "d['runs'][0]['repeats'][0]['runtime_limited']")" = False ]
	[[ "$output" == *"run 0 repeat 1: throughput fell from "*" read (at "*"run 0 repeat 1: ended at its first cliff (stop_at_cliff)"* ]]
}
