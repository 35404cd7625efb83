#!/usr/bin/env bats
# opendir: a user's tree (a dataset) read as a data loader reads it: every
# regular file under it opened, read whole and closed, in sorted, random or
# shuffled order; never written; symlinks, special and unreadable files
# skipped and counted; a dropped tree's metadata checked cold by the dentries
# its lookups add.

load helpers

# tree DIR N: N files of 0 to ~9 KiB of random bytes in two subdirectories
tree() {
	mkdir -p "$1/a/deep" "$1/b"
	for k in $(seq 1 "$2"); do
		head -c $(((k * 997) % 9000)) /dev/urandom >"$1/$([ $((k % 2)) = 0 ] && echo a/deep || echo b)/f$k"
	done
}

# treesum DIR BS: the reference checksum of every regular file under DIR read
# whole in blocks of BS (each block's seed its offset in its file)
treesum() {
	local f size off sum=0 s
	while IFS= read -r -d '' f; do
		size=$(stat -c %s "$f")
		s=$(for ((off = 0; off < size; off += $2)); do
			echo "$off $((size - off < $2 ? size - off : $2))"
		done | "$HELPERS/refsum" "$f")
		sum=$(python3 -c 'import sys; print((int(sys.argv[1]) + int(sys.argv[2], 16)) % 2**64)' "$sum" "$s")
	done < <(find "$1" -type f -print0)
	printf '%016x\n' "$sum"
}

# state DIR: every name under DIR with its type, size, mode, owner, times and
# content (hashed through O_NOATIME, so that looking changes no access time;
# find reads the directories, which moves theirs once: call it twice first)
state() {
	find "$1" -printf '%P %y %s %m %U %T@ %A@ %C@\n' | sort
	python3 - "$1" <<'PY'
import hashlib, os, stat, sys
for top, dirs, files in sorted(os.walk(sys.argv[1])):
    for f in sorted(files):
        p = os.path.join(top, f)
        if stat.S_ISREG(os.lstat(p).st_mode):
            fd = os.open(p, os.O_RDONLY | os.O_NOATIME | os.O_NOFOLLOW)
            print(p, hashlib.sha256(os.read(fd, 1 << 20)).hexdigest())
            os.close(fd)
PY
}

@test "every regular file is read whole, once a repeat, in any order, engine and thread count: reads, bytes and checksum are the tree's" {
	tree "$TESTDIR/t" 40
	want=$(treesum "$TESTDIR/t" 4096)
	bytes=$(find "$TESTDIR/t" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
	job d "[d]\nopendir = $TESTDIR/t\nfile_service_type = sequential, random, shuffle\nengine = sync, psync2\nthreads = 1, 3\nrepeat = 2\ncache = keep\n"
	run "$IOSWEEP" run "$TESTDIR/d.ini" -q -o json:"$TESTDIR/d.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/d.json" 'len(d["runs"])')" = 12 ]
	[ "$(json_get "$TESTDIR/d.json" 'sorted({x["reads"] for r in d["runs"] for x in r["repeats"]})')" = "[40]" ]
	[ "$(json_get "$TESTDIR/d.json" 'sorted({x["bytes"] for r in d["runs"] for x in r["repeats"]})')" = "[$bytes]" ]
	[ "$(json_get "$TESTDIR/d.json" 'sorted({x["checksum"] for r in d["runs"] for x in r["repeats"]})')" = "['$want']" ]
	[ "$(json_get "$TESTDIR/d.json" 'd["runs"][0]["tree"]["files"], d["runs"][0]["tree"]["dirs"]')" = "(40, 4)" ]
	/usr/bin/python3 "$BATS_TEST_DIRNAME/check_schema.py" "$BATS_TEST_DIRNAME/../../docs/result.schema.json" "$TESTDIR/d.json"
}

@test "the plan says how many files and bytes the tree has, and a bs changes the blocks, not the figures" {
	tree "$TESTDIR/t" 10
	want=$(treesum "$TESTDIR/t" 1024)
	job d "[d]\nopendir = $TESTDIR/t\nbs = 1k\nrepeat = 1\ncache = keep\n"
	run "$IOSWEEP" plan "$TESTDIR/d.ini"
	[ "$status" -eq 0 ]
	[[ "$output" == *"opendir=$TESTDIR/t"* ]]
	[[ "$output" != *"fill="* && "$output" != *"pattern="* ]]
	echo "$output" | grep -Eq "^ *0 +d +10 "
	run "$IOSWEEP" run "$TESTDIR/d.ini" -q -o json:"$TESTDIR/d.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/d.json" 'd["runs"][0]["repeats"][0]["checksum"]')" = "$want" ]
}

