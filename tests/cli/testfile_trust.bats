#!/usr/bin/env bats
# The test file cannot trick iosweep: a FIFO never hangs it, another user's
# file or symbolic link in a directory anyone can write is refused, a file
# replaced mid-run ends the run, leftovers of interrupted creations are
# removed (or, another user's, reported), and a file iosweep made carries a
# record of how, which a contradicting job cannot override.
# make check: runs beside another file

load helpers

NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"

# shared: a sticky directory anyone can write, like /var/tmp (needs root)
shared() {
	needs_nobody
	mkdir -m 1777 "$TESTDIR/shared"
}

# refused CMD FILE TEXT: CMD (check or run) on job file FILE exits 2 with TEXT, in time
refused() {
	run timeout 10 "$IOSWEEP" "$1" "$2"
	echo "$output"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"$3"* ]]
}

@test "a FIFO at the default test file's path is refused by check and run, without hanging" {
	mkfifo "$TESTDIR/iosweep-1MiB-random.dat"
	job f '[a]\nsize = 1m\n'
	for cmd in check run; do
		refused $cmd "$TESTDIR/f.ini" "iosweep: $TESTDIR/f.ini:2: $TESTDIR/iosweep-1MiB-random.dat: not a regular file or block device"
	done
}

@test "another user's file in a sticky directory anyone can write is refused, ours is read" {
	shared
	$NOBODY sh -c "head -c 1048576 /dev/zero >'$TESTDIR/shared/f.dat'"
	job p "[a]\nfilename = $TESTDIR/shared/f.dat\nrepeat = 1\n"
	for cmd in check run; do
		refused $cmd "$TESTDIR/p.ini" "$TESTDIR/p.ini:2: $TESTDIR/shared/f.dat belongs to nobody (uid 65534) and lies in $TESTDIR/shared, where anyone can create files: another user may have planted it"
	done
	# the same file of the running user is read
	chown 0:0 "$TESTDIR/shared/f.dat"
	"$IOSWEEP" run "$TESTDIR/p.ini" -o json:"$TESTDIR/p.json"
	# and another user's file in a directory only its owner writes is read too
	mkdir "$TESTDIR/private"
	mv "$TESTDIR/shared/f.dat" "$TESTDIR/private/f.dat"
	chown 65534 "$TESTDIR/private/f.dat"
	job q "[a]\nfilename = $TESTDIR/private/f.dat\nrepeat = 1\n"
	"$IOSWEEP" run "$TESTDIR/q.ini" -o json:"$TESTDIR/q.json"
}

@test "another user's symbolic link is not followed; our own is" {
	shared
	head -c 1m /dev/urandom >"$TESTDIR/secret.dat"
	chmod 600 "$TESTDIR/secret.dat"
	$NOBODY ln -s "$TESTDIR/secret.dat" "$TESTDIR/shared/link.dat"
	job l "[a]\nfilename = $TESTDIR/shared/link.dat\nrepeat = 1\n"
	for cmd in check run; do
		refused $cmd "$TESTDIR/l.ini" "$TESTDIR/l.ini:2: $TESTDIR/shared/link.dat is a symbolic link of nobody (uid 65534): iosweep follows only links of its own user or root"
	done
	ln -s "$TESTDIR/secret.dat" "$TESTDIR/mine.dat"
	job m "[a]\nfilename = $TESTDIR/mine.dat\nrepeat = 1\n"
	"$IOSWEEP" run "$TESTDIR/m.ini" -o json:"$TESTDIR/m.json"
}

# replace_mid_run HOW: stops a run while its file is open, replaces the file
# (HOW: fifo or devzero), lets it go on, and expects the run to fail so.
replace_mid_run() {
	local pid rc=0
	head -c 4m /dev/urandom >"$TESTDIR/f.dat"
	job r "[a]\nfilename = $TESTDIR/f.dat\ncache = keep\npattern = random\ncount = 1000000000\nbs = 512\nruntime = 1s\nrepeat = 3\n"
	"$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json" >"$TESTDIR/out" 2>&1 &
	pid=$!
	# measuring: more bytes read than the job file and the checks before
	# the run read (a first open of the file is not yet the run's)
	wait_for sh -c "[ \$(awk '/^rchar/ { print \$2 }' /proc/$pid/io) -gt 2097152 ]"
	kill -STOP $pid
	rm "$TESTDIR/f.dat"
	if [ "$1" = fifo ]; then mkfifo "$TESTDIR/f.dat"; else ln -s /dev/zero "$TESTDIR/f.dat"; fi
	kill -CONT $pid
	wait $pid || rc=$?
	cat "$TESTDIR/out"
	[ "$rc" -eq 1 ]
	grep -q "iosweep: run 0 (job 'a'): $TESTDIR/f.dat is no longer a regular file or block device: the run stops" "$TESTDIR/out"
	[ "$(json_get "$TESTDIR/r.json" 'd["runs"][0]["failed"]')" = True ]
}

