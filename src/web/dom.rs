//! Small helpers for building the page. Every string from a device or a result goes in as text, never HTML.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element, HtmlElement};

use crate::result::LongTasks;

pub fn document() -> Document {
    web_sys::window().and_then(|w| w.document()).expect("the page has a document")
}

/// The element with `id`; the page's skeleton (index.html and `app::build`) guarantees it exists.
pub fn by_id<T: JsCast>(id: &str) -> T {
    element_by_id(id).dyn_into::<T>().unwrap_or_else(|_| panic!("#{id} has an unexpected element type"))
}

/// `by_id`'s search, made once rather than once per element type (the page's download).
fn element_by_id(id: &str) -> Element {
    document().get_element_by_id(id).unwrap_or_else(|| panic!("#{id} is missing from the page"))
}

/// A new element with a class (may be empty) and text content.
pub fn element(tag: &str, class: &str, text: &str) -> Element {
    let el = document().create_element(tag).expect("valid tag");
    if !class.is_empty() {
        el.set_class_name(class);
    }
    if !text.is_empty() {
        el.set_text_content(Some(text));
    }
    el
}

/// Appends a child element and returns it.
pub fn append(parent: &Element, tag: &str, class: &str, text: &str) -> Element {
    let child = element(tag, class, text);
    parent.append_child(&child).expect("append");
    child
}

/// A titled card with `id` that stays hidden until the page has something to show in it.
pub fn hidden_card(root: &Element, id: &str, title: &str) -> Element {
    let card = append(root, "section", "card", "");
    card.set_id(id);
    card.set_attribute("hidden", "").ok();
    append(&card, "h2", "", title);
    card
}

/// Where a copied link is also shown as text (for browsers that keep the clipboard closed), and the line
/// that says whether the copy worked: the field `{id}` and the paragraph `{id}-status`, hidden until used.
pub fn link_output(parent: &Element, id: &str, label: &str) {
    let link = append(parent, "input", "share-link", "");
    link.set_id(id);
    for (name, value) in [("readonly", ""), ("hidden", ""), ("aria-label", label)] {
        link.set_attribute(name, value).ok();
    }
    append(parent, "p", "share-status", "").set_id(&format!("{id}-status"));
}

pub fn set_hidden(id: &str, hidden: bool) {
    by_id::<HtmlElement>(id).set_hidden(hidden);
}

pub fn set_text(id: &str, text: &str) {
    by_id::<Element>(id).set_text_content(Some(text));
}

/// Runs `handler` on every `event` of the element with `id`, for the life of the page.
pub fn on(id: &str, event: &str, handler: impl FnMut(web_sys::Event) + 'static) {
    listen_boxed(&element_by_id(id), event, Box::new(handler));
}

/// Runs `handler` on every `event` of `element`, for the life of the page.
pub fn listen(element: &Element, event: &str, handler: impl FnMut(web_sys::Event) + 'static) {
    listen_boxed(element, event, Box::new(handler));
}

/// `listen`, made once rather than once per handler (the page's download).
fn listen_boxed(element: &Element, event: &str, handler: Box<dyn FnMut(web_sys::Event)>) {
    let closure = Closure::wrap(handler);
    element.add_event_listener_with_callback(event, closure.as_ref().unchecked_ref()).expect("listener");
    closure.forget();
}

/// Runs `task` on the page's event loop: every task through one instance of the spawner (the page's
/// download).
pub fn spawn(task: impl std::future::Future<Output = ()> + 'static) {
    let task: std::pin::Pin<Box<dyn std::future::Future<Output = ()>>> = Box::pin(task);
    wasm_bindgen_futures::spawn_local(task);
}

/// The elements under `scope` that match a CSS selector, in document order.
pub fn select_all(scope: &Element, selector: &str) -> Vec<Element> {
    let Ok(list) = scope.query_selector_all(selector) else { return Vec::new() };
    (0..list.length()).filter_map(|i| list.item(i)?.dyn_into().ok()).collect()
}

