//! The results gallery, where the page is served by one (`server/`): publishing a run, after showing
//! exactly what will be sent and asking; a published result opened from its address; device classes to
//! browse, each with its results, its median to compare a run with and the workgroup sizes its results
//! agree on; those sizes for this browser's own device before it runs anything. The gallery's controls stay
//! hidden on a page served without it (any static host).

use serde_json::Value;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlInputElement};

use super::dom::{self, append, by_id, hidden_card};
use super::state::{self, Action};
use super::storage;
use crate::gallery::{self, DeviceClass, Preset};
use crate::result::{RunResult, format_gbps};

/// The field of a published result's address: `#published=ID`.
pub const PUBLISHED_KEY: &str = "published";

pub fn build(root: &Element) {
    build_publish(root);
    build_browse(root);
}

fn build_publish(root: &Element) {
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
    dom::status_line(&card, "publish-status");
    let link = append(&card, "a", "", "");
    link.set_id("publish-address");
    link.set_attribute("hidden", "").ok();

    dom::on("publish-cancel", "click", |_| {
        state::with(|app| app.publishing = None);
        dom::set_hidden("publish", true);
    });
    dom::on("publish-send", "click", |_| {
        if let Some(result) = state::with(|app| app.publishing.clone()) {
            dom::spawn(send(result));
        }
    });
}

fn build_browse(root: &Element) {
    let card = hidden_card(root, "gallery", "Results gallery");
    card.set_class_name("card needs-gallery");
    append(
        &card,
        "p",
        "about",
        "Results people published from their devices. Find a device to list its results, compare your run with \
         its median, and read the workgroup sizes its results agree on.",
    );
    let devices = ("gallery-find", "gallery-search", "find a device", "Find");
    search_form(&card, devices, "a device, backend or browser: H100, vulkan, Chrome");
    dom::status_line(&card, "gallery-status");
    let devices = append(&card, "table", "results", "");
    devices.set_id("gallery-devices");
    head(&devices, &["device", "backend", "runtime", "results", "copy GB/s (median)", "FMA GFLOP/s (median)", ""]);
    append(&devices, "tbody", "", "");

    let device = append(&card, "section", "gallery-device", "");
    device.set_id("gallery-device");
    device.set_attribute("hidden", "").ok();
    append(&device, "h3", "", "").set_id("gallery-device-title");
    let buttons = append(&device, "div", "buttons", "");
    append(&buttons, "button", "primary", "Compare with its median").set_id("gallery-compare");
    dom::status_line(&device, "gallery-device-status");
    let results = append(&device, "table", "results", "");
    results.set_id("gallery-results");
    head(&results, &["published", "label", "configurations", "copy GB/s", "FMA GFLOP/s", ""]);
    append(&results, "tbody", "", "");
    append(&device, "h4", "", "Recommended workgroup sizes");
    append(&device, "div", "", "").set_id("gallery-presets");

    // One kernel on every device: what a kernel's author reads back once others ran the link they sent.
    append(&card, "h3", "", "A kernel on every device");
    let kernel = ("gallery-kernel-find", "gallery-kernel", "a kernel", "Show");
    search_form(&card, kernel, "kernel/variant: triad/vec4, or your kernel as its results name it");
    dom::status_line(&card, "gallery-kernel-status");
    let classes = append(&card, "table", "results", "");
    classes.set_id("gallery-kernel-classes");
    head(&classes, &["device class", "at", "best configuration", "won in", "gain over 64"]);
    append(&classes, "tbody", "", "");
    dom::on("gallery-kernel-find", "submit", |event| {
        event.prevent_default();
        let kernel: HtmlInputElement = by_id("gallery-kernel");
        dom::spawn(show_kernel(kernel.value().trim().to_string()));
    });

    dom::on("gallery-find", "submit", |event| {
        event.prevent_default();
        let search: HtmlInputElement = by_id("gallery-search");
        dom::spawn(list_devices(search.value()));
    });
    dom::on("gallery-devices", "click", |event| {
        if let Some(key) = clicked(&event, "data-key") {
            dom::spawn(show_device(key));
        }
    });
    dom::on("gallery-results", "click", |event| {
        if let Some(id) = clicked(&event, "data-id") {
            dom::spawn(open_published(id));
        }
    });
    dom::on("gallery-compare", "click", |_| {
        if let Some(key) = state::with(|app| app.gallery_device.clone()) {
            dom::spawn(compare_with_median(key));
        }
    });
}

