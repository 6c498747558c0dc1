//! The blur family on the native adapter (lavapipe in CI).
#![cfg(not(target_arch = "wasm32"))]

mod support;

use support::{check_both, environment, open_gpu};
use wgsweep::kernel::read_buffer;
use wgsweep::kernel::submit_once;
use wgsweep::kernel::{Configuration, ShaderChecks};
use wgsweep::kernels::{self, blur};
use wgsweep::runner::{self, Flow};

#[test]
fn both_kernels_blur_at_the_largest_radius_in_every_shape_with_and_without_checks() {
    let gpu = open_gpu();
    // 121 × 124 pixels (matrix_shape): no workgroup edge divides them, and radius 8 reaches past every edge.
    let mut plan = support::quick_plan(kernels::select("blur").unwrap(), 15_000, None);
    plan.parameter_values = Some(vec![8]);
    plan.shader_checks = vec![ShaderChecks::Default, ShaderChecks::Unchecked];
    let result = pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |_| Flow::Continue));
    let shapes = wgsweep::kernel::shapes::power_of_two_shapes(&gpu.info.limits).len();
    assert_eq!(result.results.len(), 2 * 2 * shapes);
    for r in &result.results {
        match &r.skipped() {
            // Only tiles that do not fit in workgroup memory may be skipped.
            Some(why) => assert!(r.kernel == "box_tiled" && why.contains("workgroup_storage"), "{why}"),
            None => support::assert_good(r),
        }
    }
    assert!(result.results.iter().filter(|r| r.is_good()).count() > result.results.len() * 3 / 4);
}

#[test]
fn both_kernels_blur_at_every_radius() {
    let gpu = open_gpu();
    let plan = support::quick_plan(kernels::select("blur").unwrap(), 15_000, Some(vec![64]));
    let result = pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |_| Flow::Continue));
    assert_eq!(result.results.len(), 2 * blur::radii().len());
    for r in &result.results {
        support::assert_good(r);
        let side = 2 * r.parameter.as_ref().unwrap().value as u64 + 1;
        assert_eq!(r.flops_per_dispatch, Some(r.problem_size * (side * side + 1)));
    }
}

#[test]
fn a_blur_of_another_radius_fails_validation() {
    let gpu = open_gpu();
    let workload = kernels::family("blur").unwrap().setup(&gpu, 15_000, wgsweep::fill::fresh_seed()).unwrap();
    let configuration = |radius| Configuration {
        kernel: kernels::select("box_tiled").unwrap()[0].id,
        checks: ShaderChecks::Default,
        workgroup: [16, 16, 1],
        parameter: Some(radius),
    };
    let config = pollster::block_on(workload.prepare(&gpu, &configuration(2))).unwrap();
    submit_once(&gpu, &config);
    let blurred = pollster::block_on(read_buffer(&gpu, &config.output)).unwrap();
    assert_eq!(check_both(&gpu, &*workload, &configuration(2), &config, &blurred), Ok(()));
    let error = check_both(&gpu, &*workload, &configuration(1), &config, &blurred).unwrap_err();
    assert!(error.wrong > error.checked / 2, "{error}");
}
