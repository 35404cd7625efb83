#!/usr/bin/env bats
# A fio user's spelling in an iosweep job file gets pointed at iosweep's words.
# make check: runs beside another file

load helpers

@test "fio option names (also of writes, syncs and rates) point at the iosweep option or at iosweep import" {
	for pair in "direct:cache = direct" "ioengine:'engine'" "numjobs:'threads'" \
		"blocksize:'bs'" "readwrite:'pattern'" "rw:'pattern'" \
		"ramp_time:'ramp'" "randrepeat:'seed'" "iodepth_batch:'iodepth'" \
		"buffered:cache = direct" "loops:'repeat'" \
		"fsync:'sync = fsync' with 'sync_every = N'" "fdatasync:'sync = fdatasync'" \
		"end_fsync:'sync = end'" "fsync_on_close:'sync = end'" "zero_buffers:'data = zero'" \
		"rwmixwrite:'rwmixread'" "fallocate:'alloc'" "overwrite:'alloc = overwrite'" \
		"refill_buffers:new data into every block" "do_verify:'verify = after'" \
		"rate_process:always linear" "rw:'op'"; do
		opt=${pair%%:*} want=${pair#*:}
		job j "[a]\nsize = 1m\n$opt = 1\n"
		run "$IOSWEEP" check "$TESTDIR/j.ini"
		echo "$opt: $output"
		[ "$status" -eq 2 ]
		[[ "$output" == "iosweep: $TESTDIR/j.ini:3: unknown option '$opt'"*"$want"* ]]
		[[ "$output" == *"iosweep import"* ]]
	done
}

@test "fio values point at the iosweep value" {
	for pair in "engine:libaio:'aio'" "engine:io_uring:'uring'" "engine:psync:'sync'" \
		"pattern:randread:'random'" "pattern:read:'sequential'" \
		"pattern:randwrite:'op = write' with 'pattern = random'"; do
		opt=${pair%%:*} rest=${pair#*:}
		val=${rest%%:*} want=${rest#*:}
		job j "[a]\nsize = 1m\n$opt = $val\n"
		run "$IOSWEEP" check "$TESTDIR/j.ini"
		echo "$opt=$val: $output"
		[ "$status" -eq 2 ]
		[[ "$output" == *"$opt: unknown value '$val': "*"$want"*"(allowed: "* ]]
	done
}

@test "a size with a b suffix warns in check and plan with both readings" {
	job j "[a]\nsize = 1mb\nbs = 4kb, 4KiB\n"
	run "$IOSWEEP" check "$TESTDIR/j.ini"
	[ "$status" -eq 0 ]
	[[ "$output" == *"j.ini:2: size = 1mb is 1000000 bytes here"*"fio reads 1mb as 1048576: write 1MiB"* ]]
	[[ "$output" == *"j.ini:3: bs = 4kb is 4000 bytes here"*"fio reads 4kb as 4096: write 4KiB"* ]]
	[ "$(echo "$output" | grep -c warning)" -eq 2 ]
	"$IOSWEEP" plan "$TESTDIR/j.ini" 2>"$TESTDIR/err" >/dev/null
	grep -q 'bs = 4kb is 4000 bytes here' "$TESTDIR/err"
}

@test "a block size that is not a multiple of 512 warns with its bytes" {
	job j "[a]\nsize = 1m\nbs = 1000\n"
	run "$IOSWEEP" check "$TESTDIR/j.ini"
	[ "$status" -eq 0 ]
	[[ "$output" == *"j.ini:3: bs = 1000 is 1000 bytes, not a multiple of 512"* ]]
	job k "[a]\nsize = 1m\nbs = 4k, 512, 8KiB, 1000k\n"
	run "$IOSWEEP" check "$TESTDIR/k.ini"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "an unknown duration unit lists the valid ones" {
	job j "[a]\nsize = 1m\nruntime = 10sec\n"
	run "$IOSWEEP" check "$TESTDIR/j.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *"runtime: '10sec' has an unknown unit 'sec' (units: s, ns, us, µs, ms, m, min, h)"* ]]
}

@test "--set sizes warn like the job file's in check, plan and run, naming the --set" {
	job j "[a]\nsize = 64k\nrepeat = 1\n"
	for cmd in check plan; do
		run "$IOSWEEP" $cmd "$TESTDIR/j.ini" --set bs=4kb --set size=64KiB
		echo "$cmd: $output"
		[ "$status" -eq 0 ]
		[[ "$output" == *"iosweep: warning: --set 'bs=4kb': bs = 4kb is 4000 bytes here"*"fio reads 4kb as 4096: write 4KiB"* ]]
		[ "$(echo "$output" | grep -c warning)" -eq 1 ]
	done
	cd "$TESTDIR"
	"$IOSWEEP" run j.ini --set bs=1000 -q -o json:r.json 2>err
	grep -q "^iosweep: warning: --set 'bs=1000': bs = 1000 is 1000 bytes, not a multiple of 512" err
	[ "$(grep -c warning err)" -eq 1 ]
}