/// A "what is this?" fold saying what a family measures: `text` where the page holds it (a user's kernel's),
/// else its `families/NAME.md`, fetched from beside the page the first time the fold opens (the built-in
/// families' texts stay out of the page's download: `kernel::family_text`).
pub fn about_fold(parent: &Element, family: &str, text: &str) {
    let fold = append(parent, "details", "about", "");
    append(&fold, "summary", "", "what is this?");
    let paragraph = append(&fold, "p", "", text);
    if !text.is_empty() {
        return;
    }
    let url = format!("families/{family}.md");
    let asked = std::rc::Rc::new(std::cell::Cell::new(false));
    listen(&fold, "toggle", move |_| {
        if asked.replace(true) {
            return;
        }
        let (paragraph, url, asked) = (paragraph.clone(), url.clone(), asked.clone());
        spawn(async move {
            let text = match fetch_text(&url, "GET", None).await {
                Ok((200, text)) => text,
                failed => {
                    asked.set(false); // opening the fold again asks again
                    let why = match failed {
                        Ok((status, _)) => format!("the page's server answered {status} for {url}"),
                        Err(why) => why,
                    };
                    format!("This text could not be loaded ({why}); close and open this again to retry.")
                }
            };
            paragraph.set_text_content(Some(&text));
        });
    });
}

/// A paragraph `id` that says how something went, which screen readers announce as it changes.
pub fn status_line(parent: &Element, id: &str) -> Element {
    let line = append(parent, "p", id, "");
    line.set_id(id);
    line.set_attribute("role", "status").ok();
    line
}

/// A definition-list row: term and value, both as text.
pub fn fact(list: &Element, term: &str, value: &str) {
    append(list, "dt", "", term);
    append(list, "dd", "", value);
}

/// Fetches `url` (relative to the page) with `method` and, where given, a JSON body: the answer's status and
/// text, or why there was none (no network, no server).
pub async fn fetch_text(url: &str, method: &str, json_body: Option<&str>) -> Result<(u16, String), String> {
    use wasm_bindgen_futures::JsFuture;
    let shown = |e: JsValue| e.as_string().unwrap_or_else(|| format!("{e:?}"));
    let window = web_sys::window().ok_or("no window")?;
    let init = web_sys::RequestInit::new();
    init.set_method(method);
    if let Some(body) = json_body {
        init.set_body(&JsValue::from_str(body));
        let headers = web_sys::Headers::new().map_err(shown)?;
        headers.set("content-type", "application/json").map_err(shown)?;
        init.set_headers(&headers);
    }
    let response = JsFuture::from(window.fetch_with_str_and_init(url, &init)).await.map_err(shown)?;
    let response: web_sys::Response = response.dyn_into().map_err(shown)?;
    let text = JsFuture::from(response.text().map_err(shown)?).await.map_err(shown)?;
    Ok((response.status(), text.as_string().unwrap_or_default()))
}

/// Offers `text` as a file download.
pub fn download(filename: &str, mime: &str, text: &str) -> Result<(), JsValue> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let link: web_sys::HtmlAnchorElement = element("a", "", "").dyn_into()?;
    link.set_href(&url);
    link.set_download(filename);
    link.click();
    web_sys::Url::revoke_object_url(&url)
}

/// Shows a message above everything (`kind`: "error" or "warning"), and hides the loading line.
pub fn show_message(kind: &str, text: &str) {
    let message: Element = by_id("message");
    message.set_class_name(&format!("message {kind}"));
    message.set_text_content(Some(text));
    set_hidden("message", false);
    set_hidden("loading", true);
}

/// A value of the page's query string: ?kernels=triad,dot&size=1048576&samples=5&wg=64,256, and for
/// scripts, values of the kernels' numeric parameters: &values=1,8; &log=debug for where the time goes
pub fn query(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    params.get(name)
}

