//! A user's kernel (spec.rs, kernels/user.rs), on whatever native adapter is present (lavapipe in CI): the
//! starters run and validate at every combination; a wrong element fails validation by a reference entry
//! point and by agreement; an out-of-bounds write fails; every problem of a specification or of the WGSL is
//! named at its place; restrictions skip with their reason.
#![cfg(not(target_arch = "wasm32"))]

#[expect(dead_code, reason = "the runner helpers the other test binaries use")]
mod support;

use serde_json::{Value, json};
use support::{assert_good, environment, open_gpu, problems, quick_plan, run, spec_of};
use wgsweep::gpu::ComputeLimits;
use wgsweep::result::Outcome;
use wgsweep::spec::{self, UserKernel, leading_spec};
use wgsweep::{kernels, runner};

fn starter(name: &str) -> String {
    std::fs::read_to_string(format!("{}/shaders/starters/{name}.wgsl", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn the_triad_starter_validates_at_every_combination_and_counts_what_the_built_in_triad_counts() {
    let gpu = open_gpu();
    let source = starter("triad");
    let n = 3 * 65536 + 4; // a whole number of vec4s, as the built-in wants, but of no workgroup
    let spec = spec_of(&source, |s| {
        s["name"] = json!("triad_as_built_in");
        s["sizes"] = json!([n]);
        s["tunables"]["WG_X"] = json!([32, 256]);
    });
    let result = run(&gpu, &source, &spec);
    assert!(result.complete);
    assert_eq!(result.results.len(), 2 * 3);
    result.results.iter().for_each(assert_good);
    let written = UserKernel::read(&source, Some(&spec)).unwrap().written;
    assert_eq!(result.user_kernels, [written], "the result carries the kernel as written");
    wgsweep::gallery::check_kernels(&result).expect("the gallery takes it");
    let built_in = kernels::select("triad/scalar").unwrap();
    let plan = quick_plan(built_in, n, Some(vec![256]));
    let triad = pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |_| runner::Flow::Continue));
    let (ours, theirs) = (&result.results[1], &triad.results[0]);
    assert_good(theirs);
    assert_eq!(ours.problem_size, theirs.problem_size);
    assert_eq!(ours.bytes_per_dispatch, theirs.bytes_per_dispatch);
    assert_eq!(ours.flops_per_dispatch, theirs.flops_per_dispatch);
    assert_eq!(ours.parameter_text(), format!("tunables n={n} · ELEMENTS=1"));
}

#[test]
fn the_sum_and_stencil_starters_validate_where_the_restrictions_admit_and_leave_the_rest_out_saying_how_many() {
    let gpu = open_gpu();
    let source = starter("sum");
    let spec = spec_of(&source, |s| {
        s["sizes"] = json!([100_003]);
        s["tunables"] = json!({ "WG_X": [64, 1024], "ELEMENTS": [1, 16] });
    });
    let result = run(&gpu, &source, &spec);
    assert_eq!(result.results.len(), 4);
    result.results.iter().for_each(assert_good);

    let source = starter("stencil");
    let spec = spec_of(&source, |s| {
        s["sizes"] = json!([{ "w": 203, "h": 101 }]);
        s["tunables"] = json!({ "WG_X": [4, 32], "WG_Y": [2, 16], "TILE": [1, 4] });
    });
    let result = run(&gpu, &source, &spec);
    // 4×2 and 32×16 (at each TILE) are left out of the run, its count and its table, and said once.
    let shapes: Vec<[u32; 3]> = result.results.iter().map(|r| r.workgroup_size).collect();
    assert_eq!(shapes, [[4, 16, 1], [32, 2, 1]].repeat(2));
    result.results.iter().for_each(assert_good);
    let said: Vec<&String> = result.notes.iter().filter(|n| n.contains("restrictions")).collect();
    assert_eq!(said, ["my_stencil: its restrictions exclude 4 configurations, left out of the run"]);
}

/// The triad starter with `c[77]` written wrong where `wrong_where` holds.
fn triad_wrong_at_77(wrong_where: &str) -> String {
    starter("triad").replace(
        "            c[i] = a[i] + SCALAR * b[i];\n        }\n    }\n}",
        &format!(
            "            c[i] = a[i] + SCALAR * b[i];\n            if i == 77u && {wrong_where} {{ c[i] = 1.5; }}\n        }}\n    }}\n}}"
        ),
    )
}

#[test]
fn one_wrong_element_fails_validation_against_the_reference_and_by_agreement() {
    let gpu = open_gpu();
    let source = triad_wrong_at_77("true");
    assert_ne!(source, starter("triad"), "the kernel was changed");
    let spec = spec_of(&source, |s| {
        s["name"] = json!("wrong_against_reference");
        s["sizes"] = json!([4096]);
        s["tunables"] = json!({ "WG_X": [64], "ELEMENTS": [1, 2] });
    });
    let result = run(&gpu, &source, &spec);
    for r in &result.results {
        let error = r.error().unwrap_or_else(|| panic!("{} {} passed", r.workgroup_text(), r.parameter_text()));
        assert!(error.starts_with("FAILED validation: output[77]: 1.5e0 (is) != "), "{error}");
        assert!(error.contains("1 of 4096 wrong"), "{error}");
    }

    // By agreement: the first configuration is right, the second wrong at one element.
    let source = triad_wrong_at_77("ELEMENTS == 2u");
    let spec = spec_of(&source, |s| {
        s["name"] = json!("wrong_by_agreement");
        s["sizes"] = json!([4096]);
        s["tunables"] = json!({ "WG_X": [64], "ELEMENTS": [1, 2] });
        s["validation"] = json!({ "tolerance": 0 });
    });
    let result = run(&gpu, &source, &spec);
    assert_good(&result.results[0]);
    let error = result.results[1].error().expect("ELEMENTS=2 disagrees with the first");
    assert!(error.starts_with("FAILED validation: output[77]: 1.5e0 (is) != "), "{error}");
}

#[test]
fn an_out_of_bounds_write_fails_validation() {
    let gpu = open_gpu();
    // Every element one place on: the last write lands past the end, where WebGPU clamps it.
    let source = starter("triad").replace(
        "            c[i] = a[i] + SCALAR * b[i];\n        }\n    }\n}",
        "            c[i + 1u] = a[i] + SCALAR * b[i];\n        }\n    }\n}",
    );
    let spec = spec_of(&source, |s| {
        s["name"] = json!("out_of_bounds");
        s["sizes"] = json!([1000]);
        s["tunables"] = json!({ "WG_X": [64], "ELEMENTS": [1] });
    });
    let result = run(&gpu, &source, &spec);
    let error = result.results[0].error().expect("a shifted output fails");
    assert!(error.starts_with("FAILED validation: output[0]: "), "{error}");
}

#[test]
fn a_compile_error_is_named_at_its_line_and_column() {
    let gpu = open_gpu();
    let source = starter("triad")
        .replace("c[i] = a[i] + SCALAR * b[i];", "c[i] = a[i] + SCALR * b[i];")
        .replace("my_triad", "typo");
    let line = source.lines().position(|l| l.contains("SCALR")).unwrap() + 1;
    let column = source.lines().nth(line - 1).unwrap().find("SCALR").unwrap() + 1;
    let kernel = UserKernel::read(&source, None).unwrap();
    let family = kernels::register(kernel).unwrap();
    let problems = pollster::block_on(kernels::user::compilation_problems(&gpu, family));
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].place, format!("WGSL line {line}, column {column}"));
    assert!(problems[0].message.contains("SCALR"), "{:?}", problems[0]);
}

