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
trap 'rm -rf "$log" "${logs:-}"; exec 9<&-; [ -z "$loop" ] || losetup -d "$loop"; rm -f "${loopfile:-}"' EXIT

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

# BATS_SUITES: the bats files to run (make tsan: the threaded ones); all by default.
# Files that say "# make check: runs beside another file" (their checks depend on
# neither time, nor the page cache, nor a device's counters, nor the loop device)
# run two at a time; then the others one at a time, alone on the machine.
# --timing ends each test's line with its time, to find the slow ones
# shellcheck disable=SC2086 # a list of paths
set -- ${BATS_SUITES:-tests/cli/*.bats}
beside=() alone=()
for f in "$@"; do
	if grep -qx '# make check: runs beside another file' "$f"; then beside+=("$f"); else alone+=("$f"); fi
done
if [ ${#beside[@]} -gt 0 ]; then
	logs=$(mktemp -d)
	echo "# bats, two at a time: ${beside[*]}"
	# each file's TAP in LOGS/N.tap, its exit status in LOGS/N.rc
	# shellcheck disable=SC2016 # sh expands them, once a file
	for i in "${!beside[@]}"; do echo "$i ${beside[$i]}"; done |
		xargs -P 2 -L 1 sh -c 'bats --tap --timing "$2" >"$0/$1.tap" 2>&1; echo $? >"$0/$1.rc"' "$logs"
	for i in "${!beside[@]}"; do
		echo "# ${beside[$i]}"
		cp "$logs/$i.tap" "$log"
		cat "$log"
		count "${beside[$i]}" "$(cat "$logs/$i.rc" 2>/dev/null || echo 1)"
	done
	rm -rf "$logs"
fi
if [ ${#alone[@]} -gt 0 ]; then
	echo "# bats, one at a time: ${alone[*]}"
	bats --tap --timing "${alone[@]}" >"$log" 2>&1
	rc=$?
	cat "$log"
	count bats "$rc"
fi

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
