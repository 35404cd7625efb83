#!/usr/bin/env bats
# iosweep gate: a run judged slower only when the Mann-Whitney U test and the
# threshold both say so (exit 1), noise passes (exit 0), too few repeats or an
# interrupted repeat is its own verdict (exit 3); results from other hosts, a
# result given twice and a result of a newer schema are refused (exit 2).
# make check: runs beside another file

load helpers

# result FILE KERNEL JOB TIME... : a result file (schema 1) of run JOB (bs 4k),
# one repeat per TIME (time to end, s; "iTIME" marks the repeat interrupted),
# on host "ci" with that kernel
result() {
	/usr/bin/python3 - "$@" <<'PY'
import json, sys
path, kernel, job, times = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
reps = []
for t in times:
    cut = t.startswith("i")
    s = float(t.lstrip("i"))
    reps.append({"time_to_end_s": s, "bytes": 1048576, "reads": 256,
                 "throughput_Bps": 1048576 / s, "iops": 256 / s,
                 "lat_ns": {"p50": 1000, "p99": 2000}, "interrupted": cut})
doc = {"iosweep": {"version": "0.1.0", "schema": 1}, "started": "2026-01-01T00:00:00Z",
       "host": {"hostname": "ci", "machine": "x86_64", "kernel": kernel, "cpu_model": "cpu",
                "filesystem": {"type": "ext4"}, "device": {"model": "disk"}},
       "job_file": {"path": "hand.ini", "text": ""}, "overrides": [],
       "runs": [{"job": job, "index": 0,
                 "params": {"filename": "/x", "size": 1048576, "bs": 4096, "engine": "sync",
                            "repeat": len(times), "warmup": 0},
                 "repeats": reps}]}
json.dump(doc, open(path, "w"))
PY
}

OLD5="1.00 1.01 0.99 1.02 0.98"

@test "a real slowdown of 20% over 5+5 repeats fails the gate: exit 1, p of the exact test" {
	result "$TESTDIR/old.json" L1 a $OLD5
	result "$TESTDIR/new.json" L1 a 1.20 1.21 1.19 1.22 1.18
	run "$IOSWEEP" gate "$TESTDIR/new.json" --against "$TESTDIR/old.json" --max-slowdown 5%
	[ "$status" -eq 1 ]
	# two-sided exact p of 5 against 5 fully apart, computed independently: 2/C(10,5)
	p=$(/usr/bin/python3 -c 'from scipy.stats import mannwhitneyu as m; print("%.3g" % m([1.00,1.01,0.99,1.02,0.98],[1.20,1.21,1.19,1.22,1.18],method="exact").pvalue)')
	[ "$p" = 0.00794 ]
	echo "$output" | grep -qxF "| a | time to end | 1.00 s ± 2% (n=5) | 1.20 s ± 2% (n=5) | +20.00% | $p | **slower** |"
	echo "$output" | grep -qF '**slower**: 1 of 1 runs slower by more than 5%'
}

@test "noise passes: interleaved repeats are no change, exit 0" {
	result "$TESTDIR/old.json" L1 a $OLD5
	result "$TESTDIR/new.json" L1 a 1.005 0.995 1.015 0.985 1.00
	run "$IOSWEEP" gate "$TESTDIR/new.json" --against "$TESTDIR/old.json"
	[ "$status" -eq 0 ]
	echo "$output" | grep -qE '^\| a \| time to end \| .* \| no change \|$'
	echo "$output" | grep -qF '**pass**: 0 of 1 runs slower'
}

@test "a significant slowdown under the threshold passes as within threshold" {
	result "$TESTDIR/old.json" L1 a $OLD5
	result "$TESTDIR/new.json" L1 a 1.03 1.04 1.03 1.05 1.035
	run "$IOSWEEP" gate "$TESTDIR/new.json" --against "$TESTDIR/old.json" --max-slowdown 5
	[ "$status" -eq 0 ]
	echo "$output" | grep -qE '\| \+3\.50% \| 0\.00794 \| within threshold \|$'
	run "$IOSWEEP" gate "$TESTDIR/new.json" --against "$TESTDIR/old.json" --max-slowdown 3%
	[ "$status" -eq 1 ]
}

