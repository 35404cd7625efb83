#!/usr/bin/env python3
"""Checks an iosweep result file against the contract of DESIGN.md and the
plan it came from: python3 check_result.py RESULT.json PLAN.json [RESULT.csv]
Prints what is wrong and exits 1, or prints nothing and exits 0."""
import csv
import json
import sys

REPEAT_FIELDS = ["time_to_end_s", "bytes", "reads", "throughput_Bps", "coverage_Bps", "iops",
                 "lat_ns", "cpu_user_s", "cpu_sys_s", "major_faults", "minor_faults",
                 "ctx_voluntary", "ctx_involuntary", "resident_before", "resident_after",
                 "interrupted"]
LAT_FIELDS = ["min", "mean", "p50", "p90", "p99", "p99.9", "max"]
SUMMARY_FIELDS = ["mean", "sd", "min", "median", "max", "ci95_low", "ci95_high"]
HOST_FIELDS = ["kernel", "cpu_model", "cpus", "memory_bytes", "filesystem", "device"]


def fail(msg):
    print(msg)
    sys.exit(1)


def main():
    d = json.load(open(sys.argv[1]))
    plan = json.load(open(sys.argv[2]))
    if d["iosweep"]["schema"] != 1 or not d["iosweep"]["version"]:
        fail("bad iosweep header")
    for k in ["started", "host", "job_file", "overrides", "runs"]:
        if k not in d:
            fail("missing " + k)
    for k in HOST_FIELDS:
        if k not in d["host"]:
            fail("host lacks " + k)
    if not d["job_file"]["text"]:
        fail("no job file text")
    if len(d["runs"]) != len(plan["runs"]):
        fail(f"{len(d['runs'])} runs, the plan has {len(plan['runs'])}")
    rows = 0
    for run, planned in zip(d["runs"], plan["runs"]):
        if run["params"] != planned["params"] or run["job"] != planned["job"]:
            fail(f"run {run['index']}: params differ from the plan")
        if len(run["repeats"]) != planned["repeat"]:
            fail(f"run {run['index']}: {len(run['repeats'])} repeats")
        for rep in run["repeats"]:
            for k in REPEAT_FIELDS:
                if k not in rep:
                    fail(f"run {run['index']}: repeat lacks {k}")
            for k in LAT_FIELDS:
                if not isinstance(rep["lat_ns"][k], (int, float)):
                    fail(f"run {run['index']}: lat_ns.{k}")
            # a plan counts reads and writes apart, as a repeat does, and bytes of both
            for k in ["reads", "writes", "bytes", "read_bytes", "write_bytes"]:
                if rep[k] != planned[k]:
                    fail(f"run {run['index']}: {rep[k]} {k}, planned {planned[k]}")
            if not rep["lat_ns"]["min"] <= rep["lat_ns"]["p50"] <= rep["lat_ns"]["p99"] <= rep["lat_ns"]["max"]:
                fail(f"run {run['index']}: latency percentiles out of order")
            if run["params"]["consume"] == "checksum" and len(rep["checksum"]) != 16:
                fail(f"run {run['index']}: checksum {rep['checksum']}")
            rows += 1
        for k in SUMMARY_FIELDS:
            if k not in run["summary"]["time_to_end_s"]:
                fail(f"run {run['index']}: summary lacks {k}")
    if len(sys.argv) > 3:
        with open(sys.argv[3], newline="") as f:
            table = list(csv.reader(f))
        header, body = table[0], table[1:]
        if len(body) != rows:
            fail(f"CSV has {len(body)} rows, JSON {rows} repeats")
        if len(set(header)) != len(header):
            fail("CSV header repeats a column name")
        if any(len(r) != len(header) for r in body):
            fail("CSV rows of different lengths")
        for k in ["job", "run", "repeat", "engine", "bs", "spacing", "time_to_end_s", "bytes",
                  "reads", "consume_result"]:
            if k not in header:
                fail("CSV lacks column " + k)
        i = 0
        for run in d["runs"]:
            for rep in run["repeats"]:
                row = dict(zip(header, body[i]))
                if int(row["bytes"]) != rep["bytes"] or row["job"] != run["job"]:
                    fail(f"CSV row {i} differs from JSON")
                i += 1


main()
