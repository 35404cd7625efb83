#!/usr/bin/env bats
# iosweep-mpi under mpirun on this host: ranks share a file or read one each,
# their results add up to the single-host run, a failing rank fails the run
# on all, and a signal in any phase on any rank ends every rank (never a
# hang: each mpirun is under timeout, whose 124 would fail the test).

load helpers

MPI=${IOSWEEP_MPI:-$BATS_TEST_DIRNAME/../../build/iosweep-mpi}

mpi() {
	timeout 60 mpirun --allow-run-as-root --oversubscribe -np "$@"
}

# signalled N SIGNAL AT ARGS...: N ranks, rank 1 (or SIGNAL_RANK) sends
# itself SIGNAL at its first write (AT=write: creating a file) or read
# (AT=pread) of a test file
signalled() {
	local n=$1 sig=$2 at=$3 file=$TESTDIR/

	[ "$at" = write ] && file=.iosweep-tmp.

	shift 3
	timeout 60 mpirun --allow-run-as-root --oversubscribe -np "$n" \
		-x LD_PRELOAD="$HELPERS/signal_shim.so" -x IOSWEEP_SIGNAL="$sig" \
		-x IOSWEEP_SIGNAL_AT="$at" -x IOSWEEP_SIGNAL_RANK="${SIGNAL_RANK:-1}" \
		-x IOSWEEP_SIGNAL_FILE="$file" "$MPI" "$@"
}

# rank_env N RANK ENV... -- ARGS...: N ranks of iosweep-mpi ARGS, the rank numbered RANK
# with ENV in its environment (a shim for it alone); each rank's exit status goes to
# $TESTDIR/rc.K, and mpirun sees 0 from every rank, so it ends none of them early
rank_env() {
	local n=$1 rank=$2 envs=()

	shift 2
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	timeout 60 mpirun --allow-run-as-root --oversubscribe -np "$n" sh -c '
		k=$OMPI_COMM_WORLD_RANK rank=$1 dir=$2 mpi=$3 nenv=$4
		shift 4
		e=""
		while [ "$nenv" -gt 0 ]; do e="$e $1"; shift; nenv=$((nenv - 1)); done
		if [ "$k" = "$rank" ]; then env $e "$mpi" "$@"; else "$mpi" "$@"; fi
		echo $? >"$dir/rc.$k"' sh "$rank" "$TESTDIR" "$MPI" "${#envs[@]}" "${envs[@]}" "$@"
}

setup() {
	command -v mpirun >/dev/null || skip "mpirun is not installed (apt-get install openmpi-bin)"
	[ -x "$MPI" ] || skip "build/iosweep-mpi is not built (make mpi)"
	TESTDIR=$(mktemp -d "${IOSWEEP_TEST_DIR:-/var/tmp}/iosweep-bats.XXXXXX")
	export IOSWEEP_DIR=$TESTDIR
	export OMPI_MCA_plm_rsh_agent=false # no remote shell: this host only
}

@test "three ranks on one shared file read what a single host reads, with the same checksum" {
	head -c 5000000 /dev/urandom >"$TESTDIR/shared"
	job s "[dense]\nfilename = $TESTDIR/shared\nbs = 4k\nrepeat = 2\n[sparse]\nfilename = $TESTDIR/shared\nbs = 4k\nspacing = 36k\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/s.ini" -o json:"$TESTDIR/one.json"
	[ "$status" -eq 0 ]
	run mpi 3 "$MPI" run "$TESTDIR/s.ini" -o json:"$TESTDIR/three.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/three.json" 'd["ranks"]')" = 3 ]
	for k in 0 1; do
		for f in reads bytes checksum; do
			[ "$(json_get "$TESTDIR/three.json" "d['runs'][$k]['repeats'][0]['$f']")" = \
			  "$(json_get "$TESTDIR/one.json" "d['runs'][$k]['repeats'][0]['$f']")" ]
		done
		[ "$(json_get "$TESTDIR/three.json" "len(d['runs'][$k]['repeats'][0]['rank_time_to_end_s'])")" = 3 ]
	done
	[ "$(json_get "$TESTDIR/three.json" 'd["runs"][0]["repeats"][0]["reads"]')" = 1221 ]
}