@test "a test file replaced by a FIFO mid-run ends the run with an error, without hanging" {
	replace_mid_run fifo
}

@test "a test file replaced by a symbolic link to /dev/zero mid-run ends the run with an error" {
	replace_mid_run devzero
}

@test "a test file replaced by another regular file between repeats ends the run" {
	head -c 4m /dev/urandom >"$TESTDIR/f.dat"
	job r "[a]\nfilename = $TESTDIR/f.dat\ncache = keep\npattern = random\ncount = 1000000000\nbs = 512\nruntime = 1s\nrepeat = 3\n"
	"$IOSWEEP" run "$TESTDIR/r.ini" >"$TESTDIR/out" 2>&1 &
	pid=$!
	# measuring: more bytes read than the job file and the checks before
	# the run read (a first open of the file is not yet the run's)
	wait_for sh -c "[ \$(awk '/^rchar/ { print \$2 }' /proc/$pid/io) -gt 2097152 ]"
	kill -STOP $pid
	cp "$TESTDIR/f.dat" "$TESTDIR/g.dat"
	mv "$TESTDIR/g.dat" "$TESTDIR/f.dat"
	kill -CONT $pid
	rc=0
	wait $pid || rc=$?
	[ "$rc" -eq 1 ]
	grep -q "$TESTDIR/f.dat was replaced during the run" "$TESTDIR/out"
}

@test "a creation killed by a signal leaves a temporary file that the next run removes and names" {
	mkdir "$TESTDIR/d"
	job k "[a]\nfilename = $TESTDIR/d/big.dat\nsize = 64m\nrepeat = 1\n"
	# SIGXFSZ at 4 MiB kills iosweep mid-creation, as kill -9 would: no handler runs
	run bash -c "ulimit -f 4096; exec '$IOSWEEP' run '$TESTDIR/k.ini'"
	[ "$status" -gt 128 ]
	left=$(ls "$TESTDIR"/d/big.dat.iosweep-tmp.*)
	[ -s "$left" ]
	job s "[a]\nfilename = $TESTDIR/d/small.dat\nsize = 1m\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/s.ini" -o json:"$TESTDIR/s.json"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "iosweep: removed $left (4194304 bytes), left by an interrupted creation" ]
	[ ! -e "$left" ]
	[ "$(ls "$TESTDIR/d")" = small.dat ]
}

@test "a temporary file whose creation is still going on (locked) is left alone" {
	head -c 1m /dev/zero >"$TESTDIR/x.dat.iosweep-tmp.AbC123"
	job s "[a]\nfilename = $TESTDIR/small.dat\nsize = 1m\nrepeat = 1\n"
	run flock "$TESTDIR/x.dat.iosweep-tmp.AbC123" "$IOSWEEP" run "$TESTDIR/s.ini" -o json:"$TESTDIR/s.json"
	[ "$status" -eq 0 ]
	[ -e "$TESTDIR/x.dat.iosweep-tmp.AbC123" ]
	# names that mkostemp does not make are not iosweep's
	head -c 1m /dev/zero >"$TESTDIR/y.dat.iosweep-tmp.not-ours"
	rm -f "$TESTDIR/s.json"
	run "$IOSWEEP" run "$TESTDIR/s.ini" -o json:"$TESTDIR/s.json"
	[ "$status" -eq 0 ]
	[ -e "$TESTDIR/y.dat.iosweep-tmp.not-ours" ]
	[ ! -e "$TESTDIR/x.dat.iosweep-tmp.AbC123" ]
}

@test "another user's leftover is reported with the command that removes it, and kept" {
	shared
	$NOBODY sh -c "head -c 1048576 /dev/zero >'$TESTDIR/shared/x.dat.iosweep-tmp.AbC123'"
	job s "[a]\nfilename = $TESTDIR/shared/small.dat\nsize = 1m\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/s.ini" -o json:"$TESTDIR/s.json"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "iosweep: $TESTDIR/shared/x.dat.iosweep-tmp.AbC123 looks like the leftover of an interrupted creation by nobody (uid 65534); remove it with: rm -- '$TESTDIR/shared/x.dat.iosweep-tmp.AbC123'" ]
	[ -e "$TESTDIR/shared/x.dat.iosweep-tmp.AbC123" ]
}

