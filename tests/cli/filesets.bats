#!/usr/bin/env bats
# File sets (nrfiles > 1): a job reads N files of filesize bytes that
# iosweep made in directory, named by filename_format; file_service_type says
# which file each I/O goes to.  Counted with strace, checksummed against the
# files laid end to end (the checksum's seed is the set offset:
# file number * filesize + offset in the file), and refused when bad.
# make check: runs beside another file

load helpers

# catset N: the set's files 0..N-1 laid end to end, as $TESTDIR/all
catset() {
	: >"$TESTDIR/all"
	for k in $(seq 0 $(($1 - 1))); do cat "$TESTDIR/s.$k" >>"$TESTDIR/all"; done
}

@test "a set of 4 files is made by iosweep, each filesize bytes with a record, and read whole: bytes and reads over the set" {
	job s "[s]\nnrfiles = 4\nfilesize = 64k\nbs = 4k\nrepeat = 2\ncache = keep\nconsume = checksum\n"
	run "$IOSWEEP" run "$TESTDIR/s.ini" -q -o json:"$TESTDIR/s.json"
	[ "$status" -eq 0 ]
	for k in 0 1 2 3; do
		[ "$(stat -c %s "$TESTDIR/s.$k")" = 65536 ]
		python3 -c 'import os,sys; print(os.getxattr(sys.argv[1], "user.iosweep").decode())' "$TESTDIR/s.$k" 2>/dev/null | grep -q "size=65536" ||
			grep -q "size=65536" "$TESTDIR/s.$k.iosweep-record"
	done
	[ ! -e "$TESTDIR/s.4" ]
	[ "$(json_get "$TESTDIR/s.json" 'd["runs"][0]["planned_bytes"]')" = 262144 ]
	[ "$(json_get "$TESTDIR/s.json" '[x["bytes"] for x in d["runs"][0]["repeats"]]')" = "[262144, 262144]" ]
	[ "$(json_get "$TESTDIR/s.json" '[x["reads"] for x in d["runs"][0]["repeats"]]')" = "[64, 64]" ]
}

@test "the plan says how many files and bytes the set has" {
	job s "[s]\nnrfiles = 3\nfilesize = 8k\nbs = 4k\nrepeat = 1\n"
	run "$IOSWEEP" plan "$TESTDIR/s.ini"
	[ "$status" -eq 0 ]
	[[ "$output" == *"nrfiles=3"* ]]
	[[ "$output" == *"filesize=8KiB"* ]]
	[[ "$output" == *"$TESTDIR/s.\$filenum"* ]]
}

@test "every service type, pattern, engine and thread count gives the checksum of the files laid end to end" {
	job s "[global]\nnrfiles = 5\nfilesize = 48k\nbs = 4k\nrepeat = 1\ncache = keep\nconsume = checksum\nfile_service_type = roundrobin, sequential, random\npattern = sequential, random\nengine = sync, psync2, aio, uring\nthreads = 1, 3\n[s]\n"
	run "$IOSWEEP" run "$TESTDIR/s.ini" -q -o json:"$TESTDIR/s.json"
	[ "$status" -eq 0 ]
	catset 5
	want=$(python3 "$BATS_TEST_DIRNAME/offsets.py" sequential 245760 4096 4096 0 1 | "$HELPERS/refsum" "$TESTDIR/all")
	[ "$(json_get "$TESTDIR/s.json" 'len(d["runs"])')" = 48 ]
	[ "$(json_get "$TESTDIR/s.json" 'sorted({x["checksum"] for r in d["runs"] for x in r["repeats"]})')" = "['$want']" ]
}

# preads FILE: "FD OFFSET" of each pread64 in an strace log
preads() {
	sed -n 's/.*pread64(\([0-9]*\), .*, \([0-9]*\)) = 4096$/\1 \2/p' "$1"
}

