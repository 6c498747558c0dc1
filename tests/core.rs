//! Sweep generation, statistics and the result format: no GPU needed.
#![cfg(not(target_arch = "wasm32"))]

use wgpu::WriteOnly;
use wgsweep::analysis::BestShape;
use wgsweep::gpu::{ComputeLimits, MatrixConfig};
use wgsweep::grid::dispatch_grid;
use wgsweep::kernel::shapes::{check_workgroup, power_of_two_sizes};
use wgsweep::kernel::{Configuration, ShaderChecks, Skip};
use wgsweep::plan::{about, expected_duration_s};
use wgsweep::result::{Outcome, ParameterValue, RunResult, SCHEMA_VERSION, Unit, rfc3339};
use wgsweep::stats::summarize;
use wgsweep::tune::Search;
use wgsweep::{host, kernels};

fn limits(invocations: u32, x: u32, storage: u32) -> ComputeLimits {
    ComputeLimits {
        max_workgroup_size_x: x,
        max_workgroup_size_y: x,
        max_workgroup_size_z: 64,
        max_invocations_per_workgroup: invocations,
        max_workgroup_storage_bytes: storage,
        max_workgroups_per_dimension: 65535,
        max_storage_buffer_binding_size: 128 << 20,
        max_buffer_size: 256 << 20,
    }
}

#[test]
fn sweep_covers_every_power_of_two_up_to_the_device_maximum() {
    assert_eq!(power_of_two_sizes(&limits(256, 256, 16384)), vec![1, 2, 4, 8, 16, 32, 64, 128, 256]);
    assert_eq!(power_of_two_sizes(&limits(1024, 1024, 32768)).last(), Some(&1024));
}

#[test]
fn sweep_skips_workgroups_above_the_invocation_limit_with_reason() {
    let device = limits(256, 1024, 16384);
    assert_eq!(check_workgroup(&device, [256, 1, 1], 0), Ok(()));
    let skip = check_workgroup(&device, [512, 1, 1], 0).unwrap_err();
    assert_eq!(skip, Skip::ExceedsLimit { limit: "max_compute_invocations_per_workgroup", device: 256, needed: 512 });
    assert_eq!(skip.to_string(), "needs 512 for max_compute_invocations_per_workgroup; this device allows 256");
}

#[test]
fn sweep_skips_workgroups_above_a_per_axis_limit() {
    let device = limits(1024, 256, 32768);
    // 512 invocations are allowed in total, but not 512 along x.
    assert_eq!(power_of_two_sizes(&device).last(), Some(&1024));
    let skip = check_workgroup(&device, [512, 1, 1], 0).unwrap_err();
    assert!(matches!(skip, Skip::ExceedsLimit { limit: "max_compute_workgroup_size_x", device: 256, needed: 512 }));
    let skip = check_workgroup(&device, [1, 1, 128], 0).unwrap_err();
    assert!(matches!(skip, Skip::ExceedsLimit { limit: "max_compute_workgroup_size_z", .. }));
}

#[test]
fn sweep_skips_workgroups_whose_workgroup_memory_exceeds_the_limit() {
    let device = limits(1024, 1024, 16384);
    let stream = kernels::family("stream").unwrap();
    let at_1024 = |kernel: &str| Configuration {
        kernel: kernels::select(kernel).unwrap()[0].id,
        checks: ShaderChecks::Default,
        workgroup: [1024, 1, 1],
        parameter: None,
    };
    let (dot, copy) = (at_1024("dot/scalar"), at_1024("copy/scalar"));
    // dot's tree needs 4 bytes per invocation: 1024 × 4 = 4096 fits 16 KiB, but not a 2 KiB device.
    assert_eq!(check_workgroup(&device, [1024, 1, 1], stream.workgroup_storage_bytes(&dot)), Ok(()));
    let small = limits(1024, 1024, 2048);
    let skip = check_workgroup(&small, [1024, 1, 1], stream.workgroup_storage_bytes(&dot)).unwrap_err();
    assert!(matches!(
        skip,
        Skip::ExceedsLimit { limit: "max_compute_workgroup_storage_size", device: 2048, needed: 4096 }
    ));
    assert_eq!(check_workgroup(&small, [1024, 1, 1], stream.workgroup_storage_bytes(&copy)), Ok(()));
}

