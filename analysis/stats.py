"""The statistics of the reports: confidence intervals that every number carries.

The quantiles, Wilson intervals and bootstraps are scipy.stats' (t.ppf, binomtest's
proportion_ci, bootstrap); what is ours is what scipy does not have (the cluster ratio
estimator, the variance decomposition) or where ours is measurably faster at our sizes
(`trimmed_mean_ci`'s vectorised bootstrap, tested against scipy's). Tested on synthetic
data with known answers. Every interval is returned as a `CI`.

Rows of a simulation dataset are not independent: the seats of one game, and the hands of
one game, share a deal and a history. Games are independent of each other, so the
reports estimate a mean over rows as a *ratio estimator over clusters* of whole games
(`ratio_ci`): a cluster is a game, or a batch of games (`game % B`, batch means) when there
are many, which keeps the aggregation small without understating the uncertainty.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats as _sps

__all__ = [
    "CI", "z_quantile", "t_quantile", "mean_ci", "proportion_ci", "paired_diff_ci",
    "diff_means_ci", "bootstrap_ci", "ratio_ci", "sd_ci", "variance_decomposition",
    "ols_slope_ci", "TRIM", "trimmed_mean", "hodges_lehmann", "trimmed_mean_ci",
]


@dataclass(frozen=True)
class CI:
    """An estimate with a two-sided confidence interval [lo, hi]."""

    estimate: float
    lo: float
    hi: float
    se: float = float("nan")
    n: int = 0
    conf: float = 0.95

    @property
    def half_width(self) -> float:
        return (self.hi - self.lo) / 2

    @property
    def significant(self) -> bool:
        """True when the interval excludes 0."""
        return bool(self.lo > 0 or self.hi < 0)

    def contains(self, value: float) -> bool:
        return bool(self.lo <= value <= self.hi)

    def fmt(self, digits: int = 2) -> str:
        return f"{self.estimate:.{digits}f} [{self.lo:.{digits}f}, {self.hi:.{digits}f}]"

    def as_dict(self, prefix: str = "") -> dict:
        return {f"{prefix}est": self.estimate, f"{prefix}lo": self.lo, f"{prefix}hi": self.hi,
                f"{prefix}se": self.se, f"{prefix}n": self.n}


_NAN = float("nan")


def _empty(n: int = 0, conf: float = 0.95) -> CI:
    return CI(_NAN, _NAN, _NAN, _NAN, n, conf)


# ------------------------------------------------------------------ distributions
def z_quantile(conf: float = 0.95) -> float:
    """The two-sided normal critical value: 1.96 for 95%."""
    return float(_sps.norm.ppf(0.5 + conf / 2))


def t_quantile(conf: float = 0.95, df: float = 1e9) -> float:
    """The two-sided Student t critical value (12.706 for 95% and 1 df; scipy's t.ppf);
    the normal one where df is not a positive finite number."""
    if not (df > 0 and math.isfinite(df)):
        return z_quantile(conf)
    return float(_sps.t.ppf(0.5 + conf / 2, df))


# ------------------------------------------------------------------ means and proportions
def mean_ci(x, conf: float = 0.95, method: str = "t") -> CI:
    """Mean of independent values with a t (or normal, method="normal") interval."""
    x = np.asarray(x, dtype=float)
    x = x[np.isfinite(x)]
    n = len(x)
    if n == 0:
        return _empty(0, conf)
    m = float(x.mean())
    if n == 1:
        return CI(m, _NAN, _NAN, _NAN, 1, conf)
    se = float(x.std(ddof=1) / math.sqrt(n))
    q = t_quantile(conf, n - 1) if method == "t" else z_quantile(conf)
    return CI(m, m - q * se, m + q * se, se, n, conf)


def proportion_ci(k, n, conf: float = 0.95) -> CI:
    """Wilson score interval for k successes in n independent trials (fine at k = 0):
    scipy's binomtest(k, n).proportion_ci(method="wilson"). A k that is not whole (ties
    counted as half a win) goes through the same formula, written out here."""
    n = int(n)
    if n <= 0:
        return _empty(0, conf)
    k = float(k)
    p = k / n
    se = math.sqrt(max(p * (1 - p), 0) / n)
    if k == int(k) and 0 <= k <= n:
        lo, hi = _sps.binomtest(int(k), n).proportion_ci(conf, method="wilson")
        return CI(p, float(lo), float(hi), se, n, conf)
    z = z_quantile(conf)
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0)) / denom
    return CI(p, max(0.0, centre - half), min(1.0, centre + half), se, n, conf)


def paired_diff_ci(a, b, conf: float = 0.95) -> CI:
    """Mean of a - b over pairs (the same deal played two ways), with a t interval."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape:
        raise ValueError("paired samples must have the same length")
    d = a - b
    n = len(d)
    if n and np.all(d == d[0]):  # an exact difference: no uncertainty at all
        return CI(float(d[0]), float(d[0]), float(d[0]), 0.0, n, conf)
    return mean_ci(d, conf)


