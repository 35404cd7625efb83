#!/usr/bin/env bats
# The round trip in one test: a program recorded with `iosweep record`, its
# trace replayed by `iosweep run` (read_iolog) under several engines, and by
# fio: the replay's I/Os, bytes, op mix and syncs are the recording's.
# make check: runs beside another file

load helpers

# counts META: the recording's "reads writes read_bytes write_bytes syncs"
counts() {
	json_get "$1" "' '.join(str(d['counts'][k]) for k in ('reads', 'writes', 'read_bytes', 'write_bytes', 'syncs'))"
}

@test "a recorded program replays in iosweep (sync, psync2, uring) and fio with its own I/Os, bytes, op mix and syncs" {
	run "$IOSWEEP" record -o "$TESTDIR/k.iolog" -- "$HELPERS/iotrace" known "$TESTDIR/k.dat"
	[ "$status" -eq 0 ]
	want=$(counts "$TESTDIR/k.iolog.meta.json")
	[ "$want" = "2 4 6144 12388 2" ]
	job r "[r]\nread_iolog = $TESTDIR/k.iolog\nengine = sync, psync2, uring\nreplay_no_stall = 1\nrepeat = 2\n"
	run "$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json" -o table
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/r.json" 'len(d["runs"])')" = 3 ]
	for run in 0 1 2; do
		for k in 0 1; do
			r="d['runs'][$run]['repeats'][$k]"
			got=$(json_get "$TESTDIR/r.json" "' '.join(str($r[f]) for f in ('reads', 'writes', 'read_bytes', 'write_bytes', 'flushes'))")
			echo "run $run repeat $k: replayed $got, recorded $want"
			[ "$got" = "$want" ]
			[ "$(json_get "$TESTDIR/r.json" "$r['replay']['as_recorded']")" = True ]
		done
	done
	[ "$(grep -c "6 of 6 I/Os (r 2 of 2, w 4 of 4), 18532 of 18532 bytes, 2 of 2 syncs: as recorded" <<<"$output")" = 6 ]
	# fio replays the same trace (onto the recorded file) with the same I/Os and bytes
	command -v fio >/dev/null || skip "fio is not installed (iosweep's side checked)"
	fio --name=replay --read_iolog="$TESTDIR/k.iolog" --output-format=json \
		--output="$TESTDIR/k.fio.json" >/dev/null 2>&1
	# (reads, writes and bytes: fio 3.33's JSON counts the fsync and not the fdatasync in
	# its sync section, 1 here)
	got=$(json_get "$TESTDIR/k.fio.json" "' '.join(str(x) for x in (d['jobs'][0]['read']['total_ios'], d['jobs'][0]['write']['total_ios'], d['jobs'][0]['read']['io_bytes'], d['jobs'][0]['write']['io_bytes']))")
	echo "fio: $got, recorded $want"
	[ "$got" = "${want% *}" ]
}

@test "a recording of two threads carries each I/O's thread as a sixth field, which fio ignores: it replays every I/O" {
	head -c 81920 /dev/urandom >"$TESTDIR/in.dat"
	run "$IOSWEEP" record -o "$TESTDIR/t.iolog" -- "$HELPERS/iotrace" threads "$TESTDIR/in.dat" 2
	[ "$status" -eq 0 ]
	# the I/O lines have six fields, the file lines three: two threads, ten reads each
	[ "$(awk 'NR > 1 && $3 == "read" && NF == 6 { print $6 }' "$TESTDIR/t.iolog" | sort | uniq -c | awk '{ print $1 }' | paste -sd ' ')" = "10 10" ]
	[ "$(awk 'NR > 1 && ($3 == "add" || $3 == "open" || $3 == "close") && NF != 3' "$TESTDIR/t.iolog" | wc -l)" = 0 ]
	command -v fio >/dev/null || skip "fio is not installed (the trace's fields checked)"
	fio --name=replay --read_iolog="$TESTDIR/t.iolog" --output-format=json \
		--output="$TESTDIR/t.fio.json" >/dev/null 2>&1
	got=$(json_get "$TESTDIR/t.fio.json" "' '.join(str(x) for x in (d['jobs'][0]['read']['total_ios'], d['jobs'][0]['read']['io_bytes']))")
	echo "fio: $got"
	[ "$got" = "20 81920" ]
}
