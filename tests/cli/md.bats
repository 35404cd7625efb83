#!/usr/bin/env bats
# -o md: the results table as Markdown, with the same cells as the table and
# every character that Markdown or GitHub tables treat as special escaped.
# make check: runs beside another file

load helpers

# md_rows FILE: the table rows of a Markdown file, one per line, cells split on
# unescaped pipes and joined with a tab (the escapes removed)
md_rows() {
	python3 - "$1" <<'PY'
import re, sys
for line in open(sys.argv[1], encoding="utf-8"):
    line = line.rstrip("\n")
    if not line.startswith("|") or re.fullmatch(r"\|(:?-+:?\|)+", line):
        continue
    cells = re.split(r"(?<!\\)\|", line)[1:-1]
    print("\t".join(re.sub(r"\\(.)", r"\1", c.strip()) for c in cells))
PY
}

@test "run -o md writes one row per run with the table's cells and the checksums of the JSON" {
	job j "[global]\nfilename = $TESTDIR/f\nsize = 256k\nrepeat = 2\n[a]\nbs = 4k, 16k, 64k\n"
	run "$IOSWEEP" run "$TESTDIR/j.ini" -q -o md:"$TESTDIR/r.md" -o json:"$TESTDIR/r.json"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	md_rows "$TESTDIR/r.md" >"$TESTDIR/rows"
	[ "$(wc -l <"$TESTDIR/rows")" -eq 4 ]
	[ "$(head -n1 "$TESTDIR/rows" | cut -f1-3)" = "$(printf '#\tbs\ttime to end')" ]
	# the separator row aligns the numbers right
	grep -qxF '|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|' "$TESTDIR/r.md"
	for i in 0 1 2; do
		want=$(json_get "$TESTDIR/r.json" "d['runs'][$i]['repeats'][0]['checksum']")
		row=$(sed -n "$((i + 2))p" "$TESTDIR/rows")
		[ "$(cut -f1 <<<"$row")" = "$i" ]
		[ "$(cut -f10 <<<"$row")" = "$want" ]
	done
	[ "$(cut -f2 "$TESTDIR/rows" | tail -n3 | tr '\n' ' ')" = "4KiB 16KiB 64KiB " ]
	grep -q '^filename=.*size=256KiB' "$TESTDIR/r.md"
	grep -q '^- time to end: median of the repeats' "$TESTDIR/r.md"
}

@test "md goes to stdout alone, and the format list names it" {
	job j "[a]\nfilename = $TESTDIR/f\nsize = 64k\nrepeat = 1\n"
	"$IOSWEEP" run "$TESTDIR/j.ini" -o md >"$TESTDIR/out.md" 2>"$TESTDIR/err"
	[ "$(md_rows "$TESTDIR/out.md" | wc -l)" -eq 2 ]
	run "$IOSWEEP" run "$TESTDIR/j.ini" -o md -o json
	[ "$status" -eq 2 ]
	[[ "$output" == *"only one -o format can go to stdout"* ]]
	run "$IOSWEEP" run "$TESTDIR/j.ini" -o mdx
	[ "$status" -eq 2 ]
	[[ "$output" == *"(known: table, json, csv, series, md)"* ]]
}

@test "pipes, backticks, brackets and HTML in job names cannot break out of their cell" {
	job j "[global]\nfilename = $TESTDIR/f\nsize = 64k\nrepeat = 1\n[a|b\`c]\n[<b>*x*</b>_&(z)!]\n"
	run "$IOSWEEP" run "$TESTDIR/j.ini" -q -o md:"$TESTDIR/r.md"
	[ "$status" -eq 0 ]
	grep -qF '| 0 | a\|b\`c |' "$TESTDIR/r.md"
	grep -qF '| 1 | \<b\>\*x\*\</b\>\_\&(z)! |' "$TESTDIR/r.md"
	md_rows "$TESTDIR/r.md" >"$TESTDIR/rows"
	[ "$(awk -F'\t' '{print NF}' "$TESTDIR/rows" | sort -u)" = 10 ]
	[ "$(cut -f2 "$TESTDIR/rows" | tail -n2)" = "$(printf 'a|b`c\n<b>*x*</b>_&(z)!')" ]
}

@test "an existing md output is replaced atomically, and an unwritable one is refused before any I/O" {
	job j "[a]\nfilename = $TESTDIR/f\nsize = 64k\nrepeat = 1\n"
	echo old >"$TESTDIR/r.md"
	chmod 640 "$TESTDIR/r.md"
	run "$IOSWEEP" run "$TESTDIR/j.ini" -q -o md:"$TESTDIR/r.md"
	[ "$status" -eq 0 ]
	[ "$(md_rows "$TESTDIR/r.md" | wc -l)" -eq 2 ]
	[ "$(stat -c %a "$TESTDIR/r.md")" = 640 ]
	rm -f "$TESTDIR/f"
	run "$IOSWEEP" run "$TESTDIR/j.ini" -q -o md:"$TESTDIR/no/such/r.md"
	[ "$status" -eq 2 ]
	[[ "$output" == *"cannot write"* ]]
	[ ! -e "$TESTDIR/f" ]
}

