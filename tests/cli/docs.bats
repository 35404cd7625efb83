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
	for c in run plan check options compare plot import report history gate record; do
		grep -qE "^\.B $c\$" "$BATS_TEST_DIRNAME/../../man/iosweep.1" || { echo "no $c"; false; }
	done
	for e in 0 1 2 3 129 130 141 143; do
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
	for c in run plan check options compare plot import report history gate record help; do
		usage=$("$IOSWEEP" help $c | head -n1 | sed 's/^usage: //')
		grep -qxF "$usage" "$TESTDIR/synopsis" || { echo "man lacks: $usage"; cat "$TESTDIR/synopsis"; false; }
	done
	[ "$(grep -c '^iosweep [a-z]' "$TESTDIR/synopsis")" = 12 ]
}

# help_flags COMMAND: the flags of `iosweep COMMAND --help` (not -h), each as
# its spellings ("-o --output"), one a line, sorted
help_flags() {
	"$IOSWEEP" "$1" --help | awk '/^options:$/ {on = 1; next} /^$/ {on = 0}
		on && /^  -/ && $0 != "  -h, --help" {sub(/^  /, ""); print}' |
		sed 's/,//; s/ [^-].*//' | sort
}

# man_options: the flags of iosweep.1's OPTIONS (not -h), as help_flags spells them
man_options() {
	mandoc -T ascii -O width=400 "$BATS_TEST_DIRNAME/../../man/iosweep.1" | col -bx |
		awk '/^OPTIONS/ {on = 1; next} /^[A-Z]/ {on = 0} on && /^       -/' |
		sed 's/^ *//; s/,//; s/ [^-].*//' | grep -vx -- '-h --help' | sort
}

@test "iosweep.1 names, for each command, exactly the flags of its --help, and describes each in OPTIONS" {
	synopsis >"$TESTDIR/synopsis"
	all=$(for c in run plan check options compare plot import report history gate record help; do help_flags $c; done | sort -u)
	[ "$(man_options)" = "$all" ] ||
		{ echo "OPTIONS: $(man_options | tr '\n' ,) help: $(echo "$all" | tr '\n' ,)"; false; }
	for c in run plan check options compare plot import report history gate record help; do
		help=$(help_flags $c)
		line=$(grep -E "^iosweep $c( |\$)" "$TESTDIR/synopsis")
		[ -n "$line" ]
		# each flag of the SYNOPSIS line, as --help spells it
		man=$(grep -oE -- '(^| |\[)--?[a-z][a-z-]*' <<<"$line" | tr -d ' [' | while read -r f; do
			grep -E -- "(^| )$f( |\$)" <<<"$help" || echo "$f (not in --help)"
		done | sort -u)
		[ "$man" = "$help" ] ||
			{ echo "$c: man: $(echo "$man" | tr '\n' ,) --help: $(echo "$help" | tr '\n' ,)"; false; }
	done
}

# exit_status CODE: the man page's EXIT STATUS paragraph for CODE, as one line
exit_status() {
	mandoc -T ascii -O width=400 "$BATS_TEST_DIRNAME/../../man/iosweep.1" | col -bx |
		awk -v c="$1" '/^EXIT STATUS/ {on = 1; next} /^[A-Z]/ {on = 0}
			on && $1 ~ /^[0-9]+$/ {cur = $1; $1 = ""} on && cur == c {print}' | tr -s ' \n' ' '
}

@test "EXIT STATUS and help's exit codes name the same codes, and say what the program does" {
	codes=$("$IOSWEEP" help | sed -n 's/^exit codes: //p' | grep -oE '(^|, )[0-9]+' | tr -dc '0-9\n' | tr '\n' ' ')
	[ "$codes" = "0 1 2 3 130 143 129 141 " ]
	for c in $codes; do
		[ -n "$(exit_status $c)" ] || { echo "man has no exit status $c"; false; }
	done
	# a cache state not reached (tmpfs) is 0, with a warning; cache=drop without root is 2
	exit_status 0 | grep -q 'tmpfs'
	exit_status 2 | grep -q 'cache=drop'
	! exit_status 1 | grep -q 'could not be applied'
	use_tmpfs
	job y "[a]\nfilename = $SHM/f\nsize = 64k\ncache = fadvise\nrepeat = 1\n"
	run "$IOSWEEP" run "$TESTDIR/y.ini"
	[ "$status" -eq 0 ]
	echo "$output" | grep -q 'warning: run 0: .*tmpfs'
	for_nobody "$TESTDIR/f" 64k x "[a]\nfilename = $TESTDIR/f\ncache = drop\n"
	run as_nobody "$IOSWEEP" run "$TESTDIR/x.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *"cache=drop needs root"* ]]
}

@test "iosweep-job.5 and the README name every engine of the engine table" {
	engines=$("$IOSWEEP" options | awk '/^engine +can/ {on = 1; next} on && NF == 0 {exit} on {print $1}')
	[ -n "$engines" ]
	line=$(grep -E '^\.BR sync \|' "$BATS_TEST_DIRNAME/../../man/iosweep-job.5")
	for e in $engines; do
		[[ " $line " == *" $e "* ]] || { echo "iosweep-job.5 lacks engine $e"; false; }
		grep -q "\`$e\`" "$BATS_TEST_DIRNAME/../../README.md" || { echo "README lacks $e"; false; }
	done
}

