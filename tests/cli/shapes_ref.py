#!/usr/bin/python3
"""Skewed random offsets (random_distribution), written again for the tests
from the man page's rules (not iosweep's code).

usage: shapes_ref.py offsets DIST SIZE BS COUNT SEED
           "OFFSET LENGTH" of each read, in order (for refsum)
       shapes_ref.py check DIST SIZE BS COUNT SEED [AS_DIST | --offsets FILE]
           the chi-square test of those reads' block histogram against the
           distribution's probabilities, computed independently (the
           probability of each rank from the inverse of the generator's
           formula, or by convolution), and for zoned the share of each zone;
           prints "ok p=..." or fails
       shapes_ref.py mix SPLIT|RANGE TEXT SIZE PATTERN OP RWMIXREAD COUNT SEED
                     [BLOCKALIGN [DIST]]
           "OFFSET LENGTH DIR" of each unit of a block-size mix (bssplit or
           bsrange TEXT; PATTERN sequential, random or random-replace; OP
           read, write or readwrite; COUNT 0: the default), from the man
           page's rules; DIR r or w
Needs numpy and scipy for check (Debian's python3)."""
import math
import sys

M = (1 << 64) - 1
GOLDEN = 0x61C8864680B583EB
GAMMA = 0x9E3779B97F4A7C15


def splitmix64(x):
    x = (x + GAMMA) & M
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M
    return x ^ (x >> 31)


def rand(seed, k, j):
    return splitmix64(((seed ^ splitmix64(k)) + j * GAMMA) & M)


def unit(r):
    return (r >> 11) * 2.0 ** -53


def parse_size(s):
    mult = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    s = s.lower().rstrip("b").rstrip("i")
    return int(s[:-1]) * mult[s[-1]] if s[-1] in mult else int(s)


