//! What a publish pays to make its class's figures afresh: the class's latest 200 results decoded from
//! their compact form, their median result and their presets. Run from the workspace root:
//!   cargo run --release -p wgsweep-server --example class_figures

use std::time::Instant;

use wgsweep::{analysis, gallery, share};

fn main() {
    let text =
        std::fs::read_to_string("docs/results/pace/h100-native-suite-5.json").expect("run from the workspace root");
    let result = analysis::read_json(&text).expect("a recorded result");
    let compact = share::encode(&result);
    println!("one result: {} configurations, {} bytes compact", result.results.len(), compact.len());
    let window = gallery::CLASS_WINDOW;
    for _ in 0..3 {
        let started = Instant::now();
        let latest: Vec<_> = (0..window).map(|_| share::decode(&compact).expect("decodes")).collect();
        let decoded = started.elapsed();
        let started = Instant::now();
        let median = gallery::median_result(&latest).expect("a median");
        let medianed = started.elapsed();
        let started = Instant::now();
        let presets = gallery::presets(&latest);
        let preset = started.elapsed();
        println!(
            "{window} results: decoded in {decoded:.1?}, median ({} configurations) in {medianed:.1?}, {} presets in {preset:.1?}",
            median.results.len(),
            presets.len()
        );
    }
}