@test "roundrobin goes to the next file each read, sequential finishes each file first, random serves every file once a round (strace)" {
	command -v strace >/dev/null || skip "strace is not installed"
	job s "[s]\nnrfiles = 3\nfilesize = 16k\nbs = 4k\nrepeat = 1\ncache = keep\n"
	for t in roundrobin sequential random; do
		strace -f -e trace=pread64 -o "$TESTDIR/$t.tr" "$IOSWEEP" run "$TESTDIR/s.ini" -q --set file_service_type=$t -o json:"$TESTDIR/$t.json"
		[ "$(json_get "$TESTDIR/$t.json" 'd["runs"][0]["repeats"][0]["reads"]')" = 12 ]
		preads "$TESTDIR/$t.tr" >"$TESTDIR/$t.p"
		# the syscalls happen as often as reported, each block of each file once
		[ "$(wc -l <"$TESTDIR/$t.p")" = 12 ]
		[ "$(sort -u "$TESTDIR/$t.p" | wc -l)" = 12 ]
		[ "$(cut -d' ' -f1 "$TESTDIR/$t.p" | sort -u | wc -l)" = 3 ]
	done
	# the descriptors in file order: those of the sequential run's 1st, 5th and 9th read
	fds=($(awk 'NR % 4 == 1 {print $1}' "$TESTDIR/sequential.p"))
	[ "$(cut -d' ' -f2 "$TESTDIR/sequential.p" | tr '\n' ' ')" = "0 4096 8192 12288 0 4096 8192 12288 0 4096 8192 12288 " ]
	[ "$(cut -d' ' -f1 "$TESTDIR/roundrobin.p" | tr '\n' ' ')" = "${fds[0]} ${fds[1]} ${fds[2]} ${fds[0]} ${fds[1]} ${fds[2]} ${fds[0]} ${fds[1]} ${fds[2]} ${fds[0]} ${fds[1]} ${fds[2]} " ]
	[ "$(cut -d' ' -f2 "$TESTDIR/roundrobin.p" | tr '\n' ' ')" = "0 0 0 4096 4096 4096 8192 8192 8192 12288 12288 12288 " ]
	# random: each round of 3 reads is the 3 files, at the round's block
	for r in 0 1 2 3; do
		[ "$(sed -n "$((r * 3 + 1)),$((r * 3 + 3))p" "$TESTDIR/random.p" | cut -d' ' -f1 | sort -u | wc -l)" = 3 ]
		[ "$(sed -n "$((r * 3 + 1)),$((r * 3 + 3))p" "$TESTDIR/random.p" | cut -d' ' -f2 | sort -u)" = $((r * 4096)) ]
	done
}

@test "size without filesize is shared out over the files" {
	job s "[s]\nnrfiles = 4\nsize = 64k\nbs = 4k\nrepeat = 1\ncache = keep\n"
	run "$IOSWEEP" run "$TESTDIR/s.ini" -q -o json:"$TESTDIR/s.json"
	[ "$status" -eq 0 ]
	[ "$(stat -c %s "$TESTDIR/s.0")" = 16384 ]
	[ "$(json_get "$TESTDIR/s.json" 'd["runs"][0]["repeats"][0]["bytes"]')" = 65536 ]
}

@test "cache=fadvise evicts every file of the set, and the residency is checked over the set" {
	job s "[s]\nnrfiles = 3\nfilesize = 64k\nbs = 4k\nrepeat = 1\ncache = warm, fadvise\n"
	run "$IOSWEEP" run "$TESTDIR/s.ini" -q -o json:"$TESTDIR/s.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/s.json" '[(r["params"]["cache"], r["repeats"][0]["cache_as_asked"]) for r in d["runs"]]')" = "[('warm', True), ('fadvise', True)]" ]
	[ "$(json_get "$TESTDIR/s.json" '[r["repeats"][0]["resident_before"] for r in d["runs"]]')" = "[1.0, 0.0]" ]
}

@test "a file of the set that iosweep did not make is refused, and left as it was" {
	printf 'mine' >"$TESTDIR/s.1"
	job s "[s]\nnrfiles = 3\nfilesize = 8k\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/s.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *"s.ini:2: $TESTDIR/s.1 exists and iosweep did not make it"* ]]
	[ "$(cat "$TESTDIR/s.1")" = mine ]
	[ ! -e "$TESTDIR/s.0" ]
}

@test "a filename_format without \$filenum, which names every file alike, is refused" {
	job s "[s]\nnrfiles = 3\nfilesize = 8k\nfilename_format = \$jobname.dat\n"
	run "$IOSWEEP" check "$TESTDIR/s.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *"s.ini:4: filename_format '\$jobname.dat' gives all 3 files of the set one name"*"put \$filenum"* ]]
}

