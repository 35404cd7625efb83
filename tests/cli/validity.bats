#!/usr/bin/env bats
# Every number holds up: an interrupted repeat is kept but counted nowhere,
# and a ratio names the run it is against.

load helpers

# slow_run FILE INI AFTER ARGS...: runs INI in the background with preads of
# FILE slowed (1 s each) after the first AFTER, and sends SIGINT once the
# first slow read has begun; sets rc.  Output in $TESTDIR/out.
slow_run() {
	local file=$1 ini=$2 after=$3 pid
	shift 3
	IOSWEEP_SLOW_FILE=$file IOSWEEP_SLOW_AFTER=$after IOSWEEP_SLOW_MS=1000 \
		IOSWEEP_SLOW_MARK=$TESTDIR/slow LD_PRELOAD=$HELPERS/slow_shim.so \
		"$IOSWEEP" run "$ini" "$@" >"$TESTDIR/out" 2>&1 &
	pid=$!
	wait_for test -e "$TESTDIR/slow"
	kill -INT $pid
	rc=0
	wait $pid || rc=$?
}

@test "an interrupted repeat is kept and marked but left out of the summary, the table and compare" {
	head -c 64k /dev/urandom >"$TESTDIR/f"
	job i "[a]\nfilename = $TESTDIR/f\nbs = 4k\nrepeat = 3\ncache = keep\n"
	# 16 reads a repeat: the third repeat is stopped after 8 reads and one slow one
	slow_run "$TESTDIR/f" "$TESTDIR/i.ini" 40 -o json:"$TESTDIR/i.json" -o table
	[ "$rc" -eq 130 ]
	j=$TESTDIR/i.json
	[ "$(json_get "$j" '[r["interrupted"] for r in d["runs"][0]["repeats"]]')" = "[False, False, True]" ]
	[ "$(json_get "$j" 'd["runs"][0]["repeats"][2]["reads"] < 16')" = True ]
	[ "$(json_get "$j" 'd["runs"][0]["summary"]["time_to_end_s"]["n"]')" = 2 ]
	[ "$(json_get "$j" '[d["runs"][0]["summary"]["reads"][k] for k in ("n", "min", "max")]')" = "[2, 16.0, 16.0]" ]
	grep -q "(2 of 3)" "$TESTDIR/out"
	run "$IOSWEEP" compare "$j" "$j" -o json
	[ "$status" -eq 0 ]
	echo "$output" >"$TESTDIR/c.json"
	[ "$(json_get "$TESTDIR/c.json" 'd["runs"][0]["figures"]["time_to_end_s"]["old"]["n"]')" = 2 ]
}

@test "a run whose only repeat was interrupted shows no figures" {
	head -c 64k /dev/urandom >"$TESTDIR/f"
	job i "[a]\nfilename = $TESTDIR/f\nbs = 4k\nrepeat = 1\ncache = keep\n"
	slow_run "$TESTDIR/f" "$TESTDIR/i.ini" 4 -o json:"$TESTDIR/i.json" -o table
	[ "$rc" -eq 130 ]
	[ "$(json_get "$TESTDIR/i.json" 'd["runs"][0]["summary"]["time_to_end_s"]["n"]')" = 0 ]
	[ "$(json_get "$TESTDIR/i.json" 'd["runs"][0]["repeats"][0]["interrupted"]')" = True ]
	grep -qE "^ *0 .*interrupted" "$TESTDIR/out"
}

