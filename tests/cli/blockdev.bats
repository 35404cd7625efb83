#!/usr/bin/env bats
# A block device is read, never written, and gives the checksum of its bytes.
# tests/run.sh provides a loop device when root ($IOSWEEP_TEST_BLOCKDEV).

load helpers

@test "a block device (a loop device) is read with the checksum of its bytes and left unchanged" {
	dev=${IOSWEEP_TEST_BLOCKDEV:-}
	[ -b "$dev" ] || skip "no block device (tests/run.sh makes a loop device when root)"
	back=$(losetup -nO BACK-FILE "$dev" 2>/dev/null || true)
	[ -f "$back" ] || skip "$dev is not a loop device over a file"
	before=$(sha256sum <"$back")
	size=$(stat -c %s "$back")
	job b "[a]\nfilename = $dev\nsize = $size\nbs = 64k\nrepeat = 2\n"
	run "$IOSWEEP" run "$TESTDIR/b.ini" -o json:"$TESTDIR/b.json" --quiet
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/b.json" 'd["runs"][0]["repeats"][0]["checksum"]')" = "$(refsum "$back" sequential "$size" 65536 65536 0 1)" ]
	[ "$(json_get "$TESTDIR/b.json" 'd["runs"][0]["params"]["cache"]')" = fadvise ]
	[ "$(sha256sum <"$back")" = "$before" ]
}
