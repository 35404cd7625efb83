#!/usr/bin/env bats
# iosweep plot --over time|bytes: what happened inside repeats, from their
# series.  Reads are paced by a fixed rate so that repeats last several
# intervals; nothing here depends on how long anything took: the drawn
# numbers are checked against the JSON they come from.

load helpers

need_gnuplot() {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed (apt-get install gnuplot-nox)"
}

svg_text() {
	python3 "$BATS_TEST_DIRNAME/svgplot.py" text "$1"
}

svg_lines() {
	python3 "$BATS_TEST_DIRNAME/svgplot.py" lines "$1"
}

# series_result NAME TEXT: runs job TEXT (with the [global] below) into $TESTDIR/NAME.json
series_result() {
	job "$1" "[global]\nfilename = $TESTDIR/f\ncache = keep\nrepeat = 2\ninterval = 20ms\n$2"
	"$IOSWEEP" run "$TESTDIR/$1.ini" -q -o json:"$TESTDIR/$1.json"
}

# capture_gnuplot: the next plot's data and script are also copied to $TESTDIR/drawn/
# by a gnuplot in front of the real one
capture_gnuplot() {
	mkdir -p "$TESTDIR/bin" "$TESTDIR/drawn"
	printf '#!/bin/sh\ncp data.dat plot.gp "%s/drawn/" && exec "%s" "$@"\n' "$TESTDIR" \
		"$(command -v gnuplot)" >"$TESTDIR/bin/gnuplot"
	chmod +x "$TESTDIR/bin/gnuplot"
	export PATH="$TESTDIR/bin:$PATH"
}

# edit FILE PYTHON: runs PYTHON on the parsed document d of FILE and writes it back
edit() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); exec(sys.argv[2]); json.dump(d, open(sys.argv[1], "w"), indent=1)' "$1" "$2"
}

# The drawn points of data block N against what the JSON says: every interval of
# direction DIR of runs[RUN].repeats[REP], at its middle (in time, or in bytes of
# both directions so far), with bytes over its length (the last one lasting as long
# as the repeat went on) and its own p99 (none without I/O), in the units the axis
# labels name.
check_drawn() {
	python3 - "$TESTDIR/drawn/data.dat" "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" <<'EOF'
import json, math, sys
data, result, run, rep, dir, block, over, xunit, yunits = sys.argv[1:]
blocks = open(data).read().strip('\n').split('\n\n\n')
rows = [[float(v) for v in r.split()] for r in blocks[int(block)].split('\n')]
r = json.load(open(result))['runs'][int(run)]['repeats'][int(rep)]
s = r['series']
scale = {'s': 1, 'ms': 1e3, 'µs': 1e6, 'ns': 1e9, 'bytes': 1, 'KiB': 1 / 1024,
         'MiB': 1 / 1024**2, 'B/s': 1, 'kB/s': 1e-3, 'MB/s': 1e-6, 'GB/s': 1e-9}
tp_unit, lat_unit = yunits.split(',')
want, before, k, pts = [], 0.0, 0, s['intervals']
while k < len(pts):
    start = pts[k]['start_s']
    group = [p for p in pts[k:] if p['start_s'] == start]
    total = sum(p['bytes'] for p in group)
    length = s['interval_s']
    if start < r['time_to_end_s'] < start + length:
        length = r['time_to_end_s'] - start
    for p in group:
        if p['dir'] == dir:
            x = start + length / 2 if over == 'time' else before + total / 2
            p99 = p['lat_p99_ns'] / 1e9 * scale[lat_unit] if p['ops'] else math.nan
            want.append((x * scale[xunit], p['bytes'] / length * scale[tp_unit], p99))
    before += total
    k += len(group)
assert len(rows) == len(want), (len(rows), len(want))
for got, exp in zip(rows, want):
    for g, e in zip(got, exp):
        assert (math.isnan(g) and math.isnan(e)) or math.isclose(g, e, rel_tol=1e-9, abs_tol=1e-12), (got, exp)
print(len(rows), 'points as the JSON says')
EOF
}

