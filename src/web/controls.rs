//! The controls card: the kernel picker, problem size and samples, Run, Auto-tune and Cancel, and the
//! progress bar that run and tuning move. It turns the controls (and the page's query) into a `Plan`.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlButtonElement, HtmlInputElement, HtmlSelectElement};

use super::dom::{self, append, by_id, hidden_card, query};
use super::state::{self, Action};
use super::storage;
use crate::estimate;
use crate::gpu::{DeviceInfo, Gpu};
use crate::kernel::Kernel;
use crate::kernels;
use crate::measure::MeasureOptions;
use crate::plan::{self, Plan, ProblemSize, Shapes};

pub fn build(root: &Element) {
    let controls = hidden_card(root, "controls", "Run");
    let buttons = append(&controls, "div", "buttons", "");
    // Run and Auto-tune wait for the GPU (`show`): a click before it opened would do nothing.
    let run = append(&buttons, "button", "primary", "Run");
    run.set_id("run");
    run.set_attribute("disabled", "").ok();
    let tune = append(&buttons, "button", "", "Auto-tune");
    tune.set_id("tune");
    tune.set_attribute("disabled", "").ok();
    tune.set_attribute("title", "Find the best workgroup shape of each picked kernel without measuring every one").ok();
    let cancel = append(&buttons, "button", "", "Cancel");
    cancel.set_id("cancel");
    cancel.set_attribute("disabled", "").ok();
    append(&buttons, "span", "expected", "").set_id("expected-duration");
    let progress = append(&controls, "div", "progress", "");
    progress.set_id("progress");
    progress.set_attribute("hidden", "").ok();
    append(&progress, "progress", "", "").set_id("progress-bar");
    append(&progress, "span", "", "").set_id("progress-text");
    // What to run and how: one click away, out of the way of Run.
    let kernels = append(&controls, "details", "choice", "");
    append(&kernels, "summary", "", "Kernels").set_id("kernel-summary");
    append(&kernels, "div", "kernel-picker", "").set_id("kernel-picker");
    let settings = append(&controls, "details", "choice", "");
    append(&settings, "summary", "", "Settings: problem size, samples").set_id("settings-summary");
    let fields = append(&settings, "div", "settings", "");
    let size_label = append(&fields, "label", "", "Problem size ");
    append(&size_label, "select", "", "").set_id("size");
    let samples_label = append(&fields, "label", "", "Samples per configuration ");
    let samples = append(&samples_label, "input", "", "");
    samples.set_id("samples");
    for (name, value) in [("type", "number"), ("min", "1"), ("max", "100"), ("value", "10")] {
        samples.set_attribute(name, value).ok();
    }
    // More samples, up to `MeasureOptions::max_samples`, until the median's 95 % interval is this narrow.
    let precision_label = append(&fields, "label", "", "and more until the median is within ± ");
    let precision = append(&precision_label, "input", "", "");
    precision.set_id("precision");
    let default = format!("{}", (plan::RUN_PRECISION * 100.0) as u32);
    for (name, value) in [("type", "number"), ("min", "0"), ("max", "50"), ("step", "0.5"), ("value", &default)] {
        precision.set_attribute(name, value).ok();
    }
    append(&precision_label, "span", "", " % (0: no more)");
}

