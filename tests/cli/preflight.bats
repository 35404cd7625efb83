#!/usr/bin/env bats
# `check` is the preflight: whatever `run` would refuse before its first
# I/O, `check` refuses too, with the same FILE:LINE message, and neither
# leaves anything behind.

load helpers

# both TEXT: check, plan and run refuse $TESTDIR/j.ini alike (exit 2, one line
# containing TEXT), and no file appears in $TESTDIR
both() {
	local before cmd
	before=$(ls -A "$TESTDIR")
	for cmd in check plan run; do
		run timeout 10 "$IOSWEEP" $cmd "$TESTDIR/j.ini"
		echo "$cmd: $output"
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ "$output" == "iosweep: $TESTDIR/j.ini:"*"$1"* ]]
	done
	[ "$(ls -A "$TESTDIR")" = "$before" ]
}

@test "a test file whose directory does not exist" {
	job j "[a]\nfilename = $TESTDIR/none/f.dat\nsize = 1m\n"
	both "2: cannot create $TESTDIR/none/f.dat: directory $TESTDIR/none: No such file or directory"
}

@test "a test file in a directory the user cannot write" {
	needs_nobody
	mkdir -m 755 "$TESTDIR/ro"
	job j "[a]\nfilename = $TESTDIR/ro/f.dat\nsize = 1m\n"
	for cmd in check run; do
		run setpriv --reuid=65534 --regid=65534 --clear-groups "$IOSWEEP" $cmd "$TESTDIR/j.ini"
		[ "$status" -eq 2 ]
		[ "$output" = "iosweep: $TESTDIR/j.ini:2: cannot create $TESTDIR/ro/f.dat in $TESTDIR/ro: Permission denied" ]
	done
}

@test "a quoted filename" {
	job j "[a]\nfilename = \"$TESTDIR/f.dat\"\nsize = 1m\n"
	both "2: filename \"$TESTDIR/f.dat\" is quoted: write it without quotes"
	job j "[a]\nfilename = '$TESTDIR/f.dat'\nsize = 1m\n"
	both "2: filename '$TESTDIR/f.dat' is quoted"
}

@test "\$HOME and ~ that no shell expanded, with the spelling that works" {
	job j '[a]\nfilename = $HOME/f.dat\nsize = 1m\n'
	both "2: filename '\$HOME/f.dat' has a '\$' that is not expanded: write \${VAR} (\${HOME}/x, not \$HOME/x)"
	job j '[a]\nfilename = ~nobody/f.dat\nsize = 1m\n'
	both "2: filename '~nobody/f.dat' starts with '~', which is not expanded: write \${HOME}/f.dat"
	# what works
	job k "[a]\nfilename = \${IOSWEEP_T}/f.dat\nsize = 1m\n"
	IOSWEEP_T=$TESTDIR "$IOSWEEP" check "$TESTDIR/k.ini"
}

@test "a filename with a trailing slash" {
	job j "[a]\nfilename = $TESTDIR/f.dat/\nsize = 1m\n"
	both "2: filename '$TESTDIR/f.dat/' ends with '/': the test file is a file, not a directory"
}

@test "a dangling symbolic link is refused before any temporary file is written" {
	ln -s "$TESTDIR/target.dat" "$TESTDIR/link.dat"
	job j "[a]\nfilename = $TESTDIR/link.dat\nsize = 64m\n"
	both "2: $TESTDIR/link.dat is a symbolic link to a file that does not exist: iosweep does not create files through symbolic links"
}

@test "cache=drop without root" {
	needs_nobody
	head -c 1m /dev/zero >"$TESTDIR/f.dat"
	job j "[a]\nfilename = $TESTDIR/f.dat\ncache = fadvise, drop\n"
	for cmd in check run; do
		run setpriv --reuid=65534 --regid=65534 --clear-groups "$IOSWEEP" $cmd "$TESTDIR/j.ini"
		[ "$status" -eq 2 ]
		[[ "$output" == "iosweep: $TESTDIR/j.ini:3: cache=drop needs root to write /proc/sys/vm/drop_caches (Permission denied); use cache=fadvise"* ]]
	done
}

@test "buffers that cannot fit in memory are refused with the figure and what to lower" {
	# 64 threads x 4096 reads in flight x 1 GiB: 281 TB, more than any machine here
	job j "[a]\nsize = 64g\nengine = aio\niodepth = 4096\nbs = 1g\nthreads = 64\n"
	both "5: job 'a' needs 281 TB of memory, more than the "
	[[ "$output" == *" available ("*"); most of it, 281 TB, for buffers (threads 64 x iodepth 4096 x bs 1GiB): lower threads, iodepth or bs" ]]
}

@test "cache=direct alignment is that of the device the file will be created on" {
	[ "$(id -u)" = 0 ] || skip "needs root for a loop device"
	command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null || skip "losetup or mkfs.ext4 missing"
	truncate -s 16m "$TESTDIR/disk.img"
	dev=$(losetup --find --show --sector-size 4096 "$TESTDIR/disk.img" 2>/dev/null) || skip "no loop device here"
	mkfs.ext4 -q -b 4096 "$dev" && mkdir "$TESTDIR/mnt" && mount "$dev" "$TESTDIR/mnt" || {
		losetup -d "$dev"
		skip "cannot make or mount a file system on $dev"
	}
	job j "[a]\nfilename = $TESTDIR/mnt/f.dat\nsize = 1m\ncache = direct\nbs = 512\nrepeat = 1\n"
	run "$IOSWEEP" check "$TESTDIR/j.ini"
	first=$output
	job k "[a]\nfilename = $TESTDIR/mnt/f.dat\nsize = 1m\ncache = direct\nbs = 4k\nrepeat = 1\n"
	"$IOSWEEP" run "$TESTDIR/k.ini" -o json:"$TESTDIR/k.json" && ran=yes || ran=no
	umount "$TESTDIR/mnt"
	losetup -d "$dev"
	[ "$first" = "iosweep: $TESTDIR/j.ini:5: cache=direct needs bs and spacing to be multiples of the device's logical block size (4096): bs=512 spacing=512 (job 'a')" ]
	[ "$ran" = yes ]
}