@test "each file is read with as many preads as its blocks (one more only at an early end), and opened once a repeat (strace)" {
	command -v strace >/dev/null || skip "strace is not installed"
	mkdir -p "$TESTDIR/t"
	head -c 10000 /dev/urandom >"$TESTDIR/t/a"  # 3 blocks of 4 KiB
	head -c 4096 /dev/urandom >"$TESTDIR/t/b"   # 1
	: >"$TESTDIR/t/c"                            # 1 (a read that returns 0)
	head -c 8192 /dev/urandom >"$TESTDIR/t/d"   # 2
	job d "[d]\nopendir = $TESTDIR/t\nrepeat = 3\ncache = drop\n"
	strace -f -e trace=pread64,openat2 -o "$TESTDIR/tr" "$IOSWEEP" run "$TESTDIR/d.ini" -q -o json:"$TESTDIR/d.json"
	[ "$(grep -c 'pread64([0-9]*, .*, 4096, [0-9]*) *= ' "$TESTDIR/tr")" = $((3 * 7)) ]
	# with cache=drop only the repeats (3) and the residency after each (3)
	# open file a, beneath the tree, following no link
	[ "$(grep -c 'openat2([0-9]*, "a", .*O_NOFOLLOW|O_NOATIME.*RESOLVE_NO_SYMLINKS|RESOLVE_BENEATH' "$TESTDIR/tr")" = 6 ]
	[ "$(json_get "$TESTDIR/d.json" '[x["reads"] for x in d["runs"][0]["repeats"]]')" = "[4, 4, 4]" ]
}

@test "sequential reads sorted names, random one seeded order every repeat, shuffle a new order each repeat (strace)" {
	command -v strace >/dev/null || skip "strace is not installed"
	mkdir -p "$TESTDIR/t"
	for k in $(seq -w 1 30); do echo "$k" >"$TESTDIR/t/f$k"; done
	job d "[d]\nopendir = $TESTDIR/t\nrepeat = 2\ncache = keep\n"
	for how in sequential random shuffle; do
		strace -e trace=openat2 -o "$TESTDIR/$how.tr" "$IOSWEEP" run "$TESTDIR/d.ini" -q --set file_service_type=$how -o json:"$TESTDIR/$how.json"
		# in blocks of 30: cached before, the repeat, cached after, twice
		sed -n 's/.*openat2([0-9]*, "\(f[0-9]*\)", .*/\1/p' "$TESTDIR/$how.tr" >"$TESTDIR/$how.all"
		[ "$(wc -l <"$TESTDIR/$how.all")" = 180 ]
		sed -n 31,60p "$TESTDIR/$how.all" >"$TESTDIR/$how.1"
		sed -n 121,150p "$TESTDIR/$how.all" >"$TESTDIR/$how.2"
		[ "$(sort "$TESTDIR/$how.1" | uniq | wc -l)" = 30 ]
	done
	sort -c "$TESTDIR/sequential.1"
	cmp "$TESTDIR/sequential.1" "$TESTDIR/sequential.2"
	! sort -c "$TESTDIR/random.1" 2>/dev/null
	cmp "$TESTDIR/random.1" "$TESTDIR/random.2"
	! sort -c "$TESTDIR/shuffle.1" 2>/dev/null
	! cmp -s "$TESTDIR/shuffle.1" "$TESTDIR/shuffle.2"
}

