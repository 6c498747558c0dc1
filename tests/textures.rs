//! A user's kernel's textures and samplers (spec `textures`, `samplers`), on whatever native adapter is present
//! (lavapipe in CI): a sampled texture in and a storage texture out, validated against a reference entry
//! point texel by texel at every shape, each fill; a wrong texel fails at its place; what a texture or a
//! sampler may not say is named at its place.
#![cfg(not(target_arch = "wasm32"))]

#[expect(dead_code, reason = "the runner helpers the other test binaries use")]
mod support;

use serde_json::{Value, json};
use support::{assert_good, open_gpu, problems, run};

const INVERT: &str = include_str!("kernels/invert.wgsl");

/// The invert kernel's specification, changed by `change`.
fn invert_spec(change: impl FnOnce(&mut Value)) -> String {
    support::spec_of(INVERT, change)
}

#[test]
fn an_image_through_a_sampler_into_a_storage_texture_validates_at_every_shape_and_fill() {
    let gpu = open_gpu();
    for fill in ["random", "gradient"] {
        let spec = invert_spec(|s| {
            s["name"] = json!(format!("invert_{fill}"));
            s["textures"][0]["fill"] = json!(fill);
        });
        let result = run(&gpu, INVERT, &spec);
        assert_eq!(result.results.len(), 4, "two WG_X × two WG_Y");
        result.results.iter().for_each(assert_good);
        assert_eq!(result.results[0].bytes_per_dispatch, 8 * 100 * 60);
    }
}

/// A texel written wrong fails validation at its channel's index (texel 61 × 4 channels + green), and one step
/// of 255 off is within the tolerance of 0.004 (one step is 0.0039) where two are not.
#[test]
fn a_wrong_texel_fails_at_its_place() {
    let gpu = open_gpu();
    let wrong = |by: f32| {
        let moved = format!(
            "var inverted = vec4f(1.0 - colour.rgb, colour.a);\n    if all(id.xy == vec2u(61u, 0u)) {{\n        \
             inverted.g = select(inverted.g + {by}, inverted.g - {by}, inverted.g > 0.5);\n    }}\n    \
             textureStore(dst, id.xy, inverted);\n}}\n\n@compute"
        );
        INVERT.replacen("textureStore(dst, id.xy, vec4f(1.0 - colour.rgb, colour.a));\n}\n\n@compute", &moved, 1)
    };
    let one_step = wrong(1.0 / 255.0);
    let result = run(&gpu, &one_step, &invert_spec(|s| s["name"] = json!("invert_one_step")));
    result.results.iter().for_each(assert_good);
    // A grid one column of workgroups short leaves texels unwritten: they hold the poison, and fail.
    let short = invert_spec(|s| {
        s["name"] = json!("invert_short");
        s["grid"][0] = json!("ceil_div(w, WG_X) - 1");
    });
    let result = run(&gpu, INVERT, &short);
    assert!(result.results.iter().all(|r| r.error().is_some_and(|e| e.starts_with("FAILED validation"))));
    let two_steps = wrong(2.0 / 255.0);
    let result = run(&gpu, &two_steps, &invert_spec(|s| s["name"] = json!("invert_two_steps")));
    for r in &result.results {
        let error = r.error().unwrap_or_default();
        assert!(error.starts_with("FAILED validation: output[245]"), "{error}");
    }
}

#[test]
fn what_a_texture_or_sampler_may_not_say_is_named_at_its_place() {
    type Case = (Box<dyn Fn(&mut Value)>, &'static str, &'static str);
    let cases: Vec<Case> = vec![
        (
            Box::new(|s| s["textures"][1]["format"] = json!("rgba16float")),
            "textures[1] (dst).format",
            "`dst` is texture_storage_2d<rgba8unorm, write>: its format is rgba8unorm, not rgba16float",
        ),
        (
            Box::new(|s| s["textures"][0]["format"] = json!("rgba8uint")),
            "textures[0] (src).format",
            "`src` is texture_2d<f32>: a rgba8uint texture is read as u32",
        ),
        (
            Box::new(|s| s["textures"][0]["format"] = json!("bgra8")),
            "textures[0] (src).format",
            "`bgra8` is not a format",
        ),
        (
            Box::new(|s| s["textures"][0]["output"] = json!(true)),
            "textures[0] (src).output",
            "the output is a storage texture the kernel writes",
        ),
        (
            Box::new(|s| s["samplers"] = json!([])),
            "samplers",
            "the kernel uses `samp` (@group(0) @binding(1), sampler): add it to \"samplers\"",
        ),
        (
            Box::new(|s| drop(s["textures"].as_array_mut().unwrap().remove(0))),
            "textures",
            "the kernel uses `src` (@group(0) @binding(0), texture_2d<f32>): add it to \"textures\"",
        ),
        (
            Box::new(|s| s["samplers"][0]["binding"] = json!(0)),
            "samplers[0].binding",
            "@group(0) @binding(0) is given twice",
        ),
        (
            Box::new(|s| s["samplers"][0]["filter"] = json!("cubic")),
            "samplers[0].filter",
            "`cubic` is not linear or nearest",
        ),
        (Box::new(|s| s["textures"][0]["width"] = json!("WG_X")), "textures[0] (src).width", "WG_X"),
        (
            Box::new(|s| s["textures"][1]["fill"] = json!("random")),
            "textures[1] (dst).fill",
            "an output texture starts poisoned",
        ),
    ];
    for (change, place, message) in cases {
        let found = problems(INVERT, &invert_spec(change));
        assert!(found.iter().any(|p| p.place == place && p.message.contains(message)), "{place}: {message}: {found:?}");
    }
}

/// Loading from a write-only storage texture does not compile, and the compiler's message names the texture
/// (naga names it by its index alone).
#[test]
fn a_misused_texture_is_named_in_the_compilers_message() {
    let gpu = open_gpu();
    let sampled = "let colour = textureSampleLevel(src, samp, (vec2f(id.xy) + 0.5) / vec2f(size), 0.0);";
    let source = INVERT.replacen(sampled, "let colour = textureLoad(dst, id.xy);", 1);
    let kernel = wgsweep::spec::UserKernel::read(&source, Some(&invert_spec(|s| s["name"] = json!("invert_misused"))));
    let family = wgsweep::kernels::register(kernel.unwrap()).unwrap();
    let found = pollster::block_on(wgsweep::kernels::user::compilation_problems(&gpu, family));
    let named = "Global variable [2] `dst` is used incorrectly";
    assert!(found.iter().any(|p| p.place.starts_with("WGSL line") && p.message.contains(named)), "{found:?}");
}
