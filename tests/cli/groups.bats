#!/usr/bin/env bats
# Jobs that run together (group = NAME): one start line for every job of a
# group, each job's own figures, the group's end rule, lists that multiply
# the whole group, and the job files a group cannot run.  Rates bound how
# fast a job can go, so that which job ends first does not depend on the
# machine's load.

load helpers

# grp FILE EXPR: EXPR on the JSON document d of $TESTDIR/FILE.json
grp() {
	json_get "$TESTDIR/$1.json" "$2"
}

@test "two jobs of a group start at one start line: each repeat has the group's start skew, the same for both" {
	head -c 1m /dev/urandom >"$TESTDIR/a"
	head -c 1m /dev/urandom >"$TESTDIR/b"
	job g "[global]\ngroup = pair\nrepeat = 2\ncache = keep\nbs = 64k\n[a]\nfilename = $TESTDIR/a\n[b]\nfilename = $TESTDIR/b\n"
	run "$IOSWEEP" run "$TESTDIR/g.ini" -o json:"$TESTDIR/g.json" -o table
	[ "$status" -eq 0 ]
	# the group column is one of the table's: its rows are whole
	table_rows 2 <<<"$output"
	[[ "$output" == *"group pair 0 (runs 0-1): its jobs started at one start line"* ]]
	[ "$(grp g "len(d['runs'])")" -eq 2 ]
	[ "$(grp g "[r['group']['name'] for r in d['runs']]")" = "['pair', 'pair']" ]
	[ "$(grp g "[r['group']['position'] for r in d['runs']]")" = "[0, 1]" ]
	[ "$(grp g "d['groups'][0]['runs']")" = "[0, 1]" ]
	[ "$(grp g "d['groups'][0]['end']")" = all ]
	# the skew is the group's (the latest first I/O of its workers less the
	# earliest): the same in both jobs and in the group run, and a measured time
	for k in 0 1; do
		[ "$(grp g "d['runs'][0]['repeats'][$k]['group_start_skew_s'] == d['runs'][1]['repeats'][$k]['group_start_skew_s'] == d['groups'][0]['start_skew_s'][$k]")" = True ]
		[ "$(grp g "0 <= d['runs'][0]['repeats'][$k]['group_start_skew_s'] < 60")" = True ]
		[ "$(grp g "[r['repeats'][$k]['group_cut'] for r in d['runs']]")" = "[False, False]" ]
	done
}

@test "each job of a group reads what it reads alone: bytes, reads and checksums" {
	head -c 2m /dev/urandom >"$TESTDIR/a"
	head -c 1m /dev/urandom >"$TESTDIR/b"
	body="[a]\nfilename = $TESTDIR/a\nbs = 4k\npattern = random\n[b]\nfilename = $TESTDIR/b\nbs = 16k\nthreads = 2\n"
	job g "[global]\ngroup = pair\nrepeat = 1\ncache = keep\nconsume = checksum\n$body"
	job alone "[global]\nrepeat = 1\ncache = keep\nconsume = checksum\n$body"
	"$IOSWEEP" run "$TESTDIR/g.ini" -o json:"$TESTDIR/g.json" --quiet
	"$IOSWEEP" run "$TESTDIR/alone.ini" -o json:"$TESTDIR/alone.json" --quiet
	[ "$(grp g "[r['group']['run'] for r in d['runs']]")" = "[0, 0]" ]
	[ "$(grp alone "[('group' in r) for r in d['runs']] + [('groups' in d)]")" = "[False, False, False]" ]
	for k in 0 1; do
		for f in bytes reads checksum; do
			[ "$(grp g "d['runs'][$k]['repeats'][0]['$f']")" = "$(grp alone "d['runs'][$k]['repeats'][0]['$f']")" ]
		done
	done
	[ "$(grp g "d['runs'][0]['repeats'][0]['reads']")" -eq 512 ]
	[ "$(grp g "d['runs'][1]['repeats'][0]['reads']")" -eq 64 ]
	[ "$(grp g "d['runs'][1]['repeats'][0]['checksum']")" = "$(refsum "$TESTDIR/b" sequential 1048576 16384 16384 0 1)" ]
}

