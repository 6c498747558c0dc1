//! Validation on the GPU (shaders/compare.wgsl) against its CPU twin (`kernel::passes`), on whatever native
//! adapter is present (lavapipe in CI): the edge cases of the rule, wrong elements anywhere, and families
//! whose outputs it checks catching a corrupted output.
#![cfg(not(target_arch = "wasm32"))]

#[expect(dead_code, reason = "the runner helpers the other test binaries use")]
mod support;

use std::ops::Range;

use serde::{Deserialize, Serialize};
use support::{check_both, open_gpu};
use wgsweep::fill;
use wgsweep::gpu::Gpu;
use wgsweep::kernel::{
    self, Configuration, Expected, Family, GpuCheck, Recipe, Reference, ShaderChecks, Summary, passes, read_buffer,
};
use wgsweep::kernels;

/// A reference whose words a test lists one by one.
#[derive(Serialize, Deserialize)]
struct Listed {
    words: Vec<Expected>,
}

impl Recipe for Listed {
    const FAMILY: &'static str = "a test's";

    fn words(&self, range: Range<u64>) -> impl Iterator<Item = Expected> {
        self.words[range.start as usize..range.end as usize].iter().copied()
    }
}

/// Compares `found` with `(want, tolerance)` pairs on the GPU.
fn summarize(gpu: &Gpu, found: &[f32], expected: &[[f32; 2]]) -> Summary {
    let words: Vec<u32> = found.iter().map(|x| x.to_bits()).collect();
    let expected: Vec<Expected> =
        expected.iter().map(|&[value, tolerance]| Expected::Float { value, tolerance }).collect();
    summarize_words(gpu, &words, &expected, expected.len() as u64)
}

/// Compares words with what they must hold, the reference repeating every `period` words, on the GPU.
fn summarize_words(gpu: &Gpu, found: &[u32], expected: &[Expected], period: u64) -> Summary {
    let output = kernel::storage_buffer(gpu, "found", found.len() as u64 * 4);
    gpu.queue.write_buffer(&output, 0, &found.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>());
    let count = found.len() as u64;
    let listed = Listed { words: expected.to_vec() };
    let reference = pollster::block_on(Reference::periodic(gpu, "out", count, period, listed));
    let summary = GpuCheck::new(gpu).submit(gpu, &output, &reference).unwrap();
    pollster::block_on(kernel::read_summary(gpu, summary)).unwrap()
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
            kernel: kernels::select(label).unwrap()[0].id,
            checks: ShaderChecks::Default,
            workgroup: [64, 1, 1],
            parameter: None,
        };
        let prepared = pollster::block_on(workload.prepare(&gpu, &configuration)).unwrap();
        kernel::submit_once(&gpu, &prepared);
        let reference = pollster::block_on(workload.reference(&gpu, &configuration))
            .unwrap()
            .expect("STREAM's elementwise kernels have one");
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
        kernel: kernels::select("dot/vec4").unwrap()[0].id,
        checks: ShaderChecks::Default,
        workgroup: [64, 1, 1],
        parameter: None,
    };
    assert!(
        pollster::block_on(workload.reference(&gpu, &dot)).unwrap().is_none(),
        "dot's partial sums are checked on the CPU"
    );
}

#[test]
fn words_are_held_to_their_very_bits_padding_to_nothing_and_a_period_repeats() {
    let gpu = open_gpu();
    let nan_bits = 0x7fc0_0001; // an integer that reads as a NaN, which a float rule would refuse
    let expected = [Expected::Word(nan_bits), Expected::Any, Expected::Word(7), Expected::exact(-0.0)];
    for (found, wrong) in [
        ([nan_bits, fill::POISON, 7, 0], None), // the NaN's bits themselves, padding left poisoned, +0 for -0
        ([nan_bits, 123, 8, 0], Some(2)),       // an integer one off
        ([nan_bits ^ 1, 123, 7, 0], Some(0)),   // other bits of a NaN
    ] {
        let cpu = (0..4).find(|&i| !expected[i].admits(found[i])).map(|i| i as u64);
        assert_eq!(cpu, wrong, "{found:x?}");
        let summary = summarize_words(&gpu, &found, &expected, 4);
        assert_eq!(summary.first_wrong, wrong, "{found:x?}");
        assert_eq!(summary.largest_error, 0.0, "words and padding have no error to measure");
    }
    // 1000 words checked against a period of 4: a word past the first period is held to its element.
    let mut found: Vec<u32> = (0..1000).map(|i| [nan_bits, 5, 7, 0][i % 4]).collect();
    assert_eq!(summarize_words(&gpu, &found, &expected, 4).wrong, 0);
    found[998] = 6;
    let summary = summarize_words(&gpu, &found, &expected, 4);
    assert_eq!((summary.wrong, summary.first_wrong), (1, Some(998)));
}

