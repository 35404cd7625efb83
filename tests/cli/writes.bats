#!/usr/bin/env bats
# Writes: what they put on disk (against an independent generator, wdata.py,
# and the independent reader, refsum), the calls that make them durable
# (counted by an LD_PRELOAD shim), verification, every refusal that keeps
# iosweep from writing what it must not, and how plan, the table, compare,
# plot and MPI runs report writes.

load helpers

# Not a multiple of the block size, so that the last block is short.
SIZE=3149837

# sync_calls NAME JOB-LINES...: runs a job on $TESTDIR/f under the sync shim;
# the calls it counted, sorted and counted, in $output
sync_calls() {
	local name=$1
	shift
	job "$name" "[global]\nfilename = $TESTDIR/f\nsize = 4m\nrepeat = 1\nop = write\ncache = keep\n[j]\n$*\n"
	"$IOSWEEP" run "$TESTDIR/$name.ini" >/dev/null # creates the file: not counted
	rm -f "$TESTDIR/$name.log"
	IOSWEEP_SYNC_FILE=$TESTDIR/f IOSWEEP_SYNC_LOG=$TESTDIR/$name.log \
		LD_PRELOAD=$HELPERS/sync_shim.so "$IOSWEEP" run "$TESTDIR/$name.ini" >/dev/null
	touch "$TESTDIR/$name.log"
	output=$(sort "$TESTDIR/$name.log" | uniq -c | awk '{printf "%s %s;", $1, $2 ($3 ? " " $3 : "")}')
}

@test "every engine, pattern, thread count and iodepth writes the documented bytes with the checksum the reader finds" {
	job m "[global]\nfilename = $TESTDIR/w.dat\nsize = $SIZE\nbs = 4k\nrepeat = 1\nop = write\nengine = sync, psync2, mmap, aio, uring\nthreads = 1, 4\niodepth = 1, 16\n[dense]\npattern = sequential, reverse, random, random-replace\n[sparse]\nspacing = 20k\n"
	run "$IOSWEEP" run "$TESTDIR/m.ini" -o json:"$TESTDIR/m.json"
	[ "$status" -eq 0 ]
	# 5 patterns x (sync, psync2, mmap: 2 thread counts; aio, uring: x 2 iodepths)
	[ "$(json_get "$TESTDIR/m.json" 'len(d["runs"])')" = 70 ]
	# every block was written with the content wdata.py computes from the format
	python3 "$BATS_TEST_DIRNAME/wdata.py" bytes 1 0 $SIZE | cmp - "$TESTDIR/w.dat"
	for p in sequential reverse random random-replace; do
		ref=$(refsum "$TESTDIR/w.dat" $p $SIZE 4096 4096 0 1)
		n=$(python3 "$BATS_TEST_DIRNAME/offsets.py" $p $SIZE 4096 4096 0 1 | wc -l)
		got=$(json_get "$TESTDIR/m.json" "sorted({(r['repeats'][0]['checksum'], r['repeats'][0]['writes'], r['repeats'][0]['reads']) for r in d['runs'] if r['job'] == 'dense' and r['params']['pattern'] == '$p'})")
		[ "$got" = "[('$ref', $n, 0)]" ] || { echo "$p: $got != $ref $n"; false; }
	done
	ref=$(refsum "$TESTDIR/w.dat" sequential $SIZE 4096 20480 0 1)
	got=$(json_get "$TESTDIR/m.json" "sorted({(r['repeats'][0]['checksum'], r['repeats'][0]['writes']) for r in d['runs'] if r['job'] == 'sparse'})")
	[ "$got" = "[('$ref', 154)]" ]
	# and a read run of the same blocks reports the same checksum, on every engine
	job r "[r]\nfilename = $TESTDIR/w.dat\nrepeat = 1\nengine = sync, psync2, mmap, aio, uring\niodepth = 8\nthreads = 3\npattern = random\n"
	run "$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json"
	[ "$status" -eq 0 ]
	ref=$(refsum "$TESTDIR/w.dat" random $SIZE 4096 4096 0 1)
	[ "$(json_get "$TESTDIR/r.json" '[r["repeats"][0]["checksum"] for r in d["runs"]]')" = "['$ref', '$ref', '$ref', '$ref', '$ref']" ]
	[ "$(json_get "$TESTDIR/m.json" 'sorted({r["repeats"][0]["checksum"] for r in d["runs"] if r["params"]["pattern"] == "random"})')" = "['$ref']" ]
}

@test "readwrite reads rwmixread percent of the blocks, chosen per offset from the seed, and writes the others" {
	job x "[x]\nfilename = $TESTDIR/x.dat\nsize = 4m\nrepeat = 2\nop = readwrite\nrwmixread = 30\nengine = sync, psync2, mmap, aio, uring\niodepth = 8\nthreads = 1, 3\npattern = random\nseed = 9\n"
	run "$IOSWEEP" run "$TESTDIR/x.ini" -o json:"$TESTDIR/x.json"
	[ "$status" -eq 0 ]
	writes=$(python3 "$BATS_TEST_DIRNAME/offsets.py" random 4194304 4096 4096 0 9 |
		python3 "$BATS_TEST_DIRNAME/wdata.py" writes 9 30)
	[ "$(json_get "$TESTDIR/x.json" 'sorted({(x["writes"], x["reads"] + x["writes"], x["write_bytes"], x["read_bytes"] + x["write_bytes"]) for r in d["runs"] for x in r["repeats"]})')" = "[($writes, 1024, $((writes * 4096)), 4194304)]" ]
	# what was read is still there and what was written is there now: the
	# file as it is afterwards gives every run's checksum
	ref=$(refsum "$TESTDIR/x.dat" random 4194304 4096 4096 0 9)
	[ "$(json_get "$TESTDIR/x.json" 'sorted({x["checksum"] for r in d["runs"] for x in r["repeats"]})')" = "['$ref']" ]
	# the table shows both directions of throughput, IOPS, p50 and p99, and a
	# read run beside it one value each
	job y "[y]\nfilename = $TESTDIR/x.dat\nsize = 4m\nrepeat = 2\nop = readwrite, read\nrwmixread = 30\npattern = random\nseed = 9\n"
	run "$IOSWEEP" run "$TESTDIR/y.ini"
	[ "$status" -eq 0 ]
	d='[0-9.]+ ?[kMGmµn]?'
	echo "$output" | grep -E "^0 +readwrite +30 +[0-9.]+ ms.* r $d""B/s w $d""B/s +r $d w $d +r $d""s w $d""s +r $d""s w $d""s +[0-9]+% "
	echo "$output" | grep -E "^1 +read +100 +[0-9.]+ ms[^r]* $d""B/s +$d +$d""s +$d""s +[0-9]+%( |$)"
	[[ "$output" == *"r … w …: a readwrite run's reads and its writes"* ]]
	# no room for the checksums in the table: every line of their list says what it is
	if echo "$output" | grep -q '^checksum: '; then
		[ -z "$(echo "$output" | grep -E '^run [0-9]+ [0-9a-f]{16}')" ]
	fi
}

