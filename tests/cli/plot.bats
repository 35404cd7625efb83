#!/usr/bin/env bats
# iosweep plot: charts drawn by gnuplot from a result file, with axes chosen
# from the results or by --x/--y, and clear errors for bad input.
# make check: runs beside another file

load helpers

need_gnuplot() {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed (apt-get install gnuplot-nox)"
}

# A result file with bs (3 values) and engine (2) varying: bs is the default x.
results() {
	job p "[global]\nfilename = $TESTDIR/f\nsize = 1m\nrepeat = 3\ndescription = Bob's \"scan\" & more\n[scan]\nbs = 4k, 16k, 64k\nengine = sync, mmap\n"
	"$IOSWEEP" run "$TESTDIR/p.ini" -q -o json:"$TESTDIR/r.json"
}

# svg_text FILE: the text elements of an SVG, one per line (svg_xtics, svg_ytics: the tics;
# svg_lines: one line per plotted element: id, key entry, point shapes, dash, colour, points)
svg_text() {
	sed -n 's/.*<text[^>]*>\([^<]*\)<\/text>.*/\1/p' "$1"
}
svg_xtics() {
	python3 "$BATS_TEST_DIRNAME/svgplot.py" xtics "$1"
}
svg_ytics() {
	python3 "$BATS_TEST_DIRNAME/svgplot.py" ytics "$1"
}
svg_lines() {
	python3 "$BATS_TEST_DIRNAME/svgplot.py" lines "$1"
}

# unit_of KIND VALUE: the unit an axis reaching VALUE is labelled in, worked out here
# independently: seconds (s ms µs ns), counts (thousands, ...), sizes (KiB, ...)
unit_of() {
	python3 -c 'import sys
kind, v = sys.argv[1], float(sys.argv[2])
if kind == "seconds":
    print(next(u for u, f in (("s", 1), ("ms", 1e-3), ("µs", 1e-6), ("ns", 0)) if v >= f))
else:
    names = ["", "thousands", "millions", "billions"] if kind == "count" else ["B/s", "kB/s", "MB/s", "GB/s"]
    i = 0
    while v >= 999.5: v /= 1000; i += 1
    print(names[i])' "$1" "$2"
}

# y_in_unit SVG UNIT_SCALE HIGHEST: the y tics are numbers in the unit whose scale is given,
# the highest tic at or above HIGHEST (in base units) and not far above (a log axis: a decade)
y_in_unit() {
	python3 -c 'import sys
tics = [float(t) for t in sys.argv[1].split()]
hi = float(sys.argv[3]) * float(sys.argv[2])
assert tics and max(tics) >= hi * 0.999 and max(tics) <= 10 * hi, (tics, hi)' \
		"$(svg_ytics "$1" | tr '\n' ' ')" "$2" "$3"
}

@test "the default chart is RESULT.svg: time to end against bs, one line per engine, labelled and titled" {
	need_gnuplot
	results
	run "$IOSWEEP" plot "$TESTDIR/r.json"
	[ "$status" -eq 0 ]
	[ -s "$TESTDIR/r.svg" ]
	# where it wrote, the one line it prints (on stderr)
	[ "$output" = "plot: wrote $TESTDIR/r.svg" ]
	svg_text "$TESTDIR/r.svg" >"$TESTDIR/text"
	grep -qE "^Bob(&apos;|')s (&quot;|\")scan(&quot;|\") &amp; more$" "$TESTDIR/text"
	grep -qx 'error bars: min..max of the repeats (too few for a 95% confidence interval)' "$TESTDIR/text"
	grep -qx 'scan engine=sync' "$TESTDIR/text"
	grep -qx 'scan engine=mmap' "$TESTDIR/text"
	# the x label names the unit of its tics: 4, 16 and 64 KiB
	grep -qx 'bs (KiB)' "$TESTDIR/text"
	[ "$(svg_xtics "$TESTDIR/r.svg" | tr '\n' ' ')" = "4 16 64 " ]
	# the y label names the unit the tics are in, chosen from the highest repeat drawn
	hi=$(json_get "$TESTDIR/r.json" "max(r['time_to_end_s'] for run in d['runs'] for r in run['repeats'])")
	u=$(unit_of seconds "$hi")
	grep -qx "median time_to_end_s ($u)" "$TESTDIR/text"
	y_in_unit "$TESTDIR/r.svg" "$(python3 -c "print({'s': 1, 'ms': 1e3, 'µs': 1e6, 'ns': 1e9}['$u'])")" "$hi"
}