/// Fills in the picker (kernels ticked from the link's `?kernels=`, else the default suite) and the sizes
/// `gpu` allows, and shows the card.
pub fn show(gpu: &Gpu) {
    let picker: Element = by_id("kernel-picker");
    let preselected = match query("kernels").map(|s| kernels::select(&s)) {
        Some(Ok(chosen)) => Some(chosen),
        Some(Err(error)) => {
            dom::show_message(
                "error",
                &format!("The link's kernels could not be read ({error}); the default suite is ticked."),
            );
            None
        }
        None => None,
    };
    let suite = kernels::select(kernels::DEFAULT_SUITE).expect("the default suite names known kernels");
    let chosen = preselected.unwrap_or_else(|| suite.clone());
    let ticks = append(&picker, "div", "buttons ticks", "");
    append(&ticks, "span", "", "Tick:");
    for (id, text) in [("tick-default", "the default suite"), ("tick-all", "every kernel"), ("tick-none", "none")] {
        append(&ticks, "button", "", text).set_id(id);
    }
    for (family, presentation) in kernels::built_in() {
        let group = append(&picker, "fieldset", "", "");
        append(&group, "legend", "", family.name());
        dom::about_fold(&group, family.name(), presentation.about);
        for kernel in family.kernels() {
            let label = append(&group, "label", "kernel", "");
            let input: HtmlInputElement = append(&label, "input", "", "").dyn_into().expect("input");
            input.set_type("checkbox");
            input.set_value(&kernel.label());
            input.set_checked(chosen.iter().any(|k| k.id == kernel));
            input.set_class_name("kernel-choice");
            append(&label, "span", "", &kernel.label());
        }
    }
    for (id, pick) in [("tick-default", suite), ("tick-all", kernels::all()), ("tick-none", Vec::new())] {
        let device = gpu.info.clone();
        dom::on(id, "click", move |_| {
            tick(&pick);
            show_expected(&device);
        });
    }

    // Problem sizes as bytes per buffer, so one choice means the same footprint for every family; a link's
    // ?size= counts each family's own units.
    let select: HtmlSelectElement = by_id("size");
    let option = |text: &str, value: &str| append(&select, "option", "", text).set_attribute("value", value).ok();
    if let Some(units) = query("size").and_then(|s| s.parse::<u64>().ok()) {
        option(&format!("{units} units of each family (from the link)"), &format!("units:{units}"));
    }
    option("Each family's default (256 MiB per buffer where the device allows)", "default");
    let largest = gpu.info.limits.max_binding_bytes();
    for size in (20..=31).map(|p| 1u64 << p).filter(|&s| s <= largest) {
        option(&format!("{} per buffer", bytes(size)), &format!("bytes:{size}"));
    }
    // A CPU adapter (SwiftShader) takes seconds per dispatch at 256 MiB: the suite would take over an hour.
    if gpu.info.is_cpu_adapter() && query("size").is_none() && CPU_ADAPTER_BYTES <= largest {
        let value = format!("bytes:{CPU_ADAPTER_BYTES}");
        let picked = select.query_selector(&format!("option[value='{value}']")).ok().flatten();
        if let Some(picked) = picked {
            picked
                .set_text_content(Some(&format!("{} per buffer (picked for a CPU adapter)", bytes(CPU_ADAPTER_BYTES))));
            select.set_value(&value);
        }
    }
    if let Some(samples) = query("samples") {
        by_id::<HtmlInputElement>("samples").set_value(&samples);
    }
    // A CPU adapter's samples are far noisier than a GPU's: sampling for ±1 % would only reach the cap.
    let precision = query("precision").or(gpu.info.is_cpu_adapter().then(|| "0".to_string()));
    if let Some(precision) = precision {
        by_id::<HtmlInputElement>("precision").set_value(&precision);
    }
    dom::set_hidden("controls", false);
    set_busy(false, false);
    show_expected(&gpu.info);
    let device = gpu.info.clone();
    // A ticked kernel, a size or a sample count changes what a run takes.
    dom::on("controls", "change", move |_| show_expected(&device));

    dom::on("run", "click", |_| state::dispatch(Action::Run));
    dom::on("tune", "click", |_| state::dispatch(Action::Tune));
    dom::on("cancel", "click", |_| {
        state::with(|app| app.cancel = true);
        dom::set_text("progress-text", "Cancelling after the configuration in progress…");
    });
}

/// The problem size picked for a CPU adapter: past a CPU's last-level cache, a sixteenth of the default.
const CPU_ADAPTER_BYTES: u64 = 16 << 20;

fn bytes(n: u64) -> String {
    match n {
        n if n >= 1 << 30 => format!("{} GiB", n >> 30),
        n if n >= 1 << 20 => format!("{} MiB", n >> 20),
        n => format!("{} KiB", n >> 10),
    }
}

/// Ticks exactly these kernels in the picker.
fn tick(kernels: &[Kernel]) {
    let boxes = dom::document().query_selector_all("input.kernel-choice").expect("valid selector");
    for input in (0..boxes.length()).filter_map(|i| boxes.item(i)?.dyn_into::<HtmlInputElement>().ok()) {
        let label = input.value();
        input.set_checked(kernels.iter().any(|k| k.id.is_labelled(&label)));
    }
}

fn selected_kernels() -> Vec<Kernel> {
    let chosen = dom::document().query_selector_all("input.kernel-choice:checked").expect("valid selector");
    let every = kernels::all();
    (0..chosen.length())
        .filter_map(|i| chosen.item(i)?.dyn_into::<HtmlInputElement>().ok())
        .filter_map(|input| {
            let label = input.value();
            every.iter().find(|k| k.id.is_labelled(&label)).copied()
        })
        .collect()
}

/// The plan the controls describe, or `None` (with a message) when no kernel is picked.
pub fn plan() -> Option<Plan> {
    let Some(plan) = planned() else {
        dom::show_message("warning", "Pick at least one kernel to run.");
        return None;
    };
    dom::set_hidden("message", true);
    Some(plan)
}

