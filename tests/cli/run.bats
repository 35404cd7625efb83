#!/usr/bin/env bats
# iosweep run: every engine reads exactly the planned blocks, and the bytes it
# delivers hash to the checksum computed independently (refsum + offsets.py).
# make check: runs beside another file

load helpers

# A file whose size is not a multiple of the block size.
SIZE=3149837

make_file() {
	head -c $SIZE /dev/urandom >"$TESTDIR/data"
}

@test "every engine, pattern, thread count and iodepth reads the planned blocks with the reference checksum" {
	make_file
	job m "[global]\nfilename = $TESTDIR/data\nbs = 4k\nrepeat = 1\nengine = sync, mmap, aio, uring\nthreads = 1, 4\niodepth = 1, 16\n[dense]\npattern = sequential, reverse, random, random-replace\n[sparse]\nspacing = 20k\n"
	run "$IOSWEEP" run "$TESTDIR/m.ini" -o json:"$TESTDIR/m.json" -o table
	[ "$status" -eq 0 ]
	# sync and mmap do not multiply by iodepth: (1 + 1 + 2 + 2) * 2 threads * (4 + 1) patterns
	[ "$(json_get "$TESTDIR/m.json" 'len(d["runs"])')" = 60 ]
	for p in sequential reverse random random-replace; do
		ref=$(refsum "$TESTDIR/data" $p $SIZE 4096 4096 0 1)
		reads=$(python3 "$BATS_TEST_DIRNAME/offsets.py" $p $SIZE 4096 4096 0 1 | wc -l)
		bytes=$(python3 "$BATS_TEST_DIRNAME/offsets.py" $p $SIZE 4096 4096 0 1 | awk '{s+=$2} END {print s}')
		got=$(json_get "$TESTDIR/m.json" "sorted({(r['repeats'][0]['checksum'], r['repeats'][0]['reads'], r['repeats'][0]['bytes']) for r in d['runs'] if r['job'] == 'dense' and r['params']['pattern'] == '$p'})")
		[ "$got" = "[('$ref', $reads, $bytes)]" ] || { echo "$p: $got != $ref $reads $bytes"; false; }
	done
	ref=$(refsum "$TESTDIR/data" sequential $SIZE 4096 20480 0 1)
	got=$(json_get "$TESTDIR/m.json" "sorted({(r['repeats'][0]['checksum'], r['repeats'][0]['reads']) for r in d['runs'] if r['job'] == 'sparse'})")
	[ "$got" = "[('$ref', 154)]" ]
}

@test "random reads are reproducible and change with the seed" {
	make_file
	job r "[a]\nfilename = $TESTDIR/data\npattern = random\ncount = 500\nbs = 8k\nrepeat = 2\nseed = 7\n"
	run "$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json"
	[ "$status" -eq 0 ]
	ref=$(refsum "$TESTDIR/data" random $SIZE 8192 8192 500 7)
	[ "$(json_get "$TESTDIR/r.json" '[x["checksum"] for x in d["runs"][0]["repeats"]]')" = "['$ref', '$ref']" ]
	[ "$(json_get "$TESTDIR/r.json" 'd["runs"][0]["repeats"][0]["reads"]')" = 500 ]
	other=$(refsum "$TESTDIR/data" random $SIZE 8192 8192 500 8)
	[ "$other" != "$ref" ]
}

@test "pattern=random reads the blocks offsets.py computes, each once per pass; random-replace draws again" {
	make_file
	# 769 whole blocks of 4 KiB, 96 of 32 KiB: half a pass, and two and a half passes
	job p "[global]\nfilename = $TESTDIR/data\nrepeat = 1\nthreads = 1, 3\npattern = random, random-replace\n[a]\nbs = 4k\ncount = 384\n[b]\nbs = 4k\ncount = 1922\nseed = 99\n[c]\nbs = 32k\ncount = 48\nseed = 5\n[d]\nbs = 32k\ncount = 240\nseed = 6\n"
	run "$IOSWEEP" run "$TESTDIR/p.ini" -o json:"$TESTDIR/p.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/p.json" 'len(d["runs"])')" = 16 ]
	for i in $(seq 0 15); do
		read -r p bs count seed sum reads covered <<<"$(json_get "$TESTDIR/p.json" "' '.join(str(x) for x in [d['runs'][$i]['params'][k] for k in ('pattern', 'bs', 'count', 'seed')] + [d['runs'][$i]['repeats'][0][k] for k in ('checksum', 'reads')] + [round(d['runs'][$i]['repeats'][0]['coverage_Bps'] * d['runs'][$i]['repeats'][0]['time_to_end_s'])])")"
		[ "$sum" = "$(refsum "$TESTDIR/data" "$p" $SIZE "$bs" "$bs" "$count" "$seed")" ]
		[ "$reads" = "$count" ]
		# coverage: distinct blocks read, from the reference offsets
		distinct=$(python3 "$BATS_TEST_DIRNAME/offsets.py" "$p" $SIZE "$bs" "$bs" "$count" "$seed" | sort -u | wc -l)
		[ "$covered" = $((distinct * bs)) ] || { echo "run $i: covered $covered, $distinct blocks"; false; }
		if [ "$p" = random ]; then
			# each block once per pass: a partial pass has no repeat, whole passes cover all
			[ "$distinct" = $((count < SIZE / bs ? count : SIZE / bs)) ]
			python3 "$BATS_TEST_DIRNAME/offsets.py" "$p" $SIZE "$bs" "$bs" "$count" "$seed" |
				awk -v n=$((SIZE / bs)) '{ pass = int((NR - 1) / n); if (seen[pass, $1]++) exit 1 }'
		fi
	done
}

