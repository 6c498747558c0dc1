//! Statistics of raw samples: summaries, the median's interval, and ratios with verdicts.

use wgsweep::stats::summarize;

#[test]
fn statistics_of_raw_samples() {
    let s = summarize(&[5.0, 1.0, 4.0, 2.0, 3.0]).unwrap();
    assert_eq!((s.median, s.min, s.mean), (3.0, 1.0, 3.0));
    assert_eq!(s.p95, 5.0);
    assert!((s.cv - (2.5f64).sqrt() / 3.0).abs() < 1e-12);
    let even = summarize(&[4.0, 1.0, 3.0, 2.0]).unwrap();
    assert_eq!(even.median, 2.5);
    let twenty: Vec<f64> = (1..=20).map(f64::from).collect();
    assert_eq!(summarize(&twenty).unwrap().p95, 19.0);
    assert_eq!(summarize(&[7.0]).unwrap().cv, 0.0);
    assert!(summarize(&[]).is_none());
}

/// Uniform in (0, 1), from a counter: the same trials on every run.
fn uniform(state: &mut u64) -> f64 {
    *state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    ((*state >> 11) as f64 + 0.5) / (1u64 << 53) as f64
}

/// Normal(mean, sd), by Box–Muller.
fn normal(state: &mut u64, mean: f64, sd: f64) -> f64 {
    let (u, v) = (uniform(state), uniform(state));
    mean + sd * (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
}

#[test]
fn the_median_interval_holds_the_true_median_in_95_percent_of_trials_whatever_the_distribution() {
    let mut state = 7;
    // (name, draw, the distribution's median): a symmetric one, a skewed one, one with a long tail.
    type Distribution = (&'static str, fn(&mut u64) -> f64, f64);
    let distributions: [Distribution; 3] = [
        ("normal", |s| normal(s, 10.0, 1.0), 10.0),
        ("exponential", |s| -uniform(s).ln(), std::f64::consts::LN_2),
        ("log-normal", |s| normal(s, 0.0, 0.5).exp(), 1.0),
    ];
    for (name, draw, median) in distributions {
        for n in [10, 20, 31, 64, 200, 1500] {
            let trials = 2000;
            let held = (0..trials)
                .filter(|_| {
                    let mut samples: Vec<f64> = (0..n).map(|_| draw(&mut state)).collect();
                    samples.sort_by(f64::total_cmp);
                    let (low, high) = wgsweep::stats::median_interval(&samples).unwrap();
                    low <= median && median <= high
                })
                .count();
            let coverage = held as f64 / trials as f64;
            assert!((0.93..=0.97).contains(&coverage), "{name}, {n} samples: {coverage}");
        }
    }
    assert_eq!(wgsweep::stats::median_interval(&[1.0, 2.0, 3.0, 4.0, 5.0]), None, "5 samples cannot reach 95 %");
}

#[test]
fn comparisons_call_one_distribution_the_same_and_a_five_percent_shift_slower() {
    use wgsweep::stats::{Verdict, ratio_interval};
    let mut state = 11;
    let mut times =
        |n: usize, mean: f64| -> Vec<f64> { (0..n).map(|_| normal(&mut state, mean, 0.01 * mean)).collect() };
    let trials = 2000;
    let threshold = 0.01;
    let verdicts = |shift: f64, times: &mut dyn FnMut(usize, f64) -> Vec<f64>| {
        (0..trials)
            .map(|_| {
                let (before, after) = (times(30, 1000.0), times(30, 1000.0 * shift));
                ratio_interval(&before, &after).unwrap().verdict(threshold)
            })
            .collect::<Vec<_>>()
    };
    let same = verdicts(1.0, &mut times);
    let share = |verdicts: &[Verdict], v: Verdict| verdicts.iter().filter(|&&x| x == v).count() as f64 / trials as f64;
    assert!(share(&same, Verdict::Same) >= 0.95, "{}", share(&same, Verdict::Same));
    let slower = verdicts(1.05, &mut times);
    assert!(share(&slower, Verdict::Slower) >= 0.99, "{}", share(&slower, Verdict::Slower));
    let faster = verdicts(1.0 / 1.05, &mut times);
    assert!(share(&faster, Verdict::Faster) >= 0.99, "{}", share(&faster, Verdict::Faster));
    // Without the threshold, the interval alone calls one distribution different in about 5 % of trials.
    let alone = (0..trials)
        .filter(|_| ratio_interval(&times(30, 1000.0), &times(30, 1000.0)).unwrap().verdict(0.0) == Verdict::Same)
        .count() as f64
        / trials as f64;
    assert!((0.93..=0.97).contains(&alone), "{alone}");
    let ratio = ratio_interval(&times(30, 1000.0), &times(30, 1100.0)).unwrap();
    assert!(ratio.low < ratio.estimate && ratio.estimate < ratio.high);
    assert!((ratio.estimate - 1.1).abs() < 0.01, "{ratio:?}");
}
