#!/usr/bin/env bats
# Hostile result files (tests/data/hostile/): compare and plot check every
# number they read and refuse a bad file with exit 2, its path and the JSON
# location, in one line; a directory, FIFO or device is refused by its type
# before it is read.  make sanitize and make valgrind run these too.
# make check: runs beside another file

load helpers

HOSTILE=$BATS_TEST_DIRNAME/../data/hostile

@test "compare and plot refuse every hostile result file with exit 2, the path and why" {
	for f in "$HOSTILE"/*.json; do
		[[ "$(basename "$f")" == valid*.json ]] && continue
		for order in old new; do
			if [ $order = old ]; then
				run "$IOSWEEP" compare "$f" "$HOSTILE/valid.json"
			else
				run "$IOSWEEP" compare "$HOSTILE/valid.json" "$f"
			fi
			[ "$status" -eq 2 ] || { echo "compare ($order) $f: $status $output"; false; }
			[[ "$output" == "iosweep: $f: "* ]] || { echo "$output"; false; }
			[ "${#lines[@]}" -eq 1 ]
		done
		run "$IOSWEEP" plot "$f" -o "$TESTDIR/x.svg"
		[ "$status" -eq 2 ] || { echo "plot $f: $status $output"; false; }
		[[ "$output" == "iosweep: $f: "* ]]
		[ "${#lines[@]}" -eq 1 ]
	done
	[ ! -e "$TESTDIR/x.svg" ]
}

@test "the valid file of the set is accepted, so the refusals are about what was changed" {
	run "$IOSWEEP" compare "$HOSTILE/valid.json" "$HOSTILE/valid.json"
	[ "$status" -eq 0 ]
	# valid-series.json: valid.json with a series, from which the series-*.json are made
	run "$IOSWEEP" compare "$HOSTILE/valid-series.json" "$HOSTILE/valid.json"
	[ "$status" -eq 0 ]
}

@test "each refusal names the JSON location of the bad value" {
	run "$IOSWEEP" compare "$HOSTILE/negative-time.json" "$HOSTILE/valid.json"
	[ "$output" = "iosweep: $HOSTILE/negative-time.json: runs[0].repeats[0].time_to_end_s: -1.5 is out of range (0 to 1.84467e+19); not a result iosweep wrote" ]
	run "$IOSWEEP" compare "$HOSTILE/valid.json" "$HOSTILE/huge-throughput.json"
	[[ "$output" == *"huge-throughput.json: runs[1].repeats[1].throughput_Bps: 1e+30 is out of range"* ]]
	run "$IOSWEEP" compare "$HOSTILE/valid.json" "$HOSTILE/huge-latency.json"
	[[ "$output" == *"runs[0].repeats[0].lat_ns.p99: 1e+300 is out of range"* ]]
	run "$IOSWEEP" compare "$HOSTILE/valid.json" "$HOSTILE/fraction-above-one.json"
	[[ "$output" == *"runs[0].repeats[0].resident_before: 5 is out of range (0 to 1)"* ]]
	run "$IOSWEEP" compare "$HOSTILE/valid.json" "$HOSTILE/negative-bs.json"
	[[ "$output" == *"runs[0].params.bs: -4096 is out of range"* ]]
	run "$IOSWEEP" compare "$HOSTILE/valid.json" "$HOSTILE/figure-is-text.json"
	[[ "$output" == *"runs[0].repeats[0].iops: not a number" ]]
}

@test "a directory, a FIFO or a device given as a result file is refused by its type, without hanging" {
	mkfifo "$TESTDIR/fifo.json"
	mkdir "$TESTDIR/dir.json"
	for f in "$TESTDIR/fifo.json" "$TESTDIR/dir.json" /dev/zero; do
		run timeout 10 "$IOSWEEP" compare "$f" "$HOSTILE/valid.json"
		[ "$status" -eq 2 ]
		[[ "$output" == "iosweep: $f: a "*", not a result file" ]]
		run timeout 10 "$IOSWEEP" plot "$f" -o "$TESTDIR/x.svg"
		[ "$status" -eq 2 ]
		[[ "$output" == "iosweep: $f: a "*", not a result file" ]]
	done
}

@test "a series run cannot have written is refused by compare, naming the run, repeat and interval" {
	refused() { # FILE MESSAGE
		run "$IOSWEEP" compare "$HOSTILE/valid.json" "$HOSTILE/$1"
		[ "$status" -eq 2 ]
		[ "$output" = "iosweep: $HOSTILE/$1: runs[0].repeats[0].series.$2" ] || { echo "$output"; false; }
	}
	W='; not a series iosweep wrote'
	refused series-start-zero.json "intervals[1]: a second read interval from 0 s$W"
	refused series-fractional-ops.json "intervals[1].ops: 2.5 is not a whole number; not a result iosweep wrote"
	refused series-ops-exceed.json "intervals[3].ops: the read ops of the intervals up to here (22) are more than the repeat's reads (16)$W"
	refused series-after-end.json "intervals[5].start_s: 5e-05 s is after the repeat ended (time_to_end_s 3.6074e-05 s)$W"
	refused series-overlap.json "intervals[1].start_s: 5e-06 s is not where interval 1 starts (1e-05 s: intervals of 1e-05 s from 0)$W"
	refused series-decreasing.json "intervals[3].start_s: 1e-05 is out of range (2e-05 to 1e+12); not a result iosweep wrote"
	refused series-wrong-interval.json "interval_s: 2e-05 s is not the job's interval (params.interval 1e-05 s) doubled 0 times$W"
}

@test "a fio result's fields are checked as iosweep's are: a bad one is refused naming the fio job and field" {
	FIO=$BATS_TEST_DIRNAME/../data/fio/result.json
	# the fio-*.json of the set are fio's result.json with one field changed
	run "$IOSWEEP" compare "$FIO" "$FIO"
	[ "$status" -eq 0 ]
	refused() { # FILE MESSAGE
		run "$IOSWEEP" compare "$FIO" "$HOSTILE/$1"
		[ "$status" -eq 2 ]
		[ "$output" = "iosweep: $HOSTILE/$1: $2" ] || { echo "$output"; false; }
	}
	W='; not a result fio wrote'
	refused fio-iops-text.json "jobs[0].read.iops: not a number"
	refused fio-clone-iops-text.json "jobs[2].read.iops: not a number"
	refused fio-iops-nan-text.json "jobs[0].read.iops: not a number"
	refused fio-iops-nan.json "not JSON (line 26: invalid token near 'NaN')"
	refused fio-runtime-negative.json "jobs[0].read.runtime: -7 is out of range (0 to 1.84467e+19)$W"
	refused fio-runtime-text.json "jobs[3].write.runtime: not a number"
	refused fio-huge-bw.json "jobs[1].read.bw_bytes: 1e+30 is out of range (0 to 1.84467e+19)$W"
	refused fio-huge-lat-mean.json "jobs[0].read.lat_ns.mean: 1e+300 is out of range (0 to 1.84467e+19)$W"
	refused fio-total-ios-fraction.json "jobs[0].read.total_ios: 64.5 is not a whole number$W"
	refused fio-io-bytes-missing.json "jobs[0].read.io_bytes: missing"
	refused fio-percentile-key.json "jobs[0].read.clat_ns.percentile.p99: not a percentile (a number from 0 to 100)$W"
	refused fio-percentile-text.json "jobs[0].read.clat_ns.percentile.99.000000: not a number"
	refused fio-numjobs-negative.json "jobs[1].job options.numjobs: -2 is out of range (1 to 2147483647)$W"
	refused fio-error-text.json "jobs[0].error: not an integer$W"
}
