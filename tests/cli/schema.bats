#!/usr/bin/env bats
# docs/result.schema.json describes the result files iosweep writes: reads,
# writes, mixes, series, rate-limited, interrupted and fio-imported runs all
# validate, and a file iosweep could not have written does not.
# make check: runs beside another file

load helpers

SCHEMA=$BATS_TEST_DIRNAME/../../docs/result.schema.json

schema_check() {
	/usr/bin/python3 "$BATS_TEST_DIRNAME/check_schema.py" "$SCHEMA" "$@"
}

@test "results of reads, writes, mixes, series and rate-limited runs validate against the schema" {
	/usr/bin/python3 -c 'import jsonschema' 2>/dev/null || skip "python3-jsonschema is not installed"
	job r "[global]\nfilename = $TESTDIR/f\nsize = 256k\nrepeat = 2\n[r]\nbs = 4k, 64k\npattern = sequential, random\n"
	job w "[global]\nfilename = $TESTDIR/w\nsize = 256k\nrepeat = 2\n[w]\nop = write\nsync = end\nverify = after\n[rw]\nop = readwrite\nsync = fsync\n"
	job s "[global]\nfilename = $TESTDIR/s\nsize = 512k\nrepeat = 2\ninterval = 5ms\nrate = 16m\n[s]\n"
	job t "[t]\nfilename = $TESTDIR/t\nsize = 256k\nrepeat = 1\ntime_based = 1\nruntime = 50ms\n"
	for n in r w s t; do
		run "$IOSWEEP" run "$TESTDIR/$n.ini" -q -o json:"$TESTDIR/$n.json"
		[ "$status" -eq 0 ] || { echo "$n: $output"; false; }
	done
	# what the schema is checked on has what it is there to check
	[ "$(json_get "$TESTDIR/w.json" 'd["runs"][1]["repeats"][0]["writes"] > 0 and d["runs"][1]["repeats"][0]["reads"] > 0')" = True ]
	[ "$(json_get "$TESTDIR/s.json" 'len(d["runs"][0]["repeats"][0]["series"]["intervals"]) > 2')" = True ]
	# a time_based run without a rate has no planned count
	[ "$(json_get "$TESTDIR/t.json" 'd["runs"][0]["planned_reads"]')" = None ]
	run schema_check "$TESTDIR/r.json" "$TESTDIR/w.json" "$TESTDIR/s.json" "$TESTDIR/t.json"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "a result with groups validates: a group run, its jobs' group and their cut marks" {
	/usr/bin/python3 -c 'import jsonschema' 2>/dev/null || skip "python3-jsonschema is not installed"
	job g "[global]\nsize = 64k\nrepeat = 2\ncache = keep\ngroup = pair\ngroup_end = first\n[a]\nfilename = $TESTDIR/a\n[b]\nfilename = $TESTDIR/b\nrate_iops = 100\n"
	run "$IOSWEEP" run "$TESTDIR/g.ini" -q -o json:"$TESTDIR/g.json"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$(json_get "$TESTDIR/g.json" 'd["groups"][0]["runs"] == [0, 1] and d["runs"][1]["repeats"][0]["group_cut"]')" = True ]
	run schema_check "$TESTDIR/g.json"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	# the schema checks the group's shape: a group without its runs does not validate
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); del d["groups"][0]["runs"]; json.dump(d, open(sys.argv[1], "w"))' "$TESTDIR/g.json"
	run schema_check "$TESTDIR/g.json"
	[ "$status" -eq 1 ]
}

@test "an interrupted run's result and a fio-imported job's result validate too" {
	/usr/bin/python3 -c 'import jsonschema' 2>/dev/null || skip "python3-jsonschema is not installed"
	interrupt_second_run INT
	[ "$(json_get "$TESTDIR/i.json" 'd["runs"][1]["repeats"][-1]["interrupted"]')" = True ]
	"$IOSWEEP" import -o "$TESTDIR/fio.ini" -- fio --name=f --rw=randrw --size=256k --bs=4k --filename="$TESTDIR/ff" 2>/dev/null
	printf 'allow_write = %s/ff\n' "$TESTDIR" >>"$TESTDIR/fio.ini"
	head -c 262144 /dev/urandom >"$TESTDIR/ff"
	run "$IOSWEEP" run "$TESTDIR/fio.ini" -q -o json:"$TESTDIR/fio.json"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	run schema_check "$TESTDIR/i.json" "$TESTDIR/fio.json"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "the published example results validate, and files iosweep could not write do not" {
	/usr/bin/python3 -c 'import jsonschema' 2>/dev/null || skip "python3-jsonschema is not installed"
	run schema_check "$BATS_TEST_DIRNAME"/../../docs/results/*.json
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	job r "[r]\nfilename = $TESTDIR/f\nsize = 64k\nrepeat = 1\n"
	"$IOSWEEP" run "$TESTDIR/r.ini" -q -o json:"$TESTDIR/r.json"
	for edit in 'd["iosweep"]["schema"] = 2' 'd["runs"][0]["repeats"][0]["time_to_end_s"] = -1' \
		'd["runs"][0]["repeats"][0]["reads"] = 1.5' 'del d["runs"][0]["job"]' \
		'd["runs"][0]["repeats"][0]["resident_before"] = 2'; do
		python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); exec(sys.argv[2]); json.dump(d, open(sys.argv[3], "w"))' \
			"$TESTDIR/r.json" "$edit" "$TESTDIR/bad.json"
		run schema_check "$TESTDIR/bad.json"
		[ "$status" -eq 1 ] || { echo "accepted: $edit"; false; }
	done
}