/// The card that shows, before anything runs, the workgroup sizes published results agree on for this
/// browser's own device (hidden until the gallery answers).
pub fn build_recommendations(root: &Element) {
    let card = hidden_card(root, "recommended", "Recommended workgroup sizes for this device");
    let about = append(&card, "p", "about", "");
    about.set_id("recommended-about");
    append(&card, "div", "", "").set_id("recommended-presets");
}

fn head(table: &Element, columns: &[&str]) {
    let row = append(&append(table, "thead", "", ""), "tr", "", "");
    for column in columns {
        append(&row, "th", "", column);
    }
}

/// The value of `attribute` on the button an event came from.
fn clicked(event: &web_sys::Event, attribute: &str) -> Option<String> {
    let target = event.target()?.dyn_into::<Element>().ok()?;
    target.closest("button").ok()??.get_attribute(attribute)
}

/// The gallery's answer to a GET of `url`: its text, or what went wrong in words (the gallery's own
/// A search field and its button in a form of `parent`: (the form's id, the field's id, what the field is
/// for, the button's text), and what to write in it.
fn search_form(parent: &Element, (form, field, label, button): (&str, &str, &str, &str), placeholder: &str) {
    let find = append(parent, "form", "buttons", "");
    find.set_id(form);
    find.set_attribute("role", "search").ok();
    let input = append(&find, "input", "gallery-search", "");
    input.set_id(field);
    for (name, value) in [("type", "search"), ("placeholder", placeholder), ("aria-label", label)] {
        input.set_attribute(name, value).ok();
    }
    append(&find, "button", "", button).set_attribute("type", "submit").ok();
}

/// `{"error": ...}` where it gave one).
async fn get(url: &str) -> Result<String, String> {
    match dom::fetch_text(url, "GET", None).await {
        Ok((200, text)) => Ok(text),
        Ok((status, text)) => {
            let error = serde_json::from_str::<Value>(&text).ok().and_then(|v| v["error"].as_str().map(str::to_string));
            Err(error.unwrap_or_else(|| format!("the gallery answered {status}")))
        }
        Err(why) => Err(format!("the gallery could not be reached ({why})")),
    }
}

async fn get_json(url: &str) -> Result<Value, String> {
    let text = get(url).await?;
    serde_json::from_str(&text).map_err(|e| format!("the gallery's answer could not be read: {e}"))
}

/// Every device class's best configuration of one kernel, as the gallery's results agree on it.
async fn show_kernel(kernel: String) {
    let body: Element =
        by_id::<Element>("gallery-kernel-classes").query_selector("tbody").ok().flatten().expect("a body");
    body.set_inner_html("");
    dom::set_text("gallery-kernel-status", "Asking the gallery…");
    let answer = match get_json(&format!("api/kernel/presets?kernel={}", encoded(&kernel))).await {
        Ok(answer) => answer,
        Err(why) => return dom::set_text("gallery-kernel-status", &why),
    };
    let classes = answer["classes"].as_array().cloned().unwrap_or_default();
    for class in &classes {
        let Some(preset) = preset(&class["preset"]) else { continue };
        preset_row(&body, class["key"].as_str().unwrap_or_default(), &preset);
    }
    let more = if answer["truncated"] == true { " (the first of more)" } else { "" };
    let status =
        format!("{kernel}: {} device class{}{more}", classes.len(), if classes.len() == 1 { "" } else { "es" });
    dom::set_text("gallery-kernel-status", &status);
}

/// `key` as a query value.
fn encoded(key: &str) -> String {
    String::from(js_sys::encode_uri_component(key))
}

/// A figure, or a dash where a result has none.
fn figure(value: &Value) -> String {
    value.as_f64().map(format_gbps).unwrap_or_else(|| "–".into())
}

