#!/usr/bin/env python3
"""What iosweep writes, from the format in iosweep-job(5), written again for
the tests (not iosweep's code).

  wdata.py bytes SEED OFF LEN [COMPRESS]   the bytes a write puts at OFF..OFF+LEN, to stdout
  wdata.py writes SEED RWMIXREAD OFF...    of these block offsets, how many op=readwrite writes

Data: 4 KiB units at multiples of 4096.  key = splitmix64(seed ^ 0x6461746164617461);
a pool of words pool[i] = splitmix64(key + i); the unit at U has k = splitmix64(key ^ U),
a header of four little-endian words (0x31504557534f4921, U, seed, k), then words
pool[((k >> 51) & ~3) + i] ^ k, the last COMPRESS percent of the unit (rounded) zeros.
Direction: the block at OFF is read when
(splitmix64(splitmix64(key ^ 0x6d69786d69786d69) ^ OFF) * 100) >> 64 < RWMIXREAD."""
import struct
import sys

M = (1 << 64) - 1
UNIT = 4096


def splitmix64(x):
    x = (x + 0x9E3779B97F4A7C15) & M
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M
    return x ^ (x >> 31)


def key_of(seed):
    return splitmix64(seed ^ 0x6461746164617461)


def unit(seed, key, pool, random_bytes, u):
    k = splitmix64(key ^ u)
    start = (k >> 51) & ~3
    head = struct.pack("<4Q", 0x31504557534F4921, u, seed, k)
    body = struct.pack("<%dQ" % (random_bytes // 8),
                       *[pool[start + i] ^ k for i in range(random_bytes // 8)])
    return head + body + bytes(UNIT - 32 - random_bytes)


def main():
    if sys.argv[1] == "bytes":
        seed, off, length = map(int, sys.argv[2:5])
        compress = int(sys.argv[5]) if len(sys.argv) > 5 else 0
        key = key_of(seed)
        random_bytes = (508 * (100 - compress) // 100) * 8 & ~31
        pool = [splitmix64((key + i) & M) for i in range(8192 + 508)]
        out = bytearray()
        u = off - off % UNIT
        while u < off + length:
            out += unit(seed, key, pool, random_bytes, u)
            u += UNIT
        cut = off % UNIT
        sys.stdout.buffer.write(out[cut:cut + length])
    else:
        seed, pct = int(sys.argv[2]), int(sys.argv[3])
        mix = splitmix64(key_of(seed) ^ 0x6D69786D69786D69)
        offs = [int(o) for o in sys.argv[4:]] or [int(l.split()[0]) for l in sys.stdin]
        print(sum(1 for o in offs if (splitmix64(mix ^ o) * 100) >> 64 >= pct))


main()
