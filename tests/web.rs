//! Through WebGPU in headless Chromium (SwiftShader without a GPU) and in headless Firefox (lavapipe):
//! `cargo xtask test` runs these in both.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;
use wgsweep::kernels;
use wgsweep::measure::MeasureOptions;
use wgsweep::plan::{Plan, ProblemSize, Shapes};
use wgsweep::runner::{self, Flow};
use wgsweep::web::adapter;

wasm_bindgen_test_configure!(run_in_browser);

/// A plan that validates every configuration of `selector` and times it only briefly.
fn quick_plan(selector: &str, problem_size: u64, workgroup_sizes: Option<Vec<u32>>) -> Plan {
    Plan {
        kernels: kernels::select(selector).unwrap(),
        problem_size: ProblemSize::Units(problem_size),
        shapes: workgroup_sizes.map_or(Shapes::Family, Shapes::Sizes),
        parameter_values: None,
        shader_checks: vec![wgsweep::kernel::ShaderChecks::Default],
        // These check results through WebGPU, however slow SwiftShader is for them.
        measure: MeasureOptions {
            samples: 1,
            min_sample_ns: 1e4,
            warm_up_ns: 0.0,
            max_dispatch_ns: f64::INFINITY,
            ..Default::default()
        },
        seed: wgsweep::fill::fresh_seed(),
    }
}

#[wasm_bindgen_test]
async fn the_fingerprint_is_read_from_gpu_adapter_info() {
    let (gpu, browser_features) = adapter::open_gpu().await.expect("WebGPU with an adapter");
    // What the browser says, asked here without wgsweep: wgpu leaves these empty on the web.
    let gpu_object = js_sys::Reflect::get(&web_sys::window().unwrap().navigator(), &"gpu".into()).unwrap();
    let request: js_sys::Function = js_sys::Reflect::get(&gpu_object, &"requestAdapter".into()).unwrap().into();
    let promise: js_sys::Promise = request.call0(&gpu_object).unwrap().into();
    let adapter = wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
    let info = js_sys::Reflect::get(&adapter, &"info".into()).unwrap();
    let said = |name: &str| js_sys::Reflect::get(&info, &name.into()).unwrap().as_string().unwrap_or_default();
    let identity = &gpu.info.identity;
    let read = [&identity.vendor, &identity.architecture, &identity.device, &identity.description];
    assert_eq!(
        read.map(String::as_str),
        ["vendor", "architecture", "device", "description"].map(said).each_ref().map(String::as_str)
    );
    match gpu.info.own_name() {
        // Chromium names SwiftShader.
        Some(name) => assert_eq!(gpu.info.name(), name),
        // Firefox names nothing: the device is known by what the browser does expose.
        None => assert_eq!(gpu.info.name(), format!("{}, limits #{}", wgsweep::gpu::UNNAMED_GPU, gpu.info.signature())),
    }
    assert_eq!(gpu.info.backend, "webgpu");
    assert!(browser_features.iter().any(|f| f == "timestamp-query"), "{browser_features:?}");
    assert!(gpu.info.has_feature("timestamp-query"), "{:?}", gpu.info.features);
    assert!(gpu.info.limits.max_invocations_per_workgroup >= 256);
}

#[wasm_bindgen_test]
fn subgroup_matrix_configs_are_read_as_chromium_reports_them() {
    // What Chromium 156 reported on an H100 (docs/results/subgroup-matrix-h100.md), and one config missing a field.
    let info = js_sys::JSON::parse(
        r#"{"subgroupMatrixConfigs": [{"componentType": "u8", "resultComponentType": "u32", "M": 16, "N": 16, "K": 32},
                                      {"componentType": "i8", "resultComponentType": "i32", "M": 16, "N": 8, "K": 32},
                                      {"componentType": "f16", "M": 8, "N": 8, "K": 8}]}"#,
    )
    .unwrap();
    let texts: Vec<String> = adapter::matrix_configs(&info).iter().map(|c| c.text()).collect();
    assert_eq!(texts, ["u8 → u32, 16×16×32", "i8 → i32, 16×8×32"]);
    assert!(adapter::matrix_configs(&js_sys::Object::new().into()).is_empty(), "an adapter without them");
}

