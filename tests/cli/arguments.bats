#!/usr/bin/env bats
# Command-line arguments: every option that takes a value says which one
# when it has none, in one printable line.

load helpers

@test "every option that needs a value names itself when it has none, for every command" {
	job j "[a]\nfilename = $TESTDIR/f\nsize = 1m\n"
	for cmd in run plan check compare plot; do
		for opt in -o --output --set --job --x --y --alpha; do
			for form in "$opt" "$opt="; do
				[ "$form" = "-o=" ] && continue
				run "$IOSWEEP" "$cmd" "$TESTDIR/j.ini" "$form"
				[ "$status" -eq 2 ]
				[ "$output" = "iosweep: $cmd: option $opt needs a value" ] ||
					{ echo "$cmd $form: $output" | cat -v; false; }
			done
		done
	done
	[ ! -e "$TESTDIR/f" ]
}

@test "an unknown option is named as given" {
	run "$IOSWEEP" run --frobnicate
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: run: unknown option '--frobnicate' (see 'iosweep help run')" ]
}
