#!/usr/bin/env bats
# The progress line, read as a terminal shows it: iosweep runs under a
# pseudo-terminal (script, from util-linux) and every redraw of the line
# becomes one line of text.  No timing here: the slow shim makes the reads
# slow enough for the line to be drawn, and the assertions are on what it
# says (bounds that hold however slow the machine is, and figures that must
# be the ones the result file has).

load helpers

# on_tty COLS ENV=VALUE... -- ARGS...: iosweep ARGS on a terminal COLS wide
# with the environment given; its redraws into $TESTDIR/tty, the progress
# lines of them into $TESTDIR/lines, its exit status into $TESTDIR/rc
on_tty() {
	command -v script >/dev/null || skip "needs script (util-linux) for a terminal"
	local cols=$1 envs=() cmd
	shift
	while [ "$1" != -- ]; do
		envs+=("$1")
		shift
	done
	shift
	cmd="stty cols $cols; exec env $(printf '%q ' "${envs[@]}" "$IOSWEEP" "$@")"
	script -qfec "$cmd" /dev/null >"$TESTDIR/raw" </dev/null && echo 0 >"$TESTDIR/rc" || echo $? >"$TESTDIR/rc"
	tr '\r' '\n' <"$TESTDIR/raw" >"$TESTDIR/tty"
	grep -a 'ETA' "$TESTDIR/tty" >"$TESTDIR/lines" || true
	cat -v "$TESTDIR/lines"
	grep -a "iosweep:" "$TESTDIR/tty" || true
}

slow() {
	echo "IOSWEEP_SLOW_FILE=$TESTDIR/f" "LD_PRELOAD=$HELPERS/slow_shim.so" "$@"
}

# the percentages of repeat R, in the order drawn
percents() {
	grep -a "repeat $1/" "$TESTDIR/lines" | grep -ao ' [0-9]*%' | tr -d ' %'
}

# check PYTHON: runs PYTHON with `lines` (the progress lines), `d` (the
# result), and `value(text)` (a figure as printed: "1.95 MB/s", "2.17 ms")
check() {
	python3 - "$TESTDIR/lines" "$TESTDIR/r.json" "$1" <<-'EOF'
	import json, re, sys
	lines = open(sys.argv[1], encoding='utf-8', errors='replace').read().splitlines()
	d = json.load(open(sys.argv[2]))
	SCALE = {'ns': 1e-9, 'µs': 1e-6, 'ms': 1e-3, 's': 1, 'B/s': 1, 'kB/s': 1e3, 'MB/s': 1e6,
		 'GB/s': 1e9, 'TB/s': 1e12}
	def value(text):
	    x, unit = text.split()
	    return float(x) * SCALE[unit]
	def near(a, b):  # printed with three significant digits
	    return abs(a - b) <= 0.006 * max(abs(a), abs(b)) + 1e-12
	exec(sys.argv[3])
	EOF
}

@test "a time_based repeat's progress goes by time: never past 100%, and its ETA is known from the start: at most the runtime left" {
	head -c 1m /dev/urandom >"$TESTDIR/f"
	# 2 ms a read: 1.5 s read the file about three times over
	job r "[r]\nfilename = $TESTDIR/f\nbs = 4k\ntime_based = 1\nruntime = 1500ms\nrepeat = 2\ncache = keep\n"
	on_tty 200 $(slow IOSWEEP_SLOW_MS=2) -- run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json"
	[ "$(cat "$TESTDIR/rc")" -eq 0 ]
	[ "$(json_get "$TESTDIR/r.json" "d['runs'][0]['repeats'][0]['bytes'] > 1048576")" = True ]
	grep -aq 'repeat 1/2 ' "$TESTDIR/lines"
	grep -aq 'repeat 2/2 ' "$TESTDIR/lines"
	for r in 1 2; do
		percents $r | awk -v r="$r" 'NR > 1 && $1 < last { print "repeat " r ": " $1 "% after " last "%"; bad = 1 }
			$1 > 100 { print "repeat " r ": " $1 "%"; bad = 1 } { last = $1 } END { exit bad }'
	done
	# time is all that ends them: known from the start, never "estimating"
	! grep -aq 'ETA estimating' "$TESTDIR/lines"
	# the first repeat: its runtime left and the second's, at most 3 s
	check '
etas = [value(m.group(1)) for l in lines if "repeat 1/2" in l
        for m in [re.search(r"ETA ([0-9.]+ [µnm]?s)$", l)] if m]
print(etas)
assert etas and max(etas) <= 3.0 and min(etas) > 1.4, etas'
	# then: the rest of the second repeat's runtime, at most 1.5 s
	check '
etas = [value(m.group(1)) for l in lines if "repeat 2/2" in l
        for m in [re.search(r"ETA ([0-9.]+ [µnm]?s)$", l)] if m]
print(etas)
assert etas and max(etas) <= 1.5, etas'
}