#[wasm_bindgen_test]
async fn stream_kernels_validate_through_webgpu() {
    let (gpu, _) = adapter::open_gpu().await.expect("WebGPU with an adapter");
    let plan = quick_plan("triad,dot/vec4", 4 * 4099, Some(vec![1, 64, 256]));
    let result = runner::run(&gpu, &plan, adapter::environment(&gpu), |_| Flow::Continue).await;
    assert!(result.complete);
    assert_eq!(result.results.len(), 5 * 3, "triad's four variants and dot/vec4 at three sizes");
    for r in &result.results {
        // SwiftShader offers no f16 in shaders: the f16 kernel says so instead.
        if r.variant == "vec4_f16" && !gpu.shader_f16 {
            assert!(r.skipped().is_some_and(|why| why.contains("shader-f16")), "{:?}", r.outcome);
            continue;
        }
        assert!(r.is_good(), "{} wg={}: {:?}", r.label(), r.workgroup_size[0], r.error());
    }
    assert_eq!(result.environment.runtime, "web");
}

#[wasm_bindgen_test]
async fn the_next_kernels_reference_is_built_while_the_first_ones_configurations_are_measured() {
    let (gpu, _) = adapter::open_gpu().await.expect("WebGPU with an adapter");
    let plan = quick_plan("copy/vec4,triad/vec4,dot/vec4", 1 << 16, Some(vec![64, 128, 256]));
    let before = wgsweep::kernel::references_built();
    let mut built_when_measured = Vec::new();
    let result = runner::run(&gpu, &plan, adapter::environment(&gpu), |event| {
        if let runner::Event::Measuring { .. } = event {
            built_when_measured.push(wgsweep::kernel::references_built() - before);
        }
        Flow::Continue
    })
    .await;
    assert!(result.complete);
    for r in &result.results {
        assert!(r.is_good(), "{} wg={}: {:?}", r.label(), r.workgroup_size[0], r.error());
    }
    // copy's reference as its first configuration is checked, triad's while copy's second one is measured,
    // dot's sum while triad's second one is; each once: a reference is kept while its kernel's other
    // configurations run.
    assert_eq!(built_when_measured, [0, 2, 2, 2, 3, 3, 3, 3, 3]);
    assert_eq!(wgsweep::kernel::references_built() - before, 3);
    // Copy's second and third configurations, run once and checked while the one before was measured, and
    // triad's (its first too, where its reference was built by then); never dot's, checked on the CPU.
    let checked_ahead = result.pace.expect("a pace").checked_ahead;
    assert!((4..=5).contains(&checked_ahead), "{checked_ahead} checked ahead");
}

#[wasm_bindgen_test]
async fn access_patterns_validate_through_webgpu() {
    let (gpu, _) = adapter::open_gpu().await.expect("WebGPU with an adapter");
    let plan = quick_plan("strided/vec4,random/f32,misaligned/vec2", 1 << 14, Some(vec![64]));
    let result = runner::run(&gpu, &plan, adapter::environment(&gpu), |_| Flow::Continue).await;
    assert_eq!(result.results.len(), 7 + 1 + 8, "every stride, one random, every offset");
    for r in &result.results {
        assert!(r.is_good(), "{} {}: {:?}", r.label(), r.parameter_text(), r.error());
    }
}

#[wasm_bindgen_test]
async fn padded_tiled_transpose_validates_through_webgpu() {
    let (gpu, _) = adapter::open_gpu().await.expect("WebGPU with an adapter");
    let plan = quick_plan("tiled/padded,naive/write", 3700, None);
    let result = runner::run(&gpu, &plan, adapter::environment(&gpu), |_| Flow::Continue).await;
    let tiled: Vec<_> = result.results.iter().filter(|r| r.kernel == "tiled").collect();
    assert_eq!(tiled.len(), 3 * 6, "six tile shapes on each of the three matrices");
    for r in &result.results {
        // SwiftShader allows 256 invocations: 32 × 32 is skipped with its reason, everything else runs.
        assert!(r.is_good() || r.skipped().is_some(), "{} wg={}: {:?}", r.label(), r.workgroup_text(), r.error());
    }
    assert!(tiled.iter().filter(|r| r.is_good()).count() >= 3 * 5);
}

