//! The histogram family: its inputs, and every strategy and bin count on the native adapter (lavapipe in CI).
#![cfg(not(target_arch = "wasm32"))]

mod support;

use support::{check_both, environment, open_gpu};
use wgsweep::fill;
use wgsweep::kernel::read_buffer;
use wgsweep::kernel::submit_once;
use wgsweep::kernel::{Configuration, ShaderChecks};
use wgsweep::kernels::{self, histogram};
use wgsweep::runner::{self, Flow};

/// Not a multiple of any workgroup size.
const WORDS: u64 = 5003;

#[test]
fn the_skewed_input_is_mostly_zero_bytes_and_the_uniform_one_is_not() {
    let zero_fraction = |skewed| {
        let bytes = (0..10_000).flat_map(|i| histogram::input_word(i, 3, skewed).to_le_bytes());
        bytes.filter(|&b| b == 0).count() as f64 / 40_000.0
    };
    assert!((zero_fraction(true) - 7.0 / 8.0).abs() < 0.02, "{}", zero_fraction(true));
    assert!(zero_fraction(false) < 0.01, "{}", zero_fraction(false));
}

#[test]
fn every_strategy_input_and_bin_count_counts_exactly_with_and_without_checks() {
    let gpu = open_gpu();
    let mut plan = support::quick_plan(kernels::select("histogram").unwrap(), WORDS, Some(vec![1, 64, 256]));
    plan.shader_checks = vec![ShaderChecks::Default, ShaderChecks::Unchecked];
    let result = pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |_| Flow::Continue));
    assert_eq!(result.results.len(), 4 * 3 * histogram::BINS.len() * 2);
    for r in &result.results {
        support::assert_good(r);
    }
}

#[test]
fn counts_of_the_other_input_fail_validation() {
    let gpu = open_gpu();
    let workload = kernels::family("histogram").unwrap().setup(&gpu, WORDS, fill::fresh_seed()).unwrap();
    let configuration = |label: &str| Configuration {
        kernel: kernels::select(label).unwrap()[0].id,
        checks: ShaderChecks::Default,
        workgroup: [64, 1, 1],
        parameter: Some(16),
    };
    let uniform = configuration("workgroup/uniform");
    let config = pollster::block_on(workload.prepare(&gpu, &uniform)).unwrap();
    submit_once(&gpu, &config);
    let counts = pollster::block_on(read_buffer(&gpu, &config.output)).unwrap();
    assert_eq!(check_both(&gpu, &*workload, &uniform, &config, &counts), Ok(()));
    let error = check_both(&gpu, &*workload, &configuration("workgroup/skewed"), &config, &counts).unwrap_err();
    assert!(error.wrong >= 2, "{error}");
}
