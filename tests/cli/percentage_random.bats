#!/usr/bin/env bats
# percentage_random (fio's): N percent of a random job's units at random, the
# others reading the block after the unit before them.  The offsets strace
# sees, the checksums and the distinct blocks are recomputed without
# iosweep's code (pctrand_ref.py); bad values are refused with their line.
# make check: runs beside another file

load helpers

# A file whose size is not a multiple of the block size.
SIZE=1048837

make_file() {
	head -c $SIZE /dev/urandom >"$TESTDIR/data"
}

# ref PATTERN SIZE BS COUNT SEED PERCENT: the reference's "OFFSET LENGTH" lines
ref() {
	python3 "$BATS_TEST_DIRNAME/pctrand_ref.py" "$@"
}

# per_thread: each traced thread's 4 KiB reads of the data file, one line of
# offsets in the order it read them, the lines sorted
per_thread() {
	for f in "$TESTDIR"/st.*; do
		sed -n 's/^pread64([0-9]*, .*, 4096, \([0-9]*\)) = 4096$/\1/p' "$f" | tr '\n' ' '
		echo
	done | grep -v '^$' | sort
}

@test "the offsets strace sees, thread by thread, are the reference's (0, 30 and 100 percent; 1 and 2 threads)" {
	command -v strace >/dev/null || skip "no strace"
	make_file
	for n in 0 30 100; do
		for t in 1 2; do
			job p "[p]\nfilename = $TESTDIR/data\nbs = 4k\nrepeat = 1\ncache = keep\npattern = random\nseed = 5\npercentage_random = $n\nthreads = $t\n"
			rm -f "$TESTDIR"/st.*
			run strace -ff -qq -e trace=pread64 -o "$TESTDIR/st" "$IOSWEEP" run "$TESTDIR/p.ini"
			[ "$status" -eq 0 ] || { echo "$output"; false; }
			per_thread >"$TESTDIR/seen"
			# 256 units: thread k of t reads units [256 k / t, 256 (k + 1) / t)
			ref random $SIZE 4096 0 5 $n | awk -v t=$t '{o[NR - 1] = $1} END {
				for (k = 0; k < t; k++) { s = ""; for (u = 256 * k / t; u < 256 * (k + 1) / t; u++) s = s o[u] " "; print s } }' |
				sort >"$TESTDIR/want"
			[ "$(wc -l <"$TESTDIR/want")" -eq $t ]
			diff "$TESTDIR/want" "$TESTDIR/seen" || { echo "percentage_random=$n threads=$t"; false; }
		done
	done
	# 0 is the file in order, and 30 is neither that nor 100's order
	[ "$(ref random $SIZE 4096 0 5 0 | cut -d' ' -f1 | tr '\n' ' ')" = "$(seq 0 4096 $((255 * 4096)) | tr '\n' ' ')" ]
	[ "$(ref random $SIZE 4096 0 5 30 | md5sum)" != "$(ref random $SIZE 4096 0 5 100 | md5sum)" ]
	[ "$(ref random $SIZE 4096 0 5 30 | md5sum)" != "$(ref random $SIZE 4096 0 5 0 | md5sum)" ]
}

@test "offset_increment: each thread mixes over its own region, from the region's first block" {
	command -v strace >/dev/null || skip "no strace"
	make_file
	job r "[r]\nfilename = $TESTDIR/data\nbs = 4k\nrepeat = 1\ncache = keep\npattern = random-replace\npercentage_random = 30\nthreads = 2\noffset_increment = 50%\n"
	run strace -ff -qq -e trace=pread64 -o "$TESTDIR/st" "$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	per_thread >"$TESTDIR/seen"
	inc=$((SIZE / 2))
	region=$((SIZE - inc))
	for base in 0 $inc; do
		ref random-replace $region 4096 0 1 30 | awk -v b=$base '{printf "%d ", $1 + b} END {print ""}'
	done | sort >"$TESTDIR/want"
	diff "$TESTDIR/want" "$TESTDIR/seen"
	want=$((2 * $(ref random-replace $region 4096 0 1 30 | sort -u | wc -l)))
	[ "$(json_get "$TESTDIR/r.json" 'round(d["runs"][0]["repeats"][0]["coverage_Bps"] / d["runs"][0]["repeats"][0]["throughput_Bps"] * d["runs"][0]["repeats"][0]["bytes"] / 4096)')" = "$want" ]
}