@test "a time_based repeat's ETA counts its startdelay: before its first I/O, and for every repeat to come" {
	head -c 1m /dev/urandom >"$TESTDIR/f"
	job r "[r]\nfilename = $TESTDIR/f\nbs = 4k\ntime_based = 1\nruntime = 1s\nstartdelay = 1s\nrepeat = 2\ncache = keep\n"
	on_tty 200 -- run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json"
	[ "$(cat "$TESTDIR/rc")" -eq 0 ]
	# repeat 1, while it waits: its 2 s and the second's 2 s; never more
	check '
etas = [value(m.group(1)) for l in lines if "repeat 1/2" in l
        for m in [re.search(r"ETA ([0-9.]+ [µnm]?s)$", l)] if m]
print(etas)
assert etas and max(etas) <= 4.0 and max(etas) > 2.5 and min(etas) > 1.9, etas'
	check '
etas = [value(m.group(1)) for l in lines if "repeat 2/2" in l
        for m in [re.search(r"ETA ([0-9.]+ [µnm]?s)$", l)] if m]
print(etas)
assert etas and max(etas) <= 2.0, etas'
}

@test "a repeat stopped by its runtime before its bytes goes by time: its ETA is at most the runtime of the repeats left" {
	head -c 4m /dev/urandom >"$TESTDIR/f"
	# 5 ms a read: the 1024 reads would take 5 s; each repeat ends after 1 s
	job r "[r]\nfilename = $TESTDIR/f\nbs = 4k\nruntime = 1s\nrepeat = 3\ncache = keep\ninterval = 0\n"
	on_tty 200 $(slow IOSWEEP_SLOW_MS=5) -- run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json"
	[ "$(cat "$TESTDIR/rc")" -eq 0 ]
	[ "$(json_get "$TESTDIR/r.json" "all(r['runtime_limited'] for r in d['runs'][0]['repeats'])")" = True ]
	for r in 1 2 3; do
		percents $r | awk 'NR > 1 && $1 < last { bad = 1 } $1 > 100 { bad = 1 } { last = $1 } END { exit bad }'
	done
	# repeat 2: the rest of it and all of repeat 3, 2 s at most; repeat 3: 1 s at most
	check '
for r, most in ((2, 2.0), (3, 1.0)):
    etas = [value(m.group(1)) for l in lines if f"repeat {r}/3" in l
            for m in [re.search(r"ETA ([0-9.]+ [µnm]?s)$", l)] if m]
    print(r, etas)
    assert etas and max(etas) <= most, (r, etas)'
}

@test "the line shows the latest interval's throughput and p99, as the repeat's series has them, over all threads" {
	head -c 1m /dev/urandom >"$TESTDIR/f"
	job r "[r]\nfilename = $TESTDIR/f\nbs = 4k\ntime_based = 1\nruntime = 2s\ninterval = 250ms\nthreads = 2\nrepeat = 1\ncache = keep\n"
	on_tty 200 $(slow IOSWEEP_SLOW_MS=2) -- run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json"
	[ "$(cat "$TESTDIR/rc")" -eq 0 ]
	check '
s = d["runs"][0]["repeats"][0]["series"]
assert s["interval_s"] == 0.25 and s["coarsened"] == 0, s
shown = [(m.group(1), m.group(2)) for l in lines
         for m in [re.search(r"% ([0-9.]+ [kMG]?B/s) p99 ([0-9.]+ [µnm]?s)", l)] if m]
print(shown)
assert shown
for rate, p99 in shown:
    # every read waits 2 ms in the shim
    assert value(p99) >= 2e-3, p99
    assert any(near(value(rate), i["bytes"] / s["interval_s"]) and near(value(p99), i["lat_p99_ns"] / 1e9)
               for i in s["intervals"]), (rate, p99, s["intervals"])'
}

@test "a mixed run's line counts reads and writes together: the interval's bytes both ways, a p99 between theirs" {
	job w "[w]\nfilename = $TESTDIR/w.dat\nsize = 1m\nbs = 4k\nop = readwrite\ntime_based = 1\nruntime = 1500ms\ninterval = 250ms\nrate_iops = 2000\nrepeat = 1\ncache = keep\n"
	on_tty 200 -- run "$TESTDIR/w.ini" -o json:"$TESTDIR/r.json"
	[ "$(cat "$TESTDIR/rc")" -eq 0 ]
	check '
s = d["runs"][0]["repeats"][0]["series"]
per = {}
for i in s["intervals"]:
    per.setdefault(i["start_s"], []).append(i)
shown = [(m.group(1), m.group(2)) for l in lines
         for m in [re.search(r"% ([0-9.]+ [kMG]?B/s) p99 ([0-9.]+ [µnm]?s)", l)] if m]
print(shown)
assert shown
for rate, p99 in shown:
    assert any(len(both) == 2 and near(value(rate), sum(i["bytes"] for i in both) / s["interval_s"]) and
               min(i["lat_p99_ns"] for i in both) * 0.99 <= value(p99) * 1e9 <= max(i["lat_p99_ns"] for i in both) * 1.01
               for both in per.values()), (rate, p99, per)'
}