# first_done END: job quick (16 reads at 100/s) and job slow (4096 reads at 1000/s)
first_done() {
	head -c 64k /dev/urandom >"$TESTDIR/q"
	head -c 16m /dev/urandom >"$TESTDIR/s"
	job g "[global]\ngroup = pair\ngroup_end = $1\nrepeat = 1\ncache = keep\nbs = 4k\n[quick]\nfilename = $TESTDIR/q\nrate_iops = 100\n[slow]\nfilename = $TESTDIR/s\nrate_iops = 1000\n"
	run "$IOSWEEP" run "$TESTDIR/g.ini" -o json:"$TESTDIR/g.json" -o csv:"$TESTDIR/g.csv" -o table
}

@test "group_end = first: the first job to end cuts the others, which are marked cut" {
	first_done first
	[ "$status" -eq 0 ]
	[ "$(grp g "d['runs'][0]['repeats'][0]['reads']")" -eq 16 ]
	[ "$(grp g "d['runs'][0]['repeats'][0]['group_cut']")" = False ]
	# slow could not read its 4096 blocks in the quick job's time at its rate
	[ "$(grp g "0 < d['runs'][1]['repeats'][0]['reads'] < 4096")" = True ]
	[ "$(grp g "d['runs'][1]['repeats'][0]['group_cut']")" = True ]
	[ "$(grp g "d['runs'][1]['repeats'][0]['runtime_limited']")" = False ]
	[ "$(grp g "d['runs'][1]['repeats'][0]['interrupted']")" = False ]
	[ "$(grp g "d['groups'][0]['end']")" = first ]
	[[ "$output" == *"pair 0 cut"* ]]
	[[ "$output" == *"run 1 (job 'slow'): cut in 1 of 1 repeats by group_end = first"* ]]
	python3 - "$TESTDIR/g.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [(r['job'], r['group'], r['group_run'], r['group_cut']) for r in rows] == \
    [('quick', 'pair', '0', 'false'), ('slow', 'pair', '0', 'true')], rows
PY
}

@test "group_end = all (the default) waits for every job: none is cut" {
	head -c 64k /dev/urandom >"$TESTDIR/q"
	head -c 256k /dev/urandom >"$TESTDIR/s"
	job g "[global]\ngroup = pair\nrepeat = 1\ncache = keep\nbs = 4k\n[quick]\nfilename = $TESTDIR/q\n[slow]\nfilename = $TESTDIR/s\nrate_iops = 500\n"
	"$IOSWEEP" run "$TESTDIR/g.ini" -o json:"$TESTDIR/g.json" --quiet
	[ "$(grp g "[r['repeats'][0]['reads'] for r in d['runs']]")" = "[16, 64]" ]
	[ "$(grp g "[r['repeats'][0]['group_cut'] for r in d['runs']]")" = "[False, False]" ]
}

@test "group_end = TIME cuts every job still running at that time after the start line" {
	first_done 100ms
	[ "$status" -eq 0 ]
	[ "$(grp g "d['groups'][0]['end']")" = time ]
	[ "$(grp g "d['groups'][0]['end_s']")" = 0.1 ]
	# neither can end by itself within 100 ms at its rate
	[ "$(grp g "[r['repeats'][0]['group_cut'] for r in d['runs']]")" = "[True, True]" ]
	[ "$(grp g "d['runs'][0]['repeats'][0]['reads'] < 16 and d['runs'][1]['repeats'][0]['reads'] < 4096")" = True ]
}

@test "a list in one job of a group makes one run of the whole group per value, lists of several jobs multiply" {
	head -c 256k /dev/urandom >"$TESTDIR/a"
	head -c 256k /dev/urandom >"$TESTDIR/b"
	job g "[global]\nrepeat = 1\ncache = keep\n[a]\ngroup = pair\nfilename = $TESTDIR/a\nbs = 4k,8k\n[b]\ngroup = pair\nfilename = $TESTDIR/b\nbs = 16k,32k,64k\n[c]\nfilename = $TESTDIR/a\nbs = 64k\n"
	run "$IOSWEEP" plan "$TESTDIR/g.ini"
	[ "$status" -eq 0 ]
	# the plan's rows name each run's group run: pair 0 ... pair 5, c alone
	[ "$(grep -cE '^ *[0-9]+ +[ab] +pair [0-5] ' <<<"$output")" -eq 12 ]
	[ "$(grep -cE '^ *1[01] +[ab] +pair 5 ' <<<"$output")" -eq 2 ]
	"$IOSWEEP" run "$TESTDIR/g.ini" -o json:"$TESTDIR/g.json" --quiet
	# 2 x 3 group runs of 2 jobs, then c alone
	[ "$(grp g "len(d['runs'])")" -eq 13 ]
	[ "$(grp g "[g['run'] for g in d['groups']]")" = "[0, 1, 2, 3, 4, 5]" ]
	[ "$(grp g "[(r['job'], r['params']['bs']) for r in d['runs'][:4]]")" = "[('a', 4096), ('b', 16384), ('a', 4096), ('b', 32768)]" ]
	[ "$(grp g "[(r['job'], r['params']['bs']) for r in d['runs'][10:12]]")" = "[('a', 8192), ('b', 65536)]" ]
	[ "$(grp g "[g['runs'] for g in d['groups']][5]")" = "[10, 11]" ]
	[ "$(grp g "('group' in d['runs'][12], d['runs'][12]['repeats'][0]['reads'])")" = "(False, 4)" ]
}

