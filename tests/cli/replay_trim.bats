#!/usr/bin/env bats
# read_iolog with trim lines: each is a unit of the loop (a hole punched in
# the job's file, a discard on a device), counted in the trims and in the
# fidelity report, and a trace that trims needs the consent a write needs.

load helpers

# trim_trace FILE: 8 writes of 4 KiB, 3 trims (one of 8 KiB), 8 reads, on
# two files of the trace (v3)
trim_trace() {
	{
		echo "fio version 3 iolog"
		echo "0 /d/a add"; echo "0 /d/b add"
		for i in 0 1 2 3 4 5 6 7; do echo "$((10 + i)) /d/a write $((i * 4096)) 4096"; done
		echo "20 /d/a trim 4096 4096"
		echo "21 /d/a trim 16384 8192"
		echo "22 /d/b trim 0 4096"
		for i in 0 1 2 3 4 5 6 7; do echo "$((30 + i)) /d/a read $((i * 4096)) 4096"; done
	} >"$1"
}

@test "a trace's trims are replayed as trims: counted, in the fidelity report, as recorded" {
	trim_trace "$TESTDIR/t.log"
	job r "[r]\nread_iolog = $TESTDIR/t.log\nreplay_no_stall = 1\nrepeat = 2\n"
	run "$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json" -o table
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"19 of 19 I/Os (r 8 of 8, w 8 of 8, t 3 of 3), 81920 of 81920 bytes, 0 of 0 syncs: as recorded"* ]]
	for k in 0 1; do
		r="d['runs'][0]['repeats'][$k]"
		[ "$(json_get "$TESTDIR/r.json" "($r['trims'], $r['trim_bytes'], $r['replay']['as_recorded'])")" = "(3, 16384, True)" ]
		[ "$(json_get "$TESTDIR/r.json" "($r['replay']['recorded']['trims'], $r['replay']['recorded']['trim_bytes'], $r['replay']['replayed']['trims'])")" = "(3, 16384, 3)" ]
	done
}

@test "a trace's trims punch holes at their offsets in the job's file, in the trace's order (strace)" {
	command -v strace >/dev/null || skip "strace is not installed"
	trim_trace "$TESTDIR/t.log"
	job r "[r]\nread_iolog = $TESTDIR/t.log\nreplay_no_stall = 1\nengine = sync\nrepeat = 1\n"
	strace -f -e trace=fallocate -o "$TESTDIR/s.tr" \
		"$IOSWEEP" run "$TESTDIR/r.ini" -q -o json:"$TESTDIR/r.json"
	# /d/b's region begins after /d/a's: a reaches 32 KiB
	sed -nE 's/.*fallocate\([0-9]+, FALLOC_FL_KEEP_SIZE\|FALLOC_FL_PUNCH_HOLE, ([0-9]+), ([0-9]+)\).*/\1 \2/p' \
		"$TESTDIR/s.tr" >"$TESTDIR/got"
	printf '4096 4096\n16384 8192\n32768 4096\n' | diff - "$TESTDIR/got"
}

@test "a trace that trims needs the write consent: a file iosweep did not make is refused" {
	trim_trace "$TESTDIR/t.log"
	head -c 100000 /dev/urandom >"$TESTDIR/mine.dat"
	job r "[r]\nread_iolog = $TESTDIR/t.log\nfilename = $TESTDIR/mine.dat\nrepeat = 1\n"
	refused run r "was not created by iosweep" "$TESTDIR/mine.dat"
	# trims alone, without a write: still a write job
	grep -v ' write ' "$TESTDIR/t.log" >"$TESTDIR/t2.log"
	job r "[r]\nread_iolog = $TESTDIR/t2.log\nfilename = $TESTDIR/mine.dat\nrepeat = 1\n"
	refused run r "was not created by iosweep" "$TESTDIR/mine.dat"
}

@test "a blkparse trace's discards are replayed as trims (strace)" {
	command -v strace >/dev/null || skip "strace is not installed"
	cat >"$TESTDIR/b.txt" <<'TRACE'
  8,0    1        1     0.000000000  4217  Q   W 0 + 8 [dd]
  8,0    1        2     0.001000000  4217  Q   D 16 + 16 [fstrim]
  8,0    1        3     0.002000000  4217  Q   R 0 + 8 [dd]
TRACE
	job r "[r]\nread_iolog = $TESTDIR/b.txt\nreplay_no_stall = 1\nengine = sync\nrepeat = 1\n"
	strace -f -e trace=fallocate -o "$TESTDIR/s.tr" \
		"$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json" -o table >"$TESTDIR/out"
	grep -q "3 of 3 I/Os (r 1 of 1, w 1 of 1, t 1 of 1), 16384 of 16384 bytes, 0 of 0 syncs: as recorded" "$TESTDIR/out"
	# sector 16 (8192 bytes), 16 sectors (8192 bytes)
	[ "$(sed -nE 's/.*fallocate\([0-9]+, FALLOC_FL_KEEP_SIZE\|FALLOC_FL_PUNCH_HOLE, ([0-9]+), ([0-9]+)\).*/\1 \2/p' "$TESTDIR/s.tr")" = "8192 8192" ]
	[ "$(json_get "$TESTDIR/r.json" "d['runs'][0]['repeats'][0]['trims']")" = 1 ]
}
