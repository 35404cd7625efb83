#!/usr/bin/env bats
# tree: a tree iosweep makes (D directories of F files) and the metadata
# phases op names, each a run of its own, each item timed as one unit; the
# tree brought untimed to what a phase needs, removed at the end, never a
# user's directory, and what a killed run left removed by the next one.

load helpers

# root JOB: where job JOB's tree is made (directory defaults to IOSWEEP_DIR)
root() {
	echo "$TESTDIR/$1.iosweep-tree"
}

# count FILE SYSCALL PATTERN: the calls of SYSCALL in strace output FILE whose
# line matches the extended regular expression PATTERN
count() {
	grep -E "^[0-9]+ +$2\(" "$1" | grep -cE "$3" || true
}

@test "each phase makes as many calls as it has items, and the JSON counts them, as reads or writes (strace)" {
	command -v strace >/dev/null || skip "strace is not installed"
	job m "[m]\ntree = 3x4\nop = mkdir, create, stat, read, readdir, rename, fsync, unlink, rmdir\nthreads = 2\nrepeat = 1\n"
	strace -f -e trace=mkdirat,mkdir,openat,newfstatat,getdents64,renameat2,fsync,unlinkat,unlink,rmdir \
		-o "$TESTDIR/tr" "$IOSWEEP" run "$TESTDIR/m.ini" -q -o json:"$TESTDIR/m.json"
	r=$(root m)
	[ "$(count "$TESTDIR/tr" mkdirat '"d[0-9]+"')" -eq 3 ]
	[ "$(count "$TESTDIR/tr" openat '"d[0-9]+/f[0-9]+", O_WRONLY\|O_CREAT\|O_EXCL')" -eq 12 ]
	[ "$(count "$TESTDIR/tr" newfstatat '"d[0-9]+/f[0-9]+"')" -eq 12 ]
	[ "$(count "$TESTDIR/tr" openat '"d[0-9]+/f[0-9]+", O_RDONLY')" -eq 12 ]
	[ "$(count "$TESTDIR/tr" openat '"d[0-9]+", O_RDONLY\|O_NOFOLLOW\|O_CLOEXEC\|O_DIRECTORY')" -eq 3 ]
	[ "$(count "$TESTDIR/tr" renameat2 '"d[0-9]+/f[0-9]+".*"d[0-9]+/r[0-9]+"')" -eq 12 ]
	[ "$(count "$TESTDIR/tr" openat '"d[0-9]+/r[0-9]+", O_WRONLY\|O_NOFOLLOW')" -eq 12 ]
	[ "$(count "$TESTDIR/tr" fsync '')" -ge 12 ]
	# the unlink phase's, and fsync's files removed to be made anew before it
	[ "$(count "$TESTDIR/tr" unlinkat '"d[0-9]+/r[0-9]+", 0')" -eq 24 ]
	[ "$(count "$TESTDIR/tr" unlinkat '"d[0-9]+", AT_REMOVEDIR')" -eq 3 ]
	# the items as the JSON counts them: reads for the phases that look, writes for the others
	[ "$(json_get "$TESTDIR/m.json" '[(r["phase"]["op"], r["phase"]["items"], r["repeats"][0]["reads"], r["repeats"][0]["writes"]) for r in d["runs"]]')" = \
		"[('mkdir', 3, 0, 3), ('create', 12, 0, 12), ('stat', 12, 12, 0), ('read', 12, 12, 0), ('readdir', 3, 3, 0), ('rename', 12, 0, 12), ('fsync', 12, 0, 12), ('unlink', 12, 0, 12), ('rmdir', 3, 0, 3)]" ]
	# removed at the end, record and all
	[ ! -e "$r" ]
	python3 "$BATS_TEST_DIRNAME/check_schema.py" "$TESTDIR/m.json"
}

