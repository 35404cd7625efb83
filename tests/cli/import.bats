#!/usr/bin/env bats
# iosweep import: fio job files and command lines as iosweep job files.
# The corpus in tests/data/fio was written for these tests: every NAME.fio
# with a NAME.ini is translated to exactly that text; every refuse/*.fio
# names on its first line the message it must be refused with.
# make check: runs beside another file

load helpers

FIO_DATA=$BATS_TEST_DIRNAME/../data/fio

# import_corpus NAME [ARGS]: translates $FIO_DATA/NAME.fio from the corpus directory
import_corpus() {
	local name=$1
	shift
	(cd "$FIO_DATA" && FIO_BS=16k FIO_JOBS=2 "$IOSWEEP" import "$@" "$name.fio")
}

@test 'every corpus file translates to its expected iosweep job' {
	local n=0
	for f in "$FIO_DATA"/*.ini; do
		name=$(basename "$f" .ini)
		[ "$name" = merge-no-merge ] && continue
		import_corpus "$name" >"$TESTDIR/$name.ini" 2>"$TESTDIR/$name.err"
		diff -u "$f" "$TESTDIR/$name.ini"
		n=$((n + 1))
	done
	[ "$n" -ge 13 ]
}

@test '--no-merge keeps jobs that differ in one option apart' {
	import_corpus merge --no-merge >"$TESTDIR/m.ini" 2>/dev/null
	diff -u "$FIO_DATA/merge-no-merge.ini" "$TESTDIR/m.ini"
	grep -q '^bs = 4KiB, 16KiB, 64KiB, 256KiB$' "$FIO_DATA/merge.ini"
	grep -q '^; merged from fio jobs bs4k, bs16k, bs64k, bs256k (they differ only in bs)$' \
		"$FIO_DATA/merge.ini"
}

@test 'iosweep check passes on every translation' {
	for f in "$FIO_DATA"/*.ini; do
		(cd "$TESTDIR" && "$IOSWEEP" check "$f")
	done
}

@test 'fio itself accepts every corpus file' {
	command -v fio >/dev/null || skip "fio is not installed"
	for f in "$FIO_DATA"/*.fio; do
		(cd "$FIO_DATA" && FIO_BS=16k FIO_JOBS=2 fio --parse-only "$f")
	done
}

@test 'fio reads the corpus sizes as the translation says (fio --debug=parse)' {
	command -v fio >/dev/null || skip "fio is not installed"
	# units.fio: size=1m, stonewall, then 4k 4kb 4KiB 1mi 0x2000 -> 4096 4096 4000 1048576 8192
	run bash -c "cd '$FIO_DATA' && fio --parse-only --debug=parse units.fio 2>&1 | grep -o 'out=[0-9]*' | tr '\n' ' '"
	[ "$output" = "out=1048576 out=1 out=4096 out=4096 out=4000 out=1048576 out=8192 " ]
	grep -q '^bs = 4KiB, 4000, 1MiB, 8KiB$' "$FIO_DATA/units.ini"
}

@test 'keywords and arithmetic: $ncpus, $pagesize, $mb_memory' {
	import_corpus keywords >"$TESTDIR/k.ini" 2>/dev/null
	grep -qx "iodepth = $(($(getconf _NPROCESSORS_ONLN) * 2 + 1))" "$TESTDIR/k.ini"
	[ "$(getconf PAGESIZE)" != 4096 ] || grep -qx 'size = 1MiB' "$TESTDIR/k.ini"
	grep -qx 'repeat = 3' "$TESTDIR/k.ini"
	(cd "$TESTDIR" && "$IOSWEEP" check k.ini)
}

@test 'every refusal exits 2 and names the file, line and option' {
	local n=0
	for f in "$FIO_DATA"/refuse/*.fio; do
		want=$(head -n1 "$f" | sed 's/^; expect: //')
		run bash -c "cd '$FIO_DATA' && '$IOSWEEP' import 'refuse/$(basename "$f")' 2>&1 >'$TESTDIR/out'"
		echo "$f: status $status: $output (want: $want)"
		[ "$status" -eq 2 ]
		[[ "$output" == *"$want"* ]]
		[ "$(echo "$output" | wc -l)" -eq 1 ]
		[ ! -s "$TESTDIR/out" ]
		n=$((n + 1))
	done
	[ "$n" -ge 30 ]
}

@test 'settings not translated are in one warning on stderr and in the comments' {
	import_corpus include >"$TESTDIR/i.ini" 2>"$TESTDIR/err"
	[ "$(grep -c '^iosweep: warning: ' "$TESTDIR/err")" -eq 1 ]
	grep -q 'include-common.inc:2: thread=1: irrelevant' "$TESTDIR/err"
	grep -q 'include-common.inc:3: group_reporting: irrelevant' "$TESTDIR/err"
	grep -q '^;   include-common.inc:2: thread=1: irrelevant' "$TESTDIR/i.ini"
	grep -q '^;   include.fio: no filename: fio would lay out a file' "$TESTDIR/i.ini"
}

@test 'a translation without notes warns nothing' {
	import_corpus merge >/dev/null 2>"$TESTDIR/err"
	[ ! -s "$TESTDIR/err" ]
}

@test 'a fio command line translates like the same job file' {
	run "$IOSWEEP" import -- fio --output-format=json --name=cl --rw=randread --bs=8k \
		--size=2m --ioengine=io_uring --iodepth 8 --direct=1 --norandommap
	[ "$status" -eq 0 ]
	[[ "$output" == *"[cl]"* ]]
	[[ "$output" == *"bs = 8KiB"* ]]
	[[ "$output" == *"engine = uring"* ]]
	[[ "$output" == *"iodepth = 8"* ]]
	[[ "$output" == *"cache = direct"* ]]
	[[ "$output" == *"pattern = random"* ]]
	[[ "$output" == *"command line: output-format=json: irrelevant"* ]]
}

@test 'fio command line: options before --name are global; jobs run together unless stonewall' {
	# without stonewall fio runs them at once: a group, and not merged into a list
	run "$IOSWEEP" import -- fio --size=1m --name=a --name=b --bs=8k
	[ "$status" -eq 0 ]
	[ "$(grep -c '^group = fio0$' <<<"$output")" -eq 2 ]
	[[ "$output" == *"[b]"* ]]
	run "$IOSWEEP" import -- fio --size=1m --stonewall --name=a --bs=4k --name=b --bs=8k
	[ "$status" -eq 0 ]
	[[ "$output" == *"bs = 4KiB, 8KiB"* ]]
	[[ "$output" == *"size = 1MiB"* ]]
}

@test 'import -o PATH replaces an existing file atomically, as run -o does' {
	cd "$TESTDIR"
	cp "$FIO_DATA/merge.fio" .
	"$IOSWEEP" import merge.fio -o out.ini 2>/dev/null
	cmp out.ini "$FIO_DATA/merge.ini"
	[ "$(stat -c %a out.ini)" = 644 ]
	echo precious >keep.ini
	chmod 600 keep.ini
	ln keep.ini hard.ini
	"$IOSWEEP" import merge.fio -o keep.ini 2>/dev/null
	cmp keep.ini "$FIO_DATA/merge.ini"
	[ "$(stat -c %a keep.ini)" = 600 ]       # the replaced file's permissions
	[ "$(cat hard.ini)" = precious ]         # renamed over, not written into
	# a symlink of the user's own is followed, as run -o follows it
	echo precious >target.ini
	ln -s target.ini link.ini
	"$IOSWEEP" import merge.fio -o link.ini 2>/dev/null
	[ -L link.ini ]
	cmp target.ini "$FIO_DATA/merge.ini"
	mkfifo fifo
	run "$IOSWEEP" import merge.fio -o fifo
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: import: cannot write fifo: it is a FIFO; an output is a regular file or standard output" ]
	[ -z "$(ls | grep tmp)" ]
}

@test 'import -o into a directory the user cannot write fails cleanly' {
	cd "$TESTDIR"
	cp "$FIO_DATA/merge.fio" .
	mkdir ro
	chmod 755 ro "$TESTDIR"
	run setpriv --reuid=nobody --regid=nogroup --clear-groups "$IOSWEEP" import merge.fio -o ro/x.ini
	[ "$status" -eq 2 ]
	[[ "$output" == *"cannot write ro/x.ini"* ]]
	[ -z "$(ls ro)" ]
}

@test 'a refused translation writes no -o file' {
	cd "$TESTDIR"
	run "$IOSWEEP" import "$FIO_DATA/refuse/chardev.fio" -o w.ini
	[ "$status" -eq 2 ]
	[[ "$output" == *"iosweep writes only regular files and block devices"* ]]
	[ ! -e w.ini ]
}

@test 'a write job on a block device translates without the consent: the comment and the warning say to add it' {
	cd "$TESTDIR"
	printf '[d]\nfilename=/dev/iosweep-no-such-disk\nrw=randwrite\nbs=4k\nsize=1m\n' >d.fio
	run "$IOSWEEP" import d.fio -o d.ini
	[ "$status" -eq 0 ]
	want="add 'allow_write = /dev/iosweep-no-such-disk' to the job"
	[[ "$output" == *"d.fio:2: filename=/dev/iosweep-no-such-disk: this job writes the block device"*"$want"* ]]
	grep -q '^filename = /dev/iosweep-no-such-disk$' d.ini
	grep -q '^op = write$' d.ini
	tr -d '\n;' <d.ini | tr -s ' ' | grep -qF "$want"
	# never added by the import, and a device is overwritten, never laid out (no alloc)
	! grep -q '^allow_write\|^allow_overwrite_signature\|^alloc' d.ini
	# a read job on a device translates with no note at all about writing
	printf '[r]\nfilename=/dev/iosweep-no-such-disk\nrw=randread\nbs=4k\nsize=1m\n' >r.fio
	run "$IOSWEEP" import r.fio -o r.ini
	[ "$status" -eq 0 ]
	[[ "$output" != *allow_write* ]]
	grep -q '^op = read$' r.ini || ! grep -q '^op' r.ini
}

@test 'bad input: missing file, directory, FIFO, NUL byte, non-UTF-8 bytes, no arguments' {
	cd "$TESTDIR"
	run "$IOSWEEP" import nothere.fio
	[ "$status" -eq 2 ]
	[[ "$output" == *"nothere.fio"* ]]
	run "$IOSWEEP" import .
	[ "$status" -eq 2 ]
	mkfifo fifo.fio
	run timeout 5 "$IOSWEEP" import fifo.fio
	[ "$status" -eq 2 ]
	printf '[a]\nsize=1m\0\n' >nul.fio
	run "$IOSWEEP" import nul.fio
	[ "$status" -eq 2 ]
	[[ "$output" == *"NUL byte"* ]]
	printf '[caf\xe9]\nsize=1m\ndescription=\xff\xfe\n' >latin1.fio
	run "$IOSWEEP" import latin1.fio -o latin1.ini
	[ "$status" -eq 0 ]
	"$IOSWEEP" check latin1.ini
	run "$IOSWEEP" import
	[ "$status" -eq 2 ]
	run "$IOSWEEP" import -- ls
	[ "$status" -eq 2 ]
	run "$IOSWEEP" import --frob x.fio
	[ "$status" -eq 2 ]
}

@test 'the examples in fio HOWTO translate or are refused naming their option' {
	[ -r /usr/share/doc/fio/HOWTO.rst.gz ] || skip "fio's HOWTO is not installed"
	# every ini code block of the HOWTO, one file each
	zcat /usr/share/doc/fio/HOWTO.rst.gz | awk -v dir="$TESTDIR" '
		/^\.\. code-block:: ini/ { n++; f = dir "/howto" n ".fio"; inblock = 1; next }
		inblock && /^[^ \t]/ && NF { inblock = 0 }
		inblock { sub(/^    /, ""); print > f }'
	ls "$TESTDIR"/howto*.fio
	for f in "$TESTDIR"/howto*.fio; do
		run "$IOSWEEP" import "$f"
		echo "$f: $status: ${lines[0]}"
		[ "$status" -eq 0 ] || [ "$status" -eq 2 ]
		if [ "$status" -eq 2 ]; then
			[[ "${lines[0]}" =~ ^iosweep:\ $f:[0-9]+:\ (\[|\'|[a-z_]+) ]]
		fi
	done
}

@test 'iosweep help import shows the usage' {
	run "$IOSWEEP" help import
	[ "$status" -eq 0 ]
	[[ "$output" == *"FILE.fio..."* ]]
	[[ "$output" == *"-- fio ARGS"* ]]
}

@test 'a huge fio file: 2000 jobs that differ in bs become one job with a 2000-value list' {
	cd "$TESTDIR"
	python3 -c "
print('[global]\nsize=64m\nstonewall')
for i in range(2000): print(f'[j{i}]\nbs={(i + 1) * 512}')" >many.fio
	"$IOSWEEP" import many.fio -o many.ini 2>/dev/null
	"$IOSWEEP" check many.ini
	[ "$("$IOSWEEP" plan many.ini -o json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["runs"]))')" = 2000 ]
	[ "$(awk 'length > 198' many.ini | wc -l)" -eq 0 ]
}

@test 'a value too long for an iosweep job file line is refused naming it' {
	cd "$TESTDIR"
	python3 -c "print('[d]\nsize=1m\ndescription=' + 'x' * 300)" >long.fio
	run "$IOSWEEP" import long.fio
	[ "$status" -eq 2 ]
	[[ "$output" == "iosweep: long.fio:3: description=xxx"*": job 'd': description is 300 characters long"* ]]
}

@test 'import -o on a full file system fails and leaves nothing behind' {
	[ "$(id -u)" -eq 0 ] || skip "mounting a small tmpfs needs root"
	mkdir "$TESTDIR/full"
	mount -t tmpfs -o size=8k tmpfs "$TESTDIR/full" || skip "cannot mount a tmpfs here"
	head -c 8k /dev/zero >"$TESTDIR/full/filler" 2>/dev/null || true
	run "$IOSWEEP" import "$FIO_DATA/merge.fio" -o "$TESTDIR/full/x.ini"
	ls -A "$TESTDIR/full" >"$TESTDIR/left"
	umount "$TESTDIR/full"
	echo "$output"
	[ "$status" -eq 2 ]
	[[ "$output" == *"x.ini"* ]]
	[ "$(cat "$TESTDIR/left")" = filler ]
}

@test 'jobs that differ only in the engine merge: the plan gives sync iodepth 1, the queued ones theirs' {
	cd "$TESTDIR"
	"$IOSWEEP" import "$FIO_DATA/merge-kinds.fio" -o m.ini 2>/dev/null
	grep -qx 'engine = sync, aio, uring' m.ini
	grep -qx 'op = read, write' m.ini
	"$IOSWEEP" plan m.ini -o json >plan.json
	python3 - plan.json <<'PY2'
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
got = [(r["params"]["engine"], r["params"]["iodepth"], r["params"]["op"]) for r in runs]
assert got == [("sync", 1, "read"), ("aio", 16, "read"), ("uring", 16, "read"),
               ("sync", 1, "read"), ("sync", 1, "write")], got
PY2
	# --no-merge keeps the five jobs
	"$IOSWEEP" import --no-merge "$FIO_DATA/merge-kinds.fio" -o n.ini 2>/dev/null
	[ "$(grep -c '^\[' n.ini)" -eq 6 ]   # [global] and five jobs
}

@test 'a translated write job writes only a file iosweep made, or one the user adds allow_write for' {
	cd "$TESTDIR"
	echo precious >mine.dat
	head -c 1m /dev/zero >>mine.dat
	printf '[w]\nfilename=%s/mine.dat\nsize=1m\nrw=write\noverwrite=1\n' "$TESTDIR" >w.fio
	"$IOSWEEP" import w.fio -o w.ini 2>err
	# said once on stderr and in the comments; never added
	grep -q "add 'allow_write = $TESTDIR/mine.dat' to the job" err
	grep -q "^;.*'allow_write" w.ini
	! grep -q '^allow_write' w.ini
	run "$IOSWEEP" check w.ini
	[ "$status" -eq 2 ]
	[[ "$output" == *"mine.dat was not created by iosweep"* ]]
	[ "$(head -n1 mine.dat)" = precious ]
	# the user opts in: the same job now writes it
	echo "allow_write = $TESTDIR/mine.dat" >>w.ini
	"$IOSWEEP" check w.ini
	"$IOSWEEP" run w.ini -q -o json:w.json
	[ "$(head -c 8 mine.dat | od -An -tx1 | tr -d ' ')" = "21494f5357455031" ]
	# a character device is refused outright (a block device: see below)
	printf '[d]\nfilename=/dev/null\nsize=1m\nrw=randwrite\n' >d.fio
	run "$IOSWEEP" import d.fio
	[ "$status" -eq 2 ]
	[[ "$output" == "iosweep: d.fio:2: filename=/dev/null: iosweep writes only regular files and block devices"* ]]
	# a read job of the same file needs nothing
	printf '[r]\nfilename=%s/mine.dat\nsize=1m\nrw=read\n' "$TESTDIR" >r.fio
	"$IOSWEEP" import r.fio 2>err >/dev/null
	! grep -q allow_write err
}

@test "fio does what the mixed notes say: rw=rw's reads and writes each start at 0, rwmixwrite wins when later" {
	command -v fio >/dev/null || skip "fio is not installed"
	cd "$TESTDIR"
	printf '[m]\nfilename=%s/m.dat\nsize=1m\nbs=4k\nrw=rw\nrwmixread=70\nrwmixwrite=40\n' "$TESTDIR" >m.fio
	fio --write_iolog=log.txt --output-format=json m.fio >m.json 2>/dev/null
	python3 - log.txt m.json <<'PY2'
import json, sys
# fio 3.33's iolog v3: time file action offset length
ops = [l.split() for l in open(sys.argv[1]) if len(l.split()) == 5 and l.split()[2] in ("read", "write")]
reads = [int(o[3]) for o in ops if o[2] == "read"]
writes = [int(o[3]) for o in ops if o[2] == "write"]
# one stream per direction, each from the start of the file, in order
assert reads[0] == 0 and writes[0] == 0 and reads == sorted(reads) and writes == sorted(writes)
assert len(reads) + len(writes) == 256
# the later rwmixwrite=40 wins: about 60% reads, not 70%
assert 0.5 < len(reads) / 256 < 0.68, len(reads)
j = json.load(open(sys.argv[2]))["jobs"][0]
assert j["read"]["total_ios"] == len(reads) and j["write"]["total_ios"] == len(writes)
PY2
	"$IOSWEEP" import m.fio 2>err >m.ini
	grep -qx 'rwmixread = 60' m.ini
	grep -q "fio's reads and writes each go through the file from its start" err
}

@test 'fio reaps libaio completions one per io_getevents call; the note says how to make it reap as iosweep (strace)' {
	command -v fio >/dev/null || skip "fio is not installed"
	command -v strace >/dev/null || skip "strace is not installed"
	cd "$TESTDIR"
	head -c 4m /dev/urandom >a.dat
	printf '[a]\nfilename=%s/a.dat\nsize=4m\nbs=4k\nrw=randread\nioengine=libaio\niodepth=32\nnumber_ios=512\n' \
		"$TESTDIR" >a.fio
	"$IOSWEEP" import a.fio -o a.ini 2>err
	grep -q "add iodepth_batch_complete_min=8 and iodepth_batch_complete_max=32 to the fio job" err
	calls() { awk '/io_getevents\(/ {n++} END {print n + 0}' "$1"; }
	strace -f -e trace=io_getevents -o fio.tr fio a.fio >/dev/null 2>&1
	strace -f -e trace=io_getevents -o fio2.tr fio a.fio --iodepth_batch_complete_min=8 \
		--iodepth_batch_complete_max=32 >/dev/null 2>&1
	# (LeakSanitizer cannot run under ptrace: make sanitize)
	strace -f -e trace=io_getevents -o ios.tr "$IOSWEEP" run a.ini -q -o json:a.json
	echo "fio $(calls fio.tr), fio with the options $(calls fio2.tr), iosweep $(calls ios.tr)"
	# fio's default: a call for (nearly) every read; with the options, as iosweep: a few
	[ "$(calls fio.tr)" -gt 256 ]
	[ "$(calls fio2.tr)" -lt 128 ]
	[ "$(calls ios.tr)" -lt 128 ]
	grep -q 'io_getevents([^,]*, 1, 1,' fio.tr
	grep -q 'io_getevents([^,]*, 8, 32,' fio2.tr
	grep -q 'io_getevents([^,]*, 8, 32,' ios.tr
	# said nothing when the fio job already reaps so
	printf 'iodepth_batch_complete_min=8\niodepth_batch_complete_max=32\n' >>a.fio
	"$IOSWEEP" import a.fio 2>err2 >/dev/null
	! grep -q iodepth_batch_complete err2
}

# import_bs VALUE: imports a read job of a 1 MiB file with bs=VALUE (timeout 10 s)
import_bs() {
	printf '[a]\nfilename=%s/data\nsize=1m\nbs=%s\n' "$TESTDIR" "$1" >"$TESTDIR/a.fio"
	run timeout 10 "$IOSWEEP" import "$TESTDIR/a.fio"
}

@test 'arithmetic: a power of 0, 1 or -1 is computed at once, not step by step' {
	import_bs '$pagesize*1^999999999999999999'
	[ "$status" -eq 0 ]
	[[ "$output" == *"bs = $(($(getconf PAGESIZE) / 1024))KiB"* ]]
	import_bs '$pagesize*(0-1)^999999999999999999+$pagesize*2'
	[ "$status" -eq 0 ]
	[[ "$output" == *"bs = $(($(getconf PAGESIZE) / 1024))KiB"* ]]
	import_bs '$pagesize+0^999999999999999999'
	[ "$status" -eq 0 ]
	import_bs '$pagesize*2^-1'
	[ "$status" -eq 2 ]
	[[ "$output" == *"a.fio:4: bs: "*"a negative power"* ]]
}

@test 'arithmetic: nesting deeper than 1000 is refused, not a stack overflow' {
	for atom in '(' '-' '2^'; do
		python3 -c "import sys; a = sys.argv[1]; print('[a]\nsize=1m\nbs=\$ncpus*' + a * 300000 + '1' + (')' * 300000 if a == '(' else ''))" "$atom" >"$TESTDIR/deep.fio"
		run timeout 10 "$IOSWEEP" import "$TESTDIR/deep.fio"
		echo "$atom: $status ${output:0:200}"
		[ "$status" -eq 2 ]
		[[ "$output" == *"deep.fio:3: bs: "*"nested more than 1000 deep"* ]]
	done
	# 1000 levels are fine
	import_bs "\$pagesize*$(printf '(%.0s' $(seq 999))1$(printf ')%.0s' $(seq 999))"
	[ "$status" -eq 0 ]
}

@test 'arithmetic: every operation that leaves 64 bits is refused (no signed overflow)' {
	for v in '$pagesize*0-3037000499*3037000499-3037000499*3037000499-11857049518' \
		'$pagesize*0+9223372036854775807+1' '$pagesize*0-(0-9223372036854775807-1)' \
		'$pagesize*0+(0-9223372036854775807-1)/(0-1)' '$pagesize*0+(0-9223372036854775807-1)%(0-1)' \
		'$pagesize*3037000500*3037000500' '$pagesize*0+9223372036854775808' '$pagesize*2^62'; do
		import_bs "$v"
		echo "$v: $status $output"
		[ "$status" -eq 2 ]
		[[ "$output" == *"a.fio:4: bs: "*"beyond 64 bits in fio's arithmetic"* ]]
	done
	import_bs '$pagesize*0+9223372036854775807-9223372036854775807+8192'
	[ "$status" -eq 0 ]
	[[ "$output" == *"bs = 8KiB"* ]]
}

@test 'keywords are expanded in time linear in the value (ncpus*0+ 300 000 times: minutes when quadratic)' {
	python3 -c "print('[a]\nsize=1m\nbs=' + '\$ncpus*0+' * 300000 + '4096')" >"$TESTDIR/kw.fio"
	run timeout 20 "$IOSWEEP" import "$TESTDIR/kw.fio"
	[ "$status" -eq 0 ]
	[[ "$output" == *"bs = 4KiB"* ]]
}

@test 'every section or --name starting with global is global, as in fio; a job name with white space around it is refused' {
	cd "$TESTDIR"
	printf '[globalX]\nfilename=%s/data\nrw=read\nbs=8k\nsize=1m\n[a]\n' "$TESTDIR" >g.fio
	run "$IOSWEEP" import g.fio
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\n[a]\n'* ]]
	[[ "$output" != *"[globalX]"* ]]
	[[ "$output" == *"bs = 8KiB"* ]]
	run "$IOSWEEP" import -- fio --name=global2 --bs=16k --size=1m --name=b
	[ "$status" -eq 0 ]
	[[ "$output" == *"[b]"* && "$output" == *"bs = 16KiB"* && "$output" != *"[global2]"* ]]
	printf '[ global ]\nfilename=%s/data\nsize=1m\n' "$TESTDIR" >gs.fio
	run "$IOSWEEP" import gs.fio
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: gs.fio:1: job name ' global ': white space at its start or end is part of the name for fio, not for iosweep; remove it" ]
	run "$IOSWEEP" import -- fio --size=1m '--name=a '
	[ "$status" -eq 2 ]
	[[ "$output" == *"--name=a : job name 'a ': white space"* ]]
}

@test 'fio command line: global options apply to the jobs of the job files it names, before or after them' {
	command -v fio >/dev/null || skip "fio is not installed"
	cd "$TESTDIR"
	head -c 1m /dev/zero >data
	printf '[global]\nfilename=%s/data\nrw=read\n[a]\n' "$TESTDIR" >one.fio
	for args in "--bs=8k one.fio" "one.fio --bs=8k"; do
		# what fio does: 128 reads of 8 KiB
		fio --output-format=json $args 2>/dev/null >out.json
		[ "$(json_get out.json 'd["jobs"][0]["read"]["total_ios"]')" = 128 ]
		run "$IOSWEEP" import -- fio $args
		echo "$args: $output"
		[ "$status" -eq 0 ]
		[[ "$output" == *"bs = 8KiB"* ]]
	done
	# after a --name, an option is that job's only
	run "$IOSWEEP" import -- fio --name=z --filename="$TESTDIR/data" --bs=8k one.fio
	[ "$status" -eq 0 ]
	[[ "$output" == *"bs = 8KiB, 4KiB"* ]]
	# the job file's own [global] comes after the command line's
	printf '[global]\nfilename=%s/data\nbs=16k\n[a]\n' "$TESTDIR" >two.fio
	run "$IOSWEEP" import -- fio two.fio --bs=8k
	[[ "$output" == *"bs = 16KiB"* ]]
}

@test 'a relative include is taken from the current directory first, as fio does, else next to the including file' {
	command -v fio >/dev/null || skip "fio is not installed"
	cd "$TESTDIR"
	mkdir sub
	head -c 1m /dev/zero >data
	printf 'bs=8k\n' >common.inc
	printf 'bs=16k\n' >sub/common.inc
	printf '[a]\nfilename=%s/data\nsize=1m\ninclude common.inc\n' "$TESTDIR" >sub/inc.fio
	fio --output-format=json sub/inc.fio 2>/dev/null >out.json
	[ "$(json_get out.json 'd["jobs"][0]["read"]["total_ios"]')" = 128 ]
	run "$IOSWEEP" import sub/inc.fio
	[[ "$output" == *"bs = 8KiB"* ]]
	rm common.inc
	fio --output-format=json sub/inc.fio 2>/dev/null >out.json
	[ "$(json_get out.json 'd["jobs"][0]["read"]["total_ios"]')" = 64 ]
	run "$IOSWEEP" import sub/inc.fio
	[[ "$output" == *"bs = 16KiB"* ]]
}

@test 'a NUL byte or an include of what is not a regular file is refused at its line' {
	cd "$TESTDIR"
	printf '[a]\nsize=1m\n\nx\0\n' >nul.fio
	run "$IOSWEEP" import nul.fio
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: nul.fio:4: NUL byte in a fio job file" ]
	printf '[a]\nsize=1m\ninclude /dev/zero\n' >dev.fio
	run "$IOSWEEP" import dev.fio
	[ "$status" -eq 2 ]
	[[ "$output" == "iosweep: dev.fio:3: /dev/zero"* ]]
}

@test 'bs=R,W: a write job takes the write part, a read job the read part, a mixed job of two sizes becomes a bssplit (also bsrange, bssplit, rate_iops)' {
	command -v fio >/dev/null || skip "fio is not installed"
	cd "$TESTDIR"
	# what fio does: bs=4k,8k writes 8 KiB blocks
	printf '[w]\nrw=write\nbs=4k,8k\nsize=1m\nfilename=%s/wfile\n' "$TESTDIR" >w.fio
	fio --output-format=json w.fio 2>/dev/null >out.json
	[ "$(json_get out.json 'd["jobs"][0]["write"]["total_ios"]')" = 128 ]
	run "$IOSWEEP" import w.fio
	[[ "$output" == *"bs = 8KiB"* ]]
	for spec in 'bs=,8k' 'bsrange=4k-4k,8k-8k' 'bssplit=4k/100,8k/100' 'bsrange=1k-64k,8k-8k'; do
		printf '[w]\nrw=randwrite\n%s\nsize=1m\nfilename=%s/wfile\n' "$spec" "$TESTDIR" >w.fio
		run "$IOSWEEP" import w.fio
		echo "$spec write: $output"
		[ "$status" -eq 0 ]
		[[ "$output" == *"bs = 8KiB"* ]]
	done
	for spec in 'bs=4k,8k' 'bs=4k,16k,' 'bsrange=4k-4k,8k-8k' 'bssplit=4k/100,1k/50:8k/50'; do
		printf '[r]\nrw=read\n%s\nsize=1m\nfilename=%s/wfile\n' "$spec" "$TESTDIR" >r.fio
		run "$IOSWEEP" import r.fio
		echo "$spec read: $output"
		[ "$status" -eq 0 ]
		[[ "$output" == *"bs = 4KiB"* ]]
		printf '[m]\nrw=randrw\n%s\nsize=1m\nfilename=%s/wfile\n' "$spec" "$TESTDIR" >m.fio
		run "$IOSWEEP" import m.fio
		echo "$spec mixed: $output"
		[ "$status" -eq 0 ]
		[[ "$output" == *"bssplit = 4096/100,"* ]]
	done
	# rate_iops becomes bytes with the write size in a write job
	printf '[w]\nrw=write\nbs=4k,8k\nrate=,1m\nrate_iops=,100\nsize=1m\nfilename=%s/wfile\n' "$TESTDIR" >w.fio
	run "$IOSWEEP" import w.fio
	[[ "$output" == *"rate = 1MiB"* ]]
	printf '[w]\nrw=write\nbs=4k,8k\nrate_iops=100\nsize=1m\nfilename=%s/wfile\n' "$TESTDIR" >w.fio
	run "$IOSWEEP" import w.fio
	[[ "$output" == *"rate_iops = 100"* && "$output" == *"bs = 8KiB"* ]]
}

@test 'a relative filename or directory is written as an absolute path in the current directory, with a note' {
	cd "$TESTDIR"
	mkdir sub
	printf '[r]\nfilename=data\nsize=1m\n' >sub/rel.fio
	"$IOSWEEP" import sub/rel.fio -o sub/rel.ini 2>err
	grep -qx "filename = $TESTDIR/data" sub/rel.ini
	grep -q "sub/rel.fio:2: filename=data: a relative path: fio opens it in the directory it runs in; translated as $TESTDIR/data" err
	printf '[r]\ndirectory=d\nsize=1m\n' >sub/dir.fio
	run "$IOSWEEP" import sub/dir.fio
	[[ "$output" == *"filename = $TESTDIR/d/r.0.0"* ]]
	# from a command line too, wherever -o puts the translation
	"$IOSWEEP" import -o sub/cl.ini -- fio --name=a --size=1m --filename=' data' 2>/dev/null
	grep -qx "filename = $TESTDIR/data" sub/cl.ini
}

@test 'filesize larger than size: random I/O over the whole file, size I/Os of it (count)' {
	command -v fio >/dev/null || skip "fio is not installed"
	cd "$TESTDIR"
	head -c 1m /dev/zero >data
	printf '[a]\nrw=randread\nfilename=%s/data\nfilesize=1m\nsize=256k\nbs=4k\n' "$TESTDIR" >a.fio
	fio --output-format=json --write_iolog=log.txt a.fio >/dev/null 2>&1
	# fio: 64 reads, offsets beyond 256 KiB
	[ "$(awk '$3 == "read"' log.txt | wc -l)" -eq 64 ]
	[ "$(awk '$3 == "read" && $4 >= 262144' log.txt | wc -l)" -gt 0 ]
	run "$IOSWEEP" import a.fio
	[ "$status" -eq 0 ]
	[[ "$output" == *$'size = 1MiB\n'* && "$output" == *"count = 64"* ]]
	# a partial block is one more I/O, as in fio; number_ios, when smaller, wins
	sed -i 's/^size=256k/size=10k/' a.fio
	run "$IOSWEEP" import a.fio
	[[ "$output" == *"count = 3"* ]]
	printf 'number_ios=2\n' >>a.fio
	run "$IOSWEEP" import a.fio
	[[ "$output" == *"count = 2"* ]]
}

@test 'a random mix with io_size of the region: fio and iosweep both stop once the bytes reach it; the random map noted' {
	command -v fio >/dev/null || skip "fio is not installed"
	cd "$TESTDIR"
	printf '[global]\nfilesize=1m\nrandseed=1\n[t]\nfilename=%s/m.dat\nrw=randwrite\nio_size=1m\nbssplit=4k/10:16k/10:64k/40:256k/40\n' "$TESTDIR" >m.fio
	fio --output-format=json --write_iolog=log.txt m.fio >/dev/null 2>&1
	# fio: 1 MiB exactly, its random map cutting I/Os short (sizes outside the mix)
	[ "$(awk '$3 == "write" { b += $5 } END { print b }' log.txt)" -eq 1048576 ]
	run "$IOSWEEP" import m.fio -o m.ini
	[ "$status" -eq 0 ]
	[[ "$output" == *"bssplit="*"fio's random map cuts an I/O short"* ]]
	! grep -q '^count' m.ini
	rm m.dat
	"$IOSWEEP" run m.ini --set alloc=prealloc -o json:m.json --quiet
	# iosweep: units of the drawn sizes until their bytes reach 1 MiB, the last past it
	[ "$(json_get m.json "1048576 <= d['runs'][0]['repeats'][0]['bytes'] < 1048576 + 262144")" = True ]
	# another budget than the region's is still refused
	sed -i 's/^io_size=1m/io_size=512k/' m.fio
	run "$IOSWEEP" import m.fio
	[ "$status" -eq 2 ]
	[[ "$output" == *"io_size=512k: with mixed block sizes: give the fio job number_ios"* ]]
}

@test "options of fio's profiles without profile= are noted irrelevant, as fio ignores them (threads=1, dir=, numruns=)" {
	command -v fio >/dev/null || skip "fio is not installed"
	cd "$TESTDIR"
	mkdir d
	printf '[a]\nsize=64k\nrw=write\nthreads=1\ndir=%s/d\nnumruns=3\n' "$TESTDIR" >p.fio
	fio --output-format=json p.fio >p.json 2>/dev/null
	# fio 3.33: its file in the current directory, not dir; one run
	[ -f a.0.0 ] && [ -z "$(ls d)" ]
	[ "$(json_get p.json "len(d['jobs']), d['jobs'][0]['write']['io_bytes']")" = "(1, 65536)" ]
	run "$IOSWEEP" import p.fio
	[ "$status" -eq 0 ]
	for o in threads=1 "dir=$TESTDIR/d" numruns=3; do
		[[ "$output" == *"p.fio:"*": $o: irrelevant: an option of fio's act or tiobench profile"* ]]
	done
	# with profile= it is refused: the profile is not translated
	printf 'profile=tiobench\n' >>p.fio
	run "$IOSWEEP" import p.fio
	[ "$status" -eq 2 ]
	[[ "$output" == *"profile=tiobench: iosweep import does not know this fio option"* ]]
}

@test 'values the translation cannot hold as they are (a line break, a dollar-brace, a space-semicolon) are refused, never injected' {
	cd "$TESTDIR"
	head -c 1m /dev/zero >data
	run "$IOSWEEP" import -- fio --name=a --rw=read --size=1m --filename="$TESTDIR/data" \
		--description=$'hello\nop = write\nallow_write = '"$TESTDIR/data"
	echo "$output"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"description=hello op = write"*"a line break or control character"* ]]
	run "$IOSWEEP" import -- fio --name=a --size=1m --description=$'a\rb'
	[ "$status" -eq 2 ]
	# a line break in an irrelevant option goes into no comment line either; in a
	# name (an iosweep [section] is one line) it is refused
	run "$IOSWEEP" import -- fio --name=a --size=1m --write_bw_log=$'bw\nop = write'
	[ "$status" -eq 0 ]
	[[ "$output" == *"write_bw_log=bw"*"irrelevant"* ]]
	[[ "$output" != *$'\nop = write'* ]]
	# a flag's number followed by more is refused (fio reads only the number)
	run "$IOSWEEP" import -- fio --name=a --size=1m --thread=$'1\nop = write'
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	run "$IOSWEEP" import -- fio --name=$'a\nop = write' --size=1m
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"an iosweep job name cannot hold a control character; rename the fio job" ]]
	printf '[a]\nsize=1m\ndescription=cost ${ is high\n' >d.fio
	run "$IOSWEEP" import d.fio
	[ "$status" -eq 2 ]
	[[ "$output" == "iosweep: d.fio:3: description=cost \${ is high: iosweep expands '\${'"* ]]
	FOO='${HOME}/x' run "$IOSWEEP" import -- fio --name=a --size=1m '--filename=${FOO}'
	[ "$status" -eq 2 ]
	[[ "$output" == *"iosweep expands '\${'"* ]]
	run "$IOSWEEP" import -- fio --name=a --size=1m '--description=a ;b'
	[ "$status" -eq 2 ]
	[[ "$output" == *"starts a comment"* ]]
	# many unclosed "${": refused at once
	python3 -c "print('[a]\nsize=1m\ndescription=' + '\${' * 200000)" >env.fio
	run timeout 20 "$IOSWEEP" import env.fio
	[ "$status" -eq 2 ]
}

@test 'no job (an empty file, [global] only) is refused as fio refuses it' {
	cd "$TESTDIR"
	: >empty.fio
	printf '[global]\nsize=1m\n' >global.fio
	for f in empty.fio global.fio; do
		run "$IOSWEEP" import "$f"
		[ "$status" -eq 2 ]
		[ "$output" = "iosweep: $f: no job defined (fio says \"No job(s) defined\"): every section but [global] is a job" ]
	done
	printf '[ ]\nsize=1m\n' >space.fio
	run "$IOSWEEP" import space.fio
	[ "$status" -eq 2 ]
	[[ "$output" == "iosweep: space.fio:1: "* ]]
}

@test 'a value iosweep cannot take is refused with exit 2, not an internal error' {
	import_bs '$ncpus*0+9223372036854775807'
	[ "$status" -eq 2 ]
	[[ "$output" == *"job 'a': bs = "*"iosweep cannot run that"* ]]
}

@test 'notes are said once in time linear in their number (2 jobs x 99 990 thread lines)' {
	cd "$TESTDIR"
	python3 -c "
print('[global]\nsize=1m\nstonewall')
for j in 'ab': print(f'[{j}]\n' + 'thread\n' * 99990)" >th.fio
	# 86 s when each note was compared with every earlier one; well under 1 s now
	# (the timeout only stops a quadratic run: a loaded machine or the sanitizers
	# take longer, and no test times iosweep)
	run timeout 120 "$IOSWEEP" import th.fio -o th.ini
	[ "$status" -eq 0 ]
	[ "$(grep -c 'thread: irrelevant' th.ini)" -eq 199980 ]
}

@test 'a fio job name is kept as it is or refused: a space is kept, a ] or more than 48 bytes refused' {
	cd "$TESTDIR"
	# fio's getopt takes --name NAME as --name=NAME
	"$IOSWEEP" import -- fio --name 'a b' --rw=read --size=1m >ab.ini 2>/dev/null
	grep -qx '\[a b\]' ab.ini
	"$IOSWEEP" check ab.ini
	# fio's name is all up to the last ']' of the line (fio --showcmd: --name=a]b)
	printf '[a]b]\nrw=read\nsize=1m\n' >ab.fio
	run "$IOSWEEP" import ab.fio
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: ab.fio:1: job 'a]b': an iosweep job name cannot hold ']' (it ends a [section]); rename the fio job" ]
	run "$IOSWEEP" import -- fio --name='a]b' --size=1m
	[ "$status" -eq 2 ]
	[[ "$output" == *"job 'a]b': an iosweep job name cannot hold ']'"* ]]
	n48=$(printf 'n%.0s' $(seq 48))
	run "$IOSWEEP" import -- fio --name="$n48" --size=1m
	[ "$status" -eq 0 ]
	[[ "$output" == *"[$n48]"* ]]
	run "$IOSWEEP" import -- fio --name="${n48}n" --size=1m
	[ "$status" -eq 2 ]
	[[ "$output" == *"an iosweep job name holds at most 48 bytes; give the fio job a shorter name" ]]
}

@test 'a fio job name of 15 MiB is refused in time linear in it (was quadratic: a minute)' {
	cd "$TESTDIR"
	python3 -c "print('[' + 'n' * (15 << 20) + ']\nrw=read\nsize=1m')" >long.fio
	run timeout 120 "$IOSWEEP" import long.fio
	[ "$status" -eq 2 ]
	[ "${#output}" -lt 300 ]
	[[ "$output" == *"an iosweep job name holds at most 48 bytes"* ]]
	python3 -c "print('[a]\nrw=read\nsize=1m\nname=' + 'n' * (15 << 20))" >name.fio
	run timeout 120 "$IOSWEEP" import name.fio
	[ "$status" -eq 2 ]
	[[ "$output" == *"an iosweep job name holds at most 48 bytes"* ]]
}

@test 'a literal $ in a path is refused: an iosweep job file cannot hold it' {
	cd "$TESTDIR"
	run "$IOSWEEP" import -- fio --name=r --rw=read --size=1m --filename="$TESTDIR/x\$y"
	[ "$status" -eq 2 ]
	[ "$output" = "iosweep: command line: filename=$TESTDIR/x\$y: a '\$' in a path, which an iosweep job file cannot hold as it is (it starts a \${VAR}); rename the file or directory" ]
	run "$IOSWEEP" import -- fio --name=r --rw=read --size=1m --directory="$TESTDIR/\$d"
	[ "$status" -eq 2 ]
	[[ "$output" == *"a '\$' in a path"* ]]
}

@test 'startdelay: each job its own; a range noted for a job alone, refused where it would start jobs apart' {
	cd "$TESTDIR"
	# alone, and a group whose jobs all wait as long (2 and 2000ms): each job's startdelay
	printf '[global]\nsize=1m\n[a]\nstartdelay=2\n[b]\nstonewall\nstartdelay=2000ms\n[c]\nstartdelay=2\n' >s.fio
	"$IOSWEEP" import s.fio >s.ini 2>s.err
	[ "$(grep -c '^group = fio1$' s.ini)" -eq 2 ]
	[ "$(sed -n '/^\[global\]/,/^$/p' s.ini | grep -c '^startdelay = 2s$')" -eq 1 ]
	! grep -q 'startdelay=' s.err
	# jobs that run together, waiting apart: each its own wait, after one start line
	printf '[global]\nsize=1m\n[a]\n[b]\nstartdelay=2\n[c]\nstartdelay=3\n[d]\nstonewall\nstartdelay=1\n' >g.fio
	"$IOSWEEP" import g.fio >g.ini
	[ "$(sed -n '/^\[b\]/,/^$/p' g.ini | grep -c '^startdelay = 2s$')" -eq 1 ]
	[ "$(sed -n '/^\[c\]/,/^$/p' g.ini | grep -c '^startdelay = 3s$')" -eq 1 ]
	[ -z "$(sed -n '/^\[a\]/,/^$/p' g.ini | grep '^startdelay')" ]
	[ "$(grep -c '^group = fio0$' g.ini)" -eq 3 ]
	"$IOSWEEP" plan g.ini >/dev/null
	# a range: fio draws each job's (and each numjobs clone's) own, so only a job alone takes one
	printf '[global]\nsize=1m\nstartdelay=1-5\n[a]\n[b]\n' >r.fio
	run "$IOSWEEP" import r.fio
	[ "$status" -eq 2 ]
	[[ "$output" == "iosweep: r.fio:3: startdelay=1-5: fio starts the jobs that run together here (no stonewall between them) apart by waits it draws"* ]]
	run "$IOSWEEP" import -- fio --name=a --size=1m --startdelay=1-5
	[ "$status" -eq 0 ]
	[[ "$output" == *"startdelay=1-5: translated with a difference: fio waits a time it draws from the range"* ]]
	run "$IOSWEEP" import -- fio --name=a --size=1m --startdelay=1-5 --numjobs=3
	[ "$status" -eq 2 ]
	[[ "$output" == *"startdelay=1-5: fio draws a wait from the range for each of its 3 numjobs clones"* ]]
	run "$IOSWEEP" import -- fio --name=a --size=1m --startdelay=2 --numjobs=3
	[ "$status" -eq 0 ]
	[[ "$output" == *"startdelay = 2s"* ]]
}

@test 'startdelay is left out of fio runtime: what the note says (fio itself)' {
	command -v fio >/dev/null || skip "fio is not installed"
	cd "$TESTDIR"
	fio --output-format=json --name=d --filename="$TESTDIR/d" --size=1m --rw=read --startdelay=2 >d.json
	# a 1 MiB read takes well under the 2 s fio waited first
	[ "$(json_get d.json 'd["jobs"][0]["read"]["runtime"] < 1500')" = True ]
}

@test 'buffer_pattern and dedupe_percentage: noted in a job that only reads, refused where it writes or checks' {
	cd "$TESTDIR"
	for o in buffer_pattern=0xdeadbeef dedupe_percentage=20; do
		run "$IOSWEEP" import -- fio --name=r --size=1m --"$o" --rw=randread
		[ "$status" -eq 0 ]
		[[ "$output" == *"$o: translated with a difference: this job only reads; fio lays out a missing file with this data"* ]]
		# the rw after it decides: a write job writes the pattern
		run "$IOSWEEP" import -- fio --name=w --size=1m --"$o" --rw=randread --rw=randwrite
		[ "$status" -eq 2 ]
		[[ "$output" == "iosweep: command line: $o: "* ]]
		run "$IOSWEEP" import -- fio --name=w --size=1m --"$o" --readwrite=rw
		[ "$status" -eq 2 ]
	done
	run "$IOSWEEP" import -- fio --name=v --size=1m --buffer_pattern=0xdeadbeef --verify=md5
	[ "$status" -eq 2 ]
	run "$IOSWEEP" import -- fio --name=v --size=1m --buffer_pattern=0xdeadbeef --verify_only=1 --rw=read
	[ "$status" -eq 2 ]
}

@test 'fio lays a read job missing file out with its buffer_pattern: what the note says (fio itself)' {
	command -v fio >/dev/null || skip "fio is not installed"
	cd "$TESTDIR"
	fio --name=p --filename="$TESTDIR/p" --size=64k --rw=read --buffer_pattern=0xdeadbeef >/dev/null
	[ "$(od -An -tx1 -v p | tr -d ' \n' | sed 's/deadbeef//g')" = "" ]
}

@test 'dedupe_percentage, buffer_compress_percentage and zero_buffers of 0 in a job that only reads: fio default, noted irrelevant' {
	for o in dedupe_percentage=0 buffer_compress_percentage=0 zero_buffers=0; do
		run "$IOSWEEP" import -- fio --name=r --size=1m --"$o" --rw=randread
		[ "$status" -eq 0 ]
		[[ "$output" == *"$o: irrelevant: this is fio's default, and this job only reads"* ]]
	done
	run "$IOSWEEP" import -- fio --name=r --size=1m --zero_buffers --rw=randread
	[[ "$output" == *"zero_buffers: translated with a difference: this job only reads; fio lays out a missing file with this data"* ]]
}

@test 'fio lays a read job missing file out the same with those options at 0 as without them: what the note says (fio itself)' {
	command -v fio >/dev/null || skip "fio is not installed"
	cd "$TESTDIR"
	# fio lays the file out in unique random blocks either way: none of them repeats, none compresses
	for o in "" --dedupe_percentage=0 --buffer_compress_percentage=0 --zero_buffers=0; do
		rm -f l
		fio --name=l --filename="$TESTDIR/l" --size=256k --bs=4k --rw=read $o >/dev/null
		[ "$(python3 -c 'import sys, zlib; b = open("l", "rb").read(); print(len({b[i:i + 4096] for i in range(0, len(b), 4096)}), len(zlib.compress(b)) > 0.99 * len(b))')" = "64 True" ]
	done
}

@test 'a flag of true, false, yes, no, on or off, or above 1 where fio takes 0 or 1, is refused as fio 3.33 refuses it' {
	for o in direct=true zero_buffers=Off time_based=yes; do
		run "$IOSWEEP" import -- fio --name=x --size=1m --"$o"
		[ "$status" -eq 2 ]
		[[ "$output" == "iosweep: command line: $o: fio 3.33 fails parsing it and drops the job; write "[01] ]]
	done
	# fio's 0-or-1 flags refuse a larger number; the others take it as on
	for o in direct=2 unlink=5 fadvise_hint=2; do
		run "$IOSWEEP" import -- fio --name=x --size=1m --"$o"
		[ "$status" -eq 2 ]
		[ "$output" = "iosweep: command line: $o: fio 3.33 fails parsing it and drops the job: this flag is 0 or 1" ]
	done
	run "$IOSWEEP" import -- fio --name=x --size=1m --direct=0x1 --time_based=2 --runtime=1
	[ "$status" -eq 0 ]
	[[ "$output" == *"cache = direct"* ]]
	[[ "$output" == *"time_based = 1"* ]]
	command -v fio >/dev/null || skip "fio is not installed"
	for o in direct=true zero_buffers=Off time_based=yes direct=2 unlink=5 fadvise_hint=2; do
		run fio --parse-only --name=x --size=1m --"$o"
		[ "$status" -ne 0 ]
		[[ "$output" == *"failed parsing $o"* ]]
	done
	fio --parse-only --name=x --size=1m --direct=0x1 --time_based=2 --runtime=1
}

@test 'an option fio takes only with a value is refused bare or empty, and a left-out flag that fio fails parsing is refused too' {
	for o in direct end_fsync gtod_reduce rw verify; do
		run "$IOSWEEP" import -- fio --name=x --size=1m --"$o"
		[ "$status" -eq 2 ]
		[[ "$output" == "iosweep: command line: $o: fio 3.33 runs no job that has it without a value; "* ]]
	done
	[[ "$output" == *"; give it a value" ]]
	run "$IOSWEEP" import -- fio --name=x --size=1m --direct
	[[ "$output" == *"; write direct=1" ]]
	# or empty (fio expands an unset variable to nothing)
	for o in direct= description= thread=; do
		run "$IOSWEEP" import -- fio --name=x --size=1m --"$o"
		[ "$status" -eq 2 ]
		[[ "$output" == "iosweep: command line: $o: fio 3.33 runs no job that has it empty; "* ]]
	done
	run env -u NOPE "$IOSWEEP" import -- fio --name=x --size=1m --'verify=${NOPE}'
	[ "$output" = "iosweep: command line: verify=: environment variable NOPE is not set (fio expands it to nothing)" ]
	# flags fio sets by their name, and options it takes bare (an empty value)
	run "$IOSWEEP" import -- fio --name=x --size=1m --thread --group_reporting --norandommap --write_bw_log --write_lat_log=
	[ "$status" -eq 0 ]
	# a pattern: fio 3.33 crashes on it bare (SIGSEGV)
	run "$IOSWEEP" import -- fio --name=x --size=1m --verify_pattern
	[ "$status" -eq 2 ]
	# what fio does not use is still read as fio reads it
	for o in thread=true exitall=yes new_group=on; do
		run "$IOSWEEP" import -- fio --name=x --size=1m --"$o"
		[ "$status" -eq 2 ]
		[[ "$output" == "iosweep: command line: $o: fio 3.33 fails parsing it and drops the job; write 1" ]]
	done
	run "$IOSWEEP" import -- fio --name=x --size=1m --stats=2
	[ "$output" = "iosweep: command line: stats=2: fio 3.33 fails parsing it and drops the job: this flag is 0 or 1" ]
	run "$IOSWEEP" import -- fio --name=x --size=1m --thread=2 --stats=0 --gtod_reduce=1
	[ "$status" -eq 0 ]
	[[ "$output" == *"thread=2: irrelevant"* ]]
}

# fio 3.33 fails parsing a job of these options, with the engine that has them
# (an engine's options are a "Bad option" with the others), or none has them
fio_fails() {
	local e f
	for e in io_uring libaio psync; do
		printf '[x]\nsize=4k\nioengine=%s\n' $e >f.fio
		printf '%s\n' "$@" >>f.fio
		f=$(fio --parse-only f.fio 2>&1) && return 1
		[[ "$f" == *"Bad option"* ]] || return 0
	done
}

# fio 3.33 takes every one of these options (in one job per engine: fio parses
# a job it takes slowly, one it fails fast); echoes each one it fails parsing,
# with fio's first line about it
fio_takes() {
	local e f w x rc left=("$@") next=() keep gone
	for e in io_uring libaio psync; do
		while [ "${#left[@]}" -gt 0 ]; do
			printf '[x]\nsize=4k\nioengine=%s\n' $e >t.fio
			printf '%s\n' "${left[@]}" >>t.fio
			f=$(fio --parse-only t.fio 2>&1) && break || rc=$?
			# the option fio stopped at: tried with the next engine, or said
			w=$(printf '%s\n' "$f" | sed -n 's/^Bad option <\(.*\)>$/\1/p; s/^fio: failed parsing \(.*\)$/\1/p' | head -1)
			keep=() gone=()
			for x in "${left[@]}"; do
				[ "$x" = "$w" ] || [ "${x%%=*}" = "$w" ] && gone+=("$x") || keep+=("$x")
			done
			if [ "${#gone[@]}" -eq 0 ]; then
				echo "fio exits $rc: ${f%%$'\n'*}"
				break
			fi
			[[ "$f" == "Bad option <$w>"* ]] && next+=("${gone[@]}") || echo "$w: ${f%%$'\n'*}"
			left=("${keep[@]}")
		done
		left=("${next[@]}") next=()
	done
}

@test 'every fio option the import knows is refused bare, empty and above 1 exactly where fio 3.33 fails parsing it (fio itself)' {
	command -v fio >/dev/null || skip "fio is not installed"
	cd "$TESTDIR"
	"$IOSWEEP" options | sed -n '/^fio option /,/^$/p' | awk 'NR > 1 && NF { print $1 }' >words
	[ "$(wc -l <words)" -gt 200 ]
	bad="" bare=() two=() empty=()
	while read -r w; do
		printf '[x]\nsize=4k\n%s=\n' "$w" >b.fio
		"$IOSWEEP" import b.fio >/dev/null 2>&1 && empty+=("$w=")
		printf '[x]\nsize=4k\n%s\n' "$w" >b.fio
		if ! [[ "$("$IOSWEEP" import b.fio 2>&1)" == *"runs no job that has it without a value"* ]]; then
			bare+=("$w")
			continue
		fi
		fio_fails "$w" || bad+=" $w(fio takes it bare)"
		printf '[x]\nsize=4k\n%s=2\n' "$w" >b.fio
		if i=$("$IOSWEEP" import b.fio 2>&1); then
			two+=("$w=2")
		elif [[ "$i" == *"this flag is 0 or 1"* ]]; then
			fio_fails "$w=2" || bad+=" $w=2(fio takes it)"
		fi
	done <words
	[ "${#bare[@]}" -gt 20 ] && [ "${#two[@]}" -gt 50 ] && [ "${#empty[@]}" -gt 5 ]
	bad+=$(fio_takes "${bare[@]}" | sed 's/^/ bare: /' | tr '\n' ' ')
	bad+=$(fio_takes "${empty[@]}" | tr '\n' ' ')
	# a value out of fio's choices the import notes unread (clocksource=2);
	# a number above a 0-or-1 flag's 1 it refuses
	bad+=$(fio_takes "${two[@]}" | grep "max value out of range" | tr '\n' ' ')
	echo "$bad"
	[ -z "$bad" ]
}

@test 'io_submit_mode: inline is nothing to translate; offload refused' {
	run "$IOSWEEP" import -- fio --name=i --size=1m --io_submit_mode=inline
	[ "$status" -eq 0 ]
	[[ "$output" != *"io_submit_mode=inline:"* ]]
	run "$IOSWEEP" import -- fio --name=i --size=1m --io_submit_mode=offload
	[ "$status" -eq 2 ]
	[[ "$output" == "iosweep: command line: io_submit_mode=offload: fio hands every I/O to a pool of its helper threads"* ]]
	run "$IOSWEEP" import -- fio --name=i --size=1m --io_submit_mode=Inline
	[ "$status" -eq 2 ]
	[[ "$output" == *"fio refuses it too: its io_submit_mode is inline or offload" ]]
}

@test 'sqthread_poll_cpu: nothing without sqthread_poll, not supported with it, refused without io_uring' {
	run "$IOSWEEP" import -- fio --name=u --size=1m --ioengine=io_uring --sqthread_poll_cpu=1
	[ "$status" -eq 0 ]
	[[ "$output" == *"sqthread_poll_cpu=1: irrelevant: fio pins its SQ polling thread only with sqthread_poll=1"* ]]
	[[ "$output" != *"sqthread_poll ="* ]]
	run "$IOSWEEP" import -- fio --name=u --size=1m --ioengine=io_uring --sqthread_poll_cpu=1 --sqthread_poll=1
	[ "$status" -eq 0 ]
	[[ "$output" == *"sqthread_poll_cpu=1: not supported: fio pins its SQ polling thread to this CPU"* ]]
	[[ "$output" == *"sqthread_poll = 1"* ]]
	run "$IOSWEEP" import -- fio --name=u --size=1m --sqthread_poll_cpu=1
	[ "$status" -eq 2 ]
	[[ "$output" == *'sqthread_poll_cpu=1: fio refuses it too ("Bad option"): an option of ioengine=io_uring' ]]
}

@test 'an option fio does not know is refused as fio refuses it, with the option fio suggests' {
	cd "$TESTDIR"
	for o in direcotry=/tmp io_engine=psync rw_sequencr=1 frobnicate=1 FLOW=1 zzzzzzzzzzzz=1; do
		printf '[a]\nsize=1m\n%s\n' "$o" >u.fio
		run "$IOSWEEP" import u.fio
		[ "$status" -eq 2 ]
		[[ "$output" == "iosweep: u.fio:3: $o: fio 3.33 refuses it too (\"Bad option\"): "* ]]
		if command -v fio >/dev/null; then
			# the same suggestion as fio's own, or none where fio makes none
			want=$(fio --parse-only u.fio 2>&1 | sed -n 's/^Did you mean \(.*\)?$/\1/p')
			echo "$o: fio: '$want'; iosweep: $output"
			if [ -n "$want" ]; then
				[[ "$output" == *": did you mean $want?" ]]
			else
				[[ "$output" == *": remove it" ]]
			fi
		fi
	done
	# known to fio (an option of an engine, or one the import has no row for): not fio's refusal
	run "$IOSWEEP" import -- fio --name=a --size=1m --flow=1
	[ "$status" -eq 2 ]
	[[ "$output" == *"flow=1: iosweep import does not know this fio option"* ]]
}

@test 'disable_bw (fio alias of disable_bw_measurement) and exit_what are noted, not refused' {
	run "$IOSWEEP" import -- fio --name=a --size=1m --disable_bw=1 --exit_what=all
	[ "$status" -eq 0 ]
	[[ "$output" == *"disable_bw=1: irrelevant: changes how fio reports, not what it measures"* ]]
	[[ "$output" == *"exit_what=all: irrelevant: which jobs fio's exitall ends"* ]]
}

# fio_tree_json OUT FIO ARGS...: fio's JSON of a job, read only (fio 3.33
# writes "fio: opendir added N files" into the output file before the JSON)
fio_tree_json() {
	local out=$1
	shift
	fio "$@" --readonly --output-format=json --output="$out.raw" >/dev/null
	sed -n '/^{/,$p' "$out.raw" >"$out"
}

@test 'opendir: the translation reads the files and bytes fio reads (roundrobin and sequential), skipping what fio skips' {
	command -v fio >/dev/null || skip "fio is not installed"
	cd "$TESTDIR"
	mkdir -p tree/sub/deeper
	head -c 8192 /dev/urandom >tree/a
	head -c 4096 /dev/urandom >tree/sub/b
	head -c 12288 /dev/urandom >tree/sub/deeper/c
	head -c 20480 /dev/urandom >tree/d
	ln -s a tree/link        # neither follows a symlink
	mkfifo tree/fifo         # nor opens a FIFO
	for svc in '' sequential; do
		printf '[t]\nopendir=tree\nrw=read\nbs=4k\n%s\n' "${svc:+file_service_type=$svc}" >t.fio
		"$IOSWEEP" import t.fio -o t.ini 2>err
		grep -qx "opendir = $TESTDIR/tree" t.ini
		grep -qx 'file_service_type = sequential' t.ini
		grep -qx 'bs = 4KiB' t.ini
		grep -q "t.fio:2: opendir=tree: translated with a difference: the same files; " err
		if [ -z "$svc" ]; then
			grep -q "file_service_type=roundrobin (its default) opens every file" err
		else
			run grep -c roundrobin err
			[ "$output" = 0 ]
		fi
		"$IOSWEEP" run t.ini --quiet -o json:t.json
		fio_tree_json f.json t.fio
		# fio: 11 reads of 4 KiB over 4 files; iosweep: the same 45 056 bytes, one read a file
		[ "$(json_get f.json 'd["jobs"][0]["read"]["io_bytes"]')" = 45056 ]
		[ "$(json_get f.json 'd["jobs"][0]["read"]["total_ios"]')" = 11 ]
		grep -qx 'fio: opendir added 4 files' f.json.raw
		[ "$(json_get t.json 'd["runs"][0]["repeats"][0]["read_bytes"]')" = 45056 ]
		[ "$(json_get t.json 'd["runs"][0]["repeats"][0]["reads"]')" = 4 ]
	done
}

@test 'opendir: fio reads only whole blocks of bs of each file, iosweep every byte, as the note says (fio itself)' {
	command -v fio >/dev/null || skip "fio is not installed"
	cd "$TESTDIR"
	mkdir tree
	head -c 10000 /dev/urandom >tree/a   # 2 blocks and 1808 bytes
	head -c 100 /dev/urandom >tree/b     # shorter than bs: fio reads none of it
	printf '[t]\nopendir=tree\nrw=read\nbs=4k\nfile_service_type=sequential\n' >t.fio
	"$IOSWEEP" import t.fio -o t.ini 2>err
	grep -q "fio reads only each file's whole blocks of bs (none of a file shorter than bs), iosweep each file to its end" err
	fio_tree_json f.json t.fio
	[ "$(json_get f.json 'd["jobs"][0]["read"]["io_bytes"]')" = 8192 ]
	"$IOSWEEP" run t.ini --quiet -o json:t.json
	[ "$(json_get t.json 'd["runs"][0]["repeats"][0]["read_bytes"]')" = 10100 ]
}

@test 'opendir: what fio does otherwise is refused, one line each, all at once' {
	cd "$TESTDIR"
	mkdir tree
	local n=0
	for o in rw=randread rw=write rw=read:4k numjobs=2 size=8k io_size=8k number_ios=2 \
		offset=4k filename=/etc/hostname nrfiles=2 file_service_type=random \
		ioengine=libaio bssplit=4k/50:8k/50 rate_iops=10 thinktime=10 verify=md5; do
		printf '[j%d]\nopendir=tree\nrw=read\nbs=4k\n%s\n' $((n += 1)) "$o"
	done >refused.fio
	run "$IOSWEEP" import refused.fio -o out.ini
	echo "$output"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 16 ]
	[ ! -e out.ini ]
	[ "${lines[0]}" = "iosweep: refused.fio:5: rw=randread: fio reads each file's blocks at random offsets; iosweep's opendir reads every file whole in order: rw=read" ]
	[ "${lines[1]}" = "iosweep: refused.fio:10: rw=write: with opendir fio writes into the tree's files; iosweep's opendir only reads them: rw=read" ]
	[[ "${lines[2]}" == "iosweep: refused.fio:15: rw=read:4k: fio skips bytes between reads"* ]]
	[ "${lines[3]}" = "iosweep: refused.fio:20: numjobs=2: fio's 2 clones each read every file of the tree; iosweep's threads share the files: numjobs=1 (then set threads yourself)" ]
	[[ "${lines[4]}" == "iosweep: refused.fio:25: size=8k: fio stops after this much of the tree; "* ]]
	[[ "${lines[5]}" == "iosweep: refused.fio:30: io_size=8k: fio stops after this much of the tree; "* ]]
	[[ "${lines[6]}" == "iosweep: refused.fio:35: number_ios=2: fio stops after this much of the tree; "* ]]
	[[ "${lines[7]}" == "iosweep: refused.fio:40: offset=4k: fio starts reading each file there; "* ]]
	[[ "${lines[8]}" == "iosweep: refused.fio:45: filename=/etc/hostname: with opendir fio reads this file too; "* ]]
	[[ "${lines[9]}" == "iosweep: refused.fio:50: nrfiles=2: fio then reads at most that many of the tree's files; "* ]]
	[[ "${lines[10]}" == "iosweep: refused.fio:55: file_service_type=random: fio draws a file at random for each read of bs; "* ]]
	[ "${lines[11]}" = "iosweep: refused.fio:60: ioengine=libaio: iosweep's opendir reads with sync or psync2 only: ioengine=psync or pvsync2" ]
	[[ "${lines[12]}" == "iosweep: refused.fio:65: bssplit=4k/50:8k/50: a mix of block sizes: "* ]]
	[[ "${lines[13]}" == "iosweep: refused.fio:70: rate_iops=10: iosweep's opendir counts, times and paces whole files, fio each read of bs: remove it" ]]
	[[ "${lines[14]}" == "iosweep: refused.fio:75: thinktime=10: iosweep's opendir counts, times and paces whole files"* ]]
	[[ "${lines[15]}" == "iosweep: refused.fio:80: verify=md5: verify checks blocks fio wrote; "* ]]
}

@test 'opendir: fio numjobs clones each read the whole tree, which is why numjobs is refused (fio itself)' {
	command -v fio >/dev/null || skip "fio is not installed"
	cd "$TESTDIR"
	mkdir tree
	head -c 8192 /dev/urandom >tree/a
	head -c 4096 /dev/urandom >tree/b
	fio_tree_json f.json --name=t --opendir=tree --rw=read --bs=4k --numjobs=2
	[ "$(json_get f.json '[j["read"]["io_bytes"] for j in d["jobs"]]')" = "[12288, 12288]" ]
}

@test 'opendir: psync2, direct and loops keep their translation' {
	cd "$TESTDIR"
	mkdir tree
	head -c 8192 /dev/urandom >tree/a
	"$IOSWEEP" import -o t.ini -- fio --name=t --opendir="$TESTDIR/tree" --rw=read --bs=4k \
		--ioengine=pvsync2 --direct=1 --loops=3 --directory=/nonexistent 2>err
	grep -qx 'engine = psync2' t.ini
	grep -qx 'cache = direct' t.ini
	grep -qx 'repeat = 3' t.ini
	grep -q 'directory=/nonexistent: irrelevant: with opendir and no filename fio reads only the tree' err
	"$IOSWEEP" plan t.ini >/dev/null
}

@test 'filecreate, filestat, filedelete: a tree phase each, on as many files as fio makes (fio itself), compared with fio' {
	command -v fio >/dev/null || skip "fio is not installed"
	cd "$TESTDIR"
	mkdir d
	printf '[global]\nfilesize=4k\ndirectory=%s/d\nnrfiles=20\nopenfiles=1\n[create]\nioengine=filecreate\nnumjobs=2\n[stat]\nstonewall\nioengine=filestat\nstat_type=stat\n[del]\nstonewall\nioengine=filedelete\n' "$TESTDIR" >m.fio
	"$IOSWEEP" import m.fio -o m.ini 2>err
	cat m.ini
	# one directory of every clone's files, fio's clones as threads; filecreate writes nothing
	grep -qx 'tree = 1x40' m.ini
	grep -qx 'threads = 2' m.ini
	grep -qx 'filesize = 0' m.ini
	grep -qx 'op = create' m.ini
	# filestat and filedelete differ only in op: one job, two phases
	grep -qx 'tree = 1x20' m.ini
	grep -qx 'op = stat, unlink' m.ini
	grep -qx 'filesize = 4KiB' m.ini
	grep -q "m.fio:7: ioengine=filecreate: translated with a difference: the same creates of 40 files in one directory; fio opens each file O_RDWR|O_CREAT and closes it, writing nothing" err
	grep -q "m.fio:2: filesize=4k: irrelevant: fio's filecreate writes nothing" err
	grep -q "m.fio:12: stat_type=stat: irrelevant" err
	# fio: 40 files made, of 0 bytes; 20 laid out and stat'ed; 20 laid out and removed
	fio --output-format=json --output=f.json m.fio >/dev/null
	[ "$(json_get f.json '[(j["jobname"], j["read"]["total_ios"]) for j in d["jobs"]]')" = "[('create', 20), ('create', 20), ('stat', 20), ('del', 20)]" ]
	[ "$(find d -name 'create.*' -size 0 | wc -l)" -eq 40 ]
	[ "$(find d -name 'stat.*' -size 4k | wc -l)" -eq 20 ]
	[ "$(find d -name 'del.*' | wc -l)" -eq 0 ]
	"$IOSWEEP" run m.ini --quiet -o json:m.json
	[ "$(json_get m.json '[(r["phase"]["op"], r["phase"]["items"], r["params"]["threads"]) for r in d["runs"]]')" = "[('create', 40, 2), ('stat', 20, 1), ('unlink', 20, 1)]" ]
	# iosweep's trees are gone; fio's files are left as fio left them
	[ "$(ls d | wc -l)" -eq 60 ]
	run "$IOSWEEP" compare f.json m.json
	[ "$status" -eq 0 ]
	[[ "$output" == *"stat op=unlink"* ]]
}

@test 'dircreate, dirstat, dirdelete: a mkdir, statdir and rmdir phase on as many directories as fio makes' {
	cd "$TESTDIR"
	mkdir d
	printf '[global]\nfilesize=4k\ndirectory=%s/d\nnrfiles=20\n[mk]\nioengine=dircreate\nnumjobs=2\n[st]\nstonewall\nioengine=dirstat\n[rm]\nstonewall\nioengine=dirdelete\n' "$TESTDIR" >m.fio
	"$IOSWEEP" import m.fio -o m.ini 2>err
	# fio's clones make nrfiles directories each, all in directory
	grep -qx 'tree = 40x1' m.ini
	grep -qx 'op = mkdir' m.ini
	grep -qx 'threads = 2' m.ini
	grep -qx 'tree = 20x1' m.ini
	grep -qx 'filesize = 0' m.ini
	grep -q "m.fio:6: ioengine=dircreate: translated with a difference: the same mkdir of 40 directories in one directory (from fio's source: fio 3.33 has no dircreate); fio leaves the directories it makes" err
	# jobs that differ in the engine only: one job, its phases a list
	grep -qx 'op = statdir, rmdir' m.ini
	grep -q "m.fio:10: ioengine=dirstat: translated with a difference: the same statdir of 20 directories in one directory (from fio's source: fio 3.33 has no dirstat); fio makes the directories first (empty)" err
	grep -q "m.fio:13: ioengine=dirdelete: translated with a difference: the same rmdir of 20 directories" err
	grep -q "m.fio:2: filesize=4k: irrelevant: fio's directory engines write nothing" err
	"$IOSWEEP" run m.ini --quiet -o json:m.json
	[ "$(json_get m.json '[(r["phase"]["op"], r["phase"]["items"], r["phase"]["items_are"], r["params"]["threads"]) for r in d["runs"]]')" = "[('mkdir', 40, 'directories', 2), ('statdir', 20, 'directories', 1), ('rmdir', 20, 'directories', 1)]" ]
	[ -z "$(ls d)" ]
}

@test 'a file engine: what a tree phase does not do is refused, one line each' {
	cd "$TESTDIR"
	local n=0
	for o in filename=/etc/hostname runtime=10 time_based=1 io_size=8k number_ios=2 \
		rate_iops=10 thinktime=10 verify=md5 timeout=5; do
		printf '[j%d]\nioengine=filestat\nnumjobs=2\nfilesize=4k\n%s\n' $((n += 1)) "$o"
	done >refused.fio
	run "$IOSWEEP" import refused.fio -o out.ini
	echo "$output"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 9 ]
	[ ! -e out.ini ]
	[[ "$output" == *"refused.fio:45: timeout=5: fio runs its filestat for a time"* ]]
	[[ "$output" == *"refused.fio:5: filename=/etc/hostname: fio's filestat then works on these files; iosweep's tree names its own files: leave filename out"* ]]
	[[ "$output" == *"refused.fio:10: runtime=10: fio runs its filestat for a time; a tree's phase is one pass over its files: remove it"* ]]
	[[ "$output" == *"refused.fio:15: time_based=1: fio runs its filestat for a time"* ]]
	[[ "$output" == *"refused.fio:20: io_size=8k: fio does only part of the files' calls"* ]]
	[[ "$output" == *"refused.fio:25: number_ios=2: fio does only part of the files' calls"* ]]
	[[ "$output" == *"refused.fio:30: rate_iops=10: a tree's phases run as fast as they can: remove it"* ]]
	[[ "$output" == *"refused.fio:35: thinktime=10: a tree's phases run as fast as they can: remove it"* ]]
	[[ "$output" == *"refused.fio:40: verify=md5: fio's file engines write no data to check: remove it"* ]]
}

@test 'a file engine on one named file or directory: a tree of one in its directory, noted; the jobs fio runs together each on its own tree' {
	command -v strace >/dev/null || skip "strace is not installed"
	cd "$TESTDIR"
	mkdir d
	printf '[global]\nsize=4k\n[c]\nioengine=filecreate\nfilename=%s/d/c1\n[s]\nioengine=filestat\nfilename=d/s1\n[m]\nioengine=dirstat\nfilename=d/m1\n' "$TESTDIR" >n.fio
	run "$IOSWEEP" import n.fio -o n.ini
	[ "$status" -eq 0 ]
	[[ "$output" == *"n.fio:5: filename=$TESTDIR/d/c1: translated with a difference: fio's filecreate works on this one file, named so; iosweep's tree of one is made in its directory, $TESTDIR/d "* ]]
	[[ "$output" == *"n.fio:11: filename=d/m1: translated with a difference: fio's dirstat works on this one directory"* ]]
	[ "$(grep -c "^directory = $TESTDIR/d\$" n.ini)" = 1 ]
	grep -qx 'tree = 1x1' n.ini
	strace -f -e trace=openat,newfstatat,mkdirat -o tr "$IOSWEEP" run n.ini -q -o json:n.json
	[ "$(json_get n.json '[(r["job"], r["phase"]["op"], r["phase"]["items"], r["group"]["jobs"]) for r in d["runs"]]')" = "[('c', 'create', 1, 3), ('s', 'stat', 1, 3), ('m', 'statdir', 1, 3)]" ]
	# each job in a tree of its own, all three made and removed
	for j in c s m; do grep -q "mkdirat([0-9]*, \"$j.iosweep-tree\"" tr; done
	[ "$(grep -c 'openat([0-9]*, "d0/f0", O_WRONLY|O_CREAT|O_EXCL' tr)" = 2 ]
	[ "$(grep -c 'newfstatat([0-9]*, "d0/f0"' tr)" = 1 ]
	[ "$(grep -c 'newfstatat([0-9]*, "d0", ' tr)" = 1 ]
	[ -z "$(ls d)" ]
	printf '[l]\nioengine=filestat\nfilename=a:b\n' >l.fio
	run "$IOSWEEP" import l.fio
	[ "$status" -eq 2 ]
	[[ "$output" == *"l.fio:3: filename=a:b: fio reads several files in one job"* ]]
}

@test "timeout is fio's other name for runtime: it imports as runtime, and fio reads it so" {
	cd "$TESTDIR"
	head -c 1m /dev/urandom >f
	printf '[t]\nfilename=%s/f\nrw=read\ntime_based=1\ntimeout=2s\n' "$TESTDIR" >t.fio
	"$IOSWEEP" import t.fio -o t.ini
	grep -qx 'runtime *= *2s' t.ini
	grep -qx 'time_based *= *1' t.ini
	# fio itself: the same two seconds
	command -v fio >/dev/null || skip "fio is not installed"
	fio --output-format=json --output=t.json t.fio >/dev/null
	[ "$(json_get t.json 'd["jobs"][0]["job_runtime"] // 1000')" = 2 ]
}

@test "a refused setting of [global] is said once, not once for every job that inherits it" {
	cd "$TESTDIR"
	printf '[global]\nrw=read\nsize=1m\nflow=2\n[a]\n[b]\n[c]\nzonemode=zbd\n' >g.fio
	run "$IOSWEEP" import g.fio -o g.ini
	[ "$status" -eq 2 ]
	[ ! -e g.ini ]
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[0]}" == *"g.fio:4: flow=2: "* ]]
	[[ "${lines[1]}" == *"g.fio:8: zonemode=zbd: "* ]]
}

@test "log options of fios later than 3.33 are noted irrelevant, as 3.33's are" {
	cd "$TESTDIR"
	printf '[j]\nrw=read\nsize=1m\nlog_issue_time=1\nlog_window_value=both\n' >l.fio
	"$IOSWEEP" import l.fio -o l.ini 2>err
	grep -q "l.fio:4: log_issue_time=1: irrelevant: what the logs of a fio later than 3.33 record; changes how fio reports, not what it measures" err
	grep -q "l.fio:5: log_window_value=both: irrelevant: what the logs of a fio later than 3.33 record" err
	"$IOSWEEP" plan l.ini >/dev/null
}

@test "fio's other names for its options read as the options, and its log options are noted irrelevant" {
	cd "$TESTDIR"
	printf '[a]\nrw=read\nsize=1m\nnr_files=4\n[b]\nstonewall\nrw=read\nsize=1m\nfileoffset=256k\nrate=2m\nratemin=1m\nratecycle=500\n' >n.fio
	printf '[c]\nstonewall\nrw=read\nsize=1m\nlog_entries=2048\nlog_hist_coarseness=2\nlog_max_value=1\nlog_unix_epoch=1\nlog_compression=1m\nlog_store_compressed=0\nbwavgtime=100\niopsavgtime=100\nblock_error_percentiles=1\n' >>n.fio
	if command -v fio >/dev/null; then fio --parse-only n.fio; fi
	"$IOSWEEP" import n.fio -o n.ini 2>err
	grep -qx 'nrfiles = 4' n.ini
	grep -qx 'offset = 256KiB' n.ini
	grep -q "n.fio:11: ratemin=1m: not supported: fio ends a job that falls below this rate" err
	grep -q "n.fio:12: ratecycle=500: not supported: the window of fio's rate_min" err
	[ "$(grep -c ': irrelevant: changes how fio reports, not what it measures' err)" -eq 9 ]
	"$IOSWEEP" plan n.ini >/dev/null
}

@test 'fio reads these as it runs them, and so does the import: a header without ], a mix of no writes, nrfiles beside one filename, holes going round in time' {
	cd "$TESTDIR"
	# fio names a section by its header less the last character, ']' or not
	printf '[global]\nsize=1m\n[bs=64K\nbs=64k\n[x]\n' >h.fio
	"$IOSWEEP" import h.fio -o h.ini 2>/dev/null
	grep -qx '\[bs=64\]' h.ini
	run "$IOSWEEP" import -- fio --name=a --size=1m --rw=randrw --rwmixread=100 --buffer_pattern=0xaa
	[ "$status" -eq 0 ]
	[[ "$output" == *"rw=randrw: translated: with rwmixread=100 (or rwmixwrite=0) fio only reads: a read job"* ]]
	[[ "$output" == *"buffer_pattern=0xaa: translated with a difference: this job only reads"* ]]
	[[ "$output" != *"op = readwrite"* && "$output" != *"allow_write"* ]]
	run "$IOSWEEP" import -- fio --name=a --size=1m --rw=randrw --rwmixwrite=0
	[[ "$output" == *"fio only reads: a read job"* ]]
	[[ "$output" == *"rwmixwrite=0: translated: it leaves fio's mix no writes, a read job (see rw)"* ]]
	# fio lowers nrfiles to the files filename names (checked against fio 3.33:
	# filename=tf nrfiles=3 filesize=1m reads 1 MiB of tf and makes no other file)
	run "$IOSWEEP" import -- fio --name=a --filename="$TESTDIR/tf" --nrfiles=3 --filesize=1m --rw=randread
	[ "$status" -eq 0 ]
	[[ "$output" == *"nrfiles=3: irrelevant: fio reads only the file filename names"* ]]
	[[ "$output" != *"nrfiles ="* ]]
	[[ "$output" == *"size = 1MiB"* ]]
	# holes that go round the region: refused for a pass, the same as fio's in time
	run "$IOSWEEP" import -- fio --name=a --size=1m --bs=4k --rw=read:8k
	[ "$status" -eq 2 ]
	run "$IOSWEEP" import -- fio --name=a --size=1m --bs=4k --rw=read:8k --time_based --runtime=1
	[ "$status" -eq 0 ]
	[[ "$output" == *"spacing = 12KiB"* && "$output" == *"time_based = 1"* ]]
}

@test 'holes going round the region in time: fio 3.33 wraps at the region end, as the import says' {
	command -v fio >/dev/null || skip "fio is not installed"
	cd "$TESTDIR"
	head -c 1m /dev/urandom >f
	fio --name=j --filename=f --size=1m --bs=4k --rw=read:8k --time_based --runtime=100ms \
		--write_iolog=log.txt --output=/dev/null
	# every 86 reads (blocks 0, 3, ..., 255: one pass), back to block 0
	awk '$3 == "read" { print $4 / 4096 }' log.txt | head -400 >offs
	[ "$(awk 'NR > 1 && $1 < prev { print NR - 1 } { prev = $1 }' offs | head -4 | tr '\n' ' ')" = "86 172 258 344 " ]
}
