#!/usr/bin/env bats
# Any bytes: job files, values, --set and file names from ${VAR} may hold
# bytes that are not UTF-8.  The JSON keeps every result and writes each
# such byte as \xHH (Python's backslashreplace), so the original bytes can
# be recovered; CSV carries the bytes as they are, and so do the table and
# the plan, but for control characters: those are written as C escapes.
# make check: runs beside another file

load helpers

# unescape FILE EXPR: the bytes of a JSON string, \xHH turned back into bytes, in hex
unescape() {
	python3 -c '
import json, re, sys
d = json.load(open(sys.argv[1]))
s = eval(sys.argv[2])
raw = b"".join(bytes([int(p[2:], 16)]) if re.fullmatch(r"\\x[0-9a-f]{2}", p) else p.encode()
               for p in re.split(r"(\\x[0-9a-f]{2})", s) if p)
print(raw.hex())' "$1" "$2"
}

hex() {
	printf '%b' "$1" | od -An -tx1 | tr -d ' \n'
	echo
}

@test "Latin-1 in a comment, a description, a job name and --set: every run is in the JSON" {
	head -c 1m /dev/urandom >"$TESTDIR/f"
	printf '; caf\xe9 cr\xe8me\n[caf\xe9]\nfilename = %s/f\nrepeat = 1\ndescription = na\xefve \xabtest\xbb\nbs = 4k, 8k\n' \
		"$TESTDIR" >"$TESTDIR/l.ini"
	run "$IOSWEEP" run "$TESTDIR/l.ini" -q -o json:"$TESTDIR/l.json" -o csv:"$TESTDIR/l.csv" \
		--set 'seed=7' --set "$(printf 'description=gr\xfc\xdfe')"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/l.json" 'len(d["runs"])')" = 2 ]
	[ "$(json_get "$TESTDIR/l.json" 'd["complete"]')" = True ]
	[ "$(json_get "$TESTDIR/l.json" 'd["runs"][0]["job"]')" = 'caf\xe9' ]
	[ "$(unescape "$TESTDIR/l.json" 'd["runs"][1]["job"]')" = "$(hex 'caf\xe9')" ]
	[ "$(unescape "$TESTDIR/l.json" 'd["runs"][0]["description"]')" = "$(hex 'gr\xfc\xdfe')" ]
	[ "$(unescape "$TESTDIR/l.json" 'd["overrides"][1]')" = "$(hex 'description=gr\xfc\xdfe')" ]
	# the job file's text comes back byte for byte
	[ "$(unescape "$TESTDIR/l.json" 'd["job_file"]["text"]')" = "$(od -An -tx1 "$TESTDIR/l.ini" | tr -d ' \n')" ]
	# CSV carries the bytes as they are
	grep -q "$(printf '^caf\xe9,0,0,')" "$TESTDIR/l.csv"
}

@test "overlong UTF-8, surrogates and truncated sequences are escaped; valid UTF-8 is kept" {
	head -c 1m /dev/urandom >"$TESTDIR/f"
	# C0 AF: an overlong '/'; ED A0 80: a UTF-16 surrogate; E2 82: a cut-off euro sign
	printf '[a]\nfilename = %s/f\nrepeat = 1\ndescription = x\xc0\xafy \xed\xa0\x80 \xe2\x82 \xe2\x82\xac \xc3\xa9\n' \
		"$TESTDIR" >"$TESTDIR/o.ini"
	run "$IOSWEEP" run "$TESTDIR/o.ini" -q -o json:"$TESTDIR/o.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/o.json" 'd["runs"][0]["description"]')" = 'x\xc0\xafy \xed\xa0\x80 \xe2\x82 € é' ]
}

@test "control characters in values go into JSON as JSON escapes and come back" {
	head -c 1m /dev/urandom >"$TESTDIR/f"
	printf '[a]\nfilename = %s/f\nrepeat = 1\ndescription = bell\x07 esc\x1b[1m tab\there\n' \
		"$TESTDIR" >"$TESTDIR/c.ini"
	run "$IOSWEEP" run "$TESTDIR/c.ini" -q -o json:"$TESTDIR/c.json" -o csv:"$TESTDIR/c.csv"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/c.json" 'repr(d["runs"][0]["description"])')" = "'bell\\x07 esc\\x1b[1m tab\\there'" ]
	grep -q '\\u0007' "$TESTDIR/c.json"
}