@test "a group of one job reads what the job reads alone" {
	head -c 256k /dev/urandom >"$TESTDIR/a"
	job g "[a]\ngroup = solo\nfilename = $TESTDIR/a\nrepeat = 1\ncache = keep\nconsume = checksum\n"
	"$IOSWEEP" run "$TESTDIR/g.ini" -o json:"$TESTDIR/g.json" --quiet
	[ "$(grp g "d['runs'][0]['group']['jobs']")" -eq 1 ]
	[ "$(grp g "d['runs'][0]['repeats'][0]['checksum']")" = "$(refsum "$TESTDIR/a" sequential 262144 4096 4096 0 1)" ]
}

# bad LINE MESSAGE: the plan of $TESTDIR/g.ini is refused at g.ini:LINE with MESSAGE, exit 2
bad() {
	run "$IOSWEEP" plan "$TESTDIR/g.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *"g.ini:$1: "*"$2"* ]]
	[ "${#lines[@]}" -eq 1 ]
}

@test "a group whose jobs share a file that one writes and another verifies is refused at the verify" {
	job g "[global]\ngroup = pair\nfilename = $TESTDIR/w\nsize = 64k\n[w]\nop = write\nallow_write = $TESTDIR/w\n[v]\nverify = after\n"
	bad 9 "job 'v' verifies $TESTDIR/w, which job 'w' of its group 'pair' writes at the same time"
}

@test "group_end that makes no sense is refused: not a word or time, without a group, first with one job, two ends" {
	job g "[a]\ngroup = g\ngroup_end = soon\nsize = 64k\n"
	bad 3 "group_end = soon: not all, first, or a time"
	job g "[a]\ngroup_end = first\nsize = 64k\n"
	bad 2 "group_end in job 'a', which is in no group"
	job g "[a]\ngroup = g\ngroup_end = first\nsize = 64k\n"
	bad 3 "group_end = first in group 'g', which has one job"
	job g "[a]\ngroup = g\ngroup_end = 0s\nsize = 64k\n"
	bad 3 "group_end = 0s: not all, first, or a time after the start line greater than 0"
	job g "[global]\ngroup = g\nsize = 64k\n[a]\ngroup_end = first\n[b]\ngroup_end = 10s\n"
	bad 7 "job 'b' ends group 'g' with group_end = 10s, job 'a' with first"
}

@test "jobs of a group that repeat or warm up differently are refused: the group repeats as a whole" {
	job g "[global]\ngroup = g\nsize = 64k\n[a]\nrepeat = 2\n[b]\nrepeat = 3\n"
	bad 7 "repeat = 3 in job 'b', 2 in job 'a' of the same group 'g'"
	job g "[global]\ngroup = g\nsize = 64k\n[a]\n[b]\nwarmup = 1\n"
	bad 6 "warmup = 1 in job 'b', 0 in job 'a'"
}