/// Names what Run runs (on its button and the picker's summary), and says beside it how many
/// configurations the controls make on `device` and how long they should take.
pub fn show_expected(device: &DeviceInfo) {
    let picked = selected_kernels();
    let suite = kernels::select(kernels::DEFAULT_SUITE).expect("the default suite names known kernels");
    let (run, summary) = match picked.len() {
        0 => ("Run".to_string(), "Kernels: none picked".to_string()),
        n if n == suite.len() && suite.iter().all(|k| picked.contains(k)) => {
            ("Run the default suite".to_string(), format!("Kernels: the default suite ({})", suite.len()))
        }
        1 => ("Run 1 kernel".to_string(), format!("Kernels: {}", picked[0].id.label())),
        n => (format!("Run {n} kernels"), format!("Kernels: {n} picked")),
    };
    dom::set_text("run", &run);
    dom::set_text("kernel-summary", &summary);
    let select: HtmlSelectElement = by_id("size");
    let size = select.selected_options().item(0).and_then(|o| o.text_content()).unwrap_or_default();
    let samples = by_id::<HtmlInputElement>("samples").value();
    let sampling = match precision() {
        p if p > 0.0 => format!("{samples}–{} samples per configuration, until ±{} %", max_samples(), p * 100.0),
        _ => format!("{samples} samples per configuration"),
    };
    dom::set_text("settings-summary", &format!("Settings: {size}; {sampling}"));
    let earlier = storage::pace_on(&device.name());
    let host_probe_ms = state::with(|app| app.host_probe_ms);
    let plan = planned();
    let text = match &plan {
        Some(plan) => {
            let configurations = plan.configurations(&device.limits);
            let class = estimate::class(Some(&dom::user_agent()), device);
            let seconds = estimate::of_planned(&configurations, &class, earlier, host_probe_ms);
            let basis = if earlier.is_some() { "at this device's last run's pace" } else { "expected" };
            format!("{} configurations, {} {basis}", configurations.len(), estimate::about(seconds))
        }
        None => "No kernel picked".to_string(),
    };
    dom::set_text("expected-duration", &text);
    // Where the estimate has taken the host's speed into account, it says so on hover; scripts that read the
    // estimate wait for it.
    let host = match host_probe_ms.filter(|_| earlier.is_none() && plan.is_some()) {
        Some(ms) => format!("At this host's speed: a fixed piece of CPU work took it {ms:.1} ms"),
        None => String::new(),
    };
    by_id::<Element>("expected-duration").set_attribute("title", &host).ok();
}

/// The precision the settings ask for, a fraction (0: keep exactly the samples asked for).
fn precision() -> f64 {
    // Read by the browser (NaN where empty): core's float parser would add its tables to the page.
    let percent = by_id::<HtmlInputElement>("precision").value_as_number();
    if percent.is_nan() { 0.0 } else { percent.clamp(0.0, 50.0) / 100.0 }
}

fn max_samples() -> u32 {
    MeasureOptions::default().max_samples
}

/// The plan the controls describe, if they pick a kernel.
fn planned() -> Option<Plan> {
    let kernels = selected_kernels();
    if kernels.is_empty() {
        return None;
    }
    let size = match by_id::<HtmlSelectElement>("size").value().split_once(':') {
        Some(("units", n)) => n.parse().map_or(ProblemSize::Default, ProblemSize::Units),
        Some(("bytes", n)) => n.parse().map_or(ProblemSize::Default, ProblemSize::BytesPerBuffer),
        _ => ProblemSize::Default,
    };
    let samples = by_id::<HtmlInputElement>("samples").value().parse::<u32>().unwrap_or(10).clamp(1, 100);
    let numbers = |name| query(name).map(|s| s.split(',').filter_map(|n| n.trim().parse().ok()).collect());
    // The browser applies its own checks to every shader; wgpu's cannot be dropped there (`Plan::new` keeps
    // the default ones).
    let mut plan = Plan::new(kernels);
    plan.problem_size = size;
    plan.shapes = numbers("wg").map_or(Shapes::Family, Shapes::Sizes);
    plan.parameter_values = numbers("values");
    plan.measure.samples = samples;
    plan.measure.precision = precision();
    Some(plan)
}

/// Disables what must not start while the GPU is busy (or after it was lost), and enables Cancel.
pub fn set_busy(busy: bool, lost: bool) {
    by_id::<HtmlButtonElement>("run").set_disabled(busy || lost);
    by_id::<HtmlButtonElement>("tune").set_disabled(busy || lost);
    by_id::<HtmlButtonElement>("cancel").set_disabled(!busy);
    if busy {
        dom::set_hidden("progress", false);
    }
}