# record FILE: the creation record of FILE
record() {
	python3 -c 'import os,sys; print(os.getxattr(sys.argv[1], "user.iosweep").decode())' "$1"
}

@test "a created file records fill, seed and size; a job that contradicts them is refused" {
	job c "[a]\nfilename = $TESTDIR/t.dat\nsize = 100000\nfill = text\nseed = 5\nconsume = ints\nrepeat = 1\n"
	"$IOSWEEP" run "$TESTDIR/c.ini" -o json:"$TESTDIR/c.json"
	[ "$(record "$TESTDIR/t.dat")" = "iosweep-record 1 fill=text seed=5 size=100000" ]
	job f "[a]\nfilename = $TESTDIR/t.dat\nfill = random\n"
	refused check "$TESTDIR/f.ini" "iosweep: $TESTDIR/f.ini:3: $TESTDIR/t.dat was made with fill=text, job 'a' asks for fill=random"
	job s "[a]\nfilename = $TESTDIR/t.dat\nseed = 99\n"
	refused run "$TESTDIR/s.ini" "iosweep: $TESTDIR/s.ini:3: $TESTDIR/t.dat was made with seed=5, job 'a' asks for seed=99"
	# a job that does not say takes what the record says, and may sum the integers
	job n "[a]\nfilename = $TESTDIR/t.dat\nconsume = ints\nrepeat = 1\n"
	"$IOSWEEP" run "$TESTDIR/n.ini" -o json:"$TESTDIR/n.json"
	[ "$(json_get "$TESTDIR/n.json" '(d["runs"][0]["params"]["fill"], d["runs"][0]["params"]["seed"])')" = "('text', 5)" ]
	[ "$(json_get "$TESTDIR/n.json" 'd["runs"][0]["repeats"][0]["int_sum"]')" = "$(awk '{s += $1} END {print s}' "$TESTDIR/t.dat")" ]
}

@test "a file iosweep did not make is fill=existing, and consume=ints on it needs fill = existing" {
	seq 1 20000 >"$TESTDIR/mine.txt"
	job e "[a]\nfilename = $TESTDIR/mine.txt\nfill = text\nrepeat = 1\n"
	"$IOSWEEP" run "$TESTDIR/e.ini" -o json:"$TESTDIR/e.json" -o csv:"$TESTDIR/e.csv"
	[ "$(json_get "$TESTDIR/e.json" 'd["runs"][0]["params"]["fill"]')" = existing ]
	[ "$(python3 -c 'import csv,sys; print(next(csv.DictReader(open(sys.argv[1])))["fill"])' "$TESTDIR/e.csv")" = existing ]
	job i "[a]\nfilename = $TESTDIR/mine.txt\nconsume = ints\n"
	refused check "$TESTDIR/i.ini" "iosweep: $TESTDIR/i.ini:3: consume=ints on $TESTDIR/mine.txt, which iosweep did not make: its content is unknown (write fill = existing"
	job j "[a]\nfilename = $TESTDIR/mine.txt\nfill = existing\nconsume = ints\nrepeat = 1\n"
	"$IOSWEEP" run "$TESTDIR/j.ini" -o json:"$TESTDIR/j.json"
	[ "$(json_get "$TESTDIR/j.json" 'd["runs"][0]["repeats"][0]["int_sum"]')" = $((20000 * 20001 / 2)) ]
	# fill=existing never creates
	job m "[a]\nfilename = $TESTDIR/missing.dat\nsize = 1m\nfill = existing\n"
	refused check "$TESTDIR/m.ini" "iosweep: $TESTDIR/m.ini:4: fill=existing but $TESTDIR/missing.dat does not exist"
}