#[test]
fn halves_are_each_held_to_their_f16_value_on_the_gpu_as_on_the_cpu() {
    let gpu = open_gpu();
    let half = |x: f32| u32::from(half::f16::from_f32(x).to_bits());
    let pair = |low: f32, high: f32| half(low) | half(high) << 16;
    let expected =
        [Expected::halves([0.5, -0.25], 0.0), Expected::halves([1.0, 2.0], 0.01), Expected::halves([-0.0, 0.0], 0.0)];
    for (found, wrong) in [
        ([pair(0.5, -0.25), pair(1.005, 1.995), pair(0.0, -0.0)], None), // exact; within 0.01; +0 for -0
        ([pair(0.5, -0.2502), pair(1.0, 2.0), 0], Some(0)),              // a high half off by one f16 step
        ([pair(0.5, -0.25), pair(1.0, 2.03), 0], Some(1)),               // beyond the tolerance
        ([pair(0.5, -0.25), pair(1.0, 2.0), 0x7e00], Some(2)),           // a NaN in the low half
    ] {
        let cpu = (0..3).find(|&i| !expected[i].admits(found[i])).map(|i| i as u64);
        assert_eq!(cpu, wrong, "{found:x?}");
        let summary = summarize_words(&gpu, &found, &expected, 3);
        assert_eq!(summary.first_wrong, wrong, "{found:x?}");
    }
    // The largest error is the larger half's, as f32.
    let summary = summarize_words(&gpu, &[pair(0.5, -0.25), pair(1.0, 2.03125), 0], &expected, 3);
    assert_eq!(summary.largest_error, 0.03125);
}

#[test]
fn f16_kernels_are_skipped_with_the_reason_where_the_device_has_no_f16() {
    let mut gpu = open_gpu();
    gpu.shader_f16 = false;
    let workload = kernels::family("stream").unwrap().setup(&gpu, 1024, fill::fresh_seed()).unwrap();
    let configuration = Configuration {
        kernel: kernels::select("triad/vec4_f16").unwrap()[0].id,
        checks: ShaderChecks::Default,
        workgroup: [64, 1, 1],
        parameter: None,
    };
    let skipped = pollster::block_on(workload.prepare(&gpu, &configuration)).err().expect("skipped").to_string();
    assert_eq!(skipped, "needs f16 in shaders (shader-f16), which this device does not offer");
}

/// The first configuration of each kernel that runs on a small problem, at a workgroup size every adapter
/// allows.
fn small_configurations(gpu: &Gpu, family: &dyn Family) -> Vec<Configuration> {
    let limits = &gpu.info.limits;
    family
        .kernels()
        .into_iter()
        .map(|kernel| {
            let shapes = family.workgroup_shapes(&kernel, limits);
            let workgroup = *shapes.iter().find(|s| s[0] * s[1] >= 16 && s[0] * s[1] <= 64).unwrap_or(&shapes[0]);
            let parameter = family.parameter(&kernel).map(|p| p.values[0]);
            Configuration { kernel, checks: ShaderChecks::Default, workgroup, parameter }
        })
        .collect()
}

#[test]
fn every_family_catches_a_corrupted_word_of_output_as_a_run_checks_it_and_on_the_cpu() {
    let gpu = open_gpu();
    for family in kernels::FAMILIES {
        let workload = family.setup(&gpu, family.round_size(1 << 16), fill::fresh_seed()).unwrap();
        let mut checked = 0;
        for configuration in small_configurations(&gpu, *family) {
            let label = kernels::describe(&configuration);
            let Ok(prepared) = pollster::block_on(workload.prepare(&gpu, &configuration)) else { continue };
            checked += 1;
            kernel::submit_once(&gpu, &prepared);
            let mut output = pollster::block_on(read_buffer(&gpu, &prepared.output)).unwrap();
            assert_eq!(check_both(&gpu, &*workload, &configuration, &prepared, &output), Ok(()), "{label}");
            // Flipping an exponent bit of the first word changes a float by far more than any tolerance, and
            // an integer by 2^30.
            output[3] ^= 0x40;
            assert!(check_both(&gpu, &*workload, &configuration, &prepared, &output).is_err(), "{label}: passed");
        }
        assert!(checked > 0, "{}: no kernel ran", family.name());
    }
}

