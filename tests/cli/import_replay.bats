#!/usr/bin/env bats
# iosweep import of fio's I/O replay options: read_iolog, replay_no_stall
# and replay_time_scale translated, replay_redirect for a trace of one file,
# the options iosweep has no meaning for refused with why, and the
# translation replays the trace as fio's job would.
# make check: runs beside another file

load helpers

# a v3 trace of one file: 6 reads and 3 writes of 4 KiB, 1 ms apart
one_file() {
	{
		echo "fio version 3 iolog"; echo "0 /d/a add"; echo "0 /d/a open"
		for i in 0 1 2 3 4 5 6 7 8; do
			echo "$((1000 + i * 1000)) /d/a $([ $((i % 3)) = 2 ] && echo write || echo read) $((i * 4096)) 4096"
		done
		echo "10000 /d/a close"
	} >"$1"
}

@test 'read_iolog, replay_no_stall and replay_time_scale translate; what the trace replaces is noted irrelevant' {
	cd "$TESTDIR"
	one_file t.log
	printf '[r]\nread_iolog=t.log\nrw=randread\nbs=8k\nsize=1m\nioengine=libaio\niodepth=8\nreplay_no_stall=1\nreplay_time_scale=200\nreplay_scale=1\nreplay_align=0\nread_iolog_chunked=1\n' >r.fio
	run "$IOSWEEP" import r.fio -o r.ini
	echo "$output"
	[ "$status" -eq 0 ]
	grep -qx "read_iolog = $TESTDIR/t.log" r.ini
	grep -qx 'replay_no_stall = 1' r.ini
	grep -qx 'replay_time_scale = 200' r.ini
	grep -qx 'engine = aio' r.ini
	grep -qx 'iodepth = 8' r.ini
	# the trace says the op, the block size, the offsets and the file
	! grep -qE '^(op|bs|size|pattern|filename) =' r.ini
	[[ "$output" == *"r.fio:3: rw=randread: irrelevant with read_iolog"* ]]
	[[ "$output" == *"r.fio:5: size=1m: irrelevant with read_iolog"* ]]
	[[ "$output" == *"r.fio:2: read_iolog=t.log: a relative path"* ]]
	[[ "$output" == *"fio replays onto the files the trace names; iosweep onto its own test file"* ]]
	[[ "$output" == *"read_iolog_chunked=1: irrelevant"* ]]
	# and it replays the trace, as recorded
	sed -i 's/^repeat = .*/repeat = 1/' r.ini
	run "$IOSWEEP" run r.ini -o json:r.json
	echo "$output"
	[ "$status" -eq 0 ]
	r='d["runs"][0]["repeats"][0]'
	[ "$(json_get r.json "($r['reads'], $r['writes'], $r['bytes'], $r['replay']['as_recorded'])")" = "(6, 3, 36864, True)" ]
}

@test 'replay_redirect of a trace of one file is its filename; of several, refused' {
	cd "$TESTDIR"
	one_file t.log
	printf '[r]\nread_iolog=t.log\nreplay_redirect=target.dat\n' >r.fio
	run "$IOSWEEP" import r.fio -o r.ini
	echo "$output"
	[ "$status" -eq 0 ]
	grep -qx "filename = $TESTDIR/target.dat" r.ini
	[[ "$output" == *"replay_redirect=target.dat: translated as filename = $TESTDIR/target.dat: the trace's one file is replayed there"*"the trace writes"*"allow_write"* ]]
	# the translation runs: iosweep makes the file (it does not exist)
	sed -i 's/^repeat = .*/repeat = 1/' r.ini
	"$IOSWEEP" run r.ini -q -o json:r.json
	[ "$(json_get r.json 'd["runs"][0]["repeats"][0]["replay"]["as_recorded"]')" = True ]
	[ "$(stat -c %s target.dat)" -ge 36864 ]
	{ cat t.log; echo "20000 /d/b add"; echo "20000 /d/b open"; echo "20001 /d/b read 0 4096"; } >two.log
	printf '[r]\nread_iolog=two.log\nreplay_redirect=/dev/sdz\n' >two.fio
	run "$IOSWEEP" import two.fio
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: two.fio:3: replay_redirect=/dev/sdz: the trace has 2 files, which fio replays over each other on the one device, each at its recorded offsets; iosweep lays them end to end in the job's file, so the same I/Os go elsewhere: replay a trace of one file" ]
	printf '[r]\nread_iolog=none.log\nreplay_redirect=/dev/sdz\n' >none.fio
	run "$IOSWEEP" import none.fio
	[ "$status" -eq 2 ]
	[[ "$output" == "iosweep: none.fio:3: replay_redirect=/dev/sdz: its meaning depends on the trace's files, and the trace could not be read: "*"none.log"* ]]
}