# unit TEXTFILE PREFIX: the unit in the label "PREFIX (UNIT)"
unit() {
	sed -n "s/^$2 (\(.*\))\$/\1/p" "$1"
}

@test "--over time draws throughput and p99 per interval against time, one line per run, from its first repeat" {
	need_gnuplot
	series_result r "[r]\nbs = 4k, 8k\nrate_iops = 1000\nsize = 512k\n"
	capture_gnuplot
	run "$IOSWEEP" plot "$TESTDIR/r.json" --over time -o "$TESTDIR/r.svg"
	[ "$status" -eq 0 ]
	# no warning: only where it wrote
	[ "$output" = "plot: wrote $TESTDIR/r.svg" ]
	svg_text "$TESTDIR/r.svg" >"$TESTDIR/text"
	grep -qx 'per 20.0 ms interval of each repeat.s series: throughput, and p99 latency of the interval.s own I/Os' "$TESTDIR/text"
	xu=$(unit "$TESTDIR/text" 'time in the repeat')
	tu=$(unit "$TESTDIR/text" 'read throughput')
	lu=$(unit "$TESTDIR/text" 'read p99 latency')
	[[ "$xu" =~ ^(s|ms)$ && "$tu" =~ B/s$ && -n "$lu" ]]
	svg_lines "$TESTDIR/r.svg" >"$TESTDIR/lines"
	cat "$TESTDIR/lines"
	[ "$(cut -f2 "$TESTDIR/lines" | grep -v '^-$')" = $'#0 r bs=4KiB\n#1 r bs=8KiB' ]
	# two panels of two lines, told apart by shape and dash in both
	[ "$(wc -l <"$TESTDIR/lines")" -eq 4 ]
	[ "$(cut -f3,4 "$TESTDIR/lines" | sort -u | wc -l)" -eq 2 ]
	check_drawn "$TESTDIR/r.json" 0 0 read 0 time "$xu" "$tu,$lu"
	check_drawn "$TESTDIR/r.json" 1 0 read 1 time "$xu" "$tu,$lu"
	# 128 reads of 4 KiB at 1000/s take at least 127 ms: more than six intervals of 20 ms
	[ "$(awk 'BEGIN { RS = "\n\n\n" } NR == 1' "$TESTDIR/drawn/data.dat" | awk 'NF' | wc -l)" -ge 7 ]
}

@test "--over bytes puts the bytes transferred so far on the x axis, labelled in their unit" {
	need_gnuplot
	series_result r "[r]\nbs = 4k\nrate_iops = 1000\nsize = 512k\n"
	capture_gnuplot
	run "$IOSWEEP" plot "$TESTDIR/r.json" --over bytes -o "$TESTDIR/b.svg"
	[ "$status" -eq 0 ]
	svg_text "$TESTDIR/b.svg" >"$TESTDIR/text"
	[ "$(unit "$TESTDIR/text" 'bytes read so far')" = KiB ]
	check_drawn "$TESTDIR/r.json" 0 0 read 0 bytes KiB "$(unit "$TESTDIR/text" 'read throughput'),$(unit "$TESTDIR/text" 'read p99 latency')"
	# the last point is half its interval short of all 512 KiB
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); rows=[l.split() for l in open(sys.argv[2]) if l.strip()]; last=d["runs"][0]["repeats"][0]["series"]["intervals"][-1]["bytes"]; assert abs(float(rows[-1][0]) - (512 - last / 2048)) < 1e-9, rows[-1]' \
		"$TESTDIR/r.json" "$TESTDIR/drawn/data.dat"
}