@test "control characters in file names and job names reach the terminal as C escapes: plan, table, compare, errors" {
	# an escape sequence in a job name, a bell in a file name, a tab and a
	# newline in file names (the newline from --set: a job file line cannot hold one)
	printf '[a\x1b[2J]\nfilename = %s/g\x07\nsize = 1m\nrepeat = 1\nbs = 4k, 64k\n[b]\nfilename = %s/h\tx\nsize = 1m\nrepeat = 1\nop = write\n' \
		"$TESTDIR" "$TESTDIR" >"$TESTDIR/e.ini"
	run "$IOSWEEP" plan "$TESTDIR/e.ini"
	[ "$status" -eq 0 ]
	# no byte below 0x20 but the newlines that end lines
	! printf '%s' "$output" | tr -d '\n' | LC_ALL=C grep -q '[[:cntrl:]]'
	[ "${lines[3]}" = "  0  a\\x1b[2J  $TESTDIR/g\\x07  4KiB   read     256       0   1MiB        -        1" ]
	[ "${lines[5]}" = "  2  b         $TESTDIR/h\\tx   4KiB   write      0     256   1MiB     1MiB        1" ]
	[ "${lines[8]}" = "writes $TESTDIR/h\\tx (to be created): 1MiB per repeat, 1MiB in all" ]
	run "$IOSWEEP" run "$TESTDIR/e.ini" -q -o json:"$TESTDIR/e.json" -o table
	[ "$status" -eq 0 ]
	! printf '%s' "$output" | tr -d '\n' | LC_ALL=C grep -q '[[:cntrl:]]'
	echo "$output" | grep -q "^0  a\\\\x1b\\[2J  $TESTDIR/g\\\\x07 "
	# compare of a result file whose job name another hand changed
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
d["runs"][2]["job"] = "b\x1b[2J"
json.dump(d, open(sys.argv[2], "w"))' "$TESTDIR/e.json" "$TESTDIR/e2.json"
	run "$IOSWEEP" compare "$TESTDIR/e.json" "$TESTDIR/e2.json"
	[ "$status" -eq 0 ]
	! printf '%s' "$output" | tr -d '\n' | LC_ALL=C grep -q '[[:cntrl:]]'
	echo "$output" | grep -q '^a\\x1b\[2J bs=4KiB '
	[ "${lines[${#lines[@]} - 1]}" = 'only in NEW: b\x1b[2J' ]
	# the constants line above a plan, and an error, each one line
	mkdir "$TESTDIR/$(printf 'new\nline')"
	run "$IOSWEEP" plan "$TESTDIR/e.ini" --job b --set "$(printf 'filename=%s/new\nline/f' "$TESTDIR")"
	[ "$status" -eq 0 ]
	! printf '%s' "$output" | tr -d '\n' | LC_ALL=C grep -q '[[:cntrl:]]'
	[[ "${lines[0]}" == "filename=$TESTDIR/new\\nline/f  size=1MiB  "* ]]
	run "$IOSWEEP" run "$TESTDIR/e.ini" --job b --set "$(printf 'filename=%s/no\ndir/f' "$TESTDIR")"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "iosweep: "*"cannot create $TESTDIR/no\\ndir/f: directory $TESTDIR/no\\ndir: No such file or directory" ]]
	# the note on a file on tmpfs, whose pages no cache policy evicts
	use_tmpfs
	run "$IOSWEEP" plan "$TESTDIR/e.ini" --job b --set "$(printf 'filename=%s/t\x1b[1m' "$SHM")"
	[ "$status" -eq 0 ]
	! printf '%s' "$output" | tr -d '\n' | LC_ALL=C grep -q '[[:cntrl:]]'
	[ "${lines[0]}" = "iosweep: note: $SHM/t\\x1b[1m is on tmpfs, whose pages cannot be evicted: runs without a cache option use cache=keep (the page cache as it is), not fadvise" ]
}

@test "a file name from \${VAR} that is not UTF-8: the run, its JSON, compare and plot all work" {
	dir=$(printf '%s/d\xe9j\xe0' "$TESTDIR")
	mkdir "$dir"
	head -c 1m /dev/urandom >"$dir/f"
	job v '[a]\nfilename = ${DATA}/f\nrepeat = 3\nbs = 4k, 16k\n'
	DATA=$dir run "$IOSWEEP" run "$TESTDIR/v.ini" -q -o json:"$TESTDIR/v.json"
	[ "$status" -eq 0 ]
	[ "$(unescape "$TESTDIR/v.json" 'd["runs"][0]["params"]["filename"]')" = "$(printf '%s/f' "$dir" | od -An -tx1 | tr -d ' \n')" ]
	run "$IOSWEEP" compare "$TESTDIR/v.json" "$TESTDIR/v.json"
	[ "$status" -eq 0 ]
	if command -v gnuplot >/dev/null; then
		run "$IOSWEEP" plot "$TESTDIR/v.json" -o "$TESTDIR/v.svg"
		[ "$status" -eq 0 ]
	fi
}

@test "plan -o json of a job that is not UTF-8 is valid JSON" {
	printf '[caf\xe9]\nfilename = %s/f\xe9\nsize = 1m\n' "$TESTDIR" >"$TESTDIR/p.ini"
	"$IOSWEEP" plan "$TESTDIR/p.ini" -o json >"$TESTDIR/p.json"
	[ "$(json_get "$TESTDIR/p.json" 'd["runs"][0]["job"]')" = 'caf\xe9' ]
	[ "$(json_get "$TESTDIR/p.json" 'd["runs"][0]["params"]["filename"]')" = "$TESTDIR/f\\xe9" ]
}
