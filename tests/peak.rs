//! The compute-peak family on the native adapter (lavapipe in CI), and the run's peaks.
#![cfg(not(target_arch = "wasm32"))]

#[expect(dead_code, reason = "check_both, for the tests of checks themselves")]
mod support;

use support::{environment, open_gpu};
use wgsweep::kernel::ShaderChecks;
use wgsweep::kernels::{self, peak};
use wgsweep::runner::{self, Flow};

#[test]
fn fma_chains_validate_and_set_the_runs_compute_peak() {
    let gpu = open_gpu();
    let mut plan = support::quick_plan(kernels::select("peak,copy/vec4").unwrap(), 5003, Some(vec![1, 64, 256]));
    plan.shader_checks = vec![ShaderChecks::Default, ShaderChecks::Unchecked];
    let result = pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |_| Flow::Continue));
    assert_eq!(result.results.len(), 3 * 3 * 2);
    for r in &result.results {
        support::assert_good(r);
    }
    let best = |kernel: &str, rate: fn(&wgsweep::result::ConfigResult) -> Option<f64>| {
        result.results.iter().filter(|r| r.kernel == kernel).filter_map(rate).reduce(f64::max)
    };
    assert_eq!(result.peaks.fma_gflops, best("fma", |r| r.gflops()));
    assert_eq!(result.peaks.copy_gbps, best("copy", |r| r.gbps));
    for r in &result.results {
        let percent = r.percent_of_peak.unwrap();
        assert!(percent > 0.0 && percent <= 100.0 + 1e-9, "{} {percent}", r.label());
    }
    let fma = result.results.iter().find(|r| r.kernel == "fma" && r.variant == "vec4").unwrap();
    assert_eq!(fma.flops_per_dispatch, Some(5003 * 16 * 1024 * 2));
}

#[test]
fn the_reference_depends_on_every_iteration() {
    // Chains gain their b 1024 times without rounding: one iteration fewer would change every sum.
    let sums: Vec<f32> = (0..4).map(|i| peak::chain_sum("f32", i)).collect();
    let start = |i: u32| (0..8).map(|c| (i as f32) / 1024.0 + c as f32).sum::<f32>();
    let gained: f32 = (1..=8).map(|c| c as f32 / 4096.0 * 1024.0).sum();
    for (i, sum) in sums.iter().enumerate() {
        assert_eq!(*sum, start(i as u32) + gained);
    }
}