#[test]
fn dispatch_grid_goes_two_dimensional_past_the_per_dimension_limit() {
    assert_eq!(dispatch_grid(1000, 65535), Some([1000, 1, 1]));
    assert_eq!(dispatch_grid(65535, 65535), Some([65535, 1, 1]));
    assert_eq!(dispatch_grid(65536, 65535), Some([32768, 2, 1]));
    // 2^18 groups of 256 (2^26 elements): 5 rows of 52429, one surplus group rather than 65531.
    assert_eq!(dispatch_grid(262_144, 65535), Some([52429, 5, 1]));
    let [x, y, _] = dispatch_grid(67_108_864, 65535).unwrap();
    assert!(x as u64 * y as u64 >= 67_108_864 && (x as u64 * y as u64) < 67_108_864 + y as u64);
    assert_eq!(dispatch_grid(65535 * 65535 + 1, 65535), None);
}

#[test]
fn stream_default_size_is_256_mib_or_capped_with_a_note() {
    let stream = kernels::family("stream").unwrap();
    let mut roomy = limits(1024, 1024, 32768);
    roomy.max_storage_buffer_binding_size = 2 << 30;
    roomy.max_buffer_size = 4 << 30;
    let sizing = stream.default_size(&roomy);
    assert_eq!((sizing.size, sizing.note), (64 << 20, None));
    let capped = stream.default_size(&limits(1024, 1024, 32768)); // 128 MiB per binding
    assert_eq!(capped.size, 32 << 20);
    assert!(capped.note.unwrap().contains("128 MiB"));
}

#[test]
fn a_kernel_name_belongs_to_one_family_so_selecting_it_stays_in_that_family() {
    let mut owners = std::collections::HashMap::new();
    for k in kernels::all().into_iter().map(|k| k.id) {
        let owner = *owners.entry(k.kernel).or_insert(k.family);
        assert_eq!(owner, k.family, "'{}' is a kernel of both {owner} and {}", k.kernel, k.family);
    }
}

#[test]
fn kernel_selectors_name_families_kernels_and_variants() {
    assert_eq!(kernels::select("stream").unwrap().len(), 20);
    assert_eq!(kernels::select("triad").unwrap().len(), 4);
    let one = kernels::select("triad/vec4").unwrap();
    assert_eq!((one.len(), one[0].id.entry_point()), (1, "triad_vec4".to_string()));
    assert_eq!(kernels::select("copy,copy/scalar").unwrap().len(), 4);
    assert!(kernels::select("tirad").unwrap_err().contains("no kernel is called 'tirad'"));
}

#[test]
fn statistics_of_raw_samples() {
    let s = summarize(&[5.0, 1.0, 4.0, 2.0, 3.0]).unwrap();
    assert_eq!((s.median, s.min, s.mean), (3.0, 1.0, 3.0));
    assert_eq!(s.p95, 5.0);
    assert!((s.cv - (2.5f64).sqrt() / 3.0).abs() < 1e-12);
    let even = summarize(&[4.0, 1.0, 3.0, 2.0]).unwrap();
    assert_eq!(even.median, 2.5);
    let twenty: Vec<f64> = (1..=20).map(f64::from).collect();
    assert_eq!(summarize(&twenty).unwrap().p95, 19.0);
    assert_eq!(summarize(&[7.0]).unwrap().cv, 0.0);
    assert!(summarize(&[]).is_none());
}

#[test]
fn rfc3339_formats_utc_milliseconds() {
    assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000Z");
    assert_eq!(rfc3339(951_782_400_000), "2000-02-29T00:00:00.000Z");
    assert_eq!(rfc3339(1_795_326_991_123), "2026-11-22T05:56:31.123Z");
}

