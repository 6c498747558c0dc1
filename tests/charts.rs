//! The chart specifications `charts` plans from results: which charts, their series, axes and colours.
//! Pure: no GPU and no browser (the end-to-end tests look at the drawn charts).

use serde_json::{Value, json};
use wgsweep::charts::{self, ChartSpec, kernel_colour, variant_colour};
use wgsweep::compare;
use wgsweep::kernel::Operations;
use wgsweep::kernels;
use wgsweep::result::{ConfigResult, Outcome, Peaks, RunResult};

/// A measured configuration: 1 ns per dispatch, so GB/s equals the bytes and GFLOP/s the flops given.
fn record(family: &str, label: &str, workgroup: [u32; 3], bytes: u64, flops: Option<u64>) -> ConfigResult {
    let (kernel, variant) = label.split_once('/').unwrap();
    serde_json::from_value(json!({
        "family": family, "kernel": kernel, "variant": variant, "workgroup_size": workgroup,
        "problem_size": 1024, "bytes_per_dispatch": bytes, "flops_per_dispatch": flops,
        "dispatches_per_sample": 1, "samples_ns": [1.0], "median_ns": 1.0, "min_ns": 1.0, "p95_ns": 1.0,
        "cv": 0.0, "gbps": bytes as f64, "timing_source": "timestamp", "valid": true, "error": null,
        "skipped": null
    }))
    .unwrap()
}

fn labels(spec: &ChartSpec) -> Vec<String> {
    let datasets = spec.config["data"]["datasets"].as_array().unwrap();
    datasets.iter().map(|d| d["label"].as_str().unwrap().to_string()).collect()
}

fn dataset<'a>(spec: &'a ChartSpec, label: &str) -> &'a Value {
    let datasets = spec.config["data"]["datasets"].as_array().unwrap();
    datasets.iter().find(|d| d["label"] == label).unwrap_or_else(|| panic!("no series {label}"))
}

#[test]
fn stream_charts_lines_over_workgroup_sizes_a_series_per_variant_coloured_by_kernel() {
    let mut results = Vec::new();
    for (label, bytes) in [("copy/scalar", 100), ("copy/vec4", 200), ("triad/scalar", 300)] {
        for (wg, scale) in [(64, 1), (256, 2)] {
            results.push(record("stream", label, [wg, 1, 1], bytes * scale, None));
        }
    }
    results[1].outcome = Outcome::Failed { error: "FAILED validation".into(), validated: false };
    let specs = charts::plan(&results, &Peaks::default());
    assert_eq!(specs.len(), 1, "one line chart; no roofline without flops");
    let chart = &specs[0];
    assert_eq!(chart.key, "stream · workgroup size (invocations)");
    assert_eq!(chart.config["type"], "line");
    assert_eq!(chart.config["data"]["labels"], json!(["64", "256"]));
    assert_eq!(chart.config["options"]["scales"]["y"]["title"]["text"], "GB/s, higher is better");
    assert_eq!(chart.config["options"]["scales"]["x"]["title"]["text"], "workgroup size (invocations)");
    assert_eq!(labels(chart), ["copy/scalar", "copy/vec4", "triad/scalar"]);
    // A failed configuration is a gap in its line, never a figure.
    assert_eq!(dataset(chart, "copy/scalar")["data"], json!([100.0, null]));
    assert_eq!(dataset(chart, "triad/scalar")["data"], json!([300.0, 600.0]));
    // A kernel's variants share its colour, the second dashed; kernels take the family's order.
    let copy = dataset(chart, "copy/scalar");
    let vec4 = dataset(chart, "copy/vec4");
    assert_eq!(copy["borderColor"], vec4["borderColor"]);
    assert_eq!((copy["borderDash"].clone(), vec4["borderDash"].clone()), (json!([]), json!([6, 3])));
    assert_eq!(copy["borderColor"], kernel_colour("stream", "copy"));
    assert_eq!(dataset(chart, "triad/scalar")["borderColor"], kernel_colour("stream", "triad"));
    assert_ne!(kernel_colour("stream", "copy"), kernel_colour("stream", "triad"));
}