@test "{rank} in the file name gives every rank a file of its own" {
	job r "[a]\nfilename = $TESTDIR/r{rank}.dat\nsize = 1m\nrepeat = 1\n"
	run mpi 3 "$MPI" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json"
	[ "$status" -eq 0 ]
	for k in 0 1 2; do [ "$(stat -c %s "$TESTDIR/r$k.dat")" = 1048576 ]; done
	[ "$(json_get "$TESTDIR/r.json" 'd["ranks"]')" = 3 ]
	[ "$(json_get "$TESTDIR/r.json" 'd["runs"][0]["repeats"][0]["reads"]')" = 768 ]
	[ "$(json_get "$TESTDIR/r.json" 'd["runs"][0]["repeats"][0]["bytes"]')" = 3145728 ]
	[ "$(json_get "$TESTDIR/r.json" 'len(d["hosts"])')" = 1 ]
}

@test "a rank whose file is missing ends every rank quickly, reported once with its rank" {
	head -c 1000000 /dev/urandom >"$TESTDIR/f0"
	head -c 1000000 /dev/urandom >"$TESTDIR/f1"
	job m "[a]\nfilename = $TESTDIR/f{rank}\nrepeat = 1\n"
	start=$(date +%s)
	run mpi 3 "$MPI" run "$TESTDIR/m.ini"
	[ "$status" -ne 0 ]
	[ $(($(date +%s) - start)) -le 10 ]
	[ "$(echo "$output" | grep -c "rank 2 on .*f2 does not exist")" = 1 ]
}

@test "only rank 0 prints a job-file error, once" {
	job b "[a]\nsize = 1m\nbs = 4x\n"
	run mpi 2 "$MPI" run "$TESTDIR/b.ini"
	[ "$status" -eq 2 ]
	[ "$(echo "$output" | grep -c "b.ini:3: bs: '4x'")" = 1 ]
}

@test "a rank interrupted while it creates its file stops every rank with 130 (it used to hang)" {
	job c "[a]\nfilename = $TESTDIR/c{rank}.dat\nsize = 20m\nrepeat = 2\n"
	run signalled 3 INT write run "$TESTDIR/c.ini" -o json:"$TESTDIR/c.json"
	[ "$status" -eq 130 ]
	# rank 0's closing line; mpirun may drop it when another rank exits first
	[ "$(echo "$output" | grep -c "interrupted: results of 0 of 1 runs written")" -le 1 ]
	[ "$(json_get "$TESTDIR/c.json" 'd["interrupted"]')" = True ]
	[ "$(json_get "$TESTDIR/c.json" 'len(d["runs"])')" = 0 ]
	[ ! -e "$TESTDIR/c1.dat" ]
	[ -z "$(ls "$TESTDIR" | grep iosweep-tmp)" ]
}

@test "rank 0 interrupted while it creates the shared file stops the ranks waiting for it" {
	job c "[a]\nfilename = $TESTDIR/shared.dat\nsize = 20m\nrepeat = 2\n"
	SIGNAL_RANK=0 run signalled 3 TERM write run "$TESTDIR/c.ini" -o json:"$TESTDIR/c.json"
	# 143 from the rank that got SIGTERM, 130 from the ranks it stopped
	[ "$status" -eq 143 ] || [ "$status" -eq 130 ]
	[ "$(json_get "$TESTDIR/c.json" 'd["interrupted"]')" = True ]
	[ ! -e "$TESTDIR/shared.dat" ]
}

@test "a shared file is created by rank 0 alone: the others never write it" {
	job c "[a]\nfilename = $TESTDIR/shared.dat\nsize = 5m\nfill = text\nrepeat = 1\n"
	# rank 1 would be interrupted by its first write of a file
	run signalled 3 INT write run "$TESTDIR/c.ini" -o json:"$TESTDIR/c.json"
	[ "$status" -eq 0 ]
	[ "$(stat -c %s "$TESTDIR/shared.dat")" = 5242880 ]
	[ "$(json_get "$TESTDIR/c.json" 'd["runs"][0]["repeats"][0]["bytes"]')" = 5242880 ]
}