@test "a mixed read/write run is drawn per direction, each line named by it" {
	need_gnuplot
	series_result m "[m]\nop = readwrite\nbs = 4k\nrate_iops = 1000\nsize = 512k\n"
	capture_gnuplot
	run "$IOSWEEP" plot "$TESTDIR/m.json" --over time -o "$TESTDIR/m.svg"
	[ "$status" -eq 0 ]
	svg_text "$TESTDIR/m.svg" >"$TESTDIR/text"
	svg_lines "$TESTDIR/m.svg" | cut -f2 | grep -v '^-$' >"$TESTDIR/keys"
	[ "$(cat "$TESTDIR/keys")" = $'#0 m, read\n#0 m, write' ]
	xu=$(unit "$TESTDIR/text" 'time in the repeat')
	units="$(unit "$TESTDIR/text" throughput),$(unit "$TESTDIR/text" 'p99 latency')"
	check_drawn "$TESTDIR/m.json" 0 0 read 0 time "$xu" "$units"
	check_drawn "$TESTDIR/m.json" 0 0 write 1 time "$xu" "$units"
	run "$IOSWEEP" plot "$TESTDIR/m.json" --over bytes -o "$TESTDIR/mb.svg"
	[ "$status" -eq 0 ]
	svg_text "$TESTDIR/mb.svg" | grep -q '^bytes read and written so far (KiB)$'
}

@test "a coarsened series is drawn with the interval it has, and the key says so" {
	need_gnuplot
	# 128 reads at 500/s in intervals of 2 ms: 128 intervals, more than the 32 slots kept: coarsened
	series_result c "[fine]\nbs = 4k\nrate_iops = 500\nsize = 512k\ninterval = 50ms\n[coarse]\nbs = 4k\nrate_iops = 500\nsize = 512k\ninterval = 2ms\n"
	[ "$(json_get "$TESTDIR/c.json" "d['runs'][1]['repeats'][0]['series']['coarsened'] >= 1")" = True ]
	capture_gnuplot
	run "$IOSWEEP" plot "$TESTDIR/c.json" --over time -o "$TESTDIR/c.svg"
	[ "$status" -eq 0 ]
	iv=$(json_get "$TESTDIR/c.json" "'%.2f' % (d['runs'][1]['repeats'][0]['series']['interval_s'] * 1000)")
	svg_lines "$TESTDIR/c.svg" | cut -f2 >"$TESTDIR/keys"
	grep -qx '#0 fine, 50.0 ms intervals' "$TESTDIR/keys"
	grep -qx "#1 coarse, $iv ms intervals (coarsened)" "$TESTDIR/keys"
	svg_text "$TESTDIR/c.svg" | grep -qx 'per interval (as in the key) of each repeat.s series: throughput, and p99 latency of the interval.s own I/Os'
	svg_text "$TESTDIR/c.svg" >"$TESTDIR/text"
	check_drawn "$TESTDIR/c.json" 1 0 read 1 time "$(unit "$TESTDIR/text" 'time in the repeat')" \
		"$(unit "$TESTDIR/text" 'read throughput'),$(unit "$TESTDIR/text" 'read p99 latency')"
	# the middles of whole intervals are one coarsened interval apart
	python3 -c 'import sys
rows = [float(l.split()[0]) for l in open(sys.argv[1]).read().split("\n\n\n")[1].split("\n") if l.strip()]
step = float(sys.argv[2]) * {"s": 1e-3, "ms": 1}[sys.argv[3]]
gaps = [b - a for a, b in zip(rows, rows[1:-1])]
assert len(gaps) >= 2 and all(abs(g - step) < 1e-9 for g in gaps), (gaps, step)' \
		"$TESTDIR/drawn/data.dat" "$iv" "$(unit "$TESTDIR/text" 'time in the repeat')"
}