#[test]
fn an_invalid_kernel_is_named_at_its_place_with_the_compilers_whole_reason() {
    let gpu = open_gpu();
    let source = starter("triad").replace("my_triad", "returns").replace("c[i] = a[i] + SCALAR * b[i];", "return 3;");
    let line = source.lines().position(|l| l.contains("return 3;")).unwrap() + 1;
    let family = kernels::register(UserKernel::read(&source, None).unwrap()).unwrap();
    let problems = pollster::block_on(kernels::user::compilation_problems(&gpu, family));
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].place.starts_with(&format!("WGSL line {line}, column ")), "{:?}", problems[0]);
    // naga's first line ("Entry point … is invalid") and the reason below it, in one message.
    let message = &problems[0].message;
    assert!(message.contains("is invalid") && message.contains("Abstract types may only appear"), "{message}");
}

/// Memory past WGSL's limits (or the device's, for workgroup memory) is refused before anything is
/// compiled, as browsers refuse it: naga compiled it, and lavapipe then took 13.5 GB and crashed.
#[test]
fn a_kernel_declaring_more_memory_than_wgsl_or_the_device_allows_is_refused_before_it_compiles() {
    let gpu = open_gpu();
    let limit = gpu.info.limits.max_workgroup_storage_bytes;
    let cases = [
        (
            "var<workgroup> big: array<f32, 268435456>;",
            "its workgroup variables take 1073741824 bytes; this device allows",
        ),
        ("var<private> big: array<f32, 67108864>;", "its private variables take 268435456 bytes; WGSL allows 8192"),
        ("fn helper() -> f32 { var big: array<f32, 4096>; return big[1]; }", "`helper`'s variables take 16384 bytes"),
    ];
    for (i, (declaration, said)) in cases.into_iter().enumerate() {
        let source = starter("triad").replace("my_triad", &format!("too_big_{i}")) + declaration + "\n";
        let family = kernels::register(UserKernel::read(&source, None).unwrap()).unwrap();
        let problems = pollster::block_on(kernels::user::compilation_problems(&gpu, family));
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].message.starts_with(said), "{:?} (limit {limit})", problems[0]);
    }
}