@test "a ratio names the baseline run with the same shared parameters; the baseline job's runs are compared with its first" {
	head -c 256k /dev/urandom >"$TESTDIR/f"
	job b "[global]\nfilename = $TESTDIR/f\nrepeat = 1\nconsume = none\n[seq]\nbs = 4k, 8k\n[rev]\npattern = reverse\nbs = 4k, 8k\nbaseline = seq\n[any]\npattern = reverse\nengine = sync, mmap\nbaseline = seq\n"
	"$IOSWEEP" run "$TESTDIR/b.ini" -o json:"$TESTDIR/b.json" -o table >"$TESTDIR/out"
	j=$TESTDIR/b.json
	# runs: 0 seq 4k, 1 seq 8k, 2 rev 4k, 3 rev 8k, 4 any sync, 5 any mmap
	[ "$(json_get "$j" '[(r["index"], r["baseline"]["job"], r["baseline"]["run"]) for r in d["runs"]]')" = \
	  "[(0, 'seq', 0), (1, 'seq', 0), (2, 'seq', 0), (3, 'seq', 1), (4, 'seq', 0), (5, 'seq', 0)]" ]
	[ "$(json_get "$j" 'd["runs"][0]["baseline"]["ratio"]')" = 1.0 ]
	# the table: one "baseline", every other ratio says what it is against
	[ "$(grep -cE '^ *[0-9].* baseline$' "$TESTDIR/out" || true)" = 1 ]
	grep -qE '^ *1 .*× (faster|slower) vs 0$' "$TESTDIR/out"
	grep -qE '^ *3 .*× (faster|slower) vs 1$' "$TESTDIR/out"
}

@test "cold buffered runs are flagged once when the VM's balloon returns freed pages to the host; O_DIRECT and cached runs are not" {
	head -c 1m /dev/urandom >"$TESTDIR/f"
	job h "[a]\nfilename = $TESTDIR/f\nrepeat = 2\ncache = fadvise, direct, warm\n"
	"$IOSWEEP" run "$TESTDIR/h.ini" -o json:"$TESTDIR/h.json" -o table >"$TESTDIR/out"
	j=$TESTDIR/h.json
	# what this machine's sysfs says, read here (bit 5: VIRTIO_BALLOON_F_REPORTING)
	reports=False
	for f in /sys/bus/virtio/drivers/virtio_balloon/virtio*/features; do
		[ -r "$f" ] && [ "$(cut -c6 "$f")" = 1 ] && reports=True
	done
	[ "$(json_get "$j" 'd["host"]["virtualization"]["virtio_balloon"] is not None and d["host"]["virtualization"]["virtio_balloon"]["free_page_reporting"]')" = $reports ]
	if [ $reports = True ]; then
		[ "$(json_get "$j" '[r["cold_pages_from_host"] for r in d["runs"]]')" = "[True, False, False]" ]
		[ "$(grep -c "balloon returns freed pages" "$TESTDIR/out")" = 1 ]
		grep -q "^run 0: cold buffered reads or writes" "$TESTDIR/out"
	else
		[ "$(json_get "$j" '[r["cold_pages_from_host"] for r in d["runs"]]')" = "[False, False, False]" ]
		! grep -q "balloon returns freed pages" "$TESTDIR/out"
	fi
	for k in transparent_hugepage cpu_governor; do
		json_get "$j" "d['host']['$k']" >/dev/null
	done
}

@test "the balloon note follows what was measured: not for a file that stayed cached (tmpfs) or a run that measured nothing" {
	reports=False
	for f in /sys/bus/virtio/drivers/virtio_balloon/virtio*/features; do
		[ -r "$f" ] && [ "$(cut -c6 "$f")" = 1 ] && reports=True
	done
	[ $reports = True ] || skip "this machine's balloon does not report freed pages: nothing is flagged"
	[ -e "$HELPERS/eio_shim.so" ] || skip "the EIO shim is not built (make check builds it)"
	[ -d /dev/shm ] && [ -w /dev/shm ] || skip "no writable /dev/shm (tmpfs)"
	shm=$(mktemp -d /dev/shm/iosweep-bats.XXXXXX)
	head -c 1m /dev/urandom >"$shm/f"
	head -c 1m /dev/urandom >"$TESTDIR/f"
	head -c 1m /dev/urandom >"$TESTDIR/bad"
	# tmpfs cannot evict (cached 100%); a run whose first read fails measures nothing
	job h "[global]\nrepeat = 1\ncache = fadvise\n[t]\nfilename = $shm/f\n[bad]\nfilename = $TESTDIR/bad\n[disk]\nfilename = $TESTDIR/f\n"
	run env IOSWEEP_EIO_FILE="$TESTDIR/bad" IOSWEEP_EIO_OFFSET=0 LD_PRELOAD="$HELPERS/eio_shim.so" \
		"$IOSWEEP" run "$TESTDIR/h.ini" -q -o json:"$TESTDIR/h.json"
	rm -rf "$shm"
	[ "$(json_get "$TESTDIR/h.json" '[r["cold_pages_from_host"] for r in d["runs"]]')" = "[False, False, True]" ]
}