@test "a rank interrupted in the timed loop ends the run on every rank, results written" {
	head -c 8000000 /dev/urandom >"$TESTDIR/shared"
	job i "[a]\nfilename = $TESTDIR/shared\nrepeat = 3\n[b]\nfilename = $TESTDIR/shared\nrepeat = 1\n"
	run signalled 3 INT pread run "$TESTDIR/i.ini" -o json:"$TESTDIR/i.json"
	[ "$status" -eq 130 ]
	[ "$(json_get "$TESTDIR/i.json" 'd["interrupted"]')" = True ]
	[ "$(json_get "$TESTDIR/i.json" 'len(d["runs"])')" = 1 ]
	[ "$(json_get "$TESTDIR/i.json" 'd["runs"][0]["repeats"][0]["interrupted"]')" = True ]
	[ "$(json_get "$TESTDIR/i.json" 'd["runs"][0]["repeats"][0]["reads"] < 1954')" = True ]
}

@test "a rank killed in the timed loop ends every rank with a message and partial results" {
	head -c 8000000 /dev/urandom >"$TESTDIR/shared"
	job k "[a]\nfilename = $TESTDIR/shared\nrepeat = 1\n[b]\nfilename = $TESTDIR/shared\nrepeat = 1\n"
	run signalled 3 KILL pread run "$TESTDIR/k.ini" -o json:"$TESTDIR/k.json"
	[ "$status" -ne 0 ] && [ "$status" -ne 124 ]
	echo "$output" | grep -q "rank 1 .* exited on signal 9"
	# rank 0 saves the JSON as soon as it is stopped; its last words (the
	# table, this line) can come after mpirun's SIGKILL on a loaded host
	[ "$(json_get "$TESTDIR/k.json" 'd["interrupted"]')" = True ]
	[ "$(json_get "$TESTDIR/k.json" 'len(d["runs"])')" = 0 ]
}

@test "a read error on one rank fails the run on every rank, said once by rank 0, and the next run goes on" {
	for k in 0 1 2; do head -c 1000000 /dev/urandom >"$TESTDIR/f$k"; done
	job e "[a]\nfilename = $TESTDIR/f{rank}\nrepeat = 1\n[b]\nfilename = $TESTDIR/f{rank}\nbs = 8k\nrepeat = 1\n"
	run timeout 60 mpirun --allow-run-as-root --oversubscribe -np 3 \
		-x LD_PRELOAD="$HELPERS/eio_shim.so" -x IOSWEEP_EIO_FILE="$TESTDIR/f1" \
		-x IOSWEEP_EIO_OFFSET=500000 "$MPI" run "$TESTDIR/e.ini" -o json:"$TESTDIR/e.json"
	[ "$status" -eq 1 ]
	[ "$(echo "$output" | grep -c "run 0 (job 'a'): rank 1 on .*f1: read at offset 499712: Input/output error")" = 1 ]
	[ "$(echo "$output" | grep -c "^iosweep: run .*Input/output error")" = 2 ] # runs a and b
	[ "$(json_get "$TESTDIR/e.json" 'd["runs"][0]["failed"]')" = True ]
	[ "$(json_get "$TESTDIR/e.json" 'len(d["runs"])')" = 2 ]
}

@test "consume=ints over ranks sharing a text file matches an independent sum for 1 to 4 ranks" {
	job t "[a]\nfilename = $TESTDIR/ints.txt\nsize = 1000003\nfill = text\nconsume = ints\nbs = 4k, 1000, 7\nrepeat = 1\n"
	"$IOSWEEP" run "$TESTDIR/t.ini" -q >/dev/null
	want=$(awk '{s += $1} END {printf "%d", s}' "$TESTDIR/ints.txt")
	for n in 1 2 3 4; do
		run mpi "$n" "$MPI" run "$TESTDIR/t.ini" -o json:"$TESTDIR/t$n.json"
		[ "$status" -eq 0 ]
		for k in 0 1 2; do
			[ "$(json_get "$TESTDIR/t$n.json" "d['runs'][$k]['repeats'][0]['int_sum']")" = "$want" ]
		done
	done
}