/// A pipeline holds one entry point's workgroup variables: two entry points, each with three quarters of the
/// device's workgroup memory of its own, compile.
#[test]
fn each_entry_points_workgroup_variables_are_held_to_the_limit_apart() {
    let gpu = open_gpu();
    let floats = gpu.info.limits.max_workgroup_storage_bytes / 4 * 3 / 4;
    let declarations = format!(
        "var<workgroup> left: array<f32, {floats}>;\nvar<workgroup> right: array<f32, {floats}>;\n\
         @compute @workgroup_size(1) fn uses_left() {{ left[0] = 1.0; }}\n\
         @compute @workgroup_size(1) fn uses_right() {{ right[0] = 1.0; }}\n"
    );
    let source = starter("triad").replace("my_triad", "two_entry_points") + &declarations;
    let family = kernels::register(UserKernel::read(&source, None).unwrap()).unwrap();
    let problems = pollster::block_on(kernels::user::compilation_problems(&gpu, family));
    assert!(problems.is_empty(), "{problems:?}");
}

#[test]
fn every_problem_of_a_specification_is_named_at_its_place() {
    let source = starter("triad");
    type Case = (Box<dyn Fn(&mut Value)>, &'static str, &'static str);
    let cases: Vec<Case> = vec![
        (
            Box::new(|s| s["tunables"]["TILE"] = json!([4])),
            "tunables.TILE",
            "`TILE` is not an `override` the WGSL declares",
        ),
        (
            Box::new(|s| s["buffers"][0]["binding"] = json!(7)),
            "buffers[0] (a).binding",
            "no storage buffer at @group(0) @binding(7)",
        ),
        (
            Box::new(|s| s["buffers"][0]["written"] = json!(true)),
            "buffers[0] (a).binding",
            "declared var<storage, read>",
        ),
        (Box::new(|s| s["buffers"][2]["output"] = json!(false)), "buffers[2] (c).binding", "declared read_write"),
        (Box::new(|s| s["buffers"][1]["type"] = json!("vec3<f32>")), "buffers[1] (b).type", "not an element type"),
        (Box::new(|s| s["buffers"][1]["length"] = json!("n * m")), "buffers[1] (b).length", "names `m`"),
        (
            Box::new(|s| s["buffers"][1]["fill"] = json!({ "random": [0, 1e39] })),
            "buffers[1] (b).fill",
            "[0, 1e39] holds values no f32 holds: f32s lie within ±3.4e38",
        ),
        (
            Box::new(|s| s["grid"][0] = json!("n / (ELEMENTS - 1)")),
            "grid[0]",
            "at n=16777216, ELEMENTS=1, WG_X=32: division by zero",
        ),
        (
            Box::new(|s| s["grid"][1] = json!("ceil_div(n, 4 - ELEMENTS)")),
            "grid[1]",
            "ELEMENTS=4, WG_X=32: division by zero",
        ),
        (Box::new(|s| s["grid"][1] = json!("floor(n)")), "grid[1]", "unknown function at `floor`"),
        (Box::new(|s| s["grid"][1] = json!("n * (WG_X + 1")), "grid[1]", "unclosed parenthesis"),
        (Box::new(|s| s["bytes"] = json!("n * n * n * n")), "bytes", "n=16777216, ELEMENTS=1, WG_X=32: overflow"),
        (Box::new(|s| s["flops"] = json!("0 - n")), "flops", "is not a count"),
        (Box::new(|s| s["restrictions"] = json!(["ELEMENTS > 8"])), "restrictions", "no combination"),
        (Box::new(|s| s["entry_point"] = json!("triads")), "entry_point", "`triads` is not a @compute entry point"),
        (Box::new(|s| s["validation"]["reference"] = json!("refer")), "validation.reference", "`refer` is not"),
        (Box::new(|s| s["name"] = json!("a name")), "name", "letters, digits"),
        (
            Box::new(|s| s["tunables"]["ELEMENTS"] = json!((1..=5000).collect::<Vec<u32>>())),
            "tunables",
            "a kernel may have 4096",
        ),
        (
            // The workgroup's shapes count too: 4097 of them make more than 4096 configurations.
            Box::new(|s| s["tunables"]["WG_X"] = json!((1..=4097).collect::<Vec<u32>>())),
            "tunables",
            "at 4097 workgroup shapes make",
        ),
        (Box::new(|s| s["colour"] = json!("blue")), "spec, line 1", "unknown field `colour`"),
    ];
    for (change, place, message) in cases {
        let found = problems(&source, &spec_of(&source, change));
        assert!(
            found.iter().any(|p| p.place.starts_with(place) && p.to_string().contains(message)),
            "expected {place}: …{message}…, found {found:?}"
        );
    }
    let found = problems(&source, "{ \"name\": \"x\",\n  \"buffers\": [ }");
    assert_eq!(found[0].place, "spec, line 2, column 16");
    assert_eq!(UserKernel::read("fn main() {}", None).unwrap_err()[0].place, "spec");
    let named_stream = UserKernel::read(&source, Some(&spec_of(&source, |s| s["name"] = json!("stream")))).unwrap();
    let refused = kernels::register(named_stream).err().expect("a built-in family's name is refused");
    assert!(refused.contains("built-in family"), "{refused}");
}