@test "fio import: the jobs between two stonewalls run together as one group each, and run so" {
	cd "$TESTDIR"
	head -c 256k /dev/urandom >f
	printf '[global]\nfilename=%s/f\nrw=read\nsize=256k\n[a]\nbs=4k\n[b]\nbs=8k\n[c]\nstonewall\nbs=16k\n[d]\nbs=32k\n[e]\nstonewall\nbs=64k\n' "$TESTDIR" >s.fio
	run "$IOSWEEP" import s.fio -o s.ini
	[ "$status" -eq 0 ]
	[ "$(grep -c '^group = fio0$' s.ini)" -eq 2 ]
	[ "$(grep -c '^group = fio1$' s.ini)" -eq 2 ]
	[ "$(grep -c '^group = ' s.ini)" -eq 4 ]
	"$IOSWEEP" run s.ini --set repeat=1 --set cache=keep -o json:s.json --quiet
	[ "$(json_get s.json "[(r['job'], r.get('group', {}).get('name')) for r in d['runs']]")" = "[('a', 'fio0'), ('b', 'fio0'), ('c', 'fio1'), ('d', 'fio1'), ('e', None)]" ]
	[ "$(json_get s.json "[r['repeats'][0]['reads'] for r in d['runs']]")" = "[64, 32, 16, 8, 4]" ]
}

@test "compare and plot know a job inside a group run by its group and job: the same job in two group runs is two runs" {
	head -c 256k /dev/urandom >"$TESTDIR/a"
	head -c 256k /dev/urandom >"$TESTDIR/b"
	job g "[global]\nrepeat = 2\ncache = keep\n[a]\ngroup = pair\nfilename = $TESTDIR/a\nbs = 4k\n[b]\ngroup = pair\nfilename = $TESTDIR/b\nbs = 16k,32k\n"
	"$IOSWEEP" run "$TESTDIR/g.ini" -o json:"$TESTDIR/old.json" --quiet
	"$IOSWEEP" run "$TESTDIR/g.ini" -o json:"$TESTDIR/new.json" --quiet
	"$IOSWEEP" compare "$TESTDIR/old.json" "$TESTDIR/new.json" -o json >"$TESTDIR/cmp.json"
	# job a runs twice (once beside each b): matched run for run, by group run
	[ "$(json_get "$TESTDIR/cmp.json" "[r['label'] for r in d['runs']]")" = "['a group_run=0', 'b bs=16KiB group_run=0', 'a group_run=1', 'b bs=32KiB group_run=1']" ]
	[ "$(json_get "$TESTDIR/cmp.json" "[(r['params']['group'], r['params']['group_run']) for r in d['runs']]")" = "[('pair', 0), ('pair', 0), ('pair', 1), ('pair', 1)]" ]
	[ "$(json_get "$TESTDIR/cmp.json" "d['only_in_old'] + d['only_in_new']")" = "[]" ]
	run "$IOSWEEP" plot "$TESTDIR/old.json" -o "$TESTDIR/p.svg"
	[ "$status" -eq 0 ]
	grep -q '>a group_run=1<' "$TESTDIR/p.svg"
	grep -q '>b group_run=0<' "$TESTDIR/p.svg"
}

@test "startdelay: a job of a group starts that long after the start line, and the wait is in none of its figures" {
	head -c 256k /dev/urandom >"$TESTDIR/a"
	head -c 256k /dev/urandom >"$TESTDIR/b"
	# early reads for about 1.5 s at its rate; late, 20 reads at 200/s, starts 1 s in
	job g "[global]\ngroup = pair\nrepeat = 1\ncache = keep\nbs = 4k\npattern = random\ninterval = 100ms\n[early]\nfilename = $TESTDIR/a\nrate_iops = 20\ncount = 30\n[late]\nfilename = $TESTDIR/b\nrate_iops = 200\ncount = 20\nstartdelay = 1s\n"
	run "$IOSWEEP" run "$TESTDIR/g.ini" -o json:"$TESTDIR/g.json" -o table
	[ "$status" -eq 0 ]
	# (the note wraps with the terminal's width)
	[[ "$(tr -s ' \n' '  ' <<<"$output")" == *"their first I/Os at most "*" apart besides their startdelay"* ]]
	[ "$(grp g "d['runs'][1]['params']['startdelay']")" = 1.0 ]
	# plan says the wait beside the time a rated repeat takes
	run "$IOSWEEP" plan "$TESTDIR/g.ini"
	[[ "$output" == *"run 1: a repeat at its rate takes about "*", after a startdelay of 1.00 s"* ]]
	# its time, the group's start skew and its rate schedule all leave the second out
	[ "$(grp g "d['runs'][1]['repeats'][0]['reads']")" -eq 20 ]
	[ "$(grp g "d['runs'][1]['repeats'][0]['time_to_end_s'] < 0.9")" = True ]
	[ "$(grp g "d['groups'][0]['start_skew_s'][0] < 0.9")" = True ]
	[ "$(grp g "d['runs'][1]['repeats'][0]['behind_max_s'] < 0.9")" = True ]
	# its series is on the group's timeline: nothing before the second, all after
	[ "$(grp g "sum(i['ops'] for i in d['runs'][1]['repeats'][0]['series']['intervals'] if i['start_s'] < 0.95)")" -eq 0 ]
	[ "$(grp g "sum(i['ops'] for i in d['runs'][1]['repeats'][0]['series']['intervals'])")" -eq 20 ]
	[ "$(grp g "d['runs'][1]['repeats'][0]['cliffs']")" = "[]" ]
	[ "$(grp g "sum(i['ops'] for i in d['runs'][0]['repeats'][0]['series']['intervals'] if i['start_s'] < 0.95)")" -gt 0 ]
}