@test "per-thread times cover every rank, and the table names the rank and host done last" {
	head -c 4000000 /dev/urandom >"$TESTDIR/shared"
	job p "[a]\nfilename = $TESTDIR/shared\nthreads = 2\nrepeat = 1\n"
	run mpi 3 "$MPI" run "$TESTDIR/p.ini" -o table -o json:"$TESTDIR/p.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/p.json" 'len(d["runs"][0]["repeats"][0]["thread_time_to_end_s"])')" = 6 ]
	[ "$(json_get "$TESTDIR/p.json" 'all(t > 0 for t in d["runs"][0]["repeats"][0]["thread_time_to_end_s"])')" = True ]
	[ "$(json_get "$TESTDIR/p.json" 'd["rank_hosts"] == [d["host"]["hostname"]] * 3')" = True ]
	last=$(json_get "$TESTDIR/p.json" 'max(range(3), key=lambda k: d["runs"][0]["repeats"][0]["rank_time_to_end_s"][k])')
	echo "$output" | grep -q "last done .* (rank $last on $(hostname))"
}

@test "Ctrl-C to mpirun ends every rank; rank 0 writes the interrupted results" {
	head -c 4000000 /dev/urandom >"$TESTDIR/shared"
	job c "[first]\nfilename = $TESTDIR/shared\nrepeat = 1\n[long]\nfilename = $TESTDIR/shared\nbs = 512\nrepeat = 100000\n"
	# not under timeout, which would signal mpirun twice (itself and its
	# process group): a second Ctrl-C makes mpirun end its ranks at once
	mpirun --allow-run-as-root --oversubscribe -np 3 "$MPI" run "$TESTDIR/c.ini" \
		-o json:"$TESTDIR/c.json" >"$TESTDIR/out" 2>&1 &
	pid=$!
	# the first run's results are written when it ends
	wait_for json_runs "$TESTDIR/c.json" 1
	# and the second run into its repeats (a Ctrl-C during its setup would
	# rightly leave it out): 2 s of its 100 000 repeats of a few ms
	sleep 2
	kill -INT $pid
	for _ in $(seq 600); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
	if kill -0 $pid 2>/dev/null; then
		kill -KILL $pid
		echo "mpirun still runs 60 s after its Ctrl-C"
		false
	fi
	rc=0
	wait $pid || rc=$?
	cat "$TESTDIR/out"
	[ "$rc" -ne 0 ]
	[ -z "$(pgrep -f "^$MPI run $TESTDIR/c.ini")" ]
	[ "$(json_get "$TESTDIR/c.json" 'd["interrupted"]')" = True ]
	[ "$(json_get "$TESTDIR/c.json" 'len(d["runs"])')" = 2 ]
	[ "$(json_get "$TESTDIR/c.json" 'len(d["runs"][1]["repeats"]) < 100000')" = True ]
}

# rank_pid JOB RANK: the pid of that rank of the iosweep-mpi running JOB
rank_pid() {
	local pid

	for pid in $(pgrep -f "^$MPI run $1"); do
		if tr '\0' '\n' </proc/"$pid"/environ | grep -qx "OMPI_COMM_WORLD_RANK=$2"; then
			echo "$pid"
			return 0
		fi
	done
	return 1
}

@test "a signal to a rank waiting for rank 0 to create the shared file stops rank 0's creation" {
	job w "[a]\nfilename = $TESTDIR/big.dat\nsize = 2g\nrepeat = 1\n"
	mpirun --allow-run-as-root --oversubscribe -np 3 "$MPI" run "$TESTDIR/w.ini" \
		-o json:"$TESTDIR/w.json" >"$TESTDIR/out" 2>&1 &
	pid=$!
	wait_for creating "$TESTDIR/big.dat"
	kill -INT "$(rank_pid "$TESTDIR/w.ini" 2)"
	for _ in $(seq 600); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
	if kill -0 $pid 2>/dev/null; then
		kill -KILL $pid
		echo "mpirun still runs 60 s after the signal"
		false
	fi
	rc=0
	wait $pid || rc=$?
	cat "$TESTDIR/out"
	[ "$rc" -eq 130 ]
	# rank 0 stopped writing when rank 2's note came, and the ranks ended in
	# order, not by rank 2 giving up on rank 0 after its grace
	[ ! -e "$TESTDIR/big.dat" ]
	[ "$(grep -c "did not reach the next step" "$TESTDIR/out")" = 0 ]
	[ -z "$(ls "$TESTDIR" | grep iosweep-tmp)" ]
	[ "$(json_get "$TESTDIR/w.json" 'd["interrupted"]')" = True ]
}

