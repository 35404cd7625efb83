#!/usr/bin/env bats
# Bad input: every malformed job file is refused with exit 2, one line on
# stderr that names the file and the line, nothing on stdout, in under a
# second.  tests/data/bad/*.ini is the corpus: each file's first line is
#   ; expect: LINE: TEXT
# (LINE is - when no line applies, TEXT must be in the message), and an
# optional second line "; env: NAME=VALUE" sets a variable for that file.
# Inputs that cannot be committed (a directory, an unreadable, huge or
# generated file) are made here.
# make check: runs beside another file

load helpers

BAD=$BATS_TEST_DIRNAME/../data/bad

# rejected FILE LINE TEXT [COMMAND]: COMMAND (default: check, then run)
# refuses FILE exactly as the corpus says, and leaves nothing behind.
rejected() {
	local f=$1 line=$2 text=$3 cmd want msg rc before
	before=$(ls -A "$IOSWEEP_DIR" 2>/dev/null)
	if [ "$line" = - ]; then want="iosweep: $f: "; else want="iosweep: $f:$line: "; fi
	for cmd in ${4:-check run}; do
		rc=0
		timeout 60 "$IOSWEEP" $cmd "$f" >"$BATS_TEST_TMPDIR/stdout" 2>"$BATS_TEST_TMPDIR/stderr" || rc=$?
		msg=$(cat "$BATS_TEST_TMPDIR/stderr")
		if [ "$rc" -ne 2 ]; then
			echo "$cmd $f: exit $rc, not 2 (124: hung for a minute): $msg"
			return 1
		fi
		if [ -s "$BATS_TEST_TMPDIR/stdout" ]; then
			echo "$cmd $f: wrote to stdout: $(head -c 300 "$BATS_TEST_TMPDIR/stdout")"
			return 1
		fi
		if [ "$(wc -l <"$BATS_TEST_TMPDIR/stderr")" -ne 1 ]; then
			echo "$cmd $f: not one line on stderr: $msg"
			return 1
		fi
		if [[ "$msg" != "$want"*"$text"* ]]; then
			echo "$cmd $f:"
			echo "  expected: $want...$text..."
			echo "  got:      $msg"
			return 1
		fi
	done
	rm -f "$BATS_TEST_TMPDIR/stdout" "$BATS_TEST_TMPDIR/stderr"
	# nothing was created where the jobs' default files would go
	if [ "$(ls -A "$IOSWEEP_DIR" 2>/dev/null)" != "$before" ]; then
		echo "$f: files appeared in $IOSWEEP_DIR: $(ls -A "$IOSWEEP_DIR")"
		return 1
	fi
}

