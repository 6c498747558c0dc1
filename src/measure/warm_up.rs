//! The warm-up before a measurement's samples are kept: until the GPU's clocks have risen.

/// The GPU time of each of the two windows of warm-up samples compared to tell whether timings settled.
const SETTLE_WINDOW_NS: f64 = 5e6;
/// The longest the GPU may have waited since the last measurement for the warm-up to end once samples
/// settle; after a longer wait it lasts `warm_up_ns`. Measured on an H100: after the half-second CPU
/// comparisons of the families checked on the host, a warm-up ended by settling timed many configurations at
/// a third of their speed. The same between two samples of a measurement, by timestamps: on an H200 the page
/// timed a kernel at 0.71× its speed after its warm-up waited for a pipeline's compilation.
pub(super) const BUSY_GAP_NS: f64 = 5e7;
/// How many times a measurement's warm-up may start over for the GPU idling between its samples.
pub(super) const MAX_RESTARTS: u32 = 3;
/// How far apart the two windows' mean sample times may be for the timings to count as settled.
const SETTLED: f64 = 0.02;

/// Whether the last warm-up samples (at least two, `SETTLE_WINDOW_NS` of GPU time) have the mean of the
/// ones before them within `SETTLED`: the clocks have stopped rising.
fn settled(warm_up: &[f64]) -> bool {
    let mean = warm_up.iter().sum::<f64>() / warm_up.len().max(1) as f64;
    let window = ((SETTLE_WINDOW_NS / mean.max(1.0)).ceil() as usize).max(2);
    if warm_up.len() < 2 * window {
        return false;
    }
    let [before, last] = [2, 1].map(|k| {
        let from = warm_up.len() - k * window;
        warm_up[from..from + window].iter().sum::<f64>() / window as f64
    });
    (last - before).abs() <= SETTLED * before
}

/// When a warm-up may end before `warm_up_ns` of GPU time, once it has lasted `min_warm_up_ns`.
pub(super) enum EarlyEnd {
    /// A CPU adapter has no clocks to ramp up: at once.
    AtLeast,
    /// A GPU busy until just now: once its samples have `settled`.
    Settled,
    /// A GPU that idled may time steadily at clocks that have yet to rise: never.
    Never,
}

/// The warm-up: samples until their GPU time adds up to `at_most_ns`, or ends early (`EarlyEnd`).
pub(super) struct WarmUp {
    pub(super) samples: Vec<f64>,
    pub(super) at_least_ns: f64,
    pub(super) at_most_ns: f64,
    pub(super) early_end: EarlyEnd,
}

impl WarmUp {
    /// Records a warm-up sample of `pass_ns`; whether the warm-up is over.
    pub(super) fn done_after(&mut self, pass_ns: f64) -> bool {
        self.samples.push(pass_ns);
        let spent: f64 = self.samples.iter().sum();
        let early = spent >= self.at_least_ns
            && match self.early_end {
                EarlyEnd::AtLeast => true,
                EarlyEnd::Settled => settled(&self.samples),
                EarlyEnd::Never => false,
            };
        spent >= self.at_most_ns || early
    }

    /// Starts over after the GPU idled: no samples, and no end before `at_most_ns`.
    pub(super) fn restart(&mut self) {
        self.samples.clear();
        self.early_end = EarlyEnd::Never;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_warm_up_started_over_lasts_its_whole_length() {
        let mut warm_up =
            WarmUp { samples: Vec::new(), at_least_ns: 2e7, at_most_ns: 2e8, early_end: EarlyEnd::Settled };
        // Samples of 1 ms, settled from the tenth: over at the twentieth (`at_least_ns`).
        assert_eq!((1..).find(|_| warm_up.done_after(1e6)), Some(20));
        warm_up.restart();
        assert_eq!((1..).find(|_| warm_up.done_after(1e6)), Some(200));
    }

    #[test]
    fn warm_up_samples_settle_when_their_last_window_matches_the_one_before() {
        // Samples of 1 ms: windows of 5.
        assert!(!settled(&[1e6; 9]), "too few to compare two windows");
        assert!(settled(&[1e6; 10]));
        let rising_clocks: Vec<f64> = (0..20).map(|i| 2e6 - 5e4 * i as f64).collect();
        assert!(!settled(&rising_clocks), "samples still shortening by 2.5 % a sample");
        let mut levelled = rising_clocks.clone();
        levelled.extend([1e6, 1.01e6, 0.99e6, 1e6, 1e6, 1e6, 1.01e6, 0.99e6, 1e6, 1e6]);
        assert!(settled(&levelled), "the last two windows agree within 2 %");
    }
}
