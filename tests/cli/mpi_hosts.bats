#!/usr/bin/env bats
# iosweep-mpi across three simulated hosts: network namespaces joined by a
# bridge (tests/cli/simhosts.sh), each with a host name of its own, the ranks
# started by Open MPI's rsh launcher through an agent that enters them, and
# every byte between ranks over TCP on 10.231.0.0/24 inside them.  All hosts
# share this machine's file system (a shared file system); a node-local
# directory is a tmpfs that each host mounts privately.  Needs root, ip netns,
# unshare and Open MPI; skipped otherwise.

load helpers

MPI=${IOSWEEP_MPI:-$BATS_TEST_DIRNAME/../../build/iosweep-mpi}
SIMHOSTS=$BATS_TEST_DIRNAME/simhosts.sh

# Bats 1.8 (Debian 12) fails a file whose setup_file skips: the reason is
# kept here and every test skips with it instead.
skip_all() {
	export MPI_HOSTS_SKIP=$1
}

setup_file() {
	[ "$(id -u)" = 0 ] || { skip_all "simulated hosts need root (network namespaces)"; return 0; }
	command -v ip >/dev/null || { skip_all "ip (iproute2) is not installed"; return 0; }
	command -v unshare >/dev/null || { skip_all "unshare (util-linux) is not installed"; return 0; }
	command -v mpirun >/dev/null ||
		{ skip_all "mpirun is not installed (apt-get install openmpi-bin)"; return 0; }
	[ -x "$MPI" ] || { skip_all "build/iosweep-mpi is not built (make mpi)"; return 0; }
	# namespaces that an earlier, killed run of this file left behind
	for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -E '^iosw[0-9]+-' || true); do
		pid=${ns#iosw}
		pid=${pid%%-*}
		kill -0 "$pid" 2>/dev/null || "$SIMHOSTS" down "iosw$pid"
	done
	export SIM=iosw$$
	"$SIMHOSTS" up "$SIM" 3 ||
		{ skip_all "cannot make network namespaces here (ip netns add failed)"; unset SIM; }
	# bats runs teardown_file even when a test fails
}

teardown_file() {
	if [ -n "${SIM:-}" ]; then
		"$SIMHOSTS" down "$SIM"
	fi
}

setup() {
	[ -z "${MPI_HOSTS_SKIP:-}" ] || skip "$MPI_HOSTS_SKIP"
	TESTDIR=$(mktemp -d "${IOSWEEP_TEST_DIR:-/var/tmp}/iosweep-bats.XXXXXX")
	export IOSWEEP_DIR=$TESTDIR
	printf '%s slots=1\n' "$SIM-h1" "$SIM-h2" "$SIM-h3" >"$TESTDIR/hostfile"
}

# hosts ARGS...: iosweep-mpi ARGS on one rank per simulated host, mpirun on
# the first host; SIGNAL=SIG AT=write|pread sends rank 1 (or RANK) SIG at its
# first write of a test file (or of a file whose path holds SIGFILE) or read
# of one (tests/shim/signal_shim.c); TRACE=FILE: strace -f of every process
# into FILE
hosts() {
	local shim=() trace=()

	if [ -n "${SIGNAL:-}" ]; then
		shim=(-x LD_PRELOAD="$HELPERS/signal_shim.so" -x IOSWEEP_SIGNAL="$SIGNAL"
			-x IOSWEEP_SIGNAL_AT="$AT" -x IOSWEEP_SIGNAL_RANK="${RANK:-1}"
			-x IOSWEEP_SIGNAL_FILE="${SIGFILE:-$([ "$AT" = write ] && echo .iosweep-tmp. || echo "$TESTDIR/")}")
	fi
	[ -z "${TRACE:-}" ] || trace=(strace -f -qq -o "$TRACE" -e trace=clone,clone3,openat,newfstatat)
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
		"${trace[@]}" timeout 30 "$SIMHOSTS" run "$SIM" "$SIM-h1" \
		mpirun --hostfile "$TESTDIR/hostfile" -np 3 \
		--mca plm_rsh_agent "$SIMHOSTS agent" --mca plm_rsh_no_tree_spawn 1 \
		--mca btl tcp,self --mca btl_tcp_if_include 10.231.0.0/24 \
		--mca oob_tcp_if_include 10.231.0.0/24 "${shim[@]}" "$MPI" "$@"
}