#[test]
fn a_kernel_whose_workgroup_shape_is_its_own_override_runs_every_shape_and_agrees() {
    let gpu = open_gpu();
    let source = std::fs::read_to_string(format!("{}/tests/kernels/life.wgsl", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let spec = leading_spec(&source).unwrap().to_string();
    let result = run(&gpu, &source, &spec);
    // block 4, 8, 16 (shapes 4×4, 8×8, 16×16) × ROWS 1, 3.
    assert_eq!(result.results.len(), 6);
    result.results.iter().for_each(assert_good);
    let shapes: Vec<String> =
        result.results.iter().map(|r| format!("{} {}", r.workgroup_text(), r.parameter_text())).collect();
    assert_eq!(
        shapes[..3],
        ["4×4 tunables side=96 · ROWS=1", "8×8 tunables side=96 · ROWS=1", "16×16 tunables side=96 · ROWS=1"]
    );
    // The summary's best: one of the six, shape and tunables together, at the size.
    let [best] = wgsweep::analysis::best_shapes(&result.results).try_into().unwrap();
    assert_eq!(best.parameter, "side=96");
    let fastest = result.results.iter().max_by(|a, b| a.gbps.partial_cmp(&b.gbps).unwrap()).unwrap();
    let tunables = format!("tunables side=96 · {}", best.tunables);
    assert_eq!((best.shape, tunables), (fastest.workgroup_size, fastest.parameter_text()));

    // A shape that does not tell its tunables apart is refused.
    let spec = spec_of(&source, |s| s["workgroup_size"] = json!(["block - block + 4"]));
    let found = problems(&source, &spec);
    assert!(
        found.iter().any(|p| p.place == "workgroup_size" && p.message.contains("make the same shape")),
        "{found:?}"
    );
}

#[test]
fn the_matmul_starter_has_697_combinations_the_restrictions_admit_and_validates_on_a_small_matrix() {
    let gpu = open_gpu();
    let source = starter("matmul");
    let kernel = UserKernel::read(&source, None).unwrap();
    let admitted = (0..kernel.combinations())
        .flat_map(|c| kernel.workgroup_shapes(1024).into_iter().map(move |w| (c, w)))
        .filter(|&(c, w)| kernel.excluded_by(&kernel.values(c, w)).unwrap().is_none())
        .count();
    assert_eq!(admitted, 697);
    let spec = spec_of(&source, |s| {
        s["name"] = json!("small_matmul");
        s["sizes"] = json!([128]);
        s["tunables"] = json!({ "WG_X": [8, 16], "WG_Y": [8], "TM": [1, 4], "TN": [2], "TK": [4, 16] });
    });
    let result = run(&gpu, &source, &spec);
    assert_eq!(result.results.len(), 8);
    result.results.iter().for_each(assert_good);
}

#[test]
fn the_example_in_docs_your_kernel_runs_as_the_document_says() {
    let gpu = open_gpu();
    let doc = std::fs::read_to_string(format!("{}/docs/your-kernel.md", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let start = doc.find("```wgsl\n").expect("the document's example") + "```wgsl\n".len();
    let source = &doc[start..start + doc[start..].find("```").unwrap()];
    let spec = spec_of(source, |s| s["name"] = json!("documented_triad"));
    let result = run(&gpu, source, &spec);
    assert_eq!(result.results.len(), 12, "4 workgroup sizes × 3 values of ELEMENTS, as the document says");
    result.results.iter().for_each(assert_good);
}

#[test]
fn built_in_kernels_open_as_users_kernels_that_validate_and_count_as_the_built_in_ones() {
    let gpu = open_gpu();
    // A device of 256-invocation workgroups (the families' fixed size) keeps the sweeps short; the built-in
    // runs every shape it has.
    let limits = ComputeLimits { max_invocations_per_workgroup: 256, ..gpu.info.limits.clone() };
    let mut opened = Vec::new();
    for family in kernels::FAMILIES {
        let size = family.round_size(if family.name() == "matmul" { 256 * 256 } else { 1 << 12 });
        for kernel in family.kernels() {
            let Some(source) = family.as_user_kernel(&kernel, size, &limits) else { continue };
            opened.push(kernel.label());
            let result = run(&gpu, &source, spec::leading_spec(&source).unwrap());
            let plan = quick_plan(vec![wgsweep::kernel::Kernel { family: *family, id: kernel }], size, None);
            let built_in = pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |_| runner::Flow::Continue));
            let good: Vec<_> = result.results.iter().filter(|r| r.is_good()).collect();
            assert!(!good.is_empty(), "{}: {:?}", kernel.label(), result.results[0].outcome);
            for ours in &result.results {
                // Only the restrictions and the device's limits may skip a combination.
                let skipped_as_it_should = matches!(&ours.outcome, Outcome::Skipped { reason }
                    if reason.contains("restriction") || reason.contains("max_compute") || reason.contains("shader-f16"));
                assert!(
                    ours.is_good() || skipped_as_it_should,
                    "{} {:?}: {:?}",
                    kernel.label(),
                    ours.workgroup_size,
                    ours.outcome
                );
            }
            // Each configuration the built-in family also runs counts what it counts (access sweeps every
            // workgroup size as a user's kernel, where the family fixes one to sweep strides and offsets).
            let mut matched = 0;
            for ours in good {
                let counts = (ours.bytes_per_dispatch, ours.flops_per_dispatch, ours.dispatch);
                let same_shape: Vec<_> =
                    built_in.results.iter().filter(|r| r.workgroup_size == ours.workgroup_size).collect();
                if same_shape.is_empty() {
                    continue;
                }
                let theirs =
                    same_shape.iter().find(|r| (r.bytes_per_dispatch, r.flops_per_dispatch, r.dispatch) == counts);
                let theirs = theirs.unwrap_or_else(|| {
                    panic!(
                        "{} at {:?}: no built-in configuration counts {counts:?}",
                        kernel.label(),
                        ours.workgroup_size
                    )
                });
                assert_good(theirs);
                matched += 1;
            }
            assert!(matched > 0, "{}", kernel.label());
        }
    }
    assert_eq!(opened.len(), 81, "{opened:?}");
    // Those of several passes among them, f32 sums within rounding's bound, and subgroup sums.
    let several = [
        "tree/u32",
        "grid/f32",
        "subgroup/u32",
        "subgroup/f32",
        "dot/vec4",
        "dot/grid_stride",
        "random/vec2",
        "workgroup/skewed",
        "touch_all/aos_vec3",
        "touch_one/aosoa32",
    ];
    assert!(several.iter().all(|k| opened.contains(&k.to_string())), "{opened:?}");
}

/// A kernel that takes its parameters from a uniform struct with padding in it.
const UNIFORM_KERNEL: &str = include_str!("kernels/uniform_fields.wgsl");

fn uniform_spec() -> Value {
    serde_json::from_str(leading_spec(UNIFORM_KERNEL).unwrap()).unwrap()
}

#[test]
fn a_uniform_struct_is_laid_out_as_the_wgsl_says_and_its_values_reach_the_kernel() {
    let gpu = open_gpu();
    let result = run(&gpu, UNIFORM_KERNEL, &uniform_spec().to_string());
    assert_eq!(result.results.len(), 4, "two sizes × two workgroup sizes");
    result.results.iter().for_each(assert_good);
    // One value changed: every configuration fails against the reference's literals.
    let mut spec = uniform_spec();
    spec["name"] = json!("uniform_fields_wrong");
    spec["uniforms"][0]["fields"]["inner.b"] = json!([1, 2.75]);
    let result = run(&gpu, UNIFORM_KERNEL, &spec.to_string());
    assert!(result.results.iter().all(|r| matches!(r.outcome, Outcome::Failed { .. })), "{:?}", result.results);
}

#[test]
fn every_binding_the_kernel_uses_is_described_and_every_value_fits_its_wgsl_type() {
    type Case = (Box<dyn Fn(&mut Value)>, &'static str, &'static str);
    let fields = |s: &mut Value| s["uniforms"][0]["fields"].as_object_mut().unwrap().clone();
    let cases: Vec<Case> = vec![
        (
            Box::new(|s| s["uniforms"] = json!([])),
            "uniforms",
            "the kernel uses `params` (@group(0) @binding(0), var<uniform> Params): add it to \"uniforms\"",
        ),
        (
            Box::new(move |s| {
                let mut f = fields(s);
                f.remove("bias");
                f.remove("grid");
                s["uniforms"][0]["fields"] = Value::Object(f);
            }),
            "uniforms[0].fields",
            "give a value to every field of `params`; missing: bias, grid",
        ),
        (
            Box::new(|s| s["uniforms"][0]["fields"]["colour"] = json!(1)),
            "uniforms[0].fields.colour",
            "`colour` is not a field of `params` (its fields: count, scale, offset, bias, weights, grid, inner.a, inner.b)",
        ),
        (
            Box::new(|s| s["uniforms"][0]["fields"]["offset"] = json!([1, 2])),
            "uniforms[0].fields.offset",
            "give 3 value(s)",
        ),
        (
            Box::new(|s| s["uniforms"][0]["fields"]["count"] = json!(1.5)),
            "uniforms[0].fields.count",
            "1.5 is not a u32",
        ),
        (
            Box::new(|s| s["uniforms"][0]["fields"]["count"] = json!("n - 5000")),
            "uniforms[0].fields.count",
            "`n - 5000` at n=1000, WG_X=32: -4000 is not a u32",
        ),
        (Box::new(|s| s["uniforms"][0]["fields"]["scale"] = json!("m")), "uniforms[0].fields.scale", "names `m`"),
        (
            Box::new(|s| s["uniforms"][0]["binding"] = json!(1)),
            "uniforms[0].binding",
            "`out` at binding 1 is not a var<uniform>",
        ),
        (
            Box::new(|s| s["buffers"][0]["type"] = json!("u32")),
            "buffers[0] (out).type",
            "`out` is declared array<f32> in the WGSL: its elements are not u32",
        ),
        (
            Box::new(|s| s["buffers"][0]["binding"] = json!(0)),
            "buffers[0] (out).binding",
            "`params` is a var<uniform>: describe it under \"uniforms\"",
        ),
        (
            Box::new(|s| s["constants"] = json!({ "LIMIT": "n * 5000000" })),
            "constants.LIMIT",
            "`LIMIT` is a u32 in the WGSL; at n=1000, WG_X=32: 5000000000 is not a u32",
        ),
    ];
    for (change, place, message) in cases {
        let mut spec = uniform_spec();
        change(&mut spec);
        let found = problems(UNIFORM_KERNEL, &spec.to_string());
        assert!(
            found.iter().any(|p| p.place == place && p.message.contains(message)),
            "expected {place}: …{message}…, found {found:?}"
        );
    }
}

/// A configuration far too slow to measure (one dispatch of `long_dispatch` at STEPS=300000 takes about a
/// second and a half on lavapipe, over twice the 250 ms a measured one may take) is still checked: valid
/// but not measured, or failed where it is wrong; never "skipped" once it ran.
#[test]
fn a_configuration_too_slow_to_measure_is_still_validated_and_fails_where_it_is_wrong() {
    let gpu = open_gpu();
    let source = include_str!("kernels/long_dispatch.wgsl");
    let run_at_default_pace = |source: &str, name: &str| {
        let spec = spec_of(source, |s| {
            s["name"] = json!(name);
            s["sizes"] = json!([16384]);
            s["tunables"]["STEPS"] = json!([1, 300000]);
        });
        let kernel = UserKernel::read(source, Some(&spec)).unwrap_or_else(|problems| panic!("{problems:?}"));
        let family = kernels::register(kernel).unwrap();
        let mut plan = quick_plan(wgsweep::kernel::Kernel::all_of(family), 0, None);
        plan.measure.max_dispatch_ns = wgsweep::measure::MeasureOptions::default().max_dispatch_ns;
        pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |_| runner::Flow::Continue))
    };
    let result = run_at_default_pace(source, "long_dispatch_right");
    assert_good(&result.results[0]);
    let slow = &result.results[1];
    assert!(matches!(slow.outcome, Outcome::Unmeasured { .. }), "{:?}", slow.outcome);
    assert!(slow.status().starts_with("valid; one dispatch takes about"), "{}", slow.status());
    assert!(slow.is_validated() && slow.median_ns.is_none());

    // Wrong only where it is slow: failed, with why it was not measured.
    let wrong = source.replace("out[id.x] = id.x +", "out[id.x] = id.x * select(1u, 2u, STEPS > 1u) +");
    let result = run_at_default_pace(&wrong, "long_dispatch_wrong");
    assert_good(&result.results[0]);
    let error = result.results[1].error().expect("the slow configuration failed");
    assert!(error.contains("FAILED validation") && error.contains("one dispatch takes about"), "{error}");
}

