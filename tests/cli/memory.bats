#!/usr/bin/env bats
# The memory a run holds: `plan` says how much, the check refuses what does
# not fit, and a run holds what the estimate says (its peak RSS).
# make check: runs beside another file

load helpers

# peak_kib CMD...: the peak RSS of CMD in KiB (its output to /dev/null);
# not python's or bash's child, which would start from their RSS
# (tests/helpers/peakrss.c)
peak_kib() {
	"$HELPERS/peakrss" "$@"
}

# estimate JOB: the bytes of plan's "memory:" line for $TESTDIR/JOB.ini
estimate() {
	"$IOSWEEP" plan "$TESTDIR/$1.ini" | sed -n 's/^memory: up to \([0-9]*\) bytes .*/\1/p'
}

@test "plan says the memory of the largest run and what most of it is for" {
	job j "[small]\nfilename = $TESTDIR/f.dat\nsize = 1m\nthreads = 2\ninterval = 0\n[big]\nfilename = $TESTDIR/f.dat\nthreads = 64, 8\n"
	run "$IOSWEEP" plan "$TESTDIR/j.ini"
	echo "$output"
	[ "$status" -eq 0 ]
	# 64 threads with a series: 65 series of 64 histograms of 34 KiB each
	[[ "${lines[-1]}" =~ ^"memory: up to 1"[0-9]{8}" bytes (1"[0-9]{2}"MiB) per run, in run 1; most of it, 1"[0-9]{2}"MiB, for series"$ ]]
}

@test "64 threads with a series hold what plan estimates, within 25% of the peak RSS" {
	grep -qE '__(asan|tsan)_init' "$IOSWEEP" && skip "the sanitizers' shadow memory is counted in RSS"
	# a cached 1 MiB file read for 3.5 s (the default 1 s interval: a series
	# of at least three intervals), at 6400 reads/s in all, so that 64
	# threads do not take every CPU of a shared machine
	job j "[a]\nfilename = $TESTDIR/f.dat\nsize = 1m\nthreads = 64\nrepeat = 1\ncache = keep\ntime_based = 1\nruntime = 3500ms\nrate_iops = 6400\n"
	est=$(estimate j)
	peak=$(peak_kib "$IOSWEEP" run "$TESTDIR/j.ini" -o "json:$TESTDIR/r.json")
	[ "$(json_get "$TESTDIR/r.json" 'len(d["runs"][0]["repeats"][0]["series"]["intervals"]) >= 3')" = True ]
	# the baseline is `check` of the same job, file made: the same process
	# having read the job and expanded and checked the plan, i.e. everything
	# a run holds before its runner allocates; what a run holds beyond it
	# is what the estimate counts, plus what it leaves out (the threads'
	# stacks, the results, the report), a few hundred KiB here
	base=$(peak_kib "$IOSWEEP" check "$TESTDIR/j.ini")
	echo "estimate $est bytes, peak $peak KiB, baseline $base KiB"
	held=$(((peak - base) * 1024))
	[ $((est * 4)) -ge $((held * 3)) ]
	[ $((est * 4)) -le $((held * 5)) ]
}
