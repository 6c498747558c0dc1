//! A user's kernel of several passes (spec `passes`), on whatever native adapter is present (lavapipe in
//! CI): public multi-pass kernels run unchanged, each pass binding its own buffers; what a pass may not say
//! is named at its place.
#![cfg(not(target_arch = "wasm32"))]

#[expect(dead_code, reason = "the runner helpers the other test binaries use")]
mod support;

use serde_json::{Value, json};
use sha2::Digest;
use support::{assert_good, open_gpu, problems, run};
use wgsweep::result::{ConfigResult, Outcome};
use wgsweep::spec::leading_spec;

/// The text between a public kernel's marker lines: the original, as published.
fn original(source: &str) -> &str {
    let begins = "// ---- the original begins ----";
    let start = source.find(begins).expect("a begin marker") + begins.len();
    let end = source.find("// ---- the original ends ----").expect("an end marker");
    &source[start..end - 1]
}

fn sha256(text: &str) -> String {
    sha2::Sha256::digest(text).iter().map(|b| format!("{b:02x}")).collect()
}

/// The specification of `source`, changed by `change`, as JSON text.
fn spec_of(source: &str, change: impl FnOnce(&mut Value)) -> String {
    let mut spec: Value = serde_json::from_str(leading_spec(source).unwrap()).unwrap();
    change(&mut spec);
    spec.to_string()
}

/// WebGPU-Radix-Sort's prefix sum, three levels of scans and two of fix-ups, each level's buffers bound by
/// name, validates against a scan in order at every workgroup shape the restrictions admit; its WGSL is the
/// published one.
#[test]
fn a_public_prefix_sum_in_five_passes_runs_unchanged_and_validates() {
    let source = include_str!("kernels/public/prefix_sum.wgsl");
    assert_eq!(
        sha256(original(source)),
        "2c1ed3bd628a1232d08660bf0daa10693411e88e6dc2827f813ebda2057128c3",
        "the template string of src/shaders/prefix_sum.js at 4c7d5cb"
    );
    let gpu = open_gpu();
    let result = run(&gpu, source, leading_spec(source).unwrap());
    assert_eq!(result.results.len(), 15, "five shapes each of 64, 128 and 256 invocations");
    result.results.iter().for_each(assert_good);
    // Without the deepest fix-up pass, the block sums of the middle level are not added: wrong everywhere.
    let spec = spec_of(source, |s| {
        s["name"] = json!("prefix_sum_short");
        s["passes"].as_array_mut().unwrap().remove(3);
    });
    let result = run(&gpu, source, &spec);
    let failed = |r: &ConfigResult| matches!(r.outcome, Outcome::Failed { .. });
    assert!(result.results.iter().all(failed), "a scan without its middle fix-up validates nowhere");
}

/// What a pass may not say is named at its place, before anything runs.
#[test]
fn what_a_pass_may_not_say_is_named_at_its_place() {
    let source = include_str!("kernels/public/prefix_sum.wgsl");
    type Case = (Box<dyn Fn(&mut Value)>, &'static str, &'static str);
    let cases: Vec<Case> = vec![
        (Box::new(|s| s["passes"][1]["entry_point"] = json!("scan")), "passes[1].entry_point", "`scan` is not"),
        (Box::new(|s| s["entry_point"] = json!("reduce_downsweep")), "entry_point", "with \"passes\""),
        (Box::new(|s| s["grid"] = json!(["1"])), "grid", "with \"passes\""),
        (
            Box::new(|s| s["passes"][1]["bind"] = json!({ "item": "sums1", "blockSums": "sums2" })),
            "passes[1].bind.item",
            "`item` is not a storage buffer of @group(0) the WGSL declares (it declares: blockSums, items)",
        ),
        (
            Box::new(|s| s["passes"][1]["bind"] = json!({ "items": "sums9", "blockSums": "sums2" })),
            "passes[1].bind.items",
            "no buffer is named `sums9`",
        ),
        (
            Box::new(|s| s["buffers"][2]["written"] = json!(false)),
            "passes[1].bind.blockSums",
            "`blockSums` is declared read_write: mark `sums2` \"written\"",
        ),
        (
            Box::new(|s| s["passes"][1]["bind"] = json!({ "blockSums": "items" })),
            "passes[1].bind",
            "`items` is bound at bindings 0 and 1 and written through one of them",
        ),
        (
            Box::new(|s| s["passes"][1]["constants"] = json!({ "COUNT": "n" })),
            "passes[1].constants.COUNT",
            "`COUNT` is not an `override` the WGSL declares",
        ),
        (
            Box::new(|s| {
                s["buffers"].as_array_mut().unwrap().push(json!({ "name": "spare", "type": "u32", "length": "1" }))
            }),
            "buffers[4] (spare).binding",
            "give its binding, or bind it in a pass",
        ),
        (
            Box::new(|s| s["passes"][2]["constants"] = json!({ "ELEMENT_COUNT": "n * 5000" })),
            "passes[2].constants.ELEMENT_COUNT",
            "`ELEMENT_COUNT` is a u32 in the WGSL; at n=1048576",
        ),
    ];
    for (change, place, message) in cases {
        let found = problems(source, &spec_of(source, change));
        assert!(found.iter().any(|p| p.place == place && p.message.contains(message)), "{place}: {message}: {found:?}");
    }
}
