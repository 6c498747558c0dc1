//! The results gallery, where the page is served by one (`server/`): publishing a run, after showing
//! exactly what will be sent and asking; a published result opened from its address. The gallery's
//! controls stay hidden on a page served without it (any static host).

use wasm_bindgen::JsCast;
use web_sys::Element;

use super::dom::{self, append, by_id, hidden_card};
use super::state::{self, Action};
use super::storage;
use crate::gallery;
use crate::result::RunResult;

/// The field of a published result's address: `#published=ID`.
pub const PUBLISHED_KEY: &str = "published";

pub fn build(root: &Element) {
    let card = hidden_card(root, "publish", "Publish to the results gallery");
    append(
        &card,
        "p",
        "about",
        "This is exactly what will be sent: the result without its raw samples (the device, the browser or \
         system, your label and every figure). Anyone can open it in the gallery; the deletion token comes \
         back to this browser's history.",
    );
    let preview = append(&card, "pre", "publish-preview", "");
    preview.set_id("publish-preview");
    // It scrolls: reachable by keyboard too.
    preview.set_attribute("tabindex", "0").ok();
    preview.set_attribute("aria-label", "The result that will be sent").ok();
    let buttons = append(&card, "div", "buttons", "");
    append(&buttons, "button", "primary", "Send to the gallery").set_id("publish-send");
    append(&buttons, "button", "", "Cancel").set_id("publish-cancel");
    let status = append(&card, "p", "publish-status", "");
    status.set_id("publish-status");
    status.set_attribute("role", "status").ok();
    let link = append(&card, "a", "", "");
    link.set_id("publish-address");
    link.set_attribute("hidden", "").ok();

    dom::on("publish-cancel", "click", |_| {
        state::with(|app| app.publishing = None);
        dom::set_hidden("publish", true);
    });
    dom::on("publish-send", "click", |_| {
        if let Some(result) = state::with(|app| app.publishing.clone()) {
            wasm_bindgen_futures::spawn_local(send(result));
        }
    });
}

/// Asks the page's server whether it is a wgsweep gallery; if so, shows every control that needs one (class
/// `needs-gallery`). A static host answers with its page or a 404: no gallery.
pub async fn detect() {
    let is_gallery = match dom::fetch_text("api/health", "GET", None).await {
        Ok((200, text)) => serde_json::from_str::<serde_json::Value>(&text).is_ok_and(|v| v["gallery"] == "wgsweep"),
        _ => false,
    };
    if is_gallery {
        state::with(|app| app.gallery = true);
        for element in dom::select_all(&dom::document().document_element().expect("a root"), ".needs-gallery") {
            if let Some(element) = element.dyn_ref::<web_sys::HtmlElement>() {
                element.set_hidden(false);
            }
        }
    }
}

/// Shows what publishing `result` would send, and waits for Send or Cancel.
pub fn offer(result: &RunResult) {
    let published = gallery::for_publishing(result);
    dom::set_text("publish-preview", &published.to_json());
    dom::set_text("publish-status", "");
    dom::set_hidden("publish-address", true);
    by_id::<web_sys::HtmlButtonElement>("publish-send").set_disabled(false);
    state::with(|app| app.publishing = Some(result.clone()));
    dom::set_hidden("publish", false);
    by_id::<Element>("publish").scroll_into_view();
}

/// Sends the result, then says where it is (and keeps its deletion token in the history) or why not.
async fn send(result: RunResult) {
    let send_button: web_sys::HtmlButtonElement = by_id("publish-send");
    send_button.set_disabled(true);
    dom::set_text("publish-status", "Sending…");
    let body = gallery::for_publishing(&result).to_json();
    let answer = dom::fetch_text("api/results", "POST", Some(&body)).await;
    let parsed = answer.map(|(status, text)| (status, serde_json::from_str::<serde_json::Value>(&text).ok()));
    match parsed {
        Ok((200 | 201, Some(answer))) => {
            let address = answer["address"].as_str().unwrap_or_default().to_string();
            let token = answer["token"].as_str().map(str::to_string);
            let kept = storage::Published { address: address.clone(), token: token.clone() };
            let note = match storage::mark_published(&storage::id(&result), &result, kept) {
                Ok(()) if token.is_some() => "its deletion token is kept in this browser's history",
                Ok(()) => "it was published before: the gallery keeps one copy",
                Err(_) => "this browser could not keep its deletion token",
            };
            dom::set_text("publish-status", &format!("Published; {note}: "));
            let link: web_sys::HtmlAnchorElement = by_id("publish-address");
            link.set_href(&address);
            link.set_text_content(Some(&format!("{}{address}", origin())));
            link.set_hidden(false);
            state::with(|app| app.publishing = None);
            state::dispatch(Action::HistoryChanged);
        }
        Ok((status, answer)) => {
            let why = answer.and_then(|a| a["error"].as_str().map(str::to_string));
            let why = why.unwrap_or_else(|| format!("the gallery answered {status}"));
            dom::set_text("publish-status", &format!("Not published: {why}"));
            send_button.set_disabled(false);
        }
        Err(why) => {
            dom::set_text("publish-status", &format!("Not published: the gallery could not be reached ({why})"));
            send_button.set_disabled(false);
        }
    }
}

fn origin() -> String {
    web_sys::window().and_then(|w| w.location().origin().ok()).unwrap_or_default()
}

/// Opens the published result `id` from the gallery, or says why it cannot.
pub async fn open_published(id: String) {
    let id: String = id.chars().filter(char::is_ascii_alphanumeric).collect();
    match dom::fetch_text(&format!("api/results/{id}"), "GET", None).await {
        Ok((200, text)) => match crate::analysis::read_json(&text) {
            Ok(result) => {
                state::dispatch(Action::Open { result, title: format!("Published result {id}") });
            }
            Err(error) => dom::show_message("error", &format!("The published result {id} could not be read: {error}")),
        },
        Ok((404, _)) => dom::show_message("error", &format!("The gallery has no published result {id} (deleted?)")),
        Ok((status, _)) => dom::show_message("error", &format!("The gallery answered {status} for result {id}")),
        Err(why) => dom::show_message("error", &format!("The gallery could not be reached: {why}")),
    }
}