#[test]
fn every_figure_a_chart_draws_carries_its_95_percent_interval_for_its_whisker() {
    // 1 ns per dispatch, its interval 0.98 to 1.05 ns: 100 bytes at 100/1.05 to 100/0.98 GB/s.
    let timed = |label: &str, wg: u32, interval: Option<[f64; 2]>| {
        let mut r = record("stream", label, [wg, 1, 1], 100, None);
        r.median_interval_ns = interval;
        r
    };
    let mut results = vec![
        timed("copy/scalar", 64, Some([0.98, 1.05])),
        timed("copy/scalar", 256, None),
        timed("triad/scalar", 64, Some([0.98, 1.05])),
    ];
    results[2].outcome = Outcome::Failed { error: "FAILED validation".into(), validated: false };
    let specs = charts::plan(&results, &Peaks::default());
    let whisker = json!([100.0 / 1.05, 100.0 / 0.98]);
    // A figure without an interval (fewer than six samples) has no whisker; a kernel with nothing measured
    // (its one configuration failed) draws no line and takes no place in the legend.
    assert_eq!(dataset(&specs[0], "copy/scalar")["intervals"], json!([whisker, null]));
    assert_eq!(labels(&specs[0]), ["copy/scalar"]);

    // A comparison's lines carry each result's.
    let run = |interval| {
        let mut result = RunResult::from_json(&template_run()).unwrap();
        result.results = vec![timed("copy/scalar", 64, interval)];
        result
    };
    let results = [run(Some([0.98, 1.05])), run(None)];
    let specs = charts::plan_comparison(&compare::rows(&results), &compare::names(&results));
    let datasets = specs[0].config["data"]["datasets"].as_array().unwrap();
    assert_eq!((datasets[0]["intervals"].clone(), datasets[1]["intervals"].clone()), (json!([whisker]), json!([null])));
}

#[test]
fn peaks_of_each_kind_of_operation_chart_apart_in_their_own_units_and_only_f32_meets_the_roofline() {
    let mut imad = record("peak", "imad/i32", [64, 1, 1], 4, Some(3000));
    imad.operations = Operations::IntegerOps;
    let mut dot4 = record("peak", "dot4/i8", [64, 1, 1], 4, Some(9000));
    dot4.operations = Operations::Int8Ops;
    let results = [record("peak", "fma/f32", [64, 1, 1], 4, Some(5000)), imad, dot4];
    let specs = charts::plan(&results, &Peaks::default());
    let keys: Vec<&str> = specs.iter().map(|s| s.key.as_str()).collect();
    let on_axis = "peak · workgroup size (invocations)";
    let expected = ["FMA", "i32 multiply-add", "int8 dot product"].map(|kind| format!("{on_axis} · {kind}"));
    assert_eq!(keys, [&expected[0], &expected[1], &expected[2], "roofline"]);
    let axis = |spec: &ChartSpec| spec.config["options"]["scales"]["y"]["title"]["text"].clone();
    assert_eq!(
        [axis(&specs[0]), axis(&specs[1]), axis(&specs[2])],
        ["GFLOP/s, higher is better", "GIOP/s, higher is better", "GOP/s, higher is better"]
    );
    assert_eq!(dataset(&specs[1], "imad/i32")["data"], json!([3000.0]));
    assert_eq!(labels(&specs[3])[..1], ["fma/f32"], "the roofline holds the f32 chains alone, under its roof");
}

#[test]
fn a_line_chart_of_more_series_than_a_person_tells_apart_splits_by_variant() {
    let mut results = Vec::new();
    for kernel in ["copy", "scale", "add", "triad", "dot"] {
        for variant in ["scalar", "vec4", "grid_stride"] {
            results.push(record("stream", &format!("{kernel}/{variant}"), [64, 1, 1], 100, None));
        }
    }
    let specs = charts::plan(&results, &Peaks::default());
    let keys: Vec<&str> = specs.iter().map(|s| s.key.as_str()).collect();
    let on_axis = "stream · workgroup size (invocations)";
    assert_eq!(keys, ["scalar", "vec4", "grid_stride"].map(|v| format!("{on_axis} · {v}")));
    assert!(specs.iter().all(|s| s.family.as_deref() == Some("stream")));
    assert_eq!(labels(&specs[1]), ["copy/vec4", "scale/vec4", "add/vec4", "triad/vec4", "dot/vec4"]);
    assert!(specs.iter().all(|s| labels(s).len() <= charts::MAX_LINES));
    // Six series still fit one chart.
    let specs = charts::plan(&results[..6], &Peaks::default());
    assert_eq!((specs.len(), labels(&specs[0]).len()), (1, 6));
}