#[wasm_bindgen_test]
async fn a_layout_and_the_grayscale_map_validate_through_webgpu() {
    let (gpu, _) = adapter::open_gpu().await.expect("WebGPU with an adapter");
    let plan = quick_plan("touch_all/aos_vec3,touch_one/aosoa32,grayscale", 1536, Some(vec![64]));
    let result = runner::run(&gpu, &plan, adapter::environment(&gpu), |_| Flow::Continue).await;
    assert_eq!(result.results.len(), 3);
    for r in &result.results {
        assert!(r.is_good(), "{}: {:?}", r.label(), r.error());
    }
}

#[wasm_bindgen_test]
async fn reductions_validate_through_webgpu() {
    let (gpu, _) = adapter::open_gpu().await.expect("WebGPU with an adapter");
    let plan = quick_plan("grid/f32,tree_atomic/u32", 100_003, Some(vec![64]));
    let result = runner::run(&gpu, &plan, adapter::environment(&gpu), |_| Flow::Continue).await;
    assert_eq!(result.results.len(), 2);
    for r in &result.results {
        assert!(r.is_good(), "{}: {:?}", r.label(), r.error());
    }
}

#[wasm_bindgen_test]
async fn subgroup_reductions_run_where_the_browser_offers_subgroups_and_say_why_not_elsewhere() {
    let (gpu, browser_features) = adapter::open_gpu().await.expect("WebGPU with an adapter");
    let offered = browser_features.iter().any(|f| f == "subgroups");
    // wgpu asks for what the browser offers (patches/wgpu), and the adapter's subgroup sizes come with it.
    assert_eq!(gpu.subgroups, offered, "{browser_features:?}");
    assert_eq!(gpu.info.subgroup_sizes.is_some(), offered);
    if let Some([min, max]) = gpu.info.subgroup_sizes {
        assert!(min >= 1 && min <= max && max <= 128, "{min}..{max}");
    }
    let plan = quick_plan("subgroup", 100_003, Some(vec![1, 32, 256]));
    let result = runner::run(&gpu, &plan, adapter::environment(&gpu), |_| Flow::Continue).await;
    assert_eq!(result.results.len(), 2 * 3);
    for r in &result.results {
        match offered {
            true => assert!(r.is_good(), "{} wg={}: {:?}", r.label(), r.workgroup_text(), r.error()),
            false => assert!(r.skipped().is_some_and(|why| why.contains("subgroup operations")), "{:?}", r.outcome),
        }
    }
}

#[wasm_bindgen_test]
async fn subgroup_matrix_products_run_where_the_browser_offers_them_and_say_why_not_elsewhere() {
    let (gpu, browser_features) = adapter::open_gpu().await.expect("WebGPU with an adapter");
    let offered = browser_features.iter().any(|f| f == "chromium-experimental-subgroup-matrix");
    // wgpu asks for the feature where the browser offers it (patches/wgpu), with subgroups.
    assert_eq!(gpu.subgroup_matrices, offered && gpu.subgroups, "{browser_features:?}");
    if !offered {
        assert!(gpu.info.matrix_configs.is_empty(), "{:?}", gpu.info.matrix_configs);
    }
    let mut plan = quick_plan("matmul_subgroup_matrix", 256 * 256, None);
    plan.parameter_values = Some(vec![256]);
    let result = runner::run(&gpu, &plan, adapter::environment(&gpu), |_| Flow::Continue).await;
    // u8 and i8: blocks of 32 × 32 in workgroups of 1, 2, 4 and 8 subgroups, of 32 × 64 in 2, 4 and 8, of
    // 64 × 64 in 4 and 8.
    assert_eq!(result.results.len(), 2 * 4 + 2 * 3 + 2 * 2);
    for r in &result.results {
        // The larger workgroups stage 20 and 30 KiB: where the device's workgroups hold less, the skip says so.
        let over = r.skipped().is_some_and(|why| why.contains("max_compute_workgroup_storage_size"));
        if over && r.workgroup_size[0] >= 128 && !r.variant.ends_with("32x32") {
            continue;
        }
        match gpu.subgroup_matrices {
            // Where the adapter lacks the configuration or subgroups of 32, the skip says so.
            true => {
                assert!(r.is_good() || r.skipped().is_some_and(|why| why.contains("this adapter")), "{:?}", r.outcome)
            }
            false => assert!(
                r.skipped().is_some_and(|why| why.contains("this browser does not offer")),
                "{}: {:?}",
                r.label(),
                r.outcome
            ),
        }
    }
}

