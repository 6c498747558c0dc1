//! Pure statistics on raw samples, and grouping items by a key: no wgpu, no I/O.

use std::collections::HashMap;
use std::hash::Hash;

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

impl Summary {
    /// Whether the median's interval reaches no further than `precision` (a fraction of the median) to
    /// either side; never where there is no interval.
    pub fn within(&self, precision: f64) -> bool {
        let median = self.median;
        self.median_interval.is_some_and(|(low, high)| (median - low).max(high - median) <= precision * median)
    }
}

/// Summarises samples; `None` for an empty slice. NaN must not occur (callers drop bad samples first).
pub fn summarize(samples: &[f64]) -> Option<Summary> {
    if samples.is_empty() {
        return None;
    }
    let mut sorted = samples.to_vec();
    crate::sort::by(&mut sorted, f64::total_cmp);
    let n = sorted.len();
    let median = if n % 2 == 1 { sorted[n / 2] } else { (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0 };
    let mean = sorted.iter().sum::<f64>() / n as f64;
    let variance = if n > 1 { sorted.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64 } else { 0.0 };
    let cv = if mean > 0.0 { variance.sqrt() / mean } else { 0.0 };
    let median_interval = median_interval(&sorted);
    Some(Summary { median, min: sorted[0], p95: percentile(&sorted, 0.95), mean, cv, median_interval })
}

/// Nearest-rank percentile of sorted data: the smallest value with at least `q` of the data at or below it.
fn percentile(sorted: &[f64], q: f64) -> f64 {
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// The confidence of the intervals wgsweep reports.
pub const LEVEL: f64 = 0.95;
/// Samples up to which the median's interval is found from the binomial's exact probabilities.
const EXACT_RANKS: usize = 1000;

/// The distribution-free 95 % confidence interval (`LEVEL`) for the median of the distribution `sorted` (in
/// ascending order) was drawn from. The rank of the population median among n samples is Binomial(n, ½),
/// so an interval between two order statistics covers it with a probability that depends on n alone; the
/// nearest pair covers more than asked (97.9 % for 10 samples at 95 %), so the ends are interpolated
/// between that pair and the next one in, as Hettmansperger and Sheather (1986) derive, which brings the
/// coverage to the level asked for any continuous distribution. `None` where even the smallest and largest
/// sample cover less than 95 % (under 6 samples).
///
/// Written here rather than taken from a statistics crate: the one that has binomial quantiles (statrs)
/// brings a linear algebra crate with it, and the page's download has no room for it.
pub fn median_interval(sorted: &[f64]) -> Option<(f64, f64)> {
    let level = LEVEL;
    let n = sorted.len();
    if n > EXACT_RANKS {
        // The binomial is normal here, and the ranks of the interval's ends within one of it.
        let k = ((n as f64 - Z_95 * (n as f64).sqrt()) / 2.0).floor().max(1.0) as usize;
        return Some((sorted[k - 1], sorted[n - k]));
    }
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

/// P(B <= j) for B ~ Binomial(n, ½), as a function of j; `n` at most `EXACT_RANKS` (2^-n underflows past 1074).
fn binomial_half_cdf(n: usize) -> impl Fn(usize) -> f64 {
    move |j: usize| {
        let mut pmf = 0.5f64.powi(n as i32);
        let mut sum = 0.0;
        for i in 0..=j.min(n) {
            sum += pmf;
            pmf *= (n - i) as f64 / (i + 1) as f64;
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
/// The standard normal distribution's 97.5th percentile: the two-sided 95 % interval's.
const Z_95: f64 = 1.959_963_984_540_054;

/// The ratio of `after` over `before` (two sets of times, or of rates) and its 95 % interval: the
/// Hodges–Lehmann estimate of the factor between them (the median of every pairwise ratio, which is the exponential of the median of the
/// differences of their logarithms: ratios sort as those differences do) and the distribution-free
/// interval from the Mann–Whitney statistic's distribution (Moses), which holds for any two continuous
/// distributions that differ by a factor. `None` where either set has under 2 samples.
pub fn ratio_interval(before: &[f64], after: &[f64]) -> Option<Ratio> {
    let thin = |samples: &[f64]| {
        let mut sorted = samples.to_vec();
        crate::sort::by(&mut sorted, f64::total_cmp);
        let keep = (MOST_PAIRS as f64).sqrt() as usize;
        match sorted.len() > keep {
            true => (0..keep).map(|i| sorted[i * (sorted.len() - 1) / (keep - 1)]).collect(),
            false => sorted,
        }
    };
    let (a, b) = (thin(before), thin(after));
    let (n, m) = (a.len(), b.len());
    if n < 2 || m < 2 {
        return None;
    }
    let mut ratios: Vec<f64> = b.iter().flat_map(|y| a.iter().map(move |x| y / x)).collect();
    crate::sort::by(&mut ratios, f64::total_cmp);
    let pairs = ratios.len();
    let estimate = match pairs % 2 {
        1 => ratios[pairs / 2],
        _ => (ratios[pairs / 2 - 1] * ratios[pairs / 2]).sqrt(), // the mean of the two logarithms
    };
    // The Mann–Whitney count's normal approximation, with a continuity correction: its rank from each end.
    let spread = ((n * m) as f64 * (n + m + 1) as f64 / 12.0).sqrt();
    let c = ((pairs as f64 / 2.0 - Z_95 * spread - 0.5).floor().max(0.0) as usize).min(pairs / 2);
    Some(Ratio { estimate, low: ratios[c], high: ratios[pairs - 1 - c] })
}

/// The items grouped by `key`, each group in the order its first item appears: one pass, as a result may
/// hold tens of thousands of configurations.
pub fn groups<'a, T, K: Eq + Hash + Clone>(
    items: impl IntoIterator<Item = &'a T>,
    key: impl Fn(&'a T) -> K,
) -> Vec<(K, Vec<&'a T>)> {
    grouped(&mut items.into_iter(), &key)
}

/// `groups`, made once per kind of item and key rather than once per caller (the page's download).
fn grouped<'a, T, K: Eq + Hash + Clone>(
    items: &mut dyn Iterator<Item = &'a T>,
    key: &dyn Fn(&'a T) -> K,
) -> Vec<(K, Vec<&'a T>)> {
    let mut places: HashMap<K, usize> = HashMap::new();
    let mut grouped: Vec<(K, Vec<&T>)> = Vec::new();
    for item in items {
        let key = key(item);
        match places.get(&key) {
            Some(&at) => grouped[at].1.push(item),
            None => {
                places.insert(key.clone(), grouped.len());
                grouped.push((key, vec![item]));
            }
        }
    }
    grouped
}
