#!/usr/bin/env bats
# Command-line arguments: each command takes its own flags (those its help
# lists, from the table of commands) and no other; every flag that takes a
# value says which one when it has none, in one printable line.
# make check: runs beside another file

load helpers

COMMANDS="run plan check options compare plot import report help"

# help_flags COMMAND: the flags of COMMAND's help, one a line, as help
# spells them ("-o, --output FORMAT[:PATH]", "--no-merge"); -h left out
help_flags() {
	"$IOSWEEP" help "$1" | awk '/^options:$/ {on = 1; next} /^$/ {on = 0}
		on && /^  -/ && $0 != "  -h, --help" {sub(/^  /, ""); print}'
}

# spellings LINE: "-o --output" of "-o, --output FORMAT[:PATH]"
spellings() {
	echo "$1" | sed 's/,//; s/ [^-].*//'
}

# takes_value LINE: whether the flag of that help line takes a value
takes_value() {
	[[ "$1" =~ \ [^-] ]]
}

# refused COMMAND FLAG ARGS...: COMMAND refuses FLAG (a flag of other commands)
refused() {
	local cmd=$1 flag=$2 usage
	shift 2
	usage=$("$IOSWEEP" help "$cmd" | head -n1 | sed 's/^usage: //')
	run "$IOSWEEP" "$cmd" "$@"
	[ "$status" -eq 2 ] || { echo "$cmd $*: $status"; false; }
	[ "$output" = "iosweep: $cmd does not take $flag (usage: $usage)" ] ||
		{ echo "$cmd $*: $output"; false; }
}

@test "every option that needs a value names itself when it has none, for every command" {
	job j "[a]\nfilename = $TESTDIR/f\nsize = 1m\n"
	for cmd in $COMMANDS; do
		while read -r line; do
			takes_value "$line" || continue
			for opt in $(spellings "$line"); do
				for form in "$opt" "$opt="; do
					[ "$form" = "-o=" ] && continue
					run "$IOSWEEP" "$cmd" "$TESTDIR/j.ini" "$form"
					[ "$status" -eq 2 ] || { echo "$cmd $form: $status $output"; false; }
					[ "$output" = "iosweep: $cmd: option $opt needs a value" ] ||
						{ echo "$cmd $form: $output" | cat -v; false; }
				done
			done
		done < <(help_flags "$cmd")
	done
	run "$IOSWEEP" run "$TESTDIR/j.ini" -o ''
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: run: option -o needs a value" ]
	[ ! -e "$TESTDIR/f" ]
}

@test "an unknown option is named as given" {
	run "$IOSWEEP" run --frobnicate
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: run: unknown option '--frobnicate' (see 'iosweep help run')" ]
	run "$IOSWEEP" check -z
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: check: unknown option '-z' (see 'iosweep help check')" ]
}

@test "a flag of another command is refused, naming the command and the flag, before anything runs" {
	job j "[a]\nfilename = $TESTDIR/f\nsize = 1m\n"
	# issue 35: plan took them all and printed its plan
	refused plan --alpha "$TESTDIR/j.ini" --alpha 0.2 --over time --x bs
	refused plan --over "$TESTDIR/j.ini" --over time
	refused plan --over "$TESTDIR/j.ini" --over=time
	refused plan --over "$TESTDIR/j.ini" --over
	refused plan -q "$TESTDIR/j.ini" -q
	refused run --alpha "$TESTDIR/j.ini" --alpha 0.1
	refused run --x "$TESTDIR/j.ini" --x bs
	refused run --no-merge "$TESTDIR/j.ini" --no-merge
	refused check --x "$TESTDIR/j.ini" --x bs
	refused check -o "$TESTDIR/j.ini" -o json
	refused check --output "$TESTDIR/j.ini" --output json
	refused check -q "$TESTDIR/j.ini" -q
	refused check --quiet "$TESTDIR/j.ini" --quiet
	refused compare --set a.json b.json --set size=1m
	refused compare --job a.json b.json --job a
	refused plot --set r.json --set size=1m
	refused plot -q r.json -q
	refused plot --alpha r.json --alpha 0.1
	refused import --set a.fio --set size=1m
	refused import --alpha a.fio --alpha 0.1
	refused options --set --set size=1m
	refused help --job --job a
	[ ! -e "$TESTDIR/f" ]
}

@test "every command takes each flag its help lists, and refuses every other flag of any command" {
	# every spelling of the flags of every command, with a value if it takes one
	all=$(for c in $COMMANDS; do
		help_flags $c | while read -r line; do
			for opt in $(spellings "$line"); do
				takes_value "$line" && echo "$opt 0.5" || echo "$opt"
			done
		done
	done | sort -u)
	[ "$(echo "$all" | wc -l)" -ge 12 ]
	for cmd in $COMMANDS; do
		usage=$("$IOSWEEP" help "$cmd" | head -n1 | sed 's/^usage: //')
		own=$(help_flags "$cmd" | while read -r line; do spellings "$line"; done | tr ' ' '\n')
		while read -r opt value; do
			# a flag taken is parsed, and the unknown one after it stops the command
			run "$IOSWEEP" "$cmd" "$opt" $value --frobnicate
			if grep -qxF -- "$opt" <<<"$own"; then
				want="iosweep: $cmd: unknown option '--frobnicate' (see 'iosweep help $cmd')"
			else
				want="iosweep: $cmd does not take $opt (usage: $usage)"
			fi
			[ "$status" -eq 2 ] && [ "$output" = "$want" ] ||
				{ echo "$cmd $opt $value: $output"; false; }
		done <<<"$all"
	done
}

@test "no command takes two flags of one spelling" {
	for cmd in $COMMANDS; do
		dup=$(help_flags "$cmd" | while read -r line; do spellings "$line" | tr ' ' '\n'; done |
			sort | uniq -d)
		[ -z "$dup" ] || { echo "$cmd: $dup"; false; }
	done
}
