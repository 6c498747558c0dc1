//! The saturation family on the native adapter (lavapipe in CI).
#![cfg(not(target_arch = "wasm32"))]

#[expect(dead_code, reason = "check_both, for the tests of checks themselves")]
mod support;

use support::{environment, open_gpu};
use wgsweep::kernel::ShaderChecks;
use wgsweep::kernels;
use wgsweep::runner::{self, Flow};

#[test]
fn every_size_up_to_the_problem_size_validates_and_larger_ones_are_skipped() {
    let gpu = open_gpu();
    let mut plan = support::quick_plan(kernels::select("saturation").unwrap(), 1 << 14, None);
    plan.shader_checks = vec![ShaderChecks::Default, ShaderChecks::Unchecked];
    let result = pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |_| Flow::Continue));
    let sizes = kernels::saturation::sizes();
    assert_eq!(result.results.len(), 2 * 2 * sizes.len());
    for r in &result.results {
        let n = r.parameter.as_ref().unwrap().value;
        if n > 1 << 14 {
            assert!(
                r.skipped().as_ref().is_some_and(|s| s.contains("more than the problem size")),
                "{:?}",
                r.skipped()
            );
        } else {
            support::assert_good(r);
            let per_element = if r.kernel == "triad_by_size" { 12 } else { 4 };
            assert_eq!(r.bytes_per_dispatch, per_element * n as u64);
        }
    }
}
