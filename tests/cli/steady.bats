#!/usr/bin/env bats
# Steady state (ss) and cliffs: a repeat stops at the first window that meets
# the criterion, the verdict and each round's criterion are recomputed here
# from the repeat's own series (an independent computation in Python), and
# contradictory or meaningless settings are refused before any I/O.

load helpers

rep() {
	json_get "$TESTDIR/s.json" "d['runs'][0]['repeats'][0]$1"
}

# criteria_match W: True when each round's criterion is fio's range criterion
# in percent over the series' IOPS of the W intervals before its end,
# recomputed here for every window ending at a complete interval (both printed)
criteria_match() {
	json_get "$TESTDIR/s.json" "(r := d['runs'][0]['repeats'][0]) and (iv := r['series']['interval_s']) and (y := [p['ops'] / iv for p in r['series']['intervals']][:int(r['time_to_end_s'] / iv + 1e-9)]) and (want := [100 * max(abs(v - sum(y[e - $1:e]) / $1) for v in y[e - $1:e]) / (sum(y[e - $1:e]) / $1) for e in range($1, len(y) + 1)]) and (got := [x['criterion'] for x in r['steady']['rounds']]) and (print('criteria', got, 'from the series', want, 'ops', [p['ops'] for p in r['series']['intervals']], 'time', r['time_to_end_s'], file=sys.stderr) or (len(got) == len(want) and all(abs(a - b) <= 1e-8 * max(1, abs(b)) for a, b in zip(got, want))))"
}

@test "a rate-limited repeat is steady, stops there, and reports the window's mean" {
	head -c 1M /dev/urandom >"$TESTDIR/f"
	job s "[s]\nfilename = $TESTDIR/f\nbs = 4k\npattern = random\nrepeat = 1\ncache = keep\ntime_based = 1\nruntime = 6s\ninterval = 250ms\nrate_iops = 400\nss = iops:30%\nss_dur = 1s\n"
	run "$IOSWEEP" run "$TESTDIR/s.ini" -o json:"$TESTDIR/s.json" -o table
	echo "$output"
	[ "$status" -eq 0 ]
	# the steady column is one of the table's: its row is whole
	table_rows 1 <<<"$output"
	[ "$(rep "['steady']['attained']")" = True ]
	[ "$(rep "['runtime_limited']")" = False ]
	# it stopped at the window's end: no complete interval after it
	[ "$(rep "['time_to_end_s'] < r['steady']['window_end_s'] + 0.25 if (r := d['runs'][0]['repeats'][0]) else 0")" = True ]
	[ "$(rep "['steady']['window_end_s'] - d['runs'][0]['repeats'][0]['steady']['window_start_s']")" = 1.0 ]
	# the window's mean is its intervals' IOPS, from the series
	[ "$(json_get "$TESTDIR/s.json" "(r := d['runs'][0]['repeats'][0]) and (st := r['steady']) and abs(st['window_mean'] - sum(p['ops'] for p in r['series']['intervals'] if st['window_start_s'] <= p['start_s'] < st['window_end_s']) / 1.0) < 1e-6")" = True ]
	# the rounds are fio's range criterion of each window, the last one attained
	[ "$(rep "['steady']['rounds'][-1]['criterion'] < 30")" = True ]
	[ "$(criteria_match 4)" = True ]
	[[ "$output" == *"run 0 repeat 1: steady (window "*" s, iops:30%): "*" over the window"* ]]
	# the table's cell names the window, and the row's IOPS is the window's, not the repeat's
	[[ "$output" == *"steady (window $(rep "['steady']['window_start_s']" | sed 's/\.0$//')–$(rep "['steady']['window_end_s']" | sed 's/\.0$//') s)"* ]]
	[ "$(rep "['steady_window']['iops'] == d['runs'][0]['repeats'][0]['steady']['window_mean']")" = True ]
	[ "$(json_get "$TESTDIR/s.json" "(r := d['runs'][0]['repeats'][0]) and (st := r['steady']) and r['steady_window']['throughput_Bps'] == sum(p['bytes'] for p in r['series']['intervals'] if st['window_start_s'] <= p['start_s'] < st['window_end_s']) / 1.0")" = True ]
}