@test "a tree of root's files, links out, a symlink loop, a FIFO and a socket is only read: nothing under it changes, not even an access time" {
	tree "$TESTDIR/t" 12
	head -c 5000 /dev/urandom >"$TESTDIR/outside"
	ln -s "$TESTDIR/outside" "$TESTDIR/t/b/out"
	ln -s ../../a "$TESTDIR/t/a/deep/up"
	ln -s . "$TESTDIR/t/loop"
	ln -s loop2 "$TESTDIR/t/loop1"
	ln -s loop1 "$TESTDIR/t/loop2"
	mkfifo "$TESTDIR/t/fifo"
	python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$TESTDIR/t/sock"
	state "$TESTDIR/t" >/dev/null
	# a read without O_NOATIME would move these (relatime: atime not after mtime)
	touch -d '2020-01-01' "$TESTDIR/t/b/f1" "$TESTDIR/outside"
	before=$(state "$TESTDIR/t"; state_of_outside=$(stat -c '%X %Y %s' "$TESTDIR/outside"); echo "$state_of_outside")
	job d "[d]\nopendir = $TESTDIR/t\nrepeat = 2\ncache = drop, fadvise, warm, keep\nfile_service_type = shuffle\nthreads = 2\n"
	run timeout 60 "$IOSWEEP" run "$TESTDIR/d.ini" -o json:"$TESTDIR/d.json"
	[ "$status" -eq 0 ]
	after=$(state "$TESTDIR/t"; state_of_outside=$(stat -c '%X %Y %s' "$TESTDIR/outside"); echo "$state_of_outside")
	[ "$before" = "$after" ]
	[ "$(json_get "$TESTDIR/d.json" 'd["runs"][0]["tree"]["skipped"]')" = "{'symlinks': 5, 'special': 2, 'unreadable': 0, 'vanished': 0, 'deep': 0}" ]
	[ "$(json_get "$TESTDIR/d.json" '{x["reads"] for r in d["runs"] for x in r["repeats"]}')" = "{12}" ]
	[[ "$output" == *"not read: 5 symlinks"*", 2 special ("* ]]
}

@test "as another user: a file it may not read is counted unreadable, and files not its own say their access times moved" {
	needs_nobody
	tree "$TESTDIR/t" 6
	chmod -R a+rX "$TESTDIR/t"
	chmod 600 "$TESTDIR/t/b/f1"
	job d "[d]\nopendir = $TESTDIR/t\nrepeat = 1\ncache = keep\n"
	chmod 644 "$TESTDIR/d.ini"
	run as_nobody "$IOSWEEP" run "$TESTDIR/d.ini"
	[ "$status" -eq 0 ]
	[[ "$output" == *"1 unreadable (b/f1)"* ]]
	[[ "$output" != *"could not be opened"* ]]
	[[ "$output" == *"opened without O_NOATIME, their access times moved"* ]]
	[[ "$output" == *"each read is one of the 5 files"* ]]
}

@test "cache=drop: a dropped tree's lookups add a dentry a file, and a tree on tmpfs, whose dentries cannot be dropped, is flagged not cold" {
	[ -w /proc/sys/vm/drop_caches ] || skip "cache=drop needs root"
	tree "$TESTDIR/t" 200
	job d "[d]\nopendir = $TESTDIR/t\nrepeat = 2\ncache = drop\n"
	run "$IOSWEEP" run "$TESTDIR/d.ini" -o json:"$TESTDIR/d.json"
	[ "$status" -eq 0 ]
	# about a dentry a file: the count is the kernel's, and whatever else the
	# machine does meanwhile moves it (a process that ends frees its /proc ones)
	[ "$(json_get "$TESTDIR/d.json" 'all(x["tree"]["dentries_added"] >= 150 and x["cache_as_asked"] for x in d["runs"][0]["repeats"])')" = True ]
	[ "$(json_get "$TESTDIR/d.json" 'd["runs"][0]["repeats"][0]["resident_before"]')" = None ]
	echo "$output" | grep -q " dropped "
	[[ "$output" != *"not a cold tree"* ]]
	use_tmpfs
	tree "$SHM/t" 200
	job s "[s]\nopendir = $SHM/t\nrepeat = 2\ncache = drop\n"
	run "$IOSWEEP" run "$TESTDIR/s.ini" -o json:"$TESTDIR/s.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/s.json" 'any(x["cache_as_asked"] for x in d["runs"][0]["repeats"])')" = False ]
	echo "$output" | grep -q " dropped ! "
	[[ "$output" == *"the tree is on tmpfs, whose dentries cannot be dropped: not a cold tree"* ]]
}