const MINIMAL_V1: &str = r#"{
  "schema_version": 1,
  "tool": {"name": "wgsweep", "version": "0.1.0"},
  "created": "2026-11-22T05:56:31.123Z",
  "device": {"vendor": "nvidia", "architecture": "", "device": "0x2330", "description": "NVIDIA H100",
             "vendor_id": 4318, "device_id": 9008, "device_type": "DiscreteGpu", "driver": "", "driver_info": "",
             "backend": "vulkan", "features": ["timestamp-query"],
             "limits": {"max_workgroup_size_x": 1024, "max_workgroup_size_y": 1024, "max_workgroup_size_z": 64,
                        "max_invocations_per_workgroup": 1024, "max_workgroup_storage_bytes": 49152,
                        "max_workgroups_per_dimension": 65535, "max_storage_buffer_binding_size": 2147483647,
                        "max_buffer_size": 4294967296}},
  "environment": {"runtime": "native", "platform": "linux x86_64", "timestamps": true, "timer_quantum_ns": 1.0,
                  "cross_origin_isolated": null},
  "settings": {"seed": 7, "samples": 10, "min_sample_ns": 1000000.0},
  "results": [{"family": "stream", "kernel": "triad", "variant": "scalar", "workgroup_size": [256, 1, 1],
               "problem_size": 67108864, "bytes_per_dispatch": 805306368, "dispatches_per_sample": 8,
               "samples_ns": [2400000.0], "median_ns": 300000.0, "min_ns": 300000.0, "p95_ns": 300000.0,
               "cv": 0.0, "gbps": 2684.35, "timing_source": "timestamp", "valid": true, "error": null,
               "skipped": null}],
  "complete": true
}"#;

#[test]
fn result_file_round_trips_and_reads_minimal_v1() {
    let result = RunResult::from_json(MINIMAL_V1).unwrap();
    assert_eq!(result.results[0].label(), "triad/scalar");
    assert_eq!(result.device.identity.description, "NVIDIA H100");
    assert!(result.notes.is_empty() && result.results[0].suspect().is_none());
    let again = RunResult::from_json(&result.to_json()).unwrap();
    assert_eq!(again, result);
}

#[test]
fn the_fingerprint_keeps_subgroup_sizes_and_matrix_configs_where_the_adapter_offers_them() {
    let mut result = RunResult::from_json(MINIMAL_V1).unwrap();
    assert!(!result.to_json().contains("subgroup_sizes") && !result.to_json().contains("matrix_configs"));
    result.device.subgroup_sizes = Some([32, 32]);
    let config = MatrixConfig { component: "f16".into(), result: "f32".into(), m: 16, n: 16, k: 16 };
    result.device.matrix_configs = vec![config.clone()];
    assert_eq!(config.text(), "f16 → f32, 16×16×16");
    let again = RunResult::from_json(&result.to_json()).unwrap();
    assert_eq!((again.device.subgroup_sizes, again.device.matrix_configs), (Some([32, 32]), vec![config]));
}

#[test]
fn result_from_a_newer_version_is_refused_with_a_clear_message() {
    let newer = MINIMAL_V1.replace("\"schema_version\": 1", &format!("\"schema_version\": {}", SCHEMA_VERSION + 1));
    let error = RunResult::from_json(&newer).unwrap_err().to_string();
    assert!(error.contains("newer wgsweep"), "{error}");
    let error = RunResult::from_json("{\"schema_version\": 1}").unwrap_err().to_string();
    assert!(error.starts_with("not a wgsweep result"), "{error}");
    assert!(RunResult::from_json("not json").is_err());
}

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

/// Every result recorded under docs/results.
fn recorded_results() -> Vec<(std::path::PathBuf, String)> {
    let mut found = Vec::new();
    let mut dirs = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/results")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                // A result, or a page run's record that holds one beside its long animation frames.
                let value: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
                let result = if value.get("result").is_some() { &value["result"] } else { &value };
                if result.get("schema_version").is_some() {
                    found.push((path, result.to_string()));
                }
            }
        }
    }
    found
}

#[test]
fn every_recorded_result_is_believable() {
    let recorded = recorded_results();
    assert!(recorded.len() >= 50, "the recorded results are found: {}", recorded.len());
    for (path, text) in recorded {
        if let Err(e) = RunResult::from_json(&text) {
            panic!("{}: {e}", path.display());
        }
    }
}