@test "a steady run's headline is its window's: over the repeats that attained it, never the whole run's" {
	head -c 1M /dev/urandom >"$TESTDIR/f"
	# 2 repeats at 400 IOPS, steady in the first second; then 1 unlimited run that is not steady
	job s "[s]\nfilename = $TESTDIR/f\nbs = 4k\npattern = random\nrepeat = 2\ncache = keep\ntime_based = 1\nruntime = 4s\ninterval = 250ms\nrate_iops = 400\nss = iops:30%\nss_dur = 1s\n[n]\nfilename = $TESTDIR/f\nbs = 4k\nrepeat = 1\ncache = keep\ntime_based = 1\nruntime = 1s\ninterval = 250ms\nss = iops:0.000001%\nss_dur = 750ms\n"
	run "$IOSWEEP" run "$TESTDIR/s.ini" -o json:"$TESTDIR/s.json" -o table -o csv:"$TESTDIR/s.csv"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/s.json" "[x['steady']['attained'] for x in d['runs'][0]['repeats']]")" = "[True, True]" ]
	# the row's IOPS: the median of the windows' IOPS, with its spread over the repeats
	local want
	want=$(json_get "$TESTDIR/s.json" "(w := sorted(x['steady_window']['iops'] for x in d['runs'][0]['repeats'])) and '%.0f' % ((w[0] + w[1]) / 2)")
	[[ "$output" == *"steady (window 0–1 s)"*" $want ± "* ]]
	# the run that is not steady says so, its window's figures are null, its row the repeat's
	[[ "$output" == *" not steady "* ]]
	[ "$(json_get "$TESTDIR/s.json" "d['runs'][1]['repeats'][0]['steady_window']['iops']")" = None ]
	[[ "$output" == *"steady: ss's verdict; a steady run's throughput"* ]]
	# CSV carries the window's figures and each round's criterion per repeat
	[ "$(/usr/bin/python3 -c "import csv; r = list(csv.DictReader(open('$TESTDIR/s.csv'))); print([(x['steady'], x['steady_iops'] != '', len(x['steady_rounds'].split(';')) >= 1) for x in r])")" = "[('attained', True, True), ('attained', True, True), ('not attained', False, True)]" ]
}

@test "an unreachable criterion is not steady: every round judged, the repeat runs its runtime" {
	head -c 1M /dev/urandom >"$TESTDIR/f"
	job s "[s]\nfilename = $TESTDIR/f\nbs = 4k\nrepeat = 1\ncache = keep\ntime_based = 1\nruntime = 1600ms\ninterval = 250ms\nss = iops:0.000001%\nss_dur = 750ms\n"
	run "$IOSWEEP" run "$TESTDIR/s.ini" -o json:"$TESTDIR/s.json" -o table -o csv:"$TESTDIR/s.csv"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(rep "['steady']['attained']")" = False ]
	# the runtime and the time both count from the first I/O
	[ "$(rep "['time_to_end_s'] >= 1.6")" = True ]
	# 6 complete intervals: windows of 3 end at the 3rd to the 6th
	[ "$(json_get "$TESTDIR/s.json" "[x['end_s'] for x in d['runs'][0]['repeats'][0]['steady']['rounds']]")" = "[0.75, 1.0, 1.25, 1.5]" ]
	[ "$(criteria_match 3)" = True ]
	[[ "$output" == *"run 0 repeat 1: not steady (iops:0.000001%)"* ]]
	[ "$(/usr/bin/python3 -c "import csv; r = list(csv.DictReader(open('$TESTDIR/s.csv'))); print(r[0]['steady'], len(r[0]['steady_rounds'].split(';')))")" = "not attained 4" ]
}

