//! End to end, as a person uses the page: the release build in dist/ served with COOP/COEP, driven in
//! headless Chromium through chromedriver. `cargo xtask test` builds the page and runs these.
#![cfg(not(target_arch = "wasm32"))]

mod server;
mod webdriver;

use std::path::PathBuf;
use std::time::Duration;

use serde_json::Value;
use webdriver::{Browser, WebGpu};

fn dist() -> PathBuf {
    let dist = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("dist");
    assert!(dist.join("index.html").exists(), "no page in {}: `cargo xtask test` builds it first", dist.display());
    dist
}

fn screenshot_path(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("test-output");
    std::fs::create_dir_all(&dir).expect("test-output/");
    dir.join(name)
}

#[test]
#[ignore = "needs the built page and chromedriver: `cargo xtask test` runs it"]
fn a_person_runs_stream_on_swiftshader_and_sees_valid_rows_and_a_chart() {
    let site = server::serve(dist());
    let browser = Browser::start(WebGpu::Enabled);
    browser.open(&format!("{}/index.html?kernels=stream&size=65536&samples=3&wg=1,64,256", site.url()));

    browser.wait_for("the device card", "!document.getElementById('device')?.hidden", Duration::from_secs(60));
    let card = browser.text("#device-facts");
    assert!(card.to_lowercase().contains("swiftshader"), "the device card should name SwiftShader:\n{card}");
    assert!(card.contains("Invocations per workgroup"), "{card}");

    browser.click("#run");
    // Progress moves: collect what the progress line says until the run is done.
    let mut progress_seen = Vec::new();
    let deadline = std::time::Instant::now() + Duration::from_secs(600);
    while browser.eval("return document.querySelector('#results[data-done]') === null") == Value::Bool(true) {
        assert!(std::time::Instant::now() < deadline, "the run did not finish in 10 minutes");
        let text = browser.text("#progress-text");
        if progress_seen.last() != Some(&text) {
            progress_seen.push(text);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let counted: Vec<&String> = progress_seen.iter().filter(|t| t.contains(" of 45")).collect();
    assert!(counted.len() >= 3, "progress should move through the 45 configurations: {progress_seen:?}");
    assert!(browser.text("#progress-text").starts_with("Done: 45 configurations"));

    let rows = browser.eval(
        "return [...document.querySelectorAll('#results-body tr')].map(r => [r.className, r.cells[0].textContent, r.cells[8].textContent])",
    );
    let rows = rows.as_array().expect("rows");
    assert_eq!(rows.len(), 45);
    for row in rows {
        let class = row[0].as_str().unwrap();
        assert!(class == "valid" || class == "suspect", "every configuration validates: {row}");
    }
    for kernel in ["copy", "scale", "add", "triad", "dot"] {
        let valid = rows.iter().filter(|r| r[1].as_str().unwrap().starts_with(&format!("{kernel}/"))).count();
        assert_eq!(valid, 9, "{kernel} has a valid row for each variant and workgroup size");
    }

    let chart = browser.eval(
        "const c = Chart.getChart(document.querySelector('#charts canvas')); \
         return c ? c.data.datasets.map(d => d.data.filter(v => v !== null).length) : null",
    );
    let points = chart.as_array().expect("a chart is drawn in #charts");
    assert_eq!(points.len(), 15, "one line per kernel/variant");
    assert_eq!(browser.eval("return document.querySelectorAll('#charts canvas').length"), 1);
    assert!(points.iter().all(|p| p.as_u64() == Some(3)), "every line has its 3 points: {points:?}");

    browser.screenshot(&screenshot_path("e2e-stream-run.png"));
}

#[test]
#[ignore = "needs the built page and chromedriver: `cargo xtask test` runs it"]
fn a_person_runs_the_transpose_family_and_sees_valid_rows_and_its_chart() {
    let site = server::serve(dist());
    let browser = Browser::start(WebGpu::Enabled);
    browser.open(&format!("{}/index.html?kernels=transpose&size=3700&samples=1", site.url()));
    browser.wait_for("the device card", "!document.getElementById('device')?.hidden", Duration::from_secs(60));
    browser.click("#run");
    browser.wait_for("the run to finish", "document.querySelector('#results[data-done]')", Duration::from_secs(600));

    let rows = browser.eval(
        "return [...document.querySelectorAll('#results-body tr')].map(r => [r.className, r.cells[0].textContent])",
    );
    let rows = rows.as_array().expect("rows");
    assert!(rows.iter().all(|r| r[0] != "failed"), "no configuration fails validation: {rows:?}");
    for kernel in ["copy2d/reference", "naive/read", "naive/write", "tiled/plain", "tiled/padded"] {
        let valid = rows.iter().filter(|r| r[1] == kernel && (r[0] == "valid" || r[0] == "suspect")).count();
        assert!(valid > 0, "{kernel} has valid rows");
    }
    let lines = browser.eval(
        "const c = Chart.getChart(document.querySelector('#charts canvas')); return c ? c.data.datasets.length : 0",
    );
    assert_eq!(lines, Value::from(5), "one line per transpose kernel");
    browser.screenshot(&screenshot_path("e2e-transpose-run.png"));
}

#[test]
#[ignore = "needs the built page and chromedriver: `cargo xtask test` runs it"]
fn a_browser_without_webgpu_gets_a_message_that_says_what_to_do() {
    let site = server::serve(dist());
    let browser = Browser::start(WebGpu::Disabled);
    browser.open(&format!("{}/index.html", site.url()));
    browser.wait_for("the message", "!document.getElementById('message')?.hidden", Duration::from_secs(60));
    let message = browser.text("#message");
    assert!(message.contains("--enable-unsafe-webgpu"), "the message says how to turn WebGPU on: {message}");
    assert_eq!(browser.eval("return document.getElementById('controls').hidden"), Value::Bool(true));
    browser.screenshot(&screenshot_path("e2e-no-webgpu.png"));
}
