#!/usr/bin/env python3
"""The statistics of vmprof compare, computed independently with scipy/numpy.

The method is the one vmprof-compare(1) states in STATISTICS; this file
implements it from that text with scipy's distributions (t, beta, binom,
norm) and numpy, sharing no code with lib/compare/stats*.c. Where the C code
reasons by cases (Fieller's set, which bound is which), this file evaluates
the defining inequality instead.

As a module (for any test that has per-run values of a comparison):
    Side(value, samples, total, total_samples)   one side of one row
    row(a, b, alpha)          -> dict ratio, lo, hi, delta, dlo, dhi, p, basis
    bh(pvalues)               -> Benjamini-Hochberg q-values, same order
    event(a_rows, b_rows, alpha) -> row dicts plus q and significant
    aa_floor(a_rows, alpha)   -> rows flagged by the baseline's A/A split
    close(got, want, scale)   the agreement rule of the tests

As a program:
    stats_oracle.py check-driver DRIVER [--seed S] [--events N]
generates N seeded events (rows absent in some runs or on a side, zero
variance, one-run sides, unequal run counts, counts on both sides of the
exact/normal switch), feeds them to DRIVER (test/drivers/stats_driver.c) and
checks every number; exit 0 when all agree.
"""
import argparse
import math
import random
import subprocess
import sys

import numpy as np
from scipy import stats

# The smaller of the two pooled counts above which the one-run case uses the
# normal limit of the binomial (vmprof-compare(1), STATISTICS).
EXACT_MAX = 20000
REL = 1e-9


class Side:
    """One side of one row: per-run value, samples, event total value and
    event total samples."""

    def __init__(self, value, samples, total, total_samples):
        self.value = np.asarray(value, dtype=float)
        self.samples = np.asarray(samples, dtype=float)
        self.total = np.asarray(total, dtype=float)
        self.total_samples = np.asarray(total_samples, dtype=float)
        self.n = len(self.value)

    def shares(self):
        t = self.total
        return np.divide(self.value, t, out=np.zeros_like(self.value), where=t > 0)


def _t_isf(a, df):
    """The t quantile: scipy 1.10's t.isf (cdflib) is accurate to about 1e-9
    only, so it is polished by Newton steps on scipy's t.sf, which is exact to
    rounding."""
    x = stats.t.isf(a, df)
    for _ in range(3):
        x += (stats.t.sf(x, df) - a) / stats.t.pdf(x, df)
    return x


def _welch_df(se2a, na, se2b, nb):
    return (se2a + se2b) ** 2 / (se2a ** 2 / (na - 1) + se2b ** 2 / (nb - 1))


def _fieller(ma, va, mb, vb, tq):
    """Hull of {rho >= 0 : (mb - rho ma)^2 <= tq^2 (vb + rho^2 va)}, found by
    evaluating the inequality between the roots of its boundary."""
    def inside(r):
        return (mb - r * ma) ** 2 <= tq * tq * (vb + r * r * va)

    A = ma * ma - tq * tq * va
    h = ma * mb                              # the quadratic is A r^2 - 2 h r + C
    C = mb * mb - tq * tq * vb
    D = tq * tq * (ma * ma * vb + mb * mb * va - tq * tq * va * vb)   # h^2 - A C
    roots = []
    if A != 0 and D >= 0:
        s = math.sqrt(D)
        if h + s != 0:
            r1 = (h + s) / A
            roots = [r1, C / (A * r1) if r1 != 0 else 0.0]
        else:
            roots = [0.0]
    elif A == 0 and h != 0:
        roots = [C / (2 * h)]
    cuts = sorted(set([0.0] + [r for r in roots if r > 0]))
    pieces = [(c, c) for c in cuts if inside(c)]
    for i, left in enumerate(cuts):
        right = cuts[i + 1] if i + 1 < len(cuts) else math.inf
        mid = (left + right) / 2 if right < math.inf else 2 * left + 1
        if inside(mid):
            pieces.append((left, right))
    if not pieces:
        return math.inf, math.inf
    return min(p[0] for p in pieces), max(p[1] for p in pieces)