#[test]
fn results_that_no_run_could_record_are_refused_with_what_is_wrong() {
    let good = RunResult::from_json(MINIMAL_V1).unwrap();
    let refused = |change: &dyn Fn(&mut RunResult)| {
        let mut result = good.clone();
        change(&mut result);
        result.check().unwrap_err()
    };
    let why = refused(&|r| r.results[0].median_ns = Some(f64::NAN));
    assert!(why.contains("the median time NaN ns is not a positive time"), "{why}");
    let why = refused(&|r| r.results[0].min_ns = Some(0.0));
    assert!(why.starts_with("configuration 1 (triad/scalar at workgroup "), "{why}");
    assert!(why.contains("the minimum time 0 ns is not a positive time"), "{why}");
    let why = refused(&|r| r.results[0].p95_ns = Some(f64::INFINITY));
    assert!(why.contains("95th percentile time inf ns"), "{why}");
    let why = refused(&|r| r.results[0].samples_ns[0] = -1.0);
    assert!(why.contains("the sample time -1 ns"), "{why}");
    let why = refused(&|r| r.results[0].workgroup_size = [0, 0, 0]);
    assert!(why.contains("at least one invocation along each axis"), "{why}");
    let why = refused(&|r| r.results[0].workgroup_size = [4096, 1, 1]);
    assert!(why.contains("could not have run"), "{why}");
    let why = refused(&|r| {
        let result = &mut r.results[0];
        (result.median_ns, result.min_ns, result.p95_ns) = (Some(2.0), Some(3.0), Some(4.0));
    });
    assert!(why.contains("out of order"), "{why}");
    let why = refused(&|r| r.results[0].gbps = Some(1.6e14));
    assert!(why.contains("beyond any device"), "{why}");
    // A configuration skipped for a device limit names a shape over it: that is believable.
    let mut skipped = good.clone();
    skipped.results[0].workgroup_size = [4096, 1, 1];
    skipped.results[0].outcome = Outcome::Skipped { reason: "needs 4096 invocations".into() };
    (skipped.results[0].median_ns, skipped.results[0].min_ns, skipped.results[0].p95_ns) = (None, None, None);
    skipped.check().unwrap();
    // A file says so when it is opened.
    let mut bad = good.clone();
    bad.results[0].median_ns = Some(-5.0);
    let error = RunResult::from_json(&bad.to_json()).unwrap_err().to_string();
    assert!(error.starts_with("not a believable result: configuration 1"), "{error}");
}

#[test]
fn bytes_per_buffer_size_the_families_with_buffers_and_leave_those_sized_by_time_at_their_default() {
    use wgsweep::plan::{ProblemSize, problem_units};
    let limits = limits(1024, 1024, 32768);
    let bytes = ProblemSize::BytesPerBuffer(16 << 20);
    for family in wgsweep::kernels::FAMILIES {
        let (default, _) = problem_units(&limits, *family, ProblemSize::Default);
        let (sized, _) = problem_units(&limits, *family, bytes);
        if family.sized_by_time() {
            // The FMA chains and bank reads hold no buffer worth sizing: 16 MiB would have made them 4 M
            // invocations long, minutes per dispatch on SwiftShader at one invocation per workgroup.
            assert_eq!(sized, default, "{}", family.name());
        } else {
            assert_eq!(sized, family.round_size((16 << 20) / family.unit_bytes()), "{}", family.name());
        }
    }
}

#[test]
fn csv_has_a_row_per_configuration_and_quotes_what_needs_it() {
    let mut result = RunResult::from_json(MINIMAL_V1).unwrap();
    let mut failed = result.results[0].clone();
    failed.fail("FAILED validation: c[3]: 1e0 (is) != 2e0 (should), \"diff\" 1e0");
    result.results.push(failed);
    let csv = result.to_csv();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0], wgsweep::result::CSV_HEADER);
    let columns = lines[0].split(',').count();
    assert_eq!(lines[1].split(',').count(), columns, "{}", lines[1]);
    assert!(lines[1].starts_with("stream,triad,scalar,default,"), "{}", lines[1]);
    assert!(lines[1].ends_with(",valid"), "{}", lines[1]);
    assert!(
        lines[2].ends_with(",\"FAILED validation: c[3]: 1e0 (is) != 2e0 (should), \"\"diff\"\" 1e0\""),
        "{}",
        lines[2]
    );
}

/// Runs the auto-tuner's search on a landscape known in advance: the shape it ends on and how many it tried.
fn search(candidates: &[[u32; 3]], default: [u32; 3], figure: impl Fn([u32; 3]) -> Option<f64>) -> ([u32; 3], usize) {
    let mut search = Search::new(candidates, default, 0.02);
    let mut tried: Vec<([u32; 3], Option<f64>)> = Vec::new();
    while let Some(w) = search.next() {
        assert!(candidates.contains(&w), "{w:?} is not a candidate");
        assert!(!tried.iter().any(|(t, _)| *t == w), "{w:?} tried twice");
        tried.push((w, figure(w)));
        search.record(w, figure(w));
    }
    let best = tried.iter().filter_map(|&(w, f)| Some((w, f?))).max_by(|a, b| a.1.total_cmp(&b.1)).unwrap().0;
    (best, tried.len())
}

