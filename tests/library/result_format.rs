//! The result format: reading, writing, refusing what no run could record, CSV.

use wgsweep::gpu::MatrixConfig;
use wgsweep::result::{Outcome, RunResult, SCHEMA_VERSION, rfc3339};

use crate::MINIMAL_V1;

#[test]
fn rfc3339_formats_utc_milliseconds() {
    assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000Z");
    assert_eq!(rfc3339(951_782_400_000), "2000-02-29T00:00:00.000Z");
    assert_eq!(rfc3339(1_795_326_991_123), "2026-11-22T05:56:31.123Z");
}

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

/// The JSON files the results documents link to (`(name.json)`), each relative to its document.
fn linked_from_documents() -> Vec<std::path::PathBuf> {
    let mut linked = Vec::new();
    let mut dirs = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/results")];
    while let Some(dir) = dirs.pop() {
        for path in std::fs::read_dir(&dir).unwrap().map(|entry| entry.unwrap().path()) {
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                let text = std::fs::read_to_string(&path).unwrap();
                for link in text.split("](").skip(1).filter_map(|rest| rest.split(')').next()) {
                    if link.ends_with(".json") && !link.contains("://") {
                        linked.push(dir.join(link));
                    }
                }
            }
        }
    }
    linked
}

#[test]
fn every_recorded_result_is_believable() {
    let recorded = recorded_results();
    // The walk finds what the documents link to (however many results they hold): each linked file exists
    // and, where it holds a result, is among those read below.
    for linked in linked_from_documents() {
        let text = std::fs::read_to_string(&linked).unwrap_or_else(|e| panic!("{}: {e}", linked.display()));
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let holds_result = value.get("schema_version").is_some() || value["result"].get("schema_version").is_some();
        let found = recorded.iter().any(|(path, _)| path.canonicalize().unwrap() == linked.canonicalize().unwrap());
        assert!(!holds_result || found, "{} is linked but not read", linked.display());
    }
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
    let why = refused(&|r| r.device.named_by_person = Some("x".repeat(81)));
    assert!(why.contains("name given by its user is longer than 80 characters"), "{why}");
    let why = refused(&|r| r.environment.host_probe_ms = Some(-3.0));
    assert!(why.contains("the host's probe -3 ms is not a positive time"), "{why}");
    // A host's probe is kept by a file and a link alike.
    let mut probed = good.clone();
    probed.environment.host_probe_ms = Some(11.635);
    let from_link =
        wgsweep::share::blocking::decode(&wgsweep::share::blocking::link("https://example.org/", &probed)).unwrap();
    let from_file = RunResult::from_json(&probed.to_json()).unwrap();
    assert_eq!(
        (from_file.environment.host_probe_ms, from_link.environment.host_probe_ms),
        (Some(11.635), Some(11.635))
    );
    // A configuration skipped for a device limit names a shape over it: that is believable.
    let mut skipped = good.clone();
    skipped.results[0].workgroup_size = [4096, 1, 1];
    skipped.results[0].outcome = Outcome::Skipped { reason: "needs 4096 invocations".into() };
    (skipped.results[0].median_ns, skipped.results[0].min_ns, skipped.results[0].p95_ns) = (None, None, None);
    skipped.check().unwrap();
    // Valid but too slow to measure: its file and its link keep that.
    let mut unmeasured = good.clone();
    let slow = Outcome::Unmeasured { reason: "one dispatch takes about 1.6 s on this device".into() };
    let first = &mut unmeasured.results[0];
    first.outcome = slow.clone();
    (first.median_ns, first.min_ns, first.p95_ns, first.gbps, first.cv) = (None, None, None, None, None);
    first.samples_ns.clear();
    let from_file = RunResult::from_json(&unmeasured.to_json()).unwrap();
    let from_link =
        wgsweep::share::blocking::decode(&wgsweep::share::blocking::link("https://example.org/", &unmeasured)).unwrap();
    assert_eq!((&from_file.results[0].outcome, &from_link.results[0].outcome), (&slow, &slow));
    // A file says so when it is opened.
    let mut bad = good.clone();
    bad.results[0].median_ns = Some(-5.0);
    let error = RunResult::from_json(&bad.to_json()).unwrap_err().to_string();
    assert!(error.starts_with("not a believable result: configuration 1"), "{error}");
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