/// A kernel that bounds its writes by a count in a uniform, not by its output's arrayLength.
const COUNTED: &str = include_str!("kernels/counted.wgsl");

/// `counted` named `name`, its count `count`, validated against its reference entry point or by agreement.
fn counted_spec(name: &str, count: &str, reference: bool) -> String {
    spec_of(COUNTED, |s| {
        s["name"] = json!(name);
        s["uniforms"][0]["fields"]["count"] = json!(count);
        if !reference {
            s.as_object_mut().unwrap().remove("validation");
        }
    })
}

/// A write past the output's end is caught on every device, where WebGPU would drop it or keep it inside:
/// the output is bound with a poisoned guard after it, which must stay untouched.
#[test]
fn a_write_past_the_outputs_end_fails_validation_on_every_device() {
    let gpu = open_gpu();
    let result = run(&gpu, COUNTED, &counted_spec("counted", "n", true));
    result.results.iter().for_each(assert_good);
    assert!(
        result.notes.iter().any(|n| n.contains("`out` is followed by a guard of 1024 words")),
        "{:?}",
        result.notes
    );
    // f32 elements: the guard's poison (a NaN) must stay the very bits, which no tolerance matches.
    let floats = COUNTED.replace("array<u32>", "array<f32>").replace("id.x * 3u", "f32(id.x) * 3.0");
    let spec = counted_spec("counted_f32", "n", true).replace("\"type\":\"u32\"", "\"type\":\"f32\"");
    let result = run(&gpu, &floats, &spec);
    result.results.iter().for_each(assert_good);
    // Three elements past the end, against the reference entry point: the first of them is named.
    let result = run(&gpu, COUNTED, &counted_spec("counted_over", "n + 3", true));
    for r in &result.results {
        let error = r.error().expect("a write past the end fails");
        assert!(error.starts_with("FAILED validation: output[1000]: 3e3 (is)"), "{error}");
    }
    // By agreement: the configuration the others are compared with wrote past the end, so none is valid.
    let result = run(&gpu, COUNTED, &counted_spec("counted_over_agreeing", "n + 3", false));
    for r in &result.results {
        let error = r.error().expect("a write past the end fails");
        assert!(error.contains("wrote past the end of `out` (4000 bytes): at byte 4000"), "{error}");
    }
}

