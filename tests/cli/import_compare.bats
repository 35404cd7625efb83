#!/usr/bin/env bats
# iosweep compare reads a fio JSON result: one run per fio job, one repeat,
# matched to iosweep runs by the parameters of its translation.
# tests/data/fio/result.json is fio 3.33's output for the job in its
# "job options" ([seq] read 64k; [rnd] randread 4k, numjobs=2, loops=2,
# reported clone by clone; [wr] a write job), trimmed of disk_util.

load helpers

RESULT=$BATS_TEST_DIRNAME/../data/fio/result.json

@test 'a fio result compares with itself: one repeat a side, no test' {
	run "$IOSWEEP" compare "$RESULT" "$RESULT"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == *"result.json (fio)" ]]
	# seq x 4 figures, rnd x 3 (the latency of clones reported one by one is
	# left out), wr x 4 (a write job: its write figures)
	[ "$(echo "$output" | grep -c '+0.00% (n=1+1, no test)$')" -eq 11 ]
	[[ "$output" == *"note: a fio result is one run per fio job with one repeat: fio's loops averaged"* ]]
	[[ "$output" != *"use repeat >="* ]]
}

@test 'fio loops are averaged and numjobs clones summed into one repeat' {
	"$IOSWEEP" compare "$RESULT" "$RESULT" -o json >"$TESTDIR/c.json"
	# rnd: two clones of 2 loops over 4 MiB: 8 MiB a loop in all, 2048 reads
	python3 - "$RESULT" "$TESTDIR/c.json" <<'PY'
import json, sys
fio = json.load(open(sys.argv[1]))
clones = [j for j in fio["jobs"] if j["jobname"] == "rnd"]
assert len(clones) == 2
c = json.load(open(sys.argv[2]))
rnd = [r for r in c["runs"] if r["job"] == "rnd"][0]
iops = sum(j["read"]["iops"] for j in clones)
assert abs(rnd["figures"]["iops"]["old"]["median"] - iops) < 1e-6 * iops, rnd
t = max(j["read"]["runtime"] for j in clones) / 1000 / 2
assert abs(rnd["figures"]["time_to_end_s"]["old"]["median"] - t) < 1e-9, rnd
assert rnd["figures"]["iops"]["p"] is None and rnd["figures"]["iops"]["significant"] is False
assert rnd["params"]["pattern"] == "random" and rnd["params"]["threads"] == 2, rnd["params"]
assert rnd["params"]["bs"] == 4096 and rnd["params"]["repeat"] == 2
seq = [r for r in c["runs"] if r["job"] == "seq"][0]
assert seq["params"]["bs"] == 65536 and seq["params"]["consume"] == "none"
PY
}

@test 'a fio result matches the iosweep run of its translation by parameters' {
	command -v fio >/dev/null || skip "fio is not installed"
	cd "$TESTDIR"
	head -c 4m /dev/urandom >f.dat
	printf '[global]\nfilename=%s/f.dat\nstonewall\n[first]\nrw=read\nbs=16k\n[second]\nrw=read\nbs=64k\n' \
		"$TESTDIR" >j.fio
	fio --output-format=json j.fio >fio.json 2>/dev/null
	"$IOSWEEP" import j.fio -o j.ini
	grep -qx 'bs = 16KiB, 64KiB' j.ini   # one iosweep job with a list
	"$IOSWEEP" run j.ini -q -o json:ios.json
	run "$IOSWEEP" compare fio.json ios.json
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" != *"only in"* ]]
	[ "$(echo "$output" | grep -c '(n=1+1, no test)$')" -eq 8 ]
}

@test 'any other JSON is still refused with exit 2' {
	echo '{"jobs": []}' >"$TESTDIR/other.json"
	run "$IOSWEEP" compare "$TESTDIR/other.json" "$RESULT"
	[ "$status" -eq 2 ]
	[[ "$output" == *"not an iosweep result file"* ]]
	echo '{"fio version": "fio-3.33"}' >"$TESTDIR/nojobs.json"
	run "$IOSWEEP" compare "$TESTDIR/nojobs.json" "$RESULT"
	[ "$status" -eq 2 ]
	[[ "$output" == *'a fio result without a "jobs" array'* ]]
	echo '{"fio version": "fio-3.33", "jobs": [{"jobname": 3}]}' >"$TESTDIR/badjob.json"
	run "$IOSWEEP" compare "$TESTDIR/badjob.json" "$RESULT"
	[ "$status" -eq 2 ]
	[[ "$output" == *"fio job 0 has no jobname or read and write figures"* ]]
}