@test "--run, --job and --repeat choose the lines; an interrupted repeat is named so" {
	need_gnuplot
	series_result r "[a]\nbs = 4k, 8k\nrate_iops = 1000\nsize = 1m\n[b]\nbs = 4k\nrate_iops = 1000\nsize = 1m\n"
	run "$IOSWEEP" plot "$TESTDIR/r.json" --over time --run 1 --repeat 1 -o "$TESTDIR/1.svg"
	[ "$status" -eq 0 ]
	[ "$(svg_lines "$TESTDIR/1.svg" | cut -f2 | grep -v '^-$')" = '#1 a, repeat 1' ]
	run "$IOSWEEP" plot "$TESTDIR/r.json" --over time --job b --repeat 0 --repeat 1 -o "$TESTDIR/b.svg"
	[ "$status" -eq 0 ]
	[ "$(svg_lines "$TESTDIR/b.svg" | cut -f2 | grep -v '^-$')" = $'#2 b, repeat 0\n#2 b, repeat 1' ]
	# the first repeat interrupted: the default is the first that completed
	edit "$TESTDIR/r.json" 'd["runs"][0]["repeats"][0]["interrupted"] = True'
	run "$IOSWEEP" plot "$TESTDIR/r.json" --over time --run 0 -o "$TESTDIR/0.svg"
	[ "$status" -eq 0 ]
	[ "$(svg_lines "$TESTDIR/0.svg" | cut -f2 | grep -v '^-$')" = '#0 a, repeat 1' ]
	run "$IOSWEEP" plot "$TESTDIR/r.json" --over time --run 0 --repeat 0 -o "$TESTDIR/0.svg"
	[ "$status" -eq 0 ]
	[ "$(svg_lines "$TESTDIR/0.svg" | cut -f2 | grep -v '^-$')" = '#0 a, repeat 0 (interrupted)' ]
	# every repeat interrupted: the default is the first, named so (not "no series")
	edit "$TESTDIR/r.json" 'd["runs"][0]["repeats"][1]["interrupted"] = True'
	run "$IOSWEEP" plot "$TESTDIR/r.json" --over time --run 0 -o "$TESTDIR/0.svg"
	[ "$status" -eq 0 ]
	[ "$(svg_lines "$TESTDIR/0.svg" | cut -f2 | grep -v '^-$')" = '#0 a (interrupted)' ]
}

@test "more than 16 lines: the first 16 are drawn and a note says how many there were; runs without a series are named" {
	need_gnuplot
	series_result r "[a]\nbs = 4k\nrate_iops = 1000\nsize = 512k\n"
	# 20 runs from one, renumbered; the last without a series
	edit "$TESTDIR/r.json" 'import copy
d["runs"] = [copy.deepcopy(d["runs"][0]) for _ in range(20)]
for i, r in enumerate(d["runs"]): r["index"] = i; r["params"]["seed"] = i
for rep in d["runs"][19]["repeats"]: del rep["series"]'
	run "$IOSWEEP" plot "$TESTDIR/r.json" --over time -o "$TESTDIR/r.svg"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "iosweep: plot: note: left out, without a series: run 19" ]
	[ "${lines[1]}" = "iosweep: plot: note: drew the first 16 lines of 19; choose others with --run, --job or --repeat" ]
	[ "$(svg_lines "$TESTDIR/r.svg" | cut -f2 | grep -vc '^-$')" -eq 16 ]
	[ "$(svg_lines "$TESTDIR/r.svg" | cut -f3,4 | sort -u | wc -l)" -eq 16 ]
	svg_lines "$TESTDIR/r.svg" | cut -f2 | grep -qx '#15 a seed=15'
}

@test "a result without series is refused with a hint to set interval" {
	head -c 64k /dev/urandom >"$TESTDIR/f"
	job n "[n]\nfilename = $TESTDIR/f\nbs = 4k\nrepeat = 1\ncache = keep\n"
	"$IOSWEEP" run "$TESTDIR/n.ini" -q -o json:"$TESTDIR/n.json"
	run "$IOSWEEP" plot "$TESTDIR/n.json" --over time -o "$TESTDIR/n.svg"
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: plot: $TESTDIR/n.json: no repeat has a series to plot over time; record one with the job option interval (for example interval = 100ms): a repeat shorter than three intervals has none" ]
	[ ! -e "$TESTDIR/n.svg" ]
}

