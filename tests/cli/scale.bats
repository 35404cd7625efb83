#!/usr/bin/env bats
# Scale: what iosweep does per run costs the same at the thousandth run as at
# the first.  Small here (a few thousand runs, no timings); the 10 000- and
# 100 000-run figures are in make bench (bench/RESULTS.md).
# make check: runs beside another file

load helpers

# many N FILE [SEED]: a made-up result file of N runs
many() {
	python3 "$BATS_TEST_DIRNAME/many_runs.py" "$@"
}

# sweep FILE GLOBALS NBS NSPACING SPACING-UNIT: a job of NBS block sizes (512
# bytes apart) x NSPACING spacings (SPACING-UNIT apart), the lists wrapped
sweep() {
	python3 - "$@" <<'PY'
import sys
path, head, nbs, nsp, unit = sys.argv[1:]
wrap = lambda v: ",\n    ".join(", ".join(v[i:i + 10]) for i in range(0, len(v), 10))
open(path, "w").write(
    head.replace("\\n", "\n") + "\n[sweep]\n"
    f"bs = {wrap([str(512 * (i + 1)) for i in range(int(nbs))])}\n"
    f"spacing = {wrap([f'{int(unit[:-1]) * (i + 1)}{unit[-1]}' for i in range(int(nsp))])}\n")
PY
}

@test "compare matches every run of two 3000-run files, whatever their order" {
	many 3000 "$TESTDIR/a.json" 1
	many 3000 "$TESTDIR/b.json" 2
	# the same runs, in another order and with their parameters in another order
	python3 - "$TESTDIR/b.json" <<'PY'
import json, random, sys
d = json.load(open(sys.argv[1]))
random.Random(3).shuffle(d["runs"])
for r in d["runs"]:
    r["params"] = dict(reversed(list(r["params"].items())))
json.dump(d, open(sys.argv[1], "w"))
PY
	"$IOSWEEP" compare "$TESTDIR/a.json" "$TESTDIR/b.json" -o json >"$TESTDIR/c.json"
	python3 - "$TESTDIR/a.json" "$TESTDIR/b.json" "$TESTDIR/c.json" <<'PY'
import json, sys
a, b, c = (json.load(open(p)) for p in sys.argv[1:])
assert len(c["runs"]) == 3000 and not c["only_in_old"] and not c["only_in_new"]
# each pair is the run of the same parameters: its old median is a's
key = lambda r: (r["params"]["bs"], r["params"]["spacing"], r["params"]["engine"])
old = {key(r): sorted(x["time_to_end_s"] for x in r["repeats"])[1] for r in a["runs"]}
new = {key(r): sorted(x["time_to_end_s"] for x in r["repeats"])[1] for r in b["runs"]}
for p in c["runs"]:
    k = key(p)
    f = p["figures"]["time_to_end_s"]
    assert abs(f["old"]["median"] / old[k] - 1) < 1e-8 and abs(f["new"]["median"] / new[k] - 1) < 1e-8, p
PY
}

@test "compare pairs runs that are only in one file, and repeated runs, in order" {
	many 2000 "$TESTDIR/a.json" 1
	python3 - "$TESTDIR/a.json" "$TESTDIR/b.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
runs = d["runs"]
d["runs"] = runs[500:] + [runs[600]]   # 500 runs dropped, one repeated
json.dump(d, open(sys.argv[2], "w"))
PY
	"$IOSWEEP" compare "$TESTDIR/a.json" "$TESTDIR/b.json" -o json >"$TESTDIR/c.json"
	[ "$(json_get "$TESTDIR/c.json" 'len(d["runs"])')" = 1500 ]
	[ "$(json_get "$TESTDIR/c.json" 'len(d["only_in_old"])')" = 500 ]
	[ "$(json_get "$TESTDIR/c.json" 'len(d["only_in_new"])')" = 1 ]
}

@test "plot of a 3000-run file draws one series per engine and spacing" {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed (apt-get install gnuplot-nox)"
	many 3000 "$TESTDIR/a.json" 1
	run "$IOSWEEP" plot "$TESTDIR/a.json" -o "$TESTDIR/a.svg" --x bs
	[ "$status" -eq 0 ]
	# 3000 runs = 100 bs x 8 spacings x 4 engines, less the last 200: 32 series at most
	[ -s "$TESTDIR/a.svg" ]
}

