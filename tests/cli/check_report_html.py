#!/usr/bin/python3
# check_report_html.py REPORT.html DOM.html SHOT.png [TABLE.txt]...: checks a
# page of `iosweep report` as a browser saw it.  REPORT.html must parse as
# HTML5 without a single error (html5lib, strict) and fetch nothing (no
# script, no stylesheet link, every src a data: URI); DOM.html is the DOM
# Chromium rendered of it; SHOT.png, its screenshot, must not be blank; and
# the run table of the i-th result in the DOM must show the figures of the
# i-th TABLE.txt (what `iosweep run` printed for that result): per run, its
# time to end, throughput, IOPS, p50 and p99, cell for cell.  Needs Debian's
# python3-html5lib and python3-pil: run with /usr/bin/python3.
import re
import sys

import html5lib
from PIL import Image

NS = "{http://www.w3.org/1999/xhtml}"
FIGURES = ["time to end", "throughput", "IOPS", "p50", "p99"]


def fail(msg):
    print(msg)
    sys.exit(1)


def text(el):
    return re.sub(r"\s+", " ", "".join(el.itertext())).strip()


def check_self_contained(path):
    with open(path, "rb") as f:
        doc = html5lib.HTMLParser(strict=True).parse(f)
    for el in doc.iter():
        tag = el.tag.replace(NS, "")
        if tag in ("script", "link", "iframe", "object", "embed"):
            fail(f"{path}: a <{tag}> element")
        src = el.get("src")
        if src is not None and not src.startswith("data:"):
            fail(f"{path}: <{tag} src={src!r}> fetches something")
        href = el.get("href")
        if href is not None and not href.startswith("#"):
            fail(f"{path}: <{tag} href={href!r}> leads away")


def run_tables(dom_path):
    with open(dom_path, "rb") as f:
        doc = html5lib.parse(f)
    tables = []
    for sec in doc.iter(NS + "section"):
        for t in sec.iter(NS + "table"):
            head = [text(th) for th in t.iter(NS + "th")]
            if head[:2] == ["#", "job"]:
                rows = [[text(td) for td in tr.iter(NS + "td")] for tr in t.iter(NS + "tr")]
                tables.append((head, [r for r in rows if r]))
    return tables


def table_rows(path):
    lines = open(path, encoding="utf-8").read().splitlines()
    head = next(i for i, l in enumerate(lines) if l.startswith("#  "))
    cols = re.split(r"  +", lines[head].strip())
    rows = {}
    for l in lines[head + 1:]:
        if not re.match(r"\d+ ", l):
            break
        cells = re.split(r"  +", l.strip())
        rows[cells[0]] = dict(zip(cols, cells))
    return rows


def main():
    report, dom, shot, tables = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    check_self_contained(report)
    img = Image.open(shot).convert("RGB")
    if len(img.getcolors(1 << 24) or []) < 3:
        fail(f"{shot}: the screenshot is blank")
    seen = run_tables(dom)
    if len(seen) < len(tables):
        fail(f"{dom}: {len(seen)} run tables, {len(tables)} expected")
    for (head, rows), table in zip(seen, tables):
        want = table_rows(table)
        if len(rows) != len(want):
            fail(f"{dom}: {len(rows)} runs, {table} has {len(want)}")
        for row in rows:
            got = dict(zip(head, row))
            exp = want[got["#"]]
            for fig in FIGURES:
                key = next(k for k in exp if k.startswith(fig))
                if got[fig] != exp[key].split(" ±")[0].rstrip(" !"):
                    fail(f"run {got['#']}: {fig} is {got[fig]!r}, the table says {exp[key]!r}")


main()
