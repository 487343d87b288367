"""analysis.stats on synthetic data with known answers."""

import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from crates_sim.analysis import stats
from crates_sim.analysis.data import cluster_means, load

sys.path.insert(0, str(Path(__file__).parent))
from synthetic import write_dataset  # noqa: E402


def test_quantiles():
    from scipy import stats as sps

    for conf, df in ((0.95, 3), (0.9, 27.5), (0.99, 1000)):
        assert stats.t_quantile(conf, df) == pytest.approx(sps.t.ppf(0.5 + conf / 2, df), rel=1e-12)
    assert stats.t_quantile(0.95, float("inf")) == pytest.approx(1.959964, abs=1e-5)
    assert stats.z_quantile(0.95) == pytest.approx(1.959964, abs=1e-5)
    assert stats.t_quantile(0.95, 1) == pytest.approx(12.7062, abs=1e-3)
    assert stats.t_quantile(0.95, 10) == pytest.approx(2.2281, abs=1e-3)
    assert stats.t_quantile(0.99, 5) == pytest.approx(4.0321, abs=1e-3)


def test_mean_ci_known_and_coverage():
    ci = stats.mean_ci([1, 2, 3, 4, 5])
    assert ci.estimate == 3 and ci.contains(3)
    assert ci.half_width == pytest.approx(2.776 * np.std([1, 2, 3, 4, 5], ddof=1) / np.sqrt(5), rel=1e-3)
    rng = np.random.default_rng(0)
    hits = sum(stats.mean_ci(rng.normal(10, 3, 20)).contains(10) for _ in range(400))
    assert 0.91 <= hits / 400 <= 0.98
    normal = stats.mean_ci(rng.normal(size=50), method="normal")
    assert normal.half_width == pytest.approx(1.96 * normal.se, rel=1e-3)


def test_proportion_wilson():
    ci = stats.proportion_ci(600, 1000)
    assert ci.estimate == 0.6 and ci.contains(0.6)
    assert ci.lo == pytest.approx(0.5693, abs=1e-3) and ci.hi == pytest.approx(0.6299, abs=1e-3)
    zero = stats.proportion_ci(0, 500)
    assert zero.lo == 0 and 0 < zero.hi < 0.01
    half = stats.proportion_ci(600.5, 1000)  # a half win (a tie): the same formula
    assert 0.5693 < half.lo < ci.lo + 0.001 and ci.hi < half.hi < 0.6305


def test_paired_difference_of_exactly_five():
    rng = np.random.default_rng(1)
    b = rng.normal(100, 40, 300)
    ci = stats.paired_diff_ci(b + 5, b)
    assert ci.estimate == pytest.approx(5) and ci.lo == pytest.approx(5) and ci.hi == pytest.approx(5)
    noisy = stats.paired_diff_ci(b + 5 + rng.normal(0, 1, 300), b)
    assert noisy.contains(5) and noisy.half_width < 0.2


def test_difference_of_means():
    rng = np.random.default_rng(2)
    ci = stats.diff_means_ci(rng.normal(10, 2, 400), rng.normal(7, 4, 300))
    assert ci.contains(3) and ci.significant


def test_bootstrap_seeded_and_sensible():
    x = np.random.default_rng(3).exponential(2.0, 500)
    a = stats.bootstrap_ci(x, reps=300, seed=7)
    b = stats.bootstrap_ci(x, reps=300, seed=7)
    assert a == b
    assert a.lo < x.mean() < a.hi
    fast = stats.bootstrap_ci(x, lambda s: s.mean(axis=-1), reps=300, seed=7, axis_stat=True)
    assert fast.lo == pytest.approx(a.lo) and fast.hi == pytest.approx(a.hi)
    pairs = np.column_stack([x, 2 * x + 1])  # rows resampled together: b - 2a is always 1
    paired = stats.bootstrap_ci(pairs, lambda s: (s[..., 1] - 2 * s[..., 0]).mean(-1), reps=200,
                                axis_stat=True)
    assert paired.lo == pytest.approx(1) and paired.hi == pytest.approx(1)
    t = stats.mean_ci(x)
    assert a.half_width == pytest.approx(t.half_width, rel=0.25)


