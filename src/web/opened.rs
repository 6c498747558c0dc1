//! A result that was not run here, opened from a share link, a file or the history: its device, notes,
//! table and charts, "Run the same on my device", and Compare. Result files open from a picker or by a
//! drop anywhere on the page.

use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;
use web_sys::{Element, HtmlInputElement};

use super::dom::{self, append, by_id, fact, hidden_card};
use super::family_results::{self, FamilyResults};
use super::state::{self, Action};
use super::storage;
use crate::analysis;
use crate::result::RunResult;

/// The file picker, inside `parent`.
pub fn build_file_picker(parent: &Element) {
    let open = append(parent, "label", "open-file", "Open a result file (JSON from the page or `wgsweep run --json`) ");
    let picker = append(&open, "input", "", "");
    picker.set_id("open-file");
    picker.set_attribute("type", "file").ok();
    picker.set_attribute("accept", ".json,application/json").ok();
    listen_for_files();
}

/// The (hidden) card, inside `root`.
pub fn build(root: &Element) {
    let shared = hidden_card(root, "shared", "Shared result");
    shared.first_element_child().expect("the card's title").set_id("shared-title");
    append(&shared, "dl", "facts", "").set_id("shared-facts");
    append(&shared, "ul", "notes", "").set_id("shared-notes");
    let actions = append(&shared, "div", "buttons", "");
    append(&actions, "a", "button", "Run the same on my device").set_id("run-again");
    append(&actions, "button", "", "Compare").set_id("compare-opened");
    let publish = append(&actions, "button", "needs-gallery", "Publish…");
    publish.set_id("publish-opened");
    publish.set_attribute("hidden", "").ok();
    family_results::build(&shared, "shared-families");
    dom::on("publish-opened", "click", |_| {
        if let Some(result) = state::with(|app| app.opened.clone()) {
            state::dispatch(Action::Publish(RunResult::clone(&result)));
        }
    });
    dom::on("compare-opened", "click", |_| {
        if let Some(result) = state::with(|app| app.opened.clone()) {
            state::dispatch(Action::Compare(RunResult::clone(&result)));
        }
    });
}

/// Keeps a result opened from a file in the history, once however often it is opened (a run made here
/// and opened from its own file is the same entry).
fn keep(result: &RunResult) {
    state::dispatch(Action::Keep { id: storage::id(result), result: result.clone(), payload: None });
}

/// Opens result files picked or dropped on the page.
fn listen_for_files() {
    dom::on("open-file", "change", |_| {
        let picker: HtmlInputElement = by_id("open-file");
        if let Some(file) = picker.files().and_then(|files| files.get(0)) {
            dom::spawn(open_file(file));
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
            dom::spawn(open_file(file));
        }
    });
    body.add_event_listener_with_callback("drop", drop.as_ref().unchecked_ref()).ok();
    drop.forget();
}

/// Reads a result file and shows it, or says why it cannot.
async fn open_file(file: web_sys::File) {
    let name = file.name();
    let most = crate::result::MAX_FILE_BYTES as f64;
    if file.size() > most {
        let message = format!("{name} takes {} bytes, more than the {most} a result file may", file.size());
        return dom::show_message("error", &message);
    }
    let text = match wasm_bindgen_futures::JsFuture::from(file.text()).await {
        Ok(text) => text.as_string().unwrap_or_default(),
        Err(e) => return dom::show_message("error", &format!("{name} could not be read: {e:?}")),
    };
    match analysis::read_json(&text) {
        Ok(result) => {
            keep(&result);
            show(Rc::new(result), &format!("Opened from {name}"));
        }
        Err(error) => dom::show_message("error", &format!("{name} could not be opened: {error}")),
    }
}

/// Shows a result that was not run here (a share link, a file): its device, notes, table and charts, and a
/// link to run the same kernels on this device. Replaces what was shown before. The result is shared with
/// the turns that show it, not copied (one at the bound took tens of milliseconds to copy).
pub fn show(result: Rc<RunResult>, title: &str) {
    dom::set_text("shared-title", title);
    for id in ["shared-facts", "shared-notes"] {
        by_id::<Element>(id).set_inner_html("");
    }
    let facts: Element = by_id("shared-facts");
    let device = &result.device;
    fact(&facts, "Adapter", &device.name());
    fact(&facts, "Engine", &result.environment.engine(&device.backend));
    fact(&facts, "Platform", &result.environment.platform);
    fact(&facts, "Run", &format!("{} by {} {}", result.created, result.tool.name, result.tool.version));
    if !result.label.is_empty() {
        fact(&facts, "Label", &result.label);
    }
    fact(&facts, "Peaks", &result.peaks.summary().unwrap_or_else(|| "not measured in this run".into()));
    if let Some(pace) = result.pace_text() {
        fact(&facts, "Time", &pace);
    }
    let configurations = result.results.len();
    let complete = if result.complete { "complete" } else { "incomplete: it holds what finished" };
    fact(&facts, "Configurations", &format!("{configurations} ({complete})"));
    let notes: Element = by_id("shared-notes");
    for note in &result.notes {
        append(&notes, "li", "", note);
    }
    // The same kernels again, where they are kernels wgsweep has (a crafted result may name thousands: the
    // count stops past what there are, and no label is made for a configuration of one already counted).
    let most = crate::kernels::all().len();
    let mut labels: Vec<String> = Vec::new();
    for r in &result.results {
        if labels.len() > most {
            break;
        }
        let of = |label: &String| {
            label.strip_prefix(r.kernel.as_str()).and_then(|rest| rest.strip_prefix('/')) == Some(r.variant.as_str())
        };
        if !labels.iter().any(of) {
            labels.push(r.label());
        }
    }
    let known = labels.len() <= most;
    if known {
        let again = format!("?kernels={}", String::from(js_sys::encode_uri_component(&labels.join(","))));
        by_id::<Element>("run-again").set_attribute("href", &again).ok();
    }
    dom::set_hidden("run-again", !known);
    dom::set_hidden("shared", false);
    let families = state::with(|app| {
        app.opened = Some(result.clone());
        app.opened_results.get_or_insert_with(|| FamilyResults::new("shared-families")).clone()
    });
    dom::spawn(async move { families.show_all(&result.results, &result.peaks).await });
}
