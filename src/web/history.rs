//! The history card: the runs kept in this browser (`storage`), newest first, with an editable label,
//! Open, Compare and Delete.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlInputElement};

use super::dom::{self, append, by_id, hidden_card};
use super::state::{self, Action};
use super::storage;

pub fn build(root: &Element) {
    let history = hidden_card(root, "history", "History");
    let table = append(&history, "table", "results", "");
    let head = append(&append(&table, "thead", "", ""), "tr", "", "");
    for column in ["started", "device", "configurations", "label", ""] {
        append(&head, "th", "", column);
    }
    append(&table, "tbody", "", "").set_id("history-list");
    listen();
}

/// Lists the kept runs, newest first; every string goes in as text.
pub fn show() {
    let list: Element = by_id("history-list");
    // A label being edited while a run saves itself would lose its focus: the next save lists it.
    let editing = dom::document().active_element().is_some_and(|e| e.class_name() == "history-label");
    if editing {
        return;
    }
    list.set_inner_html("");
    let entries = storage::load();
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
        label.set_attribute("maxlength", &crate::gallery::MAX_LABEL_CHARS.to_string()).ok();
        label.set_attribute("data-id", &entry.id).ok();
        let actions = append(&row, "td", "", "");
        for (action, text) in [("open", "Open"), ("compare", "Compare"), ("delete", "Delete")] {
            let button = append(&actions, "button", "", text);
            button.set_attribute("data-action", action).ok();
            button.set_attribute("data-id", &entry.id).ok();
        }
        if let Some(published) = &entry.published {
            let link = append(&actions, "a", "published", "in the gallery");
            link.set_attribute("href", &published.address).ok();
            if let Some(token) = &published.token {
                link.set_attribute("title", &format!("deletion token: {token}")).ok();
            }
        }
    }
    dom::set_hidden("history", entries.is_empty());
}

/// Keeps `result` in the history as run `id` (as `payload`, where it came as a link's) and lists it,
/// saying so if the browser will not.
pub async fn keep(id: &str, result: &crate::result::RunResult, payload: Option<String>) {
    match storage::keep(id, result, payload).await {
        Ok(()) => show(),
        Err(error) => dom::show_message("warning", &format!("This run could not be kept in the history: {error}.")),
    }
}

/// One listener for the whole list: open, compare, delete, relabel.
fn listen() {
    let target = |event: &web_sys::Event| event.target().and_then(|t| t.dyn_into::<Element>().ok());
    dom::on("history-list", "click", move |event| {
        let Some(element) = target(&event) else { return };
        let (Some(action), Some(id)) = (element.get_attribute("data-action"), element.get_attribute("data-id")) else {
            return;
        };
        dom::spawn(async move {
            let outcome = match action.as_str() {
                "open" => storage::open(&id)
                    .await
                    .map(|result| state::dispatch(Action::Open { result, title: "From the history".into() })),
                "compare" => storage::open(&id).await.map(|result| state::dispatch(Action::Compare(result))),
                _ => storage::remove(&id).map(|()| show()),
            };
            if let Err(error) = outcome {
                dom::show_message("error", &format!("The history could not do that: {error}"));
            }
        });
    });
    dom::on("history-list", "change", move |event| {
        let Some(input) = target(&event).and_then(|e| e.dyn_into::<HtmlInputElement>().ok()) else { return };
        let Some(id) = input.get_attribute("data-id") else { return };
        match storage::relabel(&id, &input.value()) {
            Ok(()) => show(), // saves made while the label was edited show now
            Err(error) => dom::show_message("error", &format!("The label could not be kept: {error}")),
        }
    });
}
