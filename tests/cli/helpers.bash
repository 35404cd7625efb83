# Shared by the bats files: the binary, a scratch directory on a real disk
# (not tmpfs, so that the page cache can be evicted) and small helpers.
IOSWEEP=${IOSWEEP:-$BATS_TEST_DIRNAME/../../build/iosweep}
HELPERS=${IOSWEEP_HELPERS:-$BATS_TEST_DIRNAME/../../build/tests}

setup() {
	TESTDIR=$(mktemp -d "${IOSWEEP_TEST_DIR:-/var/tmp}/iosweep-bats.XXXXXX")
	export IOSWEEP_DIR=$TESTDIR
}

teardown() {
	rm -rf "$TESTDIR" ${SHM:+"$SHM"}
}

# strace ARGS...: strace, with LeakSanitizer off in what it traces (make sanitize):
# LSan stops the threads with ptrace at exit, which a traced process cannot do.
# --seccomp-bpf: the traced processes stop at the calls traced only, not at every
# call (with -f or -ff; strace falls back to stopping at every call where it cannot)
strace() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" command strace --seccomp-bpf "$@"
}

# use_tmpfs: SHM, a new directory on tmpfs (/dev/shm, removed by teardown), or skip
use_tmpfs() {
	[ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] || skip "no tmpfs at /dev/shm"
	SHM=$(mktemp -d /dev/shm/iosweep-bats.XXXXXX)
}

# for_nobody FILE SIZE JOB TEXT: FILE, SIZE random bytes owned by root, and job JOB,
# both readable by user nobody (skip when not root or without setpriv)
for_nobody() {
	command -v setpriv >/dev/null && [ "$(id -u)" -eq 0 ] || skip "needs root and setpriv"
	chmod 755 "$TESTDIR"
	head -c "$2" /dev/urandom >"$1"
	job "$3" "$4"
	chmod 644 "$1" "$TESTDIR/$3.ini"
}

# as_nobody COMMAND...: runs COMMAND as user nobody
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}

# job NAME TEXT: writes $TESTDIR/NAME.ini
job() {
	printf '%b' "$2" >"$TESTDIR/$1.ini"
}

# json_get FILE EXPR: evaluates a Python expression on the parsed document `d`
json_get() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# refsum FILE PATTERN SIZE BS SPACING COUNT SEED: the independent checksum
refsum() {
	python3 "$BATS_TEST_DIRNAME/offsets.py" "$2" "$3" "$4" "$5" "$6" "$7" | "$HELPERS/refsum" "$1"
}

# wait_for COMMAND...: polls COMMAND for up to 10 s
wait_for() {
	for _ in $(seq 200); do
		"$@" 2>/dev/null && return 0
		sleep 0.05
	done
	echo "timed out waiting for: $*"
	return 1
}

# creating FILE: a temporary file of FILE exists and is not empty
creating() {
	local tmp
	tmp=$(ls "$1".iosweep-tmp.* 2>/dev/null | head -n1)
	[ -n "$tmp" ] && [ -s "$tmp" ]
}

# json_runs FILE N: FILE is valid JSON with N runs
json_runs() {
	[ "$(json_get "$1" 'len(d["runs"])')" = "$2" ]
}

# stop_with SIGNAL PID: sends SIGNAL to PID (a child of this shell) and waits for it: it exits
# with 128 + the signal's number, as iosweep does when a signal ends a run
stop_with() {
	local rc=0 want=$((128 + $(kill -l "$1")))
	kill -"$1" "$2"
	wait "$2" || rc=$?
	[ "$rc" -eq "$want" ] || { echo "exit $rc after SIG$1, not $want"; return 1; }
}

