#!/usr/bin/env bash
# Memcheck over iosweep: one small run of each engine (with threads, queue
# depth, warmup and every output format), a run that fails, and the commands
# that read job files, good and bad.  Any memory error or leak fails it.
# usage: tests/valgrind.sh   (BUILD=build by default; takes about a minute)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
iosweep=$PWD/$BUILD/iosweep
dir=$(mktemp -d "${IOSWEEP_TEST_DIR:-/var/tmp}/iosweep-valgrind.XXXXXX")
trap 'rm -rf "$dir"' EXIT
export IOSWEEP_DIR=$dir
failed=0

# vg EXPECTED-EXIT ARGS...: iosweep ARGS under memcheck exits EXPECTED-EXIT
# (VG_SIGINT=S: interrupted after S seconds)
vg() {
	local want=$1 rc=0 t0=$SECONDS pid
	shift
	${VG_ENV:-} valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible \
		--errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99 \
		--log-file="$dir/vg.log" "$iosweep" "$@" >"$dir/out" 2>&1 &
	pid=$!
	if [ -n "${VG_SIGINT:-}" ]; then
		sleep "$VG_SIGINT"
		kill -INT "$pid"
	fi
	wait "$pid" || rc=$?
	# "==PID==" lines are memcheck's reports; "--PID--" lines are notes about
	# system calls it does not know (cachestat: iosweep falls back to mincore)
	if [ "$rc" -ne "$want" ] || grep -q '^==' "$dir/vg.log"; then
		echo "FAIL (exit $rc, expected $want): iosweep $*"
		grep -v '^--' "$dir/vg.log" || true
		cat "$dir/out"
		failed=1
	else
		echo "ok ($((SECONDS - t0)) s): iosweep $*"
	fi
}

printf '[global]\nfilename = %s/f.dat\nsize = 1m\nrepeat = 2\nwarmup = 1\nthreads = 1, 2\n' "$dir" >"$dir/base.ini"
for engine in sync aio mmap uring psync2; do
	cp "$dir/base.ini" "$dir/$engine.ini"
	printf '[seq]\nengine = %s\niodepth = 4\ncache = keep, fadvise\n' "$engine" >>"$dir/$engine.ini"
	printf '[sparse]\nengine = %s\nspacing = 64k\npattern = sequential, reverse, random\nbaseline = seq\n' "$engine" >>"$dir/$engine.ini"
	[ "$engine" = mmap ] || printf '[direct]\nengine = %s\ncache = direct\n' "$engine" >>"$dir/$engine.ini"
	vg 0 run "$dir/$engine.ini" -o table -o json:"$dir/$engine.json" -o csv:"$dir/$engine.csv"
done
# mmap over a file above its 32 MiB budget: the helper threads that unmap
printf '[m]\nfilename = %s/m.dat\nsize = 40m\nengine = mmap\nspacing = 16k\nrepeat = 2\nthreads = 1, 2\ncache = keep, fadvise\n' "$dir" >"$dir/mmap-big.ini"
vg 0 run "$dir/mmap-big.ini" -o json:"$dir/mmap-big.json"
printf '[text]\nfilename = %s/t.dat\nsize = 100k\nfill = text\nconsume = ints\nrepeat = 1\ncache = warm\n' "$dir" >"$dir/ints.ini"
vg 0 run "$dir/ints.ini" -o json:"$dir/ints.json"
printf '[a]\nfilename = %s/f.dat\nbs = 4k\nthreads = 2\nrepeat = 1\n' "$dir" >"$dir/ok.ini"
# runs that fail: EIO from the device (tests/shim/eio_shim.c), a full disk
shim=$PWD/$BUILD/tests/eio_shim.so
[ -e "$shim" ] || { shim=$dir/eio_shim.so && cc -shared -fPIC -o "$shim" tests/shim/eio_shim.c -ldl; }
VG_ENV="env IOSWEEP_EIO_FILE=$dir/f.dat IOSWEEP_EIO_OFFSET=100000 LD_PRELOAD=$shim" \
	vg 1 run "$dir/ok.ini" -o json:"$dir/eio.json"
printf '[a]\nfilename = %s/big.dat\nsize = 8m\n' "$dir" >"$dir/big.ini"
( trap '' XFSZ && ulimit -f 2048 && vg 1 run "$dir/big.ini" && exit "$failed" ) || failed=1
# an interrupted run
printf '[a]\nfilename = %s/f.dat\npattern = random\ncount = 1000000000\nruntime = 60s\n' "$dir" >"$dir/long.ini"
VG_SIGINT=3 vg 130 run "$dir/long.ini" -o json:"$dir/long.json" -o csv:"$dir/long.csv"
vg 0 plan "$dir/ok.ini"
vg 0 plan "$dir/ok.ini" -o json --set bs=4k,8k
vg 0 check jobs/demo.ini "$dir/ok.ini"
vg 0 options
# the commands that read results
vg 0 compare "$dir/sync.json" "$dir/sync.json"
vg 0 compare "$dir/uring.json" "$dir/uring.json" -o json
# runs of different engines never match: no run in common is exit 2
vg 2 compare "$dir/sync.json" "$dir/aio.json" -o json
if command -v gnuplot >/dev/null; then
	vg 0 plot "$dir/mmap.json" -o "$dir/mmap.svg"
fi
vg 2 compare "$dir/sync.json" "$dir/base.ini"
# hostile result files: each refused with exit 2, cleanly
for f in tests/data/hostile/*.json; do
	case $f in */valid*.json) continue ;; esac
	vg 2 compare tests/data/hostile/valid.json "$f"
done
vg 2 plot tests/data/hostile/huge-throughput.json -o "$dir/h.svg"
vg 2 plot tests/data/hostile/negative-bs.json -o "$dir/h.svg"
vg 2 check tests/data/bad/list-value-twice-on-continuation.ini
vg 2 run tests/data/bad/consume-ints-random.ini
vg 2 plan "$dir/ok.ini" --set bs=4x
vg 2 run "$dir/ok.ini" -o json:"$dir/no/such/dir.json"
[ "$failed" -eq 0 ] && echo "valgrind: no errors, no leaks"
exit "$failed"
