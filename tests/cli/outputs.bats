#!/usr/bin/env bats
# Outputs (-o FORMAT:PATH of run, -o of plot): a regular file replaced
# atomically, or stdout.  Never a device, FIFO, socket or directory, never a
# symbolic link or file another user planted, never the job file, the data
# file or another output; a full disk never leaves a file that looks complete.
# make check: runs beside another file

load helpers

teardown() {
	if mountpoint -q "$TESTDIR/full" 2>/dev/null; then
		umount "$TESTDIR/full"
	fi
	rm -rf "$TESTDIR"
}

need_root() {
	[ "$(id -u)" -eq 0 ] || skip "needs root to act as another user"
	command -v setpriv >/dev/null || skip "setpriv (util-linux) is missing"
}

# as_nobody COMMAND...: COMMAND as user nobody
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}

# a job reading $TESTDIR/f (1 MiB, made here), and a result file of it
setup_job() {
	head -c 1m /dev/urandom >"$TESTDIR/f"
	job j "[a]\nfilename = $TESTDIR/f\nrepeat = 1\n"
}

# refused OUTPUT-ARG WORDS: run -o OUTPUT-ARG exits 2 saying WORDS, before any I/O
refused() {
	run "$IOSWEEP" run "$TESTDIR/j.ini" -o "$1"
	echo "$output"
	[ "$status" -eq 2 ]
	[[ "$output" == *"cannot write"*"$2"* ]]
	[ "${#lines[@]}" -eq 1 ]
}

@test "a device, FIFO, socket or directory at an output path is refused before any I/O" {
	job j "[a]\nfilename = $TESTDIR/f\nsize = 1m\nrepeat = 1\n"
	mkfifo "$TESTDIR/fifo"
	mkdir "$TESTDIR/dir"
	python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$TESTDIR/sock"
	for fmt in json csv table; do
		refused "$fmt:/dev/null" "it is a character device"
		refused "$fmt:$TESTDIR/fifo" "it is a FIFO"
		refused "$fmt:$TESTDIR/sock" "it is a socket"
		refused "$fmt:$TESTDIR/dir" "it is a directory"
	done
	[ -c /dev/null ] && [ -p "$TESTDIR/fifo" ] && [ -S "$TESTDIR/sock" ] && [ -d "$TESTDIR/dir" ]
	[ ! -e "$TESTDIR/f" ]
}

@test "an output naming the job file, the data file or another output is refused" {
	setup_job
	cp "$TESTDIR/j.ini" "$TESTDIR/j.orig"
	cp "$TESTDIR/f" "$TESTDIR/f.orig"
	refused "json:$TESTDIR/j.ini" "it is the job file"
	refused "table:$TESTDIR/../$(basename "$TESTDIR")/j.ini" "it is the job file"
	refused "csv:$TESTDIR/f" "it is the data file of job 'a'"
	ln -s f "$TESTDIR/f-link"
	refused "csv:$TESTDIR/f-link" "it is the data file of job 'a'"
	run "$IOSWEEP" run "$TESTDIR/j.ini" -o csv:"$TESTDIR/x" -o json:"$TESTDIR/./x"
	[ "$status" -eq 2 ]
	[[ "$output" == *"cannot write $TESTDIR/./x: -o csv:$TESTDIR/x names the same file"* ]]
	[ ! -e "$TESTDIR/x" ]
	cmp "$TESTDIR/j.ini" "$TESTDIR/j.orig"
	cmp "$TESTDIR/f" "$TESTDIR/f.orig"
}

@test "an existing output is replaced by rename: never truncated in place, permission bits kept" {
	setup_job
	for fmt in json csv table; do
		echo old >"$TESTDIR/out.$fmt"
		chmod 600 "$TESTDIR/out.$fmt"
		ln "$TESTDIR/out.$fmt" "$TESTDIR/hardlink.$fmt"
		run "$IOSWEEP" run "$TESTDIR/j.ini" -q -o "$fmt:$TESTDIR/out.$fmt"
		[ "$status" -eq 0 ]
		# the old inode still holds the old bytes: the new file was renamed over it
		[ "$(cat "$TESTDIR/hardlink.$fmt")" = old ]
		[ "$(head -c 3 "$TESTDIR/out.$fmt")" != old ]
		[ "$(stat -c %a "$TESTDIR/out.$fmt")" = 600 ]
	done
	[ "$(json_get "$TESTDIR/out.json" 'd["complete"]')" = True ]
	# a new output gets 0666 less the umask, and no temporary file is left
	(umask 027 && "$IOSWEEP" run "$TESTDIR/j.ini" -q -o csv:"$TESTDIR/new.csv")
	[ "$(stat -c %a "$TESTDIR/new.csv")" = 640 ]
	[ -z "$(ls "$TESTDIR" | grep '\.tmp\.')" ]
}

