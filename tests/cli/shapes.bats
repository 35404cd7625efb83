#!/usr/bin/env bats
# Access shapes: random_distribution.  The reads of every distribution are
# the ones shapes_ref.py computes from the man page's rules (the checksum of
# the blocks read, recomputed by refsum), their blocks follow the
# distribution's probabilities (chi-square, computed independently), and
# coverage_Bps counts their distinct blocks.  Fixed seeds: deterministic.
# make check: runs beside another file

load helpers

PY=/usr/bin/python3
REF=$BATS_TEST_DIRNAME/shapes_ref.py

needs_scipy() {
	$PY -c 'import numpy, scipy' 2>/dev/null || skip "Debian's python3-numpy and python3-scipy are missing"
}

# check_runs JSON FILE SIZE: every run of JSON has the reference checksum, reads and coverage,
# and its draws pass the chi-square test (each distribution, bs, count and seed computed once)
check_runs() {
	local n i dist bs count seed sum reads covered distinct key
	n=$(json_get "$1" 'len(d["runs"])')
	for i in $(seq 0 $((n - 1))); do
		read -r dist bs count seed sum reads covered <<<"$(json_get "$1" "' '.join(str(x) for x in [d['runs'][$i]['params'][k] for k in ('random_distribution', 'bs', 'count', 'seed')] + [d['runs'][$i]['repeats'][0][k] for k in ('checksum', 'reads')] + [round(d['runs'][$i]['repeats'][0]['coverage_Bps'] * d['runs'][$i]['repeats'][0]['time_to_end_s'])])")"
		[ "$reads" = "$count" ]
		key=$TESTDIR/ref-$(echo "$dist $bs $count $seed" | md5sum | cut -c1-16)
		if [ ! -e "$key" ]; then
			run $PY "$REF" check "$dist" "$3" "$bs" "$count" "$seed" --offsets "$key"
			[ "$status" -eq 0 ] && [[ "$output" = "ok "* ]] || { echo "run $i ($dist): $output"; return 1; }
		fi
		[ "$sum" = "$("$HELPERS/refsum" "$2" <"$key")" ] ||
			{ echo "run $i ($dist): checksum $sum is not the reference's"; return 1; }
		distinct=$(sort -u "$key" | wc -l)
		[ "$covered" = $((distinct * bs)) ] || { echo "run $i ($dist): covered $covered, $distinct blocks"; return 1; }
	done
}

@test "zipf, pareto and normal read the reference blocks, with their probabilities, for any thread count" {
	needs_scipy
	head -c 4m /dev/urandom >"$TESTDIR/data"
	job s "[global]\nfilename = $TESTDIR/data\nrepeat = 1\ncache = keep\nbs = 32k\ncount = 8000\nthreads = 1, 3\npattern = random\n[zipf]\nrandom_distribution = zipf:1.2\nseed = 7\n[zipf-low]\npattern = random-replace\nrandom_distribution = zipf:0.8:0.25\n[pareto]\npattern = random\nrandom_distribution = pareto:0.2\nseed = 3\n[normal]\npattern = random\nrandom_distribution = normal:5\n[normal-0]\npattern = random\nrandom_distribution = normal\n"
	run "$IOSWEEP" run "$TESTDIR/s.ini" -o json:"$TESTDIR/s.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/s.json" 'len(d["runs"])')" = 10 ]
	check_runs "$TESTDIR/s.json" "$TESTDIR/data" 4194304
}

@test "zipf over more than 10000 blocks (zeta in closed form beyond) reads the reference blocks" {
	needs_scipy
	head -c 8m /dev/urandom >"$TESTDIR/data"
	job z "[z]\nfilename = $TESTDIR/data\nrepeat = 1\ncache = keep\nbs = 512\ncount = 12000\npattern = random\nrandom_distribution = zipf:1.1, zipf:0.6\nseed = 11\n"
	run "$IOSWEEP" run "$TESTDIR/z.ini" -o json:"$TESTDIR/z.json"
	[ "$status" -eq 0 ]
	check_runs "$TESTDIR/z.json" "$TESTDIR/data" 8388608
}

