#!/usr/bin/env python3
"""fio_corpus.py - how much of a corpus of real fio job files `iosweep import` translates.

Measures, over a directory of fio job files (one job file each, written by
people, gathered from outside this project): what share `iosweep import`
translates, by class, and what it refuses, one ranked list.

Each file is classified from its own text, as fio reads it ([global] sections
apply to the jobs after them; fio's defaults rw=read, ioengine=psync):
  rw      read-only (every job's rw/readwrite is read or randread, or a
          mix with rwmixread=100 or rwmixwrite=0), writes
          (some job writes, mixes or trims), or unknown (an rw value this
          script cannot read, such as an unexpanded ${VAR});
  target  device (a filename or directory under /dev/, other than /dev/shm/)
          or regular (anything else: a file, a directory, fio's default name);
  engine  supported (every job's ioengine is one that `iosweep import`
          translates: sync, psync, pvsync, pvsync2, libaio, io_uring, mmap,
          and the file engines filecreate, filestat, filedelete, dircreate,
          dirstat, dirdelete; the table in src/job/fio_words.c) or unsupported;
  template  a value with ${VAR}, {{ }} or {% %} (fio expands ${VAR} from the
          environment, which is empty here), said apart, not a class.
Then `iosweep import FILE` runs once per file in a temporary working
directory (with a timeout, stdout thrown away, no environment variables of
the job's) and its outcome is recorded: translated (exit 0, no warning),
translated with differences (exit 0 and a warning that lists settings not
translated as written), refused (exit 2; iosweep says every refusal of a
file at once, one stderr line each) or error (anything else, a timeout).
A file that includes another (fio's `include NAME`) gets it from
DIR/_includes/ when there, named as the corpus names files:
OWNER__REPO__PATH with every / as __.

Prints Markdown: counts per class and outcome; the translation rates of
(a) read-only jobs on regular files with supported engines and (b) jobs
with writes with supported engines (regular files, and all targets); and
the refusal reasons ranked, normalized (FILE:LINE, option values, quoted
names, numbers and paths taken out), each with the number of files it
blocks alone (the file's only distinct reason) and in all: for the files
of (a), of (a) and (b), and every file.

With fio (on PATH, or --fio), `fio --parse-only FILE` runs on each file
too: the rates are also given without the files fio itself refuses (it does
not parse them, or they have no size to start with).

usage: tools/fio_corpus.py [--iosweep build/iosweep] [--fio fio] [--timeout 20]
                           [--json OUT.json] DIR > REPORT.md
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# src/job/fio_words.c: fio's engines that iosweep translates
SUPPORTED_ENGINES = {"sync", "psync", "pvsync", "pvsync2", "libaio", "io_uring", "mmap",
                     "filecreate", "filestat", "filedelete", "dircreate", "dirstat", "dirdelete"}
READ_RW = {"read", "randread"}
WRITE_RW = {"write", "randwrite", "rw", "readwrite", "randrw", "trim", "randtrim",
            "trimwrite", "randtrimwrite"}
# $words fio expands itself (not the environment)
FIO_DOLLAR = {"jobnum", "jobname", "filenum", "ncpus", "pagesize", "mb_memory", "clientuid"}
TEMPLATE = re.compile(r"\$\{|\{\{|\{%")
DOLLAR = re.compile(r"\$([A-Za-z_]\w*)")
OUTCOMES = ["translated", "with differences", "refused", "error"]


def strip_comment(line):
    """A line without its comment: a whole-line # or ;, or one after a blank."""
    s = line.strip()
    if not s or s[0] in "#;":
        return ""
    m = re.search(r"\s[#;]", s)
    return s[:m.start()].rstrip() if m else s