@test "an interrupted run is written to md, its run marked and the interruption noted" {
	interrupt_second_run INT -q -o md:"$TESTDIR/i.md"
	md_rows "$TESTDIR/i.md" >"$TESTDIR/rows"
	[ "$(wc -l <"$TESTDIR/rows")" -eq 3 ]
	# the row of run 1 (slow) says interrupted under "time to end", and has no figures
	[ "$(head -n1 "$TESTDIR/rows" | cut -f7)" = "time to end" ]
	[ "$(sed -n 3p "$TESTDIR/rows" | cut -f1,2,7,8)" = "$(printf '1\tslow\tinterrupted\t')" ]
	[ "$(tail -n1 "$TESTDIR/i.md")" = "- interrupted: 1 of 2 runs done, 1 cut short (marked interrupted)" ]
}

# two_results OLD NEW NAME: result files of job NAME (bs 4k and 8k, five
# repeats each), NEW's 8k run 30% slower, and a run only in NEW
two_results() {
	/usr/bin/python3 - "$@" <<'PY'
import json, sys
old, new, name = sys.argv[1:4]
def doc(slow, extra):
    runs = []
    for i, bs in enumerate([4096, 8192] + ([65536] if extra else [])):
        t = [0.010 + 0.0001 * j for j in range(5)]
        if slow and bs == 8192:
            t = [x * 1.3 for x in t]
        runs.append({"job": name, "index": i,
                     "params": {"filename": "/x", "size": 1 << 20, "bs": bs, "engine": "sync",
                                "repeat": 5},
                     "repeats": [{"time_to_end_s": x, "bytes": 1 << 20, "reads": 256,
                                  "throughput_Bps": (1 << 20) / x, "iops": 256 / x,
                                  "lat_ns": {"p99": 2000}, "interrupted": False} for x in t]})
    return {"iosweep": {"version": "0.1.0", "schema": 1}, "started": "2026-01-01T00:00:00Z",
            "host": {}, "job_file": {"path": "j.ini", "text": ""}, "overrides": [], "runs": runs}
json.dump(doc(False, False), open(old, "w"))
json.dump(doc(True, True), open(new, "w"))
PY
}

@test "compare -o md: a table per figure with compare's cells, notes as a list, hostile names escaped" {
	name='a|b`c`<i>[x](y)*_~$&#z'$'\n''# h'
	two_results "$TESTDIR/old.json" "$TESTDIR/new.json" "$name"
	run "$IOSWEEP" compare "$TESTDIR/old.json" "$TESTDIR/new.json" -o md
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$TESTDIR/c.md"
	md_rows "$TESTDIR/c.md" >"$TESTDIR/rows"
	# four figures: a head, two runs and the geomean each; four cells a row
	[ "$(wc -l <"$TESTDIR/rows")" -eq 16 ]
	[ "$(awk -F'\t' 'NF != 4' "$TESTDIR/rows" | wc -l)" -eq 0 ]
	[ "$(grep -c '^|:---|---:|---:|:---|$' "$TESTDIR/c.md")" -eq 4 ]
	[ "$(head -n1 "$TESTDIR/rows")" = "$(printf 'time to end\tOLD\tNEW\tchange')" ]
	# the same cells as the terminal table: the 8k run's change and its p
	want=$("$IOSWEEP" compare "$TESTDIR/old.json" "$TESTDIR/new.json" | grep -m1 'bs=8KiB' |
		grep -oE '\+[0-9.]+% \(p=[0-9.]+ n=5\+5\)')
	[ -n "$want" ]
	grep -m1 "bs=8KiB" "$TESTDIR/rows" | cut -f4 | grep -qxF "$want"
	# the name comes back whole from its cell (controls as the terminal writes them)
	label=$(sed -n 2p "$TESTDIR/rows" | cut -f1)
	[ "$label" = 'a|b`c`<i>[x](y)*_~$&#z\n# h bs=4KiB' ]
	# nothing of it is markup: no raw pipe, backtick, bracket, angle bracket, heading
	! grep -E '(^|[^\\])[`<>[]' "$TESTDIR/c.md"
	! grep -qE '^#' "$TESTDIR/c.md"
	grep -qxF -- '- only in NEW: a\|b\`c\`\<i\>\[x\](y)\*\_\~\$\&\#z\\n\# h bs=64KiB' "$TESTDIR/c.md"
	grep -qE '^- ~|^- \\~: no significant change' "$TESTDIR/c.md"
	run "$IOSWEEP" compare "$TESTDIR/old.json" "$TESTDIR/new.json" -o xml
	[ "$status" -eq 2 ]
	[[ "$output" == *"(known: table, csv, json, md)"* ]]
}
