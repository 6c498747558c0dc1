//! In headless Chromium through WebGPU (SwiftShader without a GPU): `cargo xtask test` runs these.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;
use wgsweep::kernels;
use wgsweep::measure::MeasureOptions;
use wgsweep::runner::{self, Flow, Plan, ProblemSize};
use wgsweep::web::adapter;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn the_fingerprint_is_read_from_gpu_adapter_info() {
    let (gpu, browser_features) = adapter::open_gpu().await.expect("WebGPU with an adapter");
    let identity = &gpu.info.identity;
    // wgpu leaves these empty on the web; GPUAdapter.info fills them.
    assert!(!identity.vendor.is_empty(), "{identity:?}");
    assert!(!identity.architecture.is_empty() || !identity.description.is_empty(), "{identity:?}");
    assert_eq!(gpu.info.backend, "webgpu");
    assert!(browser_features.iter().any(|f| f == "timestamp-query"), "{browser_features:?}");
    assert!(gpu.info.has_feature("timestamp-query"), "{:?}", gpu.info.features);
    assert!(gpu.info.limits.max_invocations_per_workgroup >= 256);
}

#[wasm_bindgen_test]
async fn stream_kernels_validate_through_webgpu() {
    let (gpu, _) = adapter::open_gpu().await.expect("WebGPU with an adapter");
    let plan = Plan {
        kernels: kernels::select("triad,dot/vec4").unwrap(),
        problem_size: ProblemSize::Units(4 * 4099),
        workgroup_sizes: Some(vec![1, 64, 256]),
        parameter_values: None,
        shader_checks: vec![wgsweep::kernel::ShaderChecks::Default],
        measure: MeasureOptions { samples: 2, min_sample_ns: 1e5, warm_up_ns: 0.0, ..Default::default() },
        seed: wgsweep::fill::fresh_seed(),
    };
    let result = runner::run(&gpu, &plan, adapter::environment(&gpu), |_| Flow::Continue).await;
    assert!(result.complete);
    assert_eq!(result.results.len(), 4 * 3);
    for r in &result.results {
        assert!(r.is_good(), "{} wg={}: {:?}", r.label(), r.workgroup_size[0], r.error);
    }
    assert_eq!(result.environment.runtime, "web");
}

#[wasm_bindgen_test]
async fn access_patterns_validate_through_webgpu() {
    let (gpu, _) = adapter::open_gpu().await.expect("WebGPU with an adapter");
    let plan = Plan {
        kernels: kernels::select("strided/vec4,random/f32,misaligned/vec2").unwrap(),
        problem_size: ProblemSize::Units(1 << 14),
        workgroup_sizes: Some(vec![64]),
        parameter_values: None,
        shader_checks: vec![wgsweep::kernel::ShaderChecks::Default],
        measure: MeasureOptions { samples: 2, min_sample_ns: 1e5, warm_up_ns: 0.0, ..Default::default() },
        seed: wgsweep::fill::fresh_seed(),
    };
    let result = runner::run(&gpu, &plan, adapter::environment(&gpu), |_| Flow::Continue).await;
    assert_eq!(result.results.len(), 7 + 1 + 8, "every stride, one random, every offset");
    for r in &result.results {
        assert!(r.is_good(), "{} {}: {:?}", r.label(), r.parameter_text(), r.error);
    }
}

#[wasm_bindgen_test]
async fn padded_tiled_transpose_validates_through_webgpu() {
    let (gpu, _) = adapter::open_gpu().await.expect("WebGPU with an adapter");
    let plan = Plan {
        kernels: kernels::select("tiled/padded,naive/write").unwrap(),
        problem_size: ProblemSize::Units(3700),
        workgroup_sizes: None,
        parameter_values: None,
        shader_checks: vec![wgsweep::kernel::ShaderChecks::Default],
        measure: MeasureOptions { samples: 1, min_sample_ns: 1e4, warm_up_ns: 0.0, ..Default::default() },
        seed: wgsweep::fill::fresh_seed(),
    };
    let result = runner::run(&gpu, &plan, adapter::environment(&gpu), |_| Flow::Continue).await;
    let tiled: Vec<_> = result.results.iter().filter(|r| r.kernel == "tiled").collect();
    assert_eq!(tiled.len(), 3 * 6, "six tile shapes on each of the three matrices");
    for r in &result.results {
        // SwiftShader allows 256 invocations: 32 × 32 is skipped with its reason, everything else runs.
        assert!(r.is_good() || r.skipped.is_some(), "{} wg={}: {:?}", r.label(), r.workgroup_text(), r.error);
    }
    assert!(tiled.iter().filter(|r| r.is_good()).count() >= 3 * 5);
}