@test "checksums are the reference's for every engine and thread count, over several passes and a region" {
	make_file
	job e "[global]\nfilename = $TESTDIR/data\nbs = 4k\nrepeat = 1\ncache = keep\nseed = 9\ncount = 700\noffset = 100k\npercentage_random = 45\nengine = sync, psync2, aio, uring, mmap\niodepth = 4\nthreads = 1, 3\n[r]\npattern = random\n[rr]\npattern = random-replace\n"
	run "$IOSWEEP" run "$TESTDIR/e.ini" -o json:"$TESTDIR/e.json"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$(json_get "$TESTDIR/e.json" 'len(d["runs"])')" = 20 ]
	for j in r:random rr:random-replace; do
		want=$(ref "${j#*:}" $((SIZE - 102400)) 4096 700 9 45 | awk '{print $1 + 102400, $2}' | "$HELPERS/refsum" "$TESTDIR/data")
		got=$(json_get "$TESTDIR/e.json" "sorted({(r['repeats'][0]['checksum'], r['repeats'][0]['reads']) for r in d['runs'] if r['job'] == '${j%%:*}'})")
		[ "$got" = "[('$want', 700)]" ] || { echo "$j: $got, want $want"; false; }
	done
}

@test "a skewed random_distribution: the random units draw from it, the same for every thread count" {
	make_file
	job z "[z]\nfilename = $TESTDIR/data\nbs = 4k\nrepeat = 1\ncache = keep\npattern = random\nrandom_distribution = zipf:1.2\npercentage_random = 0, 50, 100\nthreads = 1, 2, 5\n"
	run "$IOSWEEP" run "$TESTDIR/z.ini" -o json:"$TESTDIR/z.json"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	got=$(json_get "$TESTDIR/z.json" "[len({r['repeats'][0]['checksum'] for r in d['runs'] if r['params']['percentage_random'] == n}) for n in (0, 50, 100)]")
	[ "$got" = "[1, 1, 1]" ]
	# 0 is the file in order, whatever the distribution
	want=$(ref random $SIZE 4096 0 1 0 | "$HELPERS/refsum" "$TESTDIR/data")
	[ "$(json_get "$TESTDIR/z.json" "{r['repeats'][0]['checksum'] for r in d['runs'] if r['params']['percentage_random'] == 0}")" = "{'$want'}" ]
}

@test "coverage_Bps counts the distinct blocks the reference reads" {
	make_file
	job c "[c]\nfilename = $TESTDIR/data\nbs = 4k\nrepeat = 1\ncache = keep\npattern = random, random-replace\npercentage_random = 30\nthreads = 1, 2\n"
	run "$IOSWEEP" run "$TESTDIR/c.ini" -o json:"$TESTDIR/c.json"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	for p in random random-replace; do
		want=$(ref $p $SIZE 4096 0 1 30 | sort -u | wc -l)
		[ "$want" -lt 256 ]
		# coverage_Bps and throughput_Bps share the time: their ratio is distinct bytes / bytes
		got=$(json_get "$TESTDIR/c.json" "sorted({round(r['repeats'][0]['coverage_Bps'] / r['repeats'][0]['throughput_Bps'] * r['repeats'][0]['bytes'] / 4096) for r in d['runs'] if r['params']['pattern'] == '$p'})")
		[ "$got" = "[$want]" ] || { echo "$p: $got, want $want"; false; }
	done
}

@test "the plan's figures are the run's: reads and writes of a readwrite mix (direction by offset)" {
	job p "[p]\nfilename = $TESTDIR/w.dat\nsize = 1m\nbs = 4k\nrepeat = 1\ncache = keep\npattern = random\ncount = 1000\npercentage_random = 20\nop = readwrite\nrwmixread = 70\nallow_write = $TESTDIR/w.dat\n"
	run "$IOSWEEP" plan "$TESTDIR/p.ini"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	planned=$(echo "$output" | sed -n 's/^total: 1 runs, \([0-9]*\) reads, \([0-9]*\) writes, 4096000 bytes.*/\1 \2/p')
	[ -n "$planned" ]
	run "$IOSWEEP" run "$TESTDIR/p.ini" -o json:"$TESTDIR/p.json"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$(json_get "$TESTDIR/p.json" '"%d %d" % (d["runs"][0]["repeats"][0]["reads"], d["runs"][0]["repeats"][0]["writes"])')" = "$planned" ]
	[ "$(json_get "$TESTDIR/p.json" '(d["runs"][0]["planned_reads"], d["runs"][0]["planned_bytes"])')" = "(1000, 4096000)" ]
	# and percentage_random moves the split (the plan walks the mixed units, not the random ones)
	sed -i 's/percentage_random = 20/percentage_random = 100/' "$TESTDIR/p.ini"
	run "$IOSWEEP" plan "$TESTDIR/p.ini"
	[ "$(echo "$output" | sed -n 's/^total: 1 runs, \([0-9]*\) reads, \([0-9]*\) writes, 4096000 bytes.*/\1 \2/p')" != "$planned" ]
}