@test "files of each rank's own are read to one size: ranks whose files differ are refused unless the job sets it" {
	head -c 1m /dev/urandom >"$TESTDIR/r0.dat"
	head -c 2m /dev/urandom >"$TESTDIR/r1.dat"
	job r "[a]\nfilename = $TESTDIR/r{rank}.dat\nbs = 4k\nrepeat = 1\n"
	run mpi 2 "$MPI" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json"
	[ "$status" -eq 1 ]
	[[ "$output" == *"rank 1 on "*"r1.dat: the run reads 2097152 bytes of it here but 1048576 bytes on rank 0: the ranks would run different plans"* ]]
	job s "[a]\nfilename = $TESTDIR/r{rank}.dat\nsize = 1m\nbs = 4k\nrepeat = 1\n"
	run mpi 2 "$MPI" run "$TESTDIR/s.ini" -o json:"$TESTDIR/s.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/s.json" 'd["runs"][0]["repeats"][0]["bytes"]')" = 2097152 ]
}

@test "cached over files of each rank's own is their mean: one all cached, one evicted, 50%" {
	[ "$(stat -f -c %T "$TESTDIR")" != tmpfs ] || skip "$TESTDIR is tmpfs (set IOSWEEP_TEST_DIR)"
	head -c 2m /dev/urandom >"$TESTDIR/k0.dat"
	head -c 2m /dev/urandom >"$TESTDIR/k1.dat"
	python3 -c 'import os, sys
for p in sys.argv[1:]:
    fd = os.open(p, os.O_RDONLY); os.fsync(fd); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED); os.close(fd)' \
		"$TESTDIR/k0.dat" "$TESTDIR/k1.dat"
	cat "$TESTDIR/k0.dat" >/dev/null
	job k "[a]\nfilename = $TESTDIR/k{rank}.dat\ncache = keep\nrepeat = 1\n"
	run mpi 2 "$MPI" run "$TESTDIR/k.ini" -o json:"$TESTDIR/k.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/k.json" '0.45 <= d["runs"][0]["repeats"][0]["resident_before"] <= 0.55')" = True ]
}

@test "a bad block in another rank's share fails the run on every rank: rank 0 reports it with the rank and the offset" {
	[ -e "$HELPERS/sync_shim.so" ] || skip "the sync shim is not built (make check builds it)"
	job v "[v]\nfilename = $TESTDIR/v.dat\nsize = 1m\nrepeat = 1\nop = write\nverify = after\nbs = 16k\ncache = keep\n"
	"$IOSWEEP" run "$TESTDIR/v.ini" -q >/dev/null
	# rank 1's first fdatasync (its verify's) flips a byte of its half, after every write
	run rank_env 2 1 LD_PRELOAD="$HELPERS/sync_shim.so" IOSWEEP_SYNC_FILE="$TESTDIR/v.dat" \
		IOSWEEP_SYNC_FLIP=800005 -- run "$TESTDIR/v.ini" -o table -o json:"$TESTDIR/v.json"
	[ "$(cat "$TESTDIR/rc.0") $(cat "$TESTDIR/rc.1")" = "1 1" ]
	[ "$(echo "$output" | grep -c "^iosweep: run 0 (job 'v'): rank 1 on .*v.dat: verify found a bad block: offset 800005: corrupt")" = 1 ]
	[ "$(json_get "$TESTDIR/v.json" 'd["runs"][0]["failed"]')" = True ]
	[ "$(json_get "$TESTDIR/v.json" '"rank 1" in d["runs"][0]["error"] and "offset 800005" in d["runs"][0]["error"]')" = True ]
	# a read error in rank 1's verify, the same way
	[ -e "$HELPERS/eio_shim.so" ] || skip "the EIO shim is not built (make check builds it)"
	run rank_env 2 1 LD_PRELOAD="$HELPERS/eio_shim.so" IOSWEEP_EIO_FILE="$TESTDIR/v.dat" \
		IOSWEEP_EIO_OFFSET=900000 -- run "$TESTDIR/v.ini" -o json:"$TESTDIR/e.json"
	[ "$(cat "$TESTDIR/rc.0") $(cat "$TESTDIR/rc.1")" = "1 1" ]
	[ "$(echo "$output" | grep -c "^iosweep: run 0 (job 'v'): rank 1 on .*v.dat: verify: read at offset 884736: Input/output error")" = 1 ]
	[ "$(json_get "$TESTDIR/e.json" 'd["runs"][0]["failed"]')" = True ]
}