def parse(text):
    name, _, rest = text.partition(":")
    d = {"kind": name, "center": -1.0}
    if name in ("zoned", "zoned_abs"):
        zones = [z.split("/") for z in rest.split(":")]
        given = sum(int(z[1]) for z in zones if len(z) == 2) if name == "zoned" else 0
        missing = sum(1 for z in zones if len(z) == 1)
        d["zones"] = [(int(z[0]), (parse_size(z[1]) if name == "zoned_abs" else int(z[1]))
                       if len(z) == 2 else (100 - given) // missing) for z in zones]
        return d
    parts = rest.split(":") if rest else []
    d["param"] = float(parts[0]) if parts else {"zipf": 1.1, "pareto": 0.2}.get(name, 0.0)
    if len(parts) > 1:
        d["center"] = float(parts[1])
    return d


def zeta(n, theta):
    m = min(n, 10000)
    z = 0.0
    for i in range(m):
        z += math.pow(1.0 / (i + 1), theta)
    if n > m:
        N, Mf = float(n), float(m)
        z += ((math.pow(N, 1.0 - theta) - math.pow(Mf, 1.0 - theta)) / (1.0 - theta)
              + (math.pow(N, -theta) - math.pow(Mf, -theta)) / 2.0
              - theta * (math.pow(N, -theta - 1.0) - math.pow(Mf, -theta - 1.0)) / 12.0)
    return z


class Dist:
    def __init__(self, text, nblocks, bs, seed):
        d = parse(text)
        self.kind, self.n, self.seed = d["kind"], max(nblocks, 1), seed
        n = self.n
        c = d["center"]
        self.off = int(n * c) % n if c >= 0 else splitmix64(splitmix64(seed)) % n
        if self.kind == "zipf":
            t = self.theta = d["param"]
            self.zetan = zeta(n, t)
            zeta2 = math.pow(1.0, t) + math.pow(0.5, t)
            self.alpha = 1.0 / (1.0 - t)
            self.eta = (1.0 - math.pow(2.0 / n, 1.0 - t)) / (1.0 - zeta2 / self.zetan)
            self.two_at = 1.0 + math.pow(0.5, t)
        elif self.kind == "pareto":
            self.pow = math.log(d["param"]) / math.log(1.0 - d["param"])
        elif self.kind == "normal":
            self.stddev = 0
            if d["param"] != 0.0:
                self.stddev = min(math.ceil(n * d["param"] / 100.0), n // 2)
            self.off = 0 if c < 0 else int(n * (c - 0.5)) % n
        elif self.kind in ("zoned", "zoned_abs"):
            self.pick, prev = [], 0
            for access, size in d["zones"]:
                cum = prev + size
                if self.kind == "zoned":
                    start, end = prev * n // 100, cum * n // 100
                else:
                    start, end = prev // bs, cum // bs
                start = min(start, n - 1)
                end = max(end, start)
                self.pick += [(start, end - start)] * access
                prev = cum

    def scatter(self, rank):
        return (((rank * GOLDEN) & M) + self.off) % self.n

    def zipf_rank(self, u):
        z = u * self.zetan
        if z < 1.0:
            return 0
        if z < self.two_at:
            return 1
        try:
            x = self.n * math.pow(self.eta * u - self.eta + 1.0, self.alpha)
        except (ValueError, OverflowError):
            return self.n
        return int(x) if x < self.n else self.n

    def normal_rank(self, k):
        s = sum((rand(self.seed, k, j) * (self.n + 1)) >> 64 for j in range(12))
        s = (s + 11) // 12
        if not self.stddev:
            return s
        dev = int(self.stddev * unit(rand(self.seed, k, 12))) - self.stddev // 2
        while dev != 0 and (s + dev < 0 or s + dev >= self.n):
            dev = -((-dev) // 2) if dev < 0 else dev // 2
        return s + dev

    def block(self, k):
        r = rand(self.seed, k, 0)
        if self.kind == "zipf":
            return self.scatter(self.zipf_rank(unit(r)))
        if self.kind == "pareto":
            return self.scatter(int((self.n - 1) * math.pow(unit(r), self.pow)))
        if self.kind == "normal":
            return self.scatter(self.normal_rank(k))
        if self.kind in ("zoned", "zoned_abs"):
            start, length = self.pick[(r * 100) >> 64]
            return start + ((rand(self.seed, k, 1) * length) >> 64)
        return (r * self.n) >> 64


def rank_probs(d):
    """The probability of each rank 0..n, from the formulas (not by drawing)."""
    import numpy as np
    n = d.n
    p = np.zeros(n + 1)
    if d.kind == "pareto":
        # rank <= m  <=>  (n-1) u^pow < m+1  <=>  u < ((m+1)/(n-1))^(1/pow)
        cdf = np.minimum(1.0, (np.arange(1, n + 1) / (n - 1)) ** (1.0 / d.pow))
        p[:n] = np.diff(np.concatenate(([0.0], cdf)))
        return p
    if d.kind == "zipf":
        a, b = 1.0 / d.zetan, d.two_at / d.zetan
        p[0], p[1] = min(a, 1.0), max(0.0, min(b, 1.0) - a)

        def u_of(x):  # the u at which n * (1 + eta (u - 1))^alpha = x
            return ((x / n) ** (1.0 / d.alpha) - 1.0) / d.eta + 1.0
        edges = np.clip(np.array([u_of(float(m)) for m in range(2, n + 2)]), b, 1.0)
        lo = np.clip(np.array([u_of(float(m)) for m in range(1, n + 1)]), b, 1.0)
        # x grows or falls with u, depending on theta: the interval, whichever way
        w = np.abs(edges - lo)
        # rank m is where x in [m, m+1): below b nothing (ranks 0 and 1 above)
        p[1:n + 1] += w[:n]
        p[n] += max(0.0, 1.0 - p.sum())
        return p
    if d.kind == "normal":
        one = np.full(n + 1, 1.0 / (n + 1))
        s = np.array([1.0])
        for _ in range(12):
            s = np.convolve(s, one)
        mean = np.zeros(n + 1)
        for total, q in enumerate(s):
            mean[(total + 11) // 12] += q
        if not d.stddev:
            return mean
        devs = {}
        for i in range(d.stddev):  # int(stddev * u) = i with probability 1/stddev
            devs[i - d.stddev // 2] = devs.get(i - d.stddev // 2, 0.0) + 1.0 / d.stddev
        for sm in range(n + 1):
            for dev, q in devs.items():
                while dev != 0 and (sm + dev < 0 or sm + dev >= n):
                    dev = -((-dev) // 2) if dev < 0 else dev // 2
                p[sm + dev] += mean[sm] * q
        return p
    raise ValueError(d.kind)


def block_probs(d):
    import numpy as np
    probs = np.zeros(d.n)
    if d.kind in ("zoned", "zoned_abs"):
        for start, length in d.pick:
            probs[start:start + max(length, 1)] += 0.01 / max(length, 1)
        return probs
    for rank, q in enumerate(rank_probs(d)):
        probs[d.scatter(rank)] += q
    return probs


def check(d, blocks):
    import numpy as np
    from scipy import stats
    exp = block_probs(d) * len(blocks)
    got = np.bincount(blocks, minlength=d.n).astype(float)
    assert got[exp == 0].sum() == 0, "draws where the distribution has none"
    order = np.argsort(-exp)
    exp, got = exp[order], got[order]
    # bins of at least 5 expected: the smallest merged into the last bin
    keep = exp >= 5
    e = np.append(exp[keep], exp[~keep].sum())
    g = np.append(got[keep], got[~keep].sum())
    if e[-1] < 5:
        e, g = np.append(e[:-2], e[-2:].sum()), np.append(g[:-2], g[-2:].sum())
    p = stats.chisquare(g, e).pvalue
    assert p > 1e-4, f"chi-square p={p:.3g} over {len(e)} bins"
    if d.kind in ("zoned", "zoned_abs"):
        # each zone's share of the reads: within 4.5 standard deviations of its percent
        zones = {}
        for v, z in enumerate(d.pick):
            zones.setdefault(z, 0)
            zones[z] += 1
        n = len(blocks)
        for (start, length), pct in zones.items():
            inside = int(((blocks >= start) & (blocks < start + max(length, 1))).sum())
            sd = math.sqrt(n * pct / 100 * (1 - pct / 100))
            assert abs(inside - n * pct / 100) <= 4.5 * sd + 1, (start, length, inside, pct)
    print(f"ok p={p:.3g}")


def split_dir(text):
    """bssplit's one direction: [(size, weight)], the index of the rest."""
    items = [z.partition("/") for z in text.split(":")]
    given = sum(int(w) for _, sl, w in items if sl and w)
    blanks = sum(1 for _, sl, w in items if not (sl and w))
    sizes = [(parse_size(sz), int(w) if sl and w else (100 - given) // blanks)
             for sz, sl, w in items]
    rest = max(range(len(sizes)), key=lambda i: (sizes[i][1], i))
    return sizes, rest


def mix_sizes(kind, text, align):
    parts = text.split(",")
    dirs = []
    for t in parts:
        if kind == "bssplit":
            dirs.append(("split",) + split_dir(t))
        else:
            lo, hi = (parse_size(x) for x in t.split("-"))
            a = align or lo
            dirs.append(("range", lo, a, (hi - lo) // a + 1))
    if len(dirs) == 1:
        dirs.append(dirs[0])
    return dirs, parts[0] == parts[-1]


def mix_len(dirs, d, key, k):
    r = splitmix64(key ^ splitmix64(k))
    x = dirs[d]
    if x[0] == "range":
        return x[1] + x[2] * ((r * x[3]) >> 64)
    v = (r * 100) >> 64
    cum = 0
    for size, w in x[1]:
        cum += w
        if v < cum:
            return size
    return x[1][x[2]][0]


def feistel_perm(n, seed):
    """pattern=random: the Feistel permutation of [0, n) of pattern.h."""
    bits = 0
    while bits < 64 and (n - 1) >> bits:
        bits += 1
    half = max(bits // 2 + bits % 2, 1)
    mask = (1 << half) - 1
    base = splitmix64(seed)

    def perm(k):
        pas, i = divmod(k, n)
        keys = [splitmix64(base ^ ((pas * 4 + r) & M)) for r in range(4)]

        def f(x):
            lft, rgt = x >> half, x & mask
            for key in keys:
                lft, rgt = rgt, lft ^ (splitmix64(rgt ^ key) & mask)
            return (lft << half) | rgt
        x = f(i)
        while x >= n:
            x = f(x)
        return x
    return perm


def mix_units(argv):
    kind, text, size, pattern, op, rwmix, count, seed = argv[:8]
    size, rwmix, count, seed = int(size), int(rwmix), int(count), int(seed)
    align = parse_size(argv[8]) if len(argv) > 8 and argv[8] != "0" else 0
    dist = argv[9] if len(argv) > 9 else "random"
    dirs, same = mix_sizes(kind, text, align)
    key = splitmix64(seed ^ 0x6273706C6974)
    dkey = splitmix64(splitmix64(seed ^ 0x6461746164617461) ^ 0x6D69786D69786D69)

    def direction(off):
        if op == "read" or (same and op == "readwrite"):
            return 0 if op != "write" else 1
        if op == "write":
            return 1
        return 0 if ((splitmix64(dkey ^ off) * 100) >> 64) < rwmix else 1

    def real_dir(off):
        if op != "readwrite":
            return "r" if op == "read" else "w"
        return "r" if ((splitmix64(dkey ^ off) * 100) >> 64) < rwmix else "w"

    units = []
    if pattern == "sequential":
        pos, k = 0, 0
        while pos < size:
            ln = min(mix_len(dirs, 0 if same else direction(pos), key, k), size - pos)
            units.append((pos, ln, real_dir(pos)))
            pos += ln
            k += 1
        return units
    mins = []
    for x in dirs:
        mins.append(x[1] if x[0] == "range" else min(s for s, w in x[1]))
    lo = min(mins)
    a = align or lo
    n = (size - lo) // a + 1
    if dist != "random":
        d = Dist(dist, n, a, seed)
        slot = d.block
    elif pattern == "random":
        slot = feistel_perm(n, seed)
    else:
        def slot(k):
            return (splitmix64(seed ^ splitmix64(k)) * n) >> 64
    k, total = 0, 0
    while (count and k < count) or (not count and total < size):
        off = slot(k) * a
        ln = min(mix_len(dirs, 0 if same else direction(off), key, k), size - off)
        units.append((off, ln, real_dir(off)))
        total += ln
        k += 1
    return units


def main():
    if sys.argv[1] == "mix":
        sys.stdout.write("".join(f"{o} {n} {d}\n" for o, n, d in mix_units(sys.argv[2:])))
        return
    cmd, text = sys.argv[1], sys.argv[2]
    size, bs, count, seed = map(int, sys.argv[3:7])
    d = Dist(text, size // bs, bs, seed)
    blocks = [d.block(k) for k in range(count)]
    if cmd == "offsets":
        sys.stdout.write("".join(f"{b * bs} {bs}\n" for b in blocks))
    else:
        import numpy as np
        # a second DIST: the draws of the first against its probabilities (the
        # test's own check that a wrong distribution fails)
        # --offsets FILE: the offsets too, into FILE (one run of this script)
        if sys.argv[7:8] == ["--offsets"]:
            with open(sys.argv[8], "w") as f:
                f.write("".join(f"{b * bs} {bs}\n" for b in blocks))
        check(Dist(sys.argv[7], size // bs, bs, seed) if len(sys.argv) == 8 else d,
              np.array(blocks))


main()
