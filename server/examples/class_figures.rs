//! What a publish pays to make its class's figures afresh: the class's latest 200 results decoded from
//! their compact form, their median result and their presets. Run from the workspace root:
//!   cargo run --release -p wgsweep-server --example class_figures

use std::time::Instant;

use wgsweep::{analysis, gallery, share};

fn main() {
    let text =
        std::fs::read_to_string("docs/results/pace/h100-native-suite-5.json").expect("run from the workspace root");
    let result = analysis::read_json(&text).expect("a recorded result");
    let compact = share::blocking::encode(&result);
    println!("one result: {} configurations, {} bytes compact", result.results.len(), compact.len());
    let window = gallery::CLASS_WINDOW;
    for _ in 0..3 {
        let started = Instant::now();
        let latest: Vec<_> = (0..window).map(|_| share::blocking::decode(&compact).expect("decodes")).collect();
        let decoded = started.elapsed();
        let started = Instant::now();
        let median = gallery::median_result(&latest).expect("a median");
        let medianed = started.elapsed();
        let started = Instant::now();
        let presets = gallery::presets(&latest);
        let preset = started.elapsed();
        let started = Instant::now();
        let members: Vec<gallery::Member> = latest.into_iter().map(gallery::Member::new).collect();
        let made_members = started.elapsed();
        let started = Instant::now();
        let figures = gallery::ClassFigures::of(&members).expect("figures");
        let figured = started.elapsed();
        let started = Instant::now();
        let written = (figures.median.to_json().len(), serde_json::to_string(&figures.presets).expect("JSON").len());
        let wrote = started.elapsed();
        println!(
            "{window} results: decoded in {decoded:.1?}, median ({} configurations) in {medianed:.1?}, {} presets in \
             {preset:.1?}; as a publish pays it: their best shapes in {made_members:.1?} (once, each kept), the \
             class's figures in {figured:.1?}, written as JSON ({} + {} bytes) in {wrote:.1?}",
            median.results.len(),
            presets.len(),
            written.0,
            written.1,
        );
    }
}
