#!/usr/bin/env python3
"""The offsets of a run, from the rules in the man page, written again for
the tests (not iosweep's code): prints "OFFSET LENGTH" lines.
usage: offsets.py PATTERN SIZE BS SPACING COUNT SEED"""
import sys

M = (1 << 64) - 1


def splitmix64(x):
    x = (x + 0x9E3779B97F4A7C15) & M
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M
    return x ^ (x >> 31)


def main():
    pattern, size, bs, spacing, count, seed = sys.argv[1], *map(int, sys.argv[2:])
    out = []
    if pattern == "random":
        nblocks = size // bs
        n = count or -(-size // bs)
        for i in range(n):
            r = splitmix64(seed ^ splitmix64(i))
            out.append(((r * nblocks) >> 64) * bs)
    else:
        off = 0
        while off < size and (spacing == bs or off + bs <= size):
            out.append(off)
            off += spacing
        if pattern == "reverse":
            out.reverse()
    sys.stdout.write("".join(f"{o} {min(bs, size - o)}\n" for o in out))


main()
