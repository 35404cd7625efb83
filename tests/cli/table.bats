#!/usr/bin/env bats
# The results table as a reader meets it: a location and a spread that agree
# with compare, a cached column over every repeat with its marks explained,
# blank cells where an option does not apply, one warning line per run.
# make check: runs beside another file

load helpers

@test "one repeat shows the median alone; few repeats ± min..max marked ¹; six or more ± the CI" {
	job t "[global]\nfilename = $TESTDIR/f\nsize = 256k\n[one]\nrepeat = 1\n[few]\nrepeat = 3\n[many]\nrepeat = 6\n"
	run "$IOSWEEP" run "$TESTDIR/t.ini"
	[ "$status" -eq 0 ]
	echo "$output" | grep -E '^0 +one +1 +[0-9.]+ [nµm]?s +[0-9.]+ [kMG]B/s'
	echo "$output" | grep -E '^1 +few +3 +[0-9.]+ [nµm]?s ± [0-9]+% ¹ '
	echo "$output" | grep -E '^2 +many +6 +[0-9.]+ [nµm]?s ± [0-9]+%( ²)? +[0-9.]+ [kMG]B/s'
	echo "$output" | grep -qx 'time to end: median of the repeats ± the farther end of its 95% confidence interval, in % of it; other figures: medians'
	echo "$output" | grep -qx '¹: ± spans the min..max of the repeats instead: a confidence interval needs 6 repeats or more'
	! echo "$output" | grep -q ' sd'
}

@test "the table's median and spread are those compare shows for the same file" {
	job t "[global]\nfilename = $TESTDIR/f\nsize = 256k\n[few]\nrepeat = 3\n[many]\nrepeat = 6\n"
	run "$IOSWEEP" run "$TESTDIR/t.ini" -o json:"$TESTDIR/t.json"
	[ "$status" -eq 0 ]
	table=$output
	run "$IOSWEEP" compare "$TESTDIR/t.json" "$TESTDIR/t.json"
	[ "$status" -eq 0 ]
	for j in few many; do
		ours=$(echo "$table" | grep -E "^[0-9]+ +$j " | grep -oE '[0-9.]+ [nµm]?s ± [0-9]+%( ¹)?' | head -n1)
		theirs=$(echo "$output" | grep -E "^$j " | head -n1 | grep -oE '[0-9.]+ [nµm]?s ± [0-9]+%( ¹)?' | head -n1)
		echo "$j: table '$ours' compare '$theirs'"
		[ -n "$ours" ] && [ "$ours" = "$theirs" ]
	done
}

@test "cached summarises every repeat: one value when alike, min–max when not" {
	head -c 1m /dev/urandom >"$TESTDIR/f"
	[ "$(stat -f -c %T "$TESTDIR")" != tmpfs ] || skip "$TESTDIR is tmpfs"
	python3 -c 'import os, sys; fd = os.open(sys.argv[1], os.O_RDONLY); os.fdatasync(fd); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)' "$TESTDIR/f"
	job k "[global]\nfilename = $TESTDIR/f\n[keep]\ncache = keep\nrepeat = 3\n[warm]\ncache = warm\nrepeat = 2\n"
	run "$IOSWEEP" run "$TESTDIR/k.ini"
	[ "$status" -eq 0 ]
	echo "$output" | grep -E '^0 +keep +keep +3 .* 0–100% '
	echo "$output" | grep -E '^1 +warm +warm +2 .* 100% '
	echo "$output" | grep -qx 'cached: share of the file in the page cache before each repeat (min–max when they differ)'
}

@test "a cached state that cannot be read shows ? and the legend says why" {
	for_nobody "$TESTDIR/f" 256k q "[a]\nfilename = $TESTDIR/f\ncache = keep\nrepeat = 1\n"
	run as_nobody "$IOSWEEP" run "$TESTDIR/q.ini"
	[ "$status" -eq 0 ]
	echo "$output" | grep -E '^0 .* \? +([0-9.]+×|-) +[0-9a-f]{16}$'
	echo "$output" | grep -qx '?: the page-cache state of the file could not be read (cachestat and mincore tell it only to the file'"'"'s owner or root)'
}

@test "cells of options that do not apply are blank: iodepth for sync and mmap, in the table and the plan" {
	job d "[a]\nfilename = $TESTDIR/f\nsize = 256k\nengine = sync, mmap, aio\niodepth = 1, 4\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/d.ini"
	[ "$status" -eq 0 ]
	echo "$output" | grep -E '^0 +sync +[0-9.]+ [nµm]?s '
	echo "$output" | grep -E '^1 +mmap +[0-9.]+ [nµm]?s '
	echo "$output" | grep -E '^2 +aio +1 +[0-9.]+ [nµm]?s '
	echo "$output" | grep -E '^3 +aio +4 +[0-9.]+ [nµm]?s '
	run "$IOSWEEP" plan "$TESTDIR/d.ini"
	echo "$output" | grep -E '^ +0 +a +sync +64 +256KiB'
	echo "$output" | grep -E '^ +2 +a +aio +1 +64 +256KiB'
	# all sync: no iodepth above the table either
	run "$IOSWEEP" run "$TESTDIR/d.ini" --set engine=sync
	[ "$status" -eq 0 ]
	! echo "$output" | grep -q 'iodepth'
}

@test "a cache policy missed in every repeat is one warning line for the run, naming tmpfs" {
	use_tmpfs
	dir=$SHM
	job w "[global]\nfilename = $dir/f\nsize = 256k\ncache = fadvise\n[a]\nrepeat = 5\n[b]\nrepeat = 2\n"
	run "$IOSWEEP" run "$TESTDIR/w.ini" -o json:"$TESTDIR/w.json" --quiet
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[0]}" = "iosweep: warning: run 0: 5 of 5 repeats started with 100% of the file in the page cache, not what cache=fadvise asks for: $dir/f is on tmpfs, whose pages cannot be evicted" ]
	[[ "${lines[1]}" == "iosweep: warning: run 1: 2 of 2 repeats started with 100% "*": $dir/f is on tmpfs, whose pages cannot be evicted" ]]
}