@test "zoned and zoned_abs put each zone's share of the reads in its range, for reads and writes" {
	needs_scipy
	head -c 4m /dev/urandom >"$TESTDIR/data"
	job z "[global]\nfilename = $TESTDIR/data\nrepeat = 1\ncache = keep\nbs = 16k\ncount = 10000\npattern = random\n[zoned]\nrandom_distribution = zoned:60/10:30/20:8/30:2/40\nseed = 5\n[rest]\nrandom_distribution = zoned:70/5:30\n[abs]\nrandom_distribution = zoned_abs:50/64k:50/3m\nthreads = 2\n"
	run "$IOSWEEP" run "$TESTDIR/z.ini" -o json:"$TESTDIR/z.json"
	[ "$status" -eq 0 ]
	check_runs "$TESTDIR/z.json" "$TESTDIR/data" 4194304
	# writes draw the same blocks: the file then holds the data written there
	cp "$TESTDIR/data" "$TESTDIR/w"
	job w "[w]\nfilename = $TESTDIR/w\nallow_write = $TESTDIR/w\nop = write\nrepeat = 1\nbs = 4k\ncount = 3000\npattern = random\nrandom_distribution = zoned:100/10\nseed = 5\n"
	run "$IOSWEEP" run "$TESTDIR/w.ini" -o json:"$TESTDIR/w.json"
	[ "$status" -eq 0 ]
	# only the first 10% (102 blocks) changed
	changed=$(cmp -l "$TESTDIR/data" "$TESTDIR/w" | awk '{print int(($1 - 1) / 4096)}' | sort -un)
	[ -n "$changed" ]
	[ "$(echo "$changed" | tail -n1)" -lt 102 ]
	[ "$(echo "$changed" | wc -l)" = "$($PY "$REF" offsets zoned:100/10 4194304 4096 3000 5 | sort -u | wc -l)" ]
}

@test "the chi-square check fails for draws of another distribution" {
	needs_scipy
	for pair in "zipf:1.2 zipf:1.1" "pareto:0.2 pareto:0.3" "normal:5 normal:20" "zoned:60/10:40/90 zoned:50/10:50/90"; do
		set -- $pair
		run $PY "$REF" check "$1" 4194304 32768 8000 7 "$2"
		[ "$status" -ne 0 ] || { echo "$1 passed as $2"; false; }
		[[ "$output" = *"chi-square p="* ]]
	done
}

@test "random_distribution values fio refuses, zones beyond the file and skew without random reads are refused with FILE:LINE" {
	head -c 1m /dev/urandom >"$TESTDIR/data"
	for bad in "zipf:1|theta must be greater than 0 and not 1" "zipf:0|theta must be" \
		"pareto:1|between 0 and 1" "pareto:0|between 0 and 1" "normal:100|below 100" \
		"zipf:1.2:1.5|center must be between 0 and 1" "zipf:x|not a number" \
		"zoned:50/10:40/10|add up to 90, not 100" "zoned:60/50:40/60|more than the file" \
		"zoned:60/10:40/90,50/50:50/50|'50/50:50/50': unknown distribution" "zoned:101/10|not a percentage" \
		"zoned_abs:50/512k:50/1m|beyond the 1MiB" "gauss:5|unknown distribution" \
		"random:3|takes no parameter" "zoned:|no zones" "zipf:nan|not a number" \
		"zipf:inf|not a number" "zipf:1e400|not a number" "zoned:60/10:40/5x|not a whole percentage" \
		"zoned_abs:40/9223372036854775807:60/1m|beyond the 1MiB"; do
		job b "[b]\nfilename = $TESTDIR/data\npattern = random\nrandom_distribution = ${bad%%|*}\n"
		refused run b "${bad#*|}" "$TESTDIR/data"
		[[ "$output" = "iosweep: $TESTDIR/b.ini:4: random_distribution"* ]] || { echo "$output"; false; }
	done
	job b "[b]\nfilename = $TESTDIR/data\nrandom_distribution = zipf:1.2\n"
	refused run b "reads in order"
	[[ "$output" = *"b.ini:3:"* ]]
}

@test "random_distribution from --set is checked as in a job file; a list multiplies only the random runs" {
	head -c 1m /dev/urandom >"$TESTDIR/data"
	job l "[l]\nfilename = $TESTDIR/data\nrepeat = 1\ncount = 64\npattern = sequential, random\nrandom_distribution = random, zipf:1.2\n"
	run "$IOSWEEP" run "$TESTDIR/l.ini" --set random_distribution=pareto:1
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" = "iosweep: --set 'random_distribution=pareto:1': random_distribution: 'pareto:1': pareto's h must be between 0 and 1"* ]]
	run "$IOSWEEP" run "$TESTDIR/l.ini" -o json:"$TESTDIR/l.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/l.json" '[(r["params"]["pattern"], r["params"]["random_distribution"], r["repeats"][0]["reads"]) for r in d["runs"]]')" = "[('sequential', 'random', 256), ('random', 'random', 64), ('random', 'zipf:1.2', 64)]" ]
}
