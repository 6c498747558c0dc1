//! Comparisons: the regression gate (`compare::regressions`) and named baselines (`baseline`).

use wgsweep::baseline::Baselines;
use wgsweep::compare::{self, NOISE_THRESHOLD};
use wgsweep::result::{DAWN_F16_ON_NVIDIA, RunResult, f16_unlock, gb_per_s};
use wgsweep::stats;

use crate::MINIMAL_V1;

/// The minimal result with its one configuration's samples (one dispatch each) and what follows from them.
fn measured(samples_ns: &[f64]) -> RunResult {
    let mut result = RunResult::from_json(MINIMAL_V1).unwrap();
    let r = &mut result.results[0];
    let summary = stats::summarize(samples_ns).unwrap();
    r.samples_ns = samples_ns.to_vec();
    r.dispatches_per_sample = 1;
    r.median_ns = Some(summary.median);
    r.median_interval_ns = summary.median_interval.map(|(low, high)| [low, high]);
    r.min_ns = Some(summary.min);
    r.p95_ns = Some(summary.p95);
    r.gbps = gb_per_s(r.bytes_per_dispatch, summary.median);
    result
}

/// 20 samples around `ns`, spread by ±0.5 %.
fn around(ns: f64) -> Vec<f64> {
    (0..20).map(|i| ns * (1.0 + 0.005 * ((i % 5) as f64 - 2.0) / 2.0)).collect()
}

#[test]
fn the_regression_gate_refuses_a_slower_run_beyond_noise_and_the_limit_only() {
    let before = measured(&around(1e6));
    let slower = measured(&around(1.1e6));
    let rows = compare::rows(&[before.clone(), slower]);
    let slower_by_ten = compare::regressions(&rows, NOISE_THRESHOLD, 0.03);
    assert_eq!(slower_by_ten.len(), 1, "10 % slower, beyond noise and a 3 % limit");
    assert_eq!(slower_by_ten[0].at, 1);
    assert!(slower_by_ten[0].text().starts_with("triad/scalar default wg 256"), "{}", slower_by_ten[0].text());
    assert!(compare::regressions(&rows, NOISE_THRESHOLD, 0.15).is_empty(), "within a 15 % limit");

    let same = compare::rows(&[before.clone(), measured(&around(1.005e6))]);
    assert!(compare::regressions(&same, NOISE_THRESHOLD, 0.0).is_empty(), "0.5 % is within noise");
    let faster = compare::rows(&[before, measured(&around(0.8e6))]);
    assert!(compare::regressions(&faster, NOISE_THRESHOLD, 0.0).is_empty(), "faster is no regression");
}

#[test]
fn a_baseline_is_saved_and_read_back_by_name_and_a_name_that_could_leave_the_folder_is_refused() {
    let folder = tempfile::tempdir().unwrap();
    let baselines = Baselines::in_folder(folder.path().join("baselines"));
    let result = measured(&around(1e6));
    let path = baselines.save("main-2026.11", &result).unwrap();
    assert!(path.starts_with(folder.path()) && path.ends_with("main-2026.11.json"));
    assert_eq!(baselines.load("main-2026.11").unwrap().results[0].samples_ns, result.results[0].samples_ns);
    for name in ["", "../elsewhere", ".hidden", "a/b", "name with spaces"] {
        let refused = baselines.save(name, &result).unwrap_err();
        assert!(refused.contains("a baseline's name is"), "{name:?}: {refused}");
    }
    let missing = baselines.load("never-saved").unwrap_err();
    assert!(missing.contains("no baseline `never-saved`") && missing.contains("--save-baseline"), "{missing}");
}

