#!/usr/bin/env bats
# The commands that read job files and run nothing: options, check, plan,
# --set, --job, --version, help.
# make check: runs beside another file

load helpers

@test "--version prints the version" {
	run "$IOSWEEP" --version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^iosweep\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
}

@test "help lists the commands and help COMMAND its usage" {
	run "$IOSWEEP" help
	[ "$status" -eq 0 ]
	for c in run plan check options compare plot; do [[ "$output" == *"  $c "* ]]; done
	run "$IOSWEEP" help plan
	[ "$status" -eq 0 ]
	[[ "$output" == "usage: iosweep plan JOB.ini"* ]]
	run "$IOSWEEP" help frobnicate
	[ "$status" -eq 2 ]
}

@test "no command or an unknown one is a usage error" {
	run "$IOSWEEP"
	[ "$status" -eq 2 ]
	run "$IOSWEEP" sweep
	[ "$status" -eq 2 ]
	[[ "$output" == "iosweep: no command 'sweep'"* ]]
}

@test "options lists every option of the job vocabulary" {
	run "$IOSWEEP" options
	[ "$status" -eq 0 ]
	for o in filename size bs spacing pattern count seed engine iodepth cache hint threads \
		repeat warmup runtime consume fill baseline description fixedbufs registerfiles \
		sqthread_poll hipri nowait; do
		echo "$output" | grep -qE "^$o +" || { echo "missing $o"; false; }
	done
	echo "$output" | grep -E '^engine +sync\|aio\|mmap\|uring\|psync2 list +sync '
}

@test "options lists every engine with what it can do and the options it takes" {
	run "$IOSWEEP" options
	[ "$status" -eq 0 ]
	echo "$output" | grep -E '^sync +direct +- +pread'
	echo "$output" | grep -E '^aio +iodepth direct +- '
	echo "$output" | grep -E '^mmap +mapped +- '
	echo "$output" | grep -E '^uring +iodepth direct +fixedbufs,registerfiles,sqthread_poll,hipri +io_uring'
	echo "$output" | grep -E '^psync2 +direct +hipri,nowait +preadv2'
}