@test "without a series (interval = 0, more than 64 threads) the line has a throughput and nothing about p99" {
	head -c 1m /dev/urandom >"$TESTDIR/f"
	for extra in "interval = 0" "interval = 250ms\nthreads = 65"; do
		job r "[r]\nfilename = $TESTDIR/f\nbs = 4k\ntime_based = 1\nruntime = 1500ms\nrepeat = 1\ncache = keep\n$extra\n"
		on_tty 200 $(slow IOSWEEP_SLOW_MS=20) -- run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json"
		[ "$(cat "$TESTDIR/rc")" -eq 0 ]
		[ "$(json_get "$TESTDIR/r.json" "'series' in d['runs'][0]['repeats'][0]")" = False ]
		grep -aq 'B/s  ETA' "$TESTDIR/lines"
		! grep -a 'p99' "$TESTDIR/lines"
	done
}

@test "during a stall the line keeps the latest interval and says how long ago it ended" {
	head -c 1m /dev/urandom >"$TESTDIR/f"
	# 500 reads a second in intervals of 200 ms; read 400 (at 0.8 s) takes 1.5 s
	job r "[r]\nfilename = $TESTDIR/f\nbs = 4k\ntime_based = 1\nruntime = 3s\ninterval = 200ms\nrate_iops = 500\nrepeat = 1\ncache = keep\n"
	on_tty 200 $(slow IOSWEEP_SLOW_AFTER=400 IOSWEEP_SLOW_COUNT=1 IOSWEEP_SLOW_MS=1500) -- \
		run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json"
	[ "$(cat "$TESTDIR/rc")" -eq 0 ]
	grep -aq 'p99 [0-9.]* [µnm]*s (.* ago)  ETA' "$TESTDIR/lines"
}

@test "the line fits the terminal, the run's name giving way first, and a job name cannot send it control characters" {
	head -c 1m /dev/urandom >"$TESTDIR/f"
	job r "[a-job-name-that-does-not-fit\033[7m-on-80-columns]\nfilename = $TESTDIR/f\nbs = 4k, 8k\ntime_based = 1\nruntime = 1s\ninterval = 250ms\nrepeat = 1\ncache = keep\n"
	for cols in 80 300; do
		on_tty $cols $(slow IOSWEEP_SLOW_MS=2) -- run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json"
		[ "$(cat "$TESTDIR/rc")" -eq 0 ]
		grep -aq '^.\[K\[1/2\] a-job' "$TESTDIR/lines"
		check "
for l in lines:
    assert l.startswith('\x1b[K'), l
    text = l[3:]
    assert len(text) < $cols and 'ETA' in text, (len(text), text)
    assert not any(ord(c) < 32 or 127 <= ord(c) < 160 for c in text), text"
	done
	# where the whole name fits, its escape is drawn as ?
	grep -aq '^.\[K\[1/2\] a-job-name-that-does-not-fit?\[7m-on-80-columns bs=4KiB  repeat 1/1' "$TESTDIR/lines"
}

@test "there is no progress line in a pipe, nor on a terminal with --quiet" {
	head -c 1m /dev/urandom >"$TESTDIR/f"
	job r "[r]\nfilename = $TESTDIR/f\nbs = 4k\ntime_based = 1\nruntime = 1s\nrepeat = 1\ncache = keep\n"
	run env IOSWEEP_SLOW_FILE="$TESTDIR/f" LD_PRELOAD="$HELPERS/slow_shim.so" IOSWEEP_SLOW_MS=2 \
		"$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json"
	[ "$status" -eq 0 ]
	[[ "$output" != *ETA* ]]
	on_tty 200 $(slow IOSWEEP_SLOW_MS=2) -- run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json" --quiet
	[ "$(cat "$TESTDIR/rc")" -eq 0 ]
	[ ! -s "$TESTDIR/lines" ]
	grep -aq . "$TESTDIR/r.json"
}

@test "the progress thread's table holds stderr only, not what the main thread had open" {
	# its copy of the main thread's table would keep open, as long as the run
	# lasts, whatever the main thread has open when it starts (thread_own_files)
	head -c 1m /dev/urandom >"$TESTDIR/f"
	job r "[r]\nfilename = $TESTDIR/f\nbs = 4k\ncache = keep\n"
	on_tty 200 IOSWEEP_SLOW_FILE="$TESTDIR/f" IOSWEEP_SLOW_MS=2 IOSWEEP_FILES_LOG="$TESTDIR/log" \
		LD_PRELOAD="$HELPERS/slow_shim.so:$HELPERS/files_shim.so" -- run "$TESTDIR/r.ini"
	[ "$(cat "$TESTDIR/rc")" -eq 0 ]
	cat "$TESTDIR/log"
	# its first ioctl (the terminal's width): stderr and nothing else
	grep -qx 'ioctl own 1' "$TESTDIR/log"
}