@test "nrfiles beyond the open-file limit is refused before anything is made" {
	job s "[s]\nnrfiles = 5000\nfilesize = 4k\n"
	run bash -c "ulimit -n 1024; exec \"$IOSWEEP\" check \"$TESTDIR/s.ini\""
	[ "$status" -eq 2 ]
	[[ "$output" == *"s.ini:2: nrfiles=5000 keeps 5000 files open, and the open-file limit (ulimit -n) is 1024"* ]]
	[ ! -e "$TESTDIR/s.0" ]
}

@test "what a set cannot do is refused: an inflight flush, mmap, a block spanning two files, filename" {
	job a "[s]\nnrfiles = 2\nfilesize = 8k\nop = write\nengine = aio\nsync = fsync\nsync_mode = inflight\n"
	run "$IOSWEEP" check "$TESTDIR/a.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *"a.ini:2: sync_mode=inflight queues a flush of one file"* ]]
	job b "[s]\nnrfiles = 2\nfilesize = 8k\nengine = mmap\n"
	run "$IOSWEEP" check "$TESTDIR/b.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *"b.ini:2: engine=mmap maps one file"* ]]
	job c "[s]\nnrfiles = 2\nfilesize = 6k\nbs = 4k\n"
	run "$IOSWEEP" check "$TESTDIR/c.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *"must be whole blocks of bs=4096"* ]]
	job d "[s]\nnrfiles = 2\nfilesize = 8k\nfilename = $TESTDIR/x\n"
	run "$IOSWEEP" check "$TESTDIR/d.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *"d.ini:2: nrfiles=2 names its files by directory and filename_format: remove filename"* ]]
}

@test "directory (a trailing slash or not) and filename_format name the files" {
	mkdir "$TESTDIR/d"
	job s "[s]\nnrfiles = 2\nfilesize = 8k\ndirectory = $TESTDIR/d/\nfilename_format = part-\$filenum-of-\$jobname\nrepeat = 1\ncache = keep\n"
	run "$IOSWEEP" run "$TESTDIR/s.ini" -q
	[ "$status" -eq 0 ]
	[ "$(stat -c %s "$TESTDIR/d/part-0-of-s")" = 8192 ]
	[ "$(stat -c %s "$TESTDIR/d/part-1-of-s")" = 8192 ]
}

@test "a set is written with the data of its set offsets, flushed file by file, verified, and its records say written" {
	job w "[w]\nnrfiles = 3\nfilesize = 32k\nbs = 4k\nop = write\nseed = 5\npattern = random\nfile_service_type = random\nsync = fsync\nsync_every = 5\nverify = after\nrepeat = 1\ncache = keep\n"
	command -v strace >/dev/null || skip "strace is not installed"
	# made first by a read of the same set, so that only the run's flushes are traced
	"$IOSWEEP" run "$TESTDIR/w.ini" -q --set op=read --set sync=none --set verify=none
	# the results to stdout: a file output would be fsync'ed too
	strace -f -e trace=fsync -o "$TESTDIR/w.tr" "$IOSWEEP" run "$TESTDIR/w.ini" -q -o json >"$TESTDIR/w.json"
	[ "$(json_get "$TESTDIR/w.json" 'd["runs"][0]["repeats"][0]["writes"]')" = 24 ]
	[ "$(json_get "$TESTDIR/w.json" 'd["runs"][0]["repeats"][0]["verified_bytes"]')" = 98304 ]
	# 24 writes, a flush every 5 and one at the end: 5 flushes, each of the worker's
	# descriptor and the set's 3 files
	[ "$(json_get "$TESTDIR/w.json" 'd["runs"][0]["repeats"][0]["flushes"]')" = 5 ]
	[ "$(grep -c 'fsync(.*= 0' "$TESTDIR/w.tr")" = 20 ]
	catset_w() { : >"$TESTDIR/all"; for k in 0 1 2; do cat "$TESTDIR/w.$k" >>"$TESTDIR/all"; done; }
	catset_w
	python3 "$BATS_TEST_DIRNAME/wdata.py" bytes 5 0 98304 | cmp - "$TESTDIR/all"
	for k in 0 1 2; do
		python3 -c 'import os,sys; print(os.getxattr(sys.argv[1], "user.iosweep").decode())' "$TESTDIR/w.$k" 2>/dev/null | grep -q "written=1" ||
			grep -q "written=1" "$TESTDIR/w.$k.iosweep-record"
	done
}

