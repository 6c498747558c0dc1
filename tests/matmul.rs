//! The matmul family on the native adapter (lavapipe in CI).
#![cfg(not(target_arch = "wasm32"))]

mod support;

use support::{check_both, environment, open_gpu};
use wgsweep::fill;
use wgsweep::kernel::read_buffer;
use wgsweep::kernel::submit_once;
use wgsweep::kernel::{Configuration, GpuCheck, Prepared, ShaderChecks};
use wgsweep::kernels;
use wgsweep::result::Pace;
use wgsweep::runner::{self, Flow};

/// Edges that no tile or block divides; the larger needs every tile to step along K more than once.
const EDGES: [u32; 2] = [100, 129];

#[test]
fn every_kernel_tile_and_block_multiplies_matrices_no_tile_divides() {
    let gpu = open_gpu();
    let mut plan = support::quick_plan(kernels::select("matmul").unwrap(), 129 * 129, None);
    plan.parameter_values = Some(EDGES.to_vec());
    plan.shader_checks = vec![ShaderChecks::Default, ShaderChecks::Unchecked];
    plan.kernels.retain(|k| !k.id.kernel.contains("_matrix"));
    let result = pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |_| Flow::Continue));
    // naive: 4 shapes, tiled: 1 each, blocked: 2 each, pipelined: 1 each; each at both edges, with and
    // without checks.
    assert_eq!(result.results.len(), (4 + 3 + 2 * 2 + 4) * 2 * 2);
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
    assert_eq!(result.results.len(), 4 * 4 * 2, "k8, k16, k8_16x8 and k8_f16, 4 edges, with and without checks");
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
        kernel: kernels::select("matmul_blocked/8x8").unwrap()[0].id,
        checks: ShaderChecks::Default,
        workgroup: [8, 8, 1],
        parameter: Some(100),
    };
    let config = pollster::block_on(workload.prepare(&gpu, &configuration)).unwrap();
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

#[test]
fn subgroup_matrix_products_are_skipped_natively_with_the_reason() {
    let gpu = open_gpu();
    let selected = "matmul_subgroup_matrix,matmul_subgroup_matrix_f16,matmul_cooperative_matrix_f16";
    let mut plan = support::quick_plan(kernels::select(selected).unwrap(), 256 * 256, None);
    plan.parameter_values = Some(vec![256]);
    let result = pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |_| Flow::Continue));
    // u8, i8 and f16 on Chromium's, f16 on wgpu's cooperative matrices: blocks of 32 × 32 in workgroups of
    // 1, 2, 4 and 8 subgroups, of 32 × 64 in 2, 4 and 8, of 64 × 64 in 4 and 8 (the most workgroup memory,
    // 30 KiB, within lavapipe's 32).
    assert_eq!(result.results.len(), 4 * (4 + 3 + 2));
    for r in &result.results {
        let skipped = r.skipped().unwrap_or_default();
        let reason = match r.kernel.as_str() {
            "matmul_cooperative_matrix_f16" => "VK_KHR_cooperative_matrix",
            _ => "chromium-experimental-subgroup-matrix",
        };
        assert!(skipped.contains(reason), "{}: {:?}", r.label(), r.outcome);
    }
}

/// The exact n × n product of 8-bit `signed` inputs as the family fills them (`fill::random_word`'s bytes;
/// A row by row, B column by column), as C's 32-bit words.
fn int8_product(seed: u32, n: usize, signed: bool) -> Vec<u8> {
    let byte = |seed: u32, i: usize| {
        let b = fill::random_word((i / 4) as u32, seed).to_le_bytes()[i % 4];
        if signed { b as i8 as i64 } else { b as i64 }
    };
    let (a, b): (Vec<i64>, Vec<i64>) = (0..n * n).map(|i| (byte(seed, i), byte(seed.wrapping_add(1), i))).unzip();
    let mut c = Vec::with_capacity(n * n * 4);
    for row in 0..n {
        for col in 0..n {
            let sum: i64 = (0..n).map(|k| a[row * n + k] * b[col * n + k]).sum();
            c.extend_from_slice(&(sum as i32).to_le_bytes());
        }
    }
    c
}

/// A matmul workload of edge `n`, and a preparation that binds C (the family's one output buffer).
fn with_c(
    gpu: &wgsweep::gpu::Gpu,
    n: usize,
    seed: u32,
) -> (Box<dyn wgsweep::kernel::Workload>, Prepared, Configuration) {
    let workload = kernels::family("matmul").unwrap().setup(gpu, (n * n) as u64, seed).unwrap();
    let naive = Configuration {
        kernel: kernels::select("matmul_naive").unwrap()[0].id,
        checks: ShaderChecks::Default,
        workgroup: [8, 8, 1],
        parameter: Some(n as u32),
    };
    let prepared = pollster::block_on(workload.prepare(gpu, &naive)).unwrap();
    (workload, prepared, naive)
}

