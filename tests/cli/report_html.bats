#!/usr/bin/env bats
# iosweep report: one self-contained HTML page of result files, loaded in a
# real browser (headless Chromium), validated, and refused for bad input.
# make check: runs beside another file

load helpers

# browse HTML: the DOM Chromium renders of HTML into $TESTDIR/dom.html, its
# console into $TESTDIR/console, a 412-pixel-wide screenshot (a phone's) into
# $TESTDIR/shot.png
browse() {
	command -v chromium >/dev/null || skip "chromium is not installed"
	local b=(chromium --headless --no-sandbox --disable-gpu --user-data-dir="$TESTDIR/chromium")
	timeout 120 "${b[@]}" --enable-logging=stderr --v=0 --dump-dom "file://$1" \
		>"$TESTDIR/dom.html" 2>"$TESTDIR/chromium.log"
	grep CONSOLE "$TESTDIR/chromium.log" >"$TESTDIR/console" || true
	timeout 120 "${b[@]}" --window-size=412,2000 --screenshot="$TESTDIR/shot.png" "file://$1" \
		2>/dev/null
}

check_page() {
	/usr/bin/python3 "$BATS_TEST_DIRNAME/check_report_html.py" "$@"
}

needs_tools() {
	command -v tidy >/dev/null || skip "tidy is not installed"
	/usr/bin/python3 -c 'import html5lib, PIL' 2>/dev/null || skip "python3-html5lib or python3-pil missing"
}

