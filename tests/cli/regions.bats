#!/usr/bin/env bats
# offset and offset_increment (fio's): the pattern runs over a region of the
# file, shared by the threads, or one region per thread; the reads, offsets
# and checksums are recomputed without iosweep's code (offsets.py over the
# region, shifted, and refsum), the offsets also seen by strace.
# make check: runs beside another file

load helpers

# A file whose size is not a multiple of the block size.
SIZE=1048837

make_file() {
	head -c $SIZE /dev/urandom >"$TESTDIR/data"
}

# regsum PATTERN REGION BS SPACING COUNT SEED BASE...: the reference checksum
# of the pattern over a region of REGION bytes at each BASE, summed mod 2^64
regsum() {
	local p=$1 region=$2 bs=$3 sp=$4 count=$5 seed=$6 base
	shift 6
	for base in "$@"; do
		python3 "$BATS_TEST_DIRNAME/offsets.py" "$p" "$region" "$bs" "$sp" "$count" "$seed" |
			awk -v b="$base" '{printf "%d %d\n", $1 + b, $2}'
	done | "$HELPERS/refsum" "$TESTDIR/data"
}

# regreads PATTERN REGION BS SPACING COUNT SEED: the reads of one region
regreads() {
	python3 "$BATS_TEST_DIRNAME/offsets.py" "$@" | wc -l
}

@test "offset: every pattern and thread count reads the region from offset to the end of the file" {
	make_file
	job o "[global]\nfilename = $TESTDIR/data\nbs = 4k\nrepeat = 1\noffset = 100k\nthreads = 1, 3\n[dense]\npattern = sequential, reverse, random, random-replace\n[sparse]\nspacing = 20k\n"
	run "$IOSWEEP" run "$TESTDIR/o.ini" -o json:"$TESTDIR/o.json"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$(json_get "$TESTDIR/o.json" 'len(d["runs"])')" = 10 ]
	region=$((SIZE - 102400))
	for p in sequential reverse random random-replace; do
		ref=$(regsum $p $region 4096 4096 0 1 102400)
		reads=$(regreads $p $region 4096 4096 0 1)
		got=$(json_get "$TESTDIR/o.json" "sorted({(r['repeats'][0]['checksum'], r['repeats'][0]['reads']) for r in d['runs'] if r['job'] == 'dense' and r['params']['pattern'] == '$p'})")
		[ "$got" = "[('$ref', $reads)]" ] || { echo "$p: $got != $ref $reads"; false; }
	done
	ref=$(regsum sequential $region 4096 20480 0 1 102400)
	reads=$(regreads sequential $region 4096 20480 0 1)
	got=$(json_get "$TESTDIR/o.json" "sorted({(r['repeats'][0]['checksum'], r['repeats'][0]['reads']) for r in d['runs'] if r['job'] == 'sparse'})")
	[ "$got" = "[('$ref', $reads)]" ]
}

@test "offset: the reads strace sees are the region's, and a percent is of the file, rounded up to bs" {
	command -v strace >/dev/null || skip "no strace"
	make_file
	# 10% of 1048837 is 104883.7 bytes: 104883, rounded up to 26 blocks of 4 KiB
	job o "[o]\nfilename = $TESTDIR/data\nbs = 4k\nrepeat = 1\ncache = keep\noffset = 10%\npattern = random\n"
	run strace -f -qq -e trace=pread64 -o "$TESTDIR/st" "$IOSWEEP" run "$TESTDIR/o.ini" -o json:"$TESTDIR/o.json"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	base=$((26 * 4096))
	grep -o 'pread64([0-9]*, .*, 4096, [0-9]*)' "$TESTDIR/st" | sed 's/.*, //; s/)$//' | sort -n >"$TESTDIR/seen"
	python3 "$BATS_TEST_DIRNAME/offsets.py" random $((SIZE - base)) 4096 4096 0 1 |
		awk -v b=$base '{print $1 + b}' | sort -n >"$TESTDIR/want"
	[ -s "$TESTDIR/want" ]
	diff "$TESTDIR/want" "$TESTDIR/seen"
	[ "$(json_get "$TESTDIR/o.json" 'd["runs"][0]["repeats"][0]["checksum"]')" = "$(regsum random $((SIZE - base)) 4096 4096 0 1 $base)" ]
}

