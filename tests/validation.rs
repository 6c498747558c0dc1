//! Validation on the GPU (shaders/compare.wgsl) against its CPU twin (`kernel::passes`), on whatever native
//! adapter is present (lavapipe in CI): the edge cases of the rule, wrong elements anywhere, and families
//! whose outputs it checks catching a corrupted output.
#![cfg(not(target_arch = "wasm32"))]

#[expect(dead_code, reason = "the runner helpers the other test binaries use")]
mod support;

use support::open_gpu;
use wgsweep::fill;
use wgsweep::gpu::Gpu;
use wgsweep::kernel::{self, Configuration, GpuCheck, Reference, ShaderChecks, Summary, passes, read_buffer};
use wgsweep::kernels;

/// Compares `found` with `(want, tolerance)` pairs on the GPU.
fn summarize(gpu: &Gpu, found: &[f32], expected: &[[f32; 2]]) -> Summary {
    let output = kernel::storage_buffer(gpu, "found", found.len() as u64 * 4);
    gpu.queue.write_buffer(&output, 0, &found.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>());
    let reference = Reference::build(gpu, "out", expected.len() as u64, |i| expected[i as usize]);
    pollster::block_on(GpuCheck::new(gpu).summarize(gpu, &output, &reference)).unwrap()
}

/// What the CPU rule says of the same elements.
fn cpu_summary(found: &[f32], expected: &[[f32; 2]]) -> (u64, Option<u64>) {
    let wrong: Vec<u64> =
        (0..found.len()).filter(|&i| !passes(found[i], expected[i][0], expected[i][1])).map(|i| i as u64).collect();
    (wrong.len() as u64, wrong.first().copied())
}

const N: usize = 1000;

fn values() -> Vec<f32> {
    (0..N as u32).map(|i| fill::random_f32(i, 7)).collect()
}

#[test]
fn one_wrong_element_is_caught_at_the_first_the_middle_and_the_last_index() {
    let gpu = open_gpu();
    let want = values();
    let exact: Vec<[f32; 2]> = want.iter().map(|&w| [w, 0.0]).collect();
    assert_eq!(summarize(&gpu, &want, &exact), Summary { wrong: 0, first_wrong: None, largest_error: 0.0 });
    for at in [0, N / 2, N - 1] {
        let mut found = want.clone();
        found[at] += 0.25;
        let summary = summarize(&gpu, &found, &exact);
        assert_eq!((summary.wrong, summary.first_wrong), (1, Some(at as u64)), "wrong at {at}");
        assert_eq!((summary.wrong, summary.first_wrong), cpu_summary(&found, &exact));
        assert_eq!(summary.largest_error, (found[at] - want[at]).abs());
    }
    // Within a tolerance, the same difference passes; a little over it, it does not.
    let mut found = want.clone();
    found[N / 2] += 0.25;
    let loose: Vec<[f32; 2]> = want.iter().map(|&w| [w, 0.3]).collect();
    assert_eq!(summarize(&gpu, &found, &loose).wrong, 0);
    let tight: Vec<[f32; 2]> = want.iter().map(|&w| [w, 0.2]).collect();
    assert_eq!(summarize(&gpu, &found, &tight).first_wrong, Some(N as u64 / 2));
}

#[test]
fn nan_zeros_infinities_and_subnormals_are_held_to_the_same_rule_as_on_the_cpu() {
    let gpu = open_gpu();
    let subnormal = f32::from_bits(1);
    // (found, want, tolerance, passes)
    let cases = [
        (f32::NAN, 1.0, 1e30, false),              // NaN never passes, whatever the tolerance
        (f32::NAN, f32::NAN, 0.0, false),          // not even against NaN
        (-0.0, 0.0, 0.0, true),                    // the two zeros are one value
        (0.0, -0.0, 0.0, true),                    //
        (f32::INFINITY, f32::INFINITY, 0.0, true), // the very bits
        (f32::NEG_INFINITY, f32::INFINITY, 1e30, false),
        (f32::INFINITY, 1.0, 1e30, false),     // no tolerance reaches infinity
        (subnormal, 0.0, 0.0, false),          // exact means the very bits, subnormals too
        (subnormal, 0.0, 1e-30, true),         // within a tolerance it is a tiny difference
        (1.0, 1.0 + f32::EPSILON, 0.0, false), // one ulp off, exact
        (1.0, 1.0 + f32::EPSILON, 2.0 * f32::EPSILON, true),
    ];
    for (found, want, tolerance, expected) in cases {
        assert_eq!(passes(found, want, tolerance), expected, "CPU: {found:e} against {want:e} ± {tolerance:e}");
        // The case sits among correct elements, in the middle of a workgroup.
        let mut found_all = values();
        let mut expected_all: Vec<[f32; 2]> = found_all.iter().map(|&w| [w, 0.0]).collect();
        (found_all[300], expected_all[300]) = (found, [want, tolerance]);
        let summary = summarize(&gpu, &found_all, &expected_all);
        assert_eq!(
            (summary.wrong, summary.first_wrong),
            cpu_summary(&found_all, &expected_all),
            "GPU: {found:e} against {want:e} ± {tolerance:e}"
        );
        if found.is_nan() || (!expected && found.is_infinite()) {
            assert!(summary.largest_error.is_nan() || summary.largest_error.is_infinite(), "{summary:?}");
        }
    }
}

#[test]
fn every_stream_kernel_checked_on_the_gpu_agrees_with_the_cpu_and_catches_a_corrupted_element() {
    let gpu = open_gpu();
    let check = GpuCheck::new(&gpu);
    let stream = kernels::family("stream").unwrap();
    let workload = stream.setup(&gpu, 4 * 4099, fill::fresh_seed()).unwrap();
    for label in ["copy/scalar", "scale/vec4", "add/grid_stride", "triad/scalar"] {
        let configuration = Configuration {
            kernel: kernels::select(label).unwrap()[0],
            checks: ShaderChecks::Default,
            workgroup: [64, 1, 1],
            parameter: None,
        };
        let prepared = workload.prepare(&gpu, &configuration).unwrap();
        kernel::submit_once(&gpu, &prepared);
        let reference = workload.reference(&gpu, &configuration).expect("STREAM's elementwise kernels have one");
        pollster::block_on(check.check(&gpu, &prepared.output, &reference)).unwrap();
        let output = pollster::block_on(read_buffer(&gpu, &prepared.output)).unwrap();
        workload.check(&configuration, &prepared, &output).expect("the CPU cross-check agrees");

        let at = 4 * 4099 - 5;
        gpu.queue.write_buffer(&prepared.output, at * 4, &2.5f32.to_le_bytes());
        let error = pollster::block_on(check.check(&gpu, &prepared.output, &reference)).unwrap_err();
        assert!(error.starts_with(&format!("FAILED validation: c[{at}]: 2.5e0 (is) != ")), "{label}: {error}");
        assert!(error.contains(&format!("1 of {} wrong", 4 * 4099)), "{label}: {error}");
    }
    let dot = Configuration {
        kernel: kernels::select("dot/vec4").unwrap()[0],
        checks: ShaderChecks::Default,
        workgroup: [64, 1, 1],
        parameter: None,
    };
    assert!(workload.reference(&gpu, &dot).is_none(), "dot's partial sums are checked on the CPU");
}