@test "on a file system without user extended attributes the record is a side file" {
	[ "$(id -u)" = 0 ] || skip "needs root to mount"
	mkdir "$TESTDIR/ram"
	mount -t ramfs ramfs "$TESTDIR/ram" 2>/dev/null || skip "cannot mount ramfs here"
	if python3 -c 'import os,sys; os.setxattr(sys.argv[1], "user.x", b"1")' "$TESTDIR/ram" 2>/dev/null; then
		umount "$TESTDIR/ram"
		skip "ramfs takes user extended attributes here"
	fi
	job c "[a]\nfilename = $TESTDIR/ram/t.dat\nsize = 100000\nfill = zero\nrepeat = 1\n"
	rc=0
	"$IOSWEEP" run "$TESTDIR/c.ini" -o json:"$TESTDIR/c.json" || rc=$?
	side=$(cat "$TESTDIR/ram/t.dat.iosweep-record" 2>/dev/null || true)
	ino=$(stat -c %i "$TESTDIR/ram/t.dat")
	job f "[a]\nfilename = $TESTDIR/ram/t.dat\nfill = text\n"
	run "$IOSWEEP" check "$TESTDIR/f.ini"
	umount "$TESTDIR/ram"
	[ "$rc" -eq 0 ]
	[ "$side" = "iosweep-record 1 fill=zero seed=1 size=100000 ino=$ino" ]
	[ "$status" -eq 2 ]
	[[ "$output" == *"$TESTDIR/ram/t.dat was made with fill=zero, job 'a' asks for fill=text"* ]]
}

@test "jobs that share a file to be created agree on it before anything is made" {
	job a "[a]\nfilename = $TESTDIR/s.dat\nsize = 1m\nfill = text\nseed = 3\nrepeat = 1\n[b]\nfilename = $TESTDIR/s.dat\nfill = zero\n"
	refused check "$TESTDIR/a.ini" "iosweep: $TESTDIR/a.ini:9: $TESTDIR/s.dat will be made by job 'a' with fill=text, job 'b' asks for fill=zero (give each its own filename)"
	job b "[a]\nfilename = $TESTDIR/s.dat\nsize = 1m\nfill = text\nseed = 3\nrepeat = 1\n[b]\nfilename = $TESTDIR/s.dat\nsize = 2m\n"
	refused run "$TESTDIR/b.ini" "iosweep: $TESTDIR/b.ini:9: $TESTDIR/s.dat will be made by job 'a' with 1048576 bytes, fewer than size=2MiB"
	[ ! -e "$TESTDIR/s.dat" ]
	# a later job that does not say reads what the first makes, and reports it so
	job c "[a]\nfilename = $TESTDIR/s.dat\nsize = 1m\nfill = text\nseed = 3\nrepeat = 1\n[b]\nfilename = $TESTDIR/s.dat\nconsume = ints\nrepeat = 1\n"
	"$IOSWEEP" run "$TESTDIR/c.ini" -o json:"$TESTDIR/c.json"
	[ "$(json_get "$TESTDIR/c.json" '[(r["params"]["fill"], r["params"]["seed"]) for r in d["runs"]]')" = "[('text', 3), ('text', 3)]" ]
}

@test "SIGINT while a new test file is flushed to the disk ends the run at once, exit 130" {
	# the flush slowed by the shim: 3 s for each 8 MiB piece, 12 s for the
	# whole 32 MiB file in one fdatasync as before
	mkdir "$TESTDIR/slow-dir"
	job c "[a]\nfilename = $TESTDIR/slow-dir/new.dat\nsize = 32m\nbs = 1m\nrepeat = 1\ncache = keep\n"
	IOSWEEP_SLOW_DIR=$TESTDIR/slow-dir IOSWEEP_SLOW_MS_PER_GIB=384000 \
		IOSWEEP_SLOW_MARK=$TESTDIR/slow LD_PRELOAD=$HELPERS/slow_shim.so \
		"$IOSWEEP" run "$TESTDIR/c.ini" >"$TESTDIR/out" 2>&1 &
	pid=$!
	wait_for test -e "$TESTDIR/slow"
	t0=$(date +%s%N)
	kill -INT $pid
	rc=0
	wait $pid || rc=$?
	t1=$(date +%s%N)
	cat "$TESTDIR/out"
	[ "$rc" -eq 130 ]
	[ $(((t1 - t0) / 1000000)) -lt 8000 ]
	# neither the file nor its temporary name is left
	[ -z "$(ls -A "$TESTDIR/slow-dir")" ]
}