@test "cache=keep after a warm read: the repeat adds almost no dentries, and cache=fadvise leaves the data uncached" {
	# 1000 files (written by the shell, without a process each): the count
	# is the whole kernel's, and a burst of lookups elsewhere during one
	# repeat must not pass for this tree's (the median of 3 repeats, under
	# half a dentry a file, the line cache=drop's check draws)
	mkdir -p "$TESTDIR/t/a/deep" "$TESTDIR/t/b"
	for k in $(seq 1 1000); do
		printf '%*s' $((k % 5000)) '' >"$TESTDIR/t/$([ $((k % 2)) = 0 ] && echo a/deep || echo b)/f$k"
	done
	job d "[d]\nopendir = $TESTDIR/t\nrepeat = 3\ncache = warm, fadvise\n"
	run "$IOSWEEP" run "$TESTDIR/d.ini" -q -o json:"$TESTDIR/d.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/d.json" 'all(sorted(x["tree"]["dentries_added"] for x in r["repeats"])[1] < 500 for r in d["runs"])')" = True ]
	[ "$(json_get "$TESTDIR/d.json" '[x["resident_before"] for x in d["runs"][0]["repeats"]]')" = "[1.0, 1.0, 1.0]" ]
	[ "$(json_get "$TESTDIR/d.json" '[x["resident_before"] for x in d["runs"][1]["repeats"]]')" = "[0.0, 0.0, 0.0]" ]
}

@test "files that vanish while a time_based run reads the tree are counted, and the run goes on" {
	tree "$TESTDIR/t" 60
	job d "[d]\nopendir = $TESTDIR/t\nrepeat = 1\ncache = keep\ntime_based = 1\nruntime = 3s\n"
	"$IOSWEEP" run "$TESTDIR/d.ini" -q -o json:"$TESTDIR/d.json" &
	pid=$!
	sleep 1
	rm -f "$TESTDIR"/t/a/deep/*
	wait $pid
	[ "$(json_get "$TESTDIR/d.json" 'd["runs"][0]["repeats"][0]["tree"]["files_skipped"] > 0')" = True ]
	[ "$(json_get "$TESTDIR/d.json" 'd["runs"][0]["repeats"][0]["reads"] > 60')" = True ]
}

@test "SIGINT while a tree is read: exit 130, the repeat kept and marked interrupted" {
	tree "$TESTDIR/t" 60
	job d "[d]\nopendir = $TESTDIR/t\nrepeat = 1\ncache = keep\ntime_based = 1\nruntime = 60s\n"
	"$IOSWEEP" run "$TESTDIR/d.ini" -q -o json:"$TESTDIR/d.json" &
	pid=$!
	sleep 1
	stop_with INT $pid
	[ "$(json_get "$TESTDIR/d.json" 'd["runs"][0]["repeats"][0]["interrupted"]')" = True ]
	[ "$(json_get "$TESTDIR/d.json" 'd["runs"][0]["repeats"][0]["reads"] > 0')" = True ]
}

@test "SIGTERM while the run scans the tree: exit 143 at once, nothing measured, the results marked interrupted" {
	tree "$TESTDIR/t" 30
	job d "[d]\nopendir = $TESTDIR/t\nrepeat = 1\ncache = keep\n"
	# the 31st access check is the run's scan's first (the plan's made 30)
	run timeout 20 env LD_PRELOAD="$HELPERS/signal_shim.so" IOSWEEP_SIGNAL_AT=access \
		IOSWEEP_SIGNAL_COUNT=31 IOSWEEP_SIGNAL=TERM "$IOSWEEP" run "$TESTDIR/d.ini" -o json:"$TESTDIR/d.json"
	[ "$status" -eq 143 ]
	[ "$(json_get "$TESTDIR/d.json" 'd["interrupted"], d["stopped_by"], len(d["runs"])')" = "(True, 'SIGTERM', 0)" ]
}

@test "what opendir cannot do is refused, one line each, and the tree is left alone" {
	tree "$TESTDIR/t" 3
	mkdir "$TESTDIR/empty"
	job a "[a]\nopendir = $TESTDIR/t\nop = write\n"
	refused plan a "opendir only reads"
	job b "[b]\nopendir = $TESTDIR/t\nengine = uring\n"
	refused plan b "opendir reads each file with engine = sync or psync2"
	job c "[c]\nopendir = $TESTDIR/t\nfilename = $TESTDIR/x\n"
	refused plan c "filename does not go with opendir"
	job d "[d]\nopendir = $TESTDIR/t\nfile_service_type = roundrobin\n"
	refused plan d "not roundrobin"
	job e "[e]\nopendir = $TESTDIR/nowhere\n"
	refused plan e "opendir: $TESTDIR/nowhere"
	job f "[f]\nopendir = $TESTDIR/empty\n"
	refused plan f "no regular file under"
	job g "[g]\nsize = 64k\nfile_service_type = shuffle\n"
	refused plan g "file_service_type = shuffle orders the files of opendir"
	job h "[h]\nopendir = $TESTDIR/t\npattern = random\n"
	refused plan h "pattern does not go with opendir"
}
