#!/usr/bin/env bats
# Cache policies are applied before every repeat, checked, and reported.

load helpers

is_tmpfs() {
	[ "$(stat -f -c %T "$TESTDIR")" = tmpfs ]
}

@test "warm leaves the file resident and fadvise evicts it, as measured before each repeat" {
	is_tmpfs && skip "$TESTDIR is tmpfs, whose pages cannot be evicted (set IOSWEEP_TEST_DIR)"
	job c "[a]\nfilename = $TESTDIR/f\nsize = 4m\ncache = warm, fadvise\nrepeat = 2\n"
	run "$IOSWEEP" run "$TESTDIR/c.ini" -o json:"$TESTDIR/c.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/c.json" 'all(r["resident_before"] >= 0.99 and r["cache_as_asked"] for r in d["runs"][0]["repeats"])')" = True ]
	[ "$(json_get "$TESTDIR/c.json" 'all(r["resident_before"] <= 0.01 and r["cache_as_asked"] for r in d["runs"][1]["repeats"])')" = True ]
	# after a dense read of the whole file, it is all cached
	[ "$(json_get "$TESTDIR/c.json" 'd["runs"][1]["repeats"][0]["resident_after"] >= 0.99')" = True ]
}

@test "fadvise evicts what the mmap engine's last repeat mapped: every repeat of a sparse pass is cold" {
	is_tmpfs && skip "$TESTDIR is tmpfs, whose pages cannot be evicted (set IOSWEEP_TEST_DIR)"
	# a block every 256 KiB: 16 blocks, 0.4% of the file (the mapping of a
	# repeat kept them cached for the next, under the 1% a warning needs)
	job c "[a]\nfilename = $TESTDIR/f\nsize = 4m\nbs = 4k\nspacing = 256k\nengine = mmap\ncache = fadvise\nrepeat = 3\n"
	"$IOSWEEP" run "$TESTDIR/c.ini" -q -o json:"$TESTDIR/c.json"
	[ "$(json_get "$TESTDIR/c.json" '[r["major_faults"] for r in d["runs"][0]["repeats"]]')" = "[16, 16, 16]" ]
	[ "$(json_get "$TESTDIR/c.json" 'all(r["resident_before"] == 0 for r in d["runs"][0]["repeats"])')" = True ]
}

@test "a cold policy is held to the blocks a sparse pass reads: 1% of the file still cached can be all of them" {
	is_tmpfs && skip "$TESTDIR is tmpfs, whose pages cannot be evicted (set IOSWEEP_TEST_DIR)"
	job c "[a]\nfilename = $TESTDIR/f\nsize = 8m\nbs = 4k\nspacing = 512k, 4k\ncache = fadvise\nrepeat = 2\n"
	"$IOSWEEP" run "$TESTDIR/c.ini" -q
	# another process maps the 16 blocks the sparse pass reads (64 KiB, 0.8%
	# of the file), which no eviction drops, until its flag file is removed
	python3 - "$TESTDIR/f" "$TESTDIR/pinned" <<'EOF' &
import mmap, os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
m = mmap.mmap(fd, 0, prot=mmap.PROT_READ)
m.madvise(mmap.MADV_RANDOM)  # no read-ahead: the 16 blocks alone
touched = sum(m[off] for off in range(0, len(m), 512 << 10))
open(sys.argv[2], "w").close()
while os.path.exists(sys.argv[2]):
    time.sleep(0.05)
EOF
	for _ in $(seq 200); do [ -e "$TESTDIR/pinned" ] && break; sleep 0.05; done
	[ "$(fincore --noheadings --raw -o PAGES "$TESTDIR/f")" -eq 16 ]
	run "$IOSWEEP" run "$TESTDIR/c.ini" -q -o json:"$TESTDIR/c.json"
	rm -f "$TESTDIR/pinned"
	wait
	echo "$output"
	[ "$status" -eq 0 ]
	# the sparse pass reads only cached blocks: not cold, whatever share of the file that is
	[ "$(json_get "$TESTDIR/c.json" '[(r["resident_before"], r["cache_as_asked"]) for r in d["runs"][0]["repeats"]]')" = "[(0.0078125, False), (0.0078125, False)]" ]
	[ "${lines[0]}" = "iosweep: warning: run 0: 2 of 2 repeats started with 1% of the file in the page cache (64KiB of it, more than 1% of the 64KiB a repeat transfers), not what cache=fadvise asks for" ]
	# the dense pass reads 8 MiB, of which the same 64 KiB are under 1%
	[ "$(json_get "$TESTDIR/c.json" 'all(r["cache_as_asked"] for r in d["runs"][1]["repeats"])')" = True ]
	[ "${#lines[@]}" -eq 1 ]
}

