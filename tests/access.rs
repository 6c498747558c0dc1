//! The access-pattern family on whatever native adapter is present (lavapipe in CI).
#![cfg(not(target_arch = "wasm32"))]

mod support;

use support::{check_both, environment, open_gpu};
use wgsweep::fill;
use wgsweep::kernel::read_buffer;
use wgsweep::kernel::submit_once;
use wgsweep::kernel::{Configuration, ShaderChecks};
use wgsweep::kernels::{self, access};
use wgsweep::runner::{self, Flow};

/// Small, but above every stride times a warp and every offset.
const SIZE: u64 = 1 << 14;

#[test]
fn every_pattern_width_stride_and_offset_validates() {
    let gpu = open_gpu();
    let plan = support::quick_plan(kernels::select("access").unwrap(), SIZE, None);
    let result = pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |_| Flow::Continue));
    let sweeps = |kernel: &str| result.results.iter().filter(|r| r.kernel == kernel).count();
    let workgroups = wgsweep::kernel::shapes::power_of_two_sizes(&gpu.info.limits).len();
    assert_eq!(sweeps("coalesced"), 3 * workgroups);
    assert_eq!(sweeps("random"), 3 * workgroups);
    assert_eq!(sweeps("strided"), 3 * access::STRIDES.len());
    assert_eq!(sweeps("misaligned"), 3 * access::OFFSETS.len());
    for r in &result.results {
        support::assert_good(r);
    }
    let strided: Vec<String> =
        result.results.iter().filter(|r| r.kernel == "strided").map(|r| r.parameter_text()).collect();
    assert_eq!(&strided[..3], ["stride 1", "stride 2", "stride 4"]);
}

#[test]
fn a_strided_copy_from_the_wrong_element_fails_validation() {
    let gpu = open_gpu();
    let access = kernels::family("access").unwrap();
    let workload = access.setup(&gpu, SIZE, fill::fresh_seed()).unwrap();
    let at = |stride: u32| Configuration {
        kernel: kernels::select("strided/vec2").unwrap()[0].id,
        checks: ShaderChecks::Default,
        workgroup: [64, 1, 1],
        parameter: Some(stride),
    };
    let config = pollster::block_on(workload.prepare(&gpu, &at(8))).unwrap();
    submit_once(&gpu, &config);
    let output = pollster::block_on(read_buffer(&gpu, &config.output)).unwrap();
    assert_eq!(check_both(&gpu, &*workload, &at(8), &config, &output), Ok(()));
    // The same output read as a stride-4 copy is wrong almost everywhere.
    let error = check_both(&gpu, &*workload, &at(4), &config, &output).unwrap_err();
    assert!(error.wrong > SIZE / 2, "{error}");
}

#[test]
fn the_strided_and_random_mappings_are_permutations() {
    for bits in [4, 10, 13] {
        let n = 1u32 << bits;
        let scramble = move |i| access::scramble(i, 0x1234_5678, n);
        let rotate_3 = move |i| access::rotate(i, 3, n);
        let rotate_1 = move |i| access::rotate(i, 1, n);
        let mappings: [(&str, &dyn Fn(u32) -> u32); 3] =
            [("scramble", &scramble), ("rotate by 3", &rotate_3), ("rotate by 1", &rotate_1)];
        for (name, map) in mappings {
            let mut seen = vec![false; n as usize];
            for i in 0..n {
                let j = map(i) as usize;
                assert!(!seen[j], "{name} repeats {j} for n = {n}");
                seen[j] = true;
            }
        }
    }
    // Neighbours read `stride` elements apart.
    assert_eq!(access::rotate(5, 3, 1 << 10) - access::rotate(4, 3, 1 << 10), 8);
}
