#!/usr/bin/env python3
"""The offsets of a run, from the rules in the man page, written again for
the tests (not iosweep's code): prints "OFFSET LENGTH" lines.
usage: offsets.py PATTERN SIZE BS SPACING COUNT SEED
       offsets.py --check-permutation: checks, for several sizes and seeds,
       that pattern=random reads every block exactly once per pass and that
       the first half of a pass is spread evenly over the file."""
import sys

M = (1 << 64) - 1
ROUNDS = 4


def splitmix64(x):
    x = (x + 0x9E3779B97F4A7C15) & M
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M
    return x ^ (x >> 31)


def permutation(nblocks, seed, pass_):
    """pattern=random: read k of a pass reads block perm(k), perm a 4-round
    Feistel network over the smallest even number of bits (at least 2) that
    holds nblocks - 1, cycle-walked back below nblocks."""
    half = max(1, ((nblocks - 1).bit_length() + 1) // 2)
    mask = (1 << half) - 1
    base = splitmix64(seed)
    keys = [splitmix64(base ^ ((pass_ * ROUNDS + r) & M)) for r in range(ROUNDS)]

    def feistel(x):
        left, right = x >> half, x & mask
        for k in keys:
            left, right = right, left ^ (splitmix64(right ^ k) & mask)
        return (left << half) | right

    def perm(k):
        x = feistel(k)
        while x >= nblocks:
            x = feistel(x)
        return x
    return perm


def offsets(pattern, size, bs, spacing, count, seed):
    if pattern in ("random", "random-replace"):
        nblocks = size // bs
        n = count or nblocks
        if pattern == "random-replace":
            return [((splitmix64(seed ^ splitmix64(i)) * nblocks) >> 64) * bs
                    for i in range(n)]
        out, perm = [], None
        for i in range(n):
            if i % nblocks == 0:
                perm = permutation(nblocks, seed, i // nblocks)
            out.append(perm(i % nblocks) * bs)
        return out
    out = []
    off = 0
    while off < size and (spacing == bs or off + bs <= size):
        out.append(off)
        off += spacing
    if pattern == "reverse":
        out.reverse()
    return out


def check_permutation():
    """Exactly once per pass; the first half of a pass puts each eighth of
    the file within 4 standard deviations (hypergeometric) of its share."""
    for nblocks in (1, 2, 3, 5, 64, 100, 1000, 4097):
        for seed in (0, 1, 7, 2**63 - 1):
            for p in (0, 1):
                perm = permutation(nblocks, seed, p)
                got = [perm(k) for k in range(nblocks)]
                assert sorted(got) == list(range(nblocks)), (nblocks, seed, p)
                if nblocks < 64:
                    continue
                half = nblocks // 2
                for b in range(8):
                    lo, hi = nblocks * b // 8, nblocks * (b + 1) // 8
                    share = (hi - lo) / nblocks
                    n = sum(1 for x in got[:half] if lo <= x < hi)
                    mean = half * share
                    sd = (half * share * (1 - share) * (nblocks - half) / (nblocks - 1)) ** 0.5
                    assert abs(n - mean) <= 4 * sd, (nblocks, seed, p, b, n, mean, sd)
            # successive passes differ
            if nblocks > 10:
                a, b = permutation(nblocks, seed, 0), permutation(nblocks, seed, 1)
                assert [a(k) for k in range(nblocks)] != [b(k) for k in range(nblocks)]
    print("ok")


def main():
    if sys.argv[1:] == ["--check-permutation"]:
        check_permutation()
        return
    pattern, size, bs, spacing, count, seed = sys.argv[1], *map(int, sys.argv[2:])
    out = offsets(pattern, size, bs, spacing, count, seed)
    sys.stdout.write("".join(f"{o} {min(bs, size - o)}\n" for o in out))


if __name__ == "__main__":
    main()
