//! The transpose family on whatever native adapter is present (lavapipe in CI).
#![cfg(not(target_arch = "wasm32"))]

mod support;

use support::{check_both, environment, open_gpu};
use wgsweep::fill;
use wgsweep::kernel::read_buffer;
use wgsweep::kernel::submit_once;
use wgsweep::kernel::{self, Configuration, ShaderChecks};
use wgsweep::kernels;
use wgsweep::kernels::transpose::Matrix;
use wgsweep::runner::{self, Flow};

/// 57 × 64: neither square nor a multiple of any tile along the rows.
const SIZE: u64 = 3700;

#[test]
fn the_problem_becomes_a_non_square_matrix_that_no_tile_divides() {
    assert_eq!(kernel::matrix_shape(SIZE), (57, 64));
    let (rows, cols) = kernel::matrix_shape(1 << 26);
    assert!(rows != cols && rows % 8 != 0 && rows as u64 * cols as u64 <= 1 << 26, "{rows} × {cols}");
}

#[test]
fn the_square_matrix_is_a_multiple_of_every_tile_and_aligned_rows_start_on_128_bytes() {
    let matrix = |size, which| {
        let Matrix { rows, cols, src_pitch, dst_pitch } = Matrix::new(size, which);
        [rows, cols, src_pitch, dst_pitch]
    };
    assert_eq!(matrix(SIZE, 0), [57, 64, 64, 57]);
    assert_eq!(matrix(SIZE, 1), [32, 32, 32, 32]);
    assert_eq!(matrix(SIZE, 2), [57, 64, 64, 64]);
    assert_eq!(matrix(1 << 26, 0), [8189, 8195, 8195, 8189]);
    assert_eq!(matrix(1 << 26, 1), [8192, 8192, 8192, 8192]);
    assert_eq!(matrix(1 << 26, 2), [8189, 8195, 8224, 8192]);
    assert_eq!(Matrix::new(1 << 26, 2).for_copy().dst_pitch, 8224);
}

#[test]
fn every_transpose_kernel_tile_and_workgroup_shape_validates_on_an_odd_matrix() {
    let gpu = open_gpu();
    let mut plan = support::quick_plan(kernels::select("transpose").unwrap(), SIZE, None);
    // Unchecked also leaves workgroup memory unzeroed: the tiles must still only read what they wrote.
    plan.shader_checks = vec![ShaderChecks::Default, ShaderChecks::Unchecked];
    let result = pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |_| Flow::Continue));
    let tiled: Vec<String> = result
        .results
        .iter()
        .filter(|r| r.kernel == "tiled" && r.variant == "padded")
        .map(|r| r.workgroup_text())
        .collect();
    // Each tile shape on each of the three matrices, with and without checks.
    let shapes = ["8×8", "8×2", "16×16", "16×4", "32×32", "32×8"];
    assert_eq!(tiled, shapes.repeat(3 * 2));
    // Every valid figure is related to the best same-shape copy, which is the 100 % mark.
    let best_copy = result
        .results
        .iter()
        .filter(|r| r.kernel == "copy2d")
        .filter_map(|r| r.percent_of_baseline)
        .fold(0.0, f64::max);
    assert!((best_copy - 100.0).abs() < 1e-9, "{best_copy}");
    assert!(result.results.iter().filter(|r| r.is_good()).all(|r| r.percent_of_baseline.is_some()));
    for r in &result.results {
        let within_limits = r.workgroup_size.iter().product::<u32>() <= gpu.info.limits.max_invocations_per_workgroup;
        if within_limits && r.workgroup_size[0] <= gpu.info.limits.max_workgroup_size_x {
            support::assert_good(r);
        } else {
            assert!(r.skipped().is_some(), "{} wg={} should be skipped", r.label(), r.workgroup_text());
        }
    }
}

#[test]
fn a_transpose_that_copies_instead_fails_validation() {
    let gpu = open_gpu();
    let family = kernels::family("transpose").unwrap();
    let workload = family.setup(&gpu, SIZE, fill::fresh_seed()).unwrap();
    let configuration = |label: &str| Configuration {
        kernel: kernels::select(label).unwrap()[0].id,
        checks: ShaderChecks::Default,
        workgroup: [16, 4, 1],
        parameter: None,
    };
    let copy = pollster::block_on(workload.prepare(&gpu, &configuration("copy2d/reference"))).unwrap();
    submit_once(&gpu, &copy);
    let copied = pollster::block_on(read_buffer(&gpu, &copy.output)).unwrap();
    assert_eq!(check_both(&gpu, &*workload, &configuration("copy2d/reference"), &copy, &copied), Ok(()));
    let error = check_both(&gpu, &*workload, &configuration("tiled/padded"), &copy, &copied).unwrap_err();
    assert!(error.wrong > SIZE / 2, "{error}");
}
