//! What the page does: find WebGPU, show the device, let the user pick and run kernels, show the results.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;
use web_sys::{Element, HtmlButtonElement, HtmlInputElement, HtmlProgressElement, HtmlSelectElement};

use super::adapter::{self, cross_origin_isolated, environment};
use super::chart::Charts;
use super::dom::{self, append, by_id, fact, hidden_card};
use super::{compare, history, tuning};
use crate::gpu::Gpu;
use crate::kernel::{KernelId, ShaderChecks};
use crate::measure::MeasureOptions;
use crate::result::{ConfigResult, RunResult};
use crate::runner::{self, Event, Flow, Plan, ProblemSize, Shapes};
use crate::tune::TuneEvent;
use crate::{fill, kernels, share, sweep};

struct App {
    gpu: Gpu,
    /// The browser's own feature names for the adapter (wgpu drops some, e.g. subgroups).
    browser_features: Vec<String>,
    cancel: Rc<Cell<bool>>,
    running: Cell<bool>,
    charts: RefCell<Charts>,
    last: RefCell<Option<RunResult>>,
}

pub async fn main() {
    build_page();
    listen_for_files();
    listen_to_history();
    show_history();
    open_shared_link();
    match adapter::open_gpu().await {
        Ok((gpu, browser_features)) => {
            let app = App {
                gpu,
                browser_features,
                cancel: Rc::new(Cell::new(false)),
                running: Cell::new(false),
                charts: RefCell::new(Charts::new(by_id("charts"))),
                last: RefCell::new(None),
            };
            let app = Rc::new(app);
            show_device(&app);
            show_controls(&app);
            dom::set_hidden("loading", true);
        }
        Err(message) => show_message("error", &message),
    }
}

fn show_message(kind: &str, text: &str) {
    let message: Element = by_id("message");
    message.set_class_name(&format!("message {kind}"));
    message.set_text_content(Some(text));
    dom::set_hidden("message", false);
    dom::set_hidden("loading", true);
}

