//! Pure statistics on raw samples: no wgpu, no I/O.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub median: f64,
    pub min: f64,
    pub p95: f64,
    pub mean: f64,
    /// Coefficient of variation: standard deviation over mean.
    pub cv: f64,
    /// The median's 95 % confidence interval (`median_interval`), where the samples are enough for one.
    pub median_interval: Option<(f64, f64)>,
}

/// Summarises samples; `None` for an empty slice. NaN must not occur (callers drop bad samples first).
pub fn summarize(samples: &[f64]) -> Option<Summary> {
    if samples.is_empty() {
        return None;
    }
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let median = if n % 2 == 1 { sorted[n / 2] } else { (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0 };
    let mean = sorted.iter().sum::<f64>() / n as f64;
    let variance = if n > 1 { sorted.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64 } else { 0.0 };
    let cv = if mean > 0.0 { variance.sqrt() / mean } else { 0.0 };
    let median_interval = median_interval(&sorted, LEVEL);
    Some(Summary { median, min: sorted[0], p95: percentile(&sorted, 0.95), mean, cv, median_interval })
}

/// Nearest-rank percentile of sorted data: the smallest value with at least `q` of the data at or below it.
fn percentile(sorted: &[f64], q: f64) -> f64 {
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// The confidence of the intervals wgsweep reports.
pub const LEVEL: f64 = 0.95;

/// The distribution-free confidence interval at `level` for the median of the distribution `sorted` (in
/// ascending order) was drawn from. The rank of the population median among n samples is Binomial(n, ½),
/// so an interval between two order statistics covers it with a probability that depends on n alone; the
/// nearest pair covers more than asked (97.9 % for 10 samples at 95 %), so the ends are interpolated
/// between that pair and the next one in, as Hettmansperger and Sheather (1986) derive, which brings the
/// coverage to the level asked for any continuous distribution. `None` where even the smallest and largest
/// sample cover less than `level` (under 6 samples at 95 %).
///
/// Written here rather than taken from a statistics crate: the one that has binomial quantiles (statrs)
/// brings a linear algebra crate with it, and the page's download has no room for it.
pub fn median_interval(sorted: &[f64], level: f64) -> Option<(f64, f64)> {
    let n = sorted.len();
    // coverage(k) of [x(k), x(n+1-k)], ranks from 1: 1 - 2 P(B <= k - 1).
    let lower_tail = binomial_half_cdf(n);
    let coverage = |k: usize| 1.0 - 2.0 * lower_tail(k - 1);
    if n == 0 || coverage(1) < level {
        return None;
    }
    let mut k = 1;
    while 2 * (k + 1) <= n && coverage(k + 1) >= level {
        k += 1;
    }
    let (low, high) = (sorted[k - 1], sorted[n - k]);
    if 2 * (k + 1) > n + 1 {
        return Some((low, high)); // no pair further in
    }
    let (outer, inner) = (coverage(k), coverage(k + 1));
    let i = (outer - level) / (outer - inner);
    let lambda = (n - k) as f64 * i / (k as f64 + (n - 2 * k) as f64 * i);
    let between = |outer: f64, inner: f64| (1.0 - lambda) * outer + lambda * inner;
    Some((between(low, sorted[k]), between(high, sorted[n - k - 1])))
}

/// P(B <= j) for B ~ Binomial(n, ½), as a function of j (summed in logarithms: 2^-n underflows past n = 1074).
fn binomial_half_cdf(n: usize) -> impl Fn(usize) -> f64 {
    move |j: usize| {
        let mut log_pmf = -(n as f64) * std::f64::consts::LN_2;
        let mut sum = 0.0;
        for i in 0..=j.min(n) {
            sum += log_pmf.exp();
            log_pmf += ((n - i) as f64).ln() - ((i + 1) as f64).ln();
        }
        sum.min(1.0)
    }
}

/// How a configuration's time in one result compares with another's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Faster,
    Slower,
    /// The same within noise: the interval holds no change, or the change is under the threshold.
    Same,
}

/// The ratio of two sets of times (the second's over the first's: above 1 is slower), with its interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ratio {
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
}

