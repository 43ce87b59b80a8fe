#!/usr/bin/env python3
"""Plots the per-problem speedup of the tc-rewrite GEMMs over cuBLAS.

Reads the CSV that gemm_bench writes (--csv) and draws, for one shape set
(default: paper), each function's speedup (cuBLAS time / tc time, the CSV's
`ratio`) over the problems sorted ascending -- one line per function, like
the seed paper's Figs. 18-21. Rows that did not PASS their check have no
ratio and are left out (the legend gives the count).

Also plots the fused-idiom benchmark's CSV (fused_bench --csv): --where
idiom=NAME keeps one idiom's rows, --ratio lib_ratio,lt_ratio picks the
ratio column(s) (one line per function and column), --ylabel names the
baseline.

Uses matplotlib when it can be imported; otherwise renders the plot itself
into a pixel array and writes the PNG with zlib (standard library only), so
it works on a bare GPU machine.

Usage: plot.py CSV PNG [--set paper] [--title TEXT] [--no-matplotlib]
               [--ratio COL[,COL...]] [--where COL=VALUE]... [--ylabel TEXT]
"""
import argparse
import csv
import math
import struct
import sys
import zlib
from collections import OrderedDict

COLORS = [  # RGB, distinguishable, colour-blind friendly first
    (0, 114, 178), (213, 94, 0), (0, 158, 115), (204, 121, 167),
    (230, 159, 0), (86, 180, 233), (120, 120, 120), (0, 0, 0),
]


def load(csv_path, set_name, ratio_cols=("ratio",), where=()):
    """Returns OrderedDict series -> sorted list of ratios, and series ->
    #rows. A series is a function, or "function vs column" when there are
    several ratio columns; `where` is a list of (column, value) filters."""
    series, total = OrderedDict(), OrderedDict()
    with open(csv_path, newline="") as f:
        for row in csv.DictReader(f):
            if row.get("set") != set_name:
                continue
            if any(row.get(k) != v for k, v in where):
                continue
            for col in ratio_cols:
                if col not in row:
                    continue
                key = row["func"] if len(ratio_cols) == 1 else "%s vs %s" % (
                    row["func"], col.replace("_ratio", ""))
                series.setdefault(key, [])
                total[key] = total.get(key, 0) + 1
                try:
                    r = float(row.get(col) or "nan")
                except ValueError:
                    continue
                if row.get("check") == "PASS" and math.isfinite(r) and r > 0:
                    series[key].append(r)
    # A further ratio column that is empty on every row (no such baseline)
    # is no series.
    if len(ratio_cols) > 1:
        extra = tuple(" vs %s" % c.replace("_ratio", "") for c in ratio_cols[1:])
        for key in [k for k, v in series.items() if not v and k.endswith(extra)]:
            del series[key]
            del total[key]
    for v in series.values():
        v.sort()
    return series, total


def geomean(v):
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else float("nan")


def label(func, v, n):
    s = "%s  geomean %.2f" % (func, geomean(v)) if v else "%s  no PASS rows" % func
    if len(v) != n:
        s += "  (%d/%d plotted)" % (len(v), n)
    return s


def nice_step(span, target=8):
    raw = span / target
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * mag:
            return m * mag
    return 10 * mag


def tick_decimals(step):
    for d in range(4):
        if abs(step * 10 ** d - round(step * 10 ** d)) < 1e-6:
            return d
    return 4


def y_range(series):
    vals = [x for v in series.values() for x in v] or [1.0]
    top = max(1.1, max(vals) * 1.05)
    step = nice_step(top)
    return 0.0, math.ceil(top / step) * step, step


# --- matplotlib ------------------------------------------------------------
def plot_matplotlib(series, total, png, title, ylabel=None):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(10, 6), dpi=100)
    for i, (func, v) in enumerate(series.items()):
        c = tuple(x / 255 for x in COLORS[i % len(COLORS)])
        ax.plot(range(1, len(v) + 1), v, marker="o", markersize=2.5,
                linewidth=1.5, color=c, label=label(func, v, total[func]))
    ax.axhline(1.0, color="black", linestyle="--", linewidth=1)
    lo, hi, _ = y_range(series)
    ax.set_ylim(lo, hi)
    ax.set_xlabel("problem (sorted by speedup)")
    ax.set_ylabel(ylabel or "speedup over cuBLAS (cuBLAS time / tc time)")
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper left", fontsize=9)
    fig.tight_layout()
    fig.savefig(png)


