#!/usr/bin/env bash
# Builds the fuzzers of tests/fuzz/ with libFuzzer, ASan and UBSan into
# build-fuzz/ and runs each for FUZZ_SECONDS (default 60):
#   fuzz_job     the job-file front end, from jobs/*.ini and tests/data/
#   fuzz_fio     `iosweep import`'s fio job-file reader, from tests/data/fio/
#   fuzz_result  the result files compare and plot read (iosweep and fio
#                JSON), from tests/fuzz/seed-result.json and a fio result
# FUZZ_TARGETS="job fio result" chooses which.  Every crash, leak, timeout
# or out-of-memory input found is saved: a job file as
# tests/data/bad/fuzz-KIND-HASH.ini, behind a first line that
# tests/cli/bad_input.bats refuses until someone fixes the bug and writes the
# expected "; expect: LINE: TEXT" there; a fio job file or result file as
# tests/data/fuzz/TARGET/KIND-HASH, for a regression test once fixed;
# then the script fails.
# usage: tests/fuzz/run.sh   (FUZZ_SECONDS=600 for longer, FUZZ_JOBS=2 for
# one fuzzing process per core)
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=build-fuzz
PKGS="inih jansson liburing libxxhash"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
seconds=${FUZZ_SECONDS:-60}
targets=${FUZZ_TARGETS:-job fio result}

# the library with coverage for the fuzzers, then each target linked with libFuzzer's main
make --no-print-directory BUILD=$BUILD CC=clang \
	CFLAGS="-O1 -g -fsanitize=fuzzer-no-link $SAN" $BUILD/libiosweep.a >/dev/null
for t in $targets; do
	clang -O1 -g -std=c17 -Wall -Wextra -Werror -fsanitize=fuzzer $SAN -Isrc \
		$(pkg-config --cflags $PKGS) "tests/fuzz/fuzz_$t.c" $BUILD/libiosweep.a \
		$(pkg-config --libs $PKGS) -laio -pthread -lm -o "$BUILD/fuzz_$t"
done

work=$(mktemp -d "${TMPDIR:-/tmp}/iosweep-fuzz.XXXXXX")
trap 'rm -rf "$work" /tmp/iosweep-fuzz-fio.* /tmp/iosweep-fuzz-result.*' EXIT
# the jobs' files go where nothing else is: plan_expand stats them
export IOSWEEP_DIR=$work

failed=0
for t in $targets; do
	mkdir "$work/$t" "$work/$t/corpus" "$work/$t/found"
	dict=()
	case $t in
	job)
		cp jobs/*.ini "$work/$t/corpus/"
		find tests/data -type f -name '*.ini' -exec cp {} "$work/$t/corpus/" \;
		dict=(-dict=tests/fuzz/job.dict) max=4096 ext=.ini ;;
	fio)
		find tests/data/fio -type f \( -name '*.fio' -o -name '*.inc' \) \
			-exec cp {} "$work/$t/corpus/" \;
		dict=(-dict=tests/fuzz/fio.dict) max=4096 ext=.fio ;;
	result)
		cp tests/fuzz/seed-result.json tests/data/fio/result.json "$work/$t/corpus/"
		find tests/data/fuzz/result -type f -exec cp {} "$work/$t/corpus/" \; 2>/dev/null || true
		max=32768 ext=.json ;;
	esac
	echo "fuzzing $t for $seconds s ($BUILD/fuzz_$t)"
	rc=0
	"$BUILD/fuzz_$t" -max_len=$max -timeout=2 -rss_limit_mb=2048 -max_total_time="$seconds" \
		"${dict[@]}" -artifact_prefix="$work/$t/found/" -print_final_stats=1 \
		${FUZZ_JOBS:+-jobs=$FUZZ_JOBS -workers=$FUZZ_JOBS} \
		"$work/$t/corpus" >"$work/$t/log" 2>&1 || rc=$?
	grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|Done [0-9]+ runs)' \
		"$work/$t/log" || tail -n 5 "$work/$t/log"

	saved=0
	for f in "$work/$t"/found/*; do
		[ -e "$f" ] || continue
		kind=$(basename "$f" | cut -d- -f1)
		hash=$(sha1sum "$f" | cut -c1-12)
		if [ "$t" = job ]; then
			dest=tests/data/bad/fuzz-$kind-$hash.ini
			{
				printf '; expect: FIXME: the fuzzer found a %s with what follows (%s); ' \
					"$kind" "$(date -u +%F)"
				printf 'fix it, then write the expected LINE: TEXT here\n'
				cat "$f"
			} >"$dest"
		else
			mkdir -p "tests/data/fuzz/$t"
			dest=tests/data/fuzz/$t/$kind-$hash$ext
			cp "$f" "$dest"
		fi
		echo "saved $dest"
		saved=$((saved + 1))
	done
	if [ "$rc" -ne 0 ] || [ "$saved" -ne 0 ]; then
		grep -B2 -A30 -E 'ERROR|==[0-9]+==|SUMMARY|timeout|out-of-memory' "$work/$t/log" |
			head -n 80 || true
		echo "fuzz: $t failed (exit $rc, $saved input(s) saved)"
		failed=1
	fi
done
[ "$failed" -eq 0 ] || exit 1
echo "fuzz: no crash in $seconds s ($targets)"