#[wasm_bindgen_test]
async fn integer_and_packed_dot_product_chains_validate_through_webgpu_or_say_why_not() {
    let (gpu, _) = adapter::open_gpu().await.expect("WebGPU with an adapter");
    let plan = quick_plan("imad,dot4,hfma", 4099, Some(vec![64]));
    let result = runner::run(&gpu, &plan, adapter::environment(&gpu), |_| Flow::Continue).await;
    assert_eq!(result.results.len(), 2 + 2 + 3);
    for r in &result.results {
        match (r.kernel.as_str(), gpu.shader_f16, gpu.packed_dot) {
            ("hfma", false, _) => assert!(r.skipped().is_some_and(|why| why.contains("shader-f16")), "{:?}", r.outcome),
            ("dot4", _, false) => assert!(r.skipped().is_some_and(|why| why.contains("packed")), "{:?}", r.outcome),
            _ => assert!(r.is_good(), "{}: {:?}", r.label(), r.error()),
        }
    }
    assert!(result.peaks.summary().is_some_and(|s| s.contains("GIOP/s")), "{:?}", result.peaks);
}

#[wasm_bindgen_test]
async fn a_histogram_counts_exactly_through_webgpu() {
    let (gpu, _) = adapter::open_gpu().await.expect("WebGPU with an adapter");
    let plan = quick_plan("workgroup/skewed", 5003, Some(vec![64]));
    let result = runner::run(&gpu, &plan, adapter::environment(&gpu), |_| Flow::Continue).await;
    assert_eq!(result.results.len(), wgsweep::kernels::histogram::BINS.len());
    for r in &result.results {
        assert!(r.is_good(), "{} {}: {:?} {:?}", r.label(), r.parameter_text(), r.error(), r.skipped());
    }
}

#[wasm_bindgen_test]
async fn padded_workgroup_memory_reads_validate_through_webgpu() {
    let (gpu, _) = adapter::open_gpu().await.expect("WebGPU with an adapter");
    let plan = quick_plan("tile_read/padded", 2048, None);
    let result = runner::run(&gpu, &plan, adapter::environment(&gpu), |_| Flow::Continue).await;
    assert_eq!(result.results.len(), wgsweep::kernels::banks::STRIDES.len());
    for r in &result.results {
        assert!(r.is_good(), "{} {}: {:?}", r.label(), r.parameter_text(), r.error());
    }
}

#[wasm_bindgen_test]
async fn saturation_sums_validate_through_webgpu() {
    let (gpu, _) = adapter::open_gpu().await.expect("WebGPU with an adapter");
    let plan = quick_plan("sum_by_size/u32", 1 << 12, None);
    let result = runner::run(&gpu, &plan, adapter::environment(&gpu), |_| Flow::Continue).await;
    let ran: Vec<_> = result.results.iter().filter(|r| r.skipped().is_none()).collect();
    assert_eq!(ran.len(), 3, "2^10, 2^11 and 2^12 elements");
    for r in ran {
        assert!(r.is_good(), "{} {}: {:?}", r.label(), r.parameter_text(), r.error());
    }
}

#[wasm_bindgen_test]
async fn tiled_blur_matmul_blocks_and_fma_chains_validate_through_webgpu() {
    let (gpu, _) = adapter::open_gpu().await.expect("WebGPU with an adapter");
    let mut plan = quick_plan("box_tiled,matmul_blocked/8x8,fma/vec4", 10_000, None);
    plan.parameter_values = Some(vec![3, 100]);
    let result = runner::run(&gpu, &plan, adapter::environment(&gpu), |_| Flow::Continue).await;
    let ran: Vec<_> = result.results.iter().filter(|r| r.skipped().is_none()).collect();
    // blur: radius 3 in every shape that fits (radius 100 tiles do not); matmul: n 3 and 100 in 8×8 and
    // 16×16 workgroups; fma: every workgroup size.
    assert!(ran.iter().any(|r| r.kernel == "box_tiled" && r.workgroup_size == [16, 16, 1]));
    assert_eq!(ran.iter().filter(|r| r.kernel == "matmul_blocked").count(), 4);
    assert!(ran.iter().any(|r| r.kernel == "fma"));
    for r in ran {
        assert!(r.is_good(), "{} wg={} {}: {:?}", r.label(), r.workgroup_text(), r.parameter_text(), r.error());
    }
    assert!(result.peaks.fma_gflops.is_some());
}