/// Lists the device classes whose name contains `search` (every class for an empty one).
async fn list_devices(search: String) {
    dom::set_text("gallery-status", "Looking…");
    let answer = get_json(&format!("api/devices?search={}", encoded(search.trim()))).await;
    let body = by_id::<Element>("gallery-devices").query_selector("tbody").ok().flatten().expect("a body");
    body.set_inner_html("");
    let devices = match answer {
        Ok(answer) => answer["devices"].as_array().cloned().unwrap_or_default(),
        Err(why) => return dom::set_text("gallery-status", &format!("The gallery could not list devices: {why}")),
    };
    for device in &devices {
        let row = append(&body, "tr", "", "");
        for field in ["adapter", "backend", "runtime"] {
            append(&row, "td", "", device[field].as_str().unwrap_or_default());
        }
        append(&row, "td", "", &device["results"].to_string());
        append(&row, "td", "", &figure(&device["copy_gbps"]));
        append(&row, "td", "", &figure(&device["fma_gflops"]));
        let show = append(&append(&row, "td", "", ""), "button", "", "Show");
        show.set_attribute("data-key", device["key"].as_str().unwrap_or_default()).ok();
        show.set_attribute("aria-label", &format!("show {}", device["key"].as_str().unwrap_or_default())).ok();
    }
    let status = match (devices.len(), search.trim()) {
        (0, "") => "No results have been published yet: publish yours after a run.".to_string(),
        (0, search) => format!("No device matches “{search}”."),
        (1, _) => "1 device.".to_string(),
        (n, _) => format!("{n} devices."),
    };
    // A GPU whose browser withholds its name is known by what it exposes: said where one is listed.
    let unnamed = devices.iter().any(|d| d["adapter"].as_str().is_some_and(|a| a.starts_with(crate::gpu::UNNAMED_GPU)));
    let status = match unnamed {
        true => format!(
            "{status} An “unnamed GPU” is one whose name the browser withholds (Firefox does): its results are \
             kept together by what the browser does say of it (its ids, limits, features and subgroup sizes), \
             of which the # is a digest."
        ),
        false => status,
    };
    dom::set_text("gallery-status", &status);
}

/// A device class's page: its results, newest first, each to open; its presets; its median to compare with.
async fn show_device(key: String) {
    state::with(|app| app.gallery_device = Some(key.clone()));
    dom::set_text("gallery-device-title", &key);
    dom::set_text("gallery-device-status", "");
    dom::set_hidden("gallery-device", false);
    let body = by_id::<Element>("gallery-results").query_selector("tbody").ok().flatten().expect("a body");
    body.set_inner_html("");
    match get_json(&format!("api/device/results?key={}", encoded(&key))).await {
        Ok(answer) => {
            for listed in answer["results"].as_array().into_iter().flatten() {
                let row = append(&body, "tr", "", "");
                append(&row, "td", "", listed["published"].as_str().unwrap_or_default());
                append(&row, "td", "", listed["label"].as_str().unwrap_or_default());
                append(&row, "td", "", &listed["configurations"].to_string());
                append(&row, "td", "", &figure(&listed["copy_gbps"]));
                append(&row, "td", "", &figure(&listed["fma_gflops"]));
                let open = append(&append(&row, "td", "", ""), "button", "", "Open");
                open.set_attribute("data-id", listed["id"].as_str().unwrap_or_default()).ok();
            }
        }
        Err(why) => dom::set_text("gallery-device-status", &format!("Its results could not be listed: {why}")),
    }
    let presets: Element = by_id("gallery-presets");
    match get_json(&format!("api/device/presets?key={}", encoded(&key))).await {
        Ok(answer) => show_presets(&presets, &answer),
        Err(why) => presets.set_text_content(Some(&format!("No presets: {why}"))),
    }
    by_id::<Element>("gallery-device").scroll_into_view();
}

/// Puts the last run here (where there is one) and the device class's median in the comparison.
async fn compare_with_median(key: String) {
    dom::set_text("gallery-device-status", "Fetching its median…");
    let median = get(&format!("api/device/median?key={}", encoded(&key))).await;
    match median.and_then(|text| crate::analysis::read_json(&text).map_err(|e| e.to_string())) {
        Ok(median) => {
            dom::set_text("gallery-device-status", "");
            if let Some(last) = state::with(|app| app.last.clone()) {
                state::dispatch(Action::Compare(last));
            }
            state::dispatch(Action::Compare(median));
        }
        Err(why) => dom::set_text("gallery-device-status", &format!("Its median could not be fetched: {why}")),
    }
}