#[test]
fn every_kernel_and_layout_gets_a_colour_from_its_familys_order_without_a_table_entry() {
    for family in kernels::FAMILIES {
        let mut names: Vec<&str> = family.kernels().iter().map(|k| k.kernel).collect();
        names.dedup();
        let colours: Vec<&str> = names.iter().map(|k| kernel_colour(family.name(), k)).collect();
        assert!(!colours.contains(&"#555555"), "{}: {names:?} has a kernel without a colour", family.name());
        let mut distinct = colours.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), colours.len().min(8), "{}: kernels share a colour: {colours:?}", family.name());
    }
    let layouts = ["aos_vec3", "aos_packed", "soa", "aosoa32", "aosoa64"].map(|v| variant_colour("layout", v));
    assert_eq!(layouts.iter().collect::<std::collections::BTreeSet<_>>().len(), 5, "{layouts:?}");
    assert_eq!(kernel_colour("no-such-family", "copy"), "#555555", "a later wgsweep's family draws grey");
}

#[test]
fn families_that_count_flops_chart_gflops_and_the_roofline_sits_under_both_ceilings_on_log_axes() {
    let results = vec![
        record("stream", "copy/vec4", [256, 1, 1], 1000, None),
        record("matmul", "matmul_tiled/16", [16, 16, 1], 100, Some(10_000)),
        record("peak", "fma/f32", [256, 1, 1], 10, Some(50_000)),
    ];
    let mut result: RunResult = RunResult::from_json(&template_run()).unwrap();
    result.results = results;
    wgsweep::analysis::derive(&mut result);
    let specs = charts::plan(&result.results, &result.peaks);
    let keys: Vec<&str> = specs.iter().map(|s| s.key.as_str()).collect();
    assert_eq!(
        keys,
        [
            "stream · workgroup size (invocations)",
            "matmul · workgroup size (invocations)",
            "peak · workgroup size (invocations)",
            "roofline"
        ]
    );
    assert_eq!(specs[1].config["options"]["scales"]["y"]["title"]["text"], "GFLOP/s, higher is better");
    let roofline = &specs[3];
    assert_eq!(roofline.config["type"], "scatter");
    assert_eq!(roofline.config["options"]["scales"]["x"]["type"], "logarithmic");
    assert_eq!(roofline.config["options"]["scales"]["y"]["type"], "logarithmic");
    assert!(roofline.point_text, "points carry their tooltip text");
    assert_eq!(labels(roofline)[..2], ["matmul_tiled/16", "fma/f32"]);
    // Point (flops per byte, GFLOP/s); the roof bends at FMA ÷ copy = 50 flops per byte.
    assert_eq!(dataset(roofline, "matmul_tiled/16")["data"][0]["x"], 100.0);
    assert_eq!(dataset(roofline, "matmul_tiled/16")["data"][0]["y"], 10_000.0);
    let roof = dataset(roofline, "roof: copy 1000.0 GB/s, FMA 50000.0 GFLOP/s")["data"].as_array().unwrap();
    assert_eq!(roof.len(), 3);
    assert_eq!((roof[1]["x"].as_f64(), roof[1]["y"].as_f64()), (Some(50.0), Some(50_000.0)));
}

/// The roofline draws the first `MAX_ROOFLINE_KERNELS` kernels, saying how many more there are: each is a
/// series of its legend, and a crafted result of thousands held the page's thread for most of a second.
#[test]
fn the_roofline_draws_its_first_kernels_and_says_how_many_more() {
    let more = 5;
    let count = charts::MAX_ROOFLINE_KERNELS + more;
    let results: Vec<ConfigResult> =
        (0..count).map(|i| record("matmul", &format!("k{i}/v"), [64, 1, 1], 100, Some(1000))).collect();
    let every: Vec<&ConfigResult> = results.iter().collect();
    let roofline = charts::roofline(&every, &Peaks::default()).unwrap();
    let drawn = labels(&roofline);
    assert_eq!(drawn.len(), charts::MAX_ROOFLINE_KERNELS + 1, "the kernels and the roof");
    assert_eq!((drawn[0].as_str(), drawn[charts::MAX_ROOFLINE_KERNELS - 1].as_str()), ("k0/v", "k31/v"));
    let heading = roofline.config["options"]["plugins"]["title"]["text"].to_string();
    assert!(heading.contains(&format!("the first 32 kernels, {more} more not drawn")), "{heading}");
    let fewer = charts::roofline(&every[..3], &Peaks::default()).unwrap();
    assert!(!fewer.config["options"]["plugins"]["title"]["text"].to_string().contains("not drawn"));
}

