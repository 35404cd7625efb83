#!/usr/bin/env bats
# iosweep compare reads a fio JSON result: one run per fio job, one repeat,
# matched to iosweep runs by the parameters of its translation.
# tests/data/fio/result.json is fio 3.33's output for the job in its
# "job options" ([seq] read 64k; [rnd] randread 4k, numjobs=2, loops=2,
# reported clone by clone; [wr] a write job), trimmed of disk_util.
# make check: runs beside another file

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
# random or random-replace: a bare norandommap is left out of fio's JSON
assert "pattern" not in rnd["params"] and rnd["params"]["hint"] == "random", rnd["params"]
assert rnd["params"]["threads"] == 2, rnd["params"]
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

@test 'a fio write job and a mixed one compare with their translations: write and read figures' {
	command -v fio >/dev/null || skip "fio is not installed"
	cd "$TESTDIR"
	# overwrite=1: fio lays the file out by writing it, and so alloc = overwrite
	printf '[global]\nfilename=%s/w.dat\nsize=4m\noverwrite=1\nstonewall\n[w]\nrw=write\nbs=16k\nfsync=16\nend_fsync=1\n[m]\nrw=randrw\nbs=4k\nrwmixread=70\n' \
		"$TESTDIR" >w.fio
	fio --parse-only w.fio
	"$IOSWEEP" import w.fio -o w.ini 2>err
	# the job writes a file the user names: the translation says what to add, and adds nothing
	grep -q "add 'allow_write = $TESTDIR/w.dat' to the job" err
	! grep -q '^allow_write' w.ini
	grep -qx 'op = write' w.ini
	grep -qx 'op = readwrite' w.ini
	grep -qx 'sync = fsync' w.ini
	grep -qx 'sync_every = 16' w.ini
	# iosweep makes the file (so it may write it), then fio overwrites it in place
	"$IOSWEEP" run w.ini -q -o json:ios.json
	fio --output-format=json w.fio >fio.json 2>/dev/null
	"$IOSWEEP" compare fio.json ios.json -o json >c.json
	run "$IOSWEEP" compare fio.json ios.json
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" != *"only in"* ]]
	# fio gives no p99 of a mixed job's reads and writes together: said so, not "no repeats"
	[ "$(echo "$output" | grep -c '^m .* not in the file ')" -eq 1 ]
	[[ "$output" != *"no repeats"* ]]
	python3 - fio.json c.json <<'PY'
import json, sys
fio = {j["jobname"]: j for j in json.load(open(sys.argv[1]))["jobs"]}
c = {r["job"]: r for r in json.load(open(sys.argv[2]))["runs"]}
assert set(c) == {"w", "m"}, c.keys()
w, m = c["w"]["figures"], c["m"]["figures"]
# the write job: its writes alone (fio's write figures), matched to op=write
assert c["w"]["params"]["op"] == "write" and c["w"]["params"]["sync_every"] == 16
assert abs(w["iops"]["old"]["median"] - fio["w"]["write"]["iops"]) < 1e-6 * fio["w"]["write"]["iops"]
assert abs(w["throughput_Bps"]["old"]["median"] - fio["w"]["write"]["bw_bytes"]) < 1
# the mixed job: reads and writes together
assert c["m"]["params"]["op"] == "readwrite" and c["m"]["params"]["rwmixread"] == 70
both = fio["m"]["read"]["iops"] + fio["m"]["write"]["iops"]
assert abs(m["iops"]["old"]["median"] - both) < 1e-6 * both, (m["iops"], both)
assert fio["m"]["read"]["total_ios"] + fio["m"]["write"]["total_ios"] == 1024
# both sides measured something
for r in c.values():
    for f in ("iops", "throughput_Bps", "time_to_end_s"):
        assert r["figures"][f]["old"]["n"] == 1 and r["figures"][f]["new"]["n"] == 1, (r["job"], f)
PY
}