fn build_page() {
    let root: Element = by_id("app");
    append(&root, "p", "loading", "Looking for WebGPU…").set_id("loading");
    let message = append(&root, "section", "message", "");
    message.set_id("message");
    message.set_attribute("hidden", "").ok();
    message.set_attribute("role", "alert").ok();

    // Opening a result file: a picker, or a file dropped anywhere on the page.
    let open = append(&root, "label", "open-file", "Open a result file (JSON from the page or `wgsweep run --json`) ");
    let picker = append(&open, "input", "", "");
    picker.set_id("open-file");
    picker.set_attribute("type", "file").ok();
    picker.set_attribute("accept", ".json,application/json").ok();

    // A result opened from a share link or a file: shown without running anything.
    let shared = hidden_card(&root, "shared", "Shared result");
    shared.first_element_child().expect("the card's title").set_id("shared-title");
    append(&shared, "dl", "facts", "").set_id("shared-facts");
    append(&shared, "ul", "notes", "").set_id("shared-notes");
    let actions = append(&shared, "div", "buttons", "");
    append(&actions, "a", "button", "Run the same on my device").set_id("run-again");
    append(&actions, "button", "", "Compare").set_id("compare-opened");
    append(&shared, "div", "charts", "").set_id("shared-charts");
    results_table(&shared, "shared-body");
    dom::on("compare-opened", "click", |_| {
        if let Some(result) = OPENED.with(|o| o.borrow().clone()) {
            compare::add(result);
        }
    });

    compare::build(&root);

    // Runs made in this browser, kept across reloads.
    let history = hidden_card(&root, "history", "History");
    let table = append(&history, "table", "results", "");
    let head = append(&append(&table, "thead", "", ""), "tr", "", "");
    for column in ["started", "device", "configurations", "label", ""] {
        append(&head, "th", "", column);
    }
    append(&table, "tbody", "", "").set_id("history-list");

    let device = hidden_card(&root, "device", "Device");
    append(&device, "dl", "facts", "").set_id("device-facts");

    let controls = hidden_card(&root, "controls", "Run");
    append(&controls, "div", "kernel-picker", "").set_id("kernel-picker");
    let settings = append(&controls, "div", "settings", "");
    let size_label = append(&settings, "label", "", "Problem size ");
    append(&size_label, "select", "", "").set_id("size");
    let samples_label = append(&settings, "label", "", "Samples per configuration ");
    let samples = append(&samples_label, "input", "", "");
    samples.set_id("samples");
    for (name, value) in [("type", "number"), ("min", "1"), ("max", "100"), ("value", "10")] {
        samples.set_attribute(name, value).ok();
    }
    let buttons = append(&controls, "div", "buttons", "");
    append(&buttons, "button", "primary", "Run").set_id("run");
    let tune = append(&buttons, "button", "", "Auto-tune");
    tune.set_id("tune");
    tune.set_attribute("title", "Find the best workgroup shape of each picked kernel without measuring every one").ok();
    let cancel = append(&buttons, "button", "", "Cancel");
    cancel.set_id("cancel");
    cancel.set_attribute("disabled", "").ok();
    let progress = append(&controls, "div", "progress", "");
    progress.set_id("progress");
    progress.set_attribute("hidden", "").ok();
    append(&progress, "progress", "", "").set_id("progress-bar");
    append(&progress, "span", "", "").set_id("progress-text");

    tuning::build(&root);

    let results = hidden_card(&root, "results", "Results");
    append(&results, "ul", "notes", "").set_id("notes");
    append(&results, "div", "charts", "").set_id("charts");
    let buttons = append(&results, "div", "buttons", "");
    append(&buttons, "button", "", "Copy link").set_id("copy-link");
    append(&buttons, "button", "", "Compare").set_id("compare-run");
    append(&buttons, "button", "", "Download JSON").set_id("download-json");
    append(&buttons, "button", "", "Download CSV").set_id("download-csv");
    dom::link_output(&results, "share-link", "share link");
    // A machine-readable copy of the last result, for scripts that drive the page.
    let json = append(&results, "script", "", "");
    json.set_id("result-json");
    json.set_attribute("type", "application/json").ok();
    results_table(&results, "results-body").set_id("results-table");
}

/// A results table inside `parent` whose body has the id `body_id`.
fn results_table(parent: &Element, body_id: &str) -> Element {
    let table = append(parent, "table", "results", "");
    let head = append(&append(&table, "thead", "", ""), "tr", "", "");
    let columns =
        ["kernel", "workgroup", "parameter", "median", "min", "GB/s", "GFLOP/s", "of peak", "CV", "samples", "status"];
    for column in columns {
        append(&head, "th", "", column);
    }
    append(&table, "tbody", "", "").set_id(body_id);
    table
}

thread_local! {
    /// The shared result's charts, kept for the life of the page.
    static SHARED_CHARTS: RefCell<Option<Charts>> = const { RefCell::new(None) };
    /// The result opened from a link, a file or the history, for Compare.
    static OPENED: RefCell<Option<RunResult>> = const { RefCell::new(None) };
}

/// Shows the result in the page's `#run=` fragment, or the comparison in its `#compare=` fragment, if
/// there is one; a link that cannot be read gets a message that says why, and the page goes on as if it
/// had none.
fn open_shared_link() {
    let Some(window) = web_sys::window() else { return };
    // A link pasted over this page's address changes only the fragment: open it as a new page.
    let reload = Closure::<dyn FnMut()>::new(|| {
        web_sys::window().map(|w| w.location().reload());
    });
    window.set_onhashchange(Some(reload.as_ref().unchecked_ref()));
    reload.forget();
    let Ok(hash) = window.location().hash() else { return };
    if hash.contains(&format!("{}=", share::COMPARE_KEY)) {
        match share::decode_comparison(&hash) {
            Ok(results) => {
                results.iter().for_each(keep_opened);
                compare::open(results);
            }
            Err(error) => show_message("error", &format!("The shared comparison could not be opened: {error}")),
        }
    } else if hash.contains(&format!("{}=", share::FRAGMENT_KEY)) {
        match share::decode(&hash) {
            Ok(result) => {
                keep_opened(&result);
                show_opened(&result, "Shared result");
            }
            Err(error) => show_message("error", &format!("The shared result could not be opened: {error}")),
        }
    }
}