@test "iosweep-job.5 gives each engine the one-line meaning iosweep options prints" {
	"$IOSWEEP" options | awk '/^engine +can/ {on = 1; next} on && NF == 0 {exit} on' >"$TESTDIR/engines"
	[ "$(wc -l <"$TESTDIR/engines")" -ge 5 ]
	python3 - "$TESTDIR/engines" "$BATS_TEST_DIRNAME/../../man/iosweep-job.5" <<'PY'
import re, sys
man = open(sys.argv[2]).read()
bad = []
for line in open(sys.argv[1]):
    fields = re.split(r' {2,}', line.strip())
    name, does = fields[0], fields[-1]
    if '.IP "\\fB%s\\fR" 8\n%s\n' % (name, does) not in man:
        bad.append('%s: %s' % (name, does))
if bad:
    sys.exit('iosweep-job.5 does not say, as options does:\n' + '\n'.join(bad))
PY
}

@test "iosweep options lists every fio word of the one table, each with what it becomes here" {
	# the words of fio_words.c's table, as the import reads them
	awk '/^static const struct fio_word words\[\] = \{/ {on = 1; next} on && /^\};/ {exit}
	     on && match($0, /\.fio = "[^"]+"/) {print substr($0, RSTART + 8, RLENGTH - 9)}' \
		"$BATS_TEST_DIRNAME/../../src/job/fio_words.c" | sort >"$TESTDIR/table"
	# the section of iosweep options after its "fio option" header, up to a blank line
	"$IOSWEEP" options | awk '/^fio option +iosweep$/ {on = 1; next} on && NF == 0 {exit}
		on {print}' >"$TESTDIR/listed"
	[ "$(wc -l <"$TESTDIR/table")" -gt 100 ]
	awk '{print $1}' "$TESTDIR/listed" | sort | diff "$TESTDIR/table" -
	# every row says something: a word alone would be a row without its meaning
	[ -z "$(awk 'NF < 2' "$TESTDIR/listed")" ]
	grep -qx 'direct  *direct=1: cache = direct' "$TESTDIR/listed"
	grep -qx 'ioengine  *engine: psync, sync, pvsync: sync; pvsync2: psync2; libaio: aio; io_uring: uring; mmap: mmap; filecreate: tree, op = create; filestat: tree, op = stat; filedelete: tree, op = unlink; dircreate: tree, op = mkdir; dirstat: tree, op = statdir; dirdelete: tree, op = rmdir; others refused' \
		"$TESTDIR/listed"
	grep -qx 'startdelay  *startdelay (a range: nothing, noted, for a job alone; refused where it starts jobs that run together, or numjobs clones, apart by drawn waits)' "$TESTDIR/listed"
}

@test "each result in docs/results was run from its job file as it is now, by the script that remakes it" {
	# a result keeps the job text it ran (job_file.text) and its --set overrides:
	# the text must be today's job file, and run.sh (or NAME.sh) must pass the
	# same overrides, or the published figures describe a job nobody can rerun
	/usr/bin/python3 - "$BATS_TEST_DIRNAME/../.." <<'PY'
import glob, json, os, re, sys
root = sys.argv[1]
res = os.path.join(root, "docs/results")
runsh = open(os.path.join(res, "run.sh"), encoding="utf-8").read()
# each case of run.sh: NAME) ... run "$name" JOB [--set KEY=VALUE]... ;;
entries = {}
for m in re.finditer(r'^\t([a-z0-9-]+)\)(.*?);;', runsh[runsh.index("case $name in"):],
                     re.M | re.S):
    r = re.search(r'run "\$name" (\S+)([^\n;]*)', m.group(2))
    if r:
        entries[m.group(1)] = (r.group(1), re.findall(r"--set (\S+)", r.group(2)))
bad, n = [], 0
for path in sorted(glob.glob(os.path.join(res, "*.json"))):
    name = os.path.basename(path)[:-5]
    d = json.load(open(path, encoding="utf-8"))
    job = d["job_file"]["path"]
    n += 1
    try:
        text = open(os.path.join(root, job), encoding="utf-8").read()
    except OSError as e:
        bad.append(f"{name}: its job {job}: {e}")
        continue
    if text != d["job_file"]["text"]:
        bad.append(f"{name}: {job} is not the job text the result ran (rerun docs/results/run.sh {name})")
    if name in entries:
        if entries[name] != (job, d["overrides"]):
            bad.append(f"{name}: run.sh runs {entries[name]}, the result ran {(job, d['overrides'])}")
    elif not os.path.exists(os.path.join(res, name + ".sh")):
        bad.append(f"{name}: neither run.sh nor {name}.sh remakes it")
    if not os.path.exists(os.path.join(res, name + ".txt")):
        bad.append(f"{name}: no {name}.txt beside it")
for name in entries:
    if not os.path.exists(os.path.join(res, name + ".json")):
        bad.append(f"{name}: run.sh makes it, but it is not committed")
print("\n".join(bad) or f"{n} results checked")
sys.exit(1 if bad or n == 0 else 0)
PY
}

@test "the README names every job file of jobs/" {
	for f in "$BATS_TEST_DIRNAME"/../../jobs/*.ini; do
		grep -q "\`$(basename "$f")\`" "$BATS_TEST_DIRNAME/../../README.md" || { echo "README lacks $(basename "$f")"; false; }
	done
}