@test "check is silent and exits 0 on good job files, but for the files write jobs write" {
	run "$IOSWEEP" check "$BATS_TEST_DIRNAME"/../../jobs/*.ini
	[ "$status" -eq 0 ]
	# jobs/engines.ini's lists make a combination that cannot run: skipped, with a note
	[ -z "$(echo "$output" | grep -v -e '^writes ' -e '^iosweep: note: .*cannot run: 1 run of its lists skipped$')" ]
}

@test "check names file, line and option of an unknown option, with a suggestion" {
	job bad '[a]\nsize = 1m\nblocksize = 4k\n'
	run "$IOSWEEP" check "$TESTDIR/bad.ini"
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: $TESTDIR/bad.ini:3: unknown option 'blocksize' (did you mean 'bs'?); fio's blocksize is 'bs' here (or translate a fio job with 'iosweep import')" ]
}

@test "check reports a bad size, an unknown engine and a missing file" {
	job bad '[a]\nsize = 1m\nbs = 4x\n'
	run "$IOSWEEP" check "$TESTDIR/bad.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == "iosweep: $TESTDIR/bad.ini:3: bs: '4x' has an unknown unit 'x'" ]]
	job bad2 '[a]\nsize = 1m\nengine = posix\n'
	run "$IOSWEEP" check "$TESTDIR/bad2.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *":3: engine: unknown value 'posix' (allowed: sync, aio, mmap, uring, psync2)" ]]
	run "$IOSWEEP" check "$TESTDIR/none.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == "iosweep: $TESTDIR/none.ini: No such file or directory" ]]
	run "$IOSWEEP" check "$TESTDIR"
	[ "$status" -eq 2 ]
	[[ "$output" == *"is a directory"* ]]
}

@test "plan prints one line per run with reads and bytes, then a total" {
	job p '[global]\nsize = 1m\nrepeat = 3\n[seq]\n[sparse]\nspacing = 64k, 256k\nengine = sync, mmap\n'
	run "$IOSWEEP" plan "$TESTDIR/p.ini"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -cE '^ *[0-9]+  (seq|sparse) ')" -eq 5 ]
	echo "$output" | grep -E '^ *0  seq +4KiB +sync +256 +1MiB +3$'
	echo "$output" | grep -E '^ *4  sparse +256KiB +mmap +4 +16KiB +3$'
	echo "$output" | grep -E '^total: 5 runs, 888 reads, '
}

@test "plan -o json is the plan for scripts" {
	job p '[a]\nsize = 1m\nbs = 4k, 64k\nspacing = 128k\n'
	run "$IOSWEEP" plan "$TESTDIR/p.ini" -o json
	[ "$status" -eq 0 ]
	echo "$output" >"$TESTDIR/plan.json"
	[ "$(json_get "$TESTDIR/plan.json" 'len(d["runs"])')" = 2 ]
	[ "$(json_get "$TESTDIR/plan.json" 'd["runs"][1]["params"]["bs"]')" = 65536 ]
	[ "$(json_get "$TESTDIR/plan.json" 'd["runs"][1]["params"]["spacing"]')" = 131072 ]
	[ "$(json_get "$TESTDIR/plan.json" 'd["runs"][0]["reads"]')" = 8 ]
	[ "$(json_get "$TESTDIR/plan.json" 'd["runs"][1]["bytes"]')" = $((8 * 65536)) ]
	[ "$(json_get "$TESTDIR/plan.json" 'd["total"]["runs"]')" = 2 ]
}

@test "--set overrides an option in every job" {
	job p '[a]\nsize = 1m\n[b]\nsize = 2m\nbs = 8k\n'
	run "$IOSWEEP" plan "$TESTDIR/p.ini" --set bs=64k,128k -o json
	[ "$status" -eq 0 ]
	echo "$output" >"$TESTDIR/plan.json"
	[ "$(json_get "$TESTDIR/plan.json" '[r["params"]["bs"] for r in d["runs"]]')" = "[65536, 131072, 65536, 131072]" ]
	run "$IOSWEEP" plan "$TESTDIR/p.ini" --set bs=4x
	[ "$status" -eq 2 ]
	[[ "$output" == "iosweep: --set 'bs=4x': bs: '4x' has an unknown unit 'x'" ]]
	run "$IOSWEEP" check "$TESTDIR/p.ini" --set blocksize=4k
	[ "$status" -eq 2 ]
	[[ "$output" == *"did you mean 'bs'"* ]]
}

@test "--job selects jobs and an unknown job is an error" {
	job p '[a]\nsize = 1m\n[b]\nsize = 1m\n[c]\nsize = 1m\n'
	run "$IOSWEEP" plan "$TESTDIR/p.ini" --job c --job a -o json
	[ "$status" -eq 0 ]
	echo "$output" >"$TESTDIR/plan.json"
	[ "$(json_get "$TESTDIR/plan.json" '[r["job"] for r in d["runs"]]')" = "['a', 'c']" ]
	run "$IOSWEEP" plan "$TESTDIR/p.ini" --job z
	[ "$status" -eq 2 ]
	[[ "$output" == *"no job named 'z'"* ]]
}

@test "environment variables expand, and an unset one is named" {
	job p '[a]\nfilename = ${IOSWEEP_DIR}/f.dat\nsize = ${SZ:-2m}\n'
	run "$IOSWEEP" plan "$TESTDIR/p.ini" -o json
	[ "$status" -eq 0 ]
	echo "$output" >"$TESTDIR/plan.json"
	[ "$(json_get "$TESTDIR/plan.json" 'd["runs"][0]["params"]["filename"]')" = "$TESTDIR/f.dat" ]
	[ "$(json_get "$TESTDIR/plan.json" 'd["runs"][0]["params"]["size"]')" = 2097152 ]
	job q '[a]\nsize = ${NO_SUCH_VARIABLE}\n'
	run "$IOSWEEP" check "$TESTDIR/q.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *"q.ini:2: environment variable NO_SUCH_VARIABLE is not set"* ]]
	# set but empty is said as such (an empty ${DIR} would make DIR/f.dat /f.dat)
	job e '[a]\nsize = 1m${EMPTY}\n'
	EMPTY= run "$IOSWEEP" check "$TESTDIR/e.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *"e.ini:2: environment variable EMPTY is empty (write \${EMPTY:-default} to give a default)" ]]
}

@test "unknown command-line flags and a bad -o are usage errors" {
	job p '[a]\nsize = 1m\n'
	run "$IOSWEEP" plan "$TESTDIR/p.ini" --frob
	[ "$status" -eq 2 ]
	run "$IOSWEEP" plan "$TESTDIR/p.ini" -o xml
	[ "$status" -eq 2 ]
	run "$IOSWEEP" plan
	[ "$status" -eq 2 ]
	# -o json:$OUT with OUT unset is not a request for stdout
	for cmd in run plan; do
		run "$IOSWEEP" $cmd "$TESTDIR/p.ini" -o json:
		[ "$status" -eq 2 ]
		[ "$output" = "iosweep: -o json: has no path after the colon (write json:FILE, or json:- for standard output)" ]
	done
}

@test "an option given last without its value is named, long or short" {
	job a '[a]\nsize = 1m\n'
	for opt in --set --job -o --output; do
		run "$IOSWEEP" run "$TESTDIR/a.ini" $opt
		[ "$status" -eq 2 ]
		[ "$output" = "iosweep: run: option $opt needs a value" ]
	done
}
