#!/usr/bin/env python3
"""Plots of `fft3d bench` results in the style of Wu & JaJa's Figures 3-8: GFlops and bandwidth by size, fft3d
against cuFFT measured in the same run.

    python3 tools/plot_bench.py bench-out/bench.csv [--out DIR]     (needs matplotlib: apt-get install python3-matplotlib)

Writes gflops.png and bandwidth.png next to the CSV (or into --out). Rows that were not checked are left out.
"""
import argparse
import csv
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_rows(path):
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["checked"] == "1"]
    if not rows:
        raise SystemExit(f"plot_bench: no checked rows in {path}")
    return rows


def bar_chart(rows, series, ylabel, title, path):
    labels = [f"{r['nx']}x{r['ny']}x{r['nz']}" for r in rows]
    width = 0.8 / len(series)
    fig, ax = plt.subplots(figsize=(max(8, len(rows) * 0.9), 4.5))
    for i, (column, name) in enumerate(series):
        xs = [j + (i - (len(series) - 1) / 2) * width for j in range(len(rows))]
        ax.bar(xs, [float(r[column]) for r in rows], width, label=name)
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels(labels, rotation=35, ha="right")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend()
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    print(f"plot_bench: wrote {path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("--out", default=None, help="folder for the PNG files (default: the CSV's folder)")
    args = parser.parse_args()
    rows = read_rows(args.csv)
    out = args.out or os.path.dirname(os.path.abspath(args.csv))
    os.makedirs(out, exist_ok=True)
    gpu, order = rows[0]["gpu"], rows[0]["order"]
    bar_chart(rows, [("fft3d_gflops", "fft3d"), ("cufft_gflops", "cuFFT C2C")], "GFlops (5 N log2 N / t)",
              f"3D FFT, fp32 complex, {order} order, {gpu}", os.path.join(out, "gflops.png"))
    bar_chart(rows, [("fft3d_gbs", "fft3d: bytes its passes move / t"),
                     ("fft3d_volume_gbs", "fft3d: one read+write of the volume / t"),
                     ("cufft_volume_gbs", "cuFFT: one read+write of the volume / t"),
                     ("memcpy_gbs", "memcpy (same run)")],
              "GB/s", f"Bandwidth, {order} order, {gpu}", os.path.join(out, "bandwidth.png"))


if __name__ == "__main__":
    main()