/// The browser's user agent, empty where it gives none.
pub fn user_agent() -> String {
    web_sys::window().and_then(|w| w.navigator().user_agent().ok()).unwrap_or_default()
}

/// This page's address without its query or fragment: where a share link points.
pub fn page_address() -> String {
    let location = web_sys::window().expect("a window").location();
    format!("{}{}", location.origin().unwrap_or_default(), location.pathname().unwrap_or_default())
}

/// Waits until the browser has painted what the page built so far: its next animation frame, then a task
/// after it. (A hidden tab paints nothing, so what waits here waits until the tab is shown.)
pub async fn after_paint() {
    let frame = js_sys::Promise::new(&mut |resolve, _| {
        let asked = web_sys::window().and_then(|window| window.request_animation_frame(&resolve).ok());
        if asked.is_none() {
            resolve.call0(&JsValue::NULL).ok();
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(frame).await;
    crate::host::yield_now().await;
}

/// Shows `link` in the field `field_id` (made by `link_output`) and puts it in the clipboard, saying
/// whether that worked; `what` names what the link opens.
pub async fn copy_link(link: String, field_id: &str, what: &str) {
    let field: web_sys::HtmlInputElement = by_id(field_id);
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
    set_text(&format!("{field_id}-status"), &status);
}

/// Moves the progress bar (under the controls) to `done` of `total` and says what is going on.
pub fn set_progress(done: usize, total: usize, text: &str) {
    let bar: web_sys::HtmlProgressElement = by_id("progress-bar");
    bar.set_max(total as f64);
    bar.set_value(done as f64);
    set_text("progress-text", text);
}

/// Milliseconds since the page opened.
pub fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or(0.0)
}

/// Watches the page's main thread for long tasks (over 50 ms) while it lives, through the browser's
/// `longtask` performance entries.
pub struct LongTaskWatch {
    observer: web_sys::PerformanceObserver,
    seen: std::rc::Rc<std::cell::RefCell<LongTasks>>,
    _callback: Closure<dyn FnMut(web_sys::PerformanceObserverEntryList)>,
}

impl LongTaskWatch {
    /// Starts watching; `None` where the browser does not report long tasks.
    pub fn start() -> Option<Self> {
        let seen = std::rc::Rc::new(std::cell::RefCell::new(LongTasks::default()));
        let into = seen.clone();
        let callback = Closure::<dyn FnMut(web_sys::PerformanceObserverEntryList)>::new(
            move |entries: web_sys::PerformanceObserverEntryList| {
                count_long_tasks(&mut into.borrow_mut(), &entries.get_entries());
            },
        );
        // A browser that does not know the entry type ignores it: ask first, so that "none seen" means none.
        let supported = js_sys::Reflect::get(&js_sys::global(), &"PerformanceObserver".into())
            .and_then(|class| js_sys::Reflect::get(&class, &"supportedEntryTypes".into()))
            .ok()
            .and_then(|types| types.dyn_into::<js_sys::Array>().ok())
            .is_some_and(|types| types.includes(&"longtask".into(), 0));
        if !supported {
            return None;
        }
        let observer = web_sys::PerformanceObserver::new(callback.as_ref().unchecked_ref()).ok()?;
        observer.observe(&web_sys::PerformanceObserverInit::new(&js_sys::Array::of1(&"longtask".into())));
        Some(Self { observer, seen, _callback: callback })
    }

    /// Stops watching and says what it saw, including entries not yet delivered.
    pub fn finish(self) -> LongTasks {
        count_long_tasks(&mut self.seen.borrow_mut(), &self.observer.take_records());
        self.observer.disconnect();
        self.seen.borrow().clone()
    }
}

fn count_long_tasks(seen: &mut LongTasks, entries: &js_sys::Array) {
    for entry in entries.iter() {
        seen.count += 1;
        seen.longest_ms = seen.longest_ms.max(entry.unchecked_into::<web_sys::PerformanceEntry>().duration());
    }
}