/// A preset as the gallery's answers hold it, read field by field as the rest of its answers are: serde's
/// reading of a `Value` into a struct, for this one type, cost the page 2.1 KB gzipped.
fn preset(value: &Value) -> Option<Preset> {
    let count = |field: &str| value[field].as_u64().and_then(|n| u32::try_from(n).ok());
    Some(Preset {
        kernel: value["kernel"].as_str()?.to_string(),
        parameter: value["parameter"].as_str()?.to_string(),
        shape: value["shape"].as_str()?.to_string(),
        results: count("results")?,
        wins: count("wins")?,
        median_gain_over_64: value["median_gain_over_64"].as_f64(),
    })
}

/// A device class's presets as a table, from the gallery's answer `{results, presets}`.
fn show_presets(parent: &Element, answer: &Value) {
    parent.set_inner_html("");
    let presets: Vec<Preset> = answer["presets"].as_array().into_iter().flatten().filter_map(preset).collect();
    if presets.is_empty() {
        append(parent, "p", "", "Its results name no best workgroup size yet.");
        return;
    }
    append(
        parent,
        "p",
        "about",
        "Each kernel's best workgroup shape as this device's results agree on it: how many of the results that \
         ran the kernel it won, and the median gain, where it won, over the best shape of 64 invocations (64 or \
         8×8).",
    );
    let table = append(parent, "table", "results presets", "");
    head(&table, &["kernel", "parameter", "best shape", "won in", "gain over 64"]);
    let body = append(&table, "tbody", "", "");
    for preset in &presets {
        preset_row(&body, &preset.kernel, preset);
    }
}

/// A preset's row of a table: `first` (its kernel, or its device class), its parameter, its best shape, the
/// results it won in and its gain over 64 invocations.
fn preset_row(body: &Element, first: &str, preset: &Preset) {
    let row = append(body, "tr", "", "");
    let won = format!("{} of {}", preset.wins, preset.results);
    let gain = preset.median_gain_over_64.map_or_else(|| "–".to_string(), |g| format!("{g:.2}×"));
    for cell in [first, &preset.parameter, &preset.shape, &won, &gain] {
        append(&row, "td", "", cell);
    }
}

/// Shows the presets the gallery learned for this browser's device, or that it has none from it yet.
pub async fn recommend() {
    let Some(gpu) = state::with(|app| app.gpu.clone()) else { return };
    let key = DeviceClass::new(&gpu.info, &super::adapter::environment(&gpu)).key();
    let about = match get_json(&format!("api/device/presets?key={}", encoded(&key))).await {
        Ok(answer) => {
            show_presets(&by_id("recommended-presets"), &answer);
            let results = answer["results"].as_u64().unwrap_or(0);
            let plural = if results == 1 { "" } else { "s" };
            format!("From {results} result{plural} published from {key}. A run here measures them again.")
        }
        Err(_) => format!(
            "No one has published results from {key} yet: run, then Publish, and the gallery learns from yours."
        ),
    };
    dom::set_text("recommended-about", &about);
    dom::set_hidden("recommended", false);
}

/// Asks the page's server whether it is a wgsweep gallery; if so, shows every control that needs one (class
/// `needs-gallery`) and lists its devices. A static host answers with its page or a 404: no gallery.
pub async fn detect() -> bool {
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
        dom::spawn(list_devices(String::new()));
    }
    is_gallery
}

/// Shows what publishing `result` would send, and waits for Send or Cancel.
pub fn offer(result: &RunResult) {
    // A user's kernel, once published, is asked after on every device by its name.
    if let Some(r) = result.results.iter().find(|r| r.size_and_tunables().is_some()) {
        by_id::<HtmlInputElement>("gallery-kernel").set_value(&r.label());
    }
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
            let note = match storage::mark_published(&storage::id(&result), &result, kept).await {
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
            // The gallery knows one result more: its devices and this device's presets may have changed.
            list_devices(String::new()).await;
            recommend().await;
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
    let id = js_sys::decode_uri_component(&id).map(String::from).unwrap_or(id);
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
        let message = format!("This gallery address is damaged: a result's id is letters and digits, not “{id}”.");
        return dom::show_message("error", &message);
    }
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