def _runs(a, b, alpha):
    out = {"basis": "runs"}
    ma, mb = a.value.mean(), b.value.mean()
    va, vb = a.value.var(ddof=1) / a.n, b.value.var(ddof=1) / b.n
    if ma == 0 and mb == 0:
        out.update(ratio=math.nan, lo=0.0, hi=math.inf, p=1.0)
    elif va + vb == 0:
        r = mb / ma if ma > 0 else math.inf
        out.update(ratio=r, lo=r, hi=r, p=1.0 if ma == mb else 0.0)
    else:
        df = _welch_df(va, a.n, vb, b.n)
        p = stats.ttest_ind(b.value, a.value, equal_var=False).pvalue
        lo, hi = _fieller(ma, va, mb, vb, _t_isf(alpha / 2, df))
        out.update(ratio=mb / ma if ma > 0 else math.inf, lo=lo, hi=hi, p=min(1.0, p))
    sa, sb = a.shares(), b.shares()
    d = 100 * (sb.mean() - sa.mean())
    se2a, se2b = sa.var(ddof=1) / a.n, sb.var(ddof=1) / b.n
    if se2a + se2b == 0:
        out.update(delta=d, dlo=d, dhi=d)
    else:
        half = 100 * _t_isf(alpha / 2, _welch_df(se2a, a.n, se2b, b.n)) * math.sqrt(se2a + se2b)
        out.update(delta=d, dlo=d - half, dhi=d + half)
    return out


def _sampling(a, b, alpha):
    out = {"basis": "sampling"}
    xa, xb = a.value.sum(), b.value.sum()
    ca = a.samples.sum() if xa > 0 else 0.0
    cb = b.samples.sum() if xb > 0 else 0.0
    z = stats.norm.isf(alpha / 2)
    sa = xa / a.total.sum() if a.total.sum() > 0 else 0.0
    sb = xb / b.total.sum() if b.total.sum() > 0 else 0.0
    na_, nb_ = a.total_samples.sum(), b.total_samples.sum()
    var = (sa * (1 - sa) / na_ if na_ > 0 else 0.0) + (sb * (1 - sb) / nb_ if nb_ > 0 else 0.0)
    d = 100 * (sb - sa)
    out.update(delta=d, dlo=d - 100 * z * math.sqrt(var), dhi=d + 100 * z * math.sqrt(var))
    if ca == 0 and cb == 0:
        out.update(ratio=math.nan, lo=0.0, hi=math.inf, p=1.0)
        return out
    wa = xa / ca if ca > 0 else xb / cb
    wb = xb / cb if cb > 0 else wa
    k = (wb / b.n) / (wa / a.n)
    out["ratio"] = (xb / b.n) / (xa / a.n) if xa > 0 else math.inf
    n = ca + cb
    pi0 = 1 / (1 + k)
    if min(ca, cb) > EXACT_MAX:
        # score test and Wilson's interval for pi, turned into odds
        zs = (cb - n * pi0) / math.sqrt(n * pi0 * (1 - pi0))
        out["p"] = 2 * stats.norm.sf(abs(zs))
        centre, spread = cb + z * z / 2, z * math.sqrt(cb * ca / n + z * z / 4)
        ccentre = ca + z * z / 2        # the same for 1 - pi
        out["lo"] = k * (centre - spread) / (ccentre + spread)
        out["hi"] = k * (centre + spread) / (ccentre - spread)
        return out
    le = stats.binom.cdf(cb, n, pi0)
    ge = stats.binom.sf(cb - 1, n, pi0)
    out["p"] = min(1.0, 2 * min(le, ge))
    # Clopper-Pearson; each bound's complement from the mirrored beta, so
    # that odds near 0 or infinity keep their digits
    if cb > 0:
        lo_pi = stats.beta.ppf(alpha / 2, cb, n - cb + 1)
        lo_c = stats.beta.isf(alpha / 2, n - cb + 1, cb)
        out["lo"] = k * lo_pi / lo_c
    else:
        out["lo"] = 0.0
    if ca > 0:
        hi_pi = stats.beta.isf(alpha / 2, cb + 1, n - cb)
        hi_c = stats.beta.ppf(alpha / 2, n - cb, cb + 1)
        out["hi"] = k * hi_pi / hi_c
    else:
        out["hi"] = math.inf
    return out