@test "statdir stats each directory once a repeat, on directories emptied for it; JSON counts them as reads (strace)" {
	command -v strace >/dev/null || skip "strace is not installed"
	job m "[m]\ntree = 3x4\nfilesize = 4k\nop = create, statdir\nthreads = 2\nrepeat = 2\n"
	strace -f -e trace=newfstatat,unlinkat -o "$TESTDIR/tr" "$IOSWEEP" run "$TESTDIR/m.ini" -q -o json:"$TESTDIR/m.json"
	[ "$(count "$TESTDIR/tr" newfstatat '"d[0-9]+", ')" -eq 6 ]
	# the files are removed untimed before create's second repeat, and once before statdir's
	[ "$(count "$TESTDIR/tr" unlinkat '"d[0-9]+/f[0-9]+", 0')" -eq 24 ]
	[ "$(json_get "$TESTDIR/m.json" '[(r["phase"]["op"], r["phase"]["items"], r["phase"]["items_are"], r["repeats"][1]["reads"], r["repeats"][1]["writes"]) for r in d["runs"]]')" = \
		"[('create', 12, 'files', 0, 12), ('statdir', 3, 'directories', 3, 0)]" ]
	python3 "$BATS_TEST_DIRNAME/check_schema.py" "$TESTDIR/m.json"
	[ ! -e "$(root m)" ]
}

@test "a phase alone finds its tree made untimed, every repeat from the state it needs; filesize bytes are written and read back" {
	job m "[m]\ntree = 2x5\nfilesize = 10000\nbs = 4k\nop = unlink, read\nrepeat = 3\n"
	run "$IOSWEEP" run "$TESTDIR/m.ini" -q -o json:"$TESTDIR/m.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/m.json" '[[x["writes"] for x in r["repeats"]] for r in d["runs"]][0]')" = "[10, 10, 10]" ]
	[ "$(json_get "$TESTDIR/m.json" 'sorted({(x["reads"], x["read_bytes"]) for x in d["runs"][1]["repeats"]})')" = "[(10, 100000)]" ]
	# every file holds the same 10000 bytes, whatever the repeat
	[ "$(json_get "$TESTDIR/m.json" 'len({x["checksum"] for x in d["runs"][1]["repeats"]})')" = 1 ]
	[ ! -e "$(root m)" ]
}

@test "create writes what a reader reads back: the read phase's checksum is recomputed from the data" {
	job m "[m]\ntree = 1x3\nfilesize = 9000\nbs = 4k\nop = create, read\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/m.ini" -q -o json:"$TESTDIR/m.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/m.json" 'd["runs"][1]["repeats"][0]["read_bytes"]')" = 27000 ]
	# create writes the job's first bs block of data again and again: the block a
	# write run of the same seed writes at offset 0
	job w "[w]\nfilename = $TESTDIR/b\nsize = 4k\nbs = 4k\nop = write\nrepeat = 1\n"
	"$IOSWEEP" run "$TESTDIR/w.ini" -q
	python3 -c 'import sys; b = open(sys.argv[1], "rb").read(); open(sys.argv[2], "wb").write((b * 3)[:9000])' "$TESTDIR/b" "$TESTDIR/x"
	one=$(printf '0 4096\n4096 4096\n8192 808\n' | "$HELPERS/refsum" "$TESTDIR/x")
	want=$(python3 -c 'import sys; print("%016x" % (3 * int(sys.argv[1], 16) % 2**64))' "$one")
	[ "$(json_get "$TESTDIR/m.json" 'd["runs"][1]["repeats"][0]["checksum"]')" = "$want" ]
}

@test "a directory iosweep did not make is refused and left as it was; so is a link in the tree's place" {
	mkdir "$(root m)"
	echo mine >"$(root m)/notes"
	job m "[m]\ntree = 2x2\nop = create\nrepeat = 1\n"
	refused run m "is not a tree iosweep made" "$(root m)/notes"
	[ "$(cat "$(root m)/notes")" = mine ]
	rm -r "$(root m)"
	mkdir "$TESTDIR/elsewhere"
	ln -s "$TESTDIR/elsewhere" "$(root m)"
	refused run m "is not a tree iosweep made"
	[ -z "$(ls -A "$TESTDIR/elsewhere")" ]
	[ -L "$(root m)" ]
}