@test "plan -o json of 10 000 runs is valid JSON, one run per line" {
	sweep "$TESTDIR/p.ini" "[global]\\nfilename = $TESTDIR/absent.dat\\nsize = 1g" 100 100 1m
	"$IOSWEEP" plan "$TESTDIR/p.ini" -o json >"$TESTDIR/p.json"
	[ "$(json_get "$TESTDIR/p.json" 'len(d["runs"]), d["total"]["runs"]')" = "(10000, 10000)" ]
	[ "$(grep -c '"job":' "$TESTDIR/p.json")" -eq 10000 ]
}

@test "a 2000-run sweep keeps its JSON valid, rewriting it at most about once a second" {
	command -v strace >/dev/null || skip "strace is not installed"
	head -c 1m /dev/urandom >"$TESTDIR/f"
	sweep "$TESTDIR/s.ini" "[global]\\nfilename = $TESTDIR/f\\nrepeat = 1\\ncache = keep" 40 50 64k
	start=$SECONDS
	# LeakSanitizer cannot run under ptrace (make sanitize)
	strace -f -e trace=rename -o "$TESTDIR/trace" \
		"$IOSWEEP" run "$TESTDIR/s.ini" -q -o json:"$TESTDIR/s.json"
	seconds=$((SECONDS - start))
	renames=$(grep -c 's.json.tmp' "$TESTDIR/trace")
	echo "$renames rewrites in $seconds s"
	# the first, one at most per second after it, and the last
	[ "$renames" -le $((seconds + 3)) ]
	[ "$(json_get "$TESTDIR/s.json" 'len(d["runs"]), d["complete"]')" = "(2000, True)" ]
}

