#!/usr/bin/env bats
# Job files at the edges of the INI syntax: every line end reads the same,
# white space around a section name is not part of it, what the parser
# accepts it accepts the same way whatever the line end, an error is one
# line whatever a value holds, and running out of memory is not called a
# bad job file.  The refusals themselves are in the corpus (tests/data/bad).
# make check: runs beside another file

load helpers

# same_plan A B: `iosweep plan` prints the same for job files A and B
same_plan() {
	"$IOSWEEP" plan "$1" >"$TESTDIR/a.out"
	"$IOSWEEP" plan "$2" >"$TESTDIR/b.out"
	diff "$TESTDIR/a.out" "$TESTDIR/b.out"
}

@test "LF, CR LF, lone CR and mixed line ends give the same plan" {
	text='[global]\nsize = 1m\n[a]\nbs = 4k,\n  8k\nengine = sync, aio\n[b]\n'
	job lf "$text"
	printf '%b' "$text" | sed 's/$/\r/' >"$TESTDIR/crlf.ini"
	printf '%b' "$text" | tr '\n' '\r' >"$TESTDIR/cr.ini"
	printf '[global]\r\nsize = 1m\r[a]\nbs = 4k,\r\n  8k\rengine = sync, aio\n[b]' >"$TESTDIR/mixed.ini"
	for f in crlf cr mixed; do
		same_plan "$TESTDIR/lf.ini" "$TESTDIR/$f.ini"
	done
	# every run of both jobs is there: nothing after the first line was lost
	[ "$(grep -c '^ *[0-9]' "$TESTDIR/a.out")" -eq 5 ]
}

@test "a line of 198 bytes is accepted with every line end and without one; 199 is not" {
	d=$(printf 'x%.0s' $(seq 184))
	for end in '\n' '\r\n' '\r' ''; do
		printf "[a]\nsize = 1m\ndescription = ${d}${end}" >"$TESTDIR/ok.ini"
		[ "$(awk 'NR == 3 { sub(/\r$/, ""); print length($0) }' "$TESTDIR/ok.ini")" -eq 198 ] ||
			[ "$end" = '\r' ]
		"$IOSWEEP" check "$TESTDIR/ok.ini"
		printf "[a]\nsize = 1m\ndescription = x${d}${end}" >"$TESTDIR/long.ini"
		run "$IOSWEEP" check "$TESTDIR/long.ini"
		[ "$status" -eq 2 ]
		[ "$output" = "iosweep: $TESTDIR/long.ini:3: line is longer than 198 bytes (continue a list on an indented next line)" ]
	done
}

@test "[global ] and [ global ] are [global], and [ a ] is job a" {
	job g '[global ]\nsize = 1m\n[ global]\nbs = 8k\n[ a ]\n[b]\nbaseline = a\n'
	run "$IOSWEEP" plan "$TESTDIR/g.ini" -o json
	[ "$status" -eq 0 ]
	echo "$output" >"$TESTDIR/g.json"
	[ "$(json_get "$TESTDIR/g.json" '[r["job"] for r in d["runs"]]')" = "['a', 'b']" ]
	[ "$(json_get "$TESTDIR/g.json" 'd["runs"][0]["params"]["bs"]')" = 8192 ]
}

@test "a comment after a section header is a comment, not an error" {
	job c '[a] ; the first job\nsize = 1m\n[b]\t# the second\nsize = 2m\n'
	"$IOSWEEP" check "$TESTDIR/c.ini"
}

@test "a list goes on over comment lines, not over a blank line" {
	job l '[a]\nsize = 1m\nbs = 4k,\n; a comment\n  8k\n'
	run "$IOSWEEP" plan "$TESTDIR/l.ini"
	[ "$status" -eq 0 ]
	[[ "$output" == *"total: 2 runs"* ]]
}

@test "an error quoting a value with a newline or a CR is one line" {
	job v '[a]\nsize = 1m\nfilename = ${IOSWEEP_TEST_NAME}\n'
	IOSWEEP_TEST_NAME=$'/nonexistent\ndir/f\r.dat' run "$IOSWEEP" run "$TESTDIR/v.ini"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *'/nonexistent\ndir/f\r.dat'* ]]
	IOSWEEP_TEST_NAME=$'x\ny' run "$IOSWEEP" check "$TESTDIR/v.ini" --set $'bs=4\nx'
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
}

@test "running out of memory while parsing is exit 1 and not a job-file error" {
	grep -q __asan_init "$IOSWEEP" && skip "the sanitizers' allocator is not interposed"
	shim=$HELPERS/nomem_shim.so
	[ -e "$shim" ] || skip "build/tests/nomem_shim.so is missing (make check builds it)"
	# a list of 20 000 values grows past 64 KiB
	{
		printf '[a]\nsize = 1g\nbs = 512\npattern = random\ncount = 1\nspacing = 4096,\n'
		seq 2 20000 | awk '{ printf "  %d,\n", $1 * 4096 }'
		printf '  1g\n'
	} >"$TESTDIR/big.ini"
	"$IOSWEEP" check "$TESTDIR/big.ini"
	run env IOSWEEP_REALLOC_MAX=65536 LD_PRELOAD="$shim" "$IOSWEEP" check "$TESTDIR/big.ini"
	[ "$status" -eq 1 ]
	[ "$output" = "iosweep: $TESTDIR/big.ini: out of memory while reading it" ]
}

@test "running out of memory while applying --set is exit 1 and not a usage error" {
	grep -q __asan_init "$IOSWEEP" && skip "the sanitizers' allocator is not interposed"
	shim=$HELPERS/nomem_shim.so
	[ -e "$shim" ] || skip "build/tests/nomem_shim.so is missing (make check builds it)"
	printf '[a]\nsize = 1g\nbs = 512\npattern = random\ncount = 1\n' >"$TESTDIR/small.ini"
	# a list of 10 000 values grows past 64 KiB while --set is applied
	set=spacing=$(seq 4096 4096 40960000 | paste -sd,)
	"$IOSWEEP" check "$TESTDIR/small.ini" --set "$set" >/dev/null
	run env IOSWEEP_REALLOC_MAX=65536 LD_PRELOAD="$shim" "$IOSWEEP" check "$TESTDIR/small.ini" \
		--set "$set"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *": out of memory" ]]
}

@test "100 000 jobs are checked, and a duplicate among them is named with its first line" {
	{
		printf '[global]\nsize = 1m\n'
		seq 100000 | awk '{ printf "[j%d]\n", $1 }'
		printf '[last]\nbaseline = j99999\n'
	} >"$TESTDIR/many.ini"
	timeout 120 "$IOSWEEP" check "$TESTDIR/many.ini" 2>&1 | grep -q "more than 100000 jobs"
	sed -i '/^\[j1\]$/d' "$TESTDIR/many.ini"
	timeout 120 "$IOSWEEP" check "$TESTDIR/many.ini"
	printf '[j5]\n' >>"$TESTDIR/many.ini"
	run "$IOSWEEP" check "$TESTDIR/many.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *":100004: duplicate job name 'j5' (first at line 6)" ]]
}
