#!/usr/bin/env bats
# Paths as a job kept in a repository needs them: a relative filename is
# relative to the job file, ~/ is $HOME, --set paths are relative to the
# current directory, and installed jobs and man pages know their PREFIX.
# make check: runs beside another file

load helpers

@test "a relative filename is relative to the job file's directory, from any directory" {
	mkdir -p "$TESTDIR/repo/jobs/data" "$TESTDIR/elsewhere"
	head -c 64k /dev/urandom >"$TESTDIR/repo/jobs/data/f.dat"
	job repo/jobs/r "[a]\nfilename = data/f.dat\nrepeat = 1\n"
	for dir in "$TESTDIR/elsewhere" "$TESTDIR/repo" "$TESTDIR/repo/jobs" /; do
		cd "$dir"
		run "$IOSWEEP" run "$TESTDIR/repo/jobs/r.ini" -o json:"$TESTDIR/r.json" --quiet
		[ "$status" -eq 0 ] || { echo "from $dir: $output"; false; }
		[ "$(json_get "$TESTDIR/r.json" 'd["runs"][0]["params"]["filename"]')" = "$TESTDIR/repo/jobs/data/f.dat" ]
	done
	# given relative to the current directory, the job file's path is kept relative
	cd "$TESTDIR/repo"
	run "$IOSWEEP" run jobs/r.ini -o json:"$TESTDIR/r.json" --quiet
	[ "$status" -eq 0 ]
	[ "$(json_get "$TESTDIR/r.json" 'd["runs"][0]["params"]["filename"]')" = jobs/data/f.dat ]
	# a file to create goes next to the job file too
	job repo/jobs/c "[a]\nfilename = made.dat\nsize = 64k\nrepeat = 1\n"
	cd "$TESTDIR/elsewhere"
	"$IOSWEEP" run "$TESTDIR/repo/jobs/c.ini" --quiet -o json:"$TESTDIR/c.json"
	[ -f "$TESTDIR/repo/jobs/made.dat" ] && [ ! -e "$TESTDIR/elsewhere/made.dat" ]
}

@test "~/ in filename is the home directory; --set filename is relative to the current directory" {
	mkdir "$TESTDIR/home" "$TESTDIR/cwd"
	head -c 64k /dev/urandom >"$TESTDIR/home/f.dat"
	job h "[a]\nfilename = ~/f.dat\nrepeat = 1\n"
	run env HOME="$TESTDIR/home" "$IOSWEEP" plan "$TESTDIR/h.ini" -o json
	[ "$status" -eq 0 ]
	[[ "$output" == *"\"filename\": \"$TESTDIR/home/f.dat\""* ]]
	head -c 64k /dev/urandom >"$TESTDIR/cwd/g.dat"
	cd "$TESTDIR/cwd"
	run "$IOSWEEP" plan "$TESTDIR/h.ini" --set filename=g.dat -o json
	[ "$status" -eq 0 ]
	[[ "$output" == *'"filename": "g.dat"'* ]]
	run env HOME="$TESTDIR/home" "$IOSWEEP" plan "$TESTDIR/h.ini" --set 'filename=~/f.dat' -o json
	[[ "$output" == *"\"filename\": \"$TESTDIR/home/f.dat\""* ]]
	run env -u HOME "$IOSWEEP" check "$TESTDIR/h.ini"
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: $TESTDIR/h.ini:2: '~' in a path, but HOME is not set" ]
}

@test "make install: run NAME.ini finds the installed jobs, and the man pages name the PREFIX" {
	command -v make >/dev/null && command -v cc >/dev/null || skip "needs make and cc"
	src="$BATS_TEST_DIRNAME/../.."
	make -s -C "$src" -j2 install BUILD="$TESTDIR/build" PREFIX="$TESTDIR/prefix" >/dev/null
	man1="$TESTDIR/prefix/share/man/man1/iosweep.1"
	grep -q "$TESTDIR/prefix/share/iosweep/jobs" "$man1"
	! grep -q /usr/local "$man1" "$TESTDIR/prefix/share/man/man5/iosweep-job.5"
	mkdir "$TESTDIR/empty"
	cd "$TESTDIR/empty"
	run "$TESTDIR/prefix/bin/iosweep" plan demo.ini
	[ "$status" -eq 0 ]
	echo "$output" | grep -q '^total: 5 runs'
	# a file of that name here comes first; a path with a '/' is never looked up
	job empty/demo "[here]\nfilename = $TESTDIR/f\nsize = 64k\n"
	run "$TESTDIR/prefix/bin/iosweep" plan demo.ini
	echo "$output" | grep -q '^total: 1 runs'
	run "$TESTDIR/prefix/bin/iosweep" plan ./sparse-time-to-end.ini
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: ./sparse-time-to-end.ini: No such file or directory" ]
	run "$TESTDIR/prefix/bin/iosweep" help run
	echo "$output" | grep -q "installed jobs directory ($TESTDIR/prefix/share/iosweep/jobs)"
}