fn one_d() -> Vec<[u32; 3]> {
    power_of_two_sizes(&limits(1024, 1024, 32768)).into_iter().map(|x| [x, 1, 1]).collect()
}

/// A single peak at `peak`, falling off with the distance in log2 space.
fn peaked(peak: [u32; 3]) -> impl Fn([u32; 3]) -> Option<f64> {
    move |w| {
        let d = |a: u32, b: u32| ((a as f64).log2() - (b as f64).log2()).abs();
        Some(100.0 / (1.0 + d(w[0], peak[0]) + 0.7 * d(w[1], peak[1])))
    }
}

#[test]
fn tuner_search_finds_a_single_peak_in_one_dimension_without_trying_every_size() {
    for peak in [1, 8, 64, 256, 1024] {
        let (best, tried) = search(&one_d(), [64, 1, 1], peaked([peak, 1, 1]));
        assert_eq!(best, [peak, 1, 1]);
        assert!(tried < one_d().len(), "peak {peak}: tried {tried} of {}", one_d().len());
    }
}

#[test]
fn tuner_search_finds_a_single_peak_among_two_dimensional_shapes_in_under_a_third_of_them() {
    let shapes = wgsweep::kernel::shapes::power_of_two_shapes(&limits(1024, 1024, 32768));
    assert_eq!(shapes.len(), 66);
    for peak in [[32, 4, 1], [8, 8, 1], [1, 256, 1], [1024, 1, 1], [16, 64, 1]] {
        let (best, tried) = search(&shapes, [8, 8, 1], peaked(peak));
        assert_eq!(best, peak);
        assert!(tried <= 22, "peak {peak:?}: tried {tried} of 66");
    }
}

#[test]
fn tuner_search_stops_on_a_plateau_where_no_step_gains_two_percent() {
    let (_, tried) = search(&one_d(), [64, 1, 1], |w| Some(if w[0] >= 16 { 100.0 + w[0] as f64 / 1e4 } else { 10.0 }));
    // The start, two coarse neighbours, two fine ones.
    assert_eq!(tried, 5);
}

#[test]
fn tuner_search_leaves_a_default_that_does_not_run_and_tries_small_sets_whole() {
    let fails_below_128 = |w: [u32; 3]| (w[0] >= 128).then(|| 1000.0 - w[0] as f64);
    assert_eq!(search(&one_d(), [64, 1, 1], fails_below_128).0, [128, 1, 1]);
    let tiles = [[8, 8, 1], [16, 16, 1], [32, 32, 1], [8, 2, 1], [16, 4, 1], [32, 8, 1]];
    let (best, tried) = search(&tiles, [8, 8, 1], peaked([16, 4, 1]));
    assert_eq!((best, tried), ([16, 4, 1], 6));
}

#[test]
fn tuner_search_finds_a_single_peak_over_a_shape_and_two_tunables_in_a_fraction_of_them() {
    // 11 sizes × 5 × 4 values: a user's kernel's WG_X and two tunables, positions by index.
    let mut candidates: Vec<([u32; 3], Option<u32>)> = Vec::new();
    let mut positions = Vec::new();
    for (xi, x) in (0..11).map(|p| (p, 1u32 << p)) {
        for tile in 0..5 {
            for epi in 0..4 {
                candidates.push(([x, 1, 1], Some(tile * 4 + epi)));
                positions.push(vec![xi, 0, 0, tile as i32, epi as i32]);
            }
        }
    }
    for peak in [[8, 4, 3], [2, 0, 0], [10, 2, 1], [6, 3, 2]] {
        let figure = |at: &[i32]| {
            let d = (at[0] - peak[0]).abs() as f64
                + 1.3 * (at[3] - peak[1]).abs() as f64
                + 0.8 * (at[4] - peak[2]).abs() as f64;
            100.0 / (1.0 + d)
        };
        let mut search = Search::on_grid(&candidates, positions.clone(), ([64, 1, 1], Some(0)), 0.02);
        let mut tried = Vec::new();
        while let Some(c) = search.next() {
            assert!(!tried.contains(&c), "{c:?} tried twice");
            tried.push(c);
            let at = &positions[candidates.iter().position(|&k| k == c).unwrap()];
            search.record(c, Some(figure(at)));
        }
        let at = |c: &([u32; 3], Option<u32>)| positions[candidates.iter().position(|k| k == c).unwrap()].clone();
        let best = tried.iter().max_by(|a, b| figure(&at(a)).total_cmp(&figure(&at(b)))).unwrap();
        assert_eq!(at(best), vec![peak[0], 0, 0, peak[1], peak[2]], "peak {peak:?}");
        assert!(tried.len() * 4 <= candidates.len(), "peak {peak:?}: tried {} of {}", tried.len(), candidates.len());
    }
}