/// One device in two engines says so, with each engine and its WebGPU implementation; other devices, or one
/// engine twice, say nothing of engines.
#[test]
fn a_comparison_of_one_gpu_in_two_engines_names_them_in_its_heading() {
    let read = |name: &str| {
        let path = format!("{}/docs/results/{name}", env!("CARGO_MANIFEST_DIR"));
        RunResult::from_json(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let (native, chromium) = (read("h100-native-stream.json"), read("h100-chromium-stream.json"));
    assert_eq!(native.environment.engine(&native.device.backend), "native (wgpu on vulkan)");
    assert!(chromium.environment.engine(&chromium.device.backend).ends_with(" (Dawn)"));
    let heading = compare::engines_heading(&[chromium.clone(), native.clone()]).expect("two engines");
    assert!(heading.starts_with("One GPU, two engines: NVIDIA H100 80GB HBM3 in Chrome "), "{heading}");
    assert!(heading.ends_with(" (Dawn) and natively (wgpu on vulkan)"), "{heading}");
    let names = compare::names(&[chromium.clone(), native.clone()]);
    assert!(names[1].ends_with("(native (wgpu on vulkan))"), "{names:?}");
    // Firefox's WebGPU is wgpu, and its adapter is known by what it exposes.
    let mut firefox = chromium.clone();
    firefox.environment.platform = "Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0".into();
    assert_eq!(firefox.environment.engine("webgpu"), "Firefox 153 (wgpu)");
    // Firefox withholds the adapter's name: the same GPU only where its person named it so.
    firefox.device.identity = Default::default();
    assert_eq!(compare::engines_heading(&[chromium.clone(), firefox.clone()]), None);
    firefox.device.named_by_person = Some("NVIDIA H100 80GB HBM3".into());
    let three = compare::engines_heading(&[chromium.clone(), firefox, native.clone()]).unwrap();
    assert!(
        three.starts_with("One GPU, three engines: ") && three.contains(", in Firefox 153 (wgpu) and natively"),
        "{three}"
    );
    assert_eq!(compare::engines_heading(&[native.clone(), native.clone()]), None, "one engine");
    let mut other = chromium;
    other.device.identity.description = "another GPU".into();
    other.device.device_id += 1;
    assert_eq!(compare::engines_heading(&[native, other]), None, "two devices");
}

/// Chromium's Dawn turns shader-f16 off on NVIDIA unless started with a toggle: the device card names it
/// there, and nowhere else.
#[test]
fn a_dawn_browser_on_nvidia_without_f16_is_told_its_toggle_and_no_other_is() {
    let path = format!("{}/docs/results/h100-chromium-stream.json", env!("CARGO_MANIFEST_DIR"));
    let h100 = RunResult::from_json(&std::fs::read_to_string(path).unwrap()).unwrap().device;
    assert!(!h100.has_feature("shader-f16"), "Chromium as it starts, on the H100");
    let chrome =
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
    let firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0";
    assert_eq!(f16_unlock(&h100, chrome), Some(DAWN_F16_ON_NVIDIA));
    assert_eq!(f16_unlock(&h100, firefox), None, "Firefox's wgpu takes no Dawn toggle");
    let mut offered = h100.clone();
    offered.features.push("shader-f16".into());
    assert_eq!(f16_unlock(&offered, chrome), None, "it has f16 already");
    let mut other = h100;
    other.vendor_id = 0x1002;
    other.identity.vendor = "amd".into();
    assert_eq!(f16_unlock(&other, chrome), None, "the toggle is NVIDIA's");
}

/// A result that measured none of the configurations the first did gets no verdicts, and says why.
#[test]
fn a_result_that_measured_nothing_of_the_first_says_so_instead_of_verdicts() {
    let read = |name: &str| {
        let path = format!("{}/docs/results/beyond-f32/{name}", env!("CARGO_MANIFEST_DIR"));
        RunResult::from_json(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    // Chromium as it starts offers the H100 no f16: every configuration was skipped there.
    let results = [read("h100-native-f16.json"), read("h100-chromium-f16-default-flags.json")];
    let rows = compare::rows(&results);
    assert_eq!(compare::verdicts_text(&rows, 1, NOISE_THRESHOLD), "no verdicts: no configuration was measured in both");
    let toggled = [read("h100-native-f16.json"), read("h100-chromium-f16-toggle.json")];
    let text = compare::verdicts_text(&compare::rows(&toggled), 1, NOISE_THRESHOLD);
    assert!(text.starts_with("stream: 0 faster, 0 slower, 22 the same; peak: 30 faster"), "{text}");
}