@test 'fio jobs are summed as clones only within numjobs and one group, with job or global options' {
	python3 - "$RESULT" "$TESTDIR" <<'PY'
import copy, json, sys
fio = json.load(open(sys.argv[1]))
seq = [j for j in fio["jobs"] if j["jobname"] == "seq"][0]
rnd = [j for j in fio["jobs"] if j["jobname"] == "rnd"]
# [a] twice with a stonewall between: the same name and options, groups 0 and 1
twice = dict(fio, jobs=[seq, dict(copy.deepcopy(seq), groupid=1)])
json.dump(dict(fio, jobs=[seq]), open(sys.argv[2] + "/once.json", "w"))
json.dump(twice, open(sys.argv[2] + "/twice.json", "w"))
# numjobs=2 with every option in [global]: no "job options" at all
json.dump(dict(fio, jobs=rnd), open(sys.argv[2] + "/rnd.json", "w"))
opts = dict(fio["global options"], **rnd[0]["job options"])
bare = [{k: v for k, v in j.items() if k != "job options"} for j in rnd]
json.dump(dict(fio, jobs=bare, **{"global options": opts}), open(sys.argv[2] + "/rnd-global.json", "w"))
PY
	run "$IOSWEEP" compare "$TESTDIR/once.json" "$TESTDIR/twice.json"
	[ "$status" -eq 0 ]
	# the second [seq] ran after the first, not beside it: not summed into it
	[ "$(echo "$output" | grep -c '^seq .*+0.00% (n=1+1, no test)$')" -eq 4 ]
	[[ "$output" == *"only in NEW: seq"* ]]
	run "$IOSWEEP" compare "$TESTDIR/rnd.json" "$TESTDIR/rnd-global.json"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c '^rnd .*+0.00% (n=1+1, no test)$')" -eq 3 ]
	[[ "$output" != *"only in"* ]]
}

@test 'a fio result without jobs compares with nothing: exit 2, no undefined behaviour' {
	echo '{"fio version": "fio-3.33", "jobs": []}' >"$TESTDIR/none.json"
	run "$IOSWEEP" compare "$TESTDIR/none.json" "$RESULT"
	[ "$status" -eq 2 ]
	[[ "$output" == *"have no run in common"* ]]
	[[ "$output" != *"runtime error"* ]]
}

# fio_result OUT NAME OPTIONS_JSON: the fixture's [seq] job renamed NAME with
# OPTIONS_JSON as its job options and no global ones
fio_result() {
	python3 - "$RESULT" "$@" <<'PY'
import json, sys
src, out, name, opts = sys.argv[1:5]
d = json.load(open(src))
job = d["jobs"][0]
job["jobname"] = name
job["job options"] = json.loads(opts)
d["jobs"] = [job]
d["global options"] = {}
json.dump(d, open(out, "w"))
PY
}

@test 'a fio job whose parameters cannot be known here is named in a note and never matched by its name alone' {
	cd "$TESTDIR"
	fio_result a.json r '{"rw": "randread", "bs": "4k", "size": "4m", "filename": "/nonexistent-dir/a"}'
	fio_result b.json r '{"rw": "write", "bs": "1m", "size": "4m", "filename": "/nonexistent-dir/b"}'
	run "$IOSWEEP" compare a.json b.json
	echo "$output"
	[ "$status" -eq 2 ]
	[[ "$output" == *"no run is in both files"* ]]
	[[ "$output" == *"note: OLD: fio job 'r' is left out: its parameters cannot be known here (cannot create /nonexistent-dir/a: directory /nonexistent-dir: No such file or directory), and a run is never matched by its name alone"* ]]
	[[ "$output" == *"note: NEW: fio job 'r' is left out"* ]]
	# nor with itself
	run "$IOSWEEP" compare a.json a.json -o json
	[ "$status" -eq 2 ]
	[[ "$output" == *'"runs": []'* && "$output" == *"fio job 'r' is left out"* ]]
}

@test 'a fio job name of 20 MiB is read in time linear in it (was past a minute)' {
	cd "$TESTDIR"
	fio_result long.json "$(printf 'n%.0s' $(seq 20))" '{"rw": "read", "size": "4m"}'
	python3 -c "
import json; d = json.load(open('long.json')); d['jobs'][0]['jobname'] = 'n' * (20 << 20)
json.dump(d, open('long.json', 'w'))"
	run timeout 120 "$IOSWEEP" compare long.json "$RESULT"
	[ "$status" -eq 2 ]
	[[ "$output" == *"an iosweep job name holds at most 48 bytes"* ]]
}

@test 'a fio job name with what a job file reads as a comment is compared: handed over as data (was left out)' {
	cd "$TESTDIR"
	# fio takes ' ;' in a job name; in a job file's [section] it starts a
	# comment, and the translation, read back from its text, did not parse
	fio_result semi.json 'a ;b' '{"rw": "read", "bs": "4k", "size": "1m"}'
	run "$IOSWEEP" compare semi.json semi.json
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c '^a ;b .*+0.00% (n=1+1, no test)$')" -eq 4 ]
	[[ "$output" != *"is left out"* ]]
	# iosweep import, which writes text, refuses it, saying why
	run "$IOSWEEP" import -- fio '--name=a ;b' --rw=read --bs=4k --size=1m
	echo "$output"
	[ "$status" -eq 2 ]
	[[ "$output" == "iosweep: import: fio job 'a ;b': ' ;' starts a comment in an iosweep job file, and a [section] name cannot hold it; rename the fio job" ]]
}
