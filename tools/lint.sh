#!/usr/bin/env bash
# Static analysis: cppcheck and clang-tidy (checks in .clang-tidy) over src/,
# the floors of src/ (tools/layers.py),
# and `mandoc -T lint` over the man pages.  Installs what it needs (as root;
# otherwise tools/deps.sh says what to install).  Exit 1 on any finding.
# usage: tools/lint.sh   (make lint)
set -uo pipefail
cd "$(dirname "$0")/.."
tools/deps.sh cppcheck clang-tidy mandoc pkg-config libinih-dev libaio-dev liburing-dev \
	libjansson-dev libxxhash-dev libsqlite3-dev libblkid-dev || exit 1

PKGS="inih jansson liburing libxxhash sqlite3 blkid"
# dist_mpi.c needs mpi.h and is only checked where Open MPI is installed
src=$(find src -name '*.c' | sort | { if pkg-config --exists ompi-c 2>/dev/null; then cat; else grep -v '^src/run/dist_mpi\.c$'; fi; })
mpiflags=$(pkg-config --cflags ompi-c 2>/dev/null || true)
failed=0

echo "# cppcheck"
cppcheck --std=c11 --enable=warning,performance,portability --inline-suppr --error-exitcode=1 \
	--quiet --suppress=missingIncludeSystem -D_GNU_SOURCE -D__linux__ -D__x86_64__ -Isrc \
	$(pkg-config --cflags-only-I $PKGS) $src || failed=1

echo "# clang-tidy"
clang-tidy --quiet $src -- -std=c17 -D_GNU_SOURCE -Isrc $(pkg-config --cflags $PKGS) $mpiflags \
	2>/dev/null || failed=1

echo "# layers"
python3 tools/layers.py || failed=1

echo "# mandoc -T lint"
mandoc -T lint -W warning man/* || failed=1

if [ "$failed" -ne 0 ]; then
	echo "lint: findings above"
	exit 1
fi
echo "lint: clean"