# refused MESSAGE ARGS...: plot of $TESTDIR/r.json with ARGS exits 2 saying MESSAGE, drawing nothing
refused() {
	local want=$1
	shift
	run "$IOSWEEP" plot "$TESTDIR/r.json" "$@"
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: plot: $want" ]
	[ ! -e "$TESTDIR/r.svg" ]
}

@test "bad --over, --run, --repeat and --job values, and --x or --y with --over, exit 2 naming the value" {
	series_result r "[r]\nbs = 4k\nrate_iops = 1000\nsize = 512k\n"
	refused "--over 'latency': expected time or bytes" --over latency
	refused "--run 7: no such run in $TESTDIR/r.json (runs 0 to 0)" --over time --run 7
	refused "--run 'one': expected a run number (the # column of the table)" --over time --run one
	refused "--repeat '-1': expected a repeat number (0 is the first)" --over time --repeat -1
	refused "--repeat 5: no chosen run of $TESTDIR/r.json has a repeat 5" --over time --repeat 5
	refused "--job 'w': no such job in $TESTDIR/r.json (jobs: r)" --over time --job w
	refused "--y does not go with --over, which draws throughput and p99 latency against time" --over time --y iops
	refused "--run and --repeat choose the lines of --over time|bytes" --repeat 1
	refused "--x does not go with --over, which draws throughput and p99 latency against bytes" --over bytes --x bs
	refused "option --over needs a value" --over
}

@test "a hostile series (out of range, not finite, wrong type, out of order) exits 2 with the file and the value's place" {
	series_result r "[r]\nbs = 4k\nrate_iops = 1000\nsize = 512k\n"
	cp "$TESTDIR/r.json" "$TESTDIR/good.json"
	check() { # PYTHON MESSAGE
		cp "$TESTDIR/good.json" "$TESTDIR/h.json"
		edit "$TESTDIR/h.json" "$1"
		run "$IOSWEEP" plot "$TESTDIR/h.json" --over time -o "$TESTDIR/h.svg"
		echo "$output"
		[ "$status" -eq 2 ]
		[ "$output" = "iosweep: $TESTDIR/h.json: $2" ]
		[ ! -e "$TESTDIR/h.svg" ]
	}
	S='d["runs"][0]["repeats"][1]["series"]'
	check "$S[\"intervals\"][1][\"bytes\"] = -4096" \
		"runs[0].repeats[1].series.intervals[1].bytes: -4096 is out of range (0 to 1.84467e+19); not a result iosweep wrote"
	check "$S[\"intervals\"][2][\"lat_p99_ns\"] = 1e300" \
		"runs[0].repeats[1].series.intervals[2].lat_p99_ns: 1e+300 is out of range (0 to 1.84467e+19); not a result iosweep wrote"
	check "$S[\"interval_s\"] = 0" \
		"runs[0].repeats[1].series.interval_s: 0 is out of range (1e-09 to 1e+09); not a result iosweep wrote"
	check "$S[\"intervals\"][0][\"ops\"] = \"many\"" \
		"runs[0].repeats[1].series.intervals[0].ops: not a number"
	check "$S[\"intervals\"][0][\"dir\"] = \"sideways\"" \
		"runs[0].repeats[1].series.intervals[0].dir: neither \"read\" nor \"write\""
	check "$S[\"intervals\"][3][\"start_s\"] = 0.001" \
		"runs[0].repeats[1].series.intervals[3].start_s: 0.001 is out of range ($(json_get "$TESTDIR/good.json" "'%g' % $S['intervals'][2]['start_s']") to 1e+12); not a result iosweep wrote"
	check "$S[\"intervals\"][1][\"resident\"] = 2" \
		"runs[0].repeats[1].series.intervals[1].resident: 2 is out of range (0 to 1); not a result iosweep wrote"
	check "$S[\"intervals\"] = {}" "runs[0].repeats[1].series.intervals: not an array"
	# JSON has no infinity: a number too large for a double is refused where it stands
	cp "$TESTDIR/good.json" "$TESTDIR/h.json"
	sed -i '0,/"lat_p99_ns": [0-9]*/s//"lat_p99_ns": 1e999/' "$TESTDIR/h.json"
	line=$(grep -n '1e999' "$TESTDIR/h.json" | cut -d: -f1)
	run "$IOSWEEP" plot "$TESTDIR/h.json" --over time -o "$TESTDIR/h.svg"
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: $TESTDIR/h.json: not JSON (line $line: real number overflow near '1e999')" ]
	# intervals without any I/O in every repeat: nothing to draw (gnuplot failed, exit 1)
	cp "$TESTDIR/good.json" "$TESTDIR/h.json"
	edit "$TESTDIR/h.json" 'for rep in d["runs"][0]["repeats"]:
    for iv in rep["series"]["intervals"]:
        iv.update(ops=0, bytes=0, lat_p50_ns=0, lat_p99_ns=0, lat_max_ns=0)'
	run "$IOSWEEP" plot "$TESTDIR/h.json" --over time -o "$TESTDIR/h.svg"
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: plot: $TESTDIR/h.json: no interval of the chosen repeats has I/O with a latency: nothing to plot; choose others with --run, --job or --repeat" ]
	[ ! -e "$TESTDIR/h.svg" ]
}

