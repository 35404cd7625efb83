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

# synopsis: the man page's SYNOPSIS as text, one line per command
synopsis() {
	mandoc -T ascii -O width=400 "$BATS_TEST_DIRNAME/../../man/iosweep.1" | col -bx |
		awk '/^SYNOPSIS/ {on = 1; next} /^[A-Z]/ {on = 0} on && NF' | tr -s ' ' | sed 's/^ //'
}

@test "the man page's SYNOPSIS is the usage line of every command's help" {
	synopsis >"$TESTDIR/synopsis"
	for c in run plan check options compare plot help; do
		usage=$("$IOSWEEP" help $c | head -n1 | sed 's/^usage: //')
		grep -qxF "$usage" "$TESTDIR/synopsis" || { echo "man lacks: $usage"; cat "$TESTDIR/synopsis"; false; }
	done
	[ "$(grep -c '^iosweep [a-z]' "$TESTDIR/synopsis")" = 7 ]
}
