#!/usr/bin/env bats
# Comparing engines on one box: combinations of lists that cannot run are
# skipped with one note, not a failed job; jobs/engines.ini is that job.
# make check: runs beside another file

load helpers

@test "engine and cache lists skip mmap with cache=direct, with one note, and keep the lists' order" {
	job e "[global]\nfilename = $TESTDIR/f\nsize = 64k\nrepeat = 1\n[e]\nengine = sync, mmap, uring\niodepth = 1, 4\ncache = keep, direct\n"
	run "$IOSWEEP" plan "$TESTDIR/e.ini"
	[ "$status" -eq 0 ]
	[[ "$output" == *"iosweep: note: $TESTDIR/e.ini:5: job 'e': engine=mmap with cache=direct cannot run: 1 run of its lists skipped"* ]]
	# sync keep, sync direct, mmap keep, uring 1 keep, uring 1 direct, uring 4 keep, uring 4 direct
	rows=$("$IOSWEEP" plan "$TESTDIR/e.ini" -o json 2>/dev/null | python3 -c "import json, sys
for r in json.load(sys.stdin)['runs']:
    p = r['params']; print(p['engine'], p['iodepth'], p['cache'])" | tr '\n' ' ')
	[ "$rows" = "sync 1 keep sync 1 direct mmap 1 keep uring 1 keep uring 1 direct uring 4 keep uring 4 direct " ]
	run "$IOSWEEP" run "$TESTDIR/e.ini" -q -o json:"$TESTDIR/e.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/e.json" "len(d['runs'])")" -eq 7 ]
}

@test "a combination asked for without a list is still refused, as is a job none of whose combinations can run" {
	job m "[global]\nfilename = $TESTDIR/f\nsize = 64k\n[m]\nengine = mmap\ncache = direct\n"
	refused plan m "m.ini:6: cache=direct cannot be used with engine=mmap (job 'm')"
	job n "[global]\nfilename = $TESTDIR/f\nsize = 64k\n[n]\nengine = mmap\ncache = direct\nhipri = 0, 1\n"
	refused plan n "n.ini:6: cache=direct cannot be used with engine=mmap (job 'n')"
}

@test "jobs/engines.ini plans every engine at depth 1 and 32, cached and direct, mmap direct skipped" {
	"$IOSWEEP" plan "$BATS_TEST_DIRNAME/../../jobs/engines.ini" --set size=1m --set count=16 -o json \
		>"$TESTDIR/plan.json" 2>"$TESTDIR/err"
	grep -q "engine=mmap with cache=direct cannot run: 1 run of its lists skipped" "$TESTDIR/err"
	[ "$(json_get "$TESTDIR/plan.json" "len(d['runs'])")" -eq 13 ]
}
