#!/usr/bin/env bats
# The man pages and the README follow the option table.

load helpers

@test "iosweep-job.5 documents exactly the options of the option table" {
	"$IOSWEEP" options | awk 'NR > 1 && NF == 0 {exit} NR > 1 {print $1}' | sort >"$TESTDIR/table"
	awk '/^\.SH OPTIONS/ {on = 1; next} /^\.SH/ {on = 0} on && prev == ".TP" && $1 == ".B" {print $2} {prev = $0}' \
		"$BATS_TEST_DIRNAME/../../man/iosweep-job.5" | sort >"$TESTDIR/man"
	[ -s "$TESTDIR/table" ]
	diff "$TESTDIR/table" "$TESTDIR/man"
}

@test "the README's option table lists every option" {
	for o in $("$IOSWEEP" options | awk 'NR > 1 && NF == 0 {exit} NR > 1 {print $1}'); do
		grep -q "\`$o\`" "$BATS_TEST_DIRNAME/../../README.md" || { echo "README lacks $o"; false; }
	done
}

@test "iosweep.1 documents every command and exit code" {
	for c in run plan check options compare plot; do
		grep -qE "^\.B $c\$" "$BATS_TEST_DIRNAME/../../man/iosweep.1" || { echo "no $c"; false; }
	done
	for e in 0 1 2 130; do
		grep -qE "^\.B $e\$" "$BATS_TEST_DIRNAME/../../man/iosweep.1"
	done
}
