#!/usr/bin/env bats
# iosweep plot: charts drawn by gnuplot from a result file, with axes chosen
# from the results or by --x/--y, and clear errors for bad input.

load helpers

need_gnuplot() {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed (apt-get install gnuplot-nox)"
}

# A result file with bs (3 values) and engine (2) varying: bs is the default x.
results() {
	job p "[global]\nfilename = $TESTDIR/f\nsize = 1m\nrepeat = 3\ndescription = Bob's \"scan\" & more\n[scan]\nbs = 4k, 16k, 64k\nengine = sync, mmap\n"
	"$IOSWEEP" run "$TESTDIR/p.ini" -q -o json:"$TESTDIR/r.json"
}

# svg_text FILE: the text elements of an SVG, one per line
svg_text() {
	sed -n 's/.*<text[^>]*>\([^<]*\)<\/text>.*/\1/p' "$1"
}

@test "the default chart is RESULT.svg: time to end against bs, one line per engine, labelled and titled" {
	need_gnuplot
	results
	run "$IOSWEEP" plot "$TESTDIR/r.json"
	[ "$status" -eq 0 ]
	[ -s "$TESTDIR/r.svg" ]
	svg_text "$TESTDIR/r.svg" >"$TESTDIR/text"
	grep -qx 'bs (bytes)' "$TESTDIR/text"
	grep -qx 'median time_to_end_s (s)' "$TESTDIR/text"
	grep -qE "^Bob(&apos;|')s (&quot;|\")scan(&quot;|\") &amp; more$" "$TESTDIR/text"
	grep -qx 'error bars: min..max of the repeats (too few for a 95% confidence interval)' "$TESTDIR/text"
	for tic in 4KiB 16KiB 64KiB; do grep -qx "$tic" "$TESTDIR/text"; done
	grep -qx 'scan engine=sync' "$TESTDIR/text"
	grep -qx 'scan engine=mmap' "$TESTDIR/text"
	grep -qE '^[0-9.]+ [mµ]s$' "$TESTDIR/text"    # y tics in human units
}

@test "a .png name gives a PNG, even with a space in the name" {
	need_gnuplot
	results
	run "$IOSWEEP" plot "$TESTDIR/r.json" -o "$TESTDIR/my chart.png"
	[ "$status" -eq 0 ]
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
	grep -qx 'median iops' "$TESTDIR/text"
	grep -qx 'sync' "$TESTDIR/text"
	grep -qx 'mmap' "$TESTDIR/text"
	grep -qx 'scan bs=16KiB' "$TESTDIR/text"
	run "$IOSWEEP" plot "$TESTDIR/r.json" -o "$TESTDIR/l.svg" --y lat_p99_ns
	[ "$status" -eq 0 ]
	svg_text "$TESTDIR/l.svg" | grep -qx 'median lat_p99_ns (s)'
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