#[test]
fn tuner_search_over_many_tunables_samples_the_space_and_leaves_a_local_peak_for_a_higher_one() {
    // 8 × 8 × 8 positions: a local peak by the start, and a higher one, with a broader slope, far from it.
    let mut candidates: Vec<([u32; 3], Option<u32>)> = Vec::new();
    let mut positions = Vec::new();
    for x in 0..8 {
        for a in 0..8 {
            for b in 0..8 {
                candidates.push(([1 << x, 1, 1], Some(a * 8 + b)));
                positions.push(vec![x, 0, 0, a as i32, b as i32]);
            }
        }
    }
    let figure = |at: &[i32]| {
        let near = 100.0 / (1.0 + ((at[0] - 6).abs() + at[3].abs() + at[4].abs()) as f64);
        let far = 130.0 / (1.0 + 0.5 * ((at[0] - 2).abs() + (at[3] - 6).abs() + (at[4] - 7).abs()) as f64);
        near.max(far)
    };
    let mut search = Search::on_grid(&candidates, positions.clone(), ([64, 1, 1], Some(0)), 0.02);
    let mut tried = Vec::new();
    while let Some(c) = search.next() {
        assert!(!tried.contains(&c), "{c:?} tried twice");
        tried.push(c);
        let f = figure(&positions[candidates.iter().position(|&k| k == c).unwrap()]);
        search.record(c, Some(f));
    }
    let at = |c: &([u32; 3], Option<u32>)| positions[candidates.iter().position(|k| k == c).unwrap()].clone();
    let best = tried.iter().max_by(|a, b| figure(&at(a)).total_cmp(&figure(&at(b)))).unwrap();
    assert_eq!(at(best), vec![2, 0, 0, 6, 7], "the higher peak, found through the sample");
    assert!(tried.len() * 4 <= candidates.len(), "tried {} of {}", tried.len(), candidates.len());
}

