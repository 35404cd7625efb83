"""sum_ints.py - the seeds' Python read-and-sum (shared/seeds 004), rebuilt
small: reads a text file of integers, one a line, through Python's buffered
text reader (8 KiB reads), and prints their sum.  Recorded with `iosweep
record` by docs/results/replay-seeds.sh, whose replay it is compared with.
"""
import sys

total = 0
with open(sys.argv[1]) as f:
    for line in f:
        total += int(line)
print(total)
