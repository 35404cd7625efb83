#!/usr/bin/env bash
# Runs every test suite (cmocka unit tests, then bats CLI tests) and ends with
# one line "N passed, N failed, N skipped" over all of them.  Exit 1 if any failed.
set -u
BUILD=${BUILD:-build}
export IOSWEEP=${IOSWEEP:-$PWD/$BUILD/iosweep}
export IOSWEEP_HELPERS=${IOSWEEP_HELPERS:-$PWD/$BUILD/tests}
export IOSWEEP_TEST_DIR=${IOSWEEP_TEST_DIR:-/var/tmp}
export CMOCKA_MESSAGE_OUTPUT=TAP
pass=0 fail=0 skip=0
log=$(mktemp)
loop=
trap 'rm -f "$log"; exec 9<&-; [ -z "$loop" ] || losetup -d "$loop"; rm -f "${loopfile:-}"' EXIT

# the block-device test reads a loop device when none is given and we are root
if [ -z "${IOSWEEP_TEST_BLOCKDEV:-}" ] && [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null; then
	loopfile=$(mktemp "$IOSWEEP_TEST_DIR/iosweep-loop.XXXXXX")
	if head -c 4m /dev/urandom >"$loopfile" && loop=$(losetup -f --show "$loopfile" 2>/dev/null); then
		export IOSWEEP_TEST_BLOCKDEV=$loop
		# held open, as a mounted disk is: the kernel drops a block device's
		# page cache when its last opener closes it
		exec 9<"$loop"
		echo "# block-device tests on $loop"
	else
		loop=
		echo "# no loop device (losetup failed): the block-device test may skip"
	fi
fi

# count TAP lines of one suite; a suite that dies without reporting a failure counts as one
count() {
	local name=$1 rc=$2 p f s
	# bats writes "ok N # skip", cmocka "not ok N # SKIP"
	s=$(grep -ciE '^(not )?ok .*# skip' "$log" || true)
	p=$(grep -E '^ok ' "$log" | grep -civE '# skip' || true)
	f=$(grep -E '^not ok ' "$log" | grep -civE '# skip' || true)
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "# $name exited with status $rc"
		f=1
	fi
	pass=$((pass + p)) skip=$((skip + s)) fail=$((fail + f))
}

for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	echo "# $t"
	"$t" >"$log" 2>&1
	rc=$?
	cat "$log"
	count "$t" "$rc"
done

# BATS_SUITES: the bats files to run (make tsan: the threaded ones); all by default;
# --timing ends each test's line with its time, to find the slow ones
echo "# bats ${BATS_SUITES:-tests/cli}"
# shellcheck disable=SC2086 # a list of paths
bats --tap --timing ${BATS_SUITES:-tests/cli} >"$log" 2>&1
rc=$?
cat "$log"
count bats "$rc"

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