@test "the table names percentage_random only where it applies: not at 100, blank for a run in order" {
	make_file
	job t "[t]\nfilename = $TESTDIR/data\nbs = 4k\nrepeat = 1\ncache = keep\npattern = random\n"
	run "$IOSWEEP" run "$TESTDIR/t.ini"
	[ "$status" -eq 0 ]
	[[ "$output" != *percentage_random* ]]
	printf 'percentage_random = 30\n' >>"$TESTDIR/t.ini"
	run "$IOSWEEP" run "$TESTDIR/t.ini"
	echo "$output" | grep -qE '(^|  )percentage_random=30(  |$)'
	# a list over patterns: the run in order has a blank cell, and is one run
	job u "[u]\nfilename = $TESTDIR/data\nbs = 4k\nrepeat = 1\ncache = keep\npattern = random, sequential\npercentage_random = 30, 60\n"
	run "$IOSWEEP" run "$TESTDIR/u.ini"
	echo "$output"
	[ "$status" -eq 0 ]
	echo "$output" | grep -qE '^# +pattern +percentage_random '
	echo "$output" | grep -qE '^[01] +random +(30|60) '
	echo "$output" | grep -qE '^2 +sequential +[0-9]'
	[ "$(echo "$output" | grep -cE '^[0-9] +sequential ')" = 1 ]
}

@test "bad values and a job in order are refused with the line: exit 2, one line" {
	make_file
	for v in 101 -1 12x; do
		job b "[b]\nfilename = $TESTDIR/data\npattern = random\npercentage_random = $v\n"
		refused check b "$TESTDIR/b.ini:4: percentage_random: '$v'"
	done
	job s "[s]\nfilename = $TESTDIR/data\nbs = 4k\n\npercentage_random = 30\n"
	refused check s "$TESTDIR/s.ini:5: percentage_random is for pattern = random or random-replace, and job 's' reads in order: set pattern = random"
	job g "[global]\npercentage_random = 30\n[g]\nfilename = $TESTDIR/data\npattern = sequential, reverse\n"
	refused run g "$TESTDIR/g.ini:2: percentage_random is for pattern = random"
	job m "[m]\nfilename = $TESTDIR/data\npattern = random\nbssplit = 4k/50:8k/50\npercentage_random = 30\n"
	refused check m "$TESTDIR/m.ini:4: bssplit: a block-size mix is either in order or at random: not with percentage_random below 100"
	# a sweep with a random pattern takes it (the sequential runs ignore it)
	job k "[k]\nfilename = $TESTDIR/data\npattern = sequential, random\npercentage_random = 30\n"
	run "$IOSWEEP" check "$TESTDIR/k.ini"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "iosweep options describes it" {
	run "$IOSWEEP" options
	[ "$status" -eq 0 ]
	[[ "$output" == *"percentage_random"*"pattern=random|random-replace: percent of the units at random"* ]]
}

@test "import: fio's percentage_random becomes iosweep's; differing directions are refused" {
	printf '[a]\nrw=randread\nsize=1m\npercentage_random=30\n' >"$TESTDIR/a.fio"
	run "$IOSWEEP" import "$TESTDIR/a.fio"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *$'\npercentage_random = 30\n'* ]]
	printf '[a]\nrw=randrw\nsize=1m\npercentage_random=30,50\n' >"$TESTDIR/b.fio"
	run "$IOSWEEP" import "$TESTDIR/b.fio"
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: $TESTDIR/b.fio:4: percentage_random=30,50: reads, writes and trims at different percentages: iosweep takes one percentage_random for all of a job's I/O" ]
	# reads only: the writes' value does not matter
	printf '[a]\nrw=randread\nsize=1m\npercentage_random=30,50\n' >"$TESTDIR/c.fio"
	run "$IOSWEEP" import "$TESTDIR/c.fio"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *$'\npercentage_random = 30\n'* ]]
	printf '[a]\nrw=randread\nsize=1m\npercentage_random=130\n' >"$TESTDIR/d.fio"
	run "$IOSWEEP" import "$TESTDIR/d.fio"
	[ "$status" -eq 2 ]
	[[ "$output" == *"d.fio:4: percentage_random=130: a percentage is 0 to 100"* ]]
}