@test 'replay options iosweep has no meaning for are refused, each with why; at their defaults they pass' {
	cd "$TESTDIR"
	one_file t.log
	while IFS='|' read -r opt why; do
		printf '[r]\nread_iolog=t.log\n%s\n' "$opt" >x.fio
		run "$IOSWEEP" import x.fio
		echo "$opt: $output"
		[ "$status" -eq 2 ]
		[[ "$output" == "iosweep: x.fio:3: $opt: "*"$why"* ]]
	done <<'LIST'
replay_align=4096|iosweep replays a trace's offsets as recorded; fio's replay_align rounds them down to a multiple of 4096
replay_scale=8|fio's replay_scale divides them by 8
replay_skip=trim|iosweep replays every I/O of a trace
merge_blktrace_file=b.log|iosweep replays one trace as it is
merge_blktrace_scalars=50:50|iosweep replays one trace as it is
merge_blktrace_iters=2:1|iosweep replays one trace as it is
rate=1m|not with read_iolog in iosweep: the trace's times make the replay's schedule
rate_iops=100|not with read_iolog in iosweep: the trace's times make the replay's schedule
thinktime=10|not with read_iolog in iosweep
numjobs=2|iosweep replays a trace in order, in one thread
nrfiles=2|the trace's own files are laid end to end in the job's one file
verify=md5|verify checks the blocks a pattern wrote, not a trace's
replay_time_scale=0|a scale of 0 percent
LIST
	printf '[r]\nread_iolog=t.log\nreplay_align=0\nreplay_scale=1\nreplay_skip=\nnumjobs=1\n' >ok.fio
	"$IOSWEEP" import ok.fio >/dev/null 2>&1
}

@test 'replay options in a job without read_iolog are noted irrelevant' {
	cd "$TESTDIR"
	printf '[r]\nrw=read\nsize=1m\nreplay_no_stall=1\nreplay_time_scale=50\n' >r.fio
	run "$IOSWEEP" import r.fio
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"r.fio:4: replay_no_stall=1: irrelevant: the job has no read_iolog"* ]]
	[[ "$output" == *"r.fio:5: replay_time_scale=50: irrelevant: the job has no read_iolog"* ]]
	[[ "$output" != *"read_iolog ="* ]]
}

@test 'fio itself replays the trace the translation replays, with the same I/O count' {
	command -v fio >/dev/null || skip "fio is not installed"
	cd "$TESTDIR"
	one_file t.log
	sed -i "s#/d/a#$TESTDIR/fio-a.dat#" t.log
	head -c 40960 /dev/zero >fio-a.dat
	printf '[r]\nread_iolog=t.log\nreplay_no_stall=1\nioengine=psync\n' >r.fio
	fio --output-format=json --output=fio.json r.fio
	"$IOSWEEP" import r.fio -o r.ini 2>/dev/null
	sed -i 's/^repeat = .*/repeat = 1/' r.ini
	"$IOSWEEP" run r.ini -q -o json:r.json
	f='d["jobs"][0]'
	[ "$(json_get fio.json "($f['read']['total_ios'], $f['write']['total_ios'])")" = "(6, 3)" ]
	[ "$(json_get r.json '(d["runs"][0]["repeats"][0]["reads"], d["runs"][0]["repeats"][0]["writes"])')" = "(6, 3)" ]
}