@test "verify=after reads every written block back and a flipped byte is found at its offset" {
	job v "[v]\nfilename = $TESTDIR/v.dat\nsize = 2m\nrepeat = 1\nop = write\nverify = after\nbs = 16k\n"
	run "$IOSWEEP" run "$TESTDIR/v.ini" -o json:"$TESTDIR/v.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/v.json" 'd["runs"][0]["repeats"][0]["verified_bytes"]')" = 2097152 ]
	# a read run verifies too: good now ...
	job r "[r]\nfilename = $TESTDIR/v.dat\nrepeat = 1\nverify = after\nbs = 4k\n"
	run "$IOSWEEP" run "$TESTDIR/r.ini"
	[ "$status" -eq 0 ]
	# ... and not after one byte is flipped
	printf '\x5a' | dd of="$TESTDIR/v.dat" bs=1 seek=1000005 conv=notrunc status=none
	run "$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json"
	[ "$status" -eq 1 ]
	[[ "$output" == *"verify found a bad block: offset 1000005: corrupt: 1 byte of the 4 KiB unit at 999424 differ"* ]]
	# a block copied to the wrong place, and a hole
	dd if="$TESTDIR/v.dat" of="$TESTDIR/v.dat" bs=4096 skip=3 seek=5 count=1 conv=notrunc status=none
	run "$IOSWEEP" run "$TESTDIR/r.ini"
	[ "$status" -eq 1 ]
	[[ "$output" == *"offset 20480: misplaced: holds the iosweep data of offset 12288"* ]]
	fallocate -p -o 8192 -l 4096 "$TESTDIR/v.dat" || skip "no hole punching here"
	run "$IOSWEEP" run "$TESTDIR/r.ini"
	[ "$status" -eq 1 ]
	[[ "$output" == *"offset 8192: zeros"* ]]
}

@test "verify=after finds a byte flipped between a run's writes and its verify, names its offset and fails the run" {
	[ -e "$HELPERS/sync_shim.so" ] || skip "the sync shim is not built (make check builds it)"
	job v "[v]\nfilename = $TESTDIR/v.dat\nsize = 2m\nrepeat = 1\nop = write\nverify = after\nbs = 16k\nengine = sync, uring\ncache = keep\n"
	"$IOSWEEP" run "$TESTDIR/v.ini" >/dev/null # creates the file, and verifies it
	for engine in sync uring; do
		rm -f "$TESTDIR/v.log"
		run env IOSWEEP_SYNC_FILE="$TESTDIR/v.dat" IOSWEEP_SYNC_LOG="$TESTDIR/v.log" \
			IOSWEEP_SYNC_FLIP=1000005 LD_PRELOAD="$HELPERS/sync_shim.so" \
			"$IOSWEEP" run "$TESTDIR/v.ini" --set engine=$engine -o json:"$TESTDIR/v.json"
		[ "$status" -eq 1 ]
		# the one fdatasync is verify's own, before it reads the file back (cache=keep
		# flushes nothing before the writes)
		[ "$(cat "$TESTDIR/v.log")" = "open
fdatasync" ]
		[[ "$output" == *"verify found a bad block: offset 1000005: corrupt: 1 byte of the 4 KiB unit at 999424 differ"* ]]
		[ "$(json_get "$TESTDIR/v.json" '(d["runs"][0]["failed"], "offset 1000005" in d["runs"][0]["error"])')" = "(True, True)" ]
	done
}

@test "durability options make exactly the calls they promise" {
	[ -e "$HELPERS/sync_shim.so" ] || skip "the sync shim is not built (make check builds it)"
	sync_calls none "sync = none"
	[ "$output" = "1 open;" ]
	sync_calls end "sync = end"
	[ "$output" = "1 fsync;1 open;" ]
	# 1024 writes: 10 flushes of 100, and one for the last 24
	sync_calls fs "sync = fsync\nsync_every = 100"
	[ "$output" = "11 fsync;1 open;" ]
	sync_calls fds "sync = fdatasync\nsync_every = 1\nengine = uring\niodepth = 4"
	[ "$output" = "1024 fdatasync;1 open;" ]
	sync_calls ds "sync = dsync"
	[ "$output" = "1 open dsync;" ]
	sync_calls os "sync = osync\nengine = aio"
	[ "$output" = "1 open sync;" ]
	sync_calls mm "sync = fdatasync\nsync_every = 256\nengine = mmap"
	[ "$output" = "4 msync;1 open;" ]
	sync_calls me "sync = end\nengine = mmap"
	[ "$output" = "1 msync;1 open;" ]
	sync_calls p2 "sync = fdatasync\nsync_every = 1000\nengine = psync2"
	[ "$output" = "2 fdatasync;1 open;" ]
	sync_calls ai "sync = fsync\nsync_every = 8\nengine = aio\niodepth = 16"
	[ "$output" = "128 fsync;1 open;" ]
	sync_calls ud "sync = dsync\nengine = uring\niodepth = 8\nthreads = 2"
	[ "$output" = "2 open dsync;" ]
}

@test "dirty bytes at the end: a buffered write leaves them, a final flush does not" {
	job d "[global]\nfilename = $TESTDIR/d.dat\nsize = 4m\nrepeat = 1\nop = write\n[lie]\nsync = none\n[honest]\nsync = end\n"
	run "$IOSWEEP" run "$TESTDIR/d.ini" -o json:"$TESTDIR/d.json" -o table
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/d.json" 'd["runs"][0]["repeats"][0]["dirty_end_bytes"] > 0')" = True ]
	[ "$(json_get "$TESTDIR/d.json" 'd["runs"][1]["repeats"][0]["dirty_end_bytes"]')" = 0.0 ]
	[ "$(json_get "$TESTDIR/d.json" '[r["repeats"][0]["flushes"] for r in d["runs"]]')" = "[0, 1]" ]
	[[ "$output" == *"of the written bytes were still only in memory at the end"* ]]
	# one flush is said in the singular, with its one latency
	[[ "$output" == *"run 1: 1 flush per repeat (end), taking "*" (median of the repeats)"* ]]
	[[ "$output" != *"1 flushes"* ]]
}

