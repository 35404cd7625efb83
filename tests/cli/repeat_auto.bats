#!/usr/bin/env bats
# repeat = auto: at least 6 measured repeats, then until the median is known
# within 5%, 30 repeats or 60 s of them; the result says why it stopped.

load helpers

@test "repeat = auto stops a steady run once the median is known within 5%, and says so" {
	# a rate-limited run's time to end is its schedule's (255 ms): steady to well
	# within 5% (13 ms), so it stops at 6 repeats unless the machine stalls it
	job a "[a]\nfilename = $TESTDIR/f\nsize = 1m\nrepeat = auto\nrate_iops = 1000\n"
	run "$IOSWEEP" run "$TESTDIR/a.ini" -o json:"$TESTDIR/a.json" -o table
	[ "$status" -eq 0 ]
	echo "$output" | grep -E '^run 0: repeat=auto: ([6-9]|[12][0-9]|30) measured repeats, ± [0-9.]+%, within the target ± 5%$'
	n=$(json_get "$TESTDIR/a.json" "len(d['runs'][0]['repeats'])")
	[ "$n" -ge 6 ] && [ "$n" -le 30 ]
	[ "$(json_get "$TESTDIR/a.json" "d['runs'][0]['params']['repeat']")" = auto ]
	[ "$(json_get "$TESTDIR/a.json" "d['runs'][0]['repeat_auto']['stopped_by']")" = target ]
	json_get "$TESTDIR/a.json" "d['runs'][0]['repeat_auto']['spread_pct'] <= 5 or exit(1)"
	# a result of repeat=auto compares and plots like any other
	run "$IOSWEEP" compare "$TESTDIR/a.json" "$TESTDIR/a.json"
	[ "$status" -eq 0 ]
	echo "$output" | grep -q "(p=1 n=$n+$n)"
}

@test "repeat = auto shows in the plan, counted at its least; a fixed repeat still means N" {
	job p "[global]\nfilename = $TESTDIR/f\nsize = 64k\n[auto]\nrepeat = AUTO\n[fixed]\nrepeat = 2\n"
	run "$IOSWEEP" plan "$TESTDIR/p.ini"
	[ "$status" -eq 0 ]
	echo "$output" | grep -E '^ +0 +auto +.* auto$'
	echo "$output" | grep -E '^ +1 +fixed +.* 2$'
	echo "$output" | grep -q 'over all measured repeats (repeat=auto runs counted at their least, 6 repeats)$'
	run "$IOSWEEP" run "$TESTDIR/p.ini" -q -o json:"$TESTDIR/p.json" --job fixed
	[ "$(json_get "$TESTDIR/p.json" "len(d['runs'][0]['repeats'])")" -eq 2 ]
	[ "$(json_get "$TESTDIR/p.json" "'repeat_auto' in d['runs'][0]")" = False ]
	job bad "[a]\nsize = 64k\nrepeat = automatic\n"
	refused check bad "bad.ini:3: repeat"
}

@test "repeat = auto is the default: a job that says nothing of repeats repeats until its median is known, or says why not" {
	job d "[d]\nfilename = $TESTDIR/f\nsize = 64k\ncache = keep\n"
	run "$IOSWEEP" plan "$TESTDIR/d.ini"
	[ "$status" -eq 0 ]
	echo "$output" | grep -E '^ +0 +.* auto$'
	run "$IOSWEEP" run "$TESTDIR/d.ini" -o json:"$TESTDIR/d.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/d.json" "d['runs'][0]['params']['repeat']")" = auto ]
	n=$(json_get "$TESTDIR/d.json" "len(d['runs'][0]['repeats'])")
	[ "$n" -ge 6 ] && [ "$n" -le 30 ]
	json_get "$TESTDIR/d.json" "d['runs'][0]['repeat_auto']['stopped_by'] in ('target', 'count', 'budget') or exit(1)"
}
