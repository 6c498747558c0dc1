//! How long a run should take: paces learned from the recorded runs, by engine and adapter kind.

use std::path::{Path, PathBuf};

use wgsweep::estimate::{self, about, class, expected_duration_s, learn, learned_source};
use wgsweep::result::RunResult;

const LEARNED: &str = "src/estimate/learned.rs";

/// Every recorded run under docs/results that timed its configurations.
fn timed_runs() -> Vec<(PathBuf, RunResult)> {
    let mut files = Vec::new();
    let mut folders = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/results")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(folder).unwrap().map(Result::unwrap) {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
        .into_iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            let result = text.contains("\"took_s\"").then(|| RunResult::from_json(&text).ok()).flatten()?;
            Some((path, result))
        })
        .collect()
}

/// `learned.rs` is what the recorded runs teach; with `WGSWEEP_LEARN=1` (`cargo xtask paces`) it is
/// written anew from them instead.
#[test]
fn the_learned_paces_are_those_of_the_recorded_runs() {
    let runs = timed_runs();
    let source = learned_source(&learn(runs.iter().map(|(_, r)| r)));
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(LEARNED);
    if std::env::var_os("WGSWEEP_LEARN").is_some() {
        std::fs::write(&path, &source).unwrap();
        return; // the build under test holds the table as it was
    }
    assert_eq!(std::fs::read_to_string(&path).unwrap(), source, "{LEARNED} is stale: run `cargo xtask paces`");
    for kind in ["native gpu", "chromium gpu", "native cpu"] {
        assert!(estimate::recorded().iter().any(|p| p.class == kind), "no recorded run of the kind {kind}");
    }
}

/// The estimate is held to runs of the default suite; a run of a few kernels of a family may take a
/// different share of the family's time (docs/results/estimates.md).
#[test]
fn every_timed_recorded_run_of_the_default_suite_took_within_a_quarter_of_its_estimate() {
    let suite: std::collections::BTreeSet<String> =
        wgsweep::kernels::select("default").unwrap().iter().map(|k| k.id.label()).collect();
    let of_the_suite = |run: &RunResult| {
        let kernels: std::collections::BTreeSet<String> =
            run.results.iter().map(|r| format!("{}/{}", r.kernel, r.variant)).collect();
        kernels == suite
    };
    let runs: Vec<_> = timed_runs().into_iter().filter(|(_, r)| r.complete && of_the_suite(r)).collect();
    assert!(runs.len() >= 4, "{} timed runs of the default suite", runs.len());
    for (path, run) in &runs {
        let expected =
            expected_duration_s(run.results.iter().map(|r| r.family.as_str()), &estimate::class_of(run), None);
        let took = run.pace.as_ref().unwrap().wall_s;
        assert!(
            (expected / took - 1.0).abs() <= 0.25,
            "{}: expected {expected:.1} s, took {took:.1} s",
            path.display()
        );
    }
}

#[test]
fn a_runs_class_is_its_engine_and_its_adapters_kind() {
    let mut device = wgsweep::result::RunResult::from_json(crate::MINIMAL_V1).unwrap().device;
    device.device_type = "DiscreteGpu".into();
    let chrome =
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
    let edge = format!("{chrome} Edg/156.0.0.0");
    let firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0";
    assert_eq!(class(None, &device), "native gpu");
    assert_eq!(class(Some(chrome), &device), "chromium gpu");
    assert_eq!(class(Some(&edge), &device), "chromium gpu");
    assert_eq!(class(Some(firefox), &device), "firefox gpu");
    device.device_type = "Cpu".into();
    assert_eq!(class(Some(chrome), &device), "chromium cpu");
}

#[test]
fn each_configuration_takes_its_familys_pace_and_an_unrecorded_kind_the_nearest() {
    let native = estimate::recorded().iter().find(|p| p.class == "native gpu").unwrap();
    let (family, ms) = native.families[0];
    assert_eq!(expected_duration_s([family, family], "native gpu", None), 2.0 * f64::from(ms) / 1000.0);
    // A user's kernel has no family pace: its class's over all families.
    assert_eq!(expected_duration_s(["user"], "native gpu", None), f64::from(native.ms_per_configuration) / 1000.0);
    // Safari was never recorded: Chromium's pace on the same kind of adapter.
    let chromium = estimate::recorded().iter().find(|p| p.class == "chromium gpu").unwrap();
    assert_eq!(expected_duration_s(["user"], "safari gpu", None), f64::from(chromium.ms_per_configuration) / 1000.0);
    // An earlier run on the device sets the pace; a pace that is no number does not.
    assert_eq!(expected_duration_s([family; 10], "native cpu", Some(2.0)), 20.0);
    assert_eq!(
        expected_duration_s([family; 10], "native cpu", Some(f64::NAN)),
        expected_duration_s([family; 10], "native cpu", None)
    );
}

#[test]
fn estimates_read_in_seconds_then_minutes() {
    assert_eq!(about(40.2), "about 41 s");
    assert_eq!(about(180.0), "about 3 min");
    assert_eq!(about(200.0), "about 3 min 20 s");
    assert_eq!(about(-1.0), "about 0 s");
}