@test "steady state that cannot be judged is refused with the file and line" {
	local base="[s]\nfilename = $TESTDIR/f\nbs = 4k\nrepeat = 1\ntime_based = 1\ninterval = 1s\n"
	head -c 64k /dev/urandom >"$TESTDIR/f"
	job s "${base}runtime = 10s\nss = iops:10%\nss_dur = 20s\n"
	refused check s "s.ini:9: the window (ss_dur, after ss_ramp) is longer than the runtime"
	job s "${base}runtime = 10s\nss = iops:10%\nss_dur = 3s\nss_dir = write\n"
	refused check s "s.ini:10: ss_dir = write, but job 's' does op = read only"
	job s "${base}runtime = 10s\nss = iops_slope:0%\nss_dur = 3s\n"
	refused check s "s.ini:8: ss: 'iops_slope:0%': a limit of 0% is never met"
	job s "${base}runtime = 10s\nss = bw_slope:-1\nss_dur = 3s\n"
	refused check s "s.ini:8: ss: 'bw_slope:-1': a limit of -1 is never met"
	job s "${base}runtime = 2s\nss = iops:10%\nss_dur = 2s\n"
	refused check s "s.ini:8: ss needs a runtime of three intervals (1s) or more"
	job s "${base}runtime = 10s\nss = iops:10%\n"
	refused check s "s.ini:8: ss needs a window: ss_dur"
	job s "${base}runtime = 10s\nss_dur = 3s\n"
	refused check s "s.ini:8: ss_dur is for a steady state: set ss too"
	job s "${base}runtime = 10s\nss = iops:10%\nss_dur = 2s\n"
	refused check s "s.ini:9: a window of fewer than three intervals (1s)"
	job s "${base}runtime = 100s\nss = iops:10%\nss_dur = 3s\n"
	refused check s "s.ini:6: ss judges the series at the interval asked"
	job s "${base}runtime = 10s\nss = iops_snia\nss_dur = 5s\n"
	refused check s "s.ini:9: SNIA's rule judges a window of 5 intervals: leave out ss_dur"
	# an interval near 2^63 ns: three of them do not wrap round to a short time
	job s "[s]\nfilename = $TESTDIR/f\nbs = 4k\nrepeat = 1\ntime_based = 1\ninterval = 6148914691236517206ns\nruntime = 9000000000000000000ns\nss = iops:10%\nss_dur = 9000000000000000000ns\n"
	refused check s "s.ini:8: ss needs a runtime of three intervals (6148914691236517206ns) or more"
	job s "${base}runtime = 10s\nss = iops:10%\nss_dur = 3s\nthreads = 2\n"
	refused check s "s.ini:8: ss judges one worker's series as it runs: threads = 1"
	job s "${base}runtime = 10s\nss = iops\nss_dur = 3s\n"
	refused check s "s.ini:8: ss: 'iops' needs a limit"
}

