#!/usr/bin/env bats
# Help as a new user meets it: -h/--help on every command, `help help`,
# full usage lines (never cut short), and the table kept on stdout when other
# formats go to files.
# make check: runs beside another file

load helpers

COMMANDS="run plan check options compare plot import report history gate help"

@test "every command answers -h and --help with its usage, options and an example, exit 0" {
	for c in $COMMANDS; do
		for h in -h --help; do
			run "$IOSWEEP" $c $h
			[ "$status" -eq 0 ] || { echo "$c $h: $status"; false; }
			[[ "${lines[0]}" == "usage: iosweep $c"* ]] || { echo "$c $h: ${lines[0]}"; false; }
			echo "$output" | grep -qx 'example:'
			echo "$output" | grep -qx -- '  -h, --help'
			[ "$output" = "$("$IOSWEEP" help $c)" ]
		done
	done
}

# flags_of_help COMMAND: the flags COMMAND's help lists (not -h), each as
# its spellings ("-o --output"), one a line, sorted
flags_of_help() {
	"$IOSWEEP" help "$1" | awk '/^options:$/ {on = 1; next} /^$/ {on = 0}
		on && /^  -/ && $0 != "  -h, --help" {sub(/^  /, ""); print}' |
		sed 's/,//; s/ [^-].*//' | sort
}

# flags_of_usage COMMAND: the flags COMMAND's usage line names, each as the
# spellings help gives it (the usage line may use either), one a line, sorted
flags_of_usage() {
	local help
	help=$(flags_of_help "$1")
	"$IOSWEEP" help "$1" | head -n1 | grep -oE -- '(^| |\[)--?[a-z][a-z-]*' | tr -d ' [' |
		while read -r f; do
			grep -E -- "(^| )$f( |\$)" <<<"$help" || echo "$f (not in help)"
		done | sort -u
}

@test "each command's usage line names exactly the flags its help lists" {
	for c in $COMMANDS; do
		[ "$(flags_of_usage $c)" = "$(flags_of_help $c)" ] ||
			{ echo "$c: usage: $(flags_of_usage $c | tr '\n' ,) help: $(flags_of_help $c | tr '\n' ,)"; false; }
	done
	# the table is read: plot's seven flags, none for options
	[ "$(flags_of_help plot | wc -l)" = 7 ]
	[ -z "$(flags_of_help options)" ]
}

@test "help run explains --set, --job, -o FORMAT[:PATH] and --output, with an example" {
	run "$IOSWEEP" help run
	[ "$status" -eq 0 ]
	echo "$output" | grep -qx -- '  -o, --output FORMAT\[:PATH\]'
	echo "$output" | grep -qx -- '  --set KEY=VALUE'
	echo "$output" | grep -qx -- '  --job NAME'
	echo "$output" | grep -qx -- '  -q, --quiet'
	echo "$output" | grep -qx '  iosweep run [^ ]*\.ini .*'
}

@test "-h after other arguments, and the value of an option that looks like -h, are told apart" {
	run "$IOSWEEP" run "$TESTDIR/none.ini" --set size=1m -h
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "usage: iosweep run "* ]]
	# after --, -h is a file name
	run "$IOSWEEP" check -- -h
	[ "$status" -eq 2 ]
	[[ "$output" == "iosweep: -h: No such file or directory" ]]
}

@test "help help works and help of an unknown command is a usage error" {
	run "$IOSWEEP" help help
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "usage: iosweep help [COMMAND]" ]
	run "$IOSWEEP" help --help
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "usage: iosweep help [COMMAND]" ]
	run "$IOSWEEP" help frobnicate
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: no command 'frobnicate' (see 'iosweep help')" ]
}

@test "usage lines inside errors are the whole usage line of help" {
	for c in run plan check compare plot; do
		run "$IOSWEEP" $c
		[ "$status" -eq 2 ]
		usage=$("$IOSWEEP" help $c | head -n1 | sed 's/^usage: //')
		[[ "$output" == *"(usage: $usage)" ]] || { echo "$c: $output"; false; }
	done
	run "$IOSWEEP" options extra
	[ "$status" -eq 2 ]
	[[ "$output" == *"(usage: iosweep options)" ]]
}

@test "-o json:FILE keeps the table on stdout; --quiet or a format on stdout takes it away" {
	job t "[a]\nfilename = $TESTDIR/f\nsize = 64k\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/t.ini" -o json:"$TESTDIR/t.json"
	[ "$status" -eq 0 ]
	echo "$output" | grep -qE '^# .*time to end'
	json_runs "$TESTDIR/t.json" 1
	run "$IOSWEEP" run "$TESTDIR/t.ini" -o json:"$TESTDIR/t.json" --quiet
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	run "$IOSWEEP" run "$TESTDIR/t.ini" -o csv -o json:"$TESTDIR/t.json"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == job,run,repeat,* ]]
	! echo "$output" | grep -qE '^# .*time to end'
}

@test "compare with no run in common says so and exits 2" {
	job a "[a]\nfilename = $TESTDIR/f\nsize = 64k\nrepeat = 1\n"
	job b "[b]\nfilename = $TESTDIR/f\nsize = 64k\nrepeat = 1\n"
	"$IOSWEEP" run "$TESTDIR/a.ini" -q -o json:"$TESTDIR/a.json"
	"$IOSWEEP" run "$TESTDIR/b.ini" -q -o json:"$TESTDIR/b.json"
	run "$IOSWEEP" compare "$TESTDIR/a.json" "$TESTDIR/b.json"
	[ "$status" -eq 2 ]
	echo "$output" | grep -qx 'only in OLD: a'
	echo "$output" | grep -qx "iosweep: compare: $TESTDIR/a.json and $TESTDIR/b.json have no run in common (runs match by job name and parameters other than filename, repeat and warmup)"
}
