//! Figures derived from results: suspects, shares of the peaks, best shapes, headlines.

use wgsweep::analysis::BestShape;
use wgsweep::result::{Outcome, ParameterValue, RunResult, Unit};

use crate::MINIMAL_V1;

#[test]
fn figures_above_the_runs_best_copy_are_flagged_suspect_and_failures_never_count() {
    let template = RunResult::from_json(MINIMAL_V1).unwrap().results.remove(0);
    let record = |kernel: &str, gbps: f64, valid: bool| {
        let mut r = template.clone();
        r.kernel = kernel.into();
        r.gbps = Some(gbps);
        r.outcome = match valid {
            true => Outcome::Valid { suspect: None },
            false => Outcome::Failed { error: "FAILED validation".into(), validated: false },
        };
        r
    };
    let mut run = vec![
        record("copy", 1000.0, true),
        record("copy", 5000.0, false), // failed validation: not a reference
        record("triad", 1090.0, true),
        record("dot", 1200.0, true),
    ];
    wgsweep::analysis::flag_suspects(&mut run);
    assert_eq!(run.iter().map(|r| r.suspect().is_some()).collect::<Vec<_>>(), [false, false, false, true]);
    assert!(run[3].suspect().unwrap().starts_with("1200.0 GB/s is above 1.1× this run's best copy (1000.0 GB/s)"));
}

#[test]
fn shares_of_peak_follow_the_roof_and_workgroup_memory_figures_are_not_bounded_by_the_copy() {
    let template = RunResult::from_json(MINIMAL_V1).unwrap().results.remove(0);
    // (family, kernel, GB/s, flops per byte): times are 1 ns per dispatch, so rates equal bytes and flops.
    let record = |family: &str, kernel: &str, bytes: u64, intensity: Option<u64>| {
        let mut r = template.clone();
        (r.family, r.kernel) = (family.into(), kernel.into());
        r.bytes_per_dispatch = bytes;
        r.flops_per_dispatch = intensity.map(|i| i * bytes);
        r.median_ns = Some(1.0);
        r.gbps = Some(bytes as f64);
        r
    };
    let mut run = vec![
        record("stream", "copy", 1000, None),
        record("peak", "fma", 10, Some(5000)),              // 50 000 GFLOP/s
        record("stream", "triad", 900, Some(1)),            // roof: 1 flop/byte × 1000 GB/s
        record("matmul", "matmul_blocked", 100, Some(100)), // roof: the FMA peak
        record("banks", "tile_read", 5000, None),           // workgroup memory
    ];
    wgsweep::analysis::flag_suspects(&mut run);
    let peaks = wgsweep::analysis::relate_to_peaks(&mut run);
    assert_eq!((peaks.copy_gbps, peaks.fma_gflops), (Some(1000.0), Some(50_000.0)));
    let shares: Vec<Option<f64>> = run.iter().map(|r| r.percent_of_peak).collect();
    assert_eq!(shares, [Some(100.0), Some(100.0), Some(90.0), Some(20.0), None]);
    assert!(run[4].suspect().is_none(), "5000 GB/s of workgroup memory is no sign of a bad timing");
}

#[test]
fn each_kernels_best_shape_is_compared_on_the_same_work_and_against_64_invocations() {
    let template = RunResult::from_json(MINIMAL_V1).unwrap().results.remove(0);
    let record = |kernel: &str, shape: [u32; 3], stride: Option<u32>, gbps: f64, valid: bool| {
        let mut r = template.clone();
        r.kernel = kernel.into();
        r.workgroup_size = shape;
        r.parameter = stride.map(|value| ParameterValue { name: "stride".into(), value, label: None });
        r.gbps = Some(gbps);
        r.outcome = match valid {
            true => Outcome::Valid { suspect: None },
            false => Outcome::Failed { error: "FAILED validation".into(), validated: false },
        };
        r
    };
    let run = vec![
        record("copy", [64, 1, 1], None, 100.0, true),
        record("copy", [256, 1, 1], None, 150.0, true),
        record("copy", [1024, 1, 1], None, 900.0, false), // failed: never the best
        // Two shapes at stride 2, one at stride 8: the strides compare at 2, where both shapes ran.
        record("strided", [64, 1, 1], Some(2), 50.0, true),
        record("strided", [8, 8, 1], Some(2), 40.0, true),
        record("strided", [128, 1, 1], Some(8), 500.0, true),
        // No shape of 64 invocations ran: no gain to state.
        record("random", [32, 1, 1], None, 10.0, true),
    ];
    let best = wgsweep::analysis::best_shapes(&run);
    let shape = |kernel: &str, parameter: &str, shape: [u32; 3], figure: f64, gain_over_64: Option<f64>| BestShape {
        kernel: format!("{kernel}/{}", template.variant),
        parameter: parameter.into(),
        shape,
        tunables: String::new(),
        figure,
        unit: Unit::GbPerS,
        gain_over_64,
    };
    assert_eq!(
        best,
        [
            shape("copy", "", [256, 1, 1], 150.0, Some(1.5)),
            shape("strided", "stride 2", [64, 1, 1], 50.0, Some(1.0)),
            shape("random", "", [32, 1, 1], 10.0, None),
        ]
    );
}