def diff_means_ci(a, b, conf: float = 0.95) -> CI:
    """Difference of means of two independent samples (Welch's t interval)."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    na, nb = len(a), len(b)
    if na < 2 or nb < 2:
        return _empty(na + nb, conf)
    va, vb = a.var(ddof=1) / na, b.var(ddof=1) / nb
    se = math.sqrt(va + vb)
    est = float(a.mean() - b.mean())
    if se == 0:
        return CI(est, est, est, 0.0, na + nb, conf)
    df = (va + vb) ** 2 / (va * va / (na - 1) + vb * vb / (nb - 1))
    q = t_quantile(conf, df)
    return CI(est, est - q * se, est + q * se, se, na + nb, conf)


def bootstrap_ci(x, stat=np.mean, reps: int = 1000, conf: float = 0.95, seed: int = 0,
                 axis_stat: bool = False) -> CI:
    """Percentile bootstrap interval of stat(x) over resamples of the rows of x (seeded):
    scipy.stats.bootstrap.

    `x` may be 1-D or 2-D (rows resampled together, e.g. paired columns). With
    `axis_stat=True`, `stat(sample)` receives an array of shape (reps, n, ...) at once
    and returns `reps` values (fast); otherwise it is called once per resample.
    """
    x = np.asarray(x, dtype=float)
    n = len(x)
    if n < 2:
        return _empty(n, conf)
    est = float(stat(x[None])[0]) if axis_stat else float(stat(x))
    columns = (x,) if x.ndim == 1 else tuple(np.moveaxis(x, 0, -1).reshape(-1, n))
    shape = x.shape[1:]

    def statistic(*cols, axis=-1):
        # each column (..., n): back to rows (..., n, *shape) as `stat` takes them
        return stat(cols[0] if x.ndim == 1 else
                    np.stack(cols, axis=-1).reshape(*cols[0].shape, *shape))

    width = max(x[0].size if x.ndim > 1 else 1, 1)
    res = _sps.bootstrap(columns, statistic, n_resamples=reps, confidence_level=conf,
                         method="percentile", paired=True, vectorized=axis_stat,
                         batch=max(1, min(reps, 20_000_000 // (n * width))),
                         rng=np.random.default_rng(seed))
    lo, hi = res.confidence_interval
    return CI(est, float(lo), float(hi), float(res.standard_error), n, conf)


def ratio_ci(sums, counts, conf: float = 0.95) -> CI:
    """Mean over rows = sum(sums) / sum(counts), with a cluster-robust interval.

    `sums[c]` and `counts[c]` are the total of a value and the number of rows in cluster c
    (a game or a batch of games). The standard error is the linearised (delta-method)
    one of the ratio estimator, with a t quantile on clusters - 1 degrees of freedom; it
    stays right when rows within a cluster are correlated.
    """
    s = np.asarray(sums, dtype=float)
    c = np.asarray(counts, dtype=float)
    keep = c > 0
    s, c = s[keep], c[keep]
    g = len(s)
    total = c.sum()
    if g == 0 or total == 0:
        return _empty(0, conf)
    r = float(s.sum() / total)
    if g == 1:
        return CI(r, _NAN, _NAN, _NAN, int(total), conf)
    resid = s - r * c
    cbar = total / g
    se = float(math.sqrt((resid ** 2).sum() / (g * (g - 1))) / cbar)
    q = t_quantile(conf, g - 1)
    return CI(r, r - q * se, r + q * se, se, int(total), conf)


def sd_ci(x=None, conf: float = 0.95, *, n=None, s1=None, s2=None, s3=None, s4=None) -> CI:
    """Standard deviation with a delta-method interval that allows for kurtosis.

    Give the values `x`, or their count and power sums n, s1 = sum x, ... s4 = sum x**4
    (what a lazy aggregation returns). se(sd) = sqrt((m4 - m2**2) / n) / (2 sd).
    """
    if x is not None:
        x = np.asarray(x, dtype=float)
        n, s1, s2, s3, s4 = len(x), x.sum(), (x ** 2).sum(), (x ** 3).sum(), (x ** 4).sum()
    n = int(n or 0)
    if n < 3:
        return _empty(n, conf)
    m = s1 / n
    m2 = s2 / n - m * m
    m4 = s4 / n - 4 * m * s3 / n + 6 * m * m * s2 / n - 3 * m ** 4
    var = m2 * n / (n - 1)
    sd = math.sqrt(max(var, 0.0))
    if sd == 0:
        return CI(0.0, 0.0, 0.0, 0.0, n, conf)
    se = math.sqrt(max(m4 - m2 * m2, 0.0) / n) / (2 * sd)
    z = z_quantile(conf)
    return CI(sd, max(0.0, sd - z * se), sd + z * se, se, n, conf)


def ols_slope_ci(x, y, clusters=None, conf: float = 0.95) -> CI:
    """Least-squares slope of y on x with a (cluster-)robust sandwich interval."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    n = len(x)
    if n < 3:
        return _empty(n, conf)
    xc = x - x.mean()
    sxx = float((xc * xc).sum())
    if sxx == 0:
        return _empty(n, conf)
    beta = float((xc * (y - y.mean())).sum() / sxx)
    u = xc * (y - y.mean() - beta * xc)
    if clusters is None:
        meat, g = float((u * u).sum()), n
    else:
        _, inv = np.unique(np.asarray(clusters), return_inverse=True)
        per = np.bincount(inv, weights=u)
        meat, g = float((per * per).sum()), len(per)
    se = math.sqrt(meat * g / max(g - 1, 1)) / sxx
    q = t_quantile(conf, g - 1)
    return CI(beta, beta - q * se, beta + q * se, se, n, conf)


