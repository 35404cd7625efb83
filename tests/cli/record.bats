#!/usr/bin/env bats
# iosweep record: a program's file I/O, recorded through the LD_PRELOAD
# interposer, is exactly what the program did (count, offsets, sizes, threads),
# written as a fio version 3 iolog that fio replays with the same I/Os and
# bytes, with a meta file beside it; the command's exit status passes through
# and a failing command keeps its trace, marked; what cannot be followed is
# said, never silently missing.
# make check: runs beside another file

load helpers

# ops TRACE [FILE]: the I/O lines of an iolog (action offset length), of FILE only if given
# (each ends with its thread's index, a sixth field)
ops() {
	awk -v f="${2:-}" 'NR > 1 && NF == 6 && (f == "" || $2 == f) {print $3, $4, $5}' "$1"
}

@test "a program's known preads, pwrites, write and syncs are the trace's I/Os, exactly" {
	run "$IOSWEEP" record -o "$TESTDIR/k.iolog" -- "$HELPERS/iotrace" known "$TESTDIR/k.dat"
	[ "$status" -eq 0 ]
	[ "$(head -n1 "$TESTDIR/k.iolog")" = "fio version 3 iolog" ]
	expected="write 0 4096
write 8192 4096
write 16384 4096
sync 0 0
read 8192 4096
read 0 2048
datasync 0 0
write 4096 100"
	[ "$(ops "$TESTDIR/k.iolog" "$TESTDIR/k.dat")" = "$expected" ]
	# the file's add, open and close around them, timestamps never going back
	[ "$(awk 'NR > 1 && NF == 3 {print $3}' "$TESTDIR/k.iolog" | tr '\n' ' ')" = "add open close " ]
	awk 'NR > 1 {if ($1 < last) exit 1; last = $1}' "$TESTDIR/k.iolog"
	m=$TESTDIR/k.iolog.meta.json
	[ "$(json_get "$m" "d['counts']['reads'], d['counts']['writes'], d['counts']['syncs']")" = "(2, 4, 2)" ]
	[ "$(json_get "$m" "d['counts']['read_bytes'], d['counts']['write_bytes'], d['counts']['lseeks']")" = "(6144, 12388, 1)" ]
	[ "$(json_get "$m" "d['exit_status'], d['failed'], d['followed']")" = "(0, False, True)" ]
	[ "$(json_get "$m" "[f['path'] for f in d['files']]")" = "['$TESTDIR/k.dat']" ]
	# each event names its iolog line, which holds that event
	json_get "$m" "'\n'.join('%d %s %d' % (e[0], e[4], e[7]) for e in d['events'] if e[0] and e[4] in ('read', 'write'))" |
		while read -r line op len; do
			[ "$(sed -n "${line}p" "$TESTDIR/k.iolog" | awk '{print $3}')" = "$op" ]
		done
	[[ "$output" == *"8 I/Os (2 reads, 6144 bytes; 4 writes, 12388 bytes; 2 syncs)"* ]]
}

@test "the command's exit status passes through, and a failing command keeps its trace, marked failed" {
	run "$IOSWEEP" record -o "$TESTDIR/k.iolog" -- "$HELPERS/iotrace" known "$TESTDIR/k.dat" 3
	[ "$status" -eq 3 ]
	[ "$(ops "$TESTDIR/k.iolog" | wc -l)" -eq 8 ]
	[ "$(json_get "$TESTDIR/k.iolog.meta.json" "d['exit_status'], d['failed'], d['signal']")" = "(3, True, 0)" ]
	[[ "$output" == *"note: the command exited with status 3: the trace is kept and marked failed"* ]]
	run "$IOSWEEP" record -o "$TESTDIR/s.iolog" -- sh -c 'kill -9 $$'
	[ "$status" -eq 137 ]
	[ "$(json_get "$TESTDIR/s.iolog.meta.json" "d['exit_status'], d['signal'], d['failed']")" = "(137, 9, True)" ]
	# (127 is bats' "command not found" for run: called directly)
	status=0
	"$IOSWEEP" record -o "$TESTDIR/n.iolog" -- "$TESTDIR/no-such-program" 2>"$TESTDIR/err" || status=$?
	[ "$status" -eq 127 ]
	grep -qF "cannot run $TESTDIR/no-such-program: No such file or directory" "$TESTDIR/err"
	[ ! -e "$TESTDIR/n.iolog" ]
	touch "$TESTDIR/not-executable"
	run "$IOSWEEP" record -o "$TESTDIR/n.iolog" -- "$TESTDIR/not-executable"
	[ "$status" -eq 126 ]
}