@test "offset_increment: each thread reads the whole pattern over its own region" {
	make_file
	# 3 threads, regions at 64k, 64k + 300k, 64k + 600k, each SIZE - 64k - 600k long
	job i "[global]\nfilename = $TESTDIR/data\nbs = 4k\nrepeat = 1\nthreads = 3\noffset = 64k\noffset_increment = 300k\nengine = sync, uring\niodepth = 4\n[i]\npattern = sequential, reverse, random, random-replace\n"
	run "$IOSWEEP" run "$TESTDIR/i.ini" -o json:"$TESTDIR/i.json"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	region=$((SIZE - 65536 - 2 * 307200))
	for p in sequential reverse random random-replace; do
		ref=$(regsum $p $region 4096 4096 0 1 65536 $((65536 + 307200)) $((65536 + 614400)))
		reads=$(($(regreads $p $region 4096 4096 0 1) * 3))
		got=$(json_get "$TESTDIR/i.json" "sorted({(r['repeats'][0]['checksum'], r['repeats'][0]['reads']) for r in d['runs'] if r['params']['pattern'] == '$p'})")
		[ "$got" = "[('$ref', $reads)]" ] || { echo "$p: $got != $ref $reads"; false; }
	done
	# coverage: every block of the three regions once
	got=$(json_get "$TESTDIR/i.json" "sorted({round(r['repeats'][0]['coverage_Bps'] * r['repeats'][0]['time_to_end_s']) for r in d['runs'] if r['params']['pattern'] == 'random'})")
	[ "$got" = "[$((3 * (region / 4096) * 4096))]" ]
}

@test "offset_increment: strace sees each thread's region, and a percent increment is of the file" {
	command -v strace >/dev/null || skip "no strace"
	make_file
	job i "[i]\nfilename = $TESTDIR/data\nbs = 16k\nrepeat = 1\ncache = keep\nthreads = 2\noffset_increment = 50%\n"
	run strace -ff -qq -e trace=pread64 -o "$TESTDIR/st" "$IOSWEEP" run "$TESTDIR/i.ini" -o json:"$TESTDIR/i.json"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	inc=$((SIZE / 2))
	region=$((SIZE - inc))
	# the data file's reads: 16 KiB, and the 131 bytes at the end of each region
	cat "$TESTDIR"/st.* | sed -n 's/.*, \([0-9]*\), \([0-9]*\)) = [0-9]*$/\2 \1/p' |
		awk '$2 == 16384 || $2 == 131' | sort -n >"$TESTDIR/seen"
	for base in 0 $inc; do
		python3 "$BATS_TEST_DIRNAME/offsets.py" sequential $region 16384 16384 0 1 |
			awk -v b=$base '{print $1 + b, $2}'
	done | sort -n >"$TESTDIR/want"
	diff "$TESTDIR/want" "$TESTDIR/seen"
	[ "$(json_get "$TESTDIR/i.json" 'd["runs"][0]["repeats"][0]["bytes"]')" = $((2 * region)) ]
}

@test "bad regions are refused with FILE:LINE before any I/O" {
	make_file
	for bad in "offset = 2m|is beyond the file" "offset = 1048837|is beyond the file" \
		"offset = 101%|not a percent" "offset = x|offset:" "offset_increment = 2m|do not fit the file" \
		"offset = 1046528|smaller than bs"; do
		job b "[b]\nfilename = $TESTDIR/data\nthreads = 2\n${bad%%|*}\n"
		refused run b "${bad#*|}" "$TESTDIR/data"
		[[ "$output" = "iosweep: $TESTDIR/b.ini:4: "* ]] || { echo "$output"; false; }
	done
	job b "[b]\nfilename = $TESTDIR/data\nthreads = 3\noffset = 512k\noffset_increment = 300k\n"
	refused run b "3 threads' regions from offset 524288 every 307200 bytes do not fit" "$TESTDIR/data"
	[[ "$output" = "iosweep: $TESTDIR/b.ini:5: "* ]]
	job b "[b]\nfilename = $TESTDIR/data\noffset_increment = 64k\nthreads = 2\nbssplit = 4k/50:8k/50\n"
	refused run b "a mix of block sizes (bssplit) is counted over one" "$TESTDIR/data"
	[[ "$output" = "iosweep: $TESTDIR/b.ini:3: "* ]]
	job b "[b]\noffset = 4k\nnrfiles = 2\nsize = 64k\n"
	refused run b "offset places a region in one file: not with nrfiles > 1"
	[[ "$output" = "iosweep: $TESTDIR/b.ini:2: "* ]]
}