@test "a clean verify over two ranks counts the whole file in verified_bytes, with no note" {
	job v "[v]\nfilename = $TESTDIR/v.dat\nsize = 1m\nrepeat = 2\nop = write\nverify = after\nbs = 16k\n"
	run mpi 2 "$MPI" run "$TESTDIR/v.ini" -o table -o json:"$TESTDIR/v.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/v.json" '[r["verified_bytes"] for r in d["runs"][0]["repeats"]]')" = "[1048576, 1048576]" ]
	[[ "$output" != *"verify of repeat"* ]]
}

@test "ss and stop_at_cliff on several ranks are refused with the file and line: one worker's series judges them" {
	head -c 64k /dev/urandom >"$TESTDIR/f"
	job s "[s]\nfilename = $TESTDIR/f\nbs = 4k\nrepeat = 1\ntime_based = 1\nruntime = 10s\ninterval = 1s\nss = iops:10%\nss_dur = 3s\n"
	run mpi 2 "$MPI" run "$TESTDIR/s.ini"
	echo "$output"
	[ "$status" -eq 2 ]
	[ "$(echo "$output" | grep -c "s.ini:8: ss judges one worker's series as it runs, and 2 ranks keep none")" = 1 ]
	job s "[s]\nfilename = $TESTDIR/f\nbs = 4k\nrepeat = 1\ntime_based = 1\nruntime = 10s\ninterval = 1s\nstop_at_cliff = 1\n"
	run mpi 2 "$MPI" run "$TESTDIR/s.ini"
	echo "$output"
	[ "$status" -eq 2 ]
	[ "$(echo "$output" | grep -c "s.ini:8: stop_at_cliff judges one worker's series as it runs, and 2 ranks keep none")" = 1 ]
}

@test "a signal to a rank other than 0 during a startdelay ends every rank's wait at once, results written" {
	head -c 64k /dev/urandom >"$TESTDIR/a"
	job w "[global]\nrepeat = 1\ncache = keep\nbs = 4k\nfilename = $TESTDIR/a\n[first]\n[w]\nstartdelay = 60s\n"
	mpi 2 "$MPI" run "$TESTDIR/w.ini" -o json:"$TESTDIR/w.json" >"$TESTDIR/out" 2>&1 &
	pid=$!
	wait_for json_runs "$TESTDIR/w.json" 1
	sleep 0.3
	SECONDS=0
	kill -TERM "$(rank_pid "$TESTDIR/w.ini" 1)"
	rc=0
	wait $pid || rc=$?
	cat "$TESTDIR/out"
	[ "$SECONDS" -lt 10 ]
	# 143 from the rank that got SIGTERM (mpirun passes on the first non-zero exit)
	[ "$rc" -eq 143 ] || [ "$rc" -eq 130 ]
	[ "$(json_get "$TESTDIR/w.json" 'd["interrupted"], [(r["repeats"][0]["interrupted"], r["repeats"][0]["reads"]) for r in d["runs"]]')" = \
	  "(True, [(False, 16), (True, 0)])" ]
	# the ranks' times to end of the run done, none of the run that never began
	grep -q "^run 0: 2 ranks, time to end of each" "$TESTDIR/out"
	! grep -q "^run 1: 2 ranks" "$TESTDIR/out"
}