impl Ratio {
    /// The verdict on a change of time: slower or faster where the interval excludes no change (1) and
    /// the estimate moves by `threshold` (a fraction) or more; the same within noise otherwise. With a 95 %
    /// interval, no more than 5 % of comparisons of one build with itself can be called different, and the
    /// threshold, about the spread between runs of one build, keeps it well under that.
    pub fn verdict(&self, threshold: f64) -> Verdict {
        let excludes_one = self.low > 1.0 || self.high < 1.0;
        match (excludes_one, self.estimate) {
            (true, r) if r >= 1.0 + threshold => Verdict::Slower,
            (true, r) if r <= 1.0 / (1.0 + threshold) => Verdict::Faster,
            _ => Verdict::Same,
        }
    }
}

/// Pairs of samples at most used for a ratio's interval: two sets of 512 (evenly spaced ranks of larger ones).
const MOST_PAIRS: usize = 512 * 512;

/// The ratio of the times `after` over `before` and its interval at `level`: the Hodges–Lehmann estimate
/// of the shift between their logarithms (the median of all pairwise differences) and the distribution-free
/// interval from the Mann–Whitney statistic's distribution (Moses), which holds for any two continuous
/// distributions that differ by a factor. `None` where either set has under 2 samples.
pub fn ratio_interval(before: &[f64], after: &[f64], level: f64) -> Option<Ratio> {
    let thin = |samples: &[f64]| {
        let mut logs: Vec<f64> = samples.iter().map(|x| x.ln()).collect();
        logs.sort_by(f64::total_cmp);
        let keep = (MOST_PAIRS as f64).sqrt() as usize;
        match logs.len() > keep {
            true => (0..keep).map(|i| logs[i * (logs.len() - 1) / (keep - 1)]).collect(),
            false => logs,
        }
    };
    let (a, b) = (thin(before), thin(after));
    let (n, m) = (a.len(), b.len());
    if n < 2 || m < 2 {
        return None;
    }
    let mut differences: Vec<f64> = b.iter().flat_map(|y| a.iter().map(move |x| y - x)).collect();
    differences.sort_by(f64::total_cmp);
    let pairs = differences.len();
    let median = if pairs % 2 == 1 {
        differences[pairs / 2]
    } else {
        (differences[pairs / 2 - 1] + differences[pairs / 2]) / 2.0
    };
    // The Mann–Whitney count's normal approximation, with a continuity correction: its rank from each end.
    let z = normal_quantile(0.5 + level / 2.0);
    let spread = ((n * m) as f64 * (n + m + 1) as f64 / 12.0).sqrt();
    let c = ((pairs as f64 / 2.0 - z * spread - 0.5).floor().max(0.0) as usize).min(pairs / 2);
    let (low, high) = (differences[c.min(pairs - 1)], differences[pairs - 1 - c.min(pairs - 1)]);
    Some(Ratio { estimate: median.exp(), low: low.exp(), high: high.exp() })
}

/// The standard normal distribution's quantile at p (0 < p < 1): Acklam's rational approximation, to about
/// 1e-9, which the intervals here need far less of.
fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -39.69683028665376,
        220.9460984245205,
        -275.9285104469687,
        138.357_751_867_269,
        -30.66479806614716,
        2.506628277459239,
    ];
    const B: [f64; 5] =
        [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
    const C: [f64; 6] = [
        -0.007784894002430293,
        -0.3223964580411365,
        -2.400758277161838,
        -2.549732539343734,
        4.374664141464968,
        2.938163982698783,
    ];
    const D: [f64; 4] = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    match p {
        p if p < 0.02425 => tail((-2.0 * p.ln()).sqrt()),
        p if p > 1.0 - 0.02425 => -tail((-2.0 * (1.0 - p).ln()).sqrt()),
        p => {
            let q = p - 0.5;
            let r = q * q;
            (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
                / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
        }
    }
}