@test "the user's own symbolic link in a private directory is followed: its target is replaced" {
	setup_job
	mkdir "$TESTDIR/real"
	echo old >"$TESTDIR/real/r.json"
	ln -s real/r.json "$TESTDIR/link.json"
	run "$IOSWEEP" run "$TESTDIR/j.ini" -q -o json:"$TESTDIR/link.json"
	[ "$status" -eq 0 ]
	[ -L "$TESTDIR/link.json" ]
	[ "$(json_get "$TESTDIR/real/r.json" 'len(d["runs"])')" = 1 ]
	# a link to nothing is refused rather than guessed at
	ln -s nowhere/r.json "$TESTDIR/dangling.json"
	refused "json:$TESTDIR/dangling.json" "symbolic link to a file that cannot be reached"
}

@test "a symbolic link in a sticky world-writable directory is not followed, whoever owns it" {
	setup_job
	mkdir -m 1777 "$TESTDIR/shared"
	echo secret >"$TESTDIR/target"
	ln -s "$TESTDIR/target" "$TESTDIR/shared/mine.csv"
	refused "csv:$TESTDIR/shared/mine.csv" "it is a symbolic link in $TESTDIR/shared, a directory every user can write to"
	[ "$(cat "$TESTDIR/target")" = secret ]
	[ -L "$TESTDIR/shared/mine.csv" ]
}

@test "another user's symbolic link or file in a sticky world-writable directory is refused" {
	need_root
	setup_job
	chmod 755 "$TESTDIR"
	mkdir -m 1777 "$TESTDIR/shared"
	echo secret >"$TESTDIR/target"
	as_nobody ln -s "$TESTDIR/target" "$TESTDIR/shared/r.csv"
	as_nobody sh -c "echo planted >'$TESTDIR/shared/r.json'"
	refused "csv:$TESTDIR/shared/r.csv" "symbolic link in $TESTDIR/shared"
	refused "json:$TESTDIR/shared/r.json" "it belongs to another user (uid $(id -u nobody))"
	[ "$(cat "$TESTDIR/target")" = secret ]
	[ "$(cat "$TESTDIR/shared/r.json")" = planted ]
}

@test "a link met on the way is held to the same rule: through a chain, or as a directory" {
	need_root
	setup_job
	chmod 755 "$TESTDIR"
	mkdir -m 1777 "$TESTDIR/shared"
	mkdir "$TESTDIR/secret"
	echo secret >"$TESTDIR/target"
	echo secret >"$TESTDIR/secret/r.json"
	# the user's own link, in a private directory, to another user's link in /tmp
	as_nobody ln -s "$TESTDIR/target" "$TESTDIR/shared/r.json"
	ln -s "$TESTDIR/shared/r.json" "$TESTDIR/chain.json"
	refused "json:$TESTDIR/chain.json" "$TESTDIR/shared/r.json is a symbolic link in $TESTDIR/shared"
	# another user's link to a directory, in /tmp
	as_nobody ln -s "$TESTDIR/secret" "$TESTDIR/shared/results"
	refused "json:$TESTDIR/shared/results/r.json" "$TESTDIR/shared/results is a symbolic link in"
	# another user's link to a directory, in a private one
	ln -s "$TESTDIR/secret" "$TESTDIR/theirs"
	chown -h nobody "$TESTDIR/theirs"
	refused "json:$TESTDIR/theirs/r.json" "$TESTDIR/theirs is a symbolic link that belongs to another user"
	[ "$(cat "$TESTDIR/target")" = secret ]
	[ "$(cat "$TESTDIR/secret/r.json")" = secret ]
	# the user's own links are followed, with . and .. after a link
	ln -s secret "$TESTDIR/mine"
	ln -s "$TESTDIR/mine/r.json" "$TESTDIR/via.json"
	"$IOSWEEP" run "$TESTDIR/j.ini" -q -o json:"$TESTDIR/via.json" -o csv:"$TESTDIR/./mine/../mine/r.csv"
	[ "$(json_get "$TESTDIR/secret/r.json" 'len(d["runs"])')" = 1 ]
	[ -s "$TESTDIR/secret/r.csv" ] && [ -L "$TESTDIR/via.json" ]
}

@test "another user's symbolic link is not followed, even in a private directory" {
	need_root
	setup_job
	echo secret >"$TESTDIR/target"
	ln -s "$TESTDIR/target" "$TESTDIR/their.json"
	chown -h nobody "$TESTDIR/their.json"
	refused "json:$TESTDIR/their.json" "it is a symbolic link that belongs to another user"
	[ "$(cat "$TESTDIR/target")" = secret ]
}