#[test]
fn a_reference_larger_than_one_binding_is_compared_part_by_part() {
    let mut gpu = open_gpu();
    // 1 MiB bindings: a part holds 2^17 elements, so 300 000 words take three parts.
    gpu.info.limits.max_storage_buffer_binding_size = 1 << 20;
    let n = 300_000usize;
    let want: Vec<f32> = (0..n as u32).map(|i| fill::random_f32(i, 3)).collect();
    let exact: Vec<[f32; 2]> = want.iter().map(|&w| [w, 0.0]).collect();
    assert_eq!(summarize(&gpu, &want, &exact).wrong, 0);
    let mut found = want.clone();
    for at in [200_000, 131_072, 299_999] {
        found[at] = 9.5;
    }
    let summary = summarize(&gpu, &found, &exact);
    assert_eq!((summary.wrong, summary.first_wrong), (3, Some(131_072)));

    let output = kernel::storage_buffer(&gpu, "found", n as u64 * 4);
    gpu.queue.write_buffer(&output, 0, &found.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>());
    let listed = Listed { words: want.iter().map(|&w| Expected::exact(w)).collect() };
    let reference = pollster::block_on(Reference::build(&gpu, "out", n as u64, listed));
    let error = pollster::block_on(GpuCheck::new(&gpu).check(&gpu, &output, &reference)).unwrap_err();
    assert!(error.starts_with("FAILED validation: out[131072]: 9.5e0 (is) != "), "{error}");
    assert!(error.contains("3 of 300000 wrong"), "{error}");
}

/// A reference of words alone (`Recipe::words_only`), listed by a test.
#[derive(Serialize, Deserialize)]
struct ListedWords {
    words: Vec<u32>,
}

impl Recipe for ListedWords {
    const FAMILY: &'static str = "a test's";

    fn words(&self, range: Range<u64>) -> impl Iterator<Item = Expected> {
        self.words[range.start as usize..range.end as usize].iter().map(|&word| Expected::Word(word))
    }

    fn words_only(&self) -> bool {
        true
    }
}

#[test]
fn a_reference_of_words_alone_holds_each_to_its_bits_part_by_part_and_repeating() {
    let mut gpu = open_gpu();
    // 1 MiB bindings: a part holds 2^17 words, so 300 000 take three parts.
    gpu.info.limits.max_storage_buffer_binding_size = 1 << 20;
    let n = 300_000usize;
    let mut want: Vec<u32> = (0..n as u32).map(|i| fill::random_f32(i, 3).to_bits()).collect();
    want[7] = 0x7fc0_0001; // an integer that reads as a NaN, which a float rule would refuse
    let check = GpuCheck::new(&gpu);
    let run = |found: &[u32], reference: &Reference| {
        let output = kernel::storage_buffer(&gpu, "found", found.len() as u64 * 4);
        gpu.queue.write_buffer(&output, 0, &found.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>());
        pollster::block_on(check.check(&gpu, &output, reference))
    };
    let reference = pollster::block_on(Reference::build(&gpu, "out", n as u64, ListedWords { words: want.clone() }));
    assert_eq!(run(&want, &reference), Ok(()));
    let mut found = want.clone();
    found[131_072] ^= 1;
    found[299_999] = fill::POISON;
    let error = run(&found, &reference).unwrap_err();
    assert!(error.starts_with("FAILED validation: out[131072]: "), "{error}");
    assert!(error.contains("diff 1e0 > tol 0e0") && error.contains("2 of 300000 wrong"), "{error}");
    // Kept as a digest of its words (each mixed with its index): two words swapped in different parts, every
    // word still in the output, are two wrong words.
    let mut found = want.clone();
    found.swap(5, 200_000);
    let error = run(&found, &reference).unwrap_err();
    assert!(error.starts_with("FAILED validation: out[5]: ") && error.contains("2 of 300000 wrong"), "{error}");
    // 1000 words held to a period of 4.
    let period = ListedWords { words: vec![0x7fc0_0001, 5, 7, 0] };
    let reference = pollster::block_on(Reference::periodic(&gpu, "out", 1000, 4, period));
    let mut found: Vec<u32> = (0..1000).map(|i| [0x7fc0_0001, 5, 7, 0][i % 4]).collect();
    assert_eq!(run(&found, &reference), Ok(()));
    found[998] = 6;
    let error = run(&found, &reference).unwrap_err();
    assert!(error.starts_with("FAILED validation: out[998]: 6e0 (is) != 7e0 (should)"), "{error}");
}