def test_ratio_ci_clusters():
    rng = np.random.default_rng(4)
    # 400 games x 4 perfectly correlated seats: the cluster CI must be as wide as 400 values, not 1600
    game_values = rng.normal(50, 10, 400)
    ci = stats.ratio_ci(game_values * 4, np.full(400, 4))
    assert ci.estimate == pytest.approx(game_values.mean())
    assert ci.half_width == pytest.approx(stats.mean_ci(game_values).half_width, rel=0.01)


def test_sd_ci_and_slope():
    x = np.random.default_rng(5).normal(0, 3, 4000)
    assert stats.sd_ci(x).contains(3)
    sums = dict(n=len(x), s1=x.sum(), s2=(x ** 2).sum(), s3=(x ** 3).sum(), s4=(x ** 4).sum())
    assert stats.sd_ci(**sums).estimate == pytest.approx(stats.sd_ci(x).estimate)
    u = np.arange(200.0)
    slope = stats.ols_slope_ci(u, 2 * u + np.random.default_rng(6).normal(0, 5, 200))
    assert slope.contains(2) and slope.half_width < 0.1


def test_variance_decomposition_known_shares():
    rng = np.random.default_rng(7)
    n = 20000
    strategy = rng.integers(0, 2, n)
    y = np.where(strategy == 1, 2.0, -2.0) + rng.normal(0, 4, n)  # 4 / (4 + 16) = 20% skill
    shares = stats.variance_decomposition(y, {"strategy": strategy, "deal": rng.integers(0, 5000, n)},
                                          adjusted=True)
    assert shares["strategy"] == pytest.approx(0.2, abs=0.02)
    assert shares["deal"] < 0.03  # no deal effect: the adjustment removes the small-group noise
    assert sum(shares.values()) == pytest.approx(1.0)


def test_seat_one_wins_sixty_percent(tmp_path):
    d = load(write_dataset(tmp_path / "ds", games=500, partnerships=False, seat_win=(1, 0.6), detail="games"))
    table = cluster_means(d.games, {"win": pl.col("win")}, by=["seat"])
    row = table[table["seat"] == 1].iloc[0]
    assert row["win"] == pytest.approx(0.6)
    assert row["win_lo"] < 0.6 < row["win_hi"]
    assert table["win"].sum() == pytest.approx(1.0)


def test_trimmed_mean_and_hodges_lehmann_known_answers():
    from crates_sim.analysis.stats import hodges_lehmann, trimmed_mean, trimmed_mean_ci

    heavy = list(range(1, 10)) + [1_000_000]  # one huge deal swamps the mean (100,004.5)
    assert trimmed_mean(heavy, 0.1) == 5.5  # cuts 1 and 1,000,000: mean of 2..9
    assert hodges_lehmann([1, 2, 3, 100]) == 2.75  # median of the 10 Walsh averages
    rare = (list(range(1, 50)) + [1_000_000]) * 10  # 2% huge deals; 50 cut at each end leave 6..45
    ci = trimmed_mean_ci(rare, 0.1, reps=400, seed=3)
    assert ci.estimate == 25.5 and ci.lo <= 25.5 <= ci.hi and ci.hi < 30
    assert trimmed_mean_ci(rare, 0.1, reps=400, seed=3) == ci  # seeded: reproducible
    assert trimmed_mean_ci([2.0] * 50).lo == 2.0  # no spread, no uncertainty


def test_trimmed_mean_bootstrap_matches_scipys():
    """Our vectorised bootstrap (kept: faster than scipy's at our sizes) gives scipy's
    interval of scipy's trim_mean, within the resampling noise."""
    from scipy import stats as sps

    from crates_sim.analysis.stats import trimmed_mean, trimmed_mean_ci

    rng = np.random.default_rng(7)
    x = rng.standard_t(1.5, size=400)
    fast = trimmed_mean_ci(x, 0.1, reps=2000, seed=1)
    slow = sps.bootstrap((x,), lambda s, axis: sps.trim_mean(s, 0.1, axis=axis), n_resamples=2000,
                         method="percentile", rng=np.random.default_rng(2))
    assert fast.estimate == pytest.approx(trimmed_mean(x, 0.1)) == pytest.approx(sps.trim_mean(x, 0.1))
    slow.lo, slow.hi = slow.confidence_interval
    slow.se = slow.standard_error
    assert fast.lo == pytest.approx(slow.lo, abs=0.25 * slow.se) and fast.hi == pytest.approx(slow.hi, abs=0.25 * slow.se)