#[wasm_bindgen_test]
async fn a_layout_and_the_grayscale_map_validate_through_webgpu() {
    let (gpu, _) = adapter::open_gpu().await.expect("WebGPU with an adapter");
    let plan = Plan {
        kernels: kernels::select("touch_all/aos_vec3,touch_one/aosoa32,grayscale").unwrap(),
        problem_size: ProblemSize::Units(1536),
        workgroup_sizes: Some(vec![64]),
        parameter_values: None,
        shader_checks: vec![wgsweep::kernel::ShaderChecks::Default],
        measure: MeasureOptions { samples: 1, min_sample_ns: 1e4, warm_up_ns: 0.0, ..Default::default() },
        seed: wgsweep::fill::fresh_seed(),
    };
    let result = runner::run(&gpu, &plan, adapter::environment(&gpu), |_| Flow::Continue).await;
    assert_eq!(result.results.len(), 3);
    for r in &result.results {
        assert!(r.is_good(), "{}: {:?}", r.label(), r.error);
    }
}

#[wasm_bindgen_test]
async fn reductions_validate_through_webgpu() {
    let (gpu, _) = adapter::open_gpu().await.expect("WebGPU with an adapter");
    let plan = Plan {
        kernels: kernels::select("grid/f32,tree_atomic/u32").unwrap(),
        problem_size: ProblemSize::Units(100_003),
        workgroup_sizes: Some(vec![64]),
        parameter_values: None,
        shader_checks: vec![wgsweep::kernel::ShaderChecks::Default],
        measure: MeasureOptions { samples: 1, min_sample_ns: 1e4, warm_up_ns: 0.0, ..Default::default() },
        seed: wgsweep::fill::fresh_seed(),
    };
    let result = runner::run(&gpu, &plan, adapter::environment(&gpu), |_| Flow::Continue).await;
    assert_eq!(result.results.len(), 2);
    for r in &result.results {
        assert!(r.is_good(), "{}: {:?}", r.label(), r.error);
    }
}

#[wasm_bindgen_test]
async fn a_histogram_counts_exactly_through_webgpu() {
    let (gpu, _) = adapter::open_gpu().await.expect("WebGPU with an adapter");
    let plan = Plan {
        kernels: kernels::select("workgroup/skewed").unwrap(),
        problem_size: ProblemSize::Units(5003),
        workgroup_sizes: Some(vec![64]),
        parameter_values: None,
        shader_checks: vec![wgsweep::kernel::ShaderChecks::Default],
        measure: MeasureOptions { samples: 1, min_sample_ns: 1e4, warm_up_ns: 0.0, ..Default::default() },
        seed: wgsweep::fill::fresh_seed(),
    };
    let result = runner::run(&gpu, &plan, adapter::environment(&gpu), |_| Flow::Continue).await;
    assert_eq!(result.results.len(), wgsweep::kernels::histogram::BINS.len());
    for r in &result.results {
        assert!(r.is_good(), "{} {}: {:?} {:?}", r.label(), r.parameter_text(), r.error, r.skipped);
    }
}

#[wasm_bindgen_test]
async fn padded_workgroup_memory_reads_validate_through_webgpu() {
    let (gpu, _) = adapter::open_gpu().await.expect("WebGPU with an adapter");
    let plan = Plan {
        kernels: kernels::select("tile_read/padded").unwrap(),
        problem_size: ProblemSize::Units(2048),
        workgroup_sizes: None,
        parameter_values: None,
        shader_checks: vec![wgsweep::kernel::ShaderChecks::Default],
        measure: MeasureOptions { samples: 1, min_sample_ns: 1e4, warm_up_ns: 0.0, ..Default::default() },
        seed: wgsweep::fill::fresh_seed(),
    };
    let result = runner::run(&gpu, &plan, adapter::environment(&gpu), |_| Flow::Continue).await;
    assert_eq!(result.results.len(), wgsweep::kernels::banks::STRIDES.len());
    for r in &result.results {
        assert!(r.is_good(), "{} {}: {:?}", r.label(), r.parameter_text(), r.error);
    }
}

#[wasm_bindgen_test]
async fn saturation_sums_validate_through_webgpu() {
    let (gpu, _) = adapter::open_gpu().await.expect("WebGPU with an adapter");
    let plan = Plan {
        kernels: kernels::select("sum_by_size/u32").unwrap(),
        problem_size: ProblemSize::Units(1 << 12),
        workgroup_sizes: None,
        parameter_values: None,
        shader_checks: vec![wgsweep::kernel::ShaderChecks::Default],
        measure: MeasureOptions { samples: 1, min_sample_ns: 1e4, warm_up_ns: 0.0, ..Default::default() },
        seed: wgsweep::fill::fresh_seed(),
    };
    let result = runner::run(&gpu, &plan, adapter::environment(&gpu), |_| Flow::Continue).await;
    let ran: Vec<_> = result.results.iter().filter(|r| r.skipped.is_none()).collect();
    assert_eq!(ran.len(), 3, "2^10, 2^11 and 2^12 elements");
    for r in ran {
        assert!(r.is_good(), "{} {}: {:?}", r.label(), r.parameter_text(), r.error);
    }
}
