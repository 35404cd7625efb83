#!/usr/bin/env bats
# The floors of src/: data flows down (README, Layout).  tools/layers.py reads
# every #include of src/ and fails on one that reaches a floor above its own
# or closes a circle between modules.
# make check: runs beside another file

load helpers

@test 'no file of src/ includes a floor above its own, and no modules include each other' {
	run python3 "$BATS_TEST_DIRNAME/../../tools/layers.py" "$BATS_TEST_DIRNAME/../../src"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test 'an include that climbs a floor, or closes a circle, is named with FILE:LINE' {
	cp -r "$BATS_TEST_DIRNAME/../../src" "$TESTDIR/src"
	# the I/O floor reaching up to the runner
	sed -i '0,/^#include "io\/pattern.h"/s//&\n#include "run\/run.h"/' "$TESTDIR/src/io/pattern.c"
	# two modules of one floor that include each other
	printf '#include "lib/stats.h"\n' >>"$TESTDIR/src/lib/hist.h"
	printf '#include "lib/hist.h"\n' >>"$TESTDIR/src/lib/stats.h"
	run python3 "$BATS_TEST_DIRNAME/../../tools/layers.py" "$TESTDIR/src"
	[ "$status" -eq 1 ]
	[[ "$output" == *"src/io/pattern.c:"*": io/ includes run/run.h: run/ is not below it"* ]]
	[[ "$output" == *"a circle: lib/hist -> lib/stats -> lib/hist"* ]]
}
