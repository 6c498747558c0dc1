//! Finding WebGPU and opening the device, with the facts wgpu cannot see on the web.

use js_sys::Reflect;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::gpu::{self, AdapterIdentity, Gpu, MatrixConfig};
use crate::result::Environment;

/// The coarsest a browser may make timestamp queries, assumed of each since a page cannot ask: Chrome
/// quantizes them to 100 µs unless WebGPU developer features are on; Firefox 153 gave the H100's own 32 ns
/// (docs/results/engines/). Samples are made long enough for it (`MeasureOptions::quanta_per_sample`).
const BROWSER_TIMESTAMP_QUANTUM_NS: f64 = 100_000.0;

/// What a person without WebGPU needs to do.
const NO_WEBGPU: &str = "This browser does not offer WebGPU (navigator.gpu is missing), so wgsweep cannot run here. \
    Use a current Chrome or Edge (version 113 or later) on Windows, macOS or ChromeOS, or Chrome 121+ on Android. \
    On Linux, start Chrome with --enable-unsafe-webgpu (or enable chrome://flags/#enable-unsafe-webgpu). \
    WebGPU also needs a secure context: https, or http://localhost.";

const NO_ADAPTER: &str = "WebGPU is present, but the browser found no GPU adapter: the GPU may be blocklisted, \
    hardware acceleration may be off (chrome://settings/system), or the driver is unsupported. \
    chrome://gpu shows why. On Linux, Chrome also needs --enable-unsafe-webgpu.";

/// Opens the high-performance adapter's device; returns it with the browser's feature names, or a message
/// that tells a person what to do.
pub async fn open_gpu() -> Result<(Gpu, Vec<String>), String> {
    let window = web_sys::window().ok_or("no window")?;
    let navigator = window.navigator();
    let gpu_object = Reflect::get(&navigator, &"gpu".into()).map_err(|_| NO_WEBGPU)?;
    if gpu_object.is_undefined() || gpu_object.is_null() {
        let insecure = !window.is_secure_context();
        return Err(if insecure {
            format!("{NO_WEBGPU} This page is not a secure context.")
        } else {
            NO_WEBGPU.to_string()
        });
    }
    let (identity, browser_features, matrix_configs) = adapter_identity(&gpu_object).await?;
    let instance = gpu::instance();
    let adapter = gpu::default_adapter(&instance).await.map_err(|e| format!("{NO_ADAPTER} ({e})"))?;
    let mut gpu = Gpu::open(&adapter, Some(identity)).await.map_err(|e| e.to_string())?;
    // The fingerprint lists what the adapter offers, as the browser says it.
    gpu.info.features = gpu::REPORTED_FEATURES
        .iter()
        .map(|(_, name)| name.to_string())
        .filter(|name| browser_features.contains(name))
        .collect();
    gpu.info.matrix_configs = matrix_configs;
    Ok((gpu, browser_features))
}

/// Reads `GPUAdapter.info`, the feature names and the subgroup matrix configurations, which wgpu leaves
/// empty or incomplete on the web.
async fn adapter_identity(gpu_object: &JsValue) -> Result<(AdapterIdentity, Vec<String>, Vec<MatrixConfig>), String> {
    let options = js_sys::Object::new();
    Reflect::set(&options, &"powerPreference".into(), &"high-performance".into()).ok();
    let request: js_sys::Function =
        Reflect::get(gpu_object, &"requestAdapter".into()).and_then(|f| f.dyn_into()).map_err(|_| NO_WEBGPU)?;
    let promise: js_sys::Promise =
        request.call1(gpu_object, &options).and_then(|p| p.dyn_into()).map_err(|e| format!("{NO_ADAPTER} ({e:?})"))?;
    let adapter = JsFuture::from(promise).await.map_err(|e| format!("{NO_ADAPTER} ({e:?})"))?;
    if adapter.is_null() || adapter.is_undefined() {
        return Err(NO_ADAPTER.into());
    }
    let info = Reflect::get(&adapter, &"info".into()).unwrap_or(JsValue::UNDEFINED);
    let text = |name: &str| Reflect::get(&info, &name.into()).ok().and_then(|v| v.as_string()).unwrap_or_default();
    let identity = AdapterIdentity {
        vendor: text("vendor"),
        architecture: text("architecture"),
        device: text("device"),
        description: text("description"),
    };
    let mut features = Vec::new();
    if let Ok(set) = Reflect::get(&adapter, &"features".into()) {
        let values = js_sys::try_iter(&set).ok().flatten();
        features.extend(values.into_iter().flatten().filter_map(|v| v.ok()?.as_string()));
    }
    crate::sort::ascending(&mut features);
    Ok((identity, features, matrix_configs(&info)))
}

/// `GPUAdapterInfo.subgroupMatrixConfigs` (Chromium, where the adapter offers subgroup matrices): objects
/// of `componentType`, `resultComponentType`, `M`, `N` and `K`.
pub fn matrix_configs(info: &JsValue) -> Vec<MatrixConfig> {
    let Some(configs) = Reflect::get(info, &"subgroupMatrixConfigs".into()).ok().filter(|c| c.is_object()) else {
        return Vec::new();
    };
    let configs = js_sys::try_iter(&configs).ok().flatten().into_iter().flatten().filter_map(Result::ok);
    let text = |c: &JsValue, key: &str| Reflect::get(c, &key.into()).ok()?.as_string();
    let size = |c: &JsValue, key: &str| Some(Reflect::get(c, &key.into()).ok()?.as_f64()? as u32);
    configs
        .filter_map(|c| {
            let (component, result) = (text(&c, "componentType")?, text(&c, "resultComponentType")?);
            Some(MatrixConfig { component, result, m: size(&c, "M")?, n: size(&c, "N")?, k: size(&c, "K")? })
        })
        .collect()
}

pub fn cross_origin_isolated() -> bool {
    web_sys::window()
        .and_then(|w| Reflect::get(&w, &"crossOriginIsolated".into()).ok())
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
}

/// Where the page runs, for the result.
pub fn environment(gpu: &Gpu) -> Environment {
    let isolated = cross_origin_isolated();
    let wall_quantum = if isolated { 5_000.0 } else { 100_000.0 };
    Environment {
        runtime: "web".into(),
        platform: super::dom::user_agent(),
        timestamps: gpu.timestamps,
        timer_quantum_ns: if gpu.timestamps { BROWSER_TIMESTAMP_QUANTUM_NS } else { wall_quantum },
        cross_origin_isolated: Some(isolated),
        long_tasks: None,
        reference_workers: None,
        host_probe_ms: None,
    }
}
