#!/usr/bin/env python3
"""layers.py - data flows down the floors of src/ (README, Layout).

Each folder of src/ is a floor; a file includes only headers of its own
floor and of the floors below it, and no two modules (NAME.c with NAME.h)
include each other, even through others.  Prints each breach, one line with
FILE:LINE, and exits 1 when there is any.  usage: tools/layers.py [SRC]
"""
import os
import re
import sys

# lowest first; a folder below another (io/engines) is part of its floor;
# preload/ (the LD_PRELOAD interposer, built apart) includes nothing of src/
FLOORS = ["lib preload", "io", "job", "run", "report fio", "results", "cli"]
FLOOR = {name: n for n, names in enumerate(FLOORS) for name in names.split()}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def folder(path):
    """The floor's folder of a path relative to src/ (io/engines/x.c -> io)."""
    return path.split("/", 1)[0]


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "src"
    files, bad = {}, []
    for root, _, names in os.walk(src):
        for name in names:
            if name.endswith((".c", ".h")):
                rel = os.path.relpath(os.path.join(root, name), src)
                files[rel] = os.path.join(root, name)
    graph = {}
    for rel, path in sorted(files.items()):
        top = folder(rel)
        if top not in FLOOR:
            bad.append(f"{path}:1: {top}/ is not a floor of src/ (tools/layers.py lists them)")
            continue
        mod = rel.rsplit(".", 1)[0]
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                inc = m.group(1)
                if inc not in files:
                    bad.append(f"{path}:{n}: \"{inc}\" is not a path under {src}/")
                    continue
                there = folder(inc)
                if there != top and FLOOR.get(there, 99) >= FLOOR[top]:
                    bad.append(f"{path}:{n}: {top}/ includes {inc}: {there}/ is not below it")
                other = inc.rsplit(".", 1)[0]
                if other != mod:
                    graph.setdefault(mod, {}).setdefault(other, f"{path}:{n}")
    # circles between modules: depth-first search, each reported once
    state, stack = {}, []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for o, where in sorted(graph.get(m, {}).items()):
            if state.get(o) == 1:
                # named from its first module in order, whichever the search met first
                ring = stack[stack.index(o):]
                k = ring.index(min(ring))
                ring = ring[k:] + ring[:k] + [ring[k]]
                bad.append(f"{where}: a circle: {' -> '.join(ring)}")
            elif o not in state:
                visit(o)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)
    for b in bad:
        print(b)
    if bad:
        print(f"layers: {len(bad)} breaches of the floors {' < '.join(FLOORS)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