@test "the flushes of a ramp are not counted: with sync_every = 1 the flushes are the writes, in JSON and in the table's note" {
	job r "[w]\nfilename = $TESTDIR/r.dat\nsize = 1m\nop = write\nbs = 4k\nrepeat = 2\nsync = fdatasync\nsync_every = 1\ntime_based = 1\nruntime = 300ms\nramp = 300ms\n"
	run "$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json" -o table
	[ "$status" -eq 0 ]
	# a flush that ends after the ramp may follow a write of the ramp: one more
	[ "$(json_get "$TESTDIR/r.json" 'sorted({0 <= x["flushes"] - x["writes"] <= 1 and x["writes"] > 0 and x["flush_lat_ns"]["p50"] > 0 for x in d["runs"][0]["repeats"]})')" = "[True]" ]
	n=$(json_get "$TESTDIR/r.json" 'sorted(x["flushes"] for x in d["runs"][0]["repeats"])')
	[[ "$output" == *"run 0: "*" flushes per repeat (fdatasync)"* ]]
	note=$(echo "$output" | sed -n 's/^run 0: \([0-9]*\) flushes per repeat.*/\1/p')
	python3 -c 'import sys; a, b = eval(sys.argv[1]); assert a <= float(sys.argv[2]) <= b, sys.argv' "$n" "$note"
}

# record FILE: the creation record of FILE (its user.iosweep extended attribute)
record() {
	python3 -c 'import os, sys; print(os.getxattr(sys.argv[1], "user.iosweep").decode())' "$1"
}

@test "a file iosweep writes no longer holds its fill: its record says so, reads report fill=existing and consume=ints is refused" {
	# in one plan: refused at check time, naming both jobs
	job a "[global]\nfilename = $TESTDIR/t.dat\nsize = 1m\nbs = 4k\nrepeat = 1\nfill = text\n[r1]\nconsume = ints\n[w]\nop = write\n[r2]\nconsume = ints\n"
	refused check a "consume=ints needs a file of text" "$TESTDIR/t.dat"
	[ "$output" = "iosweep: $TESTDIR/a.ini:12: consume=ints needs a file of text, and job 'w' writes $TESTDIR/t.dat before job 'r2' reads it (give one of them another filename)" ]
	# the runs before the writes read text, the runs after read what was written
	job b "[global]\nfilename = $TESTDIR/t.dat\nsize = 1m\nbs = 4k\nrepeat = 1\nfill = text\n[r1]\nconsume = ints\n[w]\nop = write\n[r2]\n"
	run "$IOSWEEP" run "$TESTDIR/b.ini" -o json:"$TESTDIR/b.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/b.json" '[(r["job"], r["params"]["fill"]) for r in d["runs"]]')" = "[('r1', 'text'), ('w', 'text'), ('r2', 'existing')]" ]
	[ "$(record "$TESTDIR/t.dat")" = "iosweep-record 1 fill=text seed=1 size=1048576 written=1" ]
	# and so in later invocations; the job asking fill=text is not refused for it
	job c "[r]\nfilename = $TESTDIR/t.dat\nfill = text\nconsume = ints\n"
	refused check c "consume=ints needs a file of text" "$TESTDIR/t.dat"
	[ "$output" = "iosweep: $TESTDIR/c.ini:4: consume=ints needs a file of text, and $TESTDIR/t.dat has been written by iosweep since it was made: it holds the blocks written (remove it to have it made again) (job 'r')" ]
	run "$IOSWEEP" run "$TESTDIR/c.ini" --set consume=checksum --set repeat=1
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == *" fill=existing "* ]]
}

@test "every write path marks the record before its first write: each engine, readwrite, a run stopped by a signal" {
	for e in sync psync2 mmap aio uring; do
		job m "[m]\nfilename = $TESTDIR/$e.dat\nsize = 256k\nrepeat = 1\nfill = zero\nop = write\nengine = $e\n"
		"$IOSWEEP" run "$TESTDIR/m.ini" >/dev/null
		[ "$(record "$TESTDIR/$e.dat")" = "iosweep-record 1 fill=zero seed=1 size=262144 written=1" ]
	done
	job x "[global]\nfilename = $TESTDIR/x.dat\nsize = 256k\nrepeat = 1\n[make]\n[x]\nop = readwrite\nrwmixread = 90\n"
	"$IOSWEEP" run "$TESTDIR/x.ini" >/dev/null
	[ "$(record "$TESTDIR/x.dat")" = "iosweep-record 1 fill=random seed=1 size=262144 written=1" ]
	job i "[global]\nfilename = $TESTDIR/i.dat\nsize = 4m\nrepeat = 1\n[make]\n[w]\nop = write\npattern = random\ncount = 1000000000\nruntime = 60s\nbs = 512\n"
	"$IOSWEEP" run "$TESTDIR/i.ini" -o json:"$TESTDIR/i.json" >"$TESTDIR/out" 2>&1 &
	pid=$!
	wait_for json_runs "$TESTDIR/i.json" 1
	sleep 0.3
	stop_with INT $pid
	[ "$(record "$TESTDIR/i.dat")" = "iosweep-record 1 fill=random seed=1 size=4194304 written=1" ]
}

@test "alloc=allocate may give an iosweep file a larger size: the record says the new one" {
	job s "[s]\nfilename = $TESTDIR/s.dat\nsize = 256k\nrepeat = 1\n"
	"$IOSWEEP" run "$TESTDIR/s.ini" >/dev/null
	job g "[g]\nfilename = $TESTDIR/s.dat\nsize = 1m\nrepeat = 1\nop = write\nalloc = allocate\n"
	"$IOSWEEP" run "$TESTDIR/g.ini" >/dev/null
	[ "$(stat -c %s "$TESTDIR/s.dat")" = 1048576 ]
	[ "$(record "$TESTDIR/s.dat")" = "iosweep-record 1 fill=random seed=1 size=1048576 written=1" ]
}

@test "alloc: overwrite, allocate and prealloc write the same data, and a fresh file is created empty" {
	job a "[a]\nfilename = $TESTDIR/a.dat\nsize = 1m\nrepeat = 2\nop = write\nalloc = allocate, prealloc, overwrite\nverify = after\n"
	run "$IOSWEEP" plan "$TESTDIR/a.ini"
	[ "$status" -eq 0 ]
	[[ "$output" == *"writes $TESTDIR/a.dat (to be created): 1MiB per repeat, 6MiB in all"* ]]
	run "$IOSWEEP" run "$TESTDIR/a.ini" -o json:"$TESTDIR/a.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/a.json" '[(r["params"]["alloc"], r["repeats"][1]["verified_bytes"]) for r in d["runs"]]')" = "[('allocate', 1048576), ('prealloc', 1048576), ('overwrite', 1048576)]" ]
	python3 "$BATS_TEST_DIRNAME/wdata.py" bytes 1 0 1048576 | cmp - "$TESTDIR/a.dat"
}