@test "bad trees and phases are refused at plan time with FILE:LINE" {
	job a "[a]\ntree = 0x5\nop = stat\n"
	refused plan a "a.ini:2: tree = 0x5: not DxF"
	job b "[b]\ntree = 4\nop = stat\n"
	refused plan b "not DxF"
	job c "[c]\nfilename = $TESTDIR/f\nsize = 4k\nop = mkdir\n"
	refused plan c "c.ini:4: op = mkdir is a phase of a tree"
	job d "[d]\ntree = 2x2\nop = write\n"
	refused plan d "d.ini:3: op = write on a tree"
	job e "[e]\ntree = 2x2\nop = stat\nengine = aio\n"
	refused plan e "engine = sync, not aio"
	job f "[f]\ntree = 2x2\nop = stat\npattern = random\n"
	refused plan f "pattern does not go with tree"
	job g "[g]\ntree = 2x2\nop = stat\ncache = direct\n"
	refused plan g "cache = direct on a tree"
	job h "[h/x]\ntree = 2x2\nop = stat\n"
	refused plan h "is not a file name"
	job i "[i]\ntree = 2x2\nop = stat\ndirectory = $TESTDIR/none\n"
	refused plan i "i.ini:4: directory $TESTDIR/none"
	job j "[j]\nfilename = $TESTDIR/f\nsize = 4k\nshift = 1\n"
	refused plan j "j.ini:4: shift moves each rank to another rank's share of a tree"
}

# the bytes create wrote to each file, from strace -f of one worker: openat
# of a tree file, then its writes until its close (one thread: in order)
written_sizes() {
	python3 - "$1" <<'PY'
import re, sys
fd, name, size = None, None, {}
for line in open(sys.argv[1], errors="replace"):
    m = re.search(r'openat\(\d+, "(d\d+/f\d+)", O_WRONLY\|O_CREAT\|O_EXCL.*= (\d+)$', line)
    if m:
        name, fd = m[1], m[2]
        size[name] = 0
        continue
    m = re.search(r'(write|close)\((\d+)(, .* = (\d+))?', line)
    if m and m[2] == fd and m[1] == "close":
        fd = None
    elif m and m[2] == fd:
        size[name] += int(m[4])
print(" ".join(str(size[k]) for k in sorted(size, key=lambda s: int(s.split("f")[1]))))
PY
}

@test "filesize drawn file by file (MIN-MAX, SIZE/PERCENT:...): create writes each its size, read reads them back, the plan counts them (strace)" {
	command -v strace >/dev/null || skip "strace is not installed"
	job m "[m]\ntree = 2x30\nfilesize = 4k/50:64k/50\nop = create, read\nrepeat = 1\n"
	strace -f -e trace=openat,write,close -o "$TESTDIR/tr" "$IOSWEEP" run "$TESTDIR/m.ini" -o json:"$TESTDIR/m.json"
	sizes=$(written_sizes "$TESTDIR/tr")
	[ "$(echo "$sizes" | wc -w)" -eq 60 ]
	# only the mix's sizes, both of them, adding up to what the plan said
	[ "$(echo "$sizes" | tr ' ' '\n' | sort -u | tr '\n' ' ')" = "4096 65536 " ]
	sum=$(echo "$sizes" | tr ' ' '\n' | awk '{ s += $1 } END { print s }')
	[ "$(json_get "$TESTDIR/m.json" '[(r["phase"]["filesize"], r["phase"]["filesizes"], r["phase"]["bytes"], r["repeats"][0]["bytes"]) for r in d["runs"]]')" = \
	  "[(None, '4k/50:64k/50', $sum, $sum), (None, '4k/50:64k/50', $sum, $sum)]" ]
	python3 "$BATS_TEST_DIRNAME/check_schema.py" "$TESTDIR/m.json"
	# the same seed draws the same sizes; another seed others
	strace -f -e trace=openat,write,close -o "$TESTDIR/tr2" "$IOSWEEP" run "$TESTDIR/m.ini" -q
	[ "$(written_sizes "$TESTDIR/tr2")" = "$sizes" ]
	job r "[m]\ntree = 1x40\nfilesize = 1k-8k\nop = create\nrepeat = 1\nseed = 7\n"
	strace -f -e trace=openat,write,close -o "$TESTDIR/tr3" "$IOSWEEP" run "$TESTDIR/r.ini" -q
	range=$(written_sizes "$TESTDIR/tr3")
	[ "$(echo "$range" | wc -w)" -eq 40 ]
	# in steps of 1k from 1k to 8k, most of them met
	[ -z "$(echo "$range" | tr ' ' '\n' | awk '$1 < 1024 || $1 > 8192 || $1 % 1024')" ]
	[ "$(echo "$range" | tr ' ' '\n' | sort -u | wc -l)" -ge 6 ]
	[ "$range" != "$sizes" ]
}

