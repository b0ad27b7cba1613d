#!/usr/bin/env python3
"""Compares `fft3d bench` CSV files of an A/B run: for each size, kind and placement, each side's fft3d median per
round, the new/old ratio of each round, and cuFFT's new/old ratio as the control (it runs the same code on both
sides, so a ratio far from 1 there says the machine moved, not the change).

  tools/ab_compare.py DIR          # DIR holds old-<round>.csv and new-<round>.csv (tools/ab_bench.sh writes them)

Exit status 2 where a round lacks one side, or the rounds measured different sizes."""
import csv
import glob
import os
import sys


def refuse(message):
    print(f"ab_compare: {message}", file=sys.stderr)
    sys.exit(2)


def rows(path):
    """{(size, kind, placement, precision): (fft3d ms, cuFFT ms), or None where the result was not checked (the bench
    then timed nothing)} of one bench.csv."""
    table = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            key = (f"{r['nx']}x{r['ny']}x{r['nz']}", r["transform"], r["placement"], r["precision"])
            table[key] = (float(r["fft3d_ms"]), float(r["cufft_ms"])) if r["checked"] == "1" else None
    return table


def rounds(folder):
    """[(round name, old table, new table)] for every round with both sides."""
    found = []
    for old in sorted(glob.glob(os.path.join(folder, "old-*.csv"))):
        name = os.path.basename(old)[len("old-"):-len(".csv")]
        new = os.path.join(folder, f"new-{name}.csv")
        if not os.path.exists(new):
            refuse(f"round {name} has no {new}")
        found.append((name, rows(old), rows(new)))
    if not found:
        refuse(f"no old-<round>.csv in {folder}")
    return found


def main():
    if len(sys.argv) != 2:
        refuse(__doc__)
    measured = rounds(sys.argv[1])
    keys = list(measured[0][1])
    for name, old, new in measured:
        if set(old) != set(keys) or set(new) != set(keys):
            refuse(f"round {name} measured other sizes than round {measured[0][0]}")
    print(f"{'size':<16}{'kind':<5}{'placement':<14}{'prec':<6}"
          + "  ".join(f"{'old ms':>8} {'new ms':>8} {'new/old':>7} {'cuFFT n/o':>9}" for _ in measured))
    for key in keys:
        cells = []
        for _, old, new in measured:
            if old[key] is None or new[key] is None:
                cells.append(f"{'not checked: not timed':>35}")
                continue
            (o, oc), (n, nc) = old[key], new[key]
            cells.append(f"{o:8.4f} {n:8.4f} {n / o:7.3f} {nc / oc:9.3f}")
        size, kind, placement, precision = key
        print(f"{size:<16}{kind:<5}{placement:<14}{precision:<6}" + "  ".join(cells))


if __name__ == "__main__":
    main()