# ------------------------------------------------------------------ variance decomposition
def variance_decomposition(y, factors: dict, adjusted: bool = False) -> dict:
    """Share of the variance of y explained by each factor, fitted one after another.

    `factors` maps a name to an array of group labels (same length as y), in the order
    they enter (sequential, type-I sums of squares): each share is the variance of the
    group means of what the earlier factors left unexplained, over the total variance.
    Returns {name: share, ..., "residual": share}; the shares sum to 1.

    Group means carry noise, so a factor with many small groups (deals) explains some
    variance even when it has no effect. With `adjusted=True` each share is corrected
    like omega-squared: (SS_factor - (k - 1) * MS_residual) / SS_total, floored at 0, and
    the residual takes up the rest.

    The luck/skill index of the balance report enters "strategy" first and "deal" second:
    the strategy share is the part of a seat's score that its strategy explains (skill),
    the deal share the part that the cards explain (luck of the deal); what is left is
    the luck of the play (draws, other players' choices).
    """
    y = np.asarray(y, dtype=float)
    n = len(y)
    out = {}
    resid = y - y.mean()
    total = float((resid ** 2).sum())
    if n == 0 or total == 0:
        return {**{k: 0.0 for k in factors}, "residual": 1.0 if n else _NAN}
    levels = {}
    for name, labels in factors.items():
        _, inv = np.unique(np.asarray(labels), return_inverse=True)
        counts = np.bincount(inv)
        means = np.bincount(inv, weights=resid) / counts
        fitted = means[inv]
        out[name] = float((fitted ** 2).sum() / total)
        levels[name] = len(counts)
        resid = resid - fitted
    out["residual"] = float((resid ** 2).sum() / total)
    if adjusted:
        df_resid = n - 1 - sum(k - 1 for k in levels.values())
        ms = out["residual"] / df_resid if df_resid > 0 else 0.0
        for name, k in levels.items():
            out[name] = max(0.0, out[name] - (k - 1) * ms)
        out["residual"] = 1.0 - sum(out[name] for name in levels)
    return out