@test "the corpus of bad job files is large and every file says what it expects" {
	n=0
	for f in "$BAD"/*.ini; do
		head -n1 "$f" | sed 's/^\xef\xbb\xbf//' | grep -qE '^; expect: (-|[0-9]+): .+' ||
			{ echo "$f: no '; expect: LINE: TEXT' first line"; false; }
		n=$((n + 1))
	done
	[ "$n" -ge 40 ]
}

@test "every bad job file is refused with exit 2 and one FILE:LINE message, nothing on stdout" {
	for f in "$BAD"/*.ini; do
		first=$(head -n1 "$f" | sed 's/^\xef\xbb\xbf//; s/\r.*$//')
		spec=${first#; expect: }
		env=$(sed -n '2s/^; env: //p' "$f")
		(
			[ -z "$env" ] || export "$env"
			rejected "$f" "${spec%%: *}" "${spec#*: }"
		)
	done
}

@test "an empty file has no jobs" {
	: >"$TESTDIR/empty.ini"
	rejected "$TESTDIR/empty.ini" - "no jobs (every section but [global] is a job)"
}

@test "a directory, a FIFO, a device and a missing file are not job files" {
	mkdir "$TESTDIR/dir.ini"
	mkfifo "$TESTDIR/fifo.ini"
	rejected "$TESTDIR/dir.ini" - "is a directory, not a job file"
	rejected "$TESTDIR/fifo.ini" - "not a regular file"
	rejected /dev/zero - "not a regular file"
	rejected "$TESTDIR/none.ini" - "No such file or directory"
}

@test "a job file larger than 16 MiB is refused without reading it" {
	printf '[a]\nsize = 1m\n' >"$TESTDIR/huge.ini"
	truncate -s 17M "$TESTDIR/huge.ini"
	rejected "$TESTDIR/huge.ini" - "larger than 16 MiB: not a job file"
}

@test "an unreadable job file is refused with the system's reason" {
	# root reads anything: the unprivileged user nobody cannot
	command -v setpriv >/dev/null || skip "setpriv (util-linux) is missing"
	chmod 755 "$TESTDIR"
	printf '[a]\nsize = 1m\n' >"$TESTDIR/secret.ini"
	chmod 000 "$TESTDIR/secret.ini"
	for cmd in check run; do
		rc=0
		timeout 60 setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$IOSWEEP" $cmd "$TESTDIR/secret.ini" >"$TESTDIR/out" 2>"$TESTDIR/err" || rc=$?
		[ "$rc" -eq 2 ]
		[ ! -s "$TESTDIR/out" ]
		[ "$(cat "$TESTDIR/err")" = "iosweep: $TESTDIR/secret.ini: Permission denied" ]
	done
}

@test "100 001 sections: the job past the 100 000th is named by its line" {
	{
		printf '[global]\nsize = 1m\n'
		seq 100001 | awk '{ printf "[j%d]\n", $1 }'
	} >"$TESTDIR/sections.ini"
	# 100 000 jobs are held before the last is refused: time bounded loosely here (the
	# sanitizers' build takes seconds), measured in make bench
	run timeout 120 "$IOSWEEP" check "$TESTDIR/sections.ini"
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: $TESTDIR/sections.ini:100003: more than 100000 jobs in one file" ]
}

# list FILE N LAST: a job whose spacing list has N values (4 KiB apart, ten a
# line on indented continuation lines), then LAST on a line of its own
list_job() {
	{
		printf '[a]\nsize = 1g\nbs = 512\npattern = random\ncount = 1\nspacing = 4096,\n'
		seq 2 "$2" | awk '{ printf "%s%d,", (NR % 10 == 1 ? "  " : " "), $1 * 4096 }
			NR % 10 == 0 { printf "\n" } END { if (NR % 10) printf "\n" }'
		printf '  %s\n' "$3"
	} >"$1"
}

@test "a 100 000-value list is read, and an error at its end names its line" {
	list_job "$TESTDIR/long.ini" 99999 $((100000 * 4096))
	[ "$(tail -n +6 "$TESTDIR/long.ini" | grep -o '[0-9]\+' | sort -u | wc -l)" -eq 100000 ]
	timeout 60 "$IOSWEEP" check "$TESTDIR/long.ini"
	list_job "$TESTDIR/bad.ini" 99999 4x
	rejected "$TESTDIR/bad.ini" "$(wc -l <"$TESTDIR/bad.ini")" "spacing: '4x' has an unknown unit 'x'"
	list_job "$TESTDIR/twice.ini" 99999 4096
	rejected "$TESTDIR/twice.ini" 6 "spacing: 4KiB is listed twice"
}

@test "values inherited from [global] by many jobs are bounded" {
	# 1000 values in [global] (lines 2-101), then one job a line: the
	# 1000th job would hold the 1 000 001st value
	{
		printf '[global]\n'
		seq 1000 | awk '{ printf "%s%d%s", (NR == 1 ? "spacing = " : NR % 10 == 1 ? "  " : ""), $1 * 4096, (NR == 1000 ? "\n" : NR % 10 == 0 ? ",\n" : ", ") }'
		seq 1000 | awk '{ printf "[j%d]\n", $1 }'
	} >"$TESTDIR/inherit.ini"
	rejected "$TESTDIR/inherit.ini" $((101 + 1000)) "more than 1000000 values in the file"
}