@test "a set's readwrite run reads and writes by the set offset's draw, and verify checks its writes" {
	job m "[m]\nnrfiles = 4\nfilesize = 16k\nbs = 4k\nop = readwrite\nrwmixread = 50\nseed = 5\nverify = after\nrepeat = 1\ncache = keep\nfile_service_type = roundrobin\n"
	run "$IOSWEEP" run "$TESTDIR/m.ini" -q -o json:"$TESTDIR/m.json"
	[ "$status" -eq 0 ]
	offs=$(seq 0 4096 61440 | tr '\n' ' ')
	w=$(python3 "$BATS_TEST_DIRNAME/wdata.py" writes 5 50 $offs)
	[ "$(json_get "$TESTDIR/m.json" 'd["runs"][0]["repeats"][0]["writes"]')" = "$w" ]
	[ "$(json_get "$TESTDIR/m.json" 'd["runs"][0]["repeats"][0]["verified_bytes"]')" = $((w * 4096)) ]
}

@test "import: fio's nrfiles, filesize, directory, file_service_type and openfiles become a set with fio's file names" {
	mkdir "$TESTDIR/d"
	printf '[global]\nioengine=psync\nbs=4k\ndirectory=%s/d\n[loader]\nrw=randread\nnrfiles=8\nfilesize=16k\nfile_service_type=sequential\nopenfiles=8\n' "$TESTDIR" >"$TESTDIR/f.fio"
	run "$IOSWEEP" import "$TESTDIR/f.fio" -o "$TESTDIR/f.ini"
	[ "$status" -eq 0 ]
	grep -qx 'nrfiles = 8' "$TESTDIR/f.ini"
	grep -qx 'filesize = 16KiB' "$TESTDIR/f.ini"
	grep -qx "directory = $TESTDIR/d" "$TESTDIR/f.ini"
	grep -qx 'filename_format = $jobname.0.$filenum' "$TESTDIR/f.ini"
	grep -qx 'file_service_type = sequential' "$TESTDIR/f.ini"
	[[ "$output" == *"openfiles=8: nothing to translate"* ]]
	run "$IOSWEEP" run "$TESTDIR/f.ini" -q --set repeat=1 -o json:"$TESTDIR/f.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/f.json" 'd["runs"][0]["repeats"][0]["bytes"]')" = 131072 ]
	[ "$(ls "$TESTDIR/d" | sort | tr '\n' ' ')" = "loader.0.0 loader.0.1 loader.0.2 loader.0.3 loader.0.4 loader.0.5 loader.0.6 loader.0.7 " ]
}