@test "three hosts sharing a file read what one host reads; rank 0 alone creates it; hosts are named" {
	job s "[dense]\nfilename = $TESTDIR/shared\nsize = 6m\nrepeat = 2\n[sparse]\nfilename = $TESTDIR/shared\nsize = 6m\nbs = 4k\nspacing = 36k\nrepeat = 1\n"
	# rank 1 would be interrupted by its first write of a test file: it makes none
	SIGNAL=INT AT=write run hosts run "$TESTDIR/s.ini" -o json:"$TESTDIR/three.json"
	[ "$status" -eq 0 ]
	run "$IOSWEEP" run "$TESTDIR/s.ini" -o json:"$TESTDIR/one.json"
	[ "$status" -eq 0 ]
	for k in 0 1; do
		for f in reads bytes checksum; do
			[ "$(json_get "$TESTDIR/three.json" "d['runs'][$k]['repeats'][0]['$f']")" = \
			  "$(json_get "$TESTDIR/one.json" "d['runs'][$k]['repeats'][0]['$f']")" ]
		done
	done
	[ "$(json_get "$TESTDIR/three.json" 'd["runs"][0]["repeats"][0]["reads"]')" = 1536 ]
	[ "$(json_get "$TESTDIR/three.json" 'sorted(h["hostname"] for h in d["hosts"])')" = \
	  "['$SIM-h1', '$SIM-h2', '$SIM-h3']" ]
	[ "$(json_get "$TESTDIR/three.json" 'd["rank_hosts"]')" = "['$SIM-h1', '$SIM-h2', '$SIM-h3']" ]
}

@test "three hosts share one tree (opendir): together they read its files once, as one host does, in a shuffled order" {
	mkdir -p "$TESTDIR/tree/a" "$TESTDIR/tree/b"
	for k in $(seq 1 90); do head -c $((k * 111)) /dev/urandom >"$TESTDIR/tree/$([ $((k % 2)) = 0 ] && echo a || echo b)/f$k"; done
	job t "[tree]\nopendir = $TESTDIR/tree\nfile_service_type = shuffle\nthreads = 2\nrepeat = 2\ncache = keep\n"
	run hosts run "$TESTDIR/t.ini" -o json:"$TESTDIR/three.json"
	[ "$status" -eq 0 ]
	run "$IOSWEEP" run "$TESTDIR/t.ini" -o json:"$TESTDIR/one.json"
	[ "$status" -eq 0 ]
	for k in 0 1; do
		for f in reads bytes checksum; do
			[ "$(json_get "$TESTDIR/three.json" "d['runs'][0]['repeats'][$k]['$f']")" = \
			  "$(json_get "$TESTDIR/one.json" "d['runs'][0]['repeats'][$k]['$f']")" ]
		done
	done
	[ "$(json_get "$TESTDIR/three.json" 'd["runs"][0]["repeats"][0]["reads"]')" = 90 ]
	[ "$(json_get "$TESTDIR/three.json" 'len(d["runs"][0]["repeats"][0]["thread_time_to_end_s"])')" = 6 ]
}

@test "{host} makes one file per simulated host, and a node-local path one per host too" {
	job h "[named]\nfilename = $TESTDIR/f-{host}.dat\nsize = 2m\nrepeat = 1\n[local]\nfilename = $TESTDIR/local/f.dat\nsize = 3m\nrepeat = 1\n"
	SIMHOSTS_LOCAL=$TESTDIR/local run hosts run "$TESTDIR/h.ini" -o json:"$TESTDIR/h.json"
	[ "$status" -eq 0 ]
	for k in 1 2 3; do [ "$(stat -c %s "$TESTDIR/f-$SIM-h$k.dat")" = 2097152 ]; done
	[ "$(ls "$TESTDIR" | grep -c '^f-')" = 3 ]
	[ "$(json_get "$TESTDIR/h.json" 'd["runs"][0]["repeats"][0]["bytes"]')" = 6291456 ]
	# each host's tmpfs had its own copy, made by the host's rank; none is here
	[ ! -e "$TESTDIR/local/f.dat" ]
	[ "$(json_get "$TESTDIR/h.json" 'd["runs"][1]["repeats"][0]["bytes"]')" = 3145728 ]
	# the three copies hold the same bytes: the shares add up to one host's checksum
	job one "[local]\nfilename = $TESTDIR/one.dat\nsize = 3m\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/one.ini" -o json:"$TESTDIR/one.json"
	[ "$(json_get "$TESTDIR/h.json" 'd["runs"][1]["repeats"][0]["checksum"]')" = \
	  "$(json_get "$TESTDIR/one.json" 'd["runs"][0]["repeats"][0]["checksum"]')" ]
}