/// Keeps a result opened from a link or a file in the history, once however often it is opened (a run
/// made here and opened from its own link is the same entry).
fn keep_opened(result: &RunResult) {
    keep_in_history(&history::id(result), result);
}

/// Lists the kept runs, newest first; every string goes in as text.
fn show_history() {
    let list: Element = by_id("history-list");
    // A label being edited while a run saves itself would lose its focus: the next save lists it.
    let editing = dom::document().active_element().is_some_and(|e| e.class_name() == "history-label");
    if editing {
        return;
    }
    list.set_inner_html("");
    let entries = history::load();
    for entry in entries.iter().rev() {
        let row = append(&list, "tr", "", "");
        append(&row, "td", "", &entry.created);
        append(&row, "td", "", &entry.device);
        let complete = if entry.complete { "" } else { " (incomplete)" };
        append(&row, "td", "", &format!("{}{complete}", entry.configurations));
        let label: HtmlInputElement =
            append(&append(&row, "td", "", ""), "input", "history-label", "").unchecked_into();
        label.set_value(&entry.label);
        label.set_attribute("placeholder", "add a label").ok();
        label.set_attribute("data-id", &entry.id).ok();
        let actions = append(&row, "td", "", "");
        for (action, text) in [("open", "Open"), ("compare", "Compare"), ("delete", "Delete")] {
            let button = append(&actions, "button", "", text);
            button.set_attribute("data-action", action).ok();
            button.set_attribute("data-id", &entry.id).ok();
        }
    }
    dom::set_hidden("history", entries.is_empty());
}

/// One listener for the whole list: open, delete, relabel.
fn listen_to_history() {
    let target = |event: &web_sys::Event| event.target().and_then(|t| t.dyn_into::<Element>().ok());
    dom::on("history-list", "click", move |event| {
        let Some(element) = target(&event) else { return };
        let (Some(action), Some(id)) = (element.get_attribute("data-action"), element.get_attribute("data-id")) else {
            return;
        };
        let outcome = match action.as_str() {
            "open" => history::open(&id).map(|result| show_opened(&result, "From the history")),
            "compare" => history::open(&id).map(compare::add),
            _ => history::remove(&id).map(|()| show_history()),
        };
        if let Err(error) = outcome {
            show_message("error", &format!("The history could not do that: {error}"));
        }
    });
    dom::on("history-list", "change", move |event| {
        let Some(input) = target(&event).and_then(|e| e.dyn_into::<HtmlInputElement>().ok()) else { return };
        let Some(id) = input.get_attribute("data-id") else { return };
        match history::relabel(&id, &input.value()) {
            Ok(()) => show_history(), // saves made while the label was edited show now
            Err(error) => show_message("error", &format!("The label could not be kept: {error}")),
        }
    });
}

/// Keeps `result` in the history as run `id`, saying so if the browser will not.
fn keep_in_history(id: &str, result: &RunResult) {
    match history::keep(id, result) {
        Ok(()) => show_history(),
        Err(error) => show_message("warning", &format!("This run could not be kept in the history: {error}.")),
    }
}