@test "a report of two results validates, loads without console errors and shows each run's figures" {
	needs_tools
	job a "[global]\nfilename = $TESTDIR/f\nsize = 256k\nrepeat = 3\ninterval = 1ms\nrate = 16m\n[a]\nbs = 4k, 64k\n"
	job b "[global]\nfilename = $TESTDIR/w\nsize = 256k\nrepeat = 2\n[w]\nop = write\n[rw]\nop = readwrite\n"
	"$IOSWEEP" run "$TESTDIR/a.ini" -q -o json:"$TESTDIR/a.json" -o table:"$TESTDIR/a.txt"
	"$IOSWEEP" run "$TESTDIR/a.ini" -q -o json:"$TESTDIR/a2.json" -o table:"$TESTDIR/a2.txt"
	"$IOSWEEP" run "$TESTDIR/b.ini" -q -o json:"$TESTDIR/b.json" -o table:"$TESTDIR/b.txt"
	run "$IOSWEEP" report "$TESTDIR/a.json" "$TESTDIR/b.json" "$TESTDIR/a2.json" -o "$TESTDIR/r.html"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	run tidy -e -q "$TESTDIR/r.html"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	browse "$TESTDIR/r.html"
	[ ! -s "$TESTDIR/console" ] || { cat "$TESTDIR/console"; false; }
	check_page "$TESTDIR/r.html" "$TESTDIR/dom.html" "$TESTDIR/shot.png" \
		"$TESTDIR/a.txt" "$TESTDIR/b.txt" "$TESTDIR/a2.txt"
	# the job files, a host fact, the charts (plot, and plot --over for a's series), the comparisons
	grep -qF "bs = 4k, 64k" "$TESTDIR/dom.html"
	grep -qF "<th>hostname</th><td>$(json_get "$TESTDIR/a.json" 'd["host"]["hostname"]')</td>" "$TESTDIR/dom.html"
	[ "$(grep -c 'src="data:image/svg+xml;base64,' "$TESTDIR/dom.html")" -eq 5 ]
	grep -qF "OLD: $TESTDIR/a.json" "$TESTDIR/dom.html"
	grep -qF "NEW: $TESTDIR/a2.json" "$TESTDIR/dom.html"
	grep -qF "no run is in both files" "$TESTDIR/dom.html"
	grep -qF "@media print" "$TESTDIR/r.html"
	grep -qF 'name="viewport"' "$TESTDIR/r.html"
}

@test "names, descriptions and paths from a hostile result are escaped, not markup" {
	needs_tools
	job h "[global]\nfilename = $TESTDIR/f\nsize = 64k\nrepeat = 2\n[<script>alert(1)</script>]\ndescription = <img src=x onerror=alert(2)> & \"q\"\n"
	"$IOSWEEP" run "$TESTDIR/h.ini" -q -o json:"$TESTDIR/h.json"
	bad=$'r\xff<b>.json'
	cp "$TESTDIR/h.json" "$TESTDIR/$bad"
	run "$IOSWEEP" report "$TESTDIR/$bad" -o "$TESTDIR/r.html"
	[ "$status" -eq 0 ]
	run tidy -e -q "$TESTDIR/r.html"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	browse "$TESTDIR/r.html"
	[ ! -s "$TESTDIR/console" ] || { cat "$TESTDIR/console"; false; }
	check_page "$TESTDIR/r.html" "$TESTDIR/dom.html" "$TESTDIR/shot.png"
	grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' "$TESTDIR/dom.html"
	grep -qF '&lt;img src=x onerror=alert(2)&gt; &amp;' "$TESTDIR/dom.html"
	grep -qF 'r\xff&lt;b&gt;.json' "$TESTDIR/dom.html"
}

@test "an interrupted result is reported with its interrupted run kept and marked" {
	needs_tools
	interrupt_second_run INT
	run "$IOSWEEP" report "$TESTDIR/i.json" -o "$TESTDIR/r.html"
	[ "$status" -eq 0 ]
	run tidy -e -q "$TESTDIR/r.html"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	grep -qF 'Interrupted (SIGINT)' "$TESTDIR/r.html"
	# run 1 (slow) is a row, marked; run 0 (quick) has its figures
	/usr/bin/python3 - "$TESTDIR/r.html" <<'PY'
import re, sys
rows = re.findall(r"<tr><td class=\"n\">(\d+)</td>(.*?)</tr>", open(sys.argv[1]).read())
assert [r[0] for r in rows] == ["0", "1"], rows
assert "interrupted</span> (1 of 1 repeats" in rows[1][1], rows[1][1]
assert "interrupted" not in rows[0][1] and (" µs</td>" in rows[0][1] or " ms</td>" in rows[0][1]), rows[0][1]
PY
}

@test "bad results and bad destinations are refused with exit 2 before anything is written" {
	job a "[a]\nfilename = $TESTDIR/f\nsize = 64k\nrepeat = 1\n"
	"$IOSWEEP" run "$TESTDIR/a.ini" -q -o json:"$TESTDIR/a.json"
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["iosweep"]["schema"] = 2; json.dump(d, open(sys.argv[2], "w"))' \
		"$TESTDIR/a.json" "$TESTDIR/new.json"
	run "$IOSWEEP" report "$TESTDIR/a.json" "$TESTDIR/new.json" -o "$TESTDIR/r.html"
	[ "$status" -eq 2 ]
	[[ "$output" == "iosweep: $TESTDIR/new.json: schema 2, but iosweep "*" reads schema 1"* ]]
	[ ! -e "$TESTDIR/r.html" ]
	head -c 300 "$TESTDIR/a.json" >"$TESTDIR/cut.json"
	run "$IOSWEEP" report "$TESTDIR/cut.json" -o "$TESTDIR/r.html"
	[ "$status" -eq 2 ]
	[[ "$output" == *"cut.json"* ]]
	[ ! -e "$TESTDIR/r.html" ]
	run "$IOSWEEP" report "$TESTDIR/a.json" -o "$TESTDIR/a.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *"cannot write $TESTDIR/a.json: it is the result file"* ]]
	run "$IOSWEEP" report "$TESTDIR/a.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *"report: -o FILE.html is needed"* ]]
	run "$IOSWEEP" report "$TESTDIR/a.json" -o "$TESTDIR/no/such/r.html"
	[ "$status" -eq 2 ]
	[[ "$output" == *"cannot write"* ]]
	[ -z "$(ls "$TESTDIR" | grep '\.tmp\.')" ]
}

@test "an existing page is replaced atomically, keeping its permissions" {
	job a "[a]\nfilename = $TESTDIR/f\nsize = 64k\nrepeat = 1\n"
	"$IOSWEEP" run "$TESTDIR/a.ini" -q -o json:"$TESTDIR/a.json"
	echo old >"$TESTDIR/r.html"
	chmod 604 "$TESTDIR/r.html"
	run "$IOSWEEP" report "$TESTDIR/a.json" -o "$TESTDIR/r.html"
	[ "$status" -eq 0 ]
	[ "$(stat -c %a "$TESTDIR/r.html")" = 604 ]
	[ "$(head -n1 "$TESTDIR/r.html")" = "<!DOCTYPE html>" ]
	[ "$(tail -n1 "$TESTDIR/r.html")" = "</html>" ]
	[ -z "$(ls "$TESTDIR" | grep '\.tmp\.')" ]
	# -o - is stdout, not a file named '-'
	(cd "$TESTDIR" && "$IOSWEEP" report "$TESTDIR/a.json" -o - >"$TESTDIR/out.html")
	[ ! -e "$TESTDIR/-" ]
	cmp "$TESTDIR/out.html" "$TESTDIR/r.html"
}

@test "a fio JSON result is reported as one run per fio job, beside an iosweep result" {
	needs_tools
	command -v fio >/dev/null || skip "fio is not installed"
	head -c 262144 /dev/urandom >"$TESTDIR/ff"
	fio --name=t --rw=read --size=256k --bs=4k --filename="$TESTDIR/ff" --output-format=json \
		--output="$TESTDIR/fio.json" >/dev/null
	job a "[a]\nfilename = $TESTDIR/f\nsize = 64k\nrepeat = 1\n"
	"$IOSWEEP" run "$TESTDIR/a.ini" -q -o json:"$TESTDIR/a.json"
	run "$IOSWEEP" report "$TESTDIR/fio.json" "$TESTDIR/a.json" -o "$TESTDIR/r.html"
	[ "$status" -eq 0 ]
	run tidy -e -q "$TESTDIR/r.html"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	grep -qF 'a fio JSON result, read as one run per fio job with one repeat; 1 run</p>' "$TESTDIR/r.html"
	grep -qF '<tr><td class="n">0</td><td>t</td>' "$TESTDIR/r.html"
	grep -qF "NEW: $TESTDIR/a.json" "$TESTDIR/r.html"
}

@test "a signal while the page is written leaves the old page and no temporary file" {
	job s "[s]\nfilename = $TESTDIR/f\nsize = 256k\nrepeat = 1\ninterval = 1ms\nrate = 16m\n"
	"$IOSWEEP" run "$TESTDIR/s.ini" -q -o json:"$TESTDIR/s.json"
	# a gnuplot that says when it starts, then takes its time
	mkdir "$TESTDIR/bin"
	printf '#!/bin/sh\ntouch "%s/started"\nsleep 1\nexec %s "$@"\n' "$TESTDIR" "$(command -v gnuplot)" >"$TESTDIR/bin/gnuplot"
	chmod +x "$TESTDIR/bin/gnuplot"
	echo old >"$TESTDIR/r.html"
	mkdir "$TESTDIR/tmp"
	TMPDIR="$TESTDIR/tmp" PATH="$TESTDIR/bin:$PATH" "$IOSWEEP" report "$TESTDIR/s.json" -o "$TESTDIR/r.html" 2>"$TESTDIR/err" &
	pid=$!
	wait_for test -e "$TESTDIR/started"
	stop_with TERM $pid
	[ "$(cat "$TESTDIR/r.html")" = old ]
	[ -z "$(ls "$TESTDIR" | grep '\.tmp\.')" ]
	[ -z "$(ls -A "$TESTDIR/tmp")" ]
}