# interrupt_second_run SIGNAL [RUN ARGS...]: runs a job of two runs (a quick one, then one that
# would read for a minute) with JSON and CSV outputs, sends SIGNAL once the first run is in the
# JSON, and checks what every interruption must leave: exit 128 + the signal's number, valid
# JSON and CSV with the
# first run whole and the second marked interrupted.  Its output is in $TESTDIR/out.
interrupt_second_run() {
	local sig=$1 pid
	shift
	head -c 4m /dev/urandom >"$TESTDIR/f"
	job i "[global]\nfilename = $TESTDIR/f\nrepeat = 1\n[quick]\n[slow]\npattern = random\ncount = 1000000000\nruntime = 60s\nbs = 512\n"
	"$IOSWEEP" run "$TESTDIR/i.ini" -o json:"$TESTDIR/i.json" -o csv:"$TESTDIR/i.csv" "$@" \
		>"$TESTDIR/out" 2>&1 &
	pid=$!
	wait_for json_runs "$TESTDIR/i.json" 1
	sleep 0.3
	stop_with "$sig" $pid
	python3 -m json.tool "$TESTDIR/i.json" >/dev/null
	[ "$(json_get "$TESTDIR/i.json" 'd["interrupted"]')" = True ]
	[ "$(json_get "$TESTDIR/i.json" 'd["stopped_by"]')" = "SIG$sig" ]
	[ "$(json_get "$TESTDIR/i.json" 'd["complete"]')" = False ]
	[ "$(json_get "$TESTDIR/i.json" 'd["runs"][0]["repeats"][0]["interrupted"]')" = False ]
	[ "$(json_get "$TESTDIR/i.json" 'd["runs"][1]["repeats"][0]["interrupted"]')" = True ]
	[ "$(json_get "$TESTDIR/i.json" 'd["runs"][1]["repeats"][0]["reads"] > 0')" = True ]
	python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1]))); assert len(r) == 3, r; assert r[2][-1] == "true"' "$TESTDIR/i.csv"
}

# needs_nobody: skips unless this is root with setpriv, which tests use to act as the user
# nobody; lets nobody into $TESTDIR
needs_nobody() {
	[ "$(id -u)" = 0 ] || skip "needs root (to act as the user nobody)"
	command -v setpriv >/dev/null || skip "setpriv (util-linux) is missing"
	chmod 755 "$TESTDIR"
}

# file_state FILE: what FILE holds (its sha256), or that it does not exist
file_state() {
	if [ -e "$1" ]; then
		sha256sum <"$1"
	else
		echo absent
	fi
}

# refused CMD JOB TEXT [FILE...]: `iosweep CMD $TESTDIR/JOB.ini` is refused: exit 2 and one
# message, a line that contains TEXT, and each FILE as it was before (the same bytes, or still
# absent).  Its output is in $output.  Under a timeout, so that a refusal that would wait (on a
# FIFO, say) fails instead of hanging.
refused() {
	local cmd=$1 ini=$TESTDIR/$2.ini text=$3 f i
	local -a before=()
	shift 3
	for f in "$@"; do
		before+=("$(file_state "$f")")
	done
	run timeout 20 "$IOSWEEP" "$cmd" "$ini"
	if [ "$status" -ne 2 ] || [ "${#lines[@]}" -ne 1 ] || [[ "$output" != *"$text"* ]]; then
		printf 'iosweep %s %s: exit %s (2 wanted), and one line with "%s" wanted; output:\n%s\n' \
			"$cmd" "$ini" "$status" "$text" "$output"
		return 1
	fi
	i=0
	for f in "$@"; do
		[ "$(file_state "$f")" = "${before[i]}" ] || {
			echo "iosweep $cmd $ini was refused but changed $f"
			return 1
		}
		i=$((i + 1))
	done
}

# table_rows N: the table on stdin has N rows under its header, each one
# line beginning with its run's index (a row with a cell too many or too few
# wraps into the next: `cached  0  a ...`)
table_rows() {
	awk -v n="$1" '/^#/ { h = 1; next }
		h && /^[0-9]/ { if ($1 != k) exit 1; k++; next }
		h { exit }
		END { exit k != n }'
}