# ------------------------------------------------------------------ robust paired measures
#: share of the per-deal differences cut from each end by the robust score difference
TRIM = 0.1


def trimmed_mean(x, trim: float = TRIM) -> float:
    """Mean of x after cutting floor(trim * n) values from each end (as scipy's trim_mean)."""
    x = np.sort(np.asarray(x, dtype=float))
    n = len(x)
    if n == 0:
        return _NAN
    k = int(math.floor(trim * n))
    if 2 * k >= n:
        k = (n - 1) // 2
    return float(x[k:n - k].mean())


def hodges_lehmann(x) -> float:
    """The Hodges–Lehmann estimate: the median of the Walsh averages (x_i + x_j) / 2, i <= j.

    Exact and O(n²) in memory: for a few thousand values (tests, small samples); the reports
    use `trimmed_mean`, whose bootstrap stays fast at 10^5 deals.
    """
    x = np.asarray(x, dtype=float)
    n = len(x)
    if n == 0:
        return _NAN
    i, j = np.triu_indices(n)
    return float(np.median((x[i] + x[j]) / 2))


def trimmed_mean_ci(x, trim: float = TRIM, reps: int = 1000, conf: float = 0.95, seed: int = 0) -> CI:
    """Trimmed mean of x with a seeded percentile bootstrap interval, vectorised.

    x is sorted once; a resample is then a vector of counts over the sorted values, and its
    trimmed mean is a weighted sum over the cumulative counts clipped to [k, n - k], so every
    resample costs O(n) with no sort. Kept (not scipy.stats.bootstrap of trim_mean) as
    measurably faster: 1,000 resamples of 2,000 deals 0.05 s against scipy's 0.10 s, of
    100,000 deals 3.2 s against 4.1 s (best of 2, a loaded 2-core machine); the test checks
    it against scipy's interval.
    """
    x = np.sort(np.asarray(x, dtype=float))
    x = x[np.isfinite(x)]
    n = len(x)
    if n == 0:
        return _empty(0, conf)
    est = trimmed_mean(x, trim)
    if n < 2:
        return CI(est, _NAN, _NAN, _NAN, n, conf)
    if x[0] == x[-1]:  # every difference the same: no uncertainty
        return CI(est, est, est, 0.0, n, conf)
    k = int(math.floor(trim * n))
    if 2 * k >= n:
        k = (n - 1) // 2
    keep = n - 2 * k
    rng = np.random.default_rng(seed)
    values = np.empty(reps)
    block = max(1, min(reps, 4_000_000 // n))
    for start in range(0, reps, block):
        b = min(reps, start + block) - start
        idx = rng.integers(0, n, size=(b, n))
        idx += (np.arange(b) * n)[:, None]
        counts = np.bincount(idx.ravel(), minlength=b * n).reshape(b, n)
        cum = np.cumsum(counts, axis=1)
        hi = np.clip(cum, k, n - k)
        lo = np.clip(cum - counts, k, n - k)
        values[start:start + b] = ((hi - lo) @ x) / keep
    alpha = (1 - conf) / 2
    lo_q, hi_q = np.quantile(values, [alpha, 1 - alpha])
    return CI(est, float(lo_q), float(hi_q), float(values.std(ddof=1)), n, conf)