@test "plot --over -o keeps to the safe output writer: a device or the result file is refused" {
	series_result r "[r]\nbs = 4k\nrate_iops = 1000\nsize = 512k\n"
	run "$IOSWEEP" plot "$TESTDIR/r.json" --over time -o /dev/null
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: plot: -o /dev/null: the chart's name must end in .svg or .png" ]
	# /dev/null by a name that ends in .svg, and a FIFO
	ln -s /dev/null "$TESTDIR/null.svg"
	run "$IOSWEEP" plot "$TESTDIR/r.json" --over time -o "$TESTDIR/null.svg"
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: plot: cannot write $TESTDIR/null.svg: it is a character device; an output is a regular file or standard output" ]
	[ -c /dev/null ]
	mkfifo "$TESTDIR/fifo.svg"
	run "$IOSWEEP" plot "$TESTDIR/r.json" --over time -o "$TESTDIR/fifo.svg"
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: plot: cannot write $TESTDIR/fifo.svg: it is a FIFO; an output is a regular file or standard output" ]
	[ -p "$TESTDIR/fifo.svg" ]
	ln -s "$TESTDIR/r.json" "$TESTDIR/r.svg"
	run "$IOSWEEP" plot "$TESTDIR/r.json" --over bytes -o "$TESTDIR/r.svg"
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: plot: cannot write $TESTDIR/r.svg: it is the result file" ]
	[ -L "$TESTDIR/r.svg" ]
	python3 -m json.tool "$TESTDIR/r.json" >/dev/null
}