#[test]
fn two_dimensional_families_chart_heatmaps_coloured_against_their_best_with_skips_marked() {
    let mut results = vec![
        record("image", "grayscale/rgba8", [8, 8, 1], 500, None),
        record("image", "grayscale/rgba8", [16, 8, 1], 1000, None),
        record("image", "grayscale/rgba8", [32, 32, 1], 0, None),
    ];
    results[2].outcome = Outcome::Skipped { reason: "needs 1024 invocations".into() };
    results[2].gbps = None;
    let specs = charts::plan(&results, &Peaks::default());
    assert_eq!(specs.len(), 1);
    let heatmap = &specs[0];
    assert_eq!(heatmap.key, "image · grayscale/rgba8");
    assert_eq!(heatmap.config["type"], "matrix");
    assert_eq!(heatmap.cells, Some((3, 2)), "columns 8, 16, 32; rows 8, 32");
    assert_eq!(heatmap.config["options"]["scales"]["x"]["labels"], json!(["8", "16", "32"]));
    let colours = &heatmap.config["data"]["datasets"][0]["backgroundColor"];
    assert_eq!(colours[1], "#fde725", "the best is viridis' yellow");
    assert_eq!(colours[2], "#eef0f3", "a skipped shape is pale grey");
    assert_eq!(heatmap.config["data"]["datasets"][0]["data"][2]["text"], "32×32: skipped");
}

#[test]
fn layouts_chart_bars_of_bytes_used_and_moved_coloured_by_variant() {
    let mut soa = record("layout", "touch_one/soa", [256, 1, 1], 700, None);
    soa.moved_bytes_per_dispatch = Some(800);
    let mut aos = record("layout", "touch_one/aos_vec3", [256, 1, 1], 100, None);
    aos.moved_bytes_per_dispatch = Some(3200);
    let specs = charts::plan(&[soa, aos], &Peaks::default());
    let keys: Vec<&str> = specs.iter().map(|s| s.key.as_str()).collect();
    assert_eq!(keys, ["layout · bytes used", "layout · bytes moved"]);
    assert_eq!(specs[0].config["type"], "bar");
    assert_eq!(dataset(&specs[0], "soa")["data"], json!([700.0]));
    assert_eq!(dataset(&specs[1], "aos_vec3")["data"], json!([3200.0]));
    assert_eq!(dataset(&specs[0], "soa")["backgroundColor"], variant_colour("layout", "soa"));
}

#[test]
fn comparisons_chart_a_line_per_result_on_a_log_axis_when_devices_are_far_apart() {
    let run = |gbps: u64| {
        let mut result = RunResult::from_json(&template_run()).unwrap();
        result.results = vec![record("stream", "triad/vec4", [256, 1, 1], gbps, None)];
        result
    };
    for (fast, log) in [(2900, false), (30_000, false), (30_001, true)] {
        let results = [run(1000), run(fast)];
        let names = compare::names(&results);
        let specs = charts::plan_comparison(&compare::rows(&results), &names);
        assert_eq!(specs.len(), 1);
        let scale = &specs[0].config["options"]["scales"]["y"]["type"];
        assert_eq!(scale == "logarithmic", log, "{fast} against 1000 GB/s");
        assert_eq!(labels(&specs[0]), names);
        let datasets = specs[0].config["data"]["datasets"].as_array().unwrap();
        assert_eq!((datasets[0]["borderDash"].clone(), datasets[1]["borderDash"].clone()), (json!([]), json!([6, 4])));
    }
}