@test "SIGTERM sent to iosweep goes to the command, and the trace of what it did is written" {
	"$IOSWEEP" record -o "$TESTDIR/term.iolog" -- sh -c 'cat "$1" >/dev/null; touch "$2"; exec sleep 30' sh "$HELPERS/iotrace" "$TESTDIR/started" 2>"$TESTDIR/err" &
	pid=$!
	wait_for test -e "$TESTDIR/started"
	kill -TERM $pid
	status=0
	wait $pid || status=$?
	[ "$status" -eq 143 ]
	[ "$(json_get "$TESTDIR/term.iolog.meta.json" "d['signal'], d['failed']")" = "(15, True)" ]
	grep -q " $(realpath "$HELPERS/iotrace") read 0 " "$TESTDIR/term.iolog"
	[ -z "$(ls "$TESTDIR" | grep raw)" ]
}

@test "each thread's I/Os are recorded with its own thread id" {
	head -c 1M /dev/urandom >"$TESTDIR/t.dat"
	run "$IOSWEEP" record -o "$TESTDIR/t.iolog" -- "$HELPERS/iotrace" threads "$TESTDIR/t.dat" 4
	[ "$status" -eq 0 ]
	[ "$(ops "$TESTDIR/t.iolog" "$TESTDIR/t.dat" | wc -l)" -eq 40 ]
	# offsets 0, 4 KiB, ... 156 KiB, each once
	[ "$(ops "$TESTDIR/t.iolog" | awk '{print $2 / 4096}' | sort -n | tr '\n' ' ')" = "$(seq 0 39 | tr '\n' ' ')" ]
	# four threads other than the main one, ten reads each, the same pid
	m=$TESTDIR/t.iolog.meta.json
	[ "$(json_get "$m" "sorted(t['ios'] for t in d['threads'])")" = "[0, 10, 10, 10, 10]" ]
	[ "$(json_get "$m" "len({e[3] for e in d['events'] if e[4] == 'read'}), len({e[2] for e in d['events']})")" = "(4, 1)" ]
	# each I/O line's sixth field is its thread's index in the meta file's threads:
	# that thread's tid is the one of the line's event
	[ "$(json_get "$m" "sorted({(e[0], e[3]) for e in d['events'] if e[4] == 'read'})")" = \
	  "$(awk 'NR > 1 && NF == 6 { print NR, $6 }' "$TESTDIR/t.iolog" | json_get "$m" "sorted({(int(l.split()[0]), d['threads'][int(l.split()[1])]['tid']) for l in sys.stdin})")" ]
	# the file is added once; an open in the iolog when none of its descriptors
	# was open, a close when the last one closes: as many of each, alternating
	[ "$(grep -c ' add$' "$TESTDIR/t.iolog")" -eq 1 ]
	[ "$(awk 'NR > 1 && NF == 3 && $3 != "add" {printf "%s ", $3}' "$TESTDIR/t.iolog" | sed 's/open close //g')" = "" ]
}

@test "a Python program reading a file in chunks is recorded chunk by chunk" {
	head -c 1M /dev/urandom >"$TESTDIR/p.dat"
	run "$IOSWEEP" record -o "$TESTDIR/p.iolog" -- python3 -c '
import sys
with open(sys.argv[1], "rb") as f:
    while f.read(65536):
        pass' "$TESTDIR/p.dat"
	[ "$status" -eq 0 ]
	[ "$(ops "$TESTDIR/p.iolog" "$TESTDIR/p.dat")" = "$(for i in $(seq 0 15); do echo "read $((i * 65536)) 65536"; done)" ]
	# the read at the end of the file, which got nothing, is an event only
	[ "$(json_get "$TESTDIR/p.iolog.meta.json" "sum(1 for e in d['events'] if e[4] == 'read' and e[8] == 0 and e[0] is None)")" -ge 1 ]
}