@test "a rank killed on one host mid-run ends every host within seconds, with a clear error and partial JSON" {
	head -c 8000000 /dev/urandom >"$TESTDIR/shared"
	job k "[a]\nfilename = $TESTDIR/shared\nrepeat = 1\n[b]\nfilename = $TESTDIR/shared\nbs = 64k\nrepeat = 1\n"
	SIGNAL=KILL AT=pread run hosts run "$TESTDIR/k.ini" -o json:"$TESTDIR/k.json"
	[ "$status" -ne 0 ] && [ "$status" -ne 124 ] # 124: timeout, a hang
	echo "$output" | grep -q "rank 1 .* on node $SIM-h2 exited on signal 9"
	# rank 0 saves the JSON as soon as it is stopped (its last words, which
	# also print the table, may come after mpirun's SIGKILL on a loaded host)
	[ "$(json_get "$TESTDIR/k.json" 'd["interrupted"]')" = True ]
	[ "$(json_get "$TESTDIR/k.json" 'len(d["runs"])')" = 0 ]
}

@test "a rank interrupted on another host while it creates its file stops every host with 130" {
	job c "[a]\nfilename = $TESTDIR/c{rank}.dat\nsize = 20m\nrepeat = 2\n"
	RANK=2 SIGNAL=INT AT=write run hosts run "$TESTDIR/c.ini" -o json:"$TESTDIR/c.json"
	[ "$status" -eq 130 ]
	[ "$(json_get "$TESTDIR/c.json" 'd["interrupted"]')" = True ]
	[ ! -e "$TESTDIR/c2.dat" ]
}

@test "a rank interrupted on another host in the timed loop stops every host; what was read is written" {
	head -c 8000000 /dev/urandom >"$TESTDIR/shared"
	job i "[a]\nfilename = $TESTDIR/shared\nrepeat = 2\n"
	RANK=2 SIGNAL=TERM AT=pread run hosts run "$TESTDIR/i.ini" -o json:"$TESTDIR/i.json"
	# 143 from the rank that got SIGTERM, 130 from the ranks it stopped
	[ "$status" -eq 143 ] || [ "$status" -eq 130 ]
	[ "$(json_get "$TESTDIR/i.json" 'd["runs"][0]["repeats"][0]["interrupted"]')" = True ]
}

@test "three hosts share one tree iosweep makes: each phase's items are done once, by the ranks together, and the tree is removed" {
	job m "[m]\ntree = 6x40\nfilesize = 4k\nop = mkdir, create, stat, read, readdir, rename, unlink, rmdir\nthreads = 2\nrepeat = 2\n"
	run hosts run "$TESTDIR/m.ini" -o json:"$TESTDIR/three.json"
	[ "$status" -eq 0 ]
	[ ! -e "$TESTDIR/m.iosweep-tree" ]
	run "$IOSWEEP" run "$TESTDIR/m.ini" -o json:"$TESTDIR/one.json"
	[ "$status" -eq 0 ]
	# every phase: as many items as on one host, each counted once, the read
	# phase's bytes and checksum the same
	for f in 'x["reads"] + x["writes"]' 'x["bytes"]' 'x.get("checksum")'; do
		[ "$(json_get "$TESTDIR/three.json" "[$f for r in d['runs'] for x in r['repeats']]")" = \
		  "$(json_get "$TESTDIR/one.json" "[$f for r in d['runs'] for x in r['repeats']]")" ]
	done
	[ "$(json_get "$TESTDIR/three.json" '[r["phase"]["items"] for r in d["runs"]]')" = "[6, 240, 240, 240, 6, 240, 240, 6]" ]
	# 3 ranks of 2 threads, each with its share
	[ "$(json_get "$TESTDIR/three.json" '{len(x["thread_time_to_end_s"]) for r in d["runs"][1:4] for x in r["repeats"]}')" = "{6}" ]
}

