#!/usr/bin/env bats
# The timed loop: what time to end includes, threads released together, and
# which hints are given when (iosweep(1) TIME TO END, iosweep-job(5) hint), and when
# the mmap engine maps the file anew to bound its memory.

load helpers

# median FILE JOB EXPR: the median over the repeats of JOB of EXPR on a repeat `r`
median() {
	python3 -c 'import json,statistics,sys
d = json.load(open(sys.argv[1]))
run = [x for x in d["runs"] if x["job"] == sys.argv[2]][0]
print(statistics.median(eval(sys.argv[3], {}, {"r": r}) for r in run["repeats"]))' "$@"
}

@test "time to end includes consuming the last block: consume=ints in one 64 MiB block" {
	# one block: everything consume does happens after the block's one read completed
	job t "[global]\nfilename = $TESTDIR/text\nsize = 64m\nfill = text\nbs = 64m\nrepeat = 3\n[none]\nconsume = none\n[ints]\nconsume = ints\n"
	run "$IOSWEEP" run "$TESTDIR/t.ini" -o json:"$TESTDIR/t.json"
	[ "$status" -eq 0 ]
	cpu_none=$(median "$TESTDIR/t.json" none 'r["cpu_user_s"] + r["cpu_sys_s"]')
	cpu_ints=$(median "$TESTDIR/t.json" ints 'r["cpu_user_s"] + r["cpu_sys_s"]')
	tte_ints=$(median "$TESTDIR/t.json" ints 'r["time_to_end_s"]')
	# one thread: the CPU time that parsing adds was spent inside the time to end
	python3 -c "import sys; c = $cpu_ints - $cpu_none; t = $tte_ints
assert c > 0, c
assert t >= c, 'time to end %g s < CPU time of consuming %g s' % (t, c)"
	thread=$(median "$TESTDIR/t.json" ints 'r["thread_time_to_end_s"][0]')
	python3 -c "assert $thread >= $cpu_ints - $cpu_none, $thread"
}

@test "threads are released together: start_skew_s, and time to end spans every thread" {
	head -c 8m /dev/urandom >"$TESTDIR/f"
	job s "[global]\nfilename = $TESTDIR/f\nrepeat = 3\n[s]\nthreads = 4\nengine = sync, aio, mmap, uring, psync2\n"
	run "$IOSWEEP" run "$TESTDIR/s.ini" -o json:"$TESTDIR/s.json" -o csv:"$TESTDIR/s.csv"
	[ "$status" -eq 0 ]
	python3 - "$TESTDIR/s.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for run in d["runs"]:
    for r in run["repeats"]:
        skew, tte, threads = r["start_skew_s"], r["time_to_end_s"], r["thread_time_to_end_s"]
        assert len(threads) == 4, threads
        # every thread ran within the repeat's time to end, which starts at the first
        # thread's first read and ends at the last one's last block: at most its own
        # time plus how much later it started
        assert 0 <= skew <= tte, (skew, tte)
        assert max(threads) <= tte + 1e-9, (threads, tte)
        assert tte <= max(threads) + skew + 1e-6, (threads, skew, tte)
        assert r["reads"] == 2048, r["reads"]
        # the first worker done: its end, from the earliest first read
        first = r["first_done_s"]
        assert min(threads) - 1e-9 <= first <= tte + 1e-9, (first, threads, tte)
EOF
	head -n1 "$TESTDIR/s.csv" | grep -q ',start_skew_s,first_done_s,'
}

@test "first_done_s: a worker held up alone ends the run long after the first was done, and the table says so" {
	head -c 1m /dev/urandom >"$TESTDIR/f"
	job s "[global]\nfilename = $TESTDIR/f\nrepeat = 1\ncache = keep\n[s]\nthreads = 2\n[t]\nthreads = 1\n"
	# one pread of the file waits 500 ms: the thread that makes it ends last
	run env IOSWEEP_SLOW_FILE="$TESTDIR/f" IOSWEEP_SLOW_MS=500 IOSWEEP_SLOW_COUNT=1 \
		LD_PRELOAD="$HELPERS/slow_shim.so" "$IOSWEEP" run "$TESTDIR/s.ini" -o table -o json:"$TESTDIR/s.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/s.json" '[r["time_to_end_s"] >= 0.5 and r["first_done_s"] < 0.5 * r["time_to_end_s"] for r in d["runs"][0]["repeats"]]')" = "[True]" ]
	[[ "$output" == *"run 0: its first worker was done at "*", the last at "*"(first_done_s, time_to_end_s in JSON)"* ]]
	# one worker: no first done apart from the last
	[ "$(json_get "$TESTDIR/s.json" 'd["runs"][1]["repeats"][0]["first_done_s"]')" = None ]
	[[ "$output" != *"run 1: its first worker"* ]]
}

