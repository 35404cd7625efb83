# Shared by the bats files: the binary, a scratch directory on a real disk
# (not tmpfs, so that the page cache can be evicted) and small helpers.
IOSWEEP=${IOSWEEP:-$BATS_TEST_DIRNAME/../../build/iosweep}
HELPERS=${IOSWEEP_HELPERS:-$BATS_TEST_DIRNAME/../../build/tests}

setup() {
	TESTDIR=$(mktemp -d "${IOSWEEP_TEST_DIR:-/var/tmp}/iosweep-bats.XXXXXX")
	export IOSWEEP_DIR=$TESTDIR
}

teardown() {
	rm -rf "$TESTDIR"
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