@test "plan and check say which files a job writes and how much" {
	head -c 1m /dev/urandom >"$TESTDIR/mine"
	job p "[global]\nsize = 1m\nrepeat = 3\n[new]\nfilename = $TESTDIR/n.dat\nop = write, readwrite\n[yours]\nfilename = $TESTDIR/mine\nallow_write = $TESTDIR/mine\nop = write\nrepeat = 2\n[reader]\nfilename = $TESTDIR/mine\n"
	# the readwrite run writes the blocks its seed draws (rwmixread=50): 127 of 256
	mixed=$(python3 "$BATS_TEST_DIRNAME/offsets.py" sequential 1048576 4096 4096 0 1 |
		python3 "$BATS_TEST_DIRNAME/wdata.py" writes 1 50)
	[ "$mixed" = 127 ]
	run "$IOSWEEP" check "$TESTDIR/p.ini"
	[ "$status" -eq 0 ]
	[ "$output" = "writes $TESTDIR/n.dat (to be created): up to 1MiB per repeat, 4596KiB in all
writes $TESTDIR/mine (your file: allow_write): 1MiB per repeat, 2MiB in all" ]
	run "$IOSWEEP" plan "$TESTDIR/p.ini"
	[ "$status" -eq 0 ]
	echo "$output" | grep -E '^ +0 +new .* write .* 0 +256 +1MiB +1MiB +3$'
	echo "$output" | grep -E '^ +1 +new .* readwrite .* 129 +127 +1MiB +508KiB +3$'
	echo "$output" | grep -E '^ +3 +reader .* 256 +0 +1MiB +- +3$'
	[[ "$output" == *"total: 4 runs, 1155 reads, 1661 writes, 11534336 bytes (11MiB), 6803456 of them written (6.49MiB) over all measured repeats"* ]]
	# a read-only job is checked silently, as before
	job q "[r]\nfilename = $TESTDIR/mine\n"
	run "$IOSWEEP" check "$TESTDIR/q.ini"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "plan -o json counts each run's reads and writes and their bytes, as the runs then do" {
	job x "[global]\nsize = 4m\nrepeat = 1\n[x]\nfilename = $TESTDIR/x.dat\nop = readwrite\nrwmixread = 30\nseed = 9\nthreads = 3\npattern = random, random-replace, sequential\n[w]\nfilename = $TESTDIR/w.dat\nop = write\nspacing = 20k\n[r]\nfilename = $TESTDIR/x.dat\n"
	run "$IOSWEEP" plan "$TESTDIR/x.ini" -o json
	[ "$status" -eq 0 ]
	echo "$output" >"$TESTDIR/plan.json"
	writes=$(python3 "$BATS_TEST_DIRNAME/offsets.py" random 4194304 4096 4096 0 9 |
		python3 "$BATS_TEST_DIRNAME/wdata.py" writes 9 30)
	[ "$(json_get "$TESTDIR/plan.json" '(d["runs"][0]["writes"], d["runs"][0]["reads"] + d["runs"][0]["writes"], d["runs"][0]["write_bytes"])')" = "($writes, 1024, $((writes * 4096)))" ]
	[ "$(json_get "$TESTDIR/plan.json" '[(r["reads"], r["writes"], r["read_bytes"], r["write_bytes"]) for r in d["runs"][3:]]')" = "[(0, 205, 0, 839680), (1024, 0, 4194304, 0)]" ]
	[ "$(json_get "$TESTDIR/plan.json" 'sum(r["write_bytes"] for r in d["runs"]) == d["total"]["write_bytes"] and sum(r["reads"] for r in d["runs"]) == d["total"]["reads"]')" = True ]
	"$IOSWEEP" run "$TESTDIR/x.ini" -o json:"$TESTDIR/run.json" >/dev/null
	for k in reads writes read_bytes write_bytes; do
		[ "$(json_get "$TESTDIR/plan.json" "[r['$k'] for r in d['runs']]")" = \
		  "$(json_get "$TESTDIR/run.json" "[r['repeats'][0]['$k'] for r in d['runs']]")" ]
	done
}

@test "the totals line before a big plan counts the bytes it writes too" {
	job b "[global]\nsize = 64m\nrepeat = 1\n[w]\nfilename = $TESTDIR/w.dat\nop = write\n[x]\nfilename = $TESTDIR/w.dat\nop = readwrite\nrwmixread = 25\n"
	run "$IOSWEEP" run "$TESTDIR/b.ini" -o json:"$TESTDIR/b.json"
	[ "$status" -eq 0 ]
	w=$(json_get "$TESTDIR/b.json" 'sum(r["repeats"][0]["write_bytes"] for r in d["runs"])')
	r=$(json_get "$TESTDIR/b.json" 'sum(r["repeats"][0]["read_bytes"] for r in d["runs"])')
	# binary, as the plan's sizes: exact, or three significant digits
	mb() { python3 -c "
x, i = $1, 0
while x >= 1024: x, i = x / 1024, i + 1
u = ['', 'KiB', 'MiB', 'GiB'][i]
print(('%d' % x if x == int(x) else '%.0f' % x if x >= 99.5 else '%.1f' % x if x >= 9.95 else '%.2f' % x) + u)"; }
	[ "${lines[0]}" = "iosweep: plan: 2 runs, 2 measured repeats; creates 64MiB (1 file) and reads $(mb $r), writes $(mb $w) in all; a time estimate follows the first run" ]
	job o "[w]\nfilename = $TESTDIR/o.dat\nsize = 64m\nrepeat = 1\nop = write\n"
	run "$IOSWEEP" run "$TESTDIR/o.ini"
	[ "${lines[0]}" = "iosweep: plan: 1 run, 1 measured repeat; creates 64MiB (1 file) and writes 64MiB in all" ]
}

@test "writes never go to a character device, a device without allow_write, a symbolic link, another user's file or a file iosweep did not make" {
	head -c 1m /dev/urandom >"$TESTDIR/mine"
	sum=$(sha256sum <"$TESTDIR/mine")
	# a character device, even with the opt-in
	job c "[c]\nfilename = /dev/null\nsize = 1m\nop = write\nallow_write = /dev/null\n"
	refused check c "/dev/null is a character device: iosweep writes only regular files"
	# a FIFO, without blocking on it (refused's timeout fails the test)
	mkfifo "$TESTDIR/fifo"
	job ff "[f]\nfilename = $TESTDIR/fifo\nsize = 1m\nop = write\nallow_write = $TESTDIR/fifo\n"
	refused run ff "$TESTDIR/fifo is a FIFO: iosweep writes only regular files"
	# a block device, without allow_write naming it (tests/cli/devwrite.bats: with it)
	if [ "$(id -u)" = 0 ] && mknod "$TESTDIR/blk" b 7 200 2>/dev/null; then
		job b "[b]\nfilename = $TESTDIR/blk\nsize = 1m\nop = write\n"
		refused run b "$TESTDIR/blk is a block device"
	fi
	# a symbolic link, even to a file iosweep made
	job m "[m]\nfilename = $TESTDIR/made\nsize = 1m\nrepeat = 1\nop = write\n"
	run "$IOSWEEP" run "$TESTDIR/m.ini"
	[ "$status" -eq 0 ]
	ln -s "$TESTDIR/made" "$TESTDIR/link"
	job l "[l]\nfilename = $TESTDIR/link\nop = write\n"
	refused run l "$TESTDIR/link is a symbolic link: iosweep never writes through one" "$TESTDIR/made"
	# the user's own file: only with the opt-in, and the opt-in names that file
	job u "[u]\nfilename = $TESTDIR/mine\nop = write\nrepeat = 1\n"
	refused run u "$TESTDIR/mine was not created by iosweep: iosweep writes only files it made (to write this one anyway, add 'allow_write = $TESTDIR/mine' to the job)" "$TESTDIR/mine"
	job o "[o]\nfilename = $TESTDIR/mine\nop = write\nallow_write = $TESTDIR/other\n"
	refused run o "allow_write names '$TESTDIR/other' but the job writes '$TESTDIR/mine'" "$TESTDIR/mine"
	[ "$(sha256sum <"$TESTDIR/mine")" = "$sum" ]
	job y "[y]\nfilename = $TESTDIR/mine\nop = write\nrepeat = 1\nallow_write = $TESTDIR/mine\n"
	run "$IOSWEEP" run "$TESTDIR/y.ini"
	[ "$status" -eq 0 ]
	[ "$(sha256sum <"$TESTDIR/mine")" != "$sum" ]
	# another user's file, made by iosweep or not
	command -v setpriv >/dev/null || skip "setpriv (util-linux) is missing"
	[ "$(id -u)" = 0 ] || skip "needs root to act as nobody"
	chmod 755 "$TESTDIR"
	mkdir "$TESTDIR/shared" && chmod 1777 "$TESTDIR/shared"
	job n "[n]\nfilename = $TESTDIR/shared/theirs\nsize = 1m\nrepeat = 1\n"
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$IOSWEEP" run "$TESTDIR/n.ini"
	[ "$status" -eq 0 ]
	job t "[t]\nfilename = $TESTDIR/shared/theirs\nop = write\nallow_write = $TESTDIR/shared/theirs\n"
	refused run t "belongs to uid 65534, not to you" "$TESTDIR/shared/theirs"
}

@test "combinations writes cannot do are refused with the reason" {
	job a "[a]\nsize = 1m\nop = write\nengine = mmap\nsync = dsync\n"
	refused check a "sync=dsync makes write(2) synchronous, and engine=mmap stores into memory"
	job b "[b]\nsize = 1m\nop = write\nengine = mmap\nalloc = allocate\n"
	refused check b "SIGBUS"
	job c "[c]\nsize = 1m\nfill = text\nop = write\nconsume = ints\n"
	refused check c "consume=ints parses text"
	job d "[d]\nsize = 1m\nop = write\ncache = warm\nalloc = prealloc\n"
	refused check d "cache=warm reads the file in before each repeat"
	job e "[e]\nsize = 1000000\nop = write\ncache = direct\nbs = 4k\n"
	refused check e "is not a multiple: the last write would go past the end"
	# and more than the file system holds, at plan time
	job f "[f]\nsize = 1000t\nop = write\n"
	refused check f "free for you, and the run writes 1000TiB there" "$TESTDIR/iosweep-1000TiB-random.dat"
}

@test "the free-space check counts what the writes allocate: alloc=allocate the blocks written; ramfs's unknown size is not full" {
	[ "$(id -u)" = 0 ] || skip "needs root to mount a loop image and ramfs"
	command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 is missing"
	truncate -s 8m "$TESTDIR/img"
	mkfs.ext4 -q "$TESTDIR/img"
	mkdir "$TESTDIR/mnt" "$TESTDIR/ram"
	mount -o loop "$TESTDIR/img" "$TESTDIR/mnt" || skip "cannot mount a loop image here"
	free=$(df -k --output=avail "$TESTDIR/mnt" | tail -1 | tr -d ' ')
	# 10 random 4 KiB writes into an 8 MiB hole: 40 KiB, not 8 MiB
	job w "[w]\nfilename = $TESTDIR/mnt/big.dat\nsize = 8m\nop = write\nbs = 4k\nrepeat = 2\nalloc = allocate\ncount = 10\npattern = random\n"
	run "$IOSWEEP" check "$TESTDIR/w.ini"
	s1=$status
	run "$IOSWEEP" check "$TESTDIR/w.ini" --set count=1900
	s2=$status o2=$output
	run "$IOSWEEP" check "$TESTDIR/w.ini" --set alloc=overwrite
	s3=$status o3=$output
	umount "$TESTDIR/mnt"
	[ "$s1" -eq 0 ]
	# 1900 of them: 7600 KiB, more than there is
	[ "$s2" -eq 2 ]
	[ "$o2" = "iosweep: $TESTDIR/w.ini:2: $TESTDIR/mnt/big.dat: the file system has ${free}KiB free for you, and the run writes 7600KiB there: make room, or give a smaller size (job 'w')" ]
	# a file written over is made whole first
	[ "$s3" -eq 2 ]
	[[ "$o3" == *"and the run writes 8MiB there"* ]]
	mount -t ramfs ramfs "$TESTDIR/ram" || skip "cannot mount ramfs here"
	job r "[r]\nfilename = $TESTDIR/ram/r.dat\nsize = 1m\nop = write\nrepeat = 1\n"
	run "$IOSWEEP" check "$TESTDIR/r.ini"
	umount "$TESTDIR/ram"
	[ "$status" -eq 0 ]
}

@test "a disk that fills up during a write run ends it with a clear error and keeps what was measured" {
	[ "$(id -u)" = 0 ] || skip "needs root to mount a small tmpfs"
	mkdir "$TESTDIR/small"
	mount -t tmpfs -o size=3m tmpfs "$TESTDIR/small" || skip "cannot mount tmpfs here"
	# 1 MiB of a, then b fills the other 2 MiB: on every engine that can allocate
	# (mmap cannot: alloc=allocate is refused for it), its write at 2 MiB fails
	job f "[global]\nrepeat = 1\n[first]\nfilename = $TESTDIR/small/a\nsize = 1m\nop = write\n[second]\nfilename = $TESTDIR/small/b\nsize = 2560k\nop = write\nalloc = allocate\nengine = sync, psync2, aio, uring\niodepth = 8\n"
	run "$IOSWEEP" run "$TESTDIR/f.ini" -o json:"$TESTDIR/f.json" -o csv:"$TESTDIR/f.csv"
	umount "$TESTDIR/small"
	[ "$status" -eq 1 ]
	[ "$(echo "$output" | grep -c "^iosweep: run [1-4] (job 'second'): $TESTDIR/small/b: write at offset 2097152: No space left on device$")" = 4 ]
	[ "$(json_get "$TESTDIR/f.json" '[(r["job"], len(r["repeats"]), r["failed"]) for r in d["runs"]]')" = "[('first', 1, False), ('second', 1, True), ('second', 1, True), ('second', 1, True), ('second', 1, True)]" ]
	[ "$(json_get "$TESTDIR/f.json" 'd["runs"][0]["repeats"][0]["write_bytes"]')" = 1048576 ]
	# the failed runs' repeats: what they wrote before the disk filled up, marked interrupted
	[ "$(json_get "$TESTDIR/f.json" '[(r["repeats"][0]["interrupted"], 0 < r["repeats"][0]["write_bytes"] <= 2097152) for r in d["runs"][1:]]')" = "[(True, True), (True, True), (True, True), (True, True)]" ]
	[ "$(wc -l <"$TESTDIR/f.csv")" = 6 ]
}

@test "a signal during a write run ends it as for reads: exit 130, what was measured kept" {
	job i "[global]\nfilename = $TESTDIR/i.dat\nsize = 4m\nrepeat = 1\nop = write\n[quick]\n[slow]\npattern = random\ncount = 1000000000\nruntime = 60s\nbs = 512\nsync = fdatasync\nsync_every = 64\n"
	"$IOSWEEP" run "$TESTDIR/i.ini" -o json:"$TESTDIR/i.json" >"$TESTDIR/out" 2>&1 &
	pid=$!
	wait_for json_runs "$TESTDIR/i.json" 1
	sleep 0.3
	stop_with INT $pid
	[ "$(json_get "$TESTDIR/i.json" '[(r["repeats"][0]["interrupted"], r["repeats"][0]["writes"] > 0) for r in d["runs"]]')" = "[(False, True), (True, True)]" ]
	[ "$(json_get "$TESTDIR/i.json" 'd["runs"][1]["repeats"][0]["flushes"] > 0')" = True ]
}

@test "a signal during verify=after ends the verify early: the repeat is kept, verified_bytes and a note say how far it got" {
	[ -e "$HELPERS/slow_shim.so" ] || skip "the slow shim is not built (make check builds it)"
	job v "[v]\nfilename = $TESTDIR/v.dat\nsize = 4m\nrepeat = 2\nop = write\nverify = after\ncache = keep\n"
	"$IOSWEEP" run "$TESTDIR/v.ini" >/dev/null # creates the file
	# the writes are pwrites: only verify's 1024 preads are slowed, 10 ms each
	IOSWEEP_SLOW_FILE=$TESTDIR/v.dat IOSWEEP_SLOW_MS=10 IOSWEEP_SLOW_MARK=$TESTDIR/mark \
		LD_PRELOAD=$HELPERS/slow_shim.so "$IOSWEEP" run "$TESTDIR/v.ini" -o json:"$TESTDIR/v.json" \
		>"$TESTDIR/out" 2>&1 &
	pid=$!
	wait_for test -e "$TESTDIR/mark"
	stop_with INT $pid
	# it stopped at the end of a 256-block step (1 MiB; the first, unless this
	# host is very slow to send the signal), not after the 4 MiB written
	[ "$(json_get "$TESTDIR/v.json" '[(x["interrupted"], x["write_bytes"], x["verified_bytes"] % 1048576, x["verified_bytes"] < 4194304) for x in d["runs"][0]["repeats"]]')" = "[(False, 4194304, 0, True)]" ]
	[ "$(json_get "$TESTDIR/v.json" '(d["runs"][0]["failed"], d["interrupted"])')" = "(False, True)" ]
	grep -qE "^run 0: verify of repeat 1 was stopped after [123]MiB of 4MiB$" "$TESTDIR/out"
}

@test "data: random does not compress, compress=N compresses by about N percent, zero is zeros" {
	job d "[global]\nsize = 4m\nrepeat = 2\nop = write\nverify = after\n[r]\nfilename = $TESTDIR/r.dat\n[c]\nfilename = $TESTDIR/c.dat\ncompress = 50\n[z]\nfilename = $TESTDIR/z.dat\ndata = zero\n"
	run "$IOSWEEP" run "$TESTDIR/d.ini"
	[ "$status" -eq 0 ]
	[ "$(gzip -c "$TESTDIR/r.dat" | wc -c)" -gt $((4194304 * 99 / 100)) ]
	c=$(gzip -c "$TESTDIR/c.dat" | wc -c)
	[ "$c" -gt $((4194304 * 48 / 100)) ] && [ "$c" -lt $((4194304 * 56 / 100)) ]
	cmp -n 4194304 "$TESTDIR/z.dat" /dev/zero
	python3 "$BATS_TEST_DIRNAME/wdata.py" bytes 1 0 4194304 50 | cmp - "$TESTDIR/c.dat"
}

@test "dirty bytes at the end are bytes: a write result is read back by compare and plotted in bytes" {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed (apt-get install gnuplot-nox)"
	job d "[d]\nfilename = $TESTDIR/d.dat\nsize = 2m\nrepeat = 2\nop = write\nsync = none, end\n"
	"$IOSWEEP" run "$TESTDIR/d.ini" -o json:"$TESTDIR/a.json" >/dev/null
	"$IOSWEEP" run "$TESTDIR/d.ini" -o json:"$TESTDIR/b.json" >/dev/null
	[ "$(json_get "$TESTDIR/a.json" 'd["runs"][0]["repeats"][0]["dirty_end_bytes"]')" = 2097152.0 ]
	run "$IOSWEEP" compare "$TESTDIR/a.json" "$TESTDIR/b.json"
	[ "$status" -eq 0 ]
	run "$IOSWEEP" plot "$TESTDIR/a.json" --x sync --y dirty_end_bytes -o "$TESTDIR/d.svg"
	[ "$status" -eq 0 ]
	# the axis is in bytes (2 MiB dirty: 2.1 MB, ticks to 2 and beyond), not in percent of a fraction
	grep -q '>2</text>' "$TESTDIR/d.svg"
	grep -q '>median dirty_end_bytes (MB)</text>' "$TESTDIR/d.svg"
	! grep -q '(%)</text>' "$TESTDIR/d.svg"
}

# mpi N ARGS...: iosweep-mpi on N ranks of this host, under a timeout
mpi() {
	command -v mpirun >/dev/null || skip "mpirun is not installed (apt-get install openmpi-bin)"
	[ -x "$MPI" ] || skip "build/iosweep-mpi is not built (make mpi)"
	OMPI_MCA_plm_rsh_agent=false timeout 60 mpirun --allow-run-as-root --oversubscribe \
		-np "$@"
}
MPI=${IOSWEEP_MPI:-$BATS_TEST_DIRNAME/../../build/iosweep-mpi}

@test "under MPI the dirty bytes at the end count each file written once: a shared file once, every {rank} file" {
	job p "[global]\nsize = 1m\nrepeat = 1\nop = write\n[shared]\nfilename = $TESTDIR/s.dat\n[own]\nfilename = $TESTDIR/r{rank}.dat\n[flushed]\nfilename = $TESTDIR/f{rank}.dat\nsync = end\n"
	mpi 3 "$MPI" run "$TESTDIR/p.ini" -o json:"$TESTDIR/p.json" >/dev/null
	[ "$(json_get "$TESTDIR/p.json" '[(r["job"], x["write_bytes"], x["dirty_end_bytes"]) for r in d["runs"] for x in r["repeats"]]')" = "[('shared', 1048576, 1048576.0), ('own', 3145728, 3145728.0), ('flushed', 3145728, 0.0)]" ]
}

@test "the VM cold-page note is about buffered reads and writes alike: not O_DIRECT, not a write into cached pages" {
	job c "[c]\nfilename = $TESTDIR/c.dat\nsize = 1m\nrepeat = 2\ncache = fadvise\nop = write, readwrite, read\n[d]\nfilename = $TESTDIR/c.dat\nrepeat = 2\nop = write\ncache = direct, warm\n"
	run "$IOSWEEP" run "$TESTDIR/c.ini" -o json:"$TESTDIR/c.json" -o table
	[ "$status" -eq 0 ]
	reports=False
	for f in /sys/bus/virtio/drivers/virtio_balloon/virtio*/features; do
		[ -r "$f" ] && [ "$(cut -c6 "$f")" = 1 ] && reports=True
	done
	if [ $reports = True ]; then
		[ "$(json_get "$TESTDIR/c.json" '[r["cold_pages_from_host"] for r in d["runs"]]')" = "[True, True, True, False, False]" ]
		[ "$(echo "$output" | grep -c "^runs 0-2: cold buffered reads or writes on a VM")" = 1 ]
	else
		[ "$(json_get "$TESTDIR/c.json" '[r["cold_pages_from_host"] for r in d["runs"]]')" = "[False, False, False, False, False]" ]
		[[ "$output" != *"balloon returns freed pages"* ]]
	fi
}

@test "compare of write and readwrite results shows each direction's figures, the flushes' p99 and their change" {
	job c "[global]\nfilename = $TESTDIR/c.dat\nsize = 1m\nrepeat = 3\n[w]\nop = write\nsync = fdatasync\nsync_every = 64\n[x]\nop = readwrite\n[r]\n"
	"$IOSWEEP" run "$TESTDIR/c.ini" -o json:"$TESTDIR/old.json" >/dev/null
	"$IOSWEEP" run "$TESTDIR/c.ini" -o json:"$TESTDIR/new.json" >/dev/null
	run "$IOSWEEP" compare "$TESTDIR/old.json" "$TESTDIR/new.json"
	[ "$status" -eq 0 ]
	# each section with the runs it is about: per direction for the readwrite run, flushes for w
	sections=$(echo "$output" | awk '/ +OLD +NEW +change$/ { s = $0; sub(/ +OLD.*/, "", s) } /^[wxr] / && s { printf "%s: %s\n", s, $1 }')
	[ "$sections" = "time to end: w
time to end: x
time to end: r
throughput: w
throughput: x
throughput: r
IOPS: w
IOPS: x
IOPS: r
p99 latency: w
p99 latency: x
p99 latency: r
read throughput: x
write throughput: x
read p99 latency: x
write p99 latency: x
flush p99 latency: w" ]
	# the change is the medians' (from the result files, computed here), to the 10
	# significant digits compare -o json writes: within 1e-9 of the value (a rounding to a
	# fixed number of decimals could fall either side of a half)
	run "$IOSWEEP" compare "$TESTDIR/old.json" "$TESTDIR/new.json" -o json
	[ "$status" -eq 0 ]
	echo "$output" >"$TESTDIR/cmp.json"
	[ "$(json_get "$TESTDIR/cmp.json" '[sorted(r["figures"]) for r in d["runs"]]')" = "[['flush_lat_p99_ns', 'iops', 'lat_p99_ns', 'throughput_Bps', 'time_to_end_s'], ['iops', 'lat_p99_ns', 'read_lat_p99_ns', 'read_throughput_Bps', 'throughput_Bps', 'time_to_end_s', 'write_lat_p99_ns', 'write_throughput_Bps'], ['iops', 'lat_p99_ns', 'throughput_Bps', 'time_to_end_s']]" ]
	median() {
		json_get "$1" "sorted(x['$3'] if '$4' == '' else x['$3']['$4'] for x in d['runs'][$2]['repeats'])[1]"
	}
	for f in "1 write_throughput_Bps" "1 read_throughput_Bps" "0 flush_lat_ns p99"; do
		set -- $f
		old=$(median "$TESTDIR/old.json" $1 $2 ${3:-})
		new=$(median "$TESTDIR/new.json" $1 $2 ${3:-})
		key=$2
		[ "$key" = flush_lat_ns ] && key=flush_lat_p99_ns
		got=$(json_get "$TESTDIR/cmp.json" "d['runs'][$1]['figures']['$key']['change_pct']")
		python3 -c 'import math, sys; got, new, old = map(float, sys.argv[1:]); want = (new / old - 1) * 100; assert math.isclose(got, want, rel_tol=1e-9), (got, want)' \
			"$got" "$new" "$old"
	done
	# the figures that runs do not have are not in the CSV either
	run "$IOSWEEP" compare "$TESTDIR/old.json" "$TESTDIR/new.json" -o csv
	[ "$(echo "$output" | awk -F, '$1 == "r" { print $3 }' | sort | tr '\n' ' ')" = "iops lat_p99_ns throughput_Bps time_to_end_s " ]
	[ "$(echo "$output" | awk -F, '$2 == "geomean" { print $3 }' | wc -l)" = 9 ]
}

@test "a rename race never makes a write run write a user's file: each decision is taken on the descriptor written" {
	[ -x "$HELPERS/swapper" ] || skip "the swapper helper is not built (make check builds it)"
	job m "[m]\nfilename = $TESTDIR/t.dat\nsize = 16k\nrepeat = 1\n"
	"$IOSWEEP" run "$TESTDIR/m.ini" >/dev/null
	head -c 16k /dev/urandom >"$TESTDIR/mine"
	sum=$(sha256sum <"$TESTDIR/mine")
	ino=$(stat -c %i "$TESTDIR/mine")
	# the user's file (no record, no allow_write) and iosweep's trade names all the time
	"$HELPERS/swapper" "$TESTDIR/t.dat" "$TESTDIR/mine" 3000 &
	swapper=$!
	# 16 short write runs an invocation, each opening the file anew: 480 in all
	job w "[w]\nfilename = $TESTDIR/t.dat\nop = write\nbs = 512, 1k, 2k, 4k\nthreads = 1, 2, 3, 4\nrepeat = 1\ncache = keep\n"
	for i in $(seq 30); do
		rc=0
		"$IOSWEEP" run "$TESTDIR/w.ini" >/dev/null 2>"$TESTDIR/err" || rc=$?
		# a run may fail, saying why, but never crash
		[ "$rc" -le 2 ] || { cat "$TESTDIR/err"; kill $swapper; false; }
		cat "$TESTDIR/err" >>"$TESTDIR/errs"
	done
	kill $swapper
	wait $swapper || true
	sed 's/^iosweep: run [0-9]* /iosweep: run N /' "$TESTDIR/errs" | sort | uniq -c
	mine=$(find "$TESTDIR" -maxdepth 1 -inum "$ino")
	[ "$(sha256sum <"$mine")" = "$sum" ]
}

@test "a file of a pseudo file system is never written, whatever the job says: /proc/sys/kernel/hostname with allow_write" {
	[ "$(id -u)" = 0 ] && command -v unshare >/dev/null || skip "needs root and unshare"
	unshare --uts true 2>/dev/null || skip "cannot make a UTS namespace here"
	h=/proc/sys/kernel/hostname
	job h "[h]\nfilename = $h\nsize = 64\nbs = 64\nop = write\nrepeat = 1\nalloc = allocate\ncache = keep\nallow_write = $h\n"
	# in a UTS namespace of its own: a failure changes the host name of that namespace only
	for cmd in check run; do
		run unshare --uts sh -c "hostname iosweep-test; '$IOSWEEP' $cmd '$TESTDIR/h.ini' 2>&1; echo \"rc=\$? \$(hostname)\""
		echo "$output"
		[ "${lines[-1]}" = "rc=2 iosweep-test" ]
		[ "${lines[-2]}" = "iosweep: $TESTDIR/h.ini:9: $h is on proc, a file system of kernel interfaces, not of data: iosweep never writes there, whatever the job says (allow_write does not change this) (job 'h')" ]
	done
}

@test "check says that a write job's file is on a read-only mount, before run fails on it" {
	[ "$(id -u)" = 0 ] || skip "needs root to mount"
	mkdir "$TESTDIR/ro"
	job m "[m]\nfilename = $TESTDIR/ro/made.dat\nsize = 64k\nrepeat = 1\n"
	"$IOSWEEP" run "$TESTDIR/m.ini" -o json:"$TESTDIR/m.json"
	mount --bind -o ro "$TESTDIR/ro" "$TESTDIR/ro" || skip "cannot make a read-only bind mount here"
	job w "[w]\nfilename = $TESTDIR/ro/made.dat\nop = write\nrepeat = 1\n"
	job n "[n]\nfilename = $TESTDIR/ro/new.dat\nsize = 64k\nop = write\nrepeat = 1\n"
	run "$IOSWEEP" check "$TESTDIR/w.ini"
	s1=$status o1=$output
	run "$IOSWEEP" check "$TESTDIR/n.ini"
	s2=$status o2=$output
	umount "$TESTDIR/ro"
	[ "$s1" -eq 2 ]
	[ "$o1" = "iosweep: $TESTDIR/w.ini:2: $TESTDIR/ro/made.dat is on a read-only mount: it cannot be written (remount it read-write, or name a file elsewhere) (job 'w')" ]
	[ "$s2" -eq 2 ]
	[[ "$o2" == *"$TESTDIR/ro/new.dat is on a read-only mount"* ]]
}

@test "a file cut short before verify=after reads it back: the error names the file and the offset" {
	[ -e "$HELPERS/slow_shim.so" ] || skip "the slow shim is not built (make check builds it)"
	job v "[v]\nfilename = $TESTDIR/v.dat\nsize = 256k\nrepeat = 1\nop = write\nverify = after\ncache = keep\nengine = mmap\n"
	"$IOSWEEP" run "$TESTDIR/v.ini" >/dev/null # creates the file
	# mmap writes make no pread: only verify's are slowed, and the file is cut at the first
	IOSWEEP_SLOW_FILE=$TESTDIR/v.dat IOSWEEP_SLOW_MS=20 IOSWEEP_SLOW_MARK=$TESTDIR/mark \
		LD_PRELOAD=$HELPERS/slow_shim.so "$IOSWEEP" run "$TESTDIR/v.ini" >"$TESTDIR/out" 2>&1 &
	pid=$!
	wait_for test -e "$TESTDIR/mark"
	truncate -s 100000 "$TESTDIR/v.dat"
	rc=0
	wait $pid || rc=$?
	cat "$TESTDIR/out"
	[ "$rc" -eq 1 ]
	grep -q "^iosweep: run 0 (job 'v'): $TESTDIR/v.dat: verify: unexpected end of file at offset 100000$" "$TESTDIR/out"
}

@test "writes to a file system without backing storage (tmpfs) are reported as not durable, whatever sync says" {
	use_tmpfs
	job t "[global]\nfilename = $SHM/t.dat\nsize = 1m\nrepeat = 1\nop = write\n[none]\nsync = none\n[end]\nsync = end\n[r]\nop = read\n"
	run "$IOSWEEP" run "$TESTDIR/t.ini" -o json:"$TESTDIR/t.json" -o table
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/t.json" '[r["memory_fs"] for r in d["runs"]]')" = "['tmpfs', 'tmpfs', 'tmpfs']" ]
	for i in 0 1; do
		[[ "$output" == *"run $i: its file is on tmpfs, which keeps it only in memory: nothing it wrote is durable,"$'\n'"  whatever sync says, and its time to end is not a disk's"* ]]
		echo "$output" | grep -E "^$i +(none|end) .* tmpfs +[0-9a-f]{16}$"
	done
	# a read run writes nothing: no note; and a file on a disk is not on a memory file system
	! echo "$output" | grep -q "^run 2: its file is on tmpfs"
	job d "[d]\nfilename = $TESTDIR/d.dat\nsize = 1m\nrepeat = 1\nop = write\nsync = end\n"
	"$IOSWEEP" run "$TESTDIR/d.ini" -o json:"$TESTDIR/d.json" >/dev/null
	[ "$(json_get "$TESTDIR/d.json" 'd["runs"][0]["memory_fs"]')" = None ]
}