@test "filesize that is not a size, a range or a mix, or drawn for a file set in sizes not whole blocks, is refused with FILE:LINE; the plan bounds a mix by its largest size" {
	job a "[a]\ntree = 2x2\nfilesize = 4k,8k\nop = create\n"
	refused plan a "a.ini:3: filesize: 4k,8k: a size, MIN-MAX or SIZE/PERCENT:...: a file has one size"
	job b "[b]\ntree = 2x2\nfilesize = lots\nop = create\n"
	refused plan b "b.ini:3: filesize:"
	job c "[c]\ntree = 2x2\nfilesize = 4k/70:8k/70\nop = create\n"
	refused plan c "more than 100"
	job d "[d]\nnrfiles = 4\nfilesize = 1k-8k\n"
	refused plan d "d.ini:2: the set's files (filesize = 1k-8k) must be whole blocks of bs=4096"
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount a small tmpfs"
	mkdir "$TESTDIR/small"
	mount -t tmpfs -o size=1m tmpfs "$TESTDIR/small" || skip "cannot mount tmpfs"
	job e "[e]\ndirectory = $TESTDIR/small\ntree = 2x5\nfilesize = 1k/90:1m/10\nop = create\n"
	run "$IOSWEEP" plan "$TESTDIR/e.ini"
	umount "$TESTDIR/small"
	[ "$status" -eq 2 ]
	# 12 names (2 directories, 10 files), each held to the largest, 1m, and 1% more
	[[ "$output" == *"the largest tree needs 12708729 bytes"* ]]
}

@test "shift on one host moves nothing: the phase says shift 0, and the header says what the job set" {
	job s "[s]\ntree = 2x5\nop = create, stat\nshift = 1\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/s.ini" -o json:"$TESTDIR/s.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/s.json" '[r["phase"]["shift"] for r in d["runs"]]')" = "[0, 0]" ]
	[[ "$output" == *"shift=1"* ]]
	job n "[n]\ntree = 2x5\nop = stat\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/n.ini"
	[ "$status" -eq 0 ]
	[[ "$output" != *"shift="* ]]
}

@test "a tree the file system has no inodes for is refused at plan time" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount a small tmpfs"
	mkdir "$TESTDIR/small"
	mount -t tmpfs -o size=1m,nr_inodes=100 tmpfs "$TESTDIR/small" || skip "cannot mount tmpfs"
	job m "[m]\ndirectory = $TESTDIR/small\ntree = 10x20\nop = create\n"
	run timeout 20 "$IOSWEEP" plan "$TESTDIR/m.ini"
	umount "$TESTDIR/small"
	[ "$status" -eq 2 ]
	[[ "$output" == *"the largest tree needs 212 inodes"* ]]
}

@test "a full file system mid-create ends the run with what was measured, names the file, and the tree is removed" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount a small tmpfs"
	mkdir "$TESTDIR/small"
	mount -t tmpfs -o size=1m tmpfs "$TESTDIR/small" || skip "cannot mount tmpfs"
	# the plan sees room for the tree; the file the first job makes takes it
	job m "[fill]\nfilename = $TESTDIR/small/fill\nsize = 768k\nop = write\nrepeat = 1\n[m]\ndirectory = $TESTDIR/small\ntree = 1x60\nfilesize = 8k\nop = create\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/m.ini" -q -o json:"$TESTDIR/m.json"
	left=$(ls -A "$TESTDIR/small")
	umount "$TESTDIR/small"
	[ "$status" -eq 1 ]
	[[ "$output" == *"m.iosweep-tree/d0/f"*": create: No space left on device"* ]]
	[ "$(json_get "$TESTDIR/m.json" 'd["runs"][1]["failed"]')" = True ]
	[ "$(json_get "$TESTDIR/m.json" 'd["runs"][1]["repeats"][0]["interrupted"]')" = True ]
	[ "$(json_get "$TESTDIR/m.json" '0 < d["runs"][1]["repeats"][0]["writes"] < 60')" = True ]
	[ "$left" = fill ]
}

