//! Public kernels no one here wrote (tests/kernels/public/), unchanged, each with its specification, on
//! whatever native adapter is present (lavapipe in CI): a scan in five passes, each binding its own buffers;
//! a flocking step with its parameters in a uniform and its particles in structs; an image blur on textures
//! through a sampler, in two bind groups; a tiled matrix product with its sizes in a uniform. What a pass may
//! not say is named at its place.
#![cfg(not(target_arch = "wasm32"))]

#[expect(dead_code, reason = "the runner helpers the other test binaries use")]
mod support;

use serde_json::{Value, json};
use sha2::Digest;
use support::{assert_good, open_gpu, problems, run, spec_of};
use wgsweep::result::{ConfigResult, Outcome};
use wgsweep::spec::leading_spec;

/// The text between a public kernel's marker lines, without the blank lines at either end: the original, as
/// published.
fn original(source: &str) -> &str {
    let begins = "// ---- the original begins ----";
    let start = source.find(begins).expect("a begin marker") + begins.len();
    let end = source.find("// ---- the original ends ----").expect("an end marker");
    source[start..end].trim_matches('\n')
}

fn sha256(text: &str) -> String {
    sha2::Sha256::digest(text).iter().map(|b| format!("{b:02x}")).collect()
}

/// Each public kernel's text between its markers is the original's, byte for byte but for blank lines at
/// either end.
#[test]
fn the_public_kernels_are_the_published_text() {
    let published = [
        // The template string of WebGPU-Radix-Sort's src/shaders/prefix_sum.js at 4c7d5cb.
        (
            include_str!("kernels/public/prefix_sum.wgsl"),
            "1cdf60987e14c011ff6fc41f51925d22b1271eaf6d8de14bad472437cc0513dc",
        ),
        // webgpu-samples' sample/computeBoids/updateSprites.wgsl at 27925c8.
        (include_str!("kernels/public/boids.wgsl"), "f001e346160924a01ddbb8048f8574464a86cc6b83e1f246319f5acf2d0c6ed8"),
        // The WGSL Dawn's ShaderRobustnessPerf builds for MatMulFloatOneDimSharedArray in f32, at 1e975e2.
        (
            include_str!("kernels/public/dawn_matmul.wgsl"),
            "792ce18d9366a482b772c4a54a1a56ed1a685fe79875fa9adb7b15d3cd9a0620",
        ),
        // webgpu-samples' sample/imageBlur/blur.wgsl at 27925c8.
        (
            include_str!("kernels/public/image_blur.wgsl"),
            "fd121d5971e9f53951635037b00da0f18e056afba648c5389357dad3fdefc399",
        ),
        // Burn's burn-wgpu/src/template/matmul/blocktiling_2d/tile.wgsl at df2f1492 (Burn 0.10.0), a template.
        (
            include_str!("kernels/public/burn_matmul.wgsl"),
            "11fa44c60fc74e55357c9e598eaa6b7ad77d112d2e77ca11541fb8dd354a2511",
        ),
    ];
    for (source, digest) in published {
        assert_eq!(sha256(original(source)), digest, "{}", leading_spec(source).unwrap());
    }
}

