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
        let expected = expected_duration_s(
            run.results.iter().map(|r| r.family.as_str()),
            &estimate::class_of(run),
            None,
            run.environment.host_probe_ms,
        );
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
    assert_eq!(expected_duration_s([family, family], "native gpu", None, None), 2.0 * f64::from(ms) / 1000.0);
    // A user's kernel has no family pace: its class's over all families.
    assert_eq!(
        expected_duration_s(["user"], "native gpu", None, None),
        f64::from(native.ms_per_configuration) / 1000.0
    );
    // Safari was never recorded: Chromium's pace on the same kind of adapter.
    let chromium = estimate::recorded().iter().find(|p| p.class == "chromium gpu").unwrap();
    assert_eq!(
        expected_duration_s(["user"], "safari gpu", None, None),
        f64::from(chromium.ms_per_configuration) / 1000.0
    );
    // An earlier run on the device sets the pace; a pace that is no number does not.
    assert_eq!(expected_duration_s([family; 10], "native cpu", Some(2.0), None), 20.0);
    assert_eq!(
        expected_duration_s([family; 10], "native cpu", Some(f64::NAN), None),
        expected_duration_s([family; 10], "native cpu", None, None)
    );
}

#[test]
fn estimates_read_in_seconds_then_minutes() {
    assert_eq!(about(40.2), "about 41 s");
    assert_eq!(about(180.0), "about 3 min");
    assert_eq!(about(200.0), "about 3 min 20 s");
    assert_eq!(about(-1.0), "about 0 s");
}

/// Two runs of the same configurations on hosts whose probes differ: how a run's time follows its host is
/// learned from them, and the paces are a host's of the mean probe, so that the estimate gives each run back.
#[test]
fn a_slower_host_is_learned_as_the_power_of_its_probe_a_run_takes() {
    let (_, run) = timed_runs().into_iter().find(|(_, r)| estimate::class_of(r) == "chromium gpu").unwrap();
    let on_host = |probe_ms: f64, scale: f64| {
        let mut run = run.clone();
        run.environment.host_probe_ms = Some(probe_ms);
        run.results.iter_mut().for_each(|r| r.took_s = r.took_s.map(|s| s * scale));
        run
    };
    let took = |run: &RunResult| run.results.iter().filter_map(|r| r.took_s).sum::<f64>();
    // Probes of 2 and 8 ms, half and twice their mean of 4; times 2^-0.5 and 2^0.5 of the middle host's.
    let (quick, slow) = (on_host(2.0, 0.5f64.sqrt()), on_host(8.0, 2.0f64.sqrt()));
    let [learned] = &learn([&quick, &slow])[..] else { panic!("one class") };
    assert!((learned.host_probe_ms - 4.0).abs() < 1e-12, "{}", learned.host_probe_ms);
    assert!((learned.host_exponent - 0.5).abs() < 1e-9, "{}", learned.host_exponent);
    let per_configuration = 1000.0 * took(&run) / run.results.len() as f64;
    assert_eq!(learned.ms_per_configuration, per_configuration.round() as u32);
    // Probes within a few per cent of one another tell nothing: nothing is learned from them.
    let [learned] = &learn([&on_host(3.0, 0.8), &on_host(3.1, 1.2)])[..] else { panic!("one class") };
    assert_eq!(learned.host_exponent, 0.0);
    // Beside runs that probed their hosts, one that did not teaches nothing: it cannot be brought to the
    // mean host.
    let mut unprobed = on_host(1.0, 3.0);
    unprobed.environment.host_probe_ms = None;
    assert_eq!(learn([&quick, &slow, &unprobed]), learn([&quick, &slow]));
}

/// A host whose probe takes longer than the class's mean is expected to take longer, as the recorded runs
/// of its class did; an absurd probe is bounded, and an unknown one changes nothing.
#[test]
fn the_estimate_follows_the_hosts_probe() {
    let chromium = estimate::recorded().iter().find(|p| p.class == "chromium gpu").unwrap();
    let suite = || ["stream"; 10];
    let at = |probe: Option<f64>| expected_duration_s(suite(), "chromium gpu", None, probe);
    let mean = chromium.host_probe_ms;
    assert!(mean > 0.0 && chromium.host_exponent > 0.0, "the recorded Chromium runs probed their hosts");
    let twice = at(Some(2.0 * mean)) / at(None);
    assert!((twice - 2.0f64.powf(chromium.host_exponent)).abs() < 1e-9, "{twice}");
    assert_eq!(at(Some(mean)), at(None));
    assert!(at(Some(1e9 * mean)) <= 4.0 * at(None));
    assert_eq!(at(Some(f64::NAN)), at(None));
    assert_eq!(at(Some(-1.0)), at(None));
    // An earlier run on the device sets the pace, whatever the probe.
    assert_eq!(expected_duration_s(suite(), "chromium gpu", Some(2.0), Some(2.0 * mean)), 20.0);
}
