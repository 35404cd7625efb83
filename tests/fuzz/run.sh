#!/usr/bin/env bash
# Builds the job-file fuzzer (tests/fuzz/fuzz_job.c) with libFuzzer, ASan and
# UBSan into build-fuzz/, and runs it for FUZZ_SECONDS (default 60) from a
# seed corpus of jobs/*.ini and tests/data/ copied into a temporary
# directory.  Every crash, leak, timeout or out-of-memory input it finds is
# saved as tests/data/bad/fuzz-KIND-HASH.ini, behind a first line that
# tests/cli/bad_input.bats refuses until someone fixes the bug and writes the
# expected "; expect: LINE: TEXT" there; then the script fails.
# usage: tests/fuzz/run.sh   (FUZZ_SECONDS=600 for longer, FUZZ_JOBS=2 for
# one fuzzing process per core)
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=build-fuzz
PKGS="inih jansson liburing libxxhash"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
seconds=${FUZZ_SECONDS:-60}

# the library with coverage for the fuzzer, then the target linked with libFuzzer's main
make --no-print-directory BUILD=$BUILD CC=clang \
	CFLAGS="-O1 -g -fsanitize=fuzzer-no-link $SAN" $BUILD/libiosweep.a >/dev/null
clang -O1 -g -std=c17 -Wall -Wextra -Werror -fsanitize=fuzzer $SAN -Isrc \
	$(pkg-config --cflags $PKGS) tests/fuzz/fuzz_job.c $BUILD/libiosweep.a \
	$(pkg-config --libs $PKGS) -laio -pthread -lm -o $BUILD/fuzz_job

work=$(mktemp -d "${TMPDIR:-/tmp}/iosweep-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus" "$work/found"
cp jobs/*.ini "$work/corpus/"
find tests/data -type f -name '*.ini' -exec cp {} "$work/corpus/" \;
# the jobs' files go where nothing else is: plan_expand stats them
export IOSWEEP_DIR=$work

echo "fuzzing the job-file front end for $seconds s ($BUILD/fuzz_job)"
rc=0
"$BUILD/fuzz_job" -max_len=4096 -timeout=2 -rss_limit_mb=2048 -max_total_time="$seconds" \
	-dict=tests/fuzz/job.dict -artifact_prefix="$work/found/" -print_final_stats=1 \
	${FUZZ_JOBS:+-jobs=$FUZZ_JOBS -workers=$FUZZ_JOBS} \
	"$work/corpus" >"$work/log" 2>&1 || rc=$?
grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|Done [0-9]+ runs)' \
	"$work/log" || tail -n 5 "$work/log"

saved=0
for f in "$work"/found/*; do
	[ -e "$f" ] || continue
	kind=$(basename "$f" | cut -d- -f1)
	dest=tests/data/bad/fuzz-$kind-$(sha1sum "$f" | cut -c1-12).ini
	{
		printf '; expect: FIXME: the fuzzer found a %s with what follows (%s); ' "$kind" "$(date -u +%F)"
		printf 'fix it, then write the expected LINE: TEXT here\n'
		cat "$f"
	} >"$dest"
	echo "saved $dest"
	saved=$((saved + 1))
done
if [ "$rc" -ne 0 ] || [ "$saved" -ne 0 ]; then
	grep -B2 -A30 -E 'ERROR|==[0-9]+==|SUMMARY|timeout|out-of-memory' "$work/log" | head -n 80 || true
	echo "fuzz: failed (exit $rc, $saved input(s) saved under tests/data/bad/)"
	exit 1
fi
echo "fuzz: no crash in $seconds s"