@test "a file of a pseudo file system (proc, sysfs) is never a test file: check and run refuse it" {
	[ "$(stat -f -c %T /sys)" = sysfs ] || skip "no sysfs at /sys"
	job t "[t]\nfilename = /sys/kernel/mm/transparent_hugepage/enabled\nrepeat = 1\n"
	[ -e /sys/kernel/mm/transparent_hugepage/enabled ] || job t "[t]\nfilename = /sys/kernel/uevent_seqnum\nrepeat = 1\n"
	for cmd in check run; do
		refused $cmd "$TESTDIR/t.ini" "is on sysfs, a file system of kernel interfaces, not of data: iosweep never reads or writes a file there"
	done
	job p "[p]\nfilename = /proc/self/status\nsize = 512\nbs = 512\nrepeat = 1\n"
	refused check "$TESTDIR/p.ini" "iosweep: $TESTDIR/p.ini:2: /proc/self/status is on proc, a file system of kernel interfaces"
}

# protected_links: fs.protected_symlinks off for one command (the kernel's own guard, which
# would refuse the link before iosweep sees it); restored whatever the command does
protected_links_off() {
	local old rc=0
	old=$(cat /proc/sys/fs/protected_symlinks)
	sysctl -qw fs.protected_symlinks=0 || skip "cannot set fs.protected_symlinks"
	"$@" || rc=$?
	sysctl -qw fs.protected_symlinks="$old"
	return $rc
}

@test "another user's link to a directory, in a sticky directory anyone can write, is not followed on the way: reads, writes, creations, outputs" {
	shared
	command -v sysctl >/dev/null || skip "sysctl is missing"
	mkdir -m 700 "$TESTDIR/private"
	head -c 64k /dev/urandom >"$TESTDIR/private/f.dat"
	sum=$(sha256sum <"$TESTDIR/private/f.dat")
	$NOBODY ln -s "$TESTDIR/private" "$TESTDIR/shared/d"
	why="$TESTDIR/shared/d is a symbolic link of nobody (uid 65534) in $TESTDIR/shared, a directory every user can write: another user may have planted it, so iosweep does not follow it"
	job r "[r]\nfilename = $TESTDIR/shared/d/f.dat\nrepeat = 1\n"
	job w "[w]\nfilename = $TESTDIR/shared/d/f.dat\nop = write\nrepeat = 1\nallow_write = $TESTDIR/shared/d/f.dat\n"
	job n "[n]\nfilename = $TESTDIR/shared/d/new.dat\nsize = 64k\nrepeat = 1\n"
	job o "[o]\nfilename = $TESTDIR/f.dat\nsize = 64k\nrepeat = 1\n"
	for j in r w n; do
		for cmd in check run; do
			run protected_links_off "$IOSWEEP" $cmd "$TESTDIR/$j.ini"
			echo "$output"
			[ "$status" -eq 2 ] && [ "${#lines[@]}" -eq 1 ]
			[[ "$output" == *"$why"* ]]
		done
	done
	run protected_links_off "$IOSWEEP" run "$TESTDIR/o.ini" -o json:"$TESTDIR/shared/d/out.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *"$TESTDIR/shared/d is a symbolic link in $TESTDIR/shared"* ]]
	[ "$(sha256sum <"$TESTDIR/private/f.dat")" = "$sum" ]
	[ "$(ls "$TESTDIR/private")" = f.dat ]
	# the running user's own link there is followed
	rm "$TESTDIR/shared/d"
	ln -s "$TESTDIR/private" "$TESTDIR/shared/d"
	"$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json"
}

@test "a file iosweep made that another process rewrites in place during a read run fails the run, not a valid sum" {
	job c "[c]\nfilename = $TESTDIR/t.dat\nsize = 64k\nfill = text\nrepeat = 1\n"
	"$IOSWEEP" run "$TESTDIR/c.ini" -o json:"$TESTDIR/c.json" >/dev/null
	# 16 reads at 10 a second: 1.6 s, and the file rewritten once the run has it open
	job r "[r]\nfilename = $TESTDIR/t.dat\nconsume = ints\nrepeat = 1\nrate_iops = 10\ncache = keep\n"
	"$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json" >"$TESTDIR/out" 2>&1 &
	pid=$!
	wait_for sh -c "ls -l /proc/$pid/fd | grep -q '$TESTDIR/t.dat'"
	sleep 0.3
	head -c 65536 /dev/urandom | dd of="$TESTDIR/t.dat" conv=notrunc status=none
	rc=0
	wait $pid || rc=$?
	cat "$TESTDIR/out"
	[ "$rc" -eq 1 ]
	grep -q "$TESTDIR/t.dat was written by another process during the run (its size or modification time changed)" "$TESTDIR/out"
	[ "$(json_get "$TESTDIR/r.json" '(d["runs"][0]["failed"], len(d["runs"][0]["repeats"]))')" = "(True, 0)" ]
}
