#!/usr/bin/env bats
# iosweep compare against fio, first time: runs are matched on what both
# files say they measured, fio's JSON is read as fio writes it, and a run
# that matches nothing names its nearest counterpart.
# tests/data/fio/results/NAME.json is fio 3.33's output for NAME.fio (beside
# it), trimmed of disk_util: time_based (a bare time_based over a file that
# was there before fio ran and was removed after), include (an included file
# sets iodepth, the job again: fio writes the key twice; include-plus.json
# is the same job with --output-format=json+) and etcd (etcd's fdatasync
# check, 256 KiB), norandommap (a bare norandommap and fixedbufs).
# make check: runs beside another file

load helpers

FIXTURES=$BATS_TEST_DIRNAME/../data/fio/results

# iosweep_run NAME FIO-JOB-TEXT: imports the fio job and runs its translation
# into $TESTDIR/NAME.json
iosweep_run() {
	printf '%b' "$2" >"$TESTDIR/$1.fio"
	"$IOSWEEP" import "$TESTDIR/$1.fio" -o "$TESTDIR/$1.ini" 2>/dev/null
	"$IOSWEEP" run "$TESTDIR/$1.ini" -q -o "json:$TESTDIR/$1.json"
}

@test 'a bare time_based and a size fio found in its file do not prevent a match' {
	[ ! -e /var/tmp/iosweep-fixture-tb.dat ] || skip "the fixture's file is here"
	head -c 4m /dev/zero >"$TESTDIR/f.dat"
	iosweep_run tb "[global]\nfilename=$TESTDIR/f.dat\nbs=64k\n[seqread]\nrw=read\ntime_based\nruntime=300ms\n"
	grep -qx 'time_based = 1' "$TESTDIR/tb.ini"
	run "$IOSWEEP" compare "$FIXTURES/time_based.json" "$TESTDIR/tb.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c '^seqread .*(n=1+1, no test)$')" -eq 4 ]
	[[ "$output" != *"only in"* ]]
	[[ "$output" == *"all but the job's name, filename, repeat, warmup and what a fio result cannot say: fill"* ]]
	# what the fio side cannot say is left out of its parameters, the rest is there
	"$IOSWEEP" compare "$FIXTURES/time_based.json" "$TESTDIR/tb.json" -o json >"$TESTDIR/c.json"
	[ "$(json_get "$TESTDIR/c.json" 'sorted(k for k in ("fill", "size", "time_based", "bs", "runtime") if k in d["runs"][0]["params"])')" = "['bs', 'runtime']" ]
}

@test 'a bare norandommap and fixedbufs, which fio leaves out of its JSON, do not prevent a match' {
	iosweep_run nrm "[global]\nfilename=$TESTDIR/r.dat\nsize=1m\nbs=4k\nioengine=io_uring\n[rnd]\nrw=randread\nnorandommap\nfixedbufs\n"
	grep -qx 'pattern = random-replace' "$TESTDIR/nrm.ini"
	grep -qx 'fixedbufs = 1' "$TESTDIR/nrm.ini"
	run "$IOSWEEP" compare "$FIXTURES/norandommap.json" "$TESTDIR/nrm.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c '^rnd .*(n=1+1, no test)$')" -eq 4 ]
	"$IOSWEEP" compare "$FIXTURES/norandommap.json" "$TESTDIR/nrm.json" -o json >"$TESTDIR/c.json"
	[ "$(json_get "$TESTDIR/c.json" '[k in d["runs"][0]["params"] for k in ("pattern", "fixedbufs", "hint", "engine")]')" = "[False, False, True, True]" ]
	# a sequential job's pattern is still compared: norandommap changes only a random one
	"$IOSWEEP" compare "$FIXTURES/time_based.json" "$FIXTURES/time_based.json" -o json >"$TESTDIR/s.json"
	[ "$(json_get "$TESTDIR/s.json" 'd["runs"][0]["params"]["pattern"]')" = sequential ]
}

@test 'with no run in common, each unmatched run names its nearest counterpart and what differs' {
	head -c 4m /dev/zero >"$TESTDIR/f.dat"
	iosweep_run tb16 "[global]\nfilename=$TESTDIR/f.dat\nbs=16k\n[seqread]\nrw=read\ntime_based=1\nruntime=300ms\n"
	run "$IOSWEEP" compare "$FIXTURES/time_based.json" "$TESTDIR/tb16.json"
	echo "$output"
	[ "$status" -eq 2 ]
	[[ "$output" == *$'\nonly in OLD: seqread bs=64KiB\n  nearest in NEW: seqread: bs 64KiB vs 16KiB, spacing 64KiB vs 16KiB\n'* ]]
	[[ "$output" == *$'\nonly in NEW: seqread bs=16KiB\n  nearest in OLD: seqread: bs 16KiB vs 64KiB, spacing 16KiB vs 64KiB\n'* ]]
	[ "${lines[-1]}" = "iosweep: compare: $FIXTURES/time_based.json and $TESTDIR/tb16.json have no run in common (runs match by the parameters both files say, other than filename, repeat and warmup)" ]
	"$IOSWEEP" compare "$FIXTURES/time_based.json" "$TESTDIR/tb16.json" -o json >"$TESTDIR/c.json" || true
	[ "$(json_get "$TESTDIR/c.json" 'd["only_in_old"][0]["nearest"]')" = "{'job': 'seqread', 'differs': {'bs': [65536, 16384], 'spacing': [65536, 16384]}}" ]
}

