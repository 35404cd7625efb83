#!/usr/bin/env bats
# Block-size mixes: bssplit and bsrange.  Every unit's offset, size and
# direction is the one shapes_ref.py computes from the man page's rules (not
# iosweep's code): the plan's and the run's reads, writes and bytes per
# direction are the reference's exactly, the checksum is refsum's over the
# reference's units, coverage its distinct bytes; the same for any thread
# count.  Fixed seeds: deterministic.
# make check: runs beside another file

load helpers

PY=/usr/bin/python3
REF=$BATS_TEST_DIRNAME/shapes_ref.py

# check_mix JSON DATA SIZE RUN KIND TEXT PATTERN OP RWMIX COUNT SEED [ALIGN [DIST]]: run RUN of
# JSON did exactly the reference's units
check_mix() {
	local json=$1 data=$2 size=$3 i=$4 ref=$TESTDIR/ref.txt got want
	shift 4
	$PY "$REF" mix "$1" "$2" "$size" "$3" "$4" "$5" "$6" "$7" "${8:-0}" "${9:-random}" >"$ref"
	got=$(json_get "$json" "' '.join(str(d['runs'][$i]['repeats'][0].get(k)) for k in ('reads', 'writes', 'read_bytes', 'write_bytes', 'bytes', 'checksum'))")
	want="$(awk '$3 == "r" {n++; b += $2} $3 == "w" {m++; c += $2} END {printf "%d %d %d %d %d", n, m, b, c, b + c}' "$ref") $(cut -d' ' -f1,2 "$ref" | "$HELPERS/refsum" "$data")"
	[ "$got" = "$want" ] || { echo "run $i ($*): got $got, want $want"; return 1; }
}

# covered JSON RUN: the distinct bytes the run read (coverage_Bps × time)
covered() {
	json_get "$1" "round(d['runs'][$2]['repeats'][0]['coverage_Bps'] * d['runs'][$2]['repeats'][0]['time_to_end_s'])"
}

# ref_covered ARGS...: the reference's distinct bytes
ref_covered() {
	$PY "$REF" mix "$@" | $PY -c 'import sys
s = set()
for l in sys.stdin:
    o, n, _ = l.split()
    s.update(range(int(o), int(o) + int(n)))
print(len(s))'
}

@test "a sequential bssplit with a mix per direction reads and writes the reference's units, for any thread count; the plan counts them" {
	head -c 1m /dev/urandom >"$TESTDIR/w"
	cp "$TESTDIR/w" "$TESTDIR/w0"
	job m "[m]\nfilename = $TESTDIR/w\nallow_write = $TESTDIR/w\nop = readwrite\nrwmixread = 70\nbssplit = 4k/60:8k/40,16k/50:32k/50\nrepeat = 1\ncache = keep\nthreads = 1, 3\n"
	run "$IOSWEEP" plan "$TESTDIR/m.ini"
	[ "$status" -eq 0 ]
	$PY "$REF" mix bssplit 4k/60:8k/40,16k/50:32k/50 1048576 sequential readwrite 70 0 1 >"$TESTDIR/ref.txt"
	reads=$(awk '$3 == "r"' "$TESTDIR/ref.txt" | wc -l)
	writes=$(awk '$3 == "w"' "$TESTDIR/ref.txt" | wc -l)
	[ "$(echo "$output" | awk '$1 == 0 && $2 == "m" {print $3, $4, $5, $6}')" = "1 $reads $writes 1MiB" ] || { echo "$output"; false; }
	run "$IOSWEEP" run "$TESTDIR/m.ini" -o json:"$TESTDIR/m.json"
	[ "$status" -eq 0 ]
	# the writes wrote the data that belongs at their offsets: refsum reads it back
	for i in 0 1; do
		check_mix "$TESTDIR/m.json" "$TESTDIR/w" 1048576 $i bssplit 4k/60:8k/40,16k/50:32k/50 sequential readwrite 70 0 1
	done
	# both sizes of each direction were used, and only those
	[ "$(awk '$3 == "r" {print $2}' "$TESTDIR/ref.txt" | sort -un | tr '\n' ' ')" = "4096 8192 " ]
	[ "$(awk '$3 == "w" {print $2}' "$TESTDIR/ref.txt" | sort -un | tr '\n' ' ')" = "16384 32768 " ]
}

@test "random mixes (permutation, independent draws, zipf, bsrange with blockalign, count) read the reference's units and count their distinct bytes" {
	head -c 3000000 /dev/urandom >"$TESTDIR/r"
	job r "[global]\nfilename = $TESTDIR/r\nrepeat = 1\ncache = keep\nthreads = 1, 2\n[a]\npattern = random\nbssplit = 4k/10:64k/50:32k/40\nseed = 3\n[b]\npattern = random-replace\nbsrange = 4k-20k\nblockalign = 2k\nseed = 5\n[c]\npattern = random\nrandom_distribution = zipf:1.2\nbssplit = 512/:8k/:3k/20\ncount = 500\n[d]\nbsrange = 1k-9k\nengine = mmap\n"
	run "$IOSWEEP" run "$TESTDIR/r.ini" -o json:"$TESTDIR/r.json"
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/r.json" 'len(d["runs"])')" = 8 ]
	local -a cases=("bssplit 4k/10:64k/50:32k/40 random read 0 0 3 0 random"
		"bsrange 4k-20k random-replace read 0 0 5 2k random"
		"bssplit 512/:8k/:3k/20 random read 0 500 1 0 zipf:1.2"
		"bsrange 1k-9k sequential read 0 0 1 0 random")
	for k in 0 1 2 3; do
		read -r kind text pat op rw count seed align dist <<<"${cases[$k]}"
		want=$(ref_covered "$kind" "$text" 3000000 "$pat" "$op" "$rw" "$count" "$seed" "$align" "$dist")
		for t in 0 1; do
			check_mix "$TESTDIR/r.json" "$TESTDIR/r" 3000000 $((2 * k + t)) "$kind" "$text" "$pat" "$op" "$rw" "$count" "$seed" "$align" "$dist"
			[ "$(covered "$TESTDIR/r.json" $((2 * k + t)))" = "$want" ] || { echo "run $((2 * k + t)): coverage"; false; }
		done
	done
}