@test "the reference permutation reads every block exactly once and spreads a half pass evenly" {
	run python3 "$BATS_TEST_DIRNAME/offsets.py" --check-permutation
	[ "$status" -eq 0 ]
	[ "$output" = ok ]
}

@test "a one-block file and a spacing larger than the file read one block" {
	head -c 4096 /dev/urandom >"$TESTDIR/one"
	job o "[one]\nfilename = $TESTDIR/one\nrepeat = 1\n[far]\nfilename = $TESTDIR/one\nbs = 1k\nspacing = 1g\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/o.ini" -o json:"$TESTDIR/o.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/o.json" '[(r["repeats"][0]["reads"], r["repeats"][0]["bytes"]) for r in d["runs"]]')" = "[(1, 4096), (1, 1024)]" ]
	[ "$(json_get "$TESTDIR/o.json" 'd["runs"][0]["repeats"][0]["checksum"]')" = "$(refsum "$TESTDIR/one" sequential 4096 4096 4096 0 1)" ]
}

@test "consume=ints sums the integers of a created text file like awk does" {
	job t "[a]\nfilename = $TESTDIR/ints.txt\nsize = 1000003\nfill = text\nconsume = ints\nbs = 4k, 1000\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/t.ini" -o json:"$TESTDIR/t.json"
	[ "$status" -eq 0 ]
	[ "$(stat -c %s "$TESTDIR/ints.txt")" = 1000003 ]
	want=$(awk '{s += $1} END {printf "%d", s}' "$TESTDIR/ints.txt")
	[ "$(json_get "$TESTDIR/t.json" '[r["repeats"][0]["int_sum"] for r in d["runs"]]')" = "[$want, $want]" ]
	# one integer 0..1000 per line
	! grep -qvE '^([0-9]|[1-9][0-9]{1,2}|1000)?$' "$TESTDIR/ints.txt"
}

@test "created files have the exact size and content of their fill, and no temporary file is left" {
	job f "[z]\nfilename = $TESTDIR/zero\nsize = 3000001\nfill = zero\nrepeat = 1\n[r]\nfilename = $TESTDIR/rand\nsize = 3000001\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/f.ini"
	[ "$status" -eq 0 ]
	[ "$(stat -c %s "$TESTDIR/zero")" = 3000001 ]
	[ "$(stat -c %s "$TESTDIR/rand")" = 3000001 ]
	cmp -n 3000001 "$TESTDIR/zero" /dev/zero
	# random content does not repeat: it hardly compresses
	[ "$(gzip -c "$TESTDIR/rand" | wc -c)" -gt 2990000 ]
	[ -z "$(ls "$TESTDIR" | grep iosweep-tmp)" ]
}

@test "an existing smaller file is an error and is left byte for byte untouched" {
	head -c 10000 /dev/urandom >"$TESTDIR/small"
	sum=$(sha256sum <"$TESTDIR/small")
	mtime=$(stat -c %Y.%s "$TESTDIR/small")
	job s "[a]\nfilename = $TESTDIR/small\nsize = 1m\n"
	run "$IOSWEEP" run "$TESTDIR/s.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *"$TESTDIR/small is 10000 bytes, smaller than size=1MiB"* ]]
	[ "$(sha256sum <"$TESTDIR/small")" = "$sum" ]
	[ "$(stat -c %Y.%s "$TESTDIR/small")" = "$mtime" ]
}

@test "a failed creation leaves no temporary file behind" {
	mkdir "$TESTDIR/ro"
	job c "[a]\nfilename = $TESTDIR/ro/x\nsize = 4m\n"
	# RLIMIT_FSIZE: writing past 1 MiB fails with EFBIG (SIGXFSZ ignored)
	run bash -c "trap '' XFSZ; ulimit -f 1024; '$IOSWEEP' run '$TESTDIR/c.ini'"
	[ "$status" -eq 1 ]
	[[ "$output" == *"creating $TESTDIR/ro/x: File too large"* ]]
	[ -z "$(ls -A "$TESTDIR/ro")" ]
}

@test "the table names engine, parameters, reads' figures and the checksum" {
	make_file
	job t "[a]\nfilename = $TESTDIR/data\nengine = sync, uring\nrepeat = 2\n"
	run "$IOSWEEP" run "$TESTDIR/t.ini"
	[ "$status" -eq 0 ]
	ref=$(refsum "$TESTDIR/data" sequential $SIZE 4096 4096 0 1)
	echo "$output" | grep -E "^0 +sync .* $ref\$"
	echo "$output" | grep -E "^1 +uring .* $ref\$"
	echo "$output" | grep -E "time to end +throughput +IOPS +p50 +p99"
}