@test "import: fio's offset, offset_increment and percent offsets become the same regions, read at fio's offsets" {
	head -c 65536 /dev/urandom >"$TESTDIR/r.dat"
	printf '[global]\nfilename=%s\nbs=4k\nsize=16k\nioengine=psync\n[b]\nrw=read\nnumjobs=3\noffset=8k\noffset_increment=16k\n[c]\nstonewall\nrw=read\noffset=25%%\nsize=8k\n[d]\nstonewall\nrw=randread\noffset=40k\n' "$TESTDIR/r.dat" >"$TESTDIR/g.fio"
	run "$IOSWEEP" import "$TESTDIR/g.fio" -o "$TESTDIR/g.ini"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	# b: 3 regions of 16k from 8k, every 16k: the file ends at 56k; c: 25% of 64k;
	# d: 16k from 40k
	[ "$(sed -n '/^\[b\]/,/^$/p' "$TESTDIR/g.ini" | grep -E '^(size|offset|offset_increment|threads) ' | tr '\n' ' ')" = "size = 56KiB offset = 8KiB offset_increment = 16KiB threads = 3 " ]
	[ "$(sed -n '/^\[c\]/,/^$/p' "$TESTDIR/g.ini" | grep -E '^(size|offset) ' | tr '\n' ' ')" = "size = 24KiB offset = 16KiB " ]
	[ "$(sed -n '/^\[d\]/,/^$/p' "$TESTDIR/g.ini" | grep -E '^(size|offset) ' | tr '\n' ' ')" = "size = 56KiB offset = 40KiB " ]
	printf 'repeat = 1\n' >>"$TESTDIR/g.ini"
	run "$IOSWEEP" run "$TESTDIR/g.ini" -o json:"$TESTDIR/g.json"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$(json_get "$TESTDIR/g.json" '[(r["job"], r["repeats"][0]["reads"]) for r in d["runs"]]')" = "[('b', 12), ('c', 2), ('d', 4)]" ]
	command -v fio >/dev/null && command -v strace >/dev/null || skip "no fio or strace to compare with"
	# fio reads the same offsets (fio 3.33)
	(cd "$TESTDIR" && strace -ff -qq -e trace=pread64 -o fst fio g.fio >/dev/null 2>&1)
	(cd "$TESTDIR" && strace -ff -qq -e trace=pread64 -o ist "$IOSWEEP" run g.ini >/dev/null 2>&1)
	cat "$TESTDIR"/fst.* | sed -n 's/.*, 4096, \([0-9]*\)) = 4096$/\1/p' | sort -n >"$TESTDIR/fio"
	cat "$TESTDIR"/ist.* | sed -n 's/.*, 4096, \([0-9]*\)) = 4096$/\1/p' | sort -n >"$TESTDIR/ours"
	[ "$(wc -l <"$TESTDIR/fio")" -eq 18 ]
	diff "$TESTDIR/fio" "$TESTDIR/ours"
}

@test "import: regions iosweep cannot place are refused with the fio setting's line" {
	head -c 65536 /dev/urandom >"$TESTDIR/r.dat"
	printf '[a]\nfilename=%s\nrw=randread\nsize=16k\nnumjobs=2\noffset_increment=16k\nbssplit=4k/50:8k/50\n' "$TESTDIR/r.dat" >"$TESTDIR/a.fio"
	run "$IOSWEEP" import "$TESTDIR/a.fio"
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: $TESTDIR/a.fio:6: offset_increment=16k: iosweep gives each thread its own region only with one block size, not a mix (bssplit, bsrange)" ]
	printf '[a]\nfilename=%s\nrw=read\noffset=64k\n' "$TESTDIR/r.dat" >"$TESTDIR/a.fio"
	run "$IOSWEEP" import "$TESTDIR/a.fio"
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: $TESTDIR/a.fio:4: offset=64k: is beyond the end of the file (65536 bytes)" ]
	printf '[a]\nrw=read\nnrfiles=2\nsize=64k\noffset=4k\n' >"$TESTDIR/a.fio"
	run "$IOSWEEP" import "$TESTDIR/a.fio"
	[ "$status" -eq 2 ]
	[[ "$output" = *"a.fio:5: offset=4k: iosweep places a region in one file, not in each file of a set" ]]
}