def row(a, b, alpha=0.05):
    """Side b against baseline a (Side objects) at confidence 1 - alpha."""
    if a.n >= 2 and b.n >= 2:
        return _runs(a, b, alpha)
    return _sampling(a, b, alpha)


def bh(pvalues):
    """Benjamini-Hochberg by its definition: q_i = min over p_j >= p_i of
    p_j n / rank_j, capped at 1."""
    n = len(pvalues)
    order = sorted(range(n), key=lambda i: (pvalues[i], i))
    rank = {i: r + 1 for r, i in enumerate(order)}
    return [min(1.0, min(pvalues[j] * n / rank[j] for j in range(n) if pvalues[j] >= pvalues[i]))
            for i in range(n)]


def event(a_rows, b_rows, alpha=0.05):
    """Every row of one event (lists of Side, row for row)."""
    res = [row(a, b, alpha) for a, b in zip(a_rows, b_rows)]
    for r, q in zip(res, bh([r["p"] for r in res])):
        r["q"] = q
        r["significant"] = int(q < alpha)
    return res


def aa_floor(a_rows, alpha=0.05):
    """Rows significant when the baseline's first floor(n/2) runs meet the
    rest; None with fewer than 4 runs."""
    n = a_rows[0].n if a_rows else 0
    if n < 4:
        return None
    h = n // 2

    def part(s, sl):
        return Side(s.value[sl], s.samples[sl], s.total[sl], s.total_samples[sl])
    first = [part(s, slice(0, h)) for s in a_rows]
    rest = [part(s, slice(h, n)) for s in a_rows]
    return sum(r["significant"] for r in event(first, rest, alpha))


def close(got, want, scale=0.0):
    """Agreement: infinities, NaN and exact zeros must match exactly; other
    values to REL relative to the larger of the two and of scale (the
    magnitude of the quantity a bound belongs to)."""
    if math.isnan(want) or math.isnan(got):
        return math.isnan(want) and math.isnan(got)
    if max(abs(got), abs(want)) < 1e-300:
        return True     # near and below the subnormals digits run out; 0 to any use
    if math.isinf(want) or math.isinf(got) or want == 0 or got == 0:
        if want == got:
            return True
        # a bound or p that is exactly 0 on one side may be a denormal-sized
        # rounding of 0 on the other only when it is negligible on the scale
        return abs(got - want) <= REL * scale if scale > 0 and not math.isinf(want + got) else False
    return abs(got - want) <= REL * max(abs(got), abs(want), scale)


def _scale(*vals):
    return max([abs(v) for v in vals if not math.isnan(v) and not math.isinf(v)] + [0.0])


# ---- generated cases and the driver --------------------------------------

