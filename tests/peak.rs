//! The compute-peak family on the native adapter (lavapipe in CI), and the run's peaks.
#![cfg(not(target_arch = "wasm32"))]

#[expect(dead_code, reason = "check_both, for the tests of checks themselves")]
mod support;

use support::{environment, open_gpu};
use wgsweep::kernel::{Operations, ShaderChecks};
use wgsweep::kernels::{self, peak};
use wgsweep::result::Unit;
use wgsweep::runner::{self, Flow};

#[test]
fn fma_chains_validate_and_set_the_runs_compute_peak() {
    let gpu = open_gpu();
    let mut plan = support::quick_plan(kernels::select("fma,copy/vec4").unwrap(), 5003, Some(vec![1, 64, 256]));
    plan.shader_checks = vec![ShaderChecks::Default, ShaderChecks::Unchecked];
    let result = pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |_| Flow::Continue));
    assert_eq!(result.results.len(), 3 * 3 * 2);
    for r in &result.results {
        support::assert_good(r);
    }
    let best = |kernel: &str, rate: fn(&wgsweep::result::ConfigResult) -> Option<f64>| {
        result.results.iter().filter(|r| r.kernel == kernel).filter_map(rate).reduce(f64::max)
    };
    assert_eq!(result.peaks.fma_gflops, best("fma", |r| r.gflops()));
    assert_eq!(result.peaks.copy_gbps, best("copy", |r| r.gbps));
    for r in &result.results {
        let percent = r.percent_of_peak.unwrap();
        assert!(percent > 0.0 && percent <= 100.0 + 1e-9, "{} {percent}", r.label());
    }
    let fma = result.results.iter().find(|r| r.kernel == "fma" && r.variant == "vec4").unwrap();
    assert_eq!(fma.flops_per_dispatch, Some(5003 * 16 * 1024 * 2));
}

#[test]
fn the_reference_depends_on_every_iteration() {
    // Chains gain their b 1024 times without rounding: one iteration fewer would change every sum.
    let sums: Vec<f32> = (0..4).map(|i| peak::chain_sum("f32", i)).collect();
    let start = |i: u32| (0..8).map(|c| (i as f32) / 1024.0 + c as f32).sum::<f32>();
    let gained: f32 = (1..=8).map(|c| c as f32 / 4096.0 * 1024.0).sum();
    for (i, sum) in sums.iter().enumerate() {
        assert_eq!(*sum, start(i as u32) + gained);
    }
}

#[test]
fn f16_integer_and_packed_dot_chains_validate_in_their_own_units_and_name_their_peaks() {
    let gpu = open_gpu();
    let plan = support::quick_plan(kernels::select("peak").unwrap(), 4099, Some(vec![64]));
    let result = pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |_| Flow::Continue));
    let of = |label: &str| result.results.iter().find(|r| r.label() == label).unwrap();
    for r in &result.results {
        if r.kernel == "hfma" && !gpu.shader_f16 {
            assert!(r.skipped().is_some_and(|s| s.contains("shader-f16")), "{:?}", r.skipped());
        } else {
            support::assert_good(r);
        }
    }
    assert_eq!((of("imad/i32").unit(), of("dot4/i8").unit()), (Unit::GiopPerS, Unit::GopPerS));
    assert_eq!(of("dot4/u8").flops_per_dispatch, Some(4099 * 8 * 1024 * 8), "8 operations a call");
    assert_eq!(of("imad/vec4").flops_per_dispatch, Some(4099 * 16 * 1024 * 2));
    // Only f32 chains are under the roof, and only they set it.
    assert_eq!(of("imad/i32").percent_of_peak, None);
    assert_eq!(of("dot4/i8").intensity(), None);
    let best = |kernel: &str| {
        result
            .results
            .iter()
            .filter(|r| r.kernel == kernel && r.is_good())
            .filter_map(|r| r.headline())
            .reduce(f64::max)
    };
    assert_eq!(result.peaks.fma_gflops, best("fma"));
    let mut expected =
        vec![(Operations::IntegerOps, best("imad").unwrap()), (Operations::Int8Ops, best("dot4").unwrap())];
    if gpu.shader_f16 {
        expected.insert(0, (Operations::HalfFlops, best("hfma").unwrap()));
    }
    assert_eq!(result.peaks.beyond_f32, expected);
    let summary = result.peaks.summary().unwrap();
    assert!(
        summary.contains("i32 multiply-add") && summary.contains("GIOP/s") && summary.contains("GOP/s"),
        "{summary}"
    );
    // The CSV has a column for each unit.
    let csv = result.to_csv();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let row: Vec<&str> = csv.lines().find(|l| l.starts_with("peak,imad,i32")).unwrap().split(',').collect();
    let column = |name: &str| row[header.iter().position(|h| *h == name).unwrap()];
    assert!(column("giops").parse::<f64>().unwrap() > 0.0 && column("gflops").is_empty());
}

#[test]
fn the_packed_dot_product_reference_follows_wgsl() {
    // Signed: each byte is an i8; unsigned: a u8; four products added.
    assert_eq!(peak::dot4(0x01_02_03_04, 0x01_01_01_01, true), 10);
    assert_eq!(peak::dot4(0xff_ff_ff_ff, 0x01_01_01_01, true) as i32, -4);
    assert_eq!(peak::dot4(0xff_ff_ff_ff, 0x01_01_01_01, false), 4 * 255);
    assert_eq!(peak::dot4(0x80_80_80_80, 0x80_80_80_80, true), 4 * 128 * 128, "(-128)² four times");
    assert_eq!(peak::dot4(0xff_ff_ff_ff, 0xff_ff_ff_ff, false), 4 * 255 * 255, "no overflow in u32");
    // Bytes from the lowest: (1, 0, -128, 127) · (-1, 5, 127, -128).
    assert_eq!(peak::dot4(0x7f_80_00_01, 0x80_7f_05_ff, true) as i32, -1 + 2 * (-128 * 127));
    // A chain steps x = dot4(x, b) + x in u32, wrapping: its start changes what every step adds.
    let chain = |x: u32| (0..1024).fold(x, |x, _| peak::dot4(x, 0x81_7f_02_fe, true).wrapping_add(x));
    assert_ne!(chain(5), chain(6));
}