@test 'iosweep results too: an unmatched run names its nearest counterpart (time_based 0 vs 1)' {
	job a "[j]\nsize = 256k\nbs = 64k\nrepeat = 1\n"
	job b "[j]\nsize = 256k\nbs = 64k\nrepeat = 1\nruntime = 200ms\ntime_based = 1\n"
	"$IOSWEEP" run "$TESTDIR/a.ini" -q -o "json:$TESTDIR/a.json"
	"$IOSWEEP" run "$TESTDIR/b.ini" -q -o "json:$TESTDIR/b.json"
	run "$IOSWEEP" compare "$TESTDIR/a.json" "$TESTDIR/b.json"
	echo "$output"
	[ "$status" -eq 2 ]
	[[ "$output" == *$'\n  nearest in NEW: j: runtime 0s vs 200ms, time_based 0 vs 1\n'* ]]
	[[ "$output" == *$'\nonly in NEW: j runtime=200ms\n  nearest in OLD: j: runtime 200ms vs 0s, time_based 1 vs 0\n'* ]]
}

@test "fio's duplicate keys take fio's meaning, the last one (jansson keeps the last)" {
	# the fixture holds the key twice, as fio wrote it
	[ "$(grep -c '"iodepth" : ' "$FIXTURES/include.json")" -eq 2 ]
	"$IOSWEEP" compare "$FIXTURES/include.json" "$FIXTURES/include.json" -o json >"$TESTDIR/c.json"
	[ "$(json_get "$TESTDIR/c.json" '(d["runs"][0]["params"]["iodepth"], d["runs"][0]["params"]["engine"])')" = "(8, 'aio')" ]
	# an iosweep result with a key twice is still refused
	job r "[r]\nsize = 64k\nrepeat = 1\n"
	"$IOSWEEP" run "$TESTDIR/r.ini" -q -o "json:$TESTDIR/r.json"
	sed -i '0,/"runs": \[/s//"x": 1, "x": 2, "runs": [/' "$TESTDIR/r.json"
	run "$IOSWEEP" compare "$TESTDIR/r.json" "$TESTDIR/r.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *"duplicate object key"* ]]
}

@test 'fio --output-format=json+ is read as json: the same job, its own figures' {
	run "$IOSWEEP" compare "$FIXTURES/include.json" "$FIXTURES/include-plus.json" -o json
	[ "$status" -eq 0 ]
	echo "$output" >"$TESTDIR/c.json"
	python3 - "$FIXTURES/include.json" "$FIXTURES/include-plus.json" "$TESTDIR/c.json" <<'PY'
import json, sys
a, b, c = (json.load(open(p)) for p in sys.argv[1:])
assert "bins" in b["jobs"][0]["read"]["clat_ns"]
f = c["runs"][0]["figures"]["iops"]
close = lambda x, y: abs(x - y) <= 1e-9 * y
assert close(f["old"]["median"], a["jobs"][0]["read"]["iops"]), f
assert close(f["new"]["median"], b["jobs"][0]["read"]["iops"]), f
assert a["jobs"][0]["read"]["iops"] != b["jobs"][0]["read"]["iops"]
PY
}

@test "fio's sync latency is the flush figures: p99 and count as fio measured them" {
	run "$IOSWEEP" compare "$FIXTURES/etcd.json" "$FIXTURES/etcd.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\nflush p99 latency '*$'\netcd-fixture '*' +0.00% (n=1+1, no test)'* ]]
	[[ "$output" != *"no repeats"* ]]
	"$IOSWEEP" compare "$FIXTURES/etcd.json" "$FIXTURES/etcd.json" -o json >"$TESTDIR/c.json"
	python3 - "$FIXTURES/etcd.json" "$TESTDIR/c.json" <<'PY'
import json, sys
fio, c = (json.load(open(p)) for p in sys.argv[1:])
sync = fio["jobs"][0]["sync"]["lat_ns"]
f = c["runs"][0]["figures"]["flush_lat_p99_ns"]
assert f["old"]["median"] == sync["percentile"]["99.000000"], f
assert sync["N"] == 113  # 256 KiB in 2300-byte writes, one fdatasync each
PY
}