@test "kill -9 mid-create leaves a tree the next run recognises, removes and says so; a name it did not make stops it" {
	job m "[m]\ntree = 4x20000\nop = create\nrepeat = 20\n"
	"$IOSWEEP" run "$TESTDIR/m.ini" -q >/dev/null 2>&1 &
	pid=$!
	wait_for test -e "$(root m)/d0/f100"
	kill -9 $pid
	wait $pid || true
	[ -e "$(root m)/.iosweep-tree" ]
	job s "[m]\ntree = 2x3\nop = stat\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/s.ini" -q
	[ "$status" -eq 0 ]
	[[ "$output" == *"removed what a run cut short left in $(root m): "*" files, "*" directories"* ]]
	[ ! -e "$(root m)" ]
	# a leftover with a stranger in it: refused, the stranger kept
	"$IOSWEEP" run "$TESTDIR/m.ini" -q >/dev/null 2>&1 &
	pid=$!
	wait_for test -e "$(root m)/d0/f100"
	kill -9 $pid
	wait $pid || true
	echo keep >"$(root m)/d1/mine"
	run "$IOSWEEP" run "$TESTDIR/s.ini" -q
	[ "$status" -eq 1 ]
	[[ "$output" == *"holds mine, which iosweep did not make: it is left"* ]]
	[ "$(cat "$(root m)/d1/mine")" = keep ]
}

@test "a second run of the same tree is refused while the first holds it; SIGINT ends the first, its tree removed" {
	job m "[m]\ntree = 4x20000\nop = create\nrepeat = 20\n"
	"$IOSWEEP" run "$TESTDIR/m.ini" -o json:"$TESTDIR/m.json" >"$TESTDIR/out" 2>&1 &
	pid=$!
	wait_for test -e "$(root m)/d0/f100"
	# held still (its lock held) while the second is refused: nothing may change under it
	kill -STOP $pid
	ls -R "$(root m)" >"$TESTDIR/before"
	run "$IOSWEEP" run "$TESTDIR/m.ini" -q
	ls -R "$(root m)" >"$TESTDIR/after"
	kill -CONT $pid
	[ "$status" -eq 1 ]
	[[ "$output" == *"another iosweep is using this tree"* ]]
	stop_with INT $pid
	# the refused run removed nothing of the tree it was refused
	diff "$TESTDIR/before" "$TESTDIR/after"
	[ ! -e "$(root m)" ]
	[ "$(json_get "$TESTDIR/m.json" 'd["interrupted"]')" = True ]
}

@test "cache=drop: stat and read phases on disk are cold (their lookups add dentries); on tmpfs, whose dentries stay, flagged" {
	[ "$(id -u)" -eq 0 ] || skip "cache=drop needs root"
	# files that hold bytes: nothing opens them between the drop and the phase
	job m "[m]\ntree = 2x200\nfilesize = 4k\nop = stat, read\ncache = drop\nrepeat = 2\n"
	run "$IOSWEEP" run "$TESTDIR/m.ini" -o json:"$TESTDIR/m.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/m.json" '[x["cache_as_asked"] for r in d["runs"] for x in r["repeats"]]')" = "[True, True, True, True]" ]
	[ "$(json_get "$TESTDIR/m.json" 'min(x["tree"]["dentries_added"] for r in d["runs"] for x in r["repeats"]) >= 200')" = True ]
	[[ "$output" == *"dropped"* ]]
	[[ "$output" != *"not what cache=drop asks for"* ]]
	use_tmpfs
	job t "[m]\ndirectory = $SHM\ntree = 2x200\nop = stat\ncache = drop\nrepeat = 2\n"
	run "$IOSWEEP" run "$TESTDIR/t.ini" -o json:"$TESTDIR/t.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/t.json" '[x["cache_as_asked"] for x in d["runs"][0]["repeats"]]')" = "[False, False]" ]
	[[ "$output" == *"dropped !"* ]]
	[[ "$output" == *"cache=drop, but the tree is on tmpfs, whose dentries cannot be dropped: not cold"* ]]
}

