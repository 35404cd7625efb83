#!/usr/bin/env bats
# A group of jobs under iosweep-mpi: the group runs on every rank, its jobs
# leave one start line on every rank (the ranks' start line, then the
# group's), and each job's figures add up over the ranks to what one host
# reads.

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

@test "a two-job group on 3 ranks: every rank runs both jobs together, and each job reads what one host reads" {
	head -c 3000000 /dev/urandom >"$TESTDIR/a"
	head -c 1000000 /dev/urandom >"$TESTDIR/b"
	job g "[global]\ngroup = pair\nrepeat = 2\ncache = keep\nconsume = checksum\n[a]\nfilename = $TESTDIR/a\nbs = 4k\n[b]\nfilename = $TESTDIR/b\nbs = 16k\n"
	"$IOSWEEP" run "$TESTDIR/g.ini" -o json:"$TESTDIR/one.json" --quiet
	run mpi 3 "$MPI" run "$TESTDIR/g.ini" -o json:"$TESTDIR/three.json" --quiet
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$(json_get "$TESTDIR/three.json" "d['ranks']")" -eq 3 ]
	[ "$(json_get "$TESTDIR/three.json" "d['groups'][0]['runs']")" = "[0, 1]" ]
	for k in 0 1; do
		for f in reads bytes checksum; do
			[ "$(json_get "$TESTDIR/three.json" "[r['$f'] for r in d['runs'][$k]['repeats']]")" = \
				"$(json_get "$TESTDIR/one.json" "[r['$f'] for r in d['runs'][$k]['repeats']]")" ]
		done
		# every rank's time to end is there: each rank ran the job
		[ "$(json_get "$TESTDIR/three.json" "all(len(r['rank_time_to_end_s']) == 3 and min(r['rank_time_to_end_s']) > 0 for r in d['runs'][$k]['repeats'])")" = True ]
		[ "$(json_get "$TESTDIR/three.json" "[r['group_start_skew_s'] >= 0 for r in d['runs'][$k]['repeats']]")" = "[True, True]" ]
	done
}