@test "residency agrees with fincore" {
	is_tmpfs && skip "$TESTDIR is tmpfs (set IOSWEEP_TEST_DIR)"
	# read the first quarter of an evicted file, without read-ahead; leave the cache as it is after
	job c "[a]\nfilename = $TESTDIR/f\nsize = 4m\nbs = 4k\nspacing = 16k\ncache = fadvise\nhint = random\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/c.ini" -o json:"$TESTDIR/c.json"
	[ "$status" -eq 0 ]
	pages=$(fincore --bytes --noheadings --raw -o PAGES "$TESTDIR/f")
	ours=$(json_get "$TESTDIR/c.json" 'round(d["runs"][0]["repeats"][0]["resident_after"] * 1024)')
	echo "fincore $pages pages, iosweep $ours"
	[ "$pages" -gt 0 ]
	[ $((pages - ours)) -le 2 ] && [ $((ours - pages)) -le 2 ]
}

@test "the table shows the cache state measured before the first repeat" {
	is_tmpfs && skip "$TESTDIR is tmpfs (set IOSWEEP_TEST_DIR)"
	job c "[a]\nfilename = $TESTDIR/f\nsize = 4m\ncache = warm, fadvise\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/c.ini"
	[ "$status" -eq 0 ]
	echo "$output" | grep -E '^0 +warm .* 100% '
	echo "$output" | grep -E '^1 +fadvise .* 0% '
}

@test "direct with a block size that is not a multiple of the logical block size is refused up front" {
	job d "[a]\nfilename = $TESTDIR/f\nsize = 1m\ncache = direct\nbs = 1000\n"
	run "$IOSWEEP" run "$TESTDIR/d.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *"d.ini:5: cache=direct needs bs and spacing to be multiples of the device's logical block size"*"bs=1000"* ]]
	[ ! -e "$TESTDIR/f" ]
}

@test "direct and mmap cannot go together" {
	job d "[a]\nsize = 1m\nengine = mmap\ncache = direct\n"
	run "$IOSWEEP" check "$TESTDIR/d.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *"cache=direct cannot be used with engine=mmap"* ]]
}

@test "direct reads give the same checksum as buffered reads, on every engine that can" {
	head -c 3000000 /dev/urandom >"$TESTDIR/f"
	job d "[a]\nfilename = $TESTDIR/f\nbs = 64k\ncache = fadvise, direct\nengine = sync, aio, uring\niodepth = 4\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/d.ini" -o json:"$TESTDIR/d.json"
	[ "$status" -eq 0 ]
	ref=$(refsum "$TESTDIR/f" sequential 3000000 65536 65536 0 1)
	[ "$(json_get "$TESTDIR/d.json" 'sorted({r["repeats"][0]["checksum"] for r in d["runs"]})')" = "['$ref']" ]
	[ "$(json_get "$TESTDIR/d.json" 'len(d["runs"])')" = 6 ]
}

@test "drop without root fails with a message that suggests fadvise" {
	command -v setpriv >/dev/null || skip "setpriv (util-linux) is missing"
	[ "$(id -u)" = 0 ] || skip "needs root to become nobody"
	chmod 755 "$TESTDIR"
	# the file exists: nobody could not create it, which would be said first
	head -c 1m /dev/zero >"$TESTDIR/f"
	job d "[a]\nfilename = $TESTDIR/f\nsize = 1m\ncache = drop\n"
	chmod 644 "$TESTDIR/d.ini"
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$IOSWEEP" run "$TESTDIR/d.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *"cache=drop needs root"*"use cache=fadvise"* ]]
}

@test "drop as root empties the cache before every repeat" {
	[ "$(id -u)" = 0 ] || skip "cache=drop needs root"
	[ -w /proc/sys/vm/drop_caches ] || skip "/proc/sys/vm/drop_caches is not writable here"
	is_tmpfs && skip "$TESTDIR is tmpfs (set IOSWEEP_TEST_DIR)"
	job d "[a]\nfilename = $TESTDIR/f\nsize = 2m\ncache = drop\nrepeat = 2\n"
	run "$IOSWEEP" run "$TESTDIR/d.ini" -o json:"$TESTDIR/d.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/d.json" 'max(r["resident_before"] for r in d["runs"][0]["repeats"])')" = 0.0 ]
}
