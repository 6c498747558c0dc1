//! The matmul family on the native adapter (lavapipe in CI).
#![cfg(not(target_arch = "wasm32"))]

mod support;

use support::{check_both, environment, open_gpu};
use wgsweep::fill;
use wgsweep::kernel::read_buffer;
use wgsweep::kernel::submit_once;
use wgsweep::kernel::{Configuration, ShaderChecks};
use wgsweep::kernels;
use wgsweep::runner::{self, Flow};

/// Edges that no tile or block divides; the larger needs every tile to step along K more than once.
const EDGES: [u32; 2] = [100, 129];

#[test]
fn every_kernel_tile_and_block_multiplies_matrices_no_tile_divides() {
    let gpu = open_gpu();
    let mut plan = support::quick_plan(kernels::select("matmul").unwrap(), 129 * 129, None);
    plan.parameter_values = Some(EDGES.to_vec());
    plan.shader_checks = vec![ShaderChecks::Default, ShaderChecks::Unchecked];
    let result = pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |_| Flow::Continue));
    // naive: 4 shapes, tiled: 1 each, blocked: 2 each, pipelined: 1 each; each at both edges, with and
    // without checks.
    assert_eq!(result.results.len(), (4 + 3 + 2 * 2 + 3) * 2 * 2);
    for r in &result.results {
        support::assert_good(r);
        let n = r.parameter.as_ref().unwrap().value as u64;
        assert_eq!(r.flops_per_dispatch, Some(2 * n * n * n));
        assert!(r.gflops().unwrap() > 0.0);
    }
}

#[test]
fn the_pipelined_kernel_multiplies_aligned_and_unaligned_matrices_over_several_tiles() {
    let gpu = open_gpu();
    let mut plan = support::quick_plan(kernels::select("matmul_pipelined").unwrap(), 260 * 260, None);
    // 256: whole tiles; 260: rows of whole vec4s, 3 tiles a side, the last mostly outside; 257 and 130: rows
    // that are not.
    plan.parameter_values = Some(vec![130, 256, 257, 260]);
    plan.shader_checks = vec![ShaderChecks::Default, ShaderChecks::Unchecked];
    let result = pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |_| Flow::Continue));
    assert_eq!(result.results.len(), 3 * 4 * 2, "k8, k16 and k8_f16, 4 edges, with and without checks");
    result.results.iter().for_each(support::assert_good);
}

#[test]
fn edges_larger_than_the_problem_size_are_skipped() {
    let gpu = open_gpu();
    let mut plan = support::quick_plan(kernels::select("matmul_blocked/4x4").unwrap(), 100 * 100, Some(vec![8]));
    plan.parameter_values = Some(vec![101]);
    let result = pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |_| Flow::Continue));
    let skipped = result.results[0].skipped().unwrap();
    assert!(skipped.contains("more than the problem size"), "{skipped}");
}

#[test]
fn a_product_with_one_wrong_element_fails_validation() {
    let gpu = open_gpu();
    let workload = kernels::family("matmul").unwrap().setup(&gpu, 100 * 100, fill::fresh_seed()).unwrap();
    let configuration = Configuration {
        kernel: kernels::select("matmul_blocked/8x8").unwrap()[0],
        checks: ShaderChecks::Default,
        workgroup: [8, 8, 1],
        parameter: Some(100),
    };
    let config = workload.prepare(&gpu, &configuration).unwrap();
    submit_once(&gpu, &config);
    let mut product = pollster::block_on(read_buffer(&gpu, &config.output)).unwrap();
    assert_eq!(check_both(&gpu, &*workload, &configuration, &config, &product), Ok(()));
    // C[57][3] loses one term's worth: a dot product short by about 1/3 in magnitude.
    let at = (57 * 100 + 3) * 4;
    let wrong = f32::from_le_bytes(product[at..at + 4].try_into().unwrap()) + 0.25;
    product[at..at + 4].copy_from_slice(&wrong.to_le_bytes());
    let error = check_both(&gpu, &*workload, &configuration, &config, &product).unwrap_err();
    assert_eq!((error.wrong, error.first[0].index), (1, 57 * 100 + 3), "{error}");
}
