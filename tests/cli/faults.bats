#!/usr/bin/env bats
# Faults during a run: a full disk while creating the test file, a file that
# shrinks under a running job, signals while creating and while measuring,
# an output that cannot be written, and EIO from the device (faked with an
# LD_PRELOAD shim).  Each must end with a clear message, the right exit code,
# no stray files and, where runs were done, their results.

load helpers

teardown() {
	if mountpoint -q "$TESTDIR/full" 2>/dev/null; then
		umount "$TESTDIR/full"
	fi
	rm -rf "$TESTDIR"
}

@test "a full disk while creating the test file: the file is named, exit 1, nothing left behind" {
	[ "$(id -u)" -eq 0 ] || skip "mounting a small tmpfs needs root"
	mkdir "$TESTDIR/full"
	mount -t tmpfs -o size=2m iosweep-full "$TESTDIR/full"
	job f "[a]\nfilename = $TESTDIR/full/f.dat\nsize = 4m\nrepeat = 1\ncache = keep\n"
	run "$IOSWEEP" run "$TESTDIR/f.ini" -o json:"$TESTDIR/f.json" --quiet
	[ "$status" -eq 1 ]
	[ "$output" = "iosweep: run 0 (job 'a'): creating $TESTDIR/full/f.dat: No space left on device" ]
	[ -z "$(ls -A "$TESTDIR/full")" ]
	[ "$(json_get "$TESTDIR/f.json" 'd["runs"][0]["failed"]')" = True ]
	[[ "$(json_get "$TESTDIR/f.json" 'd["runs"][0]["error"]')" == *"No space left on device" ]]
}

@test "a full disk where an output goes leaves the previous file in place: exit 1, or 2 before any run" {
	[ "$(id -u)" -eq 0 ] || skip "mounting a small tmpfs needs root"
	head -c 1m /dev/urandom >"$TESTDIR/f.dat"
	job r "[a]\nfilename = $TESTDIR/f.dat\nrepeat = 1\ncache = keep\n"
	mkdir "$TESTDIR/full"
	mount -t tmpfs -o size=1m iosweep-full "$TESTDIR/full"
	echo '{"precious": 1}' >"$TESTDIR/keep.json"
	echo '{"precious": 2}' >"$TESTDIR/full/res.json"
	# 4 KiB left: enough for an empty temporary file, not for a result
	dd if=/dev/zero of="$TESTDIR/full/fill" bs=4k count=254 2>/dev/null
	run "$IOSWEEP" run "$TESTDIR/r.ini" -q -o json:"$TESTDIR/full/res.json"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$TESTDIR/full/res.json: No space left on device"* ]]
	[ "$(cat "$TESTDIR/full/res.json")" = '{"precious": 2}' ]
	# the other output's disk is full from the start: nothing runs, and the
	# JSON beside it is not touched either
	dd if=/dev/zero of="$TESTDIR/full/more" bs=4k 2>/dev/null || true
	run "$IOSWEEP" run "$TESTDIR/r.ini" -q -o json:"$TESTDIR/keep.json" -o csv:"$TESTDIR/full/out.csv"
	echo "$output"
	[ "$status" -eq 2 ]
	[ "$(cat "$TESTDIR/keep.json")" = '{"precious": 1}' ]
	[ -z "$(ls "$TESTDIR" "$TESTDIR/full" | grep '\.tmp\.')" ]
}

@test "SIGTERM while the outputs are written: they are whole, and the exit status is still 143" {
	command -v strace >/dev/null || skip "strace is not installed"
	head -c 1m /dev/urandom >"$TESTDIR/f.dat"
	job r "[a]\nfilename = $TESTDIR/f.dat\nrepeat = 1\ncache = keep\n"
	# the last write of the JSON is made durable (fsync): 2 s slower here (strace
	# itself, not helpers.bash's wrapper, so that $! is strace and iosweep its child)
	ASAN_OPTIONS=detect_leaks=0 command strace -f -o /dev/null -e trace=fsync \
		-e inject=fsync:delay_exit=2000000 \
		"$IOSWEEP" run "$TESTDIR/r.ini" -q -o json:"$TESTDIR/r.json" 2>"$TESTDIR/err" &
	tracer=$!
	wait_for test -s "$TESTDIR/r.json"
	sleep 0.5
	pkill -TERM -P "$tracer"
	rc=0
	wait "$tracer" || rc=$?
	cat "$TESTDIR/err"
	[ "$rc" -eq 143 ]
	grep -q "interrupted while the outputs were written (SIGTERM): every run is in them" "$TESTDIR/err"
	[ "$(json_get "$TESTDIR/r.json" 'd["complete"], len(d["runs"])')" = "(True, 1)" ]
}

