#!/usr/bin/env bash
# docs/results/replay-seeds.sh - records the two seed programs with `iosweep
# record` and replays their traces with jobs/replay-seeds.ini; writes
# replay-seeds.txt (what each recording did, then the replay's table) and
# replay-seeds.json (the run) here, and the traces (anonymized) to
# jobs/seeds/sparse.iolog and sum.iolog, where the job file reads them.
# About a minute.
#
# Environment: IOSWEEP (default build/iosweep), HELPERS (default
# build/tests: iotrace), IOSWEEP_DIR (the files, default /var/tmp; removed
# at the end unless KEEP=1).
set -euo pipefail
cd "$(dirname "$0")/../.."
IOSWEEP=${IOSWEEP:-build/iosweep}
HELPERS=${HELPERS:-build/tests}
DIR=${IOSWEEP_DIR:-/var/tmp}
OUT=docs/results
export IOSWEEP_DIR=$DIR

span() { # TRACE: from the command's start to its trace's last line (TIME in microseconds)
	awk 'END { printf "%.6f s", $1 / 1e6 }' "$1"
}

# the programs' own files: 256 MiB of random bytes, 16 MiB of integers 0..1000,
# written out and dropped from the page cache (fadvise DONTNEED, by dd's
# nocache) so that each program starts cold, as the replays' cache=fadvise
head -c 256M /dev/urandom >"$DIR/seed-sparse.dat"
awk 'BEGIN { while (n < 16777216) { s = (i++ % 1001) ""; print s; n += length(s) + 1 } }' \
	>"$DIR/seed-ints.txt"
for f in "$DIR/seed-sparse.dat" "$DIR/seed-ints.txt"; do
	sync "$f"
	dd if="$f" iflag=nocache count=0 status=none
done
"$IOSWEEP" record --anonymize -o jobs/seeds/sparse.iolog -- "$HELPERS/iotrace" sparse "$DIR/seed-sparse.dat" \
	2>"$DIR/seed-sparse.rec"
# the interpreter itself, not a wrapper script that would be recorded too (pyenv's)
PY=$(python3 -c 'import sys; print(sys.executable)')
"$IOSWEEP" record --anonymize -o jobs/seeds/sum.iolog -- "$PY" tests/helpers/sum_ints.py "$DIR/seed-ints.txt" \
	>"$DIR/seed-sum.out" 2>"$DIR/seed-sum.rec"
{
	echo "== recorded, cold: iotrace sparse (256 MiB file), its last file closed at $(span jobs/seeds/sparse.iolog):"
	cat "$DIR/seed-sparse.rec"
	echo "== recorded, cold: $PY sum_ints.py (16 MiB of integers, sum $(cat "$DIR/seed-sum.out")), its last file closed at $(span jobs/seeds/sum.iolog):"
	cat "$DIR/seed-sum.rec"
	echo "== $IOSWEEP run jobs/replay-seeds.ini (load average before: $(cut -d' ' -f1-3 /proc/loadavg))"
	"$IOSWEEP" run jobs/replay-seeds.ini -o "json:$OUT/replay-seeds.json" -o table
	echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$OUT/replay-seeds.txt"
if [ "${KEEP:-0}" != 1 ]; then
	rm -f "$DIR"/seed-sparse.* "$DIR"/seed-sum.* "$DIR/seed-ints.txt" \
		"$DIR/iosweep-replay-sparse.dat" "$DIR/iosweep-replay-sum.dat"
fi