# interrupt_cache POLICY SIZE SHIM-SETTINGS...: runs one repeat of engine=mmap
# (whose reads the shim does not slow) over a file of SIZE with the cache
# step slowed by the shim, sends SIGINT once the slow step has begun, and
# checks that iosweep ends with 130 within 8 s though the step alone would
# take 30 s or more, with no repeat measured.
interrupt_cache() {
	local policy=$1 size=$2 pid t0 t1 rc=0
	shift 2
	truncate -s "$size" "$TESTDIR/big"
	job c "[a]\nfilename = $TESTDIR/big\nengine = mmap\nbs = 1m\nrepeat = 1\nconsume = none\ncache = $policy\n"
	env IOSWEEP_SLOW_FILE="$TESTDIR/big" IOSWEEP_SLOW_MARK="$TESTDIR/slow" "$@" \
		LD_PRELOAD="$HELPERS/slow_shim.so" \
		"$IOSWEEP" run "$TESTDIR/c.ini" -o json:"$TESTDIR/c.json" >"$TESTDIR/out" 2>&1 &
	pid=$!
	wait_for test -e "$TESTDIR/slow"
	t0=$(date +%s%N)
	kill -INT $pid
	wait $pid || rc=$?
	t1=$(date +%s%N)
	cat "$TESTDIR/out"
	[ "$rc" -eq 130 ]
	[ $(((t1 - t0) / 1000000)) -lt 8000 ]
	[ "$(json_get "$TESTDIR/c.json" 'd["interrupted"] and all(not r["repeats"] for r in d["runs"])')" = True ]
}

@test "SIGINT during cache=warm of a slow file ends the run at once, exit 130" {
	# 32 reads of 1 MiB, 1 s each
	interrupt_cache warm 32m IOSWEEP_SLOW_MS=1000
}

@test "SIGINT during cache=fadvise of a large file ends the run at once, exit 130" {
	# write-back and eviction at 1 s per GiB of a 64 GiB sparse file
	interrupt_cache fadvise 64g IOSWEEP_SLOW_MS_PER_GIB=1000
}

@test "SIGINT during cache=drop's sync ends the run at once, exit 130" {
	[ "$(id -u)" = 0 ] || skip "cache=drop needs root"
	[ -w /proc/sys/vm/drop_caches ] || skip "/proc/sys/vm/drop_caches is not writable here"
	interrupt_cache drop 1m IOSWEEP_SLOW_SYNC_MS=30000
}

@test "hint=willneed with cache=direct is refused at check time, naming the line" {
	head -c 64k /dev/urandom >"$TESTDIR/f"
	job w "[a]\nfilename = $TESTDIR/f\ncache = direct\nhint = none, willneed\n"
	run "$IOSWEEP" check "$TESTDIR/w.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == "iosweep: $TESTDIR/w.ini:4: hint=willneed reads the file into the page cache, which cache=direct bypasses"* ]]
	job s "[a]\nfilename = $TESTDIR/f\ncache = direct\nhint = sequential, random, noreuse\n"
	run "$IOSWEEP" check "$TESTDIR/s.ini"
	[ "$status" -eq 0 ]
}

@test "random runs without count say nothing of count; with one, say it once" {
	head -c 64k /dev/urandom >"$TESTDIR/f"
	job p "[a]\nfilename = $TESTDIR/f\npattern = random, random-replace\n"
	run "$IOSWEEP" plan "$TESTDIR/p.ini"
	[ "$status" -eq 0 ]
	[[ "$output" != *"count="* ]]
	[[ "$output" == *"random-replace     16"* ]]
	job q "[a]\nfilename = $TESTDIR/f\npattern = random, random-replace\ncount = 40\n"
	run "$IOSWEEP" plan "$TESTDIR/q.ini"
	[[ "$output" == *" count=40 "* ]]
}