@test "threads work in their own directories when there are as many; the table says what a tree's row is" {
	command -v strace >/dev/null || skip "strace is not installed"
	job m "[m]\ntree = 2x50\nop = create\nthreads = 2\nrepeat = 1\n"
	strace -f -e trace=openat -o "$TESTDIR/tr" "$IOSWEEP" run "$TESTDIR/m.ini" >"$TESTDIR/out" 2>&1
	# each thread's creates are in one directory of its own
	[ "$(grep -E '"d[0-9]+/f[0-9]+", O_WRONLY\|O_CREAT\|O_EXCL' "$TESTDIR/tr" | sed -E 's/^([0-9]+) .*"(d[0-9]+)\/.*/\1 \2/' | sort -u | wc -l)" -eq 2 ]
	[ "$(grep -E '"d[0-9]+/f[0-9]+", O_WRONLY\|O_CREAT\|O_EXCL' "$TESTDIR/tr" | awk '{ print $1 }' | sort -u | wc -l)" -eq 2 ]
	grep -q "tree = 2x50: 2 directories of 50 files of 0, made by iosweep in" "$TESTDIR/out"
	grep -q "IOPS is items/s" "$TESTDIR/out"
}

@test "a phase with fewer items than threads runs one thread an item, once whatever the threads list" {
	job m "[m]\ntree = 1x8, 4x2\nop = mkdir, create\nthreads = 2, 4\nrepeat = 1\n"
	run "$IOSWEEP" plan "$TESTDIR/m.ini"
	[ "$status" -eq 0 ]
	# 1x8 mkdir: one directory, one thread, one run for both threads values;
	# 4x2 mkdir: four directories, both thread counts
	[ "$(echo "$output" | grep -cE '1x8 +[0-9]+ +mkdir')" -eq 1 ]
	echo "$output" | grep -qE '1x8 +1 +mkdir'
	[ "$(echo "$output" | grep -cE '4x2 +[24] +mkdir')" -eq 2 ]
	[ "$(echo "$output" | grep -cE '1x8 +[24] +create')" -eq 2 ]
	run "$IOSWEEP" run "$TESTDIR/m.ini" -q -o json:"$TESTDIR/m.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/m.json" '[(r["phase"]["op"], r["params"]["threads"]) for r in d["runs"] if r["phase"]["dirs"] == 1]')" = "[('mkdir', 1), ('create', 2), ('create', 4)]" ]
}

@test "a tree's result is read back by plot, compare and report: the dentries a phase freed are not a negative count" {
	job m "[m]\ntree = 4x100\nfilesize = 1k\nop = create, stat, rename, unlink, rmdir\nrepeat = 2\n"
	run "$IOSWEEP" run "$TESTDIR/m.ini" -q -o json:"$TESTDIR/m.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/m.json" 'all(x["tree"]["dentries_added"] >= 0 and x["tree"]["inodes_added"] >= 0 for r in d["runs"] for x in r["repeats"])')" = True ]
	"$IOSWEEP" plot "$TESTDIR/m.json" -o "$TESTDIR/m.svg"
	grep -q "<svg" "$TESTDIR/m.svg"
	"$IOSWEEP" compare "$TESTDIR/m.json" "$TESTDIR/m.json" >"$TESTDIR/cmp"
	grep -q "unlink" "$TESTDIR/cmp"
	"$IOSWEEP" report "$TESTDIR/m.json" -o "$TESTDIR/m.html"
	grep -q "rmdir" "$TESTDIR/m.html"
}

