#!/usr/bin/env python3
"""percentage_random's offsets, from the rules in pattern.h and the man page,
written again for the tests (not iosweep's code): prints "OFFSET LENGTH"
lines, the whole run's units in order.
usage: pctrand_ref.py PATTERN SIZE BS COUNT SEED PERCENT
       PATTERN random or random-replace; COUNT 0: a unit per whole block.
Unit k is random when splitmix64(key ^ k) % 100 < PERCENT, key =
splitmix64(seed ^ SALT), and reads the block the random pattern gives unit
k; otherwise the block after unit k - 1's, wrapping at the last whole block
(unit 0, when not random, reads block 0)."""
import os
import sys

# the random pattern's permutation and mixer, as the other reference has them
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from offsets import M, permutation, splitmix64  # noqa: E402

SALT = 0x70657263656E74  # "percent"


def random_block(pattern, nblocks, seed, k, perms):
    if pattern == "random-replace":
        return (splitmix64(seed ^ splitmix64(k)) * nblocks) >> 64
    p = k // nblocks
    if p not in perms:
        perms[p] = permutation(nblocks, seed, p)
    return perms[p](k % nblocks)


def units(pattern, size, bs, count, seed, pct):
    """(block, random?) of every unit of the run."""
    nblocks = size // bs
    key = splitmix64(seed ^ SALT)
    prev, perms, out = nblocks - 1, {}, []
    for k in range(count or nblocks):
        rnd = splitmix64(key ^ k) % 100 < pct
        prev = random_block(pattern, nblocks, seed, k, perms) if rnd else (prev + 1) % nblocks
        out.append((prev, rnd))
    return out


def main():
    pattern, size, bs, count, seed, pct = sys.argv[1], *map(int, sys.argv[2:7])
    out = units(pattern, size, bs, count, seed, pct)
    sys.stdout.write("".join(f"{b * bs} {bs}\n" for b, _ in out))


if __name__ == "__main__":
    main()