@test "a file that shrinks under a running job fails each run at an offset past its new end; earlier runs are kept" {
	head -c 64m /dev/zero >"$TESTDIR/f.dat"
	# run 0 is quick; runs 1-5 read random blocks in 2 threads for up to 20 s each
	job s "[global]\nfilename = $TESTDIR/f.dat\nrepeat = 1\n[before]\nsize = 1m\n[shrink]\npattern = random\ncount = 1000000000\nruntime = 20s\nengine = sync, psync2, aio, mmap, uring\niodepth = 4\nthreads = 2\n"
	"$IOSWEEP" run "$TESTDIR/s.ini" -o json:"$TESTDIR/s.json" --quiet >"$TESTDIR/out" 2>"$TESTDIR/err" &
	pid=$!
	wait_for json_runs "$TESTDIR/s.json" 1
	sleep 0.3
	truncate -s 1m "$TESTDIR/f.dat"
	rc=0
	wait $pid || rc=$?
	cat "$TESTDIR/err"
	[ "$rc" -eq 1 ]
	[ "$(wc -l <"$TESTDIR/err")" -eq 5 ]
	for i in 1 2 3 4 5; do
		line=$(grep "^iosweep: run $i (job 'shrink'): " "$TESTDIR/err")
		[[ "$line" =~ ": $TESTDIR/f.dat: unexpected end of file"( \(SIGBUS\))?" at offset "([0-9]+)$ ]]
		[ "${BASH_REMATCH[2]}" -ge 1048576 ]
		[ "$(json_get "$TESTDIR/s.json" "d['runs'][$i]['failed']")" = True ]
		[ "$(json_get "$TESTDIR/s.json" "d['runs'][$i]['error']")" = "${line#*): }" ]
		# nothing was measured: no numbers, not zeros
		[ "$(json_get "$TESTDIR/s.json" "d['runs'][$i]['summary']['time_to_end_s']")" = \
			"{'n': 0, 'mean': None, 'sd': None, 'min': None, 'median': None, 'max': None, 'ci95_low': None, 'ci95_high': None}" ]
	done
	json_runs "$TESTDIR/s.json" 6
	[ "$(json_get "$TESTDIR/s.json" 'd["runs"][0]["repeats"][0]["reads"]')" = 256 ]
	[ "$(json_get "$TESTDIR/s.json" '"failed" in d["runs"][0] and d["runs"][0]["failed"]')" = False ]
}

@test "SIGINT and SIGTERM while creating the test file remove the temporary file and exit 130 and 143" {
	for sig in INT TERM; do
		job c "[a]\nfilename = $TESTDIR/big.dat\nsize = 4g\nrepeat = 1\n"
		"$IOSWEEP" run "$TESTDIR/c.ini" -o json:"$TESTDIR/c.json" >"$TESTDIR/out" 2>&1 &
		pid=$!
		# the temporary file exists and grows: creation is under way
		wait_for creating "$TESTDIR/big.dat" || kill $pid
		kill -$sig $pid
		rc=0
		wait $pid || rc=$?
		[ "$rc" -eq $((128 + $(kill -l $sig))) ]
		[ -z "$(ls "$TESTDIR" | grep big.dat)" ]
		grep -q "interrupted: results of 0 of 1 runs written" "$TESTDIR/out"
		[ "$(json_get "$TESTDIR/c.json" 'd["interrupted"]')" = True ]
		json_runs "$TESTDIR/c.json" 0
	done
}

@test "SIGTERM while measuring leaves valid JSON and CSV marked interrupted, and exits 143" {
	interrupt_second_run TERM
	grep -q "interrupted: results of 2 of 2 runs written" "$TESTDIR/out"
}

@test "SIGINT and SIGTERM mid-read on every engine, in 2 threads of iodepth 4, leave valid interrupted results" {
	for engine in sync psync2 aio uring mmap; do
		for sig in INT TERM; do
			echo "engine=$engine SIG$sig"
			interrupt_second_run $sig --set engine=$engine --set threads=2 --set iodepth=4
		done
	done
}

@test "an output in a directory the user cannot write is refused before any I/O" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to become another user"
	command -v setpriv >/dev/null || skip "setpriv (util-linux) is missing"
	chmod 755 "$TESTDIR"
	mkdir -m 555 "$TESTDIR/ro"
	mkdir -m 777 "$TESTDIR/data"
	job o "[a]\nfilename = $TESTDIR/data/f.dat\nsize = 1m\nrepeat = 1\n"
	run setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$IOSWEEP" run "$TESTDIR/o.ini" -o json:"$TESTDIR/ro/r.json"
	[ "$status" -eq 2 ]
	[[ "$output" == "iosweep: "*"cannot write"*"$TESTDIR/ro/r.json"*"Permission denied"* ]]
	[ -z "$(ls -A "$TESTDIR/data")" ]
	[ -z "$(ls -A "$TESTDIR/ro")" ]
}