@test "import: a filesize range becomes sizes drawn file by file (for a set and for fio's filestat), noted; with size, or for one file, refused" {
	mkdir "$TESTDIR/d"
	printf '[global]\ndirectory=%s/d\n[r]\nrw=read\nnrfiles=4\nfilesize=4k-16k\n[s]\nstonewall\nioengine=filestat\nnrfiles=6\nfilesize=4k:8k\n' "$TESTDIR" >"$TESTDIR/r.fio"
	run "$IOSWEEP" import "$TESTDIR/r.fio" -o "$TESTDIR/r.ini"
	[ "$status" -eq 0 ]
	[ "$(grep -c '^filesize = ' "$TESTDIR/r.ini")" = 2 ]
	grep -qx 'filesize = 4KiB-16KiB' "$TESTDIR/r.ini"
	grep -qx 'filesize = 4KiB-8KiB' "$TESTDIR/r.ini"
	[[ "$output" == *"r.fio:6: filesize=4k-16k: translated with a difference: fio draws each file's size from the low end up to, not including, the high end"* ]]
	run "$IOSWEEP" run "$TESTDIR/r.ini" -q -o json:"$TESTDIR/r.json"
	[ "$status" -eq 0 ]
	total=$(for k in 0 1 2 3; do stat -c %s "$TESTDIR/d/r.0.$k"; done | awk '{ s += $1 } END { print s }')
	[ "$(json_get "$TESTDIR/r.json" '(d["runs"][0]["set_bytes"], d["runs"][0]["repeats"][0]["bytes"], d["runs"][1]["phase"]["filesizes"])')" = "($total, $total, '4KiB-8KiB')" ]
	printf '[a]\nrw=read\nnrfiles=4\nfilesize=4k-16k\nsize=40k\n' >"$TESTDIR/a.fio"
	run "$IOSWEEP" import "$TESTDIR/a.fio"
	[ "$status" -eq 2 ]
	[[ "$output" == *"a.fio:5: size=40k: fio does size bytes of I/O over files of sizes it draws from filesize's range"* ]]
	printf '[o]\nrw=read\nfilesize=4k-16k\n' >"$TESTDIR/o.fio"
	run "$IOSWEEP" import "$TESTDIR/o.fio"
	[ "$status" -eq 2 ]
	[[ "$output" == *"o.fio:3: filesize=4k-16k: a range of file sizes draws one file's size here (nrfiles=1)"* ]]
	printf '[b]\nrw=read\nnrfiles=4\nfilesize=4k\nopenfiles=2\n' >"$TESTDIR/b.fio"
	run "$IOSWEEP" import "$TESTDIR/b.fio"
	[ "$status" -eq 2 ]
	[[ "$output" == *"b.fio:5: openfiles=2: fio then closes and opens files during the run"* ]]
	printf '[c]\nrw=read\nnrfiles=4\nfilesize=4k\nfile_service_type=zipf:1.2\n' >"$TESTDIR/c.fio"
	run "$IOSWEEP" import "$TESTDIR/c.fio"
	[ "$status" -eq 2 ]
	[[ "$output" == *"c.fio:5: file_service_type=zipf:1.2: iosweep's file_service_type is roundrobin, sequential or random"* ]]
}

@test "a size other than nrfiles x filesize is refused" {
	job s "[s]\nnrfiles = 4\nfilesize = 8k\nsize = 16k\n"
	run "$IOSWEEP" check "$TESTDIR/s.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *"s.ini:4: size=16384 is not nrfiles=4 x filesize=8192"* ]]
}

@test "a symbolic link at a set's file name is refused, whether it points somewhere or nowhere" {
	printf 'mine' >"$TESTDIR/mine"
	ln -s "$TESTDIR/mine" "$TESTDIR/s.1"
	job s "[s]\nnrfiles = 3\nfilesize = 8k\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/s.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *"s.ini:2: $TESTDIR/s.1 exists and iosweep did not make it"* ]]
	rm "$TESTDIR/s.1"
	ln -s "$TESTDIR/nowhere" "$TESTDIR/s.2"
	run "$IOSWEEP" run "$TESTDIR/s.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *"s.ini:2: $TESTDIR/s.2 is a symbolic link to a file that does not exist"* ]]
	[ "$(cat "$TESTDIR/mine")" = mine ]
	[ ! -e "$TESTDIR/nowhere" ]
	[ ! -e "$TESTDIR/s.0" ]
}

# drawn_sizes SEED LO HI N: the sizes filesize = LO-HI draws for files 0..N-1
# (steps of LO), computed here from the man page's rule, not by iosweep
drawn_sizes() {
	python3 - "$@" <<'PY'
import sys
M = (1 << 64) - 1
def sm(x):
    x = (x + 0x9e3779b97f4a7c15) & M
    x = ((x ^ (x >> 30)) * 0xbf58476d1ce4e5b9) & M
    x = ((x ^ (x >> 27)) * 0x94d049bb133111eb) & M
    return x ^ (x >> 31)
seed, lo, hi, n = map(int, sys.argv[1:])
key, steps = sm(seed ^ 0x66696c6573697a), (hi - lo) // lo + 1
print(" ".join(str(lo + lo * ((sm(key ^ sm(k)) * steps) >> 64)) for k in range(n)))
PY
}