def parse(text):
    """The jobs of a fio job file: a list of (name, {option: value}) with the
    [global] options before each job folded in."""
    glob, jobs, cur = {}, [], None
    for raw in text.splitlines():
        s = strip_comment(raw)
        if not s or s.startswith("include "):
            continue
        m = re.match(r"^\[(.+)\]$", s)
        if m:
            name = m.group(1).strip()
            if name.lower() == "global":
                cur = glob
            else:
                cur = dict(glob)
                jobs.append((name, cur))
            continue
        if cur is None:
            continue
        key, _, val = s.partition("=")
        key = key.strip().lower()
        if key == "readwrite":
            key = "rw"
        cur[key] = val.strip()
    if not jobs:  # a file of [global] only: classify by what it sets
        jobs.append(("global", glob))
    return jobs


def is_template(value):
    if TEMPLATE.search(value):
        return True
    return any(w not in FIO_DOLLAR for w in DOLLAR.findall(value))


def classify(text):
    """rw, target, engine class and the template flag of a fio job file."""
    jobs = parse(text)
    rws, engines, devices, template = set(), set(), False, False
    for _, opts in jobs:
        if any(is_template(v) for v in opts.values()):
            template = True
        rw = opts.get("rw", "read").split(":")[0].strip().lower()
        if rw in ("rw", "readwrite", "randrw") and (
                opts.get("rwmixread", "").strip() == "100" or
                opts.get("rwmixwrite", "").strip() == "0"):
            rw = "read"  # a mix of 100% reads writes nothing
        rws.add("read" if rw in READ_RW else "write" if rw in WRITE_RW else "unknown")
        engines.add(opts.get("ioengine", "psync").strip().lower())
        names = re.split(r"(?<!\\):", opts.get("filename", ""))
        for path in names + [opts.get("directory", "")]:
            path = path.strip()
            if path.startswith("/dev/") and not path.startswith("/dev/shm"):
                devices = True
    rw = "writes" if "write" in rws else "unknown" if "unknown" in rws else "read-only"
    engine = "supported" if engines <= SUPPORTED_ENGINES else "unsupported"
    return {"rw": rw, "target": "device" if devices else "regular", "engine": engine,
            "engines": sorted(engines), "template": template}


def include_names(text):
    return re.findall(r"^\s*include\s+(\S+)", text, re.M)


def includes(path, text):
    """The files the corpus holds for the file's includes: [(name, path)]."""
    name = os.path.basename(path)
    prefix = name.rpartition("__")[0]
    found = []
    for inc in include_names(text):
        flat = (prefix + "__" if prefix else "") + os.path.normpath(inc).replace("/", "__")
        for cand in (os.path.join(os.path.dirname(path), "_includes", flat),
                     os.path.join(os.path.dirname(path), flat)):
            if os.path.isfile(cand) and not os.path.isabs(inc) and ".." not in inc:
                found.append((inc, cand))
                break
    return found


def expand(path, text):
    """The text as fio reads it: each include's text in place of its line."""
    inc = dict(includes(path, text))
    out = []
    for line in text.splitlines():
        m = re.match(r"^\s*include\s+(\S+)", line)
        if m and m.group(1) in inc:
            with open(inc[m.group(1)], "rb") as fh:
                out.append(fh.read().decode("utf-8", "replace"))
        else:
            out.append(line)
    return "\n".join(out)


