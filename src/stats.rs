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
    Some(Summary { median, min: sorted[0], p95: percentile(&sorted, 0.95), mean, cv })
}

/// Nearest-rank percentile of sorted data: the smallest value with at least `q` of the data at or below it.
fn percentile(sorted: &[f64], q: f64) -> f64 {
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}