/// Storage buffers as WebGPU samples declare them: a struct whose last member is a runtime-sized array of
/// structs, laid out from the WGSL (a header of 8 bytes, particles 24 bytes apart); wrong by one particle's
/// padding, the output would be written past its end.
#[test]
fn a_struct_ending_in_an_array_of_structs_is_sized_from_the_wgsl_and_validates() {
    let gpu = open_gpu();
    let source = include_str!("kernels/particles.wgsl");
    let result = run(&gpu, source, leading_spec(source).unwrap());
    assert_eq!(result.results.len(), 4, "two sizes × two workgroup sizes");
    result.results.iter().for_each(assert_good);
    let r = &result.results[0];
    assert_eq!(r.bytes_per_dispatch, 2 * (8 + 24 * 1000), "both buffers once: header and 1000 particles each");
    // Left out, the uniform both entry points use is named once.
    let found = problems(source, &spec_of(source, |s| s["uniforms"] = json!([])));
    assert_eq!(found.iter().filter(|p| p.place == "uniforms").count(), 1, "{found:?}");
    // Its elements' values are all f32: another type is refused where it is given.
    let spec = spec_of(source, |s| s["buffers"][0]["type"] = json!("u32"));
    let found = problems(source, &spec);
    let expected = "`particlesA` is declared Particles in the WGSL: its elements are not u32";
    assert!(found.iter().any(|p| p.place == "buffers[0] (particlesA).type" && p.message == expected), "{found:?}");
}

