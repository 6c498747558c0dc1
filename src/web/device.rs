//! The device card: the adapter, browser and timer in one line, the peaks a run measured, and the limits and
//! features behind a disclosure.

use web_sys::{Element, HtmlInputElement};

use super::adapter::cross_origin_isolated;
use super::dom::{self, append, by_id, fact, hidden_card};
use super::{state, storage};
use crate::gpu::Gpu;
use crate::kernel::shapes;

pub fn build(root: &Element) {
    let device = hidden_card(root, "device", "Device");
    append(&device, "p", "device-summary", "").set_id("device-summary");
    // Where the browser withholds the adapter's name (Firefox does), the person may give it one.
    let naming = append(&device, "p", "device-naming", "");
    naming.set_id("device-naming");
    naming.set_attribute("hidden", "").ok();
    let label = append(&naming, "label", "", "The browser withholds this GPU's name; yours for it: ");
    let input = append(&label, "input", "", "");
    input.set_id("device-name");
    for (name, value) in [("type", "text"), ("maxlength", "80"), ("placeholder", "my laptop's GPU")] {
        input.set_attribute(name, value).ok();
    }
    append(
        &naming,
        "span",
        "hint",
        " kept in your results, marked as yours; the gallery files them by what the browser does say",
    );
    append(&device, "p", "device-peaks", "").set_id("device-peaks");
    let details = append(&device, "details", "", "");
    append(&details, "summary", "", "Limits and features");
    append(&details, "dl", "facts", "").set_id("device-facts");
}

/// Fills in the card for `gpu`; `browser_features` are the browser's own names for the adapter's features.
pub fn show(gpu: &Gpu, browser_features: &[String]) {
    let info = &gpu.info;
    let facts: Element = by_id("device-facts");
    let id = &info.identity;
    let or_unknown = |s: &str| if s.is_empty() { "(not reported)".to_string() } else { s.to_string() };
    fact(&facts, "Adapter", &info.name());
    fact(&facts, "Vendor", &or_unknown(&id.vendor));
    fact(&facts, "Architecture", &or_unknown(&id.architecture));
    fact(&facts, "Device", &or_unknown(&id.device));
    fact(&facts, "Description", &or_unknown(&id.description));
    let l = &info.limits;
    fact(
        &facts,
        "Max workgroup size",
        &format!("{} × {} × {}", l.max_workgroup_size_x, l.max_workgroup_size_y, l.max_workgroup_size_z),
    );
    fact(&facts, "Invocations per workgroup", &l.max_invocations_per_workgroup.to_string());
    fact(&facts, "Workgroup storage", &format!("{} KiB", l.max_workgroup_storage_bytes / 1024));
    fact(&facts, "Storage binding", &format!("{} MiB", l.max_storage_buffer_binding_size >> 20));
    fact(&facts, "Max buffer", &format!("{} MiB", l.max_buffer_size >> 20));
    let has = |name: &str| browser_features.iter().any(|f| f == name);
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    fact(&facts, "timestamp-query", yes_no(has("timestamp-query")));
    let subgroups = match (has("subgroups"), info.subgroup_sizes) {
        (true, Some([min, max])) if min == max => format!("yes, {min} invocations"),
        (true, Some([min, max])) => format!("yes, {min} to {max} invocations"),
        (offered, _) => yes_no(offered).to_string(),
    };
    fact(&facts, "subgroups", &subgroups);
    let f16 = match crate::result::f16_unlock(info, &dom::user_agent()) {
        Some(flag) => format!("no: on NVIDIA, start the browser with {flag}"),
        None => yes_no(has("shader-f16")).to_string(),
    };
    fact(&facts, "shader-f16", &f16);
    let matrices: Vec<String> = info.matrix_configs.iter().map(|c| c.text()).collect();
    let matrices = if matrices.is_empty() { "none offered".to_string() } else { matrices.join("; ") };
    fact(&facts, "Subgroup matrices", &matrices);
    if info.own_name().is_none() {
        let signature = info.signature();
        let kept = storage::device_name(&signature);
        gpu.name_device(kept.as_deref());
        by_id::<HtmlInputElement>("device-name").set_value(kept.as_deref().unwrap_or(""));
        dom::set_hidden("device-naming", false);
        dom::on("device-name", "change", move |_| {
            let name = by_id::<HtmlInputElement>("device-name").value();
            if let Err(message) = storage::keep_device_name(&signature, &name) {
                dom::show_message("error", &message);
            }
            state::with(|app| {
                if let Some(gpu) = &app.gpu {
                    gpu.name_device(Some(&name));
                    show_summary(gpu);
                }
            });
        });
    }
    show_summary(gpu);
    let timing = if gpu.timestamps {
        "GPU timestamps (a browser may quantize them to 100 µs, as Chrome does unless WebGPU developer features \
         are on: samples last ≥ 2 ms)"
    } else {
        "performance.now() around each submission (no timestamp-query)"
    };
    fact(&facts, "Timing", timing);
    let isolated = cross_origin_isolated();
    fact(
        &facts,
        "Cross-origin isolated",
        if isolated { "yes (performance.now() resolves 5 µs)" } else { "no (performance.now() resolves 100 µs)" },
    );
    let sizes: Vec<String> = shapes::power_of_two_sizes(l).iter().map(u32::to_string).collect();
    fact(&facts, "Workgroup sizes swept", &sizes.join(", "));
    show_peaks("not measured yet (a run with copy and fma measures this device's ceilings)");
    dom::set_hidden("device", false);
}

/// The card's line: the device as results will name it, the browser, the timer.
fn show_summary(gpu: &Gpu) {
    let summary = [gpu.device_info().name(), browser().unwrap_or_else(|| "WebGPU".into()), timer(gpu).into()];
    dom::set_text("device-summary", &summary.join(" · "));
}

/// "Chrome 156", from the user agent, where it names a browser wgsweep knows.
fn browser() -> Option<String> {
    crate::result::browser(&dom::user_agent()).map(|(name, version)| format!("{name} {version}"))
}

/// How the page times, in a few words.
fn timer(gpu: &Gpu) -> &'static str {
    if gpu.timestamps { "GPU timestamps" } else { "wall-clock timing (no timestamp-query)" }
}

/// The peaks the last run measured, in words.
pub fn show_peaks(text: &str) {
    dom::set_text("device-peaks", &format!("Peaks (this run): {text}"));
}