#[test]
fn headlines_contrast_each_sides_best_valid_figure_at_the_parameter_they_share() {
    let template = RunResult::from_json(MINIMAL_V1).unwrap().results.remove(0);
    let record = |family: &str, label: &str, parameter: Option<(&str, u32)>, gbps: f64, valid: bool| {
        let mut r = template.clone();
        let (kernel, variant) = label.split_once('/').unwrap();
        (r.family, r.kernel, r.variant) = (family.into(), kernel.into(), variant.into());
        r.parameter = parameter.map(|(name, value)| ParameterValue { name: name.into(), value, label: None });
        r.flops_per_dispatch = None;
        r.gbps = Some(gbps);
        if !valid {
            r.fail("FAILED validation");
        }
        r
    };
    let run = vec![
        record("layout", "touch_one/soa", None, 780.0, true),
        record("layout", "touch_one/soa", None, 9000.0, false), // failed: never counted
        record("layout", "touch_one/aos_vec3", None, 100.0, true),
        // Every field touched: as fast within 5 %.
        record("layout", "touch_all/soa", None, 102.0, true),
        record("layout", "touch_all/aos_vec3", None, 100.0, true),
        // Strided at stride 32 as the contrast names it; the faster stride 2 is not it.
        record("access", "coalesced/f32", None, 1000.0, true),
        record("access", "strided/f32", Some(("stride", 2)), 500.0, true),
        record("access", "strided/f32", Some(("stride", 32)), 40.0, true),
        // Radii compare at the largest both ran: 4 (direct ran 8 too).
        record("blur", "box_tiled/f32", Some(("radius", 1)), 900.0, true),
        record("blur", "box_tiled/f32", Some(("radius", 4)), 300.0, true),
        record("blur", "box_direct/f32", Some(("radius", 4)), 400.0, true),
        record("blur", "box_direct/f32", Some(("radius", 8)), 1.0, true),
        // The naive side of the transpose did not run: only the copy's share.
        record("transpose", "tiled/padded", Some(("matrix", 0)), 880.0, true),
        record("transpose", "copy2d/tiled", Some(("matrix", 0)), 1000.0, true),
    ];
    let headlines = wgsweep::analysis::headlines(&run);
    let text: Vec<(&str, &str)> = headlines.iter().map(|h| (h.family.as_str(), h.text.as_str())).collect();
    assert_eq!(
        text,
        [
            (
                "layout",
                "A struct of arrays (SoA) is 7.8× faster than an array of structs when one field is touched (780.0 vs 100.0 GB/s)."
            ),
            (
                "layout",
                "A struct of arrays (SoA) is as fast as an array of structs when every field is touched (102.0 vs 100.0 GB/s)."
            ),
            (
                "access",
                "Reading neighbouring elements (coalesced) is 25× faster than reading every 32nd (strided) (1000.0 vs 40.0 GB/s)."
            ),
            (
                "blur",
                "A blur that loads its tile into workgroup memory is 1.3× slower than one that reads each neighbour from memory (300.0 vs 400.0 GB/s)."
            ),
            (
                "transpose",
                "A transpose through padded tiles reaches 88 % of a same-shape copy's bandwidth (880.0 vs 1000.0 GB/s)."
            ),
        ]
    );
}