# --- Fallback: tiny raster renderer + PNG writer -------------------------------
# 5x7 bitmap font; each glyph is 7 rows of 5 bits (MSB = leftmost column).
# Lower-case letters are drawn as capitals.
FONT = {
    "0": (0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E),
    "1": (0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E),
    "2": (0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F),
    "3": (0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E),
    "4": (0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02),
    "5": (0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E),
    "6": (0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E),
    "7": (0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08),
    "8": (0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E),
    "9": (0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C),
    "A": (0x0E, 0x11, 0x11, 0x11, 0x1F, 0x11, 0x11),
    "B": (0x1E, 0x11, 0x11, 0x1E, 0x11, 0x11, 0x1E),
    "C": (0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E),
    "D": (0x1C, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1C),
    "E": (0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F),
    "F": (0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10),
    "G": (0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F),
    "H": (0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11),
    "I": (0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E),
    "J": (0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C),
    "K": (0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11),
    "L": (0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F),
    "M": (0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11),
    "N": (0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11),
    "O": (0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E),
    "P": (0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10),
    "Q": (0x0E, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0D),
    "R": (0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11),
    "S": (0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E),
    "T": (0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04),
    "U": (0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E),
    "V": (0x11, 0x11, 0x11, 0x11, 0x11, 0x0A, 0x04),
    "W": (0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0A),
    "X": (0x11, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x11),
    "Y": (0x11, 0x11, 0x11, 0x0A, 0x04, 0x04, 0x04),
    "Z": (0x1F, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1F),
    " ": (0, 0, 0, 0, 0, 0, 0),
    ".": (0, 0, 0, 0, 0, 0x0C, 0x0C),
    ",": (0, 0, 0, 0, 0x0C, 0x04, 0x08),
    "-": (0, 0, 0, 0x1F, 0, 0, 0),
    "_": (0, 0, 0, 0, 0, 0, 0x1F),
    ":": (0, 0x0C, 0x0C, 0, 0x0C, 0x0C, 0),
    "/": (0, 0x01, 0x02, 0x04, 0x08, 0x10, 0),
    "(": (0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02),
    ")": (0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08),
    "=": (0, 0, 0x1F, 0, 0x1F, 0, 0),
    ">": (0x08, 0x04, 0x02, 0x01, 0x02, 0x04, 0x08),
    "<": (0x02, 0x04, 0x08, 0x10, 0x08, 0x04, 0x02),
    "+": (0, 0x04, 0x04, 0x1F, 0x04, 0x04, 0),
    "*": (0, 0x04, 0x15, 0x0E, 0x15, 0x04, 0),
    "^": (0x04, 0x0A, 0x11, 0, 0, 0, 0),
    "%": (0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03),
    "?": (0x0E, 0x11, 0x01, 0x02, 0x04, 0, 0x04),
}


class Canvas:
    def __init__(self, w, h, bg=(255, 255, 255)):
        self.w, self.h = w, h
        self.px = bytearray(bytes(bg) * (w * h))

    def set(self, x, y, c):
        if 0 <= x < self.w and 0 <= y < self.h:
            i = 3 * (y * self.w + x)
            self.px[i:i + 3] = bytes(c)

    def rect(self, x0, y0, x1, y1, c):
        for y in range(max(0, y0), min(self.h, y1 + 1)):
            for x in range(max(0, x0), min(self.w, x1 + 1)):
                self.set(x, y, c)

    def line(self, x0, y0, x1, y1, c, width=1, dash=0):
        dx, dy = abs(x1 - x0), -abs(y1 - y0)
        sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
        err, n = dx + dy, 0
        r = width // 2
        while True:
            if not dash or (n // dash) % 2 == 0:
                self.rect(x0 - r, y0 - r, x0 - r + width - 1, y0 - r + width - 1, c)
            n += 1
            if x0 == x1 and y0 == y1:
                break
            e2 = 2 * err
            if e2 >= dy:
                err += dy
                x0 += sx
            if e2 <= dx:
                err += dx
                y0 += sy

    def text(self, x, y, s, c=(0, 0, 0), scale=2):
        """Draws s with its top-left corner at (x, y); returns the width."""
        x0 = x
        for ch in s:
            g = FONT.get(ch.upper(), FONT["?"])
            for row, bits in enumerate(g):
                for col in range(5):
                    if bits & (0x10 >> col):
                        self.rect(x + col * scale, y + row * scale,
                                  x + col * scale + scale - 1,
                                  y + row * scale + scale - 1, c)
            x += 6 * scale
        return x - x0

    def text_vertical(self, x, y, s, c=(0, 0, 0), scale=2):
        """Draws s rotated 90 degrees counter-clockwise, reading bottom-up
        from (x, y)."""
        for ch in s:
            g = FONT.get(ch.upper(), FONT["?"])
            for row, bits in enumerate(g):
                for col in range(5):
                    if bits & (0x10 >> col):
                        px, py = x + row * scale, y - col * scale
                        self.rect(px, py - scale + 1, px + scale - 1, py, c)
            y -= 6 * scale

    def png(self, path):
        raw = b"".join(b"\x00" + bytes(self.px[3 * y * self.w:3 * (y + 1) * self.w])
                       for y in range(self.h))

        def chunk(tag, data):
            return (struct.pack(">I", len(data)) + tag + data +
                    struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF))

        with open(path, "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n")
            f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", self.w, self.h, 8, 2, 0, 0, 0)))
            f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
            f.write(chunk(b"IEND", b""))