@test "the table notes a start skew above 5% of the time to end exactly when there is one" {
	command -v taskset >/dev/null || skip "no taskset"
	head -c 8m /dev/urandom >"$TESTDIR/f"
	# two threads on one CPU: the second usually starts a time slice after the first
	job s "[global]\nfilename = $TESTDIR/f\nrepeat = 3\n[s]\nthreads = 2\n[t]\nthreads = 1\n"
	run taskset -c 0 "$IOSWEEP" run "$TESTDIR/s.ini" -o table -o json:"$TESTDIR/s.json"
	[ "$status" -eq 0 ]
	for k in 0 1; do
		skewed=$(json_get "$TESTDIR/s.json" "max(r['start_skew_s'] / r['time_to_end_s'] for r in d['runs'][$k]['repeats']) > 0.05")
		if [ "$skewed" = True ]; then
			[[ "$output" == *"run $k: the threads' first reads were up to "*"% of the time to end apart"* ]]
		else
			[[ "$output" != *"run $k: the threads' first reads"* ]]
		fi
	done
	# one thread has no skew
	[ "$(json_get "$TESTDIR/s.json" 'd["runs"][1]["repeats"][0]["start_skew_s"]')" = 0.0 ]
}

# hints NAME JOB-LINES: runs a job on $TESTDIR/f with the hint shim; the calls in $TESTDIR/NAME.log
hints() {
	job "$1" "[global]\nfilename = $TESTDIR/f\nrepeat = 2\ncache = keep\n[$1]\n$2\n"
	IOSWEEP_HINT_FILE=$TESTDIR/f IOSWEEP_HINT_LOG=$TESTDIR/$1.log LD_PRELOAD=$HELPERS/hint_shim.so \
		"$IOSWEEP" run "$TESTDIR/$1.ini" >/dev/null
	touch "$TESTDIR/$1.log"
}

@test "mmap runs get madvise only, the others posix_fadvise only, before every repeat" {
	head -c 4m /dev/urandom >"$TESTDIR/f"
	# POSIX_FADV_RANDOM = MADV_RANDOM = 1, ..._SEQUENTIAL = 2, MADV_NORMAL = 0
	hints sync "engine = sync\nhint = random"
	[ "$(grep -c '^fadvise 1$' "$TESTDIR/sync.log")" -eq 2 ]
	! grep -q '^madvise' "$TESTDIR/sync.log"
	hints mmap "engine = mmap\nhint = sequential"
	[ "$(grep -c '^madvise 2$' "$TESTDIR/mmap.log")" -eq 2 ]
	! grep -q '^fadvise' "$TESTDIR/mmap.log"
	# sparse mmap without a hint: MADV_RANDOM, so faults do not read ahead megabytes
	hints sparse "engine = mmap\nspacing = 1m"
	[ "$(grep -c '^madvise 1$' "$TESTDIR/sparse.log")" -eq 2 ]
	hints dense "engine = mmap"
	[ "$(grep -c '^madvise 0$' "$TESTDIR/dense.log")" -eq 2 ]
	hints none "engine = uring"
	! grep -q '^fadvise' "$TESTDIR/none.log"
}