@test "--over draws a PNG too" {
	need_gnuplot
	series_result r "[r]\nbs = 4k\nrate_iops = 1000\nsize = 512k\n"
	run "$IOSWEEP" plot "$TESTDIR/r.json" --over time -o "$TESTDIR/r.png"
	[ "$status" -eq 0 ]
	[ "$(head -c 8 "$TESTDIR/r.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
}

@test "a series iosweep cannot have written is refused by plot and compare, naming the run, repeat and interval" {
	series_result m "[m]\nop = readwrite\nbs = 4k\nrate_iops = 1000\nsize = 512k\n"
	cp "$TESTDIR/m.json" "$TESTDIR/good.json"
	# the series as run wrote it: intervals from 0, read then write, adding up to the repeat
	run "$IOSWEEP" compare "$TESTDIR/good.json" "$TESTDIR/m.json"
	[ "$status" -eq 0 ]
	check() { # PYTHON MESSAGE
		cp "$TESTDIR/good.json" "$TESTDIR/h.json"
		edit "$TESTDIR/h.json" "R = d['runs'][0]['repeats'][1]; S = R['series']; I = S['intervals']
$1"
		run "$IOSWEEP" plot "$TESTDIR/h.json" --over time -o "$TESTDIR/h.svg"
		echo "$output"
		[ "$status" -eq 2 ]
		[ "$output" = "iosweep: $TESTDIR/h.json: runs[0].repeats[1].series.$2" ]
		[ ! -e "$TESTDIR/h.svg" ]
		run "$IOSWEEP" compare "$TESTDIR/good.json" "$TESTDIR/h.json"
		[ "$status" -eq 2 ]
		[ "$output" = "iosweep: $TESTDIR/h.json: runs[0].repeats[1].series.$2" ]
	}
	W='; not a series iosweep wrote'
	check 'for iv in I: iv["start_s"] = 0' "intervals[2]: a second read interval from 0 s$W"
	check 'I[0], I[1] = I[1], I[0]' "intervals[1]: a read interval from 0 s after the write one$W"
	check 'I[3]["ops"] = 2.5' "intervals[3].ops: 2.5 is not a whole number; not a result iosweep wrote"
	check 'I[2]["bytes"] = 4096.5' "intervals[2].bytes: 4096.5 is not a whole number; not a result iosweep wrote"
	reads=$(json_get "$TESTDIR/good.json" "d['runs'][0]['repeats'][1]['reads']")
	first=$(json_get "$TESTDIR/good.json" "d['runs'][0]['repeats'][1]['series']['intervals'][0]['ops']")
	check 'I[0]["ops"] += R["reads"]' "intervals[0].ops: the read ops of the intervals up to here ($((first + reads))) are more than the repeat's reads ($reads)$W"
	wb=$(json_get "$TESTDIR/good.json" "d['runs'][0]['repeats'][1]['write_bytes']")
	check 'I[-1]["bytes"] += 4096' "intervals[$(json_get "$TESTDIR/good.json" "len(d['runs'][0]['repeats'][1]['series']['intervals']) - 1")].bytes: the write bytes of the intervals up to here ($((wb + 4096))) are more than the repeat's write_bytes ($wb)$W"
	check 'R["time_to_end_s"] = 0.01' "intervals[4].start_s: 0.04 s is after the repeat ended (time_to_end_s 0.01 s)$W"
	# an interval of 20 ms overlapping the one before, or a gap: not where interval 1 starts
	check 'I[2]["start_s"] = I[3]["start_s"] = 0.01' "intervals[2].start_s: 0.01 s is not where interval 1 starts (0.02 s: intervals of 0.02 s from 0)$W"
	check 'I[2]["start_s"] = I[3]["start_s"] = 0.03' "intervals[2].start_s: 0.03 s is not where interval 1 starts (0.02 s: intervals of 0.02 s from 0)$W"
	check 'for iv in I: iv["start_s"] += 0.005' "intervals[0].start_s: 0.005 s is not where interval 0 starts (0 s: intervals of 0.02 s from 0)$W"
	# intervals 20 ms apart that say they last 40 ms, with the job's interval or without it
	check 'S["interval_s"] = 0.04' "interval_s: 0.04 s is not the job's interval (params.interval 0.02 s) doubled 0 times$W"
	check 'S["interval_s"] = 0.04; del d["runs"][0]["params"]["interval"]' "intervals[2].start_s: 0.02 s is not where interval 1 starts (0.04 s: intervals of 0.04 s from 0)$W"
	check 'S["coarsened"] = 1.5' "coarsened: 1.5 is not a whole number; not a result iosweep wrote"
}