/// A kernel that keeps its size in a buffer, as real kernels do: the buffer's fill is an expression of the
/// size, checked against the element's type at every size.
#[test]
fn a_buffer_may_hold_an_expression_of_the_size() {
    let source = r#"
override WG_X: u32 = 64;
@group(0) @binding(0) var<storage, read> size: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(WG_X)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < size[0] { out[id.x] = id.x + size[0]; }
}

@compute @workgroup_size(64)
fn reference(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < arrayLength(&out) { out[id.x] = id.x + arrayLength(&out); }
}
"#;
    let spec = |fill: Value| {
        json!({
            "name": "sized", "entry_point": "main",
            "buffers": [
                { "binding": 0, "name": "size", "type": "u32", "length": "1", "fill": { "constant": fill } },
                { "binding": 1, "name": "out", "type": "u32", "length": "n", "output": true }
            ],
            "sizes": [1000, 5000],
            "tunables": { "WG_X": [64, 256] },
            "validation": { "reference": "reference" }
        })
        .to_string()
    };
    let gpu = open_gpu();
    let result = run(&gpu, source, &spec(json!("n")));
    assert_eq!(result.results.len(), 4);
    result.results.iter().for_each(assert_good);
    let found = problems(source, &spec(json!("n * 5000000")));
    let expected = "`n * 5000000` at n=1000, WG_X=64: 5000000000 is not a u32";
    assert!(found.iter().any(|p| p.place == "buffers[0] (size).fill" && p.message.starts_with(expected)), "{found:?}");
    let found = problems(source, &spec(json!("WG_X")));
    assert!(
        found.iter().any(|p| p.place == "buffers[0] (size).fill" && p.message.contains("names `WG_X`")),
        "{found:?}"
    );
    let found = problems(source, &spec(json!(-1)));
    assert!(
        found.iter().any(|p| p.place == "buffers[0] (size).fill" && p.message.starts_with("-1 is not a u32")),
        "{found:?}"
    );
}

