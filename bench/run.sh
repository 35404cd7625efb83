#!/usr/bin/env bash
# bench/run.sh - what `make bench` runs: iosweep against bare loops and fio.
#
# Installs what the benchmark needs when it is missing (fio, bonnie++, /usr/bin/time,
# python3, strace; as root, through tools/deps.sh), builds build/iosweep and the
# baselines in build/bench/ when they are missing or older than their
# sources (make bench builds them first; this keeps the script usable on its
# own), then hands over to bench/bench.py, which alternates the contenders,
# prints the table and writes bench/RESULTS.md.  Exit status: 0, or 1 when a
# contender could not run; a ratio below its goal is reported, not failed.
#
# Environment: BUILD (default build), CC, CFLAGS, IOSWEEP_DIR (test files,
# default /var/tmp), BENCH_ROUNDS (default 7), BENCH_KEEP=1 (keep the test
# files), BENCH_OUT (default bench/RESULTS.md), BEFORE (a commit to build
# apart and run beside this one: see bench.py).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
export BUILD

tools/deps.sh fio bonnie++ time python3 strace gcc make pkg-config libaio-dev liburing-dev

# (and iosweep record's interposer, beside it)
[ -x "$BUILD/iosweep" ] && [ -e "$BUILD/libiosweep-record.so" ] ||
	make --no-print-directory all BUILD="$BUILD"
mkdir -p "$BUILD/bench"
for src in bench/*.c; do
	prog=$BUILD/bench/$(basename "$src" .c)
	if [ ! -x "$prog" ] || [ "$src" -nt "$prog" ] || [ bench/common.h -nt "$prog" ]; then
		echo "${CC:-cc} $src -> $prog" >&2
		# shellcheck disable=SC2086,SC2046 # CFLAGS and pkg-config give lists of flags
		${CC:-cc} ${CFLAGS:--O2 -g} -std=c17 -Wall -Wextra -Werror -pthread \
			$(pkg-config --cflags liburing) "$src" \
			$(pkg-config --libs liburing) -laio -pthread -o "$prog"
	fi
done

# BEFORE=REV (make bench BEFORE=REV): that commit built apart, to run beside
# this one in every case that times iosweep
if [ -n "${BEFORE:-}" ]; then
	before_dir=$(mktemp -d "${TMPDIR:-/tmp}/iosweep-before.XXXXXX")
	trap 'rm -rf "$before_dir"' EXIT
	git archive "$BEFORE" | tar -x -C "$before_dir"
	make --no-print-directory -C "$before_dir" all >&2
	export BENCH_BEFORE=$before_dir/build/iosweep
	BENCH_BEFORE_REV=$(git rev-parse --short "$BEFORE")
	export BENCH_BEFORE_REV
fi

python3 bench/bench.py
