//! `wgsweep-seed` fills a gallery with realistic results: distinct, believable (every one reads back as a
//! publish would have stored it), spread over device classes whose figures are made.

mod support;

use support::{client, gallery_with, get, key_query, sqlite_url};
use wgsweep::RunResult;
use wgsweep_server::api::Settings;

#[tokio::test]
async fn the_seeder_fills_a_gallery_with_distinct_believable_results_in_many_classes() {
    let dir = tempfile::tempdir().unwrap();
    let url = sqlite_url(dir.path());
    let recorded = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/results/pace");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_wgsweep-seed"))
        .args(["--database", &url, "--results", "60", "--batch", "25", "--recorded"])
        .arg(&recorded)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));

    let reads_per_minute = std::num::NonZeroU32::new(100_000).unwrap(); // every result is read back
    let (app, _dist) = gallery_with(&url, Settings { reads_per_minute, ..Settings::default() }, client(1)).await;
    let devices = get(&app, "/api/devices").await.json();
    let devices = devices["devices"].as_array().unwrap();
    assert!(devices.len() >= 10, "{} classes", devices.len());
    let counted: u64 = devices.iter().map(|d| d["results"].as_u64().unwrap()).sum();
    assert_eq!(counted, 60, "every result stored once, in its class");
    assert!(devices.iter().any(|d| d["key"].as_str().unwrap().contains("Chrome")));
    assert!(devices.iter().any(|d| d["key"].as_str().unwrap().ends_with("· native")));
    let mut labels = Vec::new();
    for device in devices {
        let key = device["key"].as_str().unwrap();
        let listed = get(&app, &format!("/api/device/results?{}", key_query(key))).await.json();
        for entry in listed["results"].as_array().unwrap() {
            let body = get(&app, &format!("/api/results/{}", entry["id"].as_str().unwrap())).await;
            let result = RunResult::from_json(std::str::from_utf8(&body.body).unwrap()).expect("believable");
            labels.push(result.label);
        }
        let median = get(&app, &format!("/api/device/median?{}", key_query(key))).await;
        let median = RunResult::from_json(std::str::from_utf8(&median.body).unwrap()).unwrap();
        assert!(median.label.starts_with(key), "{}", median.label);
    }
    labels.sort();
    labels.dedup();
    assert_eq!(labels.len(), 60, "distinct results");
}