# fat N FILE: a result file of N runs shaped like what `run -o json` writes (summaries and
# all, about 18 KB a run, indented), made from a real 4-run result by varying size
fat() {
	head -c 1m /dev/urandom >"$TESTDIR/f"
	job r "[global]\nfilename = $TESTDIR/f\nrepeat = 3\n[seq]\nbs = 4k, 16k\nengine = sync, mmap\n"
	[ -e "$TESTDIR/real.json" ] || "$IOSWEEP" run "$TESTDIR/r.ini" -q -o json:"$TESTDIR/real.json"
	python3 - "$TESTDIR/real.json" "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
runs = d["runs"]
d["runs"] = []
for i in range(int(sys.argv[2])):
    r = json.loads(json.dumps(runs[i % len(runs)]))
    r["index"], r["params"]["size"] = i, (i // len(runs) + 1) << 20
    d["runs"].append(r)
json.dump(d, open(sys.argv[3], "w"), indent=2)
PY
}

@test "compare holds a few hundred bytes a run, not the files: two 3.7 MB files within 24 MB, CSV and JSON" {
	grep -q __asan_init "$IOSWEEP" && skip "the sanitizers reserve terabytes of address space"
	fat 200 "$TESTDIR/a.json"
	cp "$TESTDIR/a.json" "$TESTDIR/b.json"
	[ "$(stat -c %s "$TESTDIR/a.json")" -gt 3000000 ]
	# the whole jansson tree of one such file takes more than 24 MB
	(ulimit -v 24000; "$IOSWEEP" compare "$TESTDIR/a.json" "$TESTDIR/b.json" -o csv >"$TESTDIR/c.csv")
	[ "$(grep -c '^seq,' "$TESTDIR/c.csv")" -eq 800 ]
	# the JSON of the comparison is written a run at a time, too
	(ulimit -v 24000; "$IOSWEEP" compare "$TESTDIR/a.json" "$TESTDIR/b.json" -o json >"$TESTDIR/c.json")
	[ "$(json_get "$TESTDIR/c.json" 'len(d["runs"]), len(d["only_in_old"]), d["geomean"]["iops"]["n"]')" = "(200, 0, 200)" ]
}

# peak_kib CMD...: the peak RSS of CMD in KiB (its output to /dev/null)
peak_kib() {
	python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
}

@test "compare's memory grows by at most 2.5 KiB a matched run (4000 to 16000 runs)" {
	grep -q __asan_init "$IOSWEEP" && skip "the sanitizers' shadow memory is counted in RSS"
	# a pair keeps each figure's two sides as shown (median, interval, n), not
	# whole summaries: 2.75 KiB a run with those (275 MiB for 100 000 runs)
	for n in 4000 16000; do
		many $n "$TESTDIR/a$n.json" 1
		many $n "$TESTDIR/b$n.json" 2
	done
	small=$(peak_kib "$IOSWEEP" compare "$TESTDIR/a4000.json" "$TESTDIR/b4000.json" -o csv)
	big=$(peak_kib "$IOSWEEP" compare "$TESTDIR/a16000.json" "$TESTDIR/b16000.json" -o csv)
	echo "peak RSS: $small KiB, $big KiB"
	[ $(((big - small) * 10)) -le $((12000 * 25)) ]
}

@test "runs longer than the reader's 1 MiB pieces, runs before the head and any spacing read the same" {
	many 3000 "$TESTDIR/a.json" 1
	many 3000 "$TESTDIR/b.json" 2
	python3 - "$TESTDIR/a.json" "$TESTDIR/odd.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["runs"][1500]["description"] = "x" * (3 << 20)   # one run of 3 MiB
odd = {"runs": d.pop("runs")}
odd.update(d)
json.dump(odd, open(sys.argv[2], "w"), separators=(",", ":"))
PY
	"$IOSWEEP" compare "$TESTDIR/a.json" "$TESTDIR/b.json" -o csv >"$TESTDIR/ab.csv"
	"$IOSWEEP" compare "$TESTDIR/odd.json" "$TESTDIR/b.json" -o csv >"$TESTDIR/ob.csv"
	[ "$(wc -l <"$TESTDIR/ab.csv")" -eq 12005 ]
	cmp "$TESTDIR/ab.csv" "$TESTDIR/ob.csv"
}

@test "a file cut inside a run past the first MiB is refused with the line where it ends" {
	many 3000 "$TESTDIR/a.json" 1
	head -c 2000017 "$TESTDIR/a.json" >"$TESTDIR/cut.json"
	last=$(($(tr -cd '\n' <"$TESTDIR/cut.json" | wc -c) + 1))
	run "$IOSWEEP" compare "$TESTDIR/cut.json" "$TESTDIR/a.json"
	[ "$status" -eq 2 ]
	[[ "$output" == "iosweep: $TESTDIR/cut.json: not JSON (line $last: "*"near end of file)" ]]
}

@test "a 2000-run sweep writes its JSON one run a line, in constant memory (40 MB of address space)" {
	grep -q __asan_init "$IOSWEEP" && skip "the sanitizers reserve terabytes of address space"
	head -c 1m /dev/urandom >"$TESTDIR/f"
	sweep "$TESTDIR/s.ini" "[global]\\nfilename = $TESTDIR/f\\nrepeat = 1\\ncache = keep" 40 50 64k
	# the text of 2000 runs held in memory took more than 60 MB
	(ulimit -v 40000; "$IOSWEEP" run "$TESTDIR/s.ini" -q -o json:"$TESTDIR/s.json")
	[ "$(json_get "$TESTDIR/s.json" 'len(d["runs"]), d["complete"]')" = "(2000, True)" ]
	[ "$(grep -c '^    {"job": "sweep", "index": ' "$TESTDIR/s.json")" -eq 2000 ]
	# nothing left beside it (the spool of the runs' text is an unlinked file)
	[ "$(ls -A "$TESTDIR" | grep -c 'tmp\|iosweep')" -eq 0 ]
}

# jobs_on_files FILE N EXTRA: N jobs, each on a file of its own with a long name in one
# directory ($TESTDIR/d), then the text EXTRA
jobs_on_files() {
	python3 - "$@" <<'PY'
import os, sys
path, n, extra = sys.argv[1], int(sys.argv[2]), sys.argv[3]
d = os.path.join(os.path.dirname(path), "d")
with open(path, "w") as f:
    f.write("[global]\nsize = 4k\nrepeat = 1\n")
    for i in range(n):
        f.write(f"[j{i}]\nfilename = {d}/one-of-many-test-files-with-a-long-name-{i:06d}.dat\n")
    f.write(extra.replace("\\n", "\n"))
PY
}

@test "check and plan of 100 000 jobs (the most a file may have) on files of one directory, one named twice" {
	mkdir "$TESTDIR/d"
	# 99 999 files, and a last job that reads the first job's file (names that differ
	# in their last characters only: tests/unit/test_names.c tells them apart)
	jobs_on_files "$TESTDIR/m.ini" 99999 "[again]\\nfilename = $TESTDIR/d/one-of-many-test-files-with-a-long-name-000000.dat\\n"
	run "$IOSWEEP" check "$TESTDIR/m.ini"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[ "$("$IOSWEEP" plan "$TESTDIR/m.ini" | grep "^total:")" = "total: 100000 runs, 100000 reads, 409600000 bytes (391MiB) over all measured repeats" ]
}
