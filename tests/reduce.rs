//! The reduce family on the native adapter (lavapipe in CI): every strategy, and what validation catches.
#![cfg(not(target_arch = "wasm32"))]

mod support;

use support::{check_both, environment, open_gpu};
use wgsweep::fill;
use wgsweep::kernel::encode_steps;
use wgsweep::kernel::read_buffer;
use wgsweep::kernel::submit_once;
use wgsweep::kernel::{self, Configuration, ShaderChecks, Step};
use wgsweep::kernels;
use wgsweep::runner::{self, Flow};

/// Not a multiple of any workgroup size, and large enough that partial sums need two more passes.
const ELEMENTS: u64 = 100_003;

#[test]
fn every_reduction_validates_at_every_workgroup_size_with_and_without_checks() {
    let gpu = open_gpu();
    let mut plan = support::quick_plan(kernels::select("reduce").unwrap(), ELEMENTS, Some(vec![1, 2, 32, 64, 256]));
    plan.shader_checks = vec![ShaderChecks::Default, ShaderChecks::Unchecked];
    let result = pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |_| Flow::Continue));
    assert_eq!(result.results.len(), 8 * 5 * 2);
    for r in &result.results {
        if r.kernel == "subgroup" && !gpu.subgroups {
            assert!(r.skipped().as_ref().is_some_and(|s| s.contains("subgroup operations")), "{:?}", r.skipped());
            continue;
        }
        support::assert_good(r);
        assert_eq!(r.bytes_per_dispatch, ELEMENTS * 4);
    }
}

#[test]
fn a_sum_that_is_off_by_one_fails_validation() {
    let gpu = open_gpu();
    let workload = kernels::family("reduce").unwrap().setup(&gpu, ELEMENTS, fill::fresh_seed()).unwrap();
    for label in ["tree/u32", "grid/f32", "tree_atomic/u32"] {
        let configuration = Configuration {
            kernel: kernels::select(label).unwrap()[0].id,
            checks: ShaderChecks::Default,
            workgroup: [64, 1, 1],
            parameter: None,
        };
        let config = pollster::block_on(workload.prepare(&gpu, &configuration)).unwrap();
        submit_once(&gpu, &config);
        let mut sum = pollster::block_on(read_buffer(&gpu, &config.output)).unwrap();
        assert_eq!(check_both(&gpu, &*workload, &configuration, &config, &sum), Ok(()), "{label}");
        // One too many for u32; for f32, as if an element of magnitude 1 were added twice.
        let bits = u32::from_le_bytes([sum[0], sum[1], sum[2], sum[3]]);
        let wrong = if label.ends_with("u32") { bits.wrapping_add(1) } else { (f32::from_bits(bits) + 1.0).to_bits() };
        sum[..4].copy_from_slice(&wrong.to_le_bytes());
        assert!(check_both(&gpu, &*workload, &configuration, &config, &sum).is_err(), "{label}: a wrong sum passed");
    }
}

#[test]
fn a_tree_without_its_barriers_is_caught_by_validation() {
    // The tree's levels read what other invocations wrote at the level before; without the barriers in
    // between, some invocations read sums that are not written yet. On lavapipe the invocations of a
    // workgroup run in chunks that only switch at a barrier, so the race shows on every workgroup.
    let source = include_str!("../shaders/reduce.wgsl").replace("workgroupBarrier();", "");
    let gpu = open_gpu();
    let module = gpu.device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("reduce.wgsl without barriers"),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    });
    let wg = 256u32;
    let groups = ELEMENTS.div_ceil(wg as u64);
    let seed = fill::fresh_seed();
    let src = kernel::random_buffer(&gpu, "input", ELEMENTS * 4, seed);
    let partials = kernel::storage_buffer(&gpu, "partial sums", groups * 4);
    let pipeline = gpu.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("tree_u32"),
        layout: None,
        module: &module,
        entry_point: Some("tree_u32"),
        compilation_options: wgpu::PipelineCompilationOptions { constants: &[("WG", wg as f64)], ..Default::default() },
        cache: None,
    });
    let bind_group = kernel::bind_group(&gpu, &pipeline, &[(0, &src), (2, &partials)]);
    let step = Step::new(pipeline, bind_group, kernel::linear_grid(&gpu, groups).unwrap());
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    encode_steps(&mut encoder.begin_compute_pass(&Default::default()), &[step]);
    gpu.queue.submit([encoder.finish()]);
    let got = pollster::block_on(read_buffer(&gpu, &partials)).unwrap();
    let wrong = (0..groups)
        .filter(|&g| {
            let want = (g * wg as u64..((g + 1) * wg as u64).min(ELEMENTS))
                .fold(0u32, |sum, i| sum.wrapping_add(fill::random_f32(i as u32, seed).to_bits()));
            let at = g as usize * 4;
            u32::from_le_bytes([got[at], got[at + 1], got[at + 2], got[at + 3]]) != want
        })
        .count();
    assert!(wrong > 0, "all {groups} workgroup sums were right without barriers");
}