@test "the mmap engine maps the file anew once 32 MiB is mapped, and not before; a helper only where a share spans more (strace)" {
	command -v strace >/dev/null || skip "strace is not installed"
	# 1 GiB of holes, a 4 KiB read every 1 MiB: 1024 reads of 4 KiB, each counted with the
	# kernel's 64 KiB of fault-around, reach 32 MiB after 482 of them: the worker goes
	# on in a fresh mapping twice, each time the helper's spare (the helper unmaps the
	# old one) or, when the helper is behind, one it maps itself
	truncate -s 1g "$TESTDIR/holes"
	job m "[global]\nfilename = $TESTDIR/holes\ncache = keep\nrepeat = 1\n[m]\nengine = mmap\nspacing = 1m\n"
	# (a call cut by another thread's is "<unfinished ...>": match without the closing parenthesis)
	strace -f -e trace=mmap,munmap -o "$TESTDIR/m.tr" \
		"$IOSWEEP" run "$TESTDIR/m.ini" -q -o json:"$TESTDIR/m.json"
	main=$(head -1 "$TESTDIR/m.tr" | cut -d' ' -f1)
	# what is mapped: the share, from the first read to the end of the last (1023 MiB + 4 KiB)
	len=$((1023 * 1048576 + 4096))
	maps() { grep -c "^$1 .*mmap(NULL, $len, PROT_READ, MAP_SHARED" "$TESTDIR/m.tr" || true; }
	unmaps() { grep -c "^$1 .*munmap(0x[0-9a-f]*, $len" "$TESTDIR/m.tr" || true; }
	helper=$(grep -v "^$main " "$TESTDIR/m.tr" | grep -m1 "munmap(0x[0-9a-f]*, $len\\|mmap(NULL, $len" | cut -d' ' -f1)
	[ -n "$helper" ]
	# drops: the worker's own mappings after advise's first, and the helper's unmappings
	[ $(($(maps "$main") - 1 + $(unmaps "$helper"))) -eq 2 ]
	# every mapping is unmapped
	[ "$(grep -c "mmap(NULL, $len" "$TESTDIR/m.tr")" -eq "$(grep -c "munmap(0x[0-9a-f]*, $len" "$TESTDIR/m.tr")" ]
	# 8 MiB read densely: mapped once (and no helper: nothing to map for)
	head -c 8m /dev/urandom >"$TESTDIR/f"
	job d "[global]\nfilename = $TESTDIR/f\ncache = keep\nrepeat = 1\n[d]\nengine = mmap\n"
	strace -f -e trace=mmap -o "$TESTDIR/d.tr" \
		"$IOSWEEP" run "$TESTDIR/d.ini" -q -o json:"$TESTDIR/d.json"
	[ "$(grep -c 'mmap(NULL, 8388608, PROT_READ, MAP_SHARED' "$TESTDIR/d.tr")" -eq 1 ]
	# 64 MiB in 4 threads: each worker maps its 16 MiB share, at its offset, once, and
	# has no helper (a helper's spare would be a fifth mapping)
	truncate -s 64m "$TESTDIR/f"
	strace -f -e trace=mmap -o "$TESTDIR/d.tr" \
		"$IOSWEEP" run "$TESTDIR/d.ini" -q --set threads=4 -o json:"$TESTDIR/d.json"
	[ "$(grep -c 'mmap(NULL, .*MAP_SHARED' "$TESTDIR/d.tr")" -eq 4 ]
	for at in 0 0x1000000 0x2000000 0x3000000; do
		grep -q "mmap(NULL, 16777216, PROT_READ, MAP_SHARED, [0-9]*, $at)" "$TESTDIR/d.tr"
	done
	# in random order each share spans the file: a mapping of it each, and a helper each
	strace -f -e trace=mmap -o "$TESTDIR/d.tr" \
		"$IOSWEEP" run "$TESTDIR/d.ini" -q --set threads=4 --set pattern=random -o json:"$TESTDIR/d.json"
	[ "$(grep -c 'mmap(NULL, 67108864, PROT_READ, MAP_SHARED' "$TESTDIR/d.tr")" -gt 4 ]
	rm -f "$TESTDIR/holes"
}

@test "mmap above its 32 MiB budget, through fresh mappings and the helper's, reads and writes the bytes sync does" {
	# 48 MiB: every pass goes on in a fresh mapping at least once; random and sparse
	# passes too, in 1 and 2 threads, cold and cached; then written through mmap and
	# read back by sync
	job m "[global]\nfilename = $TESTDIR/m.dat\nsize = 48m\nrepeat = 2\nconsume = checksum\nengine = sync, mmap\nthreads = 1, 2\ncache = keep, fadvise\n[dense]\n[random]\npattern = random\n[sparse]\nspacing = 192k\n"
	"$IOSWEEP" run "$TESTDIR/m.ini" -q -o json:"$TESTDIR/m.json"
	# per job, threads and cache: both engines and both repeats give one checksum
	[ "$(json_get "$TESTDIR/m.json" 'len({(r["job"], r["params"]["threads"], r["params"]["cache"]) for r in d["runs"]})')" = 12 ]
	[ "$(json_get "$TESTDIR/m.json" 'all(len({x["checksum"] for s in d["runs"] if (s["job"], s["params"]["threads"], s["params"]["cache"]) == (r["job"], r["params"]["threads"], r["params"]["cache"]) for x in s["repeats"]}) == 1 for r in d["runs"])')" = True ]
	job w "[global]\nfilename = $TESTDIR/m.dat\nsize = 48m\nrepeat = 1\nconsume = checksum\n[w]\nop = write\nengine = mmap\nthreads = 2\nsync = end\n[r]\nengine = sync\n"
	"$IOSWEEP" run "$TESTDIR/w.ini" -q -o json:"$TESTDIR/w.json"
	[ "$(json_get "$TESTDIR/w.json" 'd["runs"][0]["repeats"][0]["checksum"] == d["runs"][1]["repeats"][0]["checksum"]')" = True ]
	rm -f "$TESTDIR/m.dat"
}

@test "mmap with room for one mapping of the file only (ulimit -v): the helper's give way, threads map their shares, and it reads what sync reads" {
	grep -q '__asan_init\|__tsan_init' "$IOSWEEP" && skip "the sanitizers reserve terabytes of address space"
	# 1 GiB of holes, a 4 KiB read every 1 MiB; iosweep itself takes under 100 MiB here
	truncate -s 1g "$TESTDIR/holes"
	job l "[global]\nfilename = $TESTDIR/holes\ncache = keep\nrepeat = 2\nspacing = 1m\nconsume = checksum\n[s]\nengine = sync\n[m]\nengine = mmap\n"
	(ulimit -v $(((1024 + 200) * 1024)); "$IOSWEEP" run "$TESTDIR/l.ini" -q -o json:"$TESTDIR/l.json")
	[ "$(json_get "$TESTDIR/l.json" '[r["failed"] for r in d["runs"]]')" = "[False, False]" ]
	[ "$(json_get "$TESTDIR/l.json" 'len({x["checksum"] for r in d["runs"] for x in r["repeats"]})')" = 1 ]
	# 8 threads in 3 GiB: each maps its 128 MiB share, not the file (8 GiB of
	# mappings, and as much again for the helpers' spares, failed with ENOMEM)
	(ulimit -v $((3 * 1024 * 1024)); "$IOSWEEP" run "$TESTDIR/l.ini" -q --set threads=8 -o json:"$TESTDIR/l.json")
	[ "$(json_get "$TESTDIR/l.json" '[r["failed"] for r in d["runs"]]')" = "[False, False]" ]
	[ "$(json_get "$TESTDIR/l.json" 'len({x["checksum"] for r in d["runs"] for x in r["repeats"]})')" = 1 ]
	rm -f "$TESTDIR/holes"
}

@test "cache=direct gives no advice: hints steer a page cache the reads bypass" {
	head -c 4m /dev/urandom >"$TESTDIR/f"
	python3 -c 'import os,sys
try:
    os.close(os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECT))
except OSError:
    sys.exit(1)' "$TESTDIR/f" || skip "no O_DIRECT on $TESTDIR"
	hints direct "engine = sync\ncache = direct\nhint = random"
	! grep -q '^fadvise' "$TESTDIR/direct.log"
}

@test "resident_before is measured after the hints: willneed after cache=fadvise" {
	head -c 8m /dev/urandom >"$TESTDIR/f"
	job w "[global]\nfilename = $TESTDIR/f\nrepeat = 2\ncache = fadvise\nconsume = none\n[w]\nhint = willneed\n[n]\nhint = none\n"
	run "$IOSWEEP" run "$TESTDIR/w.ini" -o json:"$TESTDIR/w.json"
	[ "$status" -eq 0 ]
	r=$(json_get "$TESTDIR/w.json" 'd["runs"][0]["repeats"][0]["resident_before"]')
	[ "$r" != None ] || skip "residency cannot be measured here"
	python3 -c "assert $r >= 0.9, $r"
	# the policy did its part before the hint: the cache state is as asked
	[ "$(json_get "$TESTDIR/w.json" 'd["runs"][0]["repeats"][1]["cache_as_asked"]')" = True ]
	python3 -c "assert $(json_get "$TESTDIR/w.json" 'd["runs"][1]["repeats"][1]["resident_before"]') <= 0.01"
}

@test "threads other than the main one do their system calls on descriptor tables of their own" {
	# a shared table costs every pread a reference on the file (thread_own_files, src/lib/threads.h)
	head -c 4m /dev/urandom >"$TESTDIR/f"
	job t "[global]\nfilename = $TESTDIR/f\nrepeat = 2\nfill = existing\n[t]\nthreads = 3\n"
	# stdout a pipe: the stdout watcher thread polls it
	IOSWEEP_FILES_LOG=$TESTDIR/log LD_PRELOAD=$HELPERS/files_shim.so \
		"$IOSWEEP" run "$TESTDIR/t.ini" -o json:"$TESTDIR/t.json" | cat >/dev/null
	# two workers a repeat besides the main thread's, each with its own table; the watcher too
	[ "$(grep -c '^pread own [0-9]*$' "$TESTDIR/log")" -eq 4 ]
	grep -q '^poll own ' "$TESTDIR/log"
	! grep -q shared "$TESTDIR/log"
}

@test "the stdout watcher's table holds stdout and its own pipe only, not what the main thread had open" {
	# a copy of the main thread's table would keep, for the whole run, the
	# write end of the pipe from systemd-detect-virt, whose output the main
	# thread reads to the end: a hang (thread_own_files, src/lib/threads.h)
	head -c 1m /dev/urandom >"$TESTDIR/f"
	job t "[global]\nfilename = $TESTDIR/f\nfill = existing\n[t]\n"
	# descriptors 5 to 9 open in the main thread when the watcher starts
	IOSWEEP_FILES_LOG=$TESTDIR/log LD_PRELOAD=$HELPERS/files_shim.so \
		"$IOSWEEP" run "$TESTDIR/t.ini" 5</dev/null 6</dev/null 7</dev/null 8</dev/null 9</dev/null |
		cat >/dev/null
	cat "$TESTDIR/log"
	grep -qx 'poll own 2' "$TESTDIR/log"
}

@test "every read of the timed loop runs with cancellation off and asynchronous, in every worker" {
	# glibc's pread then skips the two atomic operations it makes around the
	# system call once a process has a second thread (worker_thread, src/run/run.c)
	head -c 4m /dev/urandom >"$TESTDIR/f"
	for threads in 1 3; do
		job t "[global]\nfilename = $TESTDIR/f\nrepeat = 2\nfill = existing\n[t]\nthreads = $threads\n"
		rm -f "$TESTDIR/log"
		# stdout a pipe: the stdout watcher makes a second thread even with threads = 1
		IOSWEEP_FILES_LOG=$TESTDIR/log LD_PRELOAD=$HELPERS/files_shim.so \
			"$IOSWEEP" run "$TESTDIR/t.ini" -o json:"$TESTDIR/t.json" | cat >/dev/null
		reads=$(json_get "$TESTDIR/t.json" 'sum(r["reads"] for r in d["runs"][0]["repeats"])')
		[ "$reads" -eq 2048 ]
		# one line per process that loaded the shim (iosweep, and what it runs)
		cat "$TESTDIR/log"
		[ "$(awk '/^pread cancel/ { n += $4 } END { print n }' "$TESTDIR/log")" -eq "$reads" ]
	done
}

@test "SIGINT mid-read on mmap over a file above 32 MiB (its unmapping helpers at work) exits 130 at once, results valid" {
	# 64 MiB of holes, random 4 KiB reads in 2 threads: each worker goes on in a fresh
	# mapping every ~480 reads, its helper unmapping the old one; a helper that did not
	# stop would hang the run at its teardown
	truncate -s 64m "$TESTDIR/big"
	job h "[global]\nfilename = $TESTDIR/big\nrepeat = 1\n[quick]\nsize = 1m\n[slow]\nengine = mmap\npattern = random\ncount = 1000000000\nruntime = 60s\nthreads = 2\n"
	"$IOSWEEP" run "$TESTDIR/h.ini" -o json:"$TESTDIR/h.json" >"$TESTDIR/out" 2>&1 &
	pid=$!
	wait_for json_runs "$TESTDIR/h.json" 1
	sleep 0.5
	# two workers, and a helper each, besides the stdout watcher if any
	[ "$(ls /proc/$pid/task | wc -l)" -ge 3 ]
	# a helper's descriptor table holds the file only (thread_own_files)
	only=0
	for t in /proc/$pid/task/*; do
		[ "$(ls "$t/fd" | wc -l)" -eq 1 ] && [ "$(readlink "$t"/fd/*)" = "$TESTDIR/big" ] && only=$((only + 1))
	done
	[ "$only" -ge 2 ]
	kill -INT $pid
	for _ in $(seq 100); do
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	kill -0 $pid 2>/dev/null && { kill -9 $pid; echo "still running 10 s after SIGINT"; false; }
	rc=0
	wait $pid || rc=$?
	[ "$rc" -eq 130 ]
	[ "$(json_get "$TESTDIR/h.json" 'd["interrupted"], d["runs"][1]["repeats"][0]["interrupted"]')" = "(True, True)" ]
	[ "$(json_get "$TESTDIR/h.json" 'd["runs"][1]["repeats"][0]["reads"] > 1000')" = True ]
	rm -f "$TESTDIR/big"
}