/// A recorded result under docs/results.
fn recorded(name: &str) -> RunResult {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/results").join(name);
    RunResult::from_json(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_runs_expected_duration_is_near_what_the_recorded_suites_took() {
    for name in [
        "pace/lavapipe-native-suite.json",
        "pace/h100-native-suite-gpu-validated.json",
        "pace/h100-chromium-suite-3.json",
    ] {
        let result = recorded(name);
        let expected = expected_duration_s(result.results.len(), &result.device, None);
        let took = result.pace.as_ref().unwrap().wall_s;
        assert!((expected / took - 1.0).abs() < 0.3, "{name}: expected {expected} s, took {took} s");
    }
    let lavapipe = recorded("pace/lavapipe-native-suite.json").device;
    assert!(lavapipe.is_cpu_adapter());
    // An earlier run on the device sets the pace.
    assert_eq!(expected_duration_s(10, &lavapipe, Some(2.0)), 20.0);
    assert_eq!(expected_duration_s(10, &lavapipe, Some(f64::NAN)), expected_duration_s(10, &lavapipe, None));
}

#[test]
fn estimates_read_in_seconds_then_minutes() {
    assert_eq!(about(40.2), "about 41 s");
    assert_eq!(about(180.0), "about 3 min");
    assert_eq!(about(200.0), "about 3 min 20 s");
    assert_eq!(about(-1.0), "about 0 s");
}

#[test]
fn host_fill_and_sum_cover_every_item_once_in_order() {
    // Longer than several of the pieces threads take, and not a multiple of one.
    let count = 100_003;
    let mut items = vec![u64::MAX; count];
    pollster::block_on(host::fill(WriteOnly::from_mut(items.as_mut_slice()), |range, out| out.write_iter(range)));
    assert!(items.iter().enumerate().all(|(i, &item)| item == i as u64));
    let sum = pollster::block_on(host::sum(count as u64, |range| range.sum::<u64>(), |a, b| a + b));
    assert_eq!(sum, (count as u64 - 1) * count as u64 / 2);
}

/// Uniform in (0, 1), from a counter: the same trials on every run.
fn uniform(state: &mut u64) -> f64 {
    *state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    ((*state >> 11) as f64 + 0.5) / (1u64 << 53) as f64
}

/// Normal(mean, sd), by Box–Muller.
fn normal(state: &mut u64, mean: f64, sd: f64) -> f64 {
    let (u, v) = (uniform(state), uniform(state));
    mean + sd * (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
}

#[test]
fn the_median_interval_holds_the_true_median_in_95_percent_of_trials_whatever_the_distribution() {
    let mut state = 7;
    // (name, draw, the distribution's median): a symmetric one, a skewed one, one with a long tail.
    type Distribution = (&'static str, fn(&mut u64) -> f64, f64);
    let distributions: [Distribution; 3] = [
        ("normal", |s| normal(s, 10.0, 1.0), 10.0),
        ("exponential", |s| -uniform(s).ln(), std::f64::consts::LN_2),
        ("log-normal", |s| normal(s, 0.0, 0.5).exp(), 1.0),
    ];
    for (name, draw, median) in distributions {
        for n in [10, 20, 31, 64, 200, 1500] {
            let trials = 2000;
            let held = (0..trials)
                .filter(|_| {
                    let mut samples: Vec<f64> = (0..n).map(|_| draw(&mut state)).collect();
                    samples.sort_by(f64::total_cmp);
                    let (low, high) = wgsweep::stats::median_interval(&samples).unwrap();
                    low <= median && median <= high
                })
                .count();
            let coverage = held as f64 / trials as f64;
            assert!((0.93..=0.97).contains(&coverage), "{name}, {n} samples: {coverage}");
        }
    }
    assert_eq!(wgsweep::stats::median_interval(&[1.0, 2.0, 3.0, 4.0, 5.0]), None, "5 samples cannot reach 95 %");
}

#[test]
fn comparisons_call_one_distribution_the_same_and_a_five_percent_shift_slower() {
    use wgsweep::stats::{Verdict, ratio_interval};
    let mut state = 11;
    let mut times =
        |n: usize, mean: f64| -> Vec<f64> { (0..n).map(|_| normal(&mut state, mean, 0.01 * mean)).collect() };
    let trials = 2000;
    let threshold = 0.01;
    let verdicts = |shift: f64, times: &mut dyn FnMut(usize, f64) -> Vec<f64>| {
        (0..trials)
            .map(|_| {
                let (before, after) = (times(30, 1000.0), times(30, 1000.0 * shift));
                ratio_interval(&before, &after).unwrap().verdict(threshold)
            })
            .collect::<Vec<_>>()
    };
    let same = verdicts(1.0, &mut times);
    let share = |verdicts: &[Verdict], v: Verdict| verdicts.iter().filter(|&&x| x == v).count() as f64 / trials as f64;
    assert!(share(&same, Verdict::Same) >= 0.95, "{}", share(&same, Verdict::Same));
    let slower = verdicts(1.05, &mut times);
    assert!(share(&slower, Verdict::Slower) >= 0.99, "{}", share(&slower, Verdict::Slower));
    let faster = verdicts(1.0 / 1.05, &mut times);
    assert!(share(&faster, Verdict::Faster) >= 0.99, "{}", share(&faster, Verdict::Faster));
    // Without the threshold, the interval alone calls one distribution different in about 5 % of trials.
    let alone = (0..trials)
        .filter(|_| ratio_interval(&times(30, 1000.0), &times(30, 1000.0)).unwrap().verdict(0.0) == Verdict::Same)
        .count() as f64
        / trials as f64;
    assert!((0.93..=0.97).contains(&alone), "{alone}");
    let ratio = ratio_interval(&times(30, 1000.0), &times(30, 1100.0)).unwrap();
    assert!(ratio.low < ratio.estimate && ratio.estimate < ratio.high);
    assert!((ratio.estimate - 1.1).abs() < 0.01, "{ratio:?}");
}