@test "bssplit weights follow fio's rules: a blank shares what is left, what is short of 100 goes to the largest weight" {
	# the reference's sizes (which the runs above match checksum for checksum)
	# (the last unit, cut at the end of the file, left out)
	$PY "$REF" mix bssplit 4k/50:1k/:32k/ 104857600 sequential read 0 0 9 | head -n -1 >"$TESTDIR/a"
	# 50% 4k, 25% 1k, 25% 32k: within 5 standard deviations of the counts
	awk '{n[$2]++; t++} END {for (s in n) print s, n[s], t}' "$TESTDIR/a" | sort -n >"$TESTDIR/h"
	while read -r size n t; do
		case $size in 1024) p=25 ;; 4096) p=50 ;; 32768) p=25 ;; *) false ;; esac
		sd=$($PY -c "import math; print(5 * math.sqrt($t * $p / 100 * (1 - $p / 100)))")
		$PY -c "import sys; sys.exit(abs($n - $t * $p / 100) > $sd)" || { echo "$size: $n of $t"; false; }
	done <"$TESTDIR/h"
	# 4k/10:64k/60 adds up to 70: 64k gets 90
	$PY "$REF" mix bssplit 4k/10:64k/60 104857600 sequential read 0 0 9 | head -n -1 >"$TESTDIR/b"
	[ "$(awk '{n[$2]++; t++} END {print (n[4096] / t < 0.12 && n[4096] / t > 0.08 && n[65536] + n[4096] == t)}' "$TESTDIR/b")" = 1 ]
	head -c 1m /dev/urandom >"$TESTDIR/d"
	job s "[global]\nfilename = $TESTDIR/d\nrepeat = 1\ncache = keep\nseed = 9\n[short]\nbssplit = 4k/10:64k/60\n[blank]\nbssplit = 4k/50:1k/:32k/\n"
	run "$IOSWEEP" run "$TESTDIR/s.ini" -o json:"$TESTDIR/s.json"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	check_mix "$TESTDIR/s.json" "$TESTDIR/d" 1048576 0 bssplit 4k/10:64k/60 sequential read 0 0 9
	check_mix "$TESTDIR/s.json" "$TESTDIR/d" 1048576 1 bssplit 4k/50:1k/:32k/ sequential read 0 0 9
}

@test "bad mixes are refused with FILE:LINE before any I/O" {
	head -c 1m /dev/urandom >"$TESTDIR/data"
	for bad in "bssplit = 4k/60:8k/50|add up to 110%, more than 100" "bssplit = 4k/x|not a percentage" \
		"bssplit = 4q/50|is not a size" "bssplit = 4k/50:|a ':' with no size" \
		"bssplit = 4k/101|not a percentage" "bssplit = ,8k/100|an empty part" \
		"bssplit = 4k,8k,16k|at most two parts" "bsrange = 16k-4k|the smallest size is larger than the largest" \
		"bsrange = 4k|not MIN-MAX"; do
		job b "[b]\nfilename = $TESTDIR/data\n${bad%%|*}\n"
		refused run b "${bad#*|}" "$TESTDIR/data"
		[[ "$output" = "iosweep: $TESTDIR/b.ini:3: "* ]] || { echo "$output"; false; }
	done
	for bad in "bs = 4k|bs and bssplit both give the block sizes" "pattern = reverse|not with pattern = reverse" \
		"spacing = 64k|not with spacing" "rate = 1m|use rate_iops" "bsrange = 4k-8k|keep one"; do
		job b "[b]\nfilename = $TESTDIR/data\nbssplit = 4k/50:8k/50\n${bad%%|*}\n"
		refused run b "${bad#*|}" "$TESTDIR/data"
		[[ "$output" = "iosweep: $TESTDIR/b.ini:4: "* ]] || { echo "$output"; false; }
	done
	job b "[b]\nfilename = $TESTDIR/data\ncache = direct\nbssplit = 100/50:4k/50\n"
	refused run b "multiples of the device's logical block size" "$TESTDIR/data"
	[[ "$output" = *"b.ini:4: "* ]]
	job b "[b]\nfilename = $TESTDIR/data\nblockalign = 4k\n"
	refused run b "blockalign is for a mix of block sizes" "$TESTDIR/data"
	[[ "$output" = *"b.ini:3: "* ]]
	job b "[b]\nfilename = $TESTDIR/data\nsize = 4k\npattern = random\nbsrange = 8k-16k\n"
	refused run b "the smallest size is larger than the file" "$TESTDIR/data"
}