@test "import: io_size is a count of I/Os at random (passes wrap, as fio's) and a shorter region in order" {
	head -c 65536 /dev/urandom >"$TESTDIR/r.dat"
	printf '[global]\nfilename=%s\nbs=4k\nsize=16k\nioengine=psync\n[r]\nrw=randread\nio_size=40k\n[s]\nstonewall\nrw=read\nio_size=8k\n[n]\nstonewall\nrw=randread\nio_limit=40k\nnumber_ios=3\n' "$TESTDIR/r.dat" >"$TESTDIR/io.fio"
	run "$IOSWEEP" import "$TESTDIR/io.fio" -o "$TESTDIR/io.ini"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$(sed -n '/^\[r\]/,/^$/p' "$TESTDIR/io.ini" | grep -E '^(size|count) ' | tr '\n' ' ')" = "size = 16KiB count = 10 " ]
	[ "$(sed -n '/^\[s\]/,/^$/p' "$TESTDIR/io.ini" | grep -E '^(size|count) ' | tr '\n' ' ')" = "size = 8KiB " ]
	[ "$(sed -n '/^\[n\]/,/^$/p' "$TESTDIR/io.ini" | grep -E '^(size|count) ' | tr '\n' ' ')" = "size = 16KiB count = 3 " ]
	printf 'repeat = 1\n' >>"$TESTDIR/io.ini"
	run "$IOSWEEP" run "$TESTDIR/io.ini" -o json:"$TESTDIR/io.json"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	# 10 random reads of 4 blocks: two whole passes (every block twice), then 2 more
	[ "$(json_get "$TESTDIR/io.json" '[(r["job"], r["repeats"][0]["reads"]) for r in d["runs"]]')" = "[('r', 10), ('s', 2), ('n', 3)]" ]
	command -v fio >/dev/null && command -v strace >/dev/null || skip "no fio or strace to compare with"
	(cd "$TESTDIR" && strace -ff -qq -e trace=pread64 -o fst fio io.fio >/dev/null 2>&1)
	[ "$(for f in "$TESTDIR"/fst.*; do grep -c ', 4096, [0-9]*) = 4096$' "$f"; done | grep -v '^0$' | sort -n | tr '\n' ' ')" = "2 3 10 " ]
}

@test "import: io_size beyond the region in order, or with holes or a mix, is refused at its line" {
	head -c 65536 /dev/urandom >"$TESTDIR/r.dat"
	printf '[a]\nfilename=%s\nrw=read\nsize=16k\nio_size=32k\n' "$TESTDIR/r.dat" >"$TESTDIR/a.fio"
	run "$IOSWEEP" import "$TESTDIR/a.fio"
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: $TESTDIR/a.fio:5: io_size=32k: fio goes round the 16384-byte region again until io_size; iosweep reads it once per repeat in order: make io_size the size, or use time_based" ]
	printf '[a]\nfilename=%s\nrw=randread\nsize=16k\nbssplit=4k/50:8k/50\nio_size=32k\n' "$TESTDIR/r.dat" >"$TESTDIR/a.fio"
	run "$IOSWEEP" import "$TESTDIR/a.fio"
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: $TESTDIR/a.fio:6: io_size=32k: with mixed block sizes: give the fio job number_ios" ]
	printf '[a]\nfilename=%s\nrw=randread\nsize=16k\nio_size=10%%\n' "$TESTDIR/r.dat" >"$TESTDIR/a.fio"
	run "$IOSWEEP" import "$TESTDIR/a.fio"
	[ "$status" -eq 2 ]
	[[ "$output" = *"a.fio:5: io_size=10%: a percentage of I/O: give it in bytes" ]]
}

