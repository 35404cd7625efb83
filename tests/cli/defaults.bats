#!/usr/bin/env bats
# What a first job gets without asking: a cold, verified cache where the file
# can be evicted, the policy in force said above the table, and a note, once
# per file, where it cannot be (tmpfs) or cannot be verified (permission).

load helpers

@test "a job without a cache option starts every repeat cold, verified, and says cache=fadvise" {
	[ "$(stat -f -c %T "$TESTDIR")" != tmpfs ] || skip "$TESTDIR is tmpfs"
	job d "[a]\nfilename = $TESTDIR/f\nsize = 1m\nrepeat = 3\n"
	run "$IOSWEEP" run "$TESTDIR/d.ini" -o json:"$TESTDIR/d.json"
	[ "$status" -eq 0 ]
	echo "$output" | grep -E '(^|  )cache=fadvise(  |$)'
	echo "$output" | grep -E '^0 .* 0%  .*[0-9a-f]{16}$'
	! echo "$output" | grep -q 'note:\|warning:'
	[ "$(json_get "$TESTDIR/d.json" 'd["runs"][0]["params"]["cache"]')" = fadvise ]
	[ "$(json_get "$TESTDIR/d.json" 'all(r["resident_before"] <= 0.01 and r["cache_as_asked"] for r in d["runs"][0]["repeats"])')" = True ]
	run "$IOSWEEP" plan "$TESTDIR/d.ini"
	echo "$output" | grep -E '(^|  )cache=fadvise(  |$)'
	run "$IOSWEEP" options
	echo "$output" | grep -E '^cache +keep\|warm\|fadvise\|drop\|direct list +fadvise '
}

@test "on tmpfs the default is keep, said once per file before the runs, with no warnings after them" {
	use_tmpfs
	dir=$SHM
	job t "[global]\nfilename = $dir/f\nsize = 256k\nrepeat = 3\n[a]\n[b]\nbs = 8k\n"
	run "$IOSWEEP" run "$TESTDIR/t.ini" -o json:"$TESTDIR/t.json" --quiet
	[ "$status" -eq 0 ]
	[ "$output" = "iosweep: note: $dir/f is on tmpfs, whose pages cannot be evicted: runs without a cache option use cache=keep (the page cache as it is), not fadvise" ]
	[ "$(json_get "$TESTDIR/t.json" '[r["params"]["cache"] for r in d["runs"]]')" = "['keep', 'keep']" ]
}

@test "another user's file: fadvise evicts it but a note says it cannot be verified" {
	[ "$(stat -f -c %T "$TESTDIR")" != tmpfs ] || skip "$TESTDIR is tmpfs"
	for_nobody "$TESTDIR/f" 256k p "[a]\nfilename = $TESTDIR/f\nrepeat = 2\n"
	run as_nobody "$IOSWEEP" run "$TESTDIR/p.ini"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c 'note:')" = 1 ]
	echo "$output" | grep -qx "iosweep: note: the page-cache state of $TESTDIR/f can be read only by its owner or root: cache=fadvise evicts it but cannot verify that it did"
	echo "$output" | grep -E '^0 .* \?  .*[0-9a-f]{16}$'
}

@test "a size larger than the existing file says how to fix it, and the fix works" {
	head -c 10000 /dev/urandom >"$TESTDIR/small"
	job s "[a]\nfilename = $TESTDIR/small\nsize = 1m\nrepeat = 1\n"
	run "$IOSWEEP" check "$TESTDIR/s.ini"
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: $TESTDIR/s.ini:3: $TESTDIR/small is 10000 bytes, smaller than size=1MiB, and iosweep never writes to an existing file: give size=10000 or less (--set size=10000), or, if iosweep made it, remove it to have it made at 1MiB" ]
	run "$IOSWEEP" check "$TESTDIR/s.ini" --set size=10000
	[ "$status" -eq 0 ]
}

@test "the progress ETA says estimating until a whole repeat was measured" {
	command -v script >/dev/null || skip "needs script (util-linux) for a terminal"
	head -c 4m /dev/urandom >"$TESTDIR/e.dat"
	job e "[a]\nfilename = $TESTDIR/e.dat\npattern = random\ncount = 1000000000\nbs = 512\nruntime = 1s\nrepeat = 2\n"
	script -qfec "'$IOSWEEP' run '$TESTDIR/e.ini' -o json:'$TESTDIR/e.json'" /dev/null |
		tr '\r' '\n' | grep -a 'ETA' >"$TESTDIR/progress" || true
	cat "$TESTDIR/progress"
	grep -q 'repeat 1/2 .*ETA estimating$' "$TESTDIR/progress"
	! grep 'repeat 1/2 ' "$TESTDIR/progress" | grep -v 'ETA estimating$'
	json_runs "$TESTDIR/e.json" 1
}

@test "a plan that reads many GiB shows its totals on stderr first, and an estimate after its first run" {
	head -c 1m /dev/urandom >"$TESTDIR/r.dat"
	job big "[global]\nfilename = $TESTDIR/r.dat\npattern = random\ncount = 1000000000\nbs = 512\nruntime = 300ms\nrepeat = 1\n[a]\n[b]\n"
	run sh -c '"$0" run "$1" -o json:"$2" 2>&1 >/dev/null' "$IOSWEEP" "$TESTDIR/big.ini" "$TESTDIR/big.json"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "iosweep: plan: 2 runs, 2 measured repeats; creates nothing (0 files) and reads at most 954GiB in all; a time estimate follows the first run" ]
	[[ "${lines[1]}" =~ ^"iosweep: plan: the first run's repeats took "[0-9.]+" ms each (median); if the other 1 repeat takes as long, about "[0-9.]+" ms more"$ ]]
	[ "${#lines[@]}" -eq 2 ]
	# small plans go by without it
	job small "[a]\nfilename = $TESTDIR/r.dat\nrepeat = 1\n"
	run sh -c '"$0" run "$1" -o json:"$2" 2>&1 >/dev/null' "$IOSWEEP" "$TESTDIR/small.ini" "$TESTDIR/s.json"
	[ -z "$output" ]
	# nor with --quiet
	run "$IOSWEEP" run "$TESTDIR/big.ini" -o json:"$TESTDIR/big.json" --quiet
	[ -z "$output" ]
}