@test 'the etcd check imports as both runs, alloc = prealloc, overwrite, with a note saying why' {
	printf '[etcd]\ndirectory=%s\nrw=write\nioengine=sync\nfdatasync=1\nsize=22m\nbs=2300\n' \
		"$TESTDIR" >"$TESTDIR/etcd.fio"
	run "$IOSWEEP" import "$TESTDIR/etcd.fio"
	[ "$status" -eq 0 ]
	grep -qx 'alloc = prealloc, overwrite' <<<"$output"
	grep -qx 'sync = fdatasync' <<<"$output"
	[[ "$output" == *"its later runs and loops find the file and overwrite it (overwrite, the run a check such as etcd's fdatasync job means)"* ]]
	# with unlink, every fio run lays the file out: fio's first run only
	printf 'unlink=1\n' >>"$TESTDIR/etcd.fio"
	run "$IOSWEEP" import "$TESTDIR/etcd.fio"
	grep -qx 'alloc = prealloc' <<<"$output"
}

@test "fio's sync figures are checked as its directions' are: the field's place, exit 2" {
	for bad in 'lat["N"] = -1' 'lat["N"] = 1.5' 'lat["percentile"]["99.000000"] = "x"' \
		'lat["mean"] = -3.5' 'd["jobs"][0]["sync"] = 7'; do
		python3 - "$FIXTURES/etcd.json" "$TESTDIR/bad.json" "$bad" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
lat = d["jobs"][0]["sync"]["lat_ns"]
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
		run "$IOSWEEP" compare "$TESTDIR/bad.json" "$FIXTURES/etcd.json"
		echo "$bad: $output"
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ "$output" == "iosweep: $TESTDIR/bad.json: jobs[0].sync"* ]]
	done
}

@test 'import, run and compare the etcd check: fio matches one of the two runs, both measured' {
	sed "s|directory=/var/tmp|directory=$TESTDIR|" "$FIXTURES/etcd.fio" >"$TESTDIR/etcd.fio"
	"$IOSWEEP" import "$TESTDIR/etcd.fio" -o "$TESTDIR/etcd.ini" 2>/dev/null
	"$IOSWEEP" run "$TESTDIR/etcd.ini" -q -o "json:$TESTDIR/ios.json"
	# one fdatasync a write: 256 KiB in 2300-byte writes, the last one short
	[ "$(json_get "$TESTDIR/ios.json" '[(r["params"]["alloc"], r["repeats"][0]["writes"], r["repeats"][0]["flushes"]) for r in d["runs"]]')" = "[('prealloc', 114, 114), ('overwrite', 114, 114)]" ]
	run "$IOSWEEP" compare "$FIXTURES/etcd.json" "$TESTDIR/ios.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c '^etcd-fixture .*(n=1+1, no test)$')" -eq 5 ]
	[[ "$output" == *$'\nonly in NEW: etcd-fixture alloc=overwrite'* ]]
	# a matched row is labelled by the run that says every parameter (not alloc=-)
	[[ "$output" == *$'\netcd-fixture alloc=prealloc '* ]]
	[[ "$output" != *"=-"* ]]
}

@test "fio 2's JSON is refused: one line, the file, why" {
	python3 - "$FIXTURES/include.json" "$TESTDIR/v2.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["fio version"] = "fio-2.21"
json.dump(d, open(sys.argv[2], "w"))
PY
	run "$IOSWEEP" compare "$TESTDIR/v2.json" "$FIXTURES/include.json"
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: $TESTDIR/v2.json: a result of fio-2.21: fio 2's JSON layout (bytes in KiB, latency in microseconds) is not read; iosweep reads fio 3's (--output-format=json or json+)" ]
	# fio 2's layout under another version string: refused by its fields
	python3 - "$FIXTURES/include.json" "$TESTDIR/old.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["jobs"][0]["read"]
for k in ("bw_bytes", "lat_ns", "clat_ns"):
    del r[k]
r["clat"] = {"min": 1, "max": 2, "mean": 1.5}
json.dump(d, open(sys.argv[2], "w"))
PY
	run "$IOSWEEP" compare "$TESTDIR/old.json" "$FIXTURES/include.json"
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: $TESTDIR/old.json: jobs[0].read has fio 2's layout (clat in microseconds, no bw_bytes or lat_ns): not read; iosweep reads fio 3's (--output-format=json or json+)" ]
}

@test 'a result file given twice is compared, and a note says so' {
	run "$IOSWEEP" compare "$FIXTURES/include.json" "$FIXTURES/include.json"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c '^note: OLD and NEW are the same file: every change is 0$')" -eq 1 ]
	ln -s "$FIXTURES/include.json" "$TESTDIR/link.json"
	run "$IOSWEEP" compare "$FIXTURES/include.json" "$TESTDIR/link.json" -o json
	[[ "$output" == *'"OLD and NEW are the same file: every change is 0"'* ]]
	cp "$FIXTURES/include.json" "$TESTDIR/copy.json"
	run "$IOSWEEP" compare "$FIXTURES/include.json" "$TESTDIR/copy.json"
	[[ "$output" != *"same file"* ]]
}