@test "2 repeats can never be significant: inconclusive, exit 3, or 0 with --allow-inconclusive" {
	result "$TESTDIR/old.json" L1 a 1.0 1.01
	result "$TESTDIR/new.json" L1 a 2.0 2.01
	run "$IOSWEEP" gate "$TESTDIR/new.json" --against "$TESTDIR/old.json"
	[ "$status" -eq 3 ]
	echo "$output" | grep -qE '\| \+99\.50% \| 0\.333 \| inconclusive \|$'
	echo "$output" | grep -qx 'inconclusive: too few repeats for any change to be significant at alpha=0.05; use repeat >= 4'
	run "$IOSWEEP" gate "$TESTDIR/new.json" --against "$TESTDIR/old.json" --allow-inconclusive
	[ "$status" -eq 0 ]
}

@test "slower follows the figure's direction: throughput down is slower, up is faster" {
	result "$TESTDIR/old.json" L1 a $OLD5
	result "$TESTDIR/new.json" L1 a 1.20 1.21 1.19 1.22 1.18
	run "$IOSWEEP" gate "$TESTDIR/new.json" --against "$TESTDIR/old.json" --figure throughput_Bps
	[ "$status" -eq 1 ]
	echo "$output" | grep -qE '^\| a \| throughput \| .* \| -16\.67% \| 0\.00794 \| \*\*slower\*\* \|$'
	run "$IOSWEEP" gate "$TESTDIR/old.json" --against "$TESTDIR/new.json" --figure throughput_Bps
	[ "$status" -eq 0 ]
	echo "$output" | grep -qE '\| \+20\.00% \| 0\.00794 \| faster \|$'
	run "$IOSWEEP" gate "$TESTDIR/new.json" --against "$TESTDIR/old.json" --figure bytes
	[ "$status" -eq 2 ]
	[[ "$output" == *"--figure bytes: neither better higher nor lower"* ]]
}

@test "a run with an interrupted repeat is not judged as if complete: interrupted, exit 3" {
	result "$TESTDIR/old.json" L1 a $OLD5
	result "$TESTDIR/new.json" L1 a 1.20 1.21 1.19 1.22 1.18 i0.5
	run "$IOSWEEP" gate "$TESTDIR/new.json" --against "$TESTDIR/old.json"
	[ "$status" -eq 3 ]
	echo "$output" | grep -qE '\(n=5\) \| \+20\.00% \| 0\.00794 \| interrupted \|$'
}

@test "results from different hosts are refused, naming the difference, unless --any-host" {
	result "$TESTDIR/old.json" "Linux 6.1" a $OLD5
	result "$TESTDIR/new.json" "Linux 6.2" a $OLD5
	run "$IOSWEEP" gate "$TESTDIR/new.json" --against "$TESTDIR/old.json"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"are from different hosts: kernel 'Linux 6.1' and 'Linux 6.2' (--any-host"* ]]
	run "$IOSWEEP" gate "$TESTDIR/new.json" --against "$TESTDIR/old.json" --any-host
	[ "$status" -eq 0 ]
}