# which process (not thread) made each file of a tree, and which stat'ed it:
# strace -f's lines, threads mapped to their process by the clones that made them
made_and_statted() {
	python3 - "$1" <<'PY'
import re, sys
proc, made, statted = {}, {}, {}
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"(\d+) +(\w+)\((.*)", line)
    if not m:
        continue
    tid, call, rest = int(m[1]), m[2], m[3]
    p = proc.get(tid, tid)
    if call.startswith("clone") and "CLONE_THREAD" in rest:
        r = re.search(r"= (\d+)$", rest.strip())
        if r:
            proc[int(r[1])] = p
    f = re.search(r'"(d\d+/f\d+)"', rest)
    if f and call == "openat" and "O_CREAT" in rest:
        made[f[1]] = p
    elif f and call == "newfstatat":
        statted[f[1]] = p
same = sum(made[k] == statted.get(k) for k in made)
print(len(made), len(statted), same)
PY
}

@test "shift: each rank stats the files another rank made (mdtree -N); 0, its own (strace)" {
	command -v strace >/dev/null || skip "strace is not installed"
	job s0 "[m]\ntree = 6x10\nop = create, stat\nrepeat = 1\n"
	TRACE=$TESTDIR/s0.trace run hosts run "$TESTDIR/s0.ini" -o json:"$TESTDIR/s0.json"
	[ "$status" -eq 0 ]
	[ "$(made_and_statted "$TESTDIR/s0.trace")" = "60 60 60" ]
	[ "$(json_get "$TESTDIR/s0.json" '[r["phase"]["shift"] for r in d["runs"]]')" = "[0, 0]" ]
	job s1 "[m]\ntree = 6x10\nop = create, stat\nrepeat = 1\nshift = 1\n"
	TRACE=$TESTDIR/s1.trace run hosts run "$TESTDIR/s1.ini" -o json:"$TESTDIR/s1.json"
	[ "$status" -eq 0 ]
	[ "$(made_and_statted "$TESTDIR/s1.trace")" = "60 60 0" ]
	# create makes names: never shifted; a shift of 4 over 3 ranks is 1
	[ "$(json_get "$TESTDIR/s1.json" '[r["phase"]["shift"] for r in d["runs"]]')" = "[0, 1]" ]
	[[ "$output" == *"shift=1"* ]]
}

@test "a tree under MPI in a directory each host has its own of is refused, and left as it was" {
	job l "[m]\ndirectory = $TESTDIR/local\ntree = 3x5\nop = create\nrepeat = 1\n"
	mkdir -p "$TESTDIR/local"
	SIMHOSTS_LOCAL=$TESTDIR/local run hosts run "$TESTDIR/l.ini"
	[ "$status" -eq 1 ]
	[[ "$output" == *"a tree under MPI is made by rank 0 in a directory every rank shares"* ]]
	[ -z "$(ls -A "$TESTDIR/local")" ]
	job y "[m]\ntree = 3x5\nop = create, syncfs\nrepeat = 1\n"
	run hosts run "$TESTDIR/y.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *"y.ini:3: op = syncfs under MPI"* ]]
}

@test "a rank interrupted on another host while it creates its share of a tree stops every host with 130; rank 0 removes the tree" {
	job c "[m]\ntree = 6x200\nfilesize = 4k\nop = create, stat\nrepeat = 2\n"
	RANK=2 SIGNAL=INT AT=write SIGFILE=m.iosweep-tree/ run hosts run "$TESTDIR/c.ini" -o json:"$TESTDIR/c.json"
	[ "$status" -eq 130 ]
	[ "$(json_get "$TESTDIR/c.json" 'd["interrupted"]')" = True ]
	[ ! -e "$TESTDIR/m.iosweep-tree" ]
	# and a run after it finds nothing left to sweep
	run hosts run "$TESTDIR/c.ini"
	[ "$status" -eq 0 ]
	[[ "$output" != *"removed what a run cut short"* ]]
}