@test "plot -o: a FIFO, a directory, a planted link or the result file itself is refused" {
	setup_job
	"$IOSWEEP" run "$TESTDIR/j.ini" -q -o json:"$TESTDIR/r.json"
	mkfifo "$TESTDIR/p.svg"
	mkdir "$TESTDIR/d.svg" "$TESTDIR/r.svg"
	mkdir -m 1777 "$TESTDIR/shared"
	ln -s "$TESTDIR/target.svg" "$TESTDIR/shared/l.svg"
	for o in p.svg d.svg shared/l.svg; do
		run "$IOSWEEP" plot "$TESTDIR/r.json" -o "$TESTDIR/$o"
		[ "$status" -eq 2 ]
		[[ "$output" == "iosweep: plot: cannot write $TESTDIR/$o: it is "* ]]
	done
	# the default name beside the input is a directory here
	run "$IOSWEEP" plot "$TESTDIR/r.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *"cannot write $TESTDIR/r.svg: it is a directory"* ]]
	cp "$TESTDIR/r.json" "$TESTDIR/r2.svg"
	run "$IOSWEEP" plot "$TESTDIR/r2.svg" -o "$TESTDIR/r2.svg"
	[ "$status" -eq 2 ]
	[[ "$output" == *"cannot write $TESTDIR/r2.svg: it is the result file"* ]]
	[ ! -e "$TESTDIR/target.svg" ]
}

@test "two processes writing one output path leave one whole file, not an interleaving" {
	head -c 1m /dev/urandom >"$TESTDIR/f"
	job j "[a]\nfilename = $TESTDIR/f\nrepeat = 1\nbs = 4k, 8k, 16k, 32k, 64k, 128k\nspacing = 128k, 256k, 512k, 1m, 2m, 4m\n"
	for i in 1 2 3 4; do
		"$IOSWEEP" run "$TESTDIR/j.ini" -q -o csv:"$TESTDIR/o.csv" -o json:"$TESTDIR/o.json" \
			-o table:"$TESTDIR/o.txt" &
	done
	wait
	python3 - "$TESTDIR/o.csv" "$TESTDIR/o.json" <<'PY'
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert rows[0][0] == "job" and len(rows) == 37, len(rows)
assert all(len(r) == len(rows[0]) for r in rows)
d = json.load(open(sys.argv[2]))
assert d["complete"] and len(d["runs"]) == 36
PY
	[ "$(grep -c '^time to end' "$TESTDIR/o.txt")" -eq 1 ]
	[ -z "$(ls "$TESTDIR" | grep '\.tmp\.')" ]
}

@test "a full disk: JSON, CSV and table files are never left looking complete, exit 1" {
	[ "$(id -u)" -eq 0 ] || skip "mounting a small tmpfs needs root"
	head -c 1m /dev/urandom >"$TESTDIR/f"
	mkdir "$TESTDIR/full"
	mount -t tmpfs -o size=64k iosweep-full "$TESTDIR/full"
	# 60 runs: JSON of about 400 KB, CSV of 15 KB, a table of 6 KB
	job j "[a]\nfilename = $TESTDIR/f\nrepeat = 1\nbs = 4k, 8k, 16k, 32k, 64k, 128k\nspacing = 128k, 192k, 256k, 384k, 512k, 768k, 1m, 1536k, 2m, 3m\n"
	run "$IOSWEEP" run "$TESTDIR/j.ini" -q -o json:"$TESTDIR/full/r.json"
	[ "$status" -eq 1 ]
	[[ "$output" == *"writing $TESTDIR/full/r.json: No space left on device"* ]]
	python3 -m json.tool "$TESTDIR/full/r.json" >/dev/null
	[ "$(json_get "$TESTDIR/full/r.json" 'd["complete"]')" = False ]
	[ "$(json_get "$TESTDIR/full/r.json" 'len(d["runs"]) < 60')" = True ]
	rm -f "$TESTDIR/full/r.json"
	# 4 KiB: the CSV header fits, its rows do not; the table does not
	mount -o remount,size=4k "$TESTDIR/full"
	run "$IOSWEEP" run "$TESTDIR/j.ini" -q -o csv:"$TESTDIR/full/r.csv" -o table:"$TESTDIR/full/r.txt"
	[ "$status" -eq 1 ]
	[[ "$output" == *"writing $TESTDIR/full/r.csv: No space left on device"* ]]
	[[ "$output" == *"writing $TESTDIR/full/r.txt: No space left on device"* ]]
	[ -z "$(ls -A "$TESTDIR/full")" ]
}

@test "a full disk: the series CSV names its path and the reason, exit 1 as the other outputs" {
	[ "$(id -u)" -eq 0 ] || skip "mounting a small tmpfs needs root"
	head -c 1m /dev/urandom >"$TESTDIR/f"
	mkdir "$TESTDIR/full"
	# 4 KiB: the header fits, the rows (10 repeats of 25 intervals) do not
	mount -t tmpfs -o size=4k iosweep-full "$TESTDIR/full"
	job s "[s]\nfilename = $TESTDIR/f\ncache = keep\nrepeat = 10\ntime_based = 1\nruntime = 50ms\ninterval = 2ms\n"
	run "$IOSWEEP" run "$TESTDIR/s.ini" -q -o series:"$TESTDIR/full/s.csv"
	[ "$status" -eq 1 ]
	[[ "$output" == *"writing $TESTDIR/full/s.csv: No space left on device"* ]]
	[ -z "$(ls -A "$TESTDIR/full")" ]
}