#[test]
fn an_int8_product_with_one_wrong_element_fails_validation() {
    // The subgroup-matrix kernels do not run here; their checks, on the GPU and the CPU, do.
    let gpu = open_gpu();
    let (seed, n) = (fill::fresh_seed(), 96);
    let (workload, prepared, naive) = with_c(&gpu, n, seed);
    for variant in ["u8_32x32", "i8_32x64"] {
        let kernel = kernels::select(&format!("matmul_subgroup_matrix/{variant}")).unwrap()[0].id;
        let configuration = Configuration { kernel, workgroup: [32, 1, 1], ..naive };
        let mut product = int8_product(seed, n, variant.starts_with("i8"));
        assert_eq!(check_both(&gpu, &*workload, &configuration, &prepared, &product), Ok(()), "{variant}");
        // C[57][3] one more.
        let at = (57 * n + 3) * 4;
        let wrong = i32::from_le_bytes(product[at..at + 4].try_into().unwrap()) + 1;
        product[at..at + 4].copy_from_slice(&wrong.to_le_bytes());
        let error = check_both(&gpu, &*workload, &configuration, &prepared, &product).unwrap_err();
        assert_eq!((error.wrong, error.first[0].index), (1, 57 * n as u64 + 3), "{variant}: {error}");
    }
}

/// The n × n product of f16 inputs as the family fills them (`fill::random_f16`; A row by row, B column by
/// column, or row by row if not `b_columns`), summed in f64, as C's f32s.
fn f16_product(seed: u32, n: usize, b_columns: bool) -> Vec<u8> {
    let a: Vec<f64> = (0..n * n).map(|i| fill::random_f16(i as u32, seed) as f64).collect();
    let b: Vec<f64> = (0..n * n).map(|i| fill::random_f16(i as u32, seed.wrapping_add(1)) as f64).collect();
    let mut c = Vec::with_capacity(n * n * 4);
    for row in 0..n {
        for col in 0..n {
            let sum: f64 = (0..n).map(|k| a[row * n + k] * b[if b_columns { col * n + k } else { k * n + col }]).sum();
            c.extend_from_slice(&(sum as f32).to_le_bytes());
        }
    }
    c
}

#[test]
fn an_f16_subgroup_matrix_product_is_checked_with_b_column_by_column() {
    // The kernel does not run here; its checks, on the GPU and the CPU, do: B is read column by column, as
    // the 8-bit products read it (and not row by row, as matmul_pipelined/k8_f16 does).
    let gpu = open_gpu();
    let (seed, n) = (fill::fresh_seed(), 96);
    let (workload, prepared, naive) = with_c(&gpu, n, seed);
    let kernel = kernels::select("matmul_subgroup_matrix_f16/32x64").unwrap()[0].id;
    let configuration = Configuration { kernel, workgroup: [64, 1, 1], ..naive };
    let mut product = f16_product(seed, n, true);
    assert_eq!(check_both(&gpu, &*workload, &configuration, &prepared, &product), Ok(()));
    let at = (57 * n + 3) * 4;
    let wrong = f32::from_le_bytes(product[at..at + 4].try_into().unwrap()) + 0.25;
    product[at..at + 4].copy_from_slice(&wrong.to_le_bytes());
    let error = check_both(&gpu, &*workload, &configuration, &prepared, &product).unwrap_err();
    assert_eq!((error.wrong, error.first[0].index), (1, 57 * n as u64 + 3), "{error}");
    let rows = f16_product(seed, n, false);
    assert!(check_both(&gpu, &*workload, &configuration, &prepared, &rows).is_err());
    let pipelined = Configuration { kernel: kernels::select("matmul_pipelined/k8_f16").unwrap()[0].id, ..naive };
    assert_eq!(check_both(&gpu, &*workload, &pipelined, &prepared, &rows), Ok(()));
}

#[test]
fn every_element_of_an_int8_product_must_be_written_not_only_those_checked_by_value() {
    // Above 406 a side the CPU reference checks a sample of C by value (2^26 / n elements): the rest must
    // still not hold the poison, although as i32 any bits are a number (and negative ones an f32 NaN).
    let gpu = open_gpu();
    let (seed, n) = (fill::fresh_seed(), 416);
    let (workload, prepared, naive) = with_c(&gpu, n, seed);
    let kernel = kernels::select("matmul_subgroup_matrix/i8_32x64").unwrap()[0].id;
    let configuration = Configuration { kernel, workgroup: [32, 1, 1], ..naive };
    let mut product = int8_product(seed, n, true);
    assert_eq!(check_both(&gpu, &*workload, &configuration, &prepared, &product), Ok(()));
    // A 16 × 16 tile never stored: every one of its elements fails, sampled or not.
    for row in 160..176 {
        for col in 32..48 {
            let at = (row * n + col) * 4;
            product[at..at + 4].copy_from_slice(&fill::POISON.to_le_bytes());
        }
    }
    // The check on the GPU counts each element once; the CPU's counts the sampled ones twice.
    gpu.queue.write_buffer(&prepared.output, 0, &product);
    let check = GpuCheck::new(&gpu);
    let mut pace = Pace::default();
    let on_gpu = runner::check_output(&gpu, &check, &*workload, &configuration, &prepared, &mut pace);
    let error = pollster::block_on(on_gpu).unwrap_err();
    assert!(error.contains("256 of 173056") && error.contains(&format!("C[{}]", 160 * n + 32)), "{error}");
    assert!(check_both(&gpu, &*workload, &configuration, &prepared, &product).is_err());
}