@test "startdelay: steady state and cliffs are judged on the intervals after the wait, never on its empty ones" {
	head -c 256k /dev/urandom >"$TESTDIR/a"
	# 500 reads/s from 1 s in: steady from its first three intervals after the wait
	job s "[s]\nfilename = $TESTDIR/a\nrepeat = 1\ncache = keep\ntime_based = 1\nruntime = 4s\nrate_iops = 500\ninterval = 200ms\nss = iops:20%\nss_dur = 600ms\nstartdelay = 1s\n"
	"$IOSWEEP" run "$TESTDIR/s.ini" -o json:"$TESTDIR/s.json" --quiet
	[ "$(grp s "[(r['attained'], r['window_start_s'] >= 1.0, round(r['window_end_s'] - r['window_start_s'], 6)) for r in [d['runs'][0]['repeats'][0]['steady']]][0]")" = "(True, True, 0.6)" ]
	[ "$(grp s "d['runs'][0]['repeats'][0]['reads'] >= 250")" = True ]
	# the step from nothing to its rate at the end of the wait is no cliff: it runs its runtime,
	# unless a busy machine makes one later (3 intervals of the job's on each side: from 1.6 s)
	job c "[c]\nfilename = $TESTDIR/a\nrepeat = 1\ncache = keep\ntime_based = 1\nruntime = 2s\nrate_iops = 500\ninterval = 200ms\nstop_at_cliff = 1\nstartdelay = 1s\n"
	"$IOSWEEP" run "$TESTDIR/c.ini" -o json:"$TESTDIR/c.json" --quiet
	[ "$(grp c "[(all(c['at_s'] > 1.5 for c in r['cliffs']), bool(r['cliffs']) or r['time_to_end_s'] > 1.9) for r in d['runs'][0]['repeats']][0]")" = "(True, True)" ]
}

@test "startdelay: a job still waiting when its group ends is cut with no I/O; a signal ends the wait at once" {
	head -c 64k /dev/urandom >"$TESTDIR/a"
	job g "[global]\ngroup = pair\ngroup_end = first\nrepeat = 1\ncache = keep\nbs = 4k\nfilename = $TESTDIR/a\n[quick]\n[late]\nstartdelay = 60s\n"
	SECONDS=0
	timeout 30 "$IOSWEEP" run "$TESTDIR/g.ini" -o json:"$TESTDIR/g.json" --quiet
	[ "$SECONDS" -lt 30 ]
	[ "$(grp g "[(r['repeats'][0]['reads'], r['repeats'][0]['group_cut']) for r in d['runs']]")" = "[(16, False), (0, True)]" ]
	# waiting, after a first run: SIGINT, SIGTERM or SIGHUP stops it, its results written and marked
	job w "[global]\nrepeat = 1\ncache = keep\nbs = 4k\nfilename = $TESTDIR/a\n[first]\n[w]\nstartdelay = 60s\n"
	for sig in INT TERM HUP; do
		rm -f "$TESTDIR/w.json"
		"$IOSWEEP" run "$TESTDIR/w.ini" -o json:"$TESTDIR/w.json" --quiet &
		pid=$!
		wait_for json_runs "$TESTDIR/w.json" 1
		sleep 0.3
		SECONDS=0
		stop_with "$sig" "$pid"
		[ "$SECONDS" -lt 10 ]
		[ "$(grp w "d['interrupted'], d['runs'][1]['repeats'][0]['interrupted'], d['runs'][1]['repeats'][0]['reads']")" = "(True, True, 0)" ]
	done
}