@test "a .png name gives a PNG, even with a space in the name" {
	need_gnuplot
	results
	run "$IOSWEEP" plot "$TESTDIR/r.json" -o "$TESTDIR/my chart.png"
	[ "$status" -eq 0 ]
	[ "$output" = "plot: wrote $TESTDIR/my chart.png" ]
	[ "$("$IOSWEEP" plot "$TESTDIR/r.json" -o "$TESTDIR/my chart.png" 2>/dev/null | wc -c)" -eq 0 ]
	[ "$(head -c 8 "$TESTDIR/my chart.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
	[ ! -e "$TESTDIR/r.svg" ]
}

@test "--x and --y choose the axes" {
	need_gnuplot
	results
	run "$IOSWEEP" plot "$TESTDIR/r.json" -o "$TESTDIR/e.svg" --x engine --y iops
	[ "$status" -eq 0 ]
	svg_text "$TESTDIR/e.svg" >"$TESTDIR/text"
	grep -qx 'engine' "$TESTDIR/text"
	hi=$(json_get "$TESTDIR/r.json" "max(r['iops'] for run in d['runs'] for r in run['repeats'])")
	u=$(unit_of count "$hi")
	grep -qx "median iops${u:+ ($u)}" "$TESTDIR/text"
	y_in_unit "$TESTDIR/e.svg" "$(python3 -c "print({'': 1, 'thousands': 1e-3, 'millions': 1e-6}['$u'])")" "$hi"
	grep -qx 'sync' "$TESTDIR/text"
	grep -qx 'mmap' "$TESTDIR/text"
	grep -qx 'scan bs=16KiB' "$TESTDIR/text"
	run "$IOSWEEP" plot "$TESTDIR/r.json" -o "$TESTDIR/l.svg" --y lat_p99_ns
	[ "$status" -eq 0 ]
	hi=$(json_get "$TESTDIR/r.json" "max(r['lat_ns']['p99'] for run in d['runs'] for r in run['repeats']) / 1e9")
	svg_text "$TESTDIR/l.svg" | grep -qx "median lat_p99_ns ($(unit_of seconds "$hi"))"
}

@test "categories on x are points side by side, never a line joining one category to the next" {
	need_gnuplot
	results
	run "$IOSWEEP" plot "$TESTDIR/r.json" -o "$TESTDIR/e.svg" --x engine
	[ "$status" -eq 0 ]
	read -r widest gap < <(python3 "$BATS_TEST_DIRNAME/svgplot.py" joins "$TESTDIR/e.svg")
	python3 -c "import sys; sys.exit(not (0 < $widest < $gap))"
	# a numeric x (bs) still joins its points: the check above can fail
	run "$IOSWEEP" plot "$TESTDIR/r.json" -o "$TESTDIR/b.svg" --x bs
	read -r widest gap < <(python3 "$BATS_TEST_DIRNAME/svgplot.py" joins "$TESTDIR/b.svg")
	python3 -c "import sys; sys.exit(not ($widest > $gap))"
}

@test "a bad --y or --x is a usage error that lists what exists" {
	results
	run "$IOSWEEP" plot "$TESTDIR/r.json" --y time_to_end
	[ "$status" -eq 2 ]
	[[ "$output" == "iosweep: plot: --y 'time_to_end': unknown figure (known: time_to_end_s, "* ]]
	run "$IOSWEEP" plot "$TESTDIR/r.json" --x blocksize
	[ "$status" -eq 2 ]
	[[ "$output" == "iosweep: plot: --x 'blocksize': not a run parameter (known: job, "*"bs, "* ]]
	[ ! -e "$TESTDIR/r.svg" ]
}

@test "bad inputs and outputs exit 2 before gnuplot runs" {
	echo '{"iosweep": {"schema": 2}, "runs": []}' >"$TESTDIR/s2.json"
	run "$IOSWEEP" plot "$TESTDIR/s2.json"
	[ "$status" -eq 2 ]
	[[ "$output" == "iosweep: $TESTDIR/s2.json: schema 2, but iosweep "* ]]
	run "$IOSWEEP" plot "$TESTDIR/none.json"
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: $TESTDIR/none.json: cannot open: No such file or directory" ]
	results
	run "$IOSWEEP" plot "$TESTDIR/r.json" -o "$TESTDIR/r.pdf"
	[ "$status" -eq 2 ]
	[[ "$output" == *"must end in .svg or .png"* ]]
	run "$IOSWEEP" plot "$TESTDIR/r.json" -o "$TESTDIR/no/dir/r.svg"
	[ "$status" -eq 2 ]
	[[ "$output" == *"cannot write $TESTDIR/no/dir/r.svg"* ]]
}

@test "without gnuplot, plot exits 1 naming the package to install" {
	results
	run env PATH=/nonexistent "$IOSWEEP" plot "$TESTDIR/r.json"
	[ "$status" -eq 1 ]
	[[ "$output" == *"gnuplot not found"*"gnuplot-nox"* ]]
	[ ! -e "$TESTDIR/r.svg" ]
}

@test "the temporary directory is removed, also when gnuplot fails" {
	need_gnuplot
	results
	mkdir "$TESTDIR/tmp"
	TMPDIR="$TESTDIR/tmp" run "$IOSWEEP" plot "$TESTDIR/r.json"
	[ "$status" -eq 0 ]
	[ -z "$(ls -A "$TESTDIR/tmp")" ]
	# a "gnuplot" that fails
	mkdir "$TESTDIR/bin"
	printf '#!/bin/sh\nexit 3\n' >"$TESTDIR/bin/gnuplot"
	chmod +x "$TESTDIR/bin/gnuplot"
	TMPDIR="$TESTDIR/tmp" PATH="$TESTDIR/bin:$PATH" run "$IOSWEEP" plot "$TESTDIR/r.json" -o "$TESTDIR/x.svg"
	[ "$status" -eq 1 ]
	[[ "$output" == *"gnuplot failed (exit status 3)"* ]]
	[ -z "$(ls -A "$TESTDIR/tmp")" ]
	[ ! -e "$TESTDIR/x.svg" ]
}

# result NAME SIZE TEXT: $TESTDIR/NAME.json, from a job of TEXT reading a SIZE file kept cached
result() {
	head -c "$2" /dev/urandom >"$TESTDIR/f"
	job "$1" "[global]\nfilename = $TESTDIR/f\ncache = keep\n$3"
	"$IOSWEEP" run "$TESTDIR/$1.ini" -q -o json:"$TESTDIR/$1.json"
}

@test "a linear axis starts at its smallest value, with a tic at each of a few values" {
	need_gnuplot
	result q 1m "[q]\nrepeat = 2\nengine = aio\niodepth = 1, 4, 16\n"
	run "$IOSWEEP" plot "$TESTDIR/q.json" -o "$TESTDIR/q.svg"
	[ "$status" -eq 0 ]
	svg_text "$TESTDIR/q.svg" | grep -qx 'iodepth'
	# 1, 4 and 16 only: no tic at 0 or -5 before the smallest value
	[ "$(svg_xtics "$TESTDIR/q.svg" | tr '\n' ' ')" = "1 4 16 " ]
	# and the y axis of a time starts at 0
	[ "$(svg_ytics "$TESTDIR/q.svg" | head -n1)" = 0 ]
}

@test "lines on top of each other stay visible: each has its own point shape and dash pattern" {
	need_gnuplot
	result o 1m "[o]\nrepeat = 2\nengine = sync, aio, uring\niodepth = 1, 8\nbs = 4k, 64k\n"
	run "$IOSWEEP" plot "$TESTDIR/o.json" -o "$TESTDIR/o.svg" --x iodepth
	[ "$status" -eq 0 ]
	svg_lines "$TESTDIR/o.svg" >"$TESTDIR/lines"
	cat "$TESTDIR/lines"
	# sync (at iodepth 1 only), aio and uring, each at 4 and 64 KiB: 6 lines
	[ "$(wc -l <"$TESTDIR/lines")" -eq 6 ]
	grep -q $'\to bs=4KiB engine=sync\t' "$TESTDIR/lines"
	[ "$(cut -f3 "$TESTDIR/lines" | sort -u | wc -l)" -eq 6 ]
	[ "$(cut -f4 "$TESTDIR/lines" | sort -u | wc -l)" -eq 5 ]
	[ "$(cut -f3,4 "$TESTDIR/lines" | sort -u | wc -l)" -eq 6 ]
	# the shapes are open (or lines only): one drawn under another still shows
	! cut -f3 "$TESTDIR/lines" | grep -qE '#gpPt(4|6|8|10|12|14)$'
}

# edit FILE PYTHON: runs PYTHON on the parsed document d of FILE and writes it back
edit() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); exec(sys.argv[2]); json.dump(d, open(sys.argv[1], "w"), indent=1)' "$1" "$2"
}