@test "interval gives each phase its series: the items of its intervals add up to the phase's, in its direction" {
	use_tmpfs
	job m "[m]\ndirectory = $SHM\ntree = 10x3000\nop = create, stat\ninterval = 10ms\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/m.ini" -q -o json:"$TESTDIR/m.json" -o series:"$TESTDIR/m.csv"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/m.json" '[(x["series"]["interval_s"], sum(i["ops"] for i in x["series"]["intervals"]), sorted({i["dir"] for i in x["series"]["intervals"]})) for r in d["runs"] for x in r["repeats"]]')" = "[(0.01, 30000, ['write']), (0.01, 30000, ['read'])]" ]
	[ "$(awk -F, 'NR > 1 && $2 == 0 { n += $8 } END { print n }' "$TESTDIR/m.csv")" = 30000 ]
	job z "[z]\ndirectory = $SHM\ntree = 10x3000\nop = create\ninterval = 0\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/z.ini" -q -o json:"$TESTDIR/z.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/z.json" '"series" in d["runs"][0]["repeats"][0]')" = False ]
}

@test "the header line names a tree job's tree, filesize and directory, and a file job's no tree" {
	job m "[m]\ntree = 2x10\nfilesize = 1k\nop = stat\nrepeat = 1\ndirectory = $TESTDIR\n"
	run "$IOSWEEP" run "$TESTDIR/m.ini"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == *"filesize=1KiB  directory=$TESTDIR  tree=2x10"* ]]
	# the default directory is said where the tree is (the note), not as an empty value
	job d "[d]\ntree = 2x10\nop = stat\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/d.ini"
	[ "$status" -eq 0 ]
	[[ "$output" != *"directory="* && "$output" == *"made by iosweep in"* ]]
	head -c 64k /dev/urandom >"$TESTDIR/f"
	job f "[f]\nfilename = $TESTDIR/f\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/f.ini"
	[ "$status" -eq 0 ]
	[[ "$output" != *"tree="* && "$output" != *"filesize="* && "$output" != *"directory="* ]]
}

@test "sync phases: fsync each file, fsyncdir each directory, syncfs once, on files made anew before every repeat (strace)" {
	command -v strace >/dev/null || skip "strace is not installed"
	job m "[m]\ntree = 3x4\nfilesize = 1k\nop = fsync, fsyncdir, syncfs\nrepeat = 2\n"
	strace -f -e trace=openat,fsync,syncfs,unlinkat -o "$TESTDIR/tr" "$IOSWEEP" run "$TESTDIR/m.ini" -q -o json:"$TESTDIR/m.json"
	# every repeat of every phase has its 12 files written just before it
	[ "$(count "$TESTDIR/tr" openat '"d[0-9]+/f[0-9]+", O_WRONLY\|O_CREAT\|O_EXCL')" -eq 72 ]
	# (removed before the 5 repeats after the first; the sweep at the end
	# removes the last ones from within their directories)
	[ "$(count "$TESTDIR/tr" unlinkat '"d[0-9]+/f[0-9]+", 0')" -eq 60 ]
	[ "$(count "$TESTDIR/tr" openat '"d[0-9]+/f[0-9]+", O_WRONLY\|O_NOFOLLOW')" -eq 24 ]
	# fsyncdir's 6, and the sweep's 3 at the end
	[ "$(count "$TESTDIR/tr" openat '"d[0-9]+", O_RDONLY\|O_NOFOLLOW\|O_CLOEXEC\|O_DIRECTORY')" -eq 9 ]
	# 24 files and 6 directories, and the result file made durable before its rename
	[ "$(count "$TESTDIR/tr" fsync '')" -eq 31 ]
	[ "$(count "$TESTDIR/tr" syncfs '')" -eq 2 ]
	[ "$(json_get "$TESTDIR/m.json" '[(r["phase"]["op"], r["phase"]["items"], r["phase"]["items_are"], [x["writes"] for x in r["repeats"]]) for r in d["runs"]]')" = \
		"[('fsync', 12, 'files', [12, 12]), ('fsyncdir', 3, 'directories', [3, 3]), ('syncfs', 1, 'files', [1, 1])]" ]
	[ ! -e "$(root m)" ]
	# drop and fadvise write the files back first: nothing would be left to flush
	job d "[d]\ntree = 2x2\nop = create, fsync\ncache = drop\n"
	refused plan d "d.ini:4: cache = drop with op = fsync"
}