# the EIO shim: built by make check, or here when it is missing
eio_shim() {
	if [ -e "$HELPERS/eio_shim.so" ]; then
		echo "$HELPERS/eio_shim.so"
	else
		cc -shared -fPIC -o "$TESTDIR/eio_shim.so" "$BATS_TEST_DIRNAME/../shim/eio_shim.c" -ldl &&
			echo "$TESTDIR/eio_shim.so"
	fi
}

@test "EIO from the device fails the run with the offset and the system's message; other runs go on" {
	shim=$(eio_shim)
	head -c 1m /dev/urandom >"$TESTDIR/bad.dat"
	head -c 1m /dev/urandom >"$TESTDIR/good.dat"
	job e "[global]\nrepeat = 1\n[bad]\nfilename = $TESTDIR/bad.dat\nbs = 4k, 64k\n[good]\nfilename = $TESTDIR/good.dat\n"
	# byte 524300 lies in the 4 KiB block at 524288 and the 64 KiB block at 524288
	run env IOSWEEP_EIO_FILE="$TESTDIR/bad.dat" IOSWEEP_EIO_OFFSET=524300 LD_PRELOAD="$shim" \
		"$IOSWEEP" run "$TESTDIR/e.ini" -o json:"$TESTDIR/e.json" --quiet
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "iosweep: run 0 (job 'bad'): $TESTDIR/bad.dat: read at offset 524288: Input/output error" ]
	[ "${lines[1]}" = "iosweep: run 1 (job 'bad'): $TESTDIR/bad.dat: read at offset 524288: Input/output error" ]
	[ "${#lines[@]}" -eq 2 ]
	[ "$(json_get "$TESTDIR/e.json" 'd["runs"][2]["repeats"][0]["reads"]')" = 256 ]
	# the same job without the fault reads every block
	run "$IOSWEEP" run "$TESTDIR/e.ini" -o json:"$TESTDIR/e.json" --quiet
	[ "$status" -eq 0 ]
}

@test "EIO on engine=psync2, and on aio and uring in the middle of a batch of 8, fails the run with the offset" {
	shim=$(eio_shim)
	head -c 1m /dev/urandom >"$TESTDIR/bad.dat"
	job e "[global]\nrepeat = 1\nfilename = $TESTDIR/bad.dat\nbs = 4k\n[p]\nengine = psync2\n[a]\nengine = aio\niodepth = 8\n[u]\nengine = uring\niodepth = 8\n[r]\nengine = uring\niodepth = 8\nregisterfiles = 1\nfixedbufs = 1\n"
	run env IOSWEEP_EIO_FILE="$TESTDIR/bad.dat" IOSWEEP_EIO_OFFSET=524300 LD_PRELOAD="$shim" \
		"$IOSWEEP" run "$TESTDIR/e.ini" -o json:"$TESTDIR/e.json" --quiet
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "iosweep: run 0 (job 'p'): $TESTDIR/bad.dat: read at offset 524288: Input/output error" ]
	[ "${lines[1]}" = "iosweep: run 1 (job 'a'): $TESTDIR/bad.dat: read at offset 524288: Input/output error" ]
	[ "${lines[2]}" = "iosweep: run 2 (job 'u'): $TESTDIR/bad.dat: read at offset 524288: Input/output error" ]
	[ "${lines[3]}" = "iosweep: run 3 (job 'r'): $TESTDIR/bad.dat: read at offset 524288: Input/output error" ]
	[ "${#lines[@]}" -eq 4 ]
}

@test "EIO while warming the cache names the file and the offset" {
	shim=$(eio_shim)
	head -c 1m /dev/urandom >"$TESTDIR/bad.dat"
	job w "[a]\nfilename = $TESTDIR/bad.dat\ncache = warm\nrepeat = 1\n"
	run env IOSWEEP_EIO_FILE="$TESTDIR/bad.dat" IOSWEEP_EIO_OFFSET=0 LD_PRELOAD="$shim" \
		"$IOSWEEP" run "$TESTDIR/w.ini"
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == "iosweep: run 0 (job 'a'): cannot read $TESTDIR/bad.dat at offset 0: Input/output error" ]]
}

@test "polled I/O on a device that cannot poll names hipri in the failure" {
	head -c 1m /dev/urandom >"$TESTDIR/p.dat"
	job p "[a]\nfilename = $TESTDIR/p.dat\nengine = uring\nhipri = 1\ncache = direct\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/p.ini" -q
	[ "$status" -ne 0 ] || skip "this device polls (it has poll queues): nothing fails"
	echo "$output"
	[ "$status" -ne 2 ] || skip "cache=direct is refused on this file system"
	[[ "${lines[0]}" == "iosweep: run 0 (job 'a'): $TESTDIR/p.dat: hipri=1 (polled) read at offset 0: "* ]]
}