@test "incomplete runs (fewer repeats, interrupted, failed) are ringed and labelled, and the key explains the ring" {
	need_gnuplot
	results
	edit "$TESTDIR/r.json" 'runs = d["runs"]
runs[0]["repeats"].pop()
runs[2]["repeats"][1]["interrupted"] = True
runs[4]["failed"] = True; runs[4]["error"] = "EIO"; runs[4]["repeats"] = []'
	run "$IOSWEEP" plot "$TESTDIR/r.json" -o "$TESTDIR/i.svg"
	[ "$status" -eq 0 ]
	svg_text "$TESTDIR/i.svg" >"$TESTDIR/text"
	grep -qx '2 of 3 repeats' "$TESTDIR/text"
	grep -qx 'interrupted: 2 of 3 repeats' "$TESTDIR/text"
	grep -qx 'failed: 0 of 3 repeats' "$TESTDIR/text"
	grep -qx 'incomplete run' "$TESTDIR/text"
	svg_lines "$TESTDIR/i.svg" >"$TESTDIR/lines"
	cat "$TESTDIR/lines"
	# the rings: black, round, around the two runs that have a point, and in the key
	[ "$(awk -F'\t' '$5 == "rgb(0,0,0)" && $3 == "#gpPt5" { n += $6 } END { print n }' "$TESTDIR/lines")" -eq 3 ]
	# the complete runs are not marked
	[ "$(grep -c 'of 3 repeats' "$TESTDIR/text")" -eq 3 ]
}

@test "an interrupted result says so in the title, and its interrupted run is marked" {
	need_gnuplot
	interrupt_second_run INT
	run "$IOSWEEP" plot "$TESTDIR/i.json" -o "$TESTDIR/i.svg"
	[ "$status" -eq 0 ]
	svg_text "$TESTDIR/i.svg" >"$TESTDIR/text"
	grep -qx 'interrupted by SIGINT: runs not started are missing' "$TESTDIR/text"
	grep -qx 'interrupted: 0 of 1 repeats' "$TESTDIR/text"
	grep -qx 'incomplete run' "$TESTDIR/text"
}

@test "a write or readwrite result is drawn per direction, each line named by it" {
	need_gnuplot
	job w "[global]\nfilename = $TESTDIR/w\nsize = 1m\nrepeat = 2\n[mix]\nop = readwrite\n[put]\nop = write\n"
	"$IOSWEEP" run "$TESTDIR/w.ini" -q -o json:"$TESTDIR/w.json"
	run "$IOSWEEP" plot "$TESTDIR/w.json" -o "$TESTDIR/w.svg" --y throughput_Bps --x job
	[ "$status" -eq 0 ]
	svg_text "$TESTDIR/w.svg" >"$TESTDIR/text"
	hi=$(json_get "$TESTDIR/w.json" "max(max(r['read_throughput_Bps'], r['write_throughput_Bps']) for run in d['runs'] for r in run['repeats'])")
	grep -qx "median throughput_Bps per direction ($(unit_of rate "$hi"))" "$TESTDIR/text"
	[ "$(svg_lines "$TESTDIR/w.svg" | cut -f2 | tr '\n' ' ')" = "read write " ]
	# one point per direction of mix, one for put's writes
	[ "$(svg_lines "$TESTDIR/w.svg" | cut -f6 | tr '\n' ' ')" = "2 3 " ]
	# writes only: the axis names the direction
	run "$IOSWEEP" plot "$TESTDIR/w.json" -o "$TESTDIR/p.svg" --job put --y lat_p99_ns
	[ "$status" -eq 0 ]
	hi=$(json_get "$TESTDIR/w.json" "max(r['write_lat_ns']['p99'] for run in d['runs'][1:] for r in run['repeats']) / 1e9")
	svg_text "$TESTDIR/p.svg" | grep -qx "median write_lat_p99_ns ($(unit_of seconds "$hi"))"
	# the bytes still dirty at the end are an amount, not a fraction
	run "$IOSWEEP" plot "$TESTDIR/w.json" -o "$TESTDIR/d.svg" --y dirty_end_bytes
	[ "$status" -eq 0 ]
	svg_text "$TESTDIR/d.svg" | grep -qE '^median dirty_end_bytes \((B|kB|MB)\)$'
	run "$IOSWEEP" compare "$TESTDIR/w.json" "$TESTDIR/w.json"
	[ "$status" -eq 0 ]
}

@test "time-based runs are drawn by their throughput, not by their time to end" {
	need_gnuplot
	result t 256k "[t]\nrepeat = 1\ntime_based = 1\nruntime = 50ms\nbs = 4k, 64k\n"
	run "$IOSWEEP" plot "$TESTDIR/t.json" -o "$TESTDIR/t.svg"
	[ "$status" -eq 0 ]
	svg_text "$TESTDIR/t.svg" | grep -qE '^median throughput_Bps \((B|kB|MB|GB)/s\)$'
}

@test "--job keeps one job's runs; a job not in the file is refused, naming those that are" {
	need_gnuplot
	result j 256k "repeat = 1\n[one]\nbs = 4k, 8k\n[two]\nbs = 16k\n"
	run "$IOSWEEP" plot "$TESTDIR/j.json" -o "$TESTDIR/j.svg" --job two
	[ "$status" -eq 0 ]
	# one run, one point (and the key's sample), at the tic of its job
	[ "$(svg_lines "$TESTDIR/j.svg" | cut -f2,6 | tr '\n' ' ')" = $'median\t2 ' ]
	svg_text "$TESTDIR/j.svg" | grep -qx two
	! svg_text "$TESTDIR/j.svg" | grep -qx one
	run "$IOSWEEP" plot "$TESTDIR/j.json" -o "$TESTDIR/j.svg" --job three
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: plot: --job 'three': no such job in $TESTDIR/j.json (jobs: one, two)" ]
}