#[wasm_bindgen_test]
async fn the_pipelined_matmul_validates_through_webgpu() {
    let (gpu, _) = adapter::open_gpu().await.expect("WebGPU with an adapter");
    let mut plan = quick_plan("matmul_pipelined", 256 * 256, None);
    // 130: rows that are not whole vec4s, tiles past the matrices' edges; 256: whole tiles, no edge code.
    plan.parameter_values = Some(vec![130, 256]);
    let result = runner::run(&gpu, &plan, adapter::environment(&gpu), |_| Flow::Continue).await;
    let ran: Vec<_> = result.results.iter().filter(|r| r.skipped().is_none()).collect();
    for variant in ["k8", "k16", "k8_16x8"] {
        assert_eq!(ran.iter().filter(|r| r.variant == variant).count(), 2, "{variant} at n 130 and 256");
    }
    for r in ran {
        assert!(r.is_good(), "{} {}: {:?}", r.label(), r.parameter_text(), r.error());
    }
}

#[wasm_bindgen_test]
async fn long_host_work_leaves_no_long_task_on_the_page() {
    // Watch from a task of our own: the test harness's task that started this one may be long.
    wgsweep::host::yield_now().await;
    let Some(watch) = wgsweep::web::dom::LongTaskWatch::start() else {
        // Firefox reports no long tasks (nor long animation frames): nothing here could see one.
        assert!(web_sys::window().unwrap().navigator().user_agent().unwrap().contains("Firefox"));
        return;
    };
    wgsweep::host::yield_now().await;
    let started = web_time::Instant::now();
    let mut sum = 0u64;
    // Several hundred milliseconds of work, in items far shorter than a slice.
    wgsweep::host::for_chunks(1 << 27, |range| {
        for i in range {
            sum = sum.wrapping_add(wgsweep::fill::hash_u32(i as u32) as u64);
        }
    })
    .await;
    let took = started.elapsed().as_secs_f64();
    // The browser delivers its entries in a task of their own.
    wgsweep::host::yield_now().await;
    let long_tasks = watch.finish();
    assert!(sum > 0 && took > 0.2, "the work took {took} s: too little to tell");
    assert!(long_tasks.longest_ms < 100.0, "{long_tasks:?} in {took} s of work");
}

#[wasm_bindgen_test]
fn a_job_new_to_the_workers_starts_with_small_requests_and_a_known_one_does_not() {
    use wgsweep::host::workers::request_sizes;
    let chunk = 1 << 20;
    let new: Vec<u64> = request_sizes(true, chunk).take(9).collect();
    assert_eq!(new, [1 << 14, 1 << 15, 1 << 16, 1 << 17, 1 << 18, 1 << 19, chunk, chunk, chunk]);
    assert!(request_sizes(false, chunk).take(4).all(|size| size == chunk));
    // Chunks smaller than a first request are asked for whole.
    assert!(request_sizes(true, 1 << 12).take(4).all(|size| size == 1 << 12));
}

/// Reads a user's kernel (its specification changed by `change`), checks that it compiles, and runs every
/// configuration through WebGPU, validated.
async fn run_users_kernel(source: &str, change: impl FnOnce(&mut serde_json::Value)) -> wgsweep::result::RunResult {
    let (gpu, _) = adapter::open_gpu().await.expect("WebGPU with an adapter");
    let mut spec: serde_json::Value = serde_json::from_str(wgsweep::spec::leading_spec(source).unwrap()).unwrap();
    change(&mut spec);
    let kernel = wgsweep::spec::UserKernel::read(source, Some(&spec.to_string())).expect("the kernel reads");
    let family = kernels::register(kernel).unwrap();
    assert!(kernels::user::compilation_problems(&gpu, family).await.is_empty());
    let mut plan = quick_plan("triad", 0, None);
    plan.kernels = wgsweep::kernel::Kernel::all_of(family);
    runner::run(&gpu, &plan, adapter::environment(&gpu), |_| Flow::Continue).await
}

