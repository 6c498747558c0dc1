//! The bank-conflict family on the native adapter (lavapipe in CI).
#![cfg(not(target_arch = "wasm32"))]

#[expect(dead_code, reason = "check_both, for the tests of checks themselves")]
mod support;

use support::{environment, open_gpu};
use wgsweep::kernel::ShaderChecks;
use wgsweep::kernels::{self, banks};
use wgsweep::runner::{self, Flow};

#[test]
fn every_stride_reads_the_right_words_plain_and_padded() {
    let gpu = open_gpu();
    let mut plan = support::quick_plan(kernels::select("banks").unwrap(), 4096 + 256, None);
    plan.shader_checks = vec![ShaderChecks::Default, ShaderChecks::Unchecked];
    let result = pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |_| Flow::Continue));
    assert_eq!(result.results.len(), 2 * banks::STRIDES.len() * 2);
    for r in &result.results {
        support::assert_good(r);
    }
}

#[test]
fn each_stride_sums_different_words() {
    // A kernel that ignored the stride would pass only if the sums did not depend on it.
    let sums: Vec<u32> = banks::STRIDES.iter().map(|&s| banks::sum(5, s)).collect();
    for (i, a) in sums.iter().enumerate() {
        assert!(!sums[i + 1..].contains(a), "{sums:?}");
    }
}