/// Opens result files picked or dropped on the page.
fn listen_for_files() {
    dom::on("open-file", "change", |_| {
        let picker: HtmlInputElement = by_id("open-file");
        if let Some(file) = picker.files().and_then(|files| files.get(0)) {
            wasm_bindgen_futures::spawn_local(open_file(file));
        }
    });
    let body = dom::document().body().expect("a body");
    let over = Closure::<dyn FnMut(web_sys::DragEvent)>::new(|event: web_sys::DragEvent| event.prevent_default());
    body.add_event_listener_with_callback("dragover", over.as_ref().unchecked_ref()).ok();
    over.forget();
    let drop = Closure::<dyn FnMut(web_sys::DragEvent)>::new(|event: web_sys::DragEvent| {
        event.prevent_default();
        let file = event.data_transfer().and_then(|data| data.files()).and_then(|files| files.get(0));
        if let Some(file) = file {
            wasm_bindgen_futures::spawn_local(open_file(file));
        }
    });
    body.add_event_listener_with_callback("drop", drop.as_ref().unchecked_ref()).ok();
    drop.forget();
}

/// Reads a result file and shows it, or says why it cannot.
async fn open_file(file: web_sys::File) {
    let name = file.name();
    let text = match wasm_bindgen_futures::JsFuture::from(file.text()).await {
        Ok(text) => text.as_string().unwrap_or_default(),
        Err(e) => return show_message("error", &format!("{name} could not be read: {e:?}")),
    };
    match RunResult::from_json(&text) {
        Ok(result) => {
            keep_opened(&result);
            show_opened(&result, &format!("Opened from {name}"));
        }
        Err(error) => show_message("error", &format!("{name} could not be opened: {error}")),
    }
}

/// Shows a result that was not run here (a share link, a file): its device, notes, table and charts, and a
/// link to run the same kernels on this device. Replaces what was shown before.
fn show_opened(result: &RunResult, title: &str) {
    dom::set_text("shared-title", title);
    for id in ["shared-facts", "shared-notes", "shared-body"] {
        by_id::<Element>(id).set_inner_html("");
    }
    let facts: Element = by_id("shared-facts");
    let device = &result.device;
    fact(&facts, "Adapter", &device.name());
    fact(&facts, "Backend", &format!("{} ({})", device.backend, result.environment.runtime));
    fact(&facts, "Platform", &result.environment.platform);
    fact(&facts, "Run", &format!("{} by {} {}", result.created, result.tool.name, result.tool.version));
    if !result.label.is_empty() {
        fact(&facts, "Label", &result.label);
    }
    fact(&facts, "Peaks", &result.peaks.summary().unwrap_or_else(|| "not measured in this run".into()));
    let configurations = result.results.len();
    let complete = if result.complete { "complete" } else { "incomplete: it holds what finished" };
    fact(&facts, "Configurations", &format!("{configurations} ({complete})"));
    let notes: Element = by_id("shared-notes");
    for note in &result.notes {
        append(&notes, "li", "", note);
    }
    let body: Element = by_id("shared-body");
    result.results.iter().for_each(|r| add_row(&body, r));
    let mut labels: Vec<String> = result.results.iter().map(ConfigResult::label).collect();
    labels.dedup();
    let again = format!("?kernels={}", String::from(js_sys::encode_uri_component(&labels.join(","))));
    by_id::<Element>("run-again").set_attribute("href", &again).ok();
    dom::set_hidden("shared", false);
    OPENED.with(|o| *o.borrow_mut() = Some(result.clone()));
    SHARED_CHARTS.with(|shared| {
        let mut shared = shared.borrow_mut();
        let charts = shared.get_or_insert_with(|| Charts::new(by_id("shared-charts")));
        charts.clear();
        if let Err(e) = charts.show(&result.results) {
            show_message("error", &format!("The result's charts could not be drawn: {e:?}"));
        }
    });
}

