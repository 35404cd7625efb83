#!/usr/bin/env bats
# iosweep import, not one refusal per try: every file and every job is
# read before anything is refused, each refusal on its own FILE:LINE line;
# --job imports a subset; -o never overwrites what the fio job is made of.
# make check: runs beside another file

load helpers

# the fio files of every test, in $TESTDIR (the current directory)
fio_files() {
	cd "$TESTDIR"
	printf '[global]\nsize=1m\nstonewall\n[a]\nrw=read\n[b]\nrw=read\ntrim_verify_zero=1\n[c]\nrw=read\nzonesize=4k\n' >one.fio
	printf '[x]\nrw=read\nsize=1m\ntrim_verify_zero=1\n[y]\nrw=read\nsize=1m\n' >two.fio
	printf '[ok]\nrw=read\nsize=1m\n' >ok.fio
}

@test 'every refusal of every file listed is said at once, one line each, and nothing is written' {
	fio_files
	run "$IOSWEEP" import one.fio two.fio missing.fio ok.fio -o out.ini
	echo "$output"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 4 ]
	[[ "${lines[0]}" == "iosweep: missing.fio: "* ]]
	[[ "${lines[1]}" == "iosweep: one.fio:8: trim_verify_zero=1: "* ]]
	[[ "${lines[2]}" == "iosweep: one.fio:11: zonesize=4k: "* ]]
	[[ "${lines[3]}" == "iosweep: two.fio:4: trim_verify_zero=1: "* ]]
	[ ! -e out.ini ]
	[ -z "$(ls | grep tmp)" ]
	# each file alone says its own, the same lines
	run "$IOSWEEP" import one.fio
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 2 ]
}

@test 'every refused setting of one job is said too, each at its line' {
	fio_files
	printf '[j]\nrw=randread:8\nsize=1m\nbs=1.5k\nzonesize=4k\ndirect=1\n' >j.fio
	run "$IOSWEEP" import j.fio
	echo "$output"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 3 ]
	[[ "${lines[0]}" == "iosweep: j.fio:2: rw=randread:8: "* ]]
	[[ "${lines[1]}" == "iosweep: j.fio:4: bs=1.5k: "* ]]
	[[ "${lines[2]}" == "iosweep: j.fio:5: zonesize=4k: "* ]]
}

@test '--job NAME imports only the named fio jobs, in the file order; an unknown name is refused' {
	fio_files
	run "$IOSWEEP" import one.fio --job c --job a
	[ "$status" -eq 2 ]     # c is still refused: its zonesize
	[ "$output" = "iosweep: one.fio:11: zonesize=4k: iosweep goes through the whole file, not zones of it" ]
	"$IOSWEEP" import one.fio two.fio --job a --job y -o sub.ini 2>/dev/null
	[ "$(grep '^\[' sub.ini | tr '\n' ' ')" = "[global] [a] [y] " ]
	"$IOSWEEP" plan sub.ini -o json >plan.json
	[ "$(json_get plan.json '[r["job"] for r in d["runs"]]')" = "['a', 'y']" ]
	run "$IOSWEEP" import one.fio --job nosuch
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: one.fio: no fio job named 'nosuch' (--job takes a job's name, its section's [NAME])" ]
	# from a fio command line too
	"$IOSWEEP" import --job r2 -- fio --name=r1 --rw=read --size=1m --stonewall --name=r2 --rw=randread --size=1m >cl.ini 2>/dev/null
	[ "$(grep '^\[' cl.ini | tr '\n' ' ')" = "[r2] " ]
}

@test "-o never names the fio job's own files: the job file, an include, the data file" {
	fio_files
	printf 'size=1m\n' >inc.fio
	printf '[d]\ninclude inc.fio\nrw=read\nfilename=data.dat\n' >d.fio
	cp d.fio d.orig
	for target in d.fio inc.fio; do
		run "$IOSWEEP" import d.fio -o "$target"
		[ "$status" -eq 2 ]
		[ "$output" = "iosweep: import: cannot write $target: it is $target, which the fio job is read from or names" ]
	done
	cmp d.fio d.orig
	[ "$(cat inc.fio)" = size=1m ]
	run "$IOSWEEP" import d.fio -o data.dat
	[ "$status" -eq 2 ]
	[ "${lines[-1]}" = "iosweep: import: cannot write data.dat: it is the data file of job 'd'" ]
	[ ! -e data.dat ]
}

@test 'a bad -o is refused before any fio file is read: one line, exit 2' {
	fio_files
	run "$IOSWEEP" import missing.fio -o "$TESTDIR"
	echo "$output"
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: import: cannot write $TESTDIR: it is a directory; an output is a regular file or standard output" ]
}