@test "the seeds' sparse reader: one 4 KiB read every 8 MiB, after an lseek each" {
	truncate -s 64M "$TESTDIR/sparse.dat"
	run "$IOSWEEP" record -o "$TESTDIR/sp.iolog" -- "$HELPERS/iotrace" sparse "$TESTDIR/sparse.dat"
	[ "$status" -eq 0 ]
	[ "$(ops "$TESTDIR/sp.iolog")" = "$(for i in $(seq 0 7); do echo "read $((i * 8388608)) 4096"; done)" ]
	[ "$(json_get "$TESTDIR/sp.iolog.meta.json" "d['counts']['lseeks'], d['counts']['reads'], d['counts']['read_bytes']")" = "(8, 8, 32768)" ]
}

@test "a program built with _FORTIFY_SOURCE (__read_chk, __pread_chk) is recorded too" {
	truncate -s 4M "$TESTDIR/f.dat"
	run "$IOSWEEP" record -o "$TESTDIR/f.iolog" -- "$HELPERS/iotrace_fortified" "$TESTDIR/f.dat"
	[ "$status" -eq 0 ]
	[ "$(ops "$TESTDIR/f.iolog")" = "$(for i in 0 1 2 3; do echo "read $((i * 1048576)) 4096"; done; echo "read 0 4096")" ]
}