@test "filesize drawn file by file: each file made its size, every block read once for each service type, the checksum of the files end to end (strace)" {
	command -v strace >/dev/null || skip "strace is not installed"
	job s "[s]\nnrfiles = 6\nfilesize = 4k-32k\nseed = 3\nbs = 4k\nrepeat = 1\ncache = keep\nconsume = checksum\n"
	want=$(drawn_sizes 3 4096 32768 6)
	# sizes that differ, or the test proves nothing
	[ "$(echo "$want" | tr ' ' '\n' | sort -u | wc -l)" -ge 3 ]
	total=$(echo "$want" | tr ' ' '\n' | awk '{ s += $1 } END { print s }')
	run "$IOSWEEP" plan "$TESTDIR/s.ini"
	[ "$status" -eq 0 ]
	[[ "$output" == *"$((total / 4096)) reads"* ]]
	for t in roundrobin sequential random; do
		strace -f -e trace=pread64 -o "$TESTDIR/$t.tr" "$IOSWEEP" run "$TESTDIR/s.ini" -q --set file_service_type=$t -o json:"$TESTDIR/$t.json"
		[ "$(json_get "$TESTDIR/$t.json" '(d["runs"][0]["set_bytes"], d["runs"][0]["params"]["size"], d["runs"][0]["repeats"][0]["bytes"])')" = "($total, 32768, $total)" ]
		preads "$TESTDIR/$t.tr" >"$TESTDIR/$t.p"
		# each block of each file once, none beyond its file's end
		[ "$(wc -l <"$TESTDIR/$t.p")" = $((total / 4096)) ]
		[ "$(sort -u "$TESTDIR/$t.p" | wc -l)" = $((total / 4096)) ]
	done
	have=$(for k in 0 1 2 3 4 5; do stat -c %s "$TESTDIR/s.$k"; done | tr '\n' ' ')
	[ "$have" = "$want " ]
	# roundrobin: round d holds block d of every file longer than d blocks
	rr=$(cut -d' ' -f2 "$TESTDIR/roundrobin.p" | tr '\n' ' ')
	exp=$(python3 -c 'import sys; s=[int(x)//4096 for x in sys.argv[1:]]; print(" ".join(str(d*4096) for d in range(max(s)) for b in s if b > d))' $want)
	[ "$rr" = "$exp " ]
	catset 6
	sum=$(python3 "$BATS_TEST_DIRNAME/offsets.py" sequential "$total" 4096 4096 0 1 | "$HELPERS/refsum" "$TESTDIR/all")
	[ "$(json_get "$TESTDIR/roundrobin.json" 'd["runs"][0]["repeats"][0]["checksum"]')" = "$sum" ]
	[ "$(json_get "$TESTDIR/random.json" 'd["runs"][0]["repeats"][0]["checksum"]')" = "$sum" ]
	python3 "$BATS_TEST_DIRNAME/check_schema.py" "$TESTDIR/random.json"
}

@test "filesize drawn file by file: a set written and verified with its own sizes; a size beside it and sizes not whole blocks are refused" {
	job w "[w]\nnrfiles = 5\nfilesize = 8k/50:24k/50\nbs = 4k\nop = write, read\nverify = after\nrepeat = 1\ncache = keep\nfile_service_type = random\npattern = random\n"
	run "$IOSWEEP" run "$TESTDIR/w.ini" -q -o json:"$TESTDIR/w.json"
	[ "$status" -eq 0 ]
	total=$(for k in 0 1 2 3 4; do stat -c %s "$TESTDIR/w.$k"; done | awk '{ s += $1 } END { print s }')
	[ "$(json_get "$TESTDIR/w.json" '[r["repeats"][0]["verified_bytes"] for r in d["runs"]]')" = "[$total, $total]" ]
	[ "$(for k in 0 1 2 3 4; do stat -c %s "$TESTDIR/w.$k"; done | sort -nu | tr "\n" " ")" = "8192 24576 " ]
	job a "[a]\nnrfiles = 4\nfilesize = 4k-16k\nsize = 40k\n"
	refused plan a "a.ini:4: size with filesize = 4k-16k drawn file by file"
	job c "[c]\nnrfiles = 4\nfilesize = 6k-18k\nbs = 4k\n"
	refused plan c "c.ini:2: the set's files (filesize = 6k-18k) must be whole blocks of bs=4096"
}