/// Indices into a smaller array, as a gather keeps them: `{"iota": "m"}` holds i modulo m, an expression of
/// the size, checked at every size; any other fill written wrong is named with the forms a fill takes.
#[test]
fn an_iota_modulo_an_expression_holds_indices_into_a_smaller_array() {
    let source = r#"
override WG_X: u32 = 64;
@group(0) @binding(0) var<storage, read> index: array<u32>;
@group(0) @binding(1) var<storage, read> table: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(WG_X)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < arrayLength(&out) { out[id.x] = table[index[id.x]]; }
}

@compute @workgroup_size(64)
fn reference(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < arrayLength(&out) { out[id.x] = table[id.x % arrayLength(&table)]; }
}
"#;
    let spec = |iota: Value| {
        json!({
            "name": "gathered", "entry_point": "main",
            "buffers": [
                { "binding": 0, "name": "index", "type": "u32", "length": "n", "fill": { "iota": iota } },
                { "binding": 1, "name": "table", "type": "f32", "length": "n / 10" },
                { "binding": 2, "name": "out", "type": "f32", "length": "n", "output": true }
            ],
            "sizes": [1000, 5000],
            "tunables": { "WG_X": [64, 256] },
            "validation": { "reference": "reference" }
        })
        .to_string()
    };
    let gpu = open_gpu();
    let result = run(&gpu, source, &spec(json!("n / 10")));
    assert_eq!(result.results.len(), 4);
    result.results.iter().for_each(assert_good);
    // One index too many: past the table's end, which WebGPU keeps inside it, so values come out wrong.
    let result = run(&gpu, source, &spec(json!("n / 10 + 1")).replace("gathered", "gathered_past"));
    assert!(result.results.iter().all(|r| matches!(r.outcome, Outcome::Failed { .. })), "{:?}", result.results);
    let place = "buffers[0] (index).fill";
    let found = problems(source, &spec(json!(0)));
    assert!(found.iter().any(|p| p.place == place && p.message.contains("a modulus is at least 1")), "{found:?}");
    let found = problems(source, &spec(json!("n - 1000")));
    assert!(
        found.iter().any(|p| p.message.contains("at n=1000") && p.message.contains("a modulus is at least 1")),
        "{found:?}"
    );
    let found = problems(source, &spec(json!(true)));
    assert!(found.iter().any(|p| p.message.starts_with("takes a number, or an expression")), "{found:?}");
    let found = problems(source, &spec(json!("n")).replace("\"iota\"", "\"iotta\""));
    assert!(found.iter().any(|p| p.message.starts_with("a fill is \"zeros\", \"iota\", {\"iota\": m}")), "{found:?}");
}

/// An input shorter than the kernel reads fails validation on every device, where WebGPU would read zeros or
/// another of its elements: it is bound with a guard of NaNs after it, which no comparison passes.
#[test]
fn a_read_past_an_inputs_end_fails_validation_on_every_device() {
    let gpu = open_gpu();
    let source = include_str!("../shaders/starters/triad.wgsl");
    let sized = |name: &str, length: &str| {
        spec_of(source, |s| {
            s["name"] = json!(name);
            s["buffers"][0]["length"] = json!(length);
            s["sizes"] = json!([4096]);
            s["tunables"] = json!({ "WG_X": [64, 256], "ELEMENTS": [1] });
        })
    };
    let result = run(&gpu, source, &sized("triad_guarded", "n"));
    result.results.iter().for_each(assert_good);
    assert!(
        result.notes.iter().any(|n| n.contains("`a`, `b` are followed by a guard of 1024 words")),
        "{:?}",
        result.notes
    );
    // Half of `a`: from element 2048 on, the kernel (and its reference) reads past its end.
    let result = run(&gpu, source, &sized("triad_half_a", "n / 2"));
    for r in &result.results {
        let error = r.error().expect("a read past the end fails");
        assert!(error.starts_with("FAILED validation: output[2048]: NaN"), "{error}");
    }
}