@test "fio's steady state is imported as fio reads it: ss with ss_dur, fio's default without ss, ignored without ss_dur" {
	printf '[global]\nfilename=%s/f\nsize=1m\nrw=randread\ntime_based=1\nruntime=30\n[a]\nss=iops_slope:1%%\nss_dur=10\nss_ramp=6\nsteadystate_check_interval=2\n[b]\nstonewall\nsteadystate_duration=4s\n[c]\nstonewall\nsteadystate=bw:5%%\n' "$TESTDIR" >"$TESTDIR/s.fio"
	run "$IOSWEEP" import "$TESTDIR/s.fio" -o "$TESTDIR/s.ini"
	echo "$output"
	[ "$status" -eq 0 ]
	cat "$TESTDIR/s.ini"
	[ "$(sed -n '/^\[a\]/,/^\[b\]/p' "$TESTDIR/s.ini" | grep -E '^(ss|ss_dur|ss_ramp|interval) =' | sort | tr '\n' '|')" = "interval = 2s|ss = iops_slope:1%|ss_dur = 10s|ss_ramp = 6s|" ]
	[ "$(sed -n '/^\[b\]/,/^\[c\]/p' "$TESTDIR/s.ini" | grep -E '^ss' | sort | tr '\n' '|')" = "ss = iops_slope:0.01%|ss_dur = 4s|" ]
	[ -z "$(sed -n '/^\[c\]/,$p' "$TESTDIR/s.ini" | grep -E '^ss')" ]
	[[ "$output" == *"s.fio:17: steadystate=bw:5%: irrelevant: fio judges no steady state without ss_dur"* ]]
	# the imported job is one iosweep takes
	run "$IOSWEEP" check "$TESTDIR/s.ini"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "a fio criterion iosweep cannot read is refused by the import with its line" {
	printf '[a]\nfilename=%s/f\nsize=1m\nrw=read\ntime_based=1\nruntime=30\nss=iops_slope:0%%\nss_dur=10\n' "$TESTDIR" >"$TESTDIR/s.fio"
	run "$IOSWEEP" import "$TESTDIR/s.fio"
	echo "$output"
	[ "$status" -eq 2 ]
	[[ "$output" == *"s.fio:7: "*"a limit of 0% is never met"* ]]
}

@test "plot --over time shades the steady window and draws every cliff; bad marks are left out" {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed (apt-get install gnuplot-nox)"
	mkdir -p "$TESTDIR/bin" "$TESTDIR/drawn"
	printf '#!/bin/sh\ncp plot.gp "%s/drawn/" && exec "%s" "$@"\n' "$TESTDIR" "$(command -v gnuplot)" >"$TESTDIR/bin/gnuplot"
	chmod +x "$TESTDIR/bin/gnuplot"
	head -c 1M /dev/urandom >"$TESTDIR/f"
	job s "[s]\nfilename = $TESTDIR/f\nbs = 4k\npattern = random\nrepeat = 1\ncache = keep\ntime_based = 1\nruntime = 6s\ninterval = 250ms\nrate_iops = 400\nss = iops:30%\nss_dur = 1s\n"
	"$IOSWEEP" run "$TESTDIR/s.ini" -q -o json:"$TESTDIR/s.json"
	[ "$(rep "['steady']['attained']")" = True ]
	/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); r=d["runs"][0]["repeats"][0]; r["cliffs"]=[{"figure":"throughput_Bps","at_s":0.5,"at_bytes":1,"before":2,"after":1},{"figure":"throughput_Bps","at_s":"x","at_bytes":1,"before":2,"after":1}]; json.dump(d, open(sys.argv[1],"w"))' "$TESTDIR/s.json"
	PATH="$TESTDIR/bin:$PATH" run "$IOSWEEP" plot "$TESTDIR/s.json" --over time -o "$TESTDIR/s.svg"
	echo "$output"
	[ "$status" -eq 0 ]
	cat "$TESTDIR/drawn/plot.gp"
	# the x axis is in seconds here: the window and the one good cliff, at their times
	grep -q "^set xlabel.*(s)" "$TESTDIR/drawn/plot.gp"
	[ "$(grep -c '^set object rect' "$TESTDIR/drawn/plot.gp")" -eq 1 ]
	[ "$(grep '^set object rect' "$TESTDIR/drawn/plot.gp" | sed 's/set object rect from \([^,]*\), graph 0 to \([^,]*\),.*/\1 \2/')" = "$(json_get "$TESTDIR/s.json" "'%.17g %.17g' % (d['runs'][0]['repeats'][0]['steady']['window_start_s'], d['runs'][0]['repeats'][0]['steady']['window_end_s'])")" ]
	[ "$(grep -c '^set arrow' "$TESTDIR/drawn/plot.gp")" -eq 1 ]
	grep -q '^set arrow from 0.5, graph 0 to 0.5, graph 1' "$TESTDIR/drawn/plot.gp"
}