/// Every configuration of `result`, `count` of them, ran and validated.
fn assert_all_good(result: &wgsweep::result::RunResult, count: usize) {
    assert_eq!(result.results.len(), count);
    for r in &result.results {
        assert!(r.is_good(), "{} wg={:?}: {:?}", r.label(), r.workgroup_size, r.error());
    }
}

#[wasm_bindgen_test]
async fn a_users_kernel_with_a_uniform_struct_validates_through_webgpu() {
    let result = run_users_kernel(include_str!("kernels/uniform_fields.wgsl"), |_| {}).await;
    assert_all_good(&result, 4); // two sizes × two workgroup sizes
}

#[wasm_bindgen_test]
async fn a_users_kernel_writing_past_its_outputs_end_fails_validation_through_webgpu() {
    let (gpu, _) = adapter::open_gpu().await.expect("WebGPU with an adapter");
    let source = include_str!("kernels/counted.wgsl");
    let mut spec: serde_json::Value = serde_json::from_str(wgsweep::spec::leading_spec(source).unwrap()).unwrap();
    spec["name"] = "counted_over".into();
    spec["uniforms"][0]["fields"]["count"] = "n + 3".into();
    let kernel = wgsweep::spec::UserKernel::read(source, Some(&spec.to_string())).expect("the kernel reads");
    let family = kernels::register(kernel).unwrap();
    let mut plan = quick_plan("triad", 0, None);
    plan.kernels = wgsweep::kernel::Kernel::all_of(family);
    let result = runner::run(&gpu, &plan, adapter::environment(&gpu), |_| Flow::Continue).await;
    assert_eq!(result.results.len(), 2);
    for r in &result.results {
        let error = r.error().unwrap_or_default();
        assert!(error.starts_with("FAILED validation: output[1000]: 3e3 (is)"), "{error}");
    }
}

#[wasm_bindgen_test]
async fn a_public_scan_of_five_passes_validates_through_webgpu() {
    // 2^16 items at two shapes: SwiftShader takes minutes over the specification's 15 shapes of 2^20.
    let smaller = |s: &mut serde_json::Value| {
        s["sizes"] = serde_json::json!([65536]);
        s["tunables"] = serde_json::json!({ "WORKGROUP_SIZE_X": [64, 128], "WORKGROUP_SIZE_Y": [1] });
    };
    let result = run_users_kernel(include_str!("kernels/public/prefix_sum.wgsl"), smaller).await;
    assert_all_good(&result, 2);
}

#[wasm_bindgen_test]
async fn the_samples_flocking_step_validates_through_webgpu() {
    let result =
        run_users_kernel(include_str!("kernels/public/boids.wgsl"), |s| s["sizes"] = serde_json::json!([1536])).await;
    assert_all_good(&result, 1);
}

#[wasm_bindgen_test]
async fn an_image_through_a_sampler_into_a_storage_texture_validates_through_webgpu() {
    let result = run_users_kernel(include_str!("kernels/invert.wgsl"), |_| {}).await;
    assert_all_good(&result, 4);
}

#[wasm_bindgen_test]
async fn the_samples_image_blur_in_two_bind_groups_validates_through_webgpu() {
    let sizes = serde_json::json!([{ "w": 300, "h": 70, "filter": 15 }]);
    let result = run_users_kernel(include_str!("kernels/public/image_blur.wgsl"), |s| s["sizes"] = sizes).await;
    assert_all_good(&result, 1);
}

#[wasm_bindgen_test]
async fn dawns_tiled_matmul_with_its_sizes_in_a_uniform_validates_through_webgpu() {
    let sizes = serde_json::json!([{ "m": 100, "k": 70, "n": 90 }]);
    let result = run_users_kernel(include_str!("kernels/public/dawn_matmul.wgsl"), |s| s["sizes"] = sizes).await;
    assert_all_good(&result, 1);
}

#[wasm_bindgen_test]
async fn burns_matmul_template_filled_at_each_configuration_validates_through_webgpu() {
    let result = run_users_kernel(include_str!("kernels/public/burn_matmul.wgsl"), |s| {
        s["sizes"] = serde_json::json!([{ "m": 64, "k": 32, "n": 64 }]);
        s["tunables"] = serde_json::json!({ "WG_X": [8], "WG_Y": [4, 8], "T_M": [2], "T_N": [4], "B_K": [8] });
    })
    .await;
    assert_all_good(&result, 2);
}