def plot_builtin(series, total, png, title, ylabel=None):
    W, H = 1000, 620
    left, right, top, bottom = 90, 30, 50, 70
    cv = Canvas(W, H)
    pw, ph = W - left - right, H - top - bottom
    lo, hi, step = y_range(series)
    n_max = max([len(v) for v in series.values()] + [2])

    def ypix(v):
        return int(round(top + ph - (v - lo) / (hi - lo) * ph))

    def xpix(i, n):  # i in 0..n-1, spread over the full width
        return int(round(left + (i / max(1, n - 1)) * pw)) if n > 1 else left + pw // 2

    grid, axis = (225, 225, 225), (0, 0, 0)
    t = lo
    while t <= hi + 1e-9:
        y = ypix(t)
        cv.line(left, y, left + pw, y, grid)
        s = "%.*f" % (tick_decimals(step), t)
        cv.text(left - 8 - 12 * len(s), y - 7, s)
        t += step
    xstep = nice_step(n_max - 1 if n_max > 1 else 1, 10)
    xstep = max(1, int(round(xstep)))
    for i in range(0, n_max, xstep):
        x = xpix(i, n_max)
        cv.line(x, top, x, top + ph, grid)
        s = str(i + 1)
        cv.text(x - 6 * len(s), top + ph + 8, s)
    cv.line(left, ypix(1.0), left + pw, ypix(1.0), axis, width=1, dash=6)
    cv.line(left, top, left, top + ph, axis)
    cv.line(left, top + ph, left + pw, top + ph, axis)
    cv.line(left, top, left + pw, top, axis)
    cv.line(left + pw, top, left + pw, top + ph, axis)

    for k, (func, v) in enumerate(series.items()):
        c = COLORS[k % len(COLORS)]
        # Lines are drawn over each function's own x extent so that series
        # with different numbers of PASS rows still span the plot.
        pts = [(xpix(i, len(v)), ypix(r)) for i, r in enumerate(v)]
        for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
            cv.line(x0, y0, x1, y1, c, width=2)
        for x, y in pts:
            cv.rect(x - 2, y - 2, x + 2, y + 2, c)

    # Legend, top-left inside the plot.
    lx, ly = left + 12, top + 12
    labels = [label(f, v, total[f]) for f, v in series.items()]
    lw = max([12 * len(s) for s in labels] + [0]) + 50
    cv.rect(lx - 6, ly - 6, lx + lw, ly + 22 * len(labels), (255, 255, 255))
    for k, s in enumerate(labels):
        c = COLORS[k % len(COLORS)]
        cv.rect(lx, ly + 22 * k + 4, lx + 28, ly + 22 * k + 9, c)
        cv.text(lx + 38, ly + 22 * k, s)

    cv.text(max(4, (W - 12 * len(title)) // 2), 16, title)
    xl = "problem (sorted by speedup)"
    cv.text(left + (pw - 12 * len(xl)) // 2, H - 30, xl)
    yl = ylabel or "speedup over cuBLAS"
    cv.text_vertical(20, top + (ph + 12 * len(yl)) // 2, yl)
    cv.png(png)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("png")
    ap.add_argument("--set", default="paper")
    ap.add_argument("--title", default=None)
    ap.add_argument("--no-matplotlib", action="store_true",
                    help="use the built-in renderer even if matplotlib exists")
    ap.add_argument("--ratio", default="ratio",
                    help="ratio column(s), comma-separated (default: ratio)")
    ap.add_argument("--where", action="append", default=[],
                    metavar="COL=VALUE", help="keep only rows with COL == VALUE")
    ap.add_argument("--ylabel", default=None)
    a = ap.parse_args()

    where = []
    for w in a.where:
        if "=" not in w:
            ap.error("--where takes COL=VALUE, not %r" % w)
        where.append(tuple(w.split("=", 1)))
    ratio_cols = tuple(c for c in a.ratio.split(",") if c)
    series, total = load(a.csv, a.set, ratio_cols, where)
    if not series:
        print("plot.py: no rows for set '%s'%s in %s; no plot" % (
            a.set, "".join(" %s=%s" % w for w in where), a.csv),
              file=sys.stderr)
        return 1
    title = a.title or "tc-rewrite vs cuBLAS: %s set" % a.set

    how = "built-in renderer"
    if not a.no_matplotlib:
        try:
            import matplotlib  # noqa: F401
            how = "matplotlib"
        except Exception:
            pass
    if how == "matplotlib":
        plot_matplotlib(series, total, a.png, title, a.ylabel)
    else:
        plot_builtin(series, total, a.png, title, a.ylabel)
    print("plot.py: wrote %s (%s, set %s: %s)" % (
        a.png, how, a.set,
        ", ".join("%s %d pts" % (f, len(v)) for f, v in series.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
