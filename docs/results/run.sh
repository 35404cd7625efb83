#!/usr/bin/env bash
# docs/results/run.sh - reruns the experiments of jobs/ published here (the
# four source experiments, the writes, the dataset, the noisy neighbour) and
# writes NAME.json (everything iosweep measured, with the host) and NAME.txt
# (the table) here, then NAME.svg when `iosweep plot` works.
#
#   docs/results/run.sh [NAME...]     default: all of them, about 40 minutes
#
# Sizes are those of the published results in this folder, larger than the
# jobs' defaults where the disk and the time allowed: sparse-time-to-end at
# 4 GiB (with cache=fadvise, and as root again with cache=drop),
# buffer-size-cold at 1 GiB, cached-random-vs-sequential and sum-integers at
# 2 GiB, commit-check at 4 MiB, write-cache-lie at 512 MiB, write-allocation
# at 256 MiB; dataset and dataset-tree (/usr/include; as root, for its cache=drop) at their
# defaults; metadata (as root, for its cold job) at its default; noisy-neighbour at its default (a 1 GiB file read, a 4 GiB one
# written), plotted twice: NAME.svg and NAME.resp.svg.  Environment: IOSWEEP (the binary, default
# build/iosweep), PLOT (the binary that plots, default $IOSWEEP), IOSWEEP_DIR (where the test files go, default /var/tmp;
# the ones made here are removed at the end unless KEEP=1).
set -euo pipefail
cd "$(dirname "$0")/../.."
IOSWEEP=${IOSWEEP:-build/iosweep}
PLOT=${PLOT:-$IOSWEEP}
OUT=docs/results
DIR=${IOSWEEP_DIR:-/var/tmp}

# plot NAME SVG [PLOT OPTION...]: draws NAME.json to SVG, or says why not
plot() {
	local name=$1 svg=$2
	shift 2
	if "$PLOT" plot "$OUT/$name.json" -o "$svg" "$@" 2>/dev/null; then
		echo "   plotted $svg" >&2
	else
		rm -f "$svg"
		echo "   (no plot: iosweep plot is not available or failed)" >&2
	fi
}

run() { # NAME JOB [--set ...]; the plot's options, if any, in the array plot_args
	local name=$1 job=$2
	shift 2
	if [ "${PLOT_ONLY:-0}" != 1 ]; then
		echo "== $name: $IOSWEEP run $job $*" >&2
		"$IOSWEEP" run "$job" "$@" -o "json:$OUT/$name.json" -o table | tee "$OUT/$name.txt"
	fi
	plot "$name" "$OUT/$name.svg" "${plot_args[@]}"
}
plot_args=()

names=("$@")
[ ${#names[@]} -gt 0 ] || names=(sparse-time-to-end sparse-time-to-end-drop buffer-size-cold
	cached-random-vs-sequential sum-integers commit-check write-cache-lie write-allocation dataset
	dataset-tree metadata noisy-neighbour)
for name in "${names[@]}"; do
	case $name in
	sparse-time-to-end) run "$name" jobs/sparse-time-to-end.ini --set size=4g ;;
	sparse-time-to-end-drop)
		run "$name" jobs/sparse-time-to-end.ini --set size=4g --set cache=drop ;;
	buffer-size-cold) run "$name" jobs/buffer-size-cold.ini --set size=1g ;;
	cached-random-vs-sequential)
		run "$name" jobs/cached-random-vs-sequential.ini --set size=2g ;;
	sum-integers) run "$name" jobs/sum-integers.ini --set size=2g ;;
	commit-check) run "$name" jobs/commit-check.ini --set size=4m ;;
	write-cache-lie) run "$name" jobs/write-cache-lie.ini --set size=512m ;;
	write-allocation) run "$name" jobs/write-allocation.ini --set size=256m ;;
	dataset) run "$name" jobs/dataset.ini ;;
	dataset-tree) run "$name" jobs/dataset-tree.ini ;;
	metadata) run "$name" jobs/metadata.ini ;;
	noisy-neighbour)
		# the reader's three runs side by side: alone, beside the direct
		# writer, beside the buffered one; its p99 latency, then its p99
		# response time at the rate
		readers=(--x job --job alone --job beside-direct --job beside-buffered)
		plot_args=("${readers[@]}" --y lat_p99_ns)
		run "$name" jobs/noisy-neighbour.ini
		plot "$name" "$OUT/$name.resp.svg" "${readers[@]}" --y resp_p99_ns
		plot_args=() ;;
	*) echo "unknown experiment '$name'" >&2; exit 2 ;;
	esac
done

if [ "${KEEP:-0}" != 1 ]; then
	rm -f "$DIR/iosweep-sparse.dat" "$DIR/iosweep-bufsize.dat" "$DIR/iosweep-cached.dat" \
		"$DIR/iosweep-ints.txt" "$DIR/iosweep-commit.dat" "$DIR/iosweep-wcache.dat" \
		"$DIR/iosweep-walloc.dat" "$DIR/iosweep-noisy-read.dat" "$DIR/iosweep-noisy-write.dat"
	rm -f "$DIR"/dataset.[0-9]*
fi