/// Built-in kernels that open as your kernel with a setup pass (the layouts' first state, the gather's
/// permutation, the skewed input) or with the passes that add their partial sums (subgroup sums, where the
/// browser offers subgroups: `enable subgroups;` reaches it as written), at three workgroup sizes.
#[wasm_bindgen_test]
async fn built_ins_with_setup_passes_and_subgroup_sums_open_as_your_kernel_through_webgpu() {
    let (gpu, browser_features) = adapter::open_gpu().await.expect("WebGPU with an adapter");
    let offered = browser_features.iter().any(|f| f == "subgroups");
    for label in ["touch_all/aosoa32", "random/vec2", "workgroup/skewed", "subgroup/f32", "dot/grid_stride"] {
        let id = kernels::select(label).unwrap()[0].id;
        let family = kernels::FAMILIES.iter().find(|f| f.name() == id.family).unwrap();
        let size = family.round_size(1 << 14);
        let source = family.as_user_kernel(&id, size, &gpu.info.limits).expect("it opens");
        let result = run_users_kernel(&source, |s| s["tunables"] = serde_json::json!({ "WG": [1, 32, 256] })).await;
        assert_eq!(result.results.len(), 3 * if label == "workgroup/skewed" { 5 } else { 1 }, "{label}"); // bins
        for r in &result.results {
            match (label, offered) {
                ("subgroup/f32", false) => {
                    assert!(r.skipped().is_some_and(|why| why.contains("subgroup operations")), "{:?}", r.outcome)
                }
                _ => assert!(r.is_good(), "{label} wg={:?}: {:?}", r.workgroup_size, r.error()),
            }
        }
    }
}

/// The page's zlib is the browser's streams: what it compresses comes back whole, a payload that would
/// decompress past its limit is refused part way, and bytes that are not zlib say so.
#[wasm_bindgen_test]
async fn the_browsers_zlib_round_trips_and_refuses_a_bomb_and_garbage() {
    use wgsweep::host::zlib;
    let text: Vec<u8> = (0..100_000u32).flat_map(|i| (i % 251).to_le_bytes()).collect();
    let packed = zlib::compress(&text).await;
    assert!(packed.len() < text.len() / 4, "{} of {}", packed.len(), text.len());
    assert_eq!(zlib::decompress(&packed, text.len()).await.unwrap(), text);
    let bomb = zlib::compress(&vec![0; 32 << 20]).await;
    assert_eq!(zlib::decompress(&bomb, 1 << 20).await, Err(zlib::Inflate::TooLarge));
    let garbage = zlib::decompress(b"not zlib at all", 1 << 20).await;
    assert!(matches!(garbage, Err(zlib::Inflate::Damaged(_))), "{garbage:?}");
    // A kernel's link, written and read back through the browser's streams (the end-to-end tests read the
    // page's links natively too).
    let link = wgsweep::share::kernel_link(
        "https://example.org/",
        &wgsweep::spec::KernelText { source: "@compute @workgroup_size(1) fn main() {}".into(), spec: "{}".into() },
    )
    .await
    .unwrap();
    assert_eq!(wgsweep::share::decode_kernel(&link).await.unwrap().spec, "{}");
}

/// The history keeps a run's latest save: two saves of one run compress at once (the earlier of thousands
/// of rows, the later of three), and what is kept is the later, whichever finishes first.
#[wasm_bindgen_test]
async fn the_history_keeps_a_runs_latest_save_whichever_finishes_compressing_first() {
    use wgsweep::web::storage;
    let suite = wgsweep::analysis::read_json(include_str!("../docs/results/pace/h100-native-suite-5.json")).unwrap();
    let earlier = wgsweep::RunResult {
        results: suite.results.iter().cycle().take(20 * suite.results.len()).cloned().collect(),
        ..suite.clone()
    };
    let later = wgsweep::RunResult { results: suite.results[..3].to_vec(), ..suite };
    let id = "a run saved twice at once";
    let (first, second) =
        futures_util::future::join(storage::keep(id, &earlier, None), storage::keep(id, &later, None)).await;
    first.unwrap();
    second.unwrap();
    let kept = storage::load().into_iter().find(|entry| entry.id == id).expect("kept");
    storage::remove(id).unwrap();
    assert_eq!(kept.configurations, 3);
}