def run_import(iosweep, fio, path, text, timeout):
    """Runs `iosweep import` on a copy of the file (and its includes) in a
    temporary directory, and `fio --parse-only` there too (with fio):
    (outcome, refusal lines, warning lines, whether fio parses it or None)."""
    name = os.path.basename(path)
    base = name.rpartition("__")[2]
    with tempfile.TemporaryDirectory(prefix="fio_corpus.") as tmp:
        job = os.path.join(tmp, base or name)
        shutil.copyfile(path, job)
        for inc, cand in includes(path, text):
            os.makedirs(os.path.dirname(os.path.join(tmp, inc)), exist_ok=True)
            shutil.copyfile(cand, os.path.join(tmp, inc))
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "HOME": tmp}
        parses = None
        if fio:
            try:
                parses = subprocess.run([fio, "--parse-only", job], cwd=tmp, env=env,
                                        timeout=timeout, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL).returncode == 0
            except subprocess.TimeoutExpired:
                parses = False
        try:
            p = subprocess.run([iosweep, "import", job], cwd=tmp, env=env, timeout=timeout,
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
        except subprocess.TimeoutExpired:
            return "error", ["timeout"], [], parses
        err = p.stderr.decode("utf-8", "replace").replace(job, "FILE").replace(tmp, "DIR")
    lines = err.splitlines()
    warnings = [l.strip() for l in lines if l.startswith("  ")]
    refusals = [l[len("iosweep: "):] for l in lines
                if l.startswith("iosweep: ") and not l.startswith("iosweep: warning:")]
    if p.returncode == 0:
        return ("with differences" if warnings else "translated"), [], warnings, parses
    if p.returncode == 2 and refusals:
        return "refused", refusals, warnings, parses
    return "error", refusals or ["exit status %d" % p.returncode], warnings, parses


# the refusal of a job fio would not start either ("you need to specify
# size=", checked against fio 3.33), which fio --parse-only does not see
FIO_NEEDS_SIZE = "fio needs a size (or an existing file) and so does iosweep"


def fio_refuses(f):
    """Whether fio itself refuses the file as it is: it does not parse it,
    or it has no size to start with."""
    if f["fio_parses"] is False:
        return True
    return bool(f["refusals"]) and all(FIO_NEEDS_SIZE in r for r in f["refusals"])


def normalize(line):
    """A refusal line as a reason: no FILE:LINE, values, names or numbers."""
    s = re.sub(r"^(FILE|DIR/\S+?|[\w./-]+\.(fio|job|ini|conf|cfg))(:\d+)?:\s*", "", line)
    m = re.match(r"^([A-Za-z_][\w.]*)\s*=(.*?): (.*)$", s)
    if m:
        key, rest = m.group(1).lower(), m.group(3)
        if "environment variable" in rest:
            key = "OPTION"
        s = "%s=…: %s" % (key, rest)
    s = re.sub(r"environment variable \S+", "environment variable …", s)
    s = re.sub(r"(?<!\w)'[^']*'", "'…'", s)
    s = re.sub(r"(?<![\w/])/[\w./\\:-]+", "PATH", s)
    s = re.sub(r"\b0x[0-9a-fA-F]+\b", "N", s)
    s = re.sub(r"\b\d+(\.\d+)?[a-zA-Z%]{0,3}\b", "N", s)
    return s


def rate(files):
    n = len(files)
    ok = sum(1 for f in files if f["outcome"] in ("translated", "with differences"))
    return ok, n, (100.0 * ok / n if n else 0.0)


def reason_table(files, top):
    alone, total = collections.Counter(), collections.Counter()
    for f in files:
        rs = set(f["reasons"])
        for r in rs:
            total[r] += 1
        if len(rs) == 1:
            alone[next(iter(rs))] += 1
    ranked = sorted(total, key=lambda r: (-alone[r], -total[r], r))
    out = ["| # | reason (normalized) | files it blocks alone | files it is in |",
           "|---:|---|---:|---:|"]
    for i, r in enumerate(ranked[:top], 1):
        out.append("| %d | %s | %d | %d |" % (i, r.replace("|", "\\|"), alone[r], total[r]))
    if len(ranked) > top:
        out.append("| | (%d more reasons) | %d | |" % (len(ranked) - top,
                                                      sum(alone[r] for r in ranked[top:])))
    return out


def report(files, directory, top):
    out = ["# iosweep import over a corpus of fio job files", "",
           "%d files from `%s`." % (len(files), directory), ""]
    out += ["## Files per class and outcome", "",
            "| rw | target | engines | files | " + " | ".join(OUTCOMES) + " |",
            "|---|---|---|---:|" + "---:|" * len(OUTCOMES)]
    groups = collections.defaultdict(list)
    for f in files:
        c = f["class"]
        groups[(c["rw"], c["target"], c["engine"])].append(f)
    for key in sorted(groups):
        g = groups[key]
        counts = collections.Counter(f["outcome"] for f in g)
        out.append("| %s | %s | %s | %d | %s |" % (key + (len(g),) + (
            " | ".join(str(counts[o]) for o in OUTCOMES),)))
    tmpl = [f for f in files if f["class"]["template"]]
    out += ["", "%d files use ${VAR}, {{ }} or {%% %%} (templates, run here with no "
            "environment)." % len(tmpl), ""]

    sup = [f for f in files if f["class"]["engine"] == "supported"]
    a = [f for f in sup if f["class"]["rw"] == "read-only" and f["class"]["target"] == "regular"]
    b = [f for f in sup if f["class"]["rw"] == "writes" and f["class"]["target"] == "regular"]
    b_all = [f for f in sup if f["class"]["rw"] == "writes"]
    out += ["## Translation rates (translated, with or without differences)", "",
            "| class | translated | files | rate | without templates | "
            "without templates and files fio refuses |",
            "|---|---:|---:|---:|---:|---:|"]
    for label, g in [("(a) read-only, regular files, supported engines", a),
                     ("(b) writes, regular files, supported engines", b),
                     ("(b') writes, any target, supported engines", b_all),
                     ("all files", files)]:
        ok, n, pct = rate(g)
        ok2, n2, pct2 = rate([f for f in g if not f["class"]["template"]])
        ok3, n3, pct3 = rate([f for f in g if not f["class"]["template"] and not fio_refuses(f)])
        out.append("| %s | %d | %d | %.1f%% | %d/%d = %.1f%% | %d/%d = %.1f%% |" % (
            label, ok, n, pct, ok2, n2, pct2, ok3, n3, pct3))
    out += ["", "Files fio refuses itself: %d of (a), %d of (b), %d in all (many of them for an "
            "engine this fio lacks): `fio --parse-only` fails on them (an option fio does not "
            "know, an empty value, not a fio job at all), or iosweep refuses them only for "
            "want of a size, which fio refuses at its start (\"you need to specify size=\")."
            % tuple(sum(1 for f in g if fio_refuses(f)) for g in (a, b, files))]
    engines = collections.Counter(e for f in files for e in f["class"]["engines"]
                                  if f["class"]["engine"] == "unsupported"
                                  and e not in SUPPORTED_ENGINES)
    out += ["", "Unsupported engines (files): " +
            ", ".join("%s %d" % (e, n) for e, n in engines.most_common()) + ".", ""]

    ra = [f for f in a if f["outcome"] in ("refused", "error")]
    out += ["## Refusal reasons, files of (a): %d refused" % len(ra), ""]
    out += reason_table(ra, top)
    out += [""]
    ab = [f for f in a + b if f["outcome"] in ("refused", "error")]
    out += ["## Refusal reasons, files of (a) and (b): %d refused" % len(ab), ""]
    out += reason_table(ab, top)
    refused = [f for f in files if f["outcome"] in ("refused", "error")]
    out += ["", "## Refusal reasons, every file: %d refused" % len(refused), ""]
    out += reason_table(refused, top)
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--iosweep", default="build/iosweep")
    ap.add_argument("--fio", default=shutil.which("fio"),
                    help="fio, for --parse-only on each file (default: fio on PATH)")
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--top", type=int, default=30, help="rows of the reason tables")
    ap.add_argument("--json", help="also write every file's class, outcome and reasons here")
    args = ap.parse_args()
    iosweep = os.path.abspath(args.iosweep)
    files = []
    for name in sorted(os.listdir(args.dir)):
        path = os.path.join(args.dir, name)
        if not os.path.isfile(path):
            continue
        with open(path, "rb") as fh:
            text = fh.read().decode("utf-8", "replace")
        outcome, refusals, warnings, parses = run_import(iosweep, args.fio, path, text,
                                                         args.timeout)
        files.append({"file": name, "class": classify(expand(path, text)), "outcome": outcome,
                      "refusals": refusals, "reasons": sorted({normalize(r) for r in refusals}),
                      "warnings": len(warnings), "fio_parses": parses})
    sys.stdout.write(report(files, args.dir, args.top))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(files, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