@test "the trace grows linearly with the I/Os, iosweep's memory does not" {
	head -c 1M /dev/urandom >"$TESTDIR/l.dat"
	for n in 1000 50000; do
		"$HELPERS/peakrss" "$IOSWEEP" record -o "$TESTDIR/l$n.iolog" -- "$HELPERS/iotrace" preads "$TESTDIR/l.dat" $n >"$TESTDIR/rss$n"
		[ "$(ops "$TESTDIR/l$n.iolog" | wc -l)" -eq $n ]
		# each I/O line: time, path, action, offset, length
		[ "$(stat -c %s "$TESTDIR/l$n.iolog")" -le $((n * (${#TESTDIR} + 40) + 4096)) ]
	done
	echo "peak RSS: $(cat "$TESTDIR/rss1000") KiB for 1000 reads, $(cat "$TESTDIR/rss50000") KiB for 50000"
	[ "$(cat "$TESTDIR/rss50000")" -le $(($(cat "$TESTDIR/rss1000") + 2048)) ]
}

@test "a program that changes directory and closes every descriptor is still recorded" {
	head -c 64k /dev/urandom >"$TESTDIR/c.dat"
	run "$IOSWEEP" record -o "$TESTDIR/c.iolog" -- python3 -c '
import os, sys
os.chdir("/")
os.closerange(3, 65536)
with open(sys.argv[1], "rb") as f:
    f.read(4096)' "$TESTDIR/c.dat"
	[ "$status" -eq 0 ]
	[ "$(ops "$TESTDIR/c.iolog" "$TESTDIR/c.dat")" = "read 0 4096" ]
}

@test "--anonymize names files by a stable id and keeps no path" {
	head -c 64k /dev/urandom >"$TESTDIR/secret-name.dat"
	for n in 1 2; do
		run "$IOSWEEP" record --anonymize -o "$TESTDIR/a$n.iolog" -- "$HELPERS/iotrace" stdio "$TESTDIR/secret-name.dat"
		[ "$status" -eq 0 ]
		! grep -q secret-name "$TESTDIR/a$n.iolog" "$TESTDIR/a$n.iolog.meta.json"
		[[ "$output" != *secret-name* ]]
	done
	id=$(awk 'NR == 2 {print $2}' "$TESTDIR/a1.iolog")
	[[ "$id" =~ ^iosweep-[0-9a-f]{16}$ ]]
	# the same file, the same id: the two traces name the same files
	[ "$(awk 'NR > 1 {print $2}' "$TESTDIR/a1.iolog" | sort -u)" = "$(awk 'NR > 1 {print $2}' "$TESTDIR/a2.iolog" | sort -u)" ]
	[ "$(ops "$TESTDIR/a1.iolog" "$id" | wc -l)" -eq 3 ]
	[ "$(json_get "$TESTDIR/a1.iolog.meta.json" "d['anonymized'], d['command']")" = "(True, ['iotrace', '(anonymized)'])" ]
}

@test "fio replays iosweep's trace with read_iolog: the same count of I/Os and bytes" {
	command -v fio >/dev/null || skip "no fio"
	head -c 1M /dev/urandom >"$TESTDIR/r.dat"
	run "$IOSWEEP" record -o "$TESTDIR/k.iolog" -- "$HELPERS/iotrace" known "$TESTDIR/k.dat"
	[ "$status" -eq 0 ]
	run "$IOSWEEP" record -o "$TESTDIR/t.iolog" -- "$HELPERS/iotrace" threads "$TESTDIR/r.dat" 3
	[ "$status" -eq 0 ]
	# fio replays onto the recorded paths: copies made for it in the test directory
	for t in k t; do
		fio --name=replay --read_iolog="$TESTDIR/$t.iolog" --output-format=json \
			--output="$TESTDIR/$t.fio.json" >/dev/null 2>&1
		got=$(json_get "$TESTDIR/$t.fio.json" "[(j['read']['total_ios'], j['read']['io_bytes'], j['write']['total_ios'], j['write']['io_bytes']) for j in d['jobs']][0]")
		want=$(json_get "$TESTDIR/$t.iolog.meta.json" "(d['counts']['reads'], d['counts']['read_bytes'], d['counts']['writes'], d['counts']['write_bytes'])")
		echo "$t: fio $got, recorded $want"
		[ "$got" = "$want" ]
	done
	[ "$want" = "(30, 122880, 0, 0)" ]
}

@test "what cannot be followed is said: a mapping, a stdio stream, a static program" {
	head -c 64k /dev/urandom >"$TESTDIR/m.dat"
	run "$IOSWEEP" record -o "$TESTDIR/m.iolog" -- "$HELPERS/iotrace" mmap "$TESTDIR/m.dat"
	[ "$status" -eq 0 ]
	[[ "$output" == *"note: $TESTDIR/m.dat is mapped into memory (mmap): its loads and stores are not in the trace"* ]]
	[ "$(json_get "$TESTDIR/m.iolog.meta.json" "d['counts']['mmaps'], len(d['notes'])")" = "(1, 1)" ]
	run "$IOSWEEP" record -o "$TESTDIR/s.iolog" -- "$HELPERS/iotrace" stdio "$TESTDIR/m.dat"
	[ "$status" -eq 0 ]
	[[ "$output" == *"note: $TESTDIR/m.dat is read or written through a stdio stream"* ]]
	[ "$(ops "$TESTDIR/s.iolog")" = "$(printf 'read 0 1000\nread 1000 1000\nread 2000 1000')" ]
	static=$(command -v ldconfig || echo /sbin/ldconfig)
	file -L "$static" 2>/dev/null | grep -q 'static' || skip "no statically linked program here"
	run "$IOSWEEP" record -o "$TESTDIR/st.iolog" -- "$static" -p
	[ "$status" -eq 0 ]
	[[ "$output" == *"was not followed (a statically linked or set-user-ID program ignores LD_PRELOAD)"* ]]
	[ "$(json_get "$TESTDIR/st.iolog.meta.json" "d['followed']")" = False ]
}

@test "bad usage and a bad output are refused before the command runs" {
	run "$IOSWEEP" record -o "$TESTDIR/x.iolog"
	[ "$status" -eq 2 ]
	[[ "$output" == *"no command after '--'"* ]]
	run "$IOSWEEP" record -o - -- touch "$TESTDIR/ran"
	[ "$status" -eq 2 ]
	mkdir "$TESTDIR/dir.iolog"
	run "$IOSWEEP" record -o "$TESTDIR/dir.iolog" -- touch "$TESTDIR/ran"
	[ "$status" -eq 2 ]
	[[ "$output" == *"cannot write $TESTDIR/dir.iolog: it is a directory"* ]]
	[ ! -e "$TESTDIR/ran" ]
	run "$IOSWEEP" record --set size=1m -- true
	[ "$status" -eq 2 ]
	# nothing is left beside the trace but the trace and its meta file
	run "$IOSWEEP" record -o "$TESTDIR/ok.iolog" -- true
	[ "$status" -eq 0 ]
	[ "$(ls "$TESTDIR" | grep ok | tr '\n' ' ')" = "ok.iolog ok.iolog.meta.json " ]
}