@test "a mixed job judges the direction asked; an interrupted repeat keeps its rounds and is not called steady" {
	head -c 4M /dev/urandom >"$TESTDIR/f"
	job s "[s]\nfilename = $TESTDIR/f\nallow_write = $TESTDIR/f\nop = readwrite\nbs = 4k\npattern = random\nrepeat = 1\ntime_based = 1\nruntime = 3s\ninterval = 100ms\nrate_iops = 1000\nss = iops:0.0001%\nss_dur = 500ms\nss_dir = write\n"
	"$IOSWEEP" run "$TESTDIR/s.ini" -o json:"$TESTDIR/s.json" >"$TESTDIR/out" 2>&1 &
	local pid=$!
	sleep 1.5
	kill -INT "$pid"
	wait "$pid" || true
	cat "$TESTDIR/out"
	[ "$(rep "['interrupted']")" = True ]
	[ "$(rep "['steady']['dir']")" = write ]
	[ "$(rep "['steady']['attained']")" = False ]
	# the rounds judged the writes' IOPS alone, recomputed from the series
	[ "$(json_get "$TESTDIR/s.json" "(r := d['runs'][0]['repeats'][0]) and (y := [p['ops'] / 0.1 for p in r['series']['intervals'] if p['dir'] == 'write']) and [round(x['criterion'], 6) for x in r['steady']['rounds']] == [round(100 * max(abs(v - sum(y[e - 5:e]) / 5) for v in y[e - 5:e]) / (sum(y[e - 5:e]) / 5), 6) for e in range(5, len(r['steady']['rounds']) + 5)]")" = True ]
	! grep -q "not steady" "$TESTDIR/out"
}

@test "jobs/precondition.ini and jobs/steady.ini: their precondition writes 2x and 1x the file, then the steady run judges its window" {
	local jobs="$BATS_TEST_DIRNAME/../../jobs"
	IOSWEEP_DIR="$TESTDIR" run "$IOSWEEP" run "$jobs/precondition.ini" --set size=4m -q -o json:"$TESTDIR/p.json"
	[ "$status" -eq 0 ]
	# two sequential passes of 128 KiB, then one random pass of 4 KiB, before reads that write nothing
	[ "$(json_get "$TESTDIR/p.json" "[(p['pass'], p['bs'], p['bytes']) for p in d['runs'][0]['precondition']]")" = "[('fill', 131072, 8388608), ('random', 4096, 4194304)]" ]
	[ "$(json_get "$TESTDIR/p.json" "sum(x['write_bytes'] for x in d['runs'][0]['repeats'])")" = 0 ]
	IOSWEEP_DIR="$TESTDIR" run "$IOSWEEP" run "$jobs/steady.ini" --set size=4m --set runtime=3s --set interval=100ms --set ss_dur=500ms --set ss_ramp=200ms -o json:"$TESTDIR/s.json" -o table
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/s.json" "[(p['pass'], p['bytes']) for p in d['runs'][0]['precondition']]")" = "[('fill', 8388608), ('random', 4194304)]" ]
	# a verdict either way, with the rounds after the 2 intervals left out
	[ "$(rep "['steady']['rounds'][0]['end_s']")" = 0.7 ]
	[[ "$output" == *"run 0 repeat 1: "*"steady"* ]]
	[[ "$output" == *"run 0: preconditioned (not in its figures): fill:2 wrote 8MiB in "* ]]
}

