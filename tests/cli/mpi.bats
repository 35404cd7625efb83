#!/usr/bin/env bats
# iosweep-mpi under mpirun on this host: ranks share a file or read one each,
# their results add up to the single-host run, and a failing rank ends all.

load helpers

MPI=${IOSWEEP_MPI:-$BATS_TEST_DIRNAME/../../build/iosweep-mpi}

mpi() {
	timeout 60 mpirun --allow-run-as-root --oversubscribe -np "$@"
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