@test "import: fio's backward holes (rw=read:-N) become pattern = reverse with spacing N - bs: fio's count, stride and direction" {
	head -c 65536 /dev/urandom >"$TESTDIR/r.dat"
	printf '[global]\nfilename=%s\nbs=4k\nsize=32k\nioengine=psync\n[a]\nrw=read:-8k\n[b]\nstonewall\nrw=read:-12k\nnumber_ios=4\n' "$TESTDIR/r.dat" >"$TESTDIR/b.fio"
	run "$IOSWEEP" import "$TESTDIR/b.fio" -o "$TESTDIR/b.ini"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" = *"b.fio:7: rw=read:-8k: translated with a difference"* ]]
	[[ "$output" = *"b.fio:10: rw=read:-12k: translated with a difference"* ]]
	# the two jobs differ by spacing only: one job with a list
	[ "$(sed -n '/^\[a\]/,/^$/p' "$TESTDIR/b.ini" | grep -E '^(size|offset|spacing|pattern) ' | tr '\n' ' ')" = "size = 32KiB spacing = 4KiB, 8KiB pattern = reverse " ]
	(cd "$TESTDIR" && strace -ff -qq -e trace=pread64 -o ist "$IOSWEEP" run b.ini -o json:b.json >/dev/null 2>&1)
	[ "$(json_get "$TESTDIR/b.json" '[(r["job"], r["repeats"][0]["reads"]) for r in d["runs"]]')" = "[('a', 8), ('a', 4)]" ]
	# in blocks: a reads 7 down to 0, b 6 4 2 0 (fio: 0 6 5 4 3 2 1 0 and 0 5 3 1)
	[ "$(for f in "$TESTDIR"/ist.*; do sed -n 's/.*, 4096, \([0-9]*\)) = 4096$/\1/p' "$f" | awk '{printf "%d ", $1 / 4096}'; done | tr -s ' ')" != "" ]
	got=$(cat "$TESTDIR"/ist.* | sed -n 's/.*, 4096, \([0-9]*\)) = 4096$/\1/p' | awk '{printf "%d ", $1 / 4096}')
	[ "$got" = "7 6 5 4 3 2 1 0 6 4 2 0 " ] || [ "$got" = "6 4 2 0 7 6 5 4 3 2 1 0 " ] || { echo "$got"; false; }
	# refused: a step back of less than a block, and more I/Os than a pass (fio goes round)
	printf '[a]\nfilename=%s\nbs=4k\nsize=32k\nrw=read:-4k\n' "$TESTDIR/r.dat" >"$TESTDIR/c.fio"
	run "$IOSWEEP" import "$TESTDIR/c.fio"
	[ "$status" -eq 2 ]
	[[ "$output" = *"c.fio:5: rw=read:-4k: fio steps back 0 or fewer bytes per I/O"* ]]
	printf '[a]\nfilename=%s\nbs=4k\nsize=32k\nrw=read:-12k\n' "$TESTDIR/r.dat" >"$TESTDIR/c.fio"
	run "$IOSWEEP" import "$TESTDIR/c.fio"
	[ "$status" -eq 2 ]
	[[ "$output" = *"c.fio:5: rw=read:-12k: fio does size/bs I/Os (8 here)"*"add number_ios=4"* ]]
	command -v fio >/dev/null && command -v strace >/dev/null || skip "no fio or strace to compare with"
	(cd "$TESTDIR" && strace -ff -qq -e trace=pread64 -o fst fio b.fio >/dev/null 2>&1)
	[ "$(for f in "$TESTDIR"/fst.*; do grep -c ', 4096, [0-9]*) = 4096$' "$f"; done | grep -v '^0$' | sort -n | tr '\n' ' ')" = "4 8 " ]
}

@test "offset_increment under MPI: ranks sharing one file are refused at its line, a file per rank gives each rank's threads their regions" {
	MPI=${IOSWEEP_MPI:-$BATS_TEST_DIRNAME/../../build/iosweep-mpi}
	[ -x "$MPI" ] && command -v mpirun >/dev/null || skip "no iosweep-mpi or mpirun"
	make_file
	job m "[m]\nfilename = $TESTDIR/data\nbs = 4k\nrepeat = 1\nthreads = 2\noffset_increment = 256k\n"
	run timeout 60 mpirun --allow-run-as-root --oversubscribe -np 2 "$MPI" run "$TESTDIR/m.ini"
	[ "$status" -eq 2 ]
	[ "$(echo "$output" | grep -c "m.ini:6: offset_increment gives each thread a region, and 2 ranks sharing one file would cut them")" -ge 1 ]
	cp "$TESTDIR/data" "$TESTDIR/data.0"
	cp "$TESTDIR/data" "$TESTDIR/data.1"
	job m "[m]\nfilename = $TESTDIR/data.{rank}\nbs = 4k\nrepeat = 1\nthreads = 2\noffset_increment = 256k\n"
	run timeout 60 mpirun --allow-run-as-root --oversubscribe -np 2 "$MPI" run "$TESTDIR/m.ini" -o json:"$TESTDIR/m.json"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	region=$((SIZE - 262144))
	reads=$(regreads sequential $region 4096 4096 0 1)
	[ "$(json_get "$TESTDIR/m.json" 'd["runs"][0]["repeats"][0]["reads"]')" = $((4 * reads)) ]
}