@test "stop_at_cliff ends the repeat at its first cliff, judged at the boundaries, and says so" {
	head -c 1M /dev/urandom >"$TESTDIR/f"
	# 2000 reads/s for the first 1000 reads, then each pread waits 2 ms (slow_shim): a cliff at 4096000 bytes;
	# the first reads take 200 µs each, not the few µs of a cached read, whose mean a busy machine
	# could raise by a quarter for 3 intervals, a cliff of latency before the one made here
	job c "[c]\nfilename = $TESTDIR/f\nbs = 4k\npattern = random\nengine = sync\nrepeat = 1\ncache = keep\ntime_based = 1\nruntime = 3s\ninterval = 100ms\nrate_iops = 2000\nstop_at_cliff = 1\n"
	run env IOSWEEP_SLOW_FILE="$TESTDIR/f" IOSWEEP_SLOW_AFTER=1000 IOSWEEP_SLOW_MS=2 IOSWEEP_SLOW_FIRST_US=200 LD_PRELOAD="$HELPERS/slow_shim.so" \
		"$IOSWEEP" run "$TESTDIR/c.ini" -o json:"$TESTDIR/s.json" -o table -o csv:"$TESTDIR/s.csv"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(rep "['cliff_stopped']")" = True ]
	[ "$(rep "['runtime_limited']")" = False ]
	# the throughput's cliff is where the shim slowed the reads, placed within its interval
	[ "$(rep "['cliffs'][0]['figure']")" = throughput_Bps ]
	[ "$(json_get "$TESTDIR/s.json" "abs(d['runs'][0]['repeats'][0]['cliffs'][0]['at_bytes'] - 4096000) <= 0.05 * 4096000")" = True ]
	# it ended 3 complete intervals after the cliff's (each side of a cliff is 3 or more), not at its runtime
	[ "$(json_get "$TESTDIR/s.json" "(r := d['runs'][0]['repeats'][0]) and abs(int(r['time_to_end_s'] / 0.1 + 1e-9) - (r['cliffs'][0]['at_s'] / 0.1 + 3)) <= 1")" = True ]
	[[ "$output" == *"run 0 repeat 1: ended at its first cliff (stop_at_cliff)"* ]]
	[ "$(/usr/bin/python3 -c "import csv; print(list(csv.DictReader(open('$TESTDIR/s.csv')))[0]['cliff_stopped'])")" = true ]
}

@test "without stop_at_cliff the same cliff is reported and the repeat runs on" {
	head -c 1M /dev/urandom >"$TESTDIR/f"
	job c "[c]\nfilename = $TESTDIR/f\nbs = 4k\npattern = random\nengine = sync\nrepeat = 1\ncache = keep\ntime_based = 1\nruntime = 1500ms\ninterval = 100ms\nrate_iops = 2000\n"
	run env IOSWEEP_SLOW_FILE="$TESTDIR/f" IOSWEEP_SLOW_AFTER=1000 IOSWEEP_SLOW_MS=2 IOSWEEP_SLOW_FIRST_US=200 LD_PRELOAD="$HELPERS/slow_shim.so" \
		"$IOSWEEP" run "$TESTDIR/c.ini" -o json:"$TESTDIR/s.json" -o table
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(rep "['time_to_end_s'] >= 1.5")" = True ]
	[ "$(rep ".get('cliff_stopped')")" = None ]
	[ "$(rep "['cliffs'][0]['figure']")" = throughput_Bps ]
	[[ "$output" != *"stop_at_cliff"* ]]
}

@test "stop_at_cliff that cannot be judged is refused with the file and line" {
	local base="[s]\nfilename = $TESTDIR/f\nbs = 4k\nrepeat = 1\ntime_based = 1\n"
	head -c 64k /dev/urandom >"$TESTDIR/f"
	job s "${base}runtime = 10s\ninterval = 0\nstop_at_cliff = 1\n"
	refused check s "s.ini:8: stop_at_cliff judges the repeat's series at its boundaries: it needs an interval and a runtime"
	job s "${base}runtime = 10s\ninterval = 1s\nstop_at_cliff = 1\nthreads = 2\n"
	refused check s "s.ini:8: stop_at_cliff judges one worker's series as it runs: threads = 1"
	job s "${base}runtime = 5s\ninterval = 1s\nstop_at_cliff = 1\n"
	refused check s "s.ini:8: a cliff needs 3 intervals on each side: the runtime holds fewer than 6"
	job s "${base}runtime = 100s\ninterval = 1s\nstop_at_cliff = 1\n"
	refused check s "s.ini:7: stop_at_cliff judges the series at the interval asked"
	job s "${base}runtime = 10s\ninterval = 1s\nstop_at_cliff = maybe\n"
	run "$IOSWEEP" check "$TESTDIR/s.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *"s.ini:8: "* ]]
}