def _gen_event(rng):
    """One event: sides A and B with per-run values of several rows."""
    kind = rng.choice(["runs", "runs", "runs", "one_a", "one_b", "one_both"])
    na = 1 if kind in ("one_a", "one_both") else rng.randint(2, 8)
    nb = 1 if kind in ("one_b", "one_both") else rng.randint(2, 8)
    if kind == "runs" and rng.random() < 0.3:
        na = rng.randint(4, 10)         # enough for the A/A floor
    nrows = rng.randint(1, 25)
    value_is_samples = rng.random() < 0.25
    big = kind != "runs" and rng.random() < 0.35   # counts near and past the normal switch
    alpha = rng.choice([0.05, 0.05, 0.01, 0.1])
    period = rng.choice([1, 1000, 250000])

    def counts(n, rate, spread, present):
        out = []
        for _ in range(n):
            if rng.random() >= present:
                out.append(0)
                continue
            lam = max(0.0, rng.gauss(rate, spread * rate))
            out.append(int(np.random.default_rng(rng.getrandbits(32)).poisson(lam)))
        return out

    rows = []
    for _ in range(nrows):
        style = rng.random()
        if big:
            base = rng.choice([rng.uniform(1e4, 4e4), rng.uniform(2e4, 2e6), rng.uniform(1, 50)])
        else:
            base = math.exp(rng.uniform(0, math.log(5000)))
        ratio = rng.choice([1, 1, 1, 1.1, 1.5, 2, 0.5, 0.9])
        spread = rng.choice([0, 0.02, 0.1, 0.3])
        pa, pb = 1.0, 1.0
        if style < 0.15:
            pa, pb = rng.choice([(0.0, 1.0), (1.0, 0.0), (0.0, 0.0)])   # absent on a side
        elif style < 0.35:
            pa, pb = rng.uniform(0.3, 0.9), rng.uniform(0.3, 0.9)     # absent in some runs
        ca = counts(na, base, spread, pa)
        cb = counts(nb, base * ratio, spread, pb)
        if style > 0.9 and kind == "runs":
            c = max(1, int(base))                                       # zero variance
            ca = [c] * na
            cb = [c if rng.random() < 0.5 else int(c * ratio) + 1] * nb
        # samples that weigh 0 on a side (a tracepoint field such as bytes read)
        weightless = rng.choice([(1, 0), (0, 1), (0, 0)]) if 0.35 <= style < 0.4 else (0, 0)
        rows.append((ca, cb, weightless))

    def values(cs, weightless):
        if value_is_samples:
            return [float(c) for c in cs]
        # each sample carries period plus jitter, as cpu-clock's do
        return [0.0 if w else
                float(sum(period + rng.randint(0, period // 10) for _ in range(c))) if c < 200
                else float(c * period + rng.randint(0, c * (period // 10) + 1))
                for c, w in zip(cs, weightless)]

    va = [values([r[0][i] for r in rows], [r[2][0] for r in rows]) for i in range(na)]
    vb = [values([r[1][i] for r in rows], [r[2][1] for r in rows]) for i in range(nb)]
    # event totals: the listed rows plus other rows' mass (sometimes none)
    def totals(vals, cs_by_run):
        t, tc = [], []
        for run_vals, run_cs in zip(vals, cs_by_run):
            extra = rng.choice([0, rng.randint(0, 10 * period + 10)]) * rng.randint(0, 50)
            xc = extra // max(period, 1) if not value_is_samples else extra
            t.append(float(sum(run_vals) + (xc if value_is_samples else extra)))
            tc.append(float(sum(run_cs) + xc))
        return t, tc

    ta, tca = totals(va, [[r[0][i] for r in rows] for i in range(na)])
    tb, tcb = totals(vb, [[r[1][i] for r in rows] for i in range(nb)])
    a_rows = [Side([va[i][j] for i in range(na)], rows[j][0], ta, tca) for j in range(nrows)]
    b_rows = [Side([vb[i][j] for i in range(nb)], rows[j][1], tb, tcb) for j in range(nrows)]
    return alpha, a_rows, b_rows


def _driver_text(alpha, a_rows, b_rows):
    def nums(v):
        return " ".join(repr(float(x)) for x in v)
    a0, b0 = a_rows[0], b_rows[0]
    lines = [f"case {len(a_rows)} {a0.n} {b0.n} {alpha!r}",
             f"tA {nums(a0.total)}", f"tcA {nums(a0.total_samples)}",
             f"tB {nums(b0.total)}", f"tcB {nums(b0.total_samples)}"]
    for a, b in zip(a_rows, b_rows):
        lines.append(f"r {nums(a.value)} {nums(a.samples)} {nums(b.value)} {nums(b.samples)}")
    return "\n".join(lines) + "\n"


def check_driver(driver, seed, nevents):
    rng = random.Random(seed)
    events = [_gen_event(rng) for _ in range(nevents)]
    text = "".join(_driver_text(*e) for e in events)
    out = subprocess.run([driver], input=text, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"driver exited {out.returncode}: {out.stderr.strip()}")
    lines = out.stdout.splitlines()
    at, bad, nrows, seen = 0, 0, 0, {"runs": 0, "sampling": 0, "normal": 0, "inf": 0,
                                     "nan": 0, "signif": 0, "floor": 0}
    for e, (alpha, a_rows, b_rows) in enumerate(events):
        want = event(a_rows, b_rows, alpha)
        for j, w in enumerate(want):
            f = lines[at].split()
            at += 1
            nrows += 1
            if f[0] != "row":
                sys.exit(f"event {e}: driver said {lines[at - 1]!r}")
            g = dict(zip(["ratio", "lo", "hi", "delta", "dlo", "dhi", "p", "q"], map(float, f[1:9])))
            g["significant"], g["basis"] = int(f[9]), f[10]
            rs = _scale(w["ratio"], w["lo"], w["hi"])
            ds = _scale(w["delta"], w["dlo"], w["dhi"])
            checks = [(k, close(g[k], w[k], rs)) for k in ("ratio", "lo", "hi")]
            checks += [(k, close(g[k], w[k], ds)) for k in ("delta", "dlo", "dhi")]
            checks += [(k, close(g[k], w[k])) for k in ("p", "q")]
            checks += [("significant", g["significant"] == w["significant"]),
                       ("basis", g["basis"] == w["basis"])]
            # the interval excludes 1 exactly when the test rejects (unless p
            # is alpha to rounding)
            if abs(g["p"] - alpha) > 1e-9 * alpha:
                checks.append(("interval vs p", (g["lo"] > 1 or g["hi"] < 1) == (g["p"] < alpha)))
            wrong = [k for k, ok in checks if not ok]
            if wrong:
                bad += 1
                if bad <= 20:
                    a, b = a_rows[j], b_rows[j]
                    print(f"event {e} row {j} ({w['basis']}, alpha {alpha}): " +
                          ", ".join(f"{k} got {g.get(k)!r} want {w.get(k)!r}" for k in wrong))
                    print(f"  A value {list(a.value)} samples {list(a.samples)}")
                    print(f"  B value {list(b.value)} samples {list(b.samples)}")
            seen[w["basis"]] += 1
            seen["inf"] += math.isinf(w["hi"])
            seen["nan"] += math.isnan(w["ratio"])
            seen["signif"] += w["significant"]
            if w["basis"] == "sampling" and min(a_rows[j].samples.sum(), b_rows[j].samples.sum()) > EXACT_MAX:
                seen["normal"] += 1
        f = lines[at].split()
        at += 1
        floor = aa_floor(a_rows, alpha)
        got = None if f[1] == "-" else int(f[1])
        if f[0] != "floor" or got != floor:
            bad += 1
            print(f"event {e}: A/A floor got {lines[at - 1]!r} want {floor}")
        seen["floor"] += floor is not None
    print(f"{nevents} events, {nrows} rows: {seen['runs']} on runs, {seen['sampling']} on "
          f"sampling ({seen['normal']} past the normal switch), {seen['inf']} unbounded, "
          f"{seen['nan']} without a ratio, {seen['signif']} significant, "
          f"{seen['floor']} A/A floors; {bad} disagree")
    return bad == 0 and at == len(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check-driver")
    c.add_argument("driver")
    c.add_argument("--seed", type=int, default=18)
    c.add_argument("--events", type=int, default=300)
    args = ap.parse_args()
    sys.exit(0 if check_driver(args.driver, args.seed, args.events) else 1)


if __name__ == "__main__":
    main()