fn show_device(app: &App) {
    let info = &app.gpu.info;
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
    let has = |name: &str| app.browser_features.iter().any(|f| f == name);
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    fact(&facts, "timestamp-query", yes_no(has("timestamp-query")));
    fact(
        &facts,
        "subgroups",
        if has("subgroups") { "offered by the browser; wgpu cannot use it on the web yet" } else { "no" },
    );
    fact(&facts, "shader-f16", yes_no(has("shader-f16")));
    let timing = if app.gpu.timestamps {
        "GPU timestamps (Chrome quantizes them to 100 µs unless WebGPU developer features are on; samples last ≥ 2 ms)"
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
    let sizes: Vec<String> = sweep::power_of_two_sizes(l).iter().map(u32::to_string).collect();
    fact(&facts, "Workgroup sizes swept", &sizes.join(", "));
    fact(&facts, "Peaks (this run)", "not measured yet: run copy and fma for the roofline's ceilings");
    facts.last_element_child().expect("the fact just added").set_id("device-peaks");
    dom::set_hidden("device", false);
}

/// Initial control values from the query string: ?kernels=triad,dot&size=1048576&samples=5&wg=64,256, and
/// for scripts, values of the kernels' numeric parameters: &values=1,8
fn query(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    params.get(name)
}

fn show_controls(app: &Rc<App>) {
    let picker: Element = by_id("kernel-picker");
    let preselected = match query("kernels").map(|s| kernels::select(&s)) {
        Some(Ok(chosen)) => Some(chosen),
        Some(Err(error)) => {
            show_message(
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
    for family in kernels::FAMILIES {
        let group = append(&picker, "fieldset", "", "");
        append(&group, "legend", "", family.name());
        append(&group, "p", "about", family.about());
        for kernel in family.kernels() {
            let label = append(&group, "label", "kernel", "");
            let input: HtmlInputElement = append(&label, "input", "", "").dyn_into().expect("input");
            input.set_type("checkbox");
            input.set_value(&kernel.label());
            input.set_checked(chosen.contains(&kernel));
            input.set_class_name("kernel-choice");
            append(&label, "span", "", &kernel.label());
        }
    }

    for (id, pick) in [("tick-default", suite), ("tick-all", kernels::all()), ("tick-none", Vec::new())] {
        dom::on(id, "click", move |_| tick(&pick));
    }

    // Problem sizes as bytes per buffer, so one choice means the same footprint for every family; a link's
    // ?size= counts each family's own units.
    let select: HtmlSelectElement = by_id("size");
    let option = |text: &str, value: &str| append(&select, "option", "", text).set_attribute("value", value).ok();
    if let Some(units) = query("size").and_then(|s| s.parse::<u64>().ok()) {
        option(&format!("{units} units of each family (from the link)"), &format!("units:{units}"));
    }
    option("Each family's default (256 MiB per buffer where the device allows)", "default");
    let largest = app.gpu.info.limits.max_binding_bytes();
    for size in (20..=31).map(|p| 1u64 << p).filter(|&s| s <= largest) {
        option(&format!("{} per buffer", bytes(size)), &format!("bytes:{size}"));
    }
    if let Some(samples) = query("samples") {
        by_id::<HtmlInputElement>("samples").set_value(&samples);
    }
    dom::set_hidden("controls", false);

    let runner_app = app.clone();
    dom::on("run", "click", move |_| {
        if !runner_app.running.get() {
            wasm_bindgen_futures::spawn_local(run(runner_app.clone()));
        }
    });
    let tune_app = app.clone();
    dom::on("tune", "click", move |_| {
        if !tune_app.running.get() {
            wasm_bindgen_futures::spawn_local(tune(tune_app.clone()));
        }
    });
    let cancel_app = app.clone();
    dom::on("cancel", "click", move |_| {
        cancel_app.cancel.set(true);
        dom::set_text("progress-text", "Cancelling after the configuration in progress…");
    });
    let compare_app = app.clone();
    dom::on("compare-run", "click", move |_| {
        if let Some(result) = compare_app.last.borrow().as_ref() {
            compare::add(result.clone());
        }
    });
    let share_app = app.clone();
    dom::on("copy-link", "click", move |_| {
        if let Some(result) = share_app.last.borrow().as_ref() {
            let link = share::link(&page_address(), result);
            wasm_bindgen_futures::spawn_local(copy_link(link, "share-link", "this result"));
        }
    });
    offer_download(app, "download-csv", "csv", "text/csv", RunResult::to_csv);
    offer_download(app, "download-json", "json", "application/json", RunResult::to_json);
}

/// Makes the button `id` download the last result as `render` writes it.
fn offer_download(
    app: &Rc<App>,
    id: &str,
    extension: &'static str,
    mime: &'static str,
    render: fn(&RunResult) -> String,
) {
    let app = app.clone();
    dom::on(id, "click", move |_| {
        if let Some(result) = app.last.borrow().as_ref() {
            let name = format!("wgsweep-{}.{extension}", result.created.replace(':', "-"));
            if let Err(e) = dom::download(&name, mime, &render(result)) {
                show_message("error", &format!("The download failed: {e:?}"));
            }
        }
    });
}

/// This page's address without its query or fragment: where a share link points.
pub(super) fn page_address() -> String {
    let location = web_sys::window().expect("a window").location();
    format!("{}{}", location.origin().unwrap_or_default(), location.pathname().unwrap_or_default())
}

/// Shows `link` in the field `field_id` (made by `dom::link_output`) and puts it in the clipboard, saying
/// whether that worked; `what` names what the link opens.
pub(super) async fn copy_link(link: String, field_id: &str, what: &str) {
    let field: HtmlInputElement = by_id(field_id);
    field.set_value(&link);
    field.set_hidden(false);
    field.select();
    let size = format!("{:.1} KB", link.len() as f64 / 1000.0);
    let clipboard = web_sys::window().expect("a window").navigator().clipboard();
    let copied = wasm_bindgen_futures::JsFuture::from(clipboard.write_text(&link)).await;
    let status = match copied {
        Ok(_) => format!("Link copied ({size}): it opens {what}, without raw samples, anywhere."),
        Err(_) => format!("The browser kept the clipboard closed: copy the link above ({size})."),
    };
    dom::set_text(&format!("{field_id}-status"), &status);
}

fn bytes(n: u64) -> String {
    match n {
        n if n >= 1 << 30 => format!("{} GiB", n >> 30),
        n if n >= 1 << 20 => format!("{} MiB", n >> 20),
        n => format!("{} KiB", n >> 10),
    }
}

/// Ticks exactly these kernels in the picker.
fn tick(kernels: &[KernelId]) {
    let boxes = dom::document().query_selector_all("input.kernel-choice").expect("valid selector");
    for input in (0..boxes.length()).filter_map(|i| boxes.item(i)?.dyn_into::<HtmlInputElement>().ok()) {
        input.set_checked(kernels.iter().any(|k| k.label() == input.value()));
    }
}

fn selected_kernels() -> Vec<KernelId> {
    let chosen = dom::document().query_selector_all("input.kernel-choice:checked").expect("valid selector");
    (0..chosen.length())
        .filter_map(|i| chosen.item(i)?.dyn_into::<HtmlInputElement>().ok())
        .filter_map(|input| kernels::select(&input.value()).ok())
        .flatten()
        .collect()
}

/// How many configurations finish between saves of a running run to the history.
const HISTORY_EVERY: usize = 10;

/// The plan the controls describe, or `None` (with a message) when no kernel is picked.
fn plan_from_controls() -> Option<Plan> {
    let kernels = selected_kernels();
    if kernels.is_empty() {
        show_message("warning", "Pick at least one kernel to run.");
        return None;
    }
    dom::set_hidden("message", true);
    let size = match by_id::<HtmlSelectElement>("size").value().split_once(':') {
        Some(("units", n)) => n.parse().map_or(ProblemSize::Default, ProblemSize::Units),
        Some(("bytes", n)) => n.parse().map_or(ProblemSize::Default, ProblemSize::BytesPerBuffer),
        _ => ProblemSize::Default,
    };
    let samples = by_id::<HtmlInputElement>("samples").value().parse::<u32>().unwrap_or(10).clamp(1, 100);
    let numbers = |name| query(name).map(|s| s.split(',').filter_map(|n| n.trim().parse().ok()).collect());
    Some(Plan {
        kernels,
        problem_size: size,
        workgroups: numbers("wg").map_or(Shapes::Family, Shapes::Sizes),
        parameter_values: numbers("values"),
        // The browser applies its own checks to every shader; wgpu's cannot be dropped there.
        shader_checks: vec![ShaderChecks::Default],
        measure: MeasureOptions { samples, ..Default::default() },
        seed: fill::fresh_seed(),
    })
}

/// Disables what must not start while the GPU is busy (or after it was lost), and enables Cancel.
fn set_busy(app: &App, busy: bool) {
    app.running.set(busy);
    if busy {
        app.cancel.set(false);
    }
    let lost = app.gpu.lost_reason().is_some();
    by_id::<HtmlButtonElement>("run").set_disabled(busy || lost);
    by_id::<HtmlButtonElement>("tune").set_disabled(busy || lost);
    by_id::<HtmlButtonElement>("cancel").set_disabled(!busy);
    if busy {
        dom::set_hidden("progress", false);
    }
}

/// Auto-tunes the picked kernels and shows the best shape of each.
async fn tune(app: Rc<App>) {
    let Some(plan) = plan_from_controls() else { return };
    set_busy(&app, true);
    tuning::start();
    let started = now_ms();
    let cancel = app.cancel.clone();
    let outcome = crate::tune::tune(&app.gpu, &plan, &Default::default(), &environment(&app.gpu), |event| {
        match event {
            TuneEvent::Tuning { index, total, kernel } => {
                let bar: HtmlProgressElement = by_id("progress-bar");
                bar.set_max(total as f64);
                bar.set_value(index as f64);
                dom::set_text("progress-text", &format!("Tuning {} ({} of {total})…", kernel.label(), index + 1));
            }
            TuneEvent::Measuring { configuration } => {
                dom::set_text("progress-text", &format!("Tuning: trying {}", configuration.describe()));
            }
        }
        if cancel.get() { Flow::Stop } else { Flow::Continue }
    })
    .await;
    match outcome {
        Ok(tunings) => {
            tuning::show(&tunings);
            let what = if cancel.get() { "Stopped: the kernels tuned so far are shown" } else { "Tuned" };
            let text = format!("{what}: {} in {:.1} s.", tunings.len(), (now_ms() - started) / 1000.0);
            dom::set_text("progress-text", &text);
        }
        Err(error) => show_message("error", &format!("Auto-tuning stopped: {error}")),
    }
    if let Some(reason) = app.gpu.lost_reason() {
        show_message("error", &format!("The GPU device was lost ({reason}); reload the page to go on."));
    }
    set_busy(&app, false);
}

async fn run(app: Rc<App>) {
    let Some(plan) = plan_from_controls() else { return };
    set_busy(&app, true);
    dom::set_hidden("results", false);
    by_id::<Element>("results").remove_attribute("data-done").ok();
    by_id::<Element>("results-body").set_inner_html("");
    by_id::<Element>("notes").set_inner_html("");
    dom::set_hidden("share-link", true);
    dom::set_text("share-link-status", "");
    app.charts.borrow_mut().clear();

    let started = now_ms();
    let mut finished: Vec<ConfigResult> = Vec::new();
    // Kept in the history as it goes, so a closed tab or a lost device keeps what finished.
    let partial = RunResult {
        schema_version: crate::result::SCHEMA_VERSION,
        tool: crate::result::Tool::this(),
        created: crate::result::now_rfc3339(),
        label: String::new(),
        device: app.gpu.info.clone(),
        environment: environment(&app.gpu),
        settings: crate::result::Settings {
            seed: plan.seed,
            samples: plan.measure.samples,
            min_sample_ns: plan.measure.min_sample_ns,
        },
        results: Vec::new(),
        notes: vec!["kept while it ran: the run stopped before its end (the tab closed or the device was lost)".into()],
        complete: false,
        peaks: Default::default(),
    };
    let history_id = history::id(&partial);
    let cancel = app.cancel.clone();
    let mut result = runner::run(&app.gpu, &plan, environment(&app.gpu), |event| {
        match event {
            Event::Preparing { family, size, unit } => {
                dom::set_text("progress-text", &format!("Preparing {family}: {size} {unit}…"));
            }
            Event::Measuring { index, total, configuration } => {
                let bar: HtmlProgressElement = by_id("progress-bar");
                bar.set_max(total as f64);
                bar.set_value(index as f64);
                let left = time_left(now_ms() - started, index, total);
                let text = format!("{} — {} of {total}{left}", configuration.describe(), index + 1);
                dom::set_text("progress-text", &text);
            }
            Event::Finished { record, .. } => {
                add_row(&by_id("results-body"), record);
                finished.push(record.clone());
                if finished.len().is_multiple_of(HISTORY_EVERY) {
                    keep_in_history(&history_id, &RunResult { results: finished.clone(), ..partial.clone() });
                }
                if let Err(e) = app.charts.borrow_mut().show(&finished) {
                    log::warn!("chart: {e:?}");
                }
            }
        }
        if cancel.get() { Flow::Stop } else { Flow::Continue }
    })
    .await;

    // One start time for the run, so that its history entry and its link name the same run.
    result.created = partial.created.clone();
    // Suspect figures and shares of the peaks are known only now: the table shows them all.
    let body: Element = by_id("results-body");
    body.set_inner_html("");
    result.results.iter().for_each(|r| add_row(&body, r));
    if let Some(peaks) = result.peaks.summary() {
        dom::set_text("device-peaks", &peaks);
    }
    let notes: Element = by_id("notes");
    for note in &result.notes {
        append(&notes, "li", "", note);
    }
    if let Err(e) = app.charts.borrow_mut().show(&result.results) {
        show_message("error", &format!("The chart could not be drawn: {e:?}"));
    }
    let done = result.results.len();
    let summary = if result.complete {
        format!("Done: {done} configurations in {:.1} s.", (now_ms() - started) / 1000.0)
    } else {
        format!("Stopped after {done} configurations; those results are kept.")
    };
    dom::set_text("progress-text", &summary);
    if let Some(reason) = app.gpu.lost_reason() {
        show_message(
            "error",
            &format!(
                "The GPU device was lost ({reason}). The results that finished are kept; reload the page to run again."
            ),
        );
    }
    dom::set_text("result-json", &result.to_json());
    keep_in_history(&history_id, &result);
    *app.last.borrow_mut() = Some(result);
    by_id::<Element>("results").set_attribute("data-done", "").ok();
    set_busy(&app, false);
}

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or(0.0)
}

fn time_left(elapsed_ms: f64, done: usize, total: usize) -> String {
    if done == 0 {
        return String::new();
    }
    let left_s = elapsed_ms / done as f64 * (total - done) as f64 / 1000.0;
    if left_s >= 60.0 {
        format!(", about {} min {} s left", (left_s / 60.0) as u32, (left_s % 60.0) as u32)
    } else {
        format!(", about {} s left", left_s.ceil() as u32)
    }
}

fn add_row(body: &Element, r: &ConfigResult) {
    let row = append(body, "tr", "", "");
    row.set_class_name(match (&r.skipped, &r.error, &r.suspect) {
        (Some(_), _, _) => "skipped",
        (_, Some(_), _) => "failed",
        (_, _, Some(_)) => "suspect",
        _ => "valid",
    });
    let [median, min, gbps, gflops, peak, cv, samples] = r.figures();
    let (label, shape, parameter, status) = (r.label(), r.workgroup_text(), r.parameter_text(), r.status());
    for cell in [label, shape, parameter, median, min, gbps, gflops, peak, cv, samples, status] {
        append(&row, "td", "", &cell);
    }
}