/// A run's header with no configurations.
fn template_run() -> String {
    r#"{
  "schema_version": 1,
  "tool": {"name": "wgsweep", "version": "0.1.0"},
  "created": "2026-11-22T10:00:00.000Z",
  "device": {"vendor": "nvidia", "architecture": "", "device": "0x2330", "description": "NVIDIA H100",
             "vendor_id": 4318, "device_id": 9008, "device_type": "DiscreteGpu", "driver": "", "driver_info": "",
             "backend": "vulkan",
             "limits": {"max_workgroup_size_x": 1024, "max_workgroup_size_y": 1024, "max_workgroup_size_z": 64,
                        "max_invocations_per_workgroup": 1024, "max_workgroup_storage_bytes": 49152,
                        "max_workgroups_per_dimension": 65535, "max_storage_buffer_binding_size": 4294967295,
                        "max_buffer_size": 4294967295},
             "features": []},
  "environment": {"runtime": "native", "platform": "linux x86_64", "timestamps": true, "timer_quantum_ns": 1.0,
                  "cross_origin_isolated": null},
  "settings": {"seed": 7, "samples": 10, "min_sample_ns": 1000000.0},
  "results": [],
  "complete": true
}"#
    .to_string()
}

/// A user's kernel's configuration: its size and tunables in the parameter's label, as the family writes it.
fn users(workgroup: [u32; 3], label: &str, bytes: u64) -> ConfigResult {
    let mut r = record("mine", "main/0123abcd", workgroup, bytes, None);
    r.parameter =
        Some(wgsweep::result::ParameterValue { name: "tunables".into(), value: 0, label: Some(label.into()) });
    r
}

#[test]
fn a_users_kernel_charts_a_line_over_the_one_thing_it_varies_and_a_heatmap_over_two() {
    // Over the workgroup size alone: a line with a point per size, at each problem size.
    let results: Vec<ConfigResult> =
        [64, 256].iter().flat_map(|&wg| ["n=1024", "n=4096"].map(|size| users([wg, 1, 1], size, wg as u64))).collect();
    let specs = charts::plan(&results, &Peaks::default());
    let keys: Vec<&str> = specs.iter().map(|s| s.key.as_str()).collect();
    assert_eq!(keys, ["mine · n=1024", "mine · n=4096"]);
    assert_eq!(specs[0].config["type"], "line");
    assert_eq!(specs[0].config["data"]["labels"], json!(["64", "256"]));
    assert_eq!(specs[0].config["options"]["scales"]["x"]["title"]["text"], "workgroup");

    // One shape, one tunable: a line over the tunable.
    let results: Vec<ConfigResult> =
        [1, 2, 4].iter().map(|&e| users([256, 1, 1], &format!("n=1024 · ELEMENTS={e}"), 10 * e)).collect();
    let specs = charts::plan(&results, &Peaks::default());
    assert_eq!(specs[0].config["data"]["labels"], json!(["ELEMENTS=1", "ELEMENTS=2", "ELEMENTS=4"]));
    assert_eq!(specs[0].config["data"]["datasets"][0]["data"], json!([10.0, 20.0, 40.0]));
    assert_eq!(specs[0].config["options"]["scales"]["x"]["title"]["text"], "ELEMENTS");

    // Shapes and two tunables: a heatmap, shapes along x, the tunables together up y.
    let mut results = Vec::new();
    for wg in [[8, 8, 1], [16, 4, 1]] {
        for tile in [1, 2] {
            for rows in [1, 4] {
                results.push(users(wg, &format!("w=64 h=64 · TILE={tile} ROWS={rows}"), (tile * rows) as u64));
            }
        }
    }
    results[3].outcome = Outcome::Skipped { reason: "the restriction `TILE * ROWS < 8` excludes it".into() };
    let specs = charts::plan(&results, &Peaks::default());
    let [heatmap] = specs.as_slice() else { panic!("{specs:?}") };
    assert_eq!(heatmap.config["type"], "matrix");
    assert_eq!(heatmap.cells, Some((2, 4)));
    assert_eq!(heatmap.config["options"]["scales"]["x"]["labels"], json!(["8×8", "16×4"]));
    assert_eq!(
        heatmap.config["options"]["scales"]["y"]["labels"],
        json!(["TILE=1 ROWS=1", "TILE=1 ROWS=4", "TILE=2 ROWS=1", "TILE=2 ROWS=4"])
    );
    assert_eq!(heatmap.config["options"]["scales"]["y"]["title"]["text"], "TILE, ROWS");
    let cell = &heatmap.config["data"]["datasets"][0]["data"][3];
    assert_eq!((cell["v"].clone(), cell["text"].clone()), (Value::Null, json!("8×8 TILE=2 ROWS=4: skipped")));
}
