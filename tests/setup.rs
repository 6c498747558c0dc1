//! A user's kernel's setup passes (`"setup"`), on whatever native adapter is present (lavapipe in CI): they
//! make an input the kernel reads, before the kernel and its reference run; where one writes the output
//! (a state updated in place), every validated run starts from what it makes; their problems are named at
//! their places.
#![cfg(not(target_arch = "wasm32"))]

#[expect(dead_code, reason = "the runner helpers the other test binaries use")]
mod support;

use serde_json::{Value, json};
use support::{assert_good, open_gpu, problems, run};
use wgsweep::result::Outcome;

/// A gather through indices that an entry point of the kernel's own makes, as no fill can.
const GATHER: &str = r#"
override WG_X: u32 = 64;
@group(0) @binding(0) var<storage, read> index: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<storage, read_write> index_out: array<u32>;

fn scattered(i: u32, n: u32) -> u32 { return (i * 7u + 3u) % n; }

@compute @workgroup_size(64)
fn make_index(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < arrayLength(&index_out) { index_out[id.x] = scattered(id.x, arrayLength(&index_out)); }
}

@compute @workgroup_size(WG_X)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < arrayLength(&out) { out[id.x] = index[id.x] * 2u; }
}

@compute @workgroup_size(64)
fn reference(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < arrayLength(&out) { out[id.x] = scattered(id.x, arrayLength(&out)) * 2u; }
}
"#;

fn gather_spec(setup: Value) -> String {
    json!({
        "name": "gather", "entry_point": "main",
        "buffers": [
            { "binding": 0, "name": "index", "type": "u32", "length": "n" },
            { "binding": 1, "name": "out", "type": "u32", "length": "n", "output": true }
        ],
        "sizes": [1000, 4096],
        "tunables": { "WG_X": [32, 128] },
        "setup": setup,
        "validation": { "reference": "reference" }
    })
    .to_string()
}

#[test]
fn a_setup_pass_makes_an_input_that_the_kernel_reads_at_every_configuration() {
    let gpu = open_gpu();
    let make = json!([{ "entry_point": "make_index", "grid": ["ceil_div(n, 64)"], "bind": { "index_out": "index" } }]);
    let result = run(&gpu, GATHER, &gather_spec(make));
    assert_eq!(result.results.len(), 4);
    result.results.iter().for_each(assert_good);
    // Without it the index holds its random fill, and every configuration fails.
    let result = run(&gpu, GATHER, &gather_spec(json!([])));
    assert!(result.results.iter().all(|r| matches!(r.outcome, Outcome::Failed { .. })), "{:?}", result.results[0]);
}

/// A particle-like state stepped in place: each validated run starts from the state the setup makes, however
/// many steps the configurations measured before it took.
#[test]
fn where_a_setup_pass_writes_the_output_each_validated_run_starts_from_what_it_makes() {
    let source = r#"
override WG_X: u32 = 64;
@group(0) @binding(0) var<storage, read_write> state: array<f32>;

@compute @workgroup_size(64)
fn init(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < arrayLength(&state) { state[id.x] = f32(id.x % 1000u); }
}

@compute @workgroup_size(WG_X)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < arrayLength(&state) { state[id.x] = state[id.x] * 0.5 + 1.0; }
}
"#;
    let spec = json!({
        "name": "stepped", "entry_point": "main",
        "buffers": [{ "binding": 0, "name": "state", "type": "f32", "length": "n", "output": true }],
        "sizes": [4096],
        "tunables": { "WG_X": [16, 32, 64, 128, 256] },
        "setup": [{ "entry_point": "init", "grid": ["ceil_div(n, 64)"] }],
        "validation": { "tolerance": 0 }
    });
    let gpu = open_gpu();
    let result = run(&gpu, source, &spec.to_string());
    assert_eq!(result.results.len(), 5);
    result.results.iter().for_each(assert_good);
}

#[test]
fn a_setup_pass_is_checked_as_a_pass_is_and_may_write_what_it_binds() {
    let setup = |pass: Value| gather_spec(json!([pass]));
    let found = problems(GATHER, &setup(json!({ "entry_point": "make_indices" })));
    assert!(found.iter().any(|p| p.place == "setup[0].entry_point" && p.message.contains("make_index")), "{found:?}");
    // Left at its own binding, `index_out` binds nothing.
    let found = problems(GATHER, &setup(json!({ "entry_point": "make_index" })));
    assert!(
        found.iter().any(|p| p.place == "setup[0].bind" && p.message.contains("`index_out` (@group(0) @binding(2))")),
        "{found:?}"
    );
    let found = problems(GATHER, &setup(json!({ "entry_point": "make_index", "bind": { "index_out": "indices" } })));
    assert!(
        found
            .iter()
            .any(|p| p.place == "setup[0].bind.index_out" && p.message.contains("no buffer is named `indices`")),
        "{found:?}"
    );
    // An input it writes needs no "written": the kernel only reads it.
    let fine = setup(json!({ "entry_point": "make_index", "bind": { "index_out": "index" } }));
    assert!(problems(GATHER, &fine).is_empty());
}