@test "a result given twice (or a copy of it), a newer schema, bad flags: exit 2" {
	result "$TESTDIR/old.json" L1 a $OLD5
	cp "$TESTDIR/old.json" "$TESTDIR/copy.json"
	run "$IOSWEEP" gate "$TESTDIR/old.json" --against "$TESTDIR/copy.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *"are the same result (given twice"* ]]
	sed 's/"schema": 1/"schema": 2/' "$TESTDIR/old.json" >"$TESTDIR/newer.json"
	run "$IOSWEEP" gate "$TESTDIR/newer.json" --against "$TESTDIR/old.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *"newer.json: schema 2, but iosweep"* ]]
	run "$IOSWEEP" gate "$TESTDIR/old.json"
	[ "$status" -eq 2 ]
	run "$IOSWEEP" gate "$TESTDIR/old.json" --against "$TESTDIR/copy.json" --history 3
	[ "$status" -eq 2 ]
	for bad in -1% abc 5%% nan; do
		run "$IOSWEEP" gate "$TESTDIR/old.json" --against "$TESTDIR/copy.json" --max-slowdown "$bad"
		[ "$status" -eq 2 ]
		[[ "$output" == *"--max-slowdown '$bad': expected a percentage"* ]]
	done
}

@test "--history pools the last N results of the same host, leaving out other hosts and itself" {
	export IOSWEEP_HISTORY=$TESTDIR/h.db
	for i in 1 2 3; do
		result "$TESTDIR/old$i.json" L1 a 1.00 1.01 0.99 1.02 0.9$i
	done
	result "$TESTDIR/other.json" L2 a 5 5 5 5 5
	result "$TESTDIR/new.json" L1 a 1.20 1.21 1.19 1.22 1.18
	"$IOSWEEP" history add "$TESTDIR"/old?.json "$TESTDIR/other.json" "$TESTDIR/new.json"
	run "$IOSWEEP" gate "$TESTDIR/new.json" --history 2
	[ "$status" -eq 1 ]
	# the last two results of host L1 (old2, old3): 10 repeats, median 1.00 s
	echo "$output" | grep -qE '^\| a \| time to end \| 1\.00 s ± [0-9]+% \(n=10\) \| 1\.20 s ± 2% \(n=5\) \| \+20\.00% \| 0\.000333 \| \*\*slower\*\* \|$'
	# the exact p given the ties, by enumerating every split of the 15 values into 10 + 5
	[ "$(/usr/bin/python3 - <<'PY'
from itertools import combinations
old = [1.00, 1.01, 0.99, 1.02, 0.92, 1.00, 1.01, 0.99, 1.02, 0.93]
new = [1.20, 1.21, 1.19, 1.22, 1.18]
allv = old + new
def u(a, b):
    return sum((x > y) + 0.5 * (x == y) for x in a for y in b)
mean = len(old) * len(new) / 2
obs = abs(u(new, old) - mean)
splits = list(combinations(range(15), 5))
hits = sum(abs(u([allv[i] for i in c], [allv[i] for i in range(15) if i not in c]) - mean) >= obs - 1e-9 for c in splits)
print("%.3g" % (hits / len(splits)))
PY
)" = 0.000333 ]
	run "$IOSWEEP" gate "$TESTDIR/new.json" --history 10
	echo "$output" | grep -qF '(n=15)'
	result "$TESTDIR/lone.json" L3 a 1 1 1 1 1
	run "$IOSWEEP" gate "$TESTDIR/lone.json" --history 5
	[ "$status" -eq 3 ]
	echo "$output" | grep -qF '| inconclusive (no history) |'
}

@test "--history never pools a stored run with an interrupted repeat: the last complete one stands" {
	export IOSWEEP_HISTORY=$TESTDIR/h.db
	result "$TESTDIR/old1.json" L1 a 1.00 1.01 0.99 1.02 1.00
	# newer, as slow as the new result, but interrupted: were it pooled, no change
	result "$TESTDIR/old2.json" L1 a 1.20 1.21 i1.19 1.22 1.18
	result "$TESTDIR/new.json" L1 a 1.20 1.21 1.19 1.22 1.18
	"$IOSWEEP" history add "$TESTDIR/old1.json" "$TESTDIR/old2.json"
	"$IOSWEEP" history list | grep -qE '^2 .* 1 \(interrupted\)$'
	run "$IOSWEEP" gate "$TESTDIR/new.json" --history 1
	echo "$output"
	[ "$status" -eq 1 ]
	echo "$output" | grep -qE '^\| a \| time to end \| 1\.00 s ± [0-9]+% \(n=5\) \| 1\.20 s ± 2% \(n=5\) \| \+20\.00% \| .* \| \*\*slower\*\* \|$'
}