/// WebGPU-Radix-Sort's prefix sum, three levels of scans and two of fix-ups, each level's buffers bound by
/// name, validates against a scan in order at every workgroup shape the restrictions admit; its WGSL is the
/// published one.
#[test]
fn a_public_prefix_sum_in_five_passes_runs_unchanged_and_validates() {
    let source = include_str!("kernels/public/prefix_sum.wgsl");
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

/// The WebGPU samples' flocking step, its parameters in a uniform struct and its particles in a struct ending
/// in an array of structs, validates against a step written out particle by particle; at the sample's own
/// 1 500 particles (not a multiple of its workgroup of 64) its spare invocations write past the end, which
/// the guard after the output catches.
#[test]
fn the_samples_flocking_step_runs_unchanged_and_validates_where_it_stays_in_bounds() {
    let source = include_str!("kernels/public/boids.wgsl");
    let gpu = open_gpu();
    let spec = spec_of(source, |s| s["sizes"] = json!([1536]));
    let result = run(&gpu, source, &spec);
    assert_eq!(result.results.len(), 1, "one size at the kernel's one workgroup shape");
    result.results.iter().for_each(assert_good);
    let spec = spec_of(source, |s| {
        s["name"] = json!("boids_as_sampled");
        s["sizes"] = json!([1500]);
    });
    let result = run(&gpu, source, &spec);
    let error = result.results[0].error().unwrap_or_default();
    assert!(error.starts_with("FAILED validation: output[6000]"), "particle 1500 is past the end: {error}");
}

/// The WebGPU samples' image blur, its textures in bind group 1 and its parameters in uniforms of both groups,
/// validates against a blur texel by texel at every filter size, on an image whose width no block divides.
#[test]
fn the_samples_image_blur_runs_unchanged_and_validates() {
    let source = include_str!("kernels/public/image_blur.wgsl");
    let gpu = open_gpu();
    let sizes = json!([{ "w": 300, "h": 70, "filter": 3 }, { "w": 300, "h": 70, "filter": 15 }, { "w": 300, "h": 70, "filter": 33 }]);
    let spec = spec_of(source, |s| s["sizes"] = sizes.clone());
    let result = run(&gpu, source, &spec);
    assert_eq!(result.results.len(), 3, "three filter sizes at the kernel's one workgroup shape");
    result.results.iter().for_each(assert_good);
    // A block one texel wider than a workgroup writes (129 − filter at an odd filter) leaves a column
    // unwritten between blocks: it fails.
    let spec = spec_of(source, |s| {
        s["name"] = json!("image_blur_wide_blocks");
        s["sizes"] = sizes;
        s["uniforms"][0]["fields"]["blockDim"] = json!("130 - filter");
        s["grid"][0] = json!("ceil_div(w, 130 - filter)");
    });
    let result = run(&gpu, source, &spec);
    let failed = |r: &ConfigResult| matches!(r.outcome, Outcome::Failed { .. });
    assert!(result.results.iter().all(failed), "{:?}", result.results[0].outcome);
}

/// Dawn's tiled matrix product, its sizes in a uniform and its matrices in structs ending in arrays of an
/// alias, validates against a product element by element, at sizes a tile divides and one it does not; a grid
/// a column of tiles short leaves elements unwritten, and fails.
#[test]
fn dawns_tiled_matmul_with_its_sizes_in_a_uniform_runs_unchanged_and_validates() {
    let source = include_str!("kernels/public/dawn_matmul.wgsl");
    let gpu = open_gpu();
    let sizes = json!([{ "m": 64, "k": 64, "n": 64 }, { "m": 100, "k": 70, "n": 90 }]);
    let spec = spec_of(source, |s| s["sizes"] = sizes.clone());
    let result = run(&gpu, source, &spec);
    assert_eq!(result.results.len(), 2, "two sizes at the kernel's one workgroup shape");
    result.results.iter().for_each(assert_good);
    assert_eq!(result.results[0].flops_per_dispatch, Some(2 * 64 * 64 * 64));
    let spec = spec_of(source, |s| {
        s["name"] = json!("dawn_matmul_short");
        s["sizes"] = sizes;
        s["grid"][0] = json!("ceil_div(n, 32) - 1");
    });
    let result = run(&gpu, source, &spec);
    let failed = |r: &ConfigResult| matches!(r.outcome, Outcome::Failed { .. });
    assert!(result.results.iter().all(failed), "{:?}", result.results[0].outcome);
}

/// Burn's tiled matrix product, a template whose `{{ … }}` text the specification fills from the tunables at
/// each configuration (the block, the tile, the workgroup's shape, the element type) and whose matrices'
/// shapes and strides come in a buffer of listed values, validates at every configuration against a product
/// element by element, on square and oblong matrices; a grid a row of blocks short fails. The committed
/// specification admits 533 of its 1 024 combinations.
#[test]
fn burns_tiled_matmul_template_is_filled_at_each_configuration_and_validates() {
    let source = include_str!("kernels/public/burn_matmul.wgsl");
    let kernel = wgsweep::spec::UserKernel::read(source, None).unwrap();
    let kernel = &kernel;
    let values = |i| kernel.workgroup_shapes(256).into_iter().map(move |w| kernel.values(i, w));
    let admitted = (0..kernel.combinations()).flat_map(values).filter(|v| kernel.excluded_by(v).unwrap().is_none());
    assert_eq!(admitted.count(), 533);
    let filled = kernel.source_at(&kernel.first_admitted(256).unwrap()).unwrap();
    let at_first = ["const B_M = 4u;", "array<f32, B_M_X_B_K>", "@workgroup_size(4, 4, 1)", "var sum: f32"];
    assert!(at_first.iter().all(|text| filled.contains(text)), "{filled}");

    let gpu = open_gpu();
    let small = |s: &mut Value| {
        s["sizes"] = json!([{ "m": 64, "k": 64, "n": 64 }, { "m": 128, "k": 32, "n": 64 }]);
        s["tunables"] = json!({ "WG_X": [4, 8], "WG_Y": [8], "T_M": [1, 4], "T_N": [2], "B_K": [4, 8] });
    };
    let result = run(&gpu, source, &spec_of(source, small));
    assert_eq!(result.results.len(), 14, "eight combinations a size, one excluded (B_K 8 over a block of 4 rows)");
    result.results.iter().for_each(assert_good);
    assert_eq!(result.results[0].flops_per_dispatch, Some(2 * 64 * 64 * 64));
    let spec = spec_of(source, |s| {
        small(s);
        s["name"] = json!("burn_matmul_short");
        s["grid"][0] = json!("m / (WG_X * T_M) - 1");
    });
    let result = run(&gpu, source, &spec);
    let failed = |r: &ConfigResult| matches!(r.outcome, Outcome::Failed { .. });
    assert!(result.results.iter().all(failed), "{:?}", result.results[0].outcome);
}

/// What a template or a list of values may not say is named at its place, before anything runs.
#[test]
fn what_a_template_may_not_say_is_named_at_its_place() {
    let source = include_str!("kernels/public/burn_matmul.wgsl");
    type Case = (Box<dyn Fn(&mut Value)>, &'static str, &'static str);
    let cases: Vec<Case> = vec![
        (Box::new(|s| s["template"]["{{ b_m }}"] = json!("B_K")), "template.{{ b_m }}", "the WGSL does not hold this"),
        (Box::new(|s| s["template"]["{{b_k}}"] = json!("B_Q")), "template.{{b_k}}", "B_Q"),
        (Box::new(|s| s["template"]["{{b_k}}"] = json!(0.5)), "template.{{b_k}}", "a number here is a whole one"),
        (
            Box::new(|s| s["template"]["{{b_k}}"] = json!({ "txt": "8" })),
            "spec, line 1",
            "a template's text is replaced with a number, an expression (a string) or {\"text\"",
        ),
        (
            Box::new(|s| s["tunables"]["SPLIT"] = json!([1, 2])),
            "tunables.SPLIT",
            "`SPLIT` is not an `override` the WGSL declares",
        ),
        (
            Box::new(|s| s["buffers"][3]["fill"]["values"].as_array_mut().unwrap().pop().map(drop).unwrap()),
            "buffers (info).fill",
            "lists 12 values for a buffer of 13 elements",
        ),
        (Box::new(|s| s["buffers"][3]["fill"]["values"][0] = json!(-2)), "buffers[3] (info).fill.values[0]", "u32"),
        (
            Box::new(|s| s["buffers"][3]["fill"]["values"][1] = json!("WG_X")),
            "buffers[3] (info).fill.values[1]",
            "WG_X",
        ),
    ];
    for (change, place, message) in cases {
        let found = problems(source, &spec_of(source, change));
        assert!(
            found.iter().any(|p| p.place.starts_with(place) && p.message.contains(message)),
            "{place}: {message}: {found:?}"
        );
    }
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
            "`item` is not a storage buffer the WGSL declares (it declares: blockSums, items)",
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
