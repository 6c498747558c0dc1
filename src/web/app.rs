//! Wires the page: builds the views in page order, opens the GPU, opens a link's result, and carries out
//! the actions views ask of one another. Only this module knows every view.

use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;
use web_sys::Element;

use super::dom::{self, append, by_id};
use super::state::{self, Action};
use super::{
    adapter, chart, compare, controls, device, gallery, history, opened, run, storage, summary, tuning, your_kernel,
};
use crate::{estimate, host, share};

pub async fn main() {
    build_page().await;
    state::handle_with(handle);
    history::show();
    open_shared_link();
    dom::spawn(probe_host());
    // The gallery answers within milliseconds; the GPU may take a second.
    let (is_gallery, gpu) = futures_util::future::join(gallery::detect(), adapter::open_gpu()).await;
    match gpu {
        Ok((gpu, browser_features)) => {
            let gpu = Rc::new(gpu);
            state::with(|app| {
                app.gpu = Some(gpu.clone());
                app.browser_features = browser_features.clone();
            });
            device::show(&gpu, &browser_features);
            controls::show(&gpu);
            host::yield_now().await;
            your_kernel::show(&gpu);
            dom::set_hidden("loading", true);
            if is_gallery {
                dom::spawn(gallery::recommend());
            }
        }
        Err(message) => dom::show_message("error", &message),
    }
    chart::warm_up();
}

/// Probes the host for the estimates (`estimate::probe`, a few hundred milliseconds) while the GPU opens,
/// without holding up the device card: then says the estimate again, at this host's speed.
async fn probe_host() {
    let ms = estimate::probe::host_ms().await;
    let gpu = state::with(|app| {
        app.host_probe_ms = Some(ms);
        app.gpu.clone().filter(|_| !app.busy)
    });
    if let Some(gpu) = gpu {
        controls::show_expected(&gpu.info);
    }
}

/// Builds the views in page order, with a turn for the page after the first screen's: on a slow machine the
/// whole page is more than one short task.
async fn build_page() {
    let root: Element = by_id("app");
    append(&root, "p", "loading", "Looking for WebGPU…").set_id("loading");
    let message = append(&root, "section", "message", "");
    message.set_id("message");
    message.set_attribute("hidden", "").ok();
    message.set_attribute("role", "alert").ok();
    // A shared link's result or comparison first, where there is one; then the device and Run, which a
    // new visitor needs on the first screen; then what this browser kept.
    opened::build(&root);
    compare::build(&root);
    device::build(&root);
    controls::build(&root);
    host::yield_now().await;
    your_kernel::build(&root);
    gallery::build_recommendations(&root);
    tuning::build(&root);
    summary::build(&root);
    run::build(&root);
    gallery::build(&root);
    history::build(&root);
    opened::build_file_picker(&root);
}

fn handle(action: Action) {
    match action {
        Action::Open { result, title } => opened::show(Rc::new(result), &title),
        Action::Compare(result) => compare::add(result),
        Action::Keep { id, result, payload } => dom::spawn(async move { history::keep(&id, &result, payload).await }),
        Action::Run => start(Task::Run, None),
        Action::Tune => start(Task::Tune, None),
        Action::GoOn => {
            if let Some((plan, earlier)) = state::with(|app| app.resumable.take()) {
                start(Task::GoOn(Box::new(earlier)), Some(plan));
            }
        }
        Action::RunPlan(plan) => start(Task::Run, Some(plan)),
        Action::TunePlan(plan) => start(Task::Tune, Some(plan)),
        Action::Peaks(text) => device::show_peaks(&text),
        Action::Summary(result) => summary::show(&result),
        Action::Publish(result) => gallery::offer(&result),
        Action::HistoryChanged => history::show(),
    }
}

enum Task {
    Run,
    Tune,
    /// The rest of a run whose device was lost.
    GoOn(Box<crate::result::RunResult>),
}

/// Starts a run or a tuning of `plan` (else the controls' plan), unless one is going on or the GPU is gone.
fn start(task: Task, plan: Option<crate::plan::Plan>) {
    let Some(gpu) = state::with(|app| if app.busy { None } else { app.gpu.clone() }) else { return };
    let Some(plan) = plan.or_else(controls::plan) else { return };
    if let Err(why) = plan.count(&gpu.info.limits) {
        dom::show_message("error", &format!("This cannot run: {why}."));
        return;
    }
    set_busy(&gpu, true);
    dom::spawn(async move {
        match task {
            Task::Run => {
                run::run(&gpu, plan, None).await;
                controls::show_expected(&gpu.info); // the next run's estimate now has this one's pace
            }
            Task::GoOn(earlier) => run::run(&gpu, plan, Some(*earlier)).await,
            Task::Tune => tuning::tune(&gpu, plan).await,
        }
        let gpu = match gpu.lost_reason() {
            Some(_) => reopen_gpu().await.unwrap_or(gpu),
            None => gpu,
        };
        set_busy(&gpu, false);
    });
}

/// A fresh device after the last was lost, so that Run works again without a reload; `None`, with a
/// message, where the browser gives none.
async fn reopen_gpu() -> Option<Rc<crate::gpu::Gpu>> {
    match adapter::open_gpu().await {
        Ok((gpu, browser_features)) => {
            let gpu = Rc::new(gpu);
            state::with(|app| {
                app.gpu = Some(gpu.clone());
                app.browser_features = browser_features;
            });
            Some(gpu)
        }
        Err(message) => {
            dom::show_message("error", &format!("The GPU device was lost and no fresh one could be opened: {message}"));
            None
        }
    }
}

fn set_busy(gpu: &crate::gpu::Gpu, busy: bool) {
    state::with(|app| {
        app.busy = busy;
        if busy {
            app.cancel = false;
        }
    });
    controls::set_busy(busy, gpu.lost_reason().is_some());
    your_kernel::set_busy(busy, gpu.lost_reason().is_some());
}

/// Shows the result in the page's `#run=` fragment, the comparison in its `#compare=` fragment, or the
/// gallery's result in its `#published=` fragment, if there is one; a link that cannot be read gets a
/// message that says why, and the page goes on as if it had none. A link pasted over this page's address
/// (only the fragment changes) opens in place of the result or message a link showed before: no reload,
/// so a run going on and the comparison are kept, and the page need not start again.
fn open_shared_link() {
    let Some(window) = web_sys::window() else { return };
    let changed = Closure::<dyn FnMut()>::new(|| {
        dom::set_hidden("message", true);
        dom::set_hidden("shared", true);
        open_fragment();
    });
    window.set_onhashchange(Some(changed.as_ref().unchecked_ref()));
    changed.forget();
    open_fragment();
}

/// Opens what the page's fragment holds (see `open_shared_link`).
fn open_fragment() {
    let Some(Ok(hash)) = web_sys::window().map(|window| window.location().hash()) else { return };
    if let Some(id) = hash.strip_prefix(&format!("#{}=", gallery::PUBLISHED_KEY)) {
        dom::spawn(gallery::open_published(id.to_string()));
        return;
    }
    if hash.contains(&format!("{}=", share::KERNEL_KEY)) {
        dom::spawn(async move {
            match share::decode_kernel(&hash).await {
                Ok(kernel) => your_kernel::open(kernel),
                Err(error) => dom::show_message("error", &format!("The shared kernel could not be opened: {error}")),
            }
        });
        return;
    }
    // Reading, showing and keeping a large result are tasks of their own, with turns for input between.
    dom::spawn(async move {
        if hash.contains(&format!("{}=", share::COMPARE_KEY)) {
            match share::decode_comparison(&hash).await {
                Ok(results) => {
                    host::yield_now().await;
                    // Shared with the comparison, not copied (eight at the bound took 0.2 s to copy), and
                    // kept once shown: keeping encodes each result again, which would hold the tables back.
                    let results = Rc::new(results);
                    compare::open(results.clone()).await;
                    for result in results.iter() {
                        history::keep(&storage::id(result), result, None).await;
                    }
                }
                Err(error) => {
                    dom::show_message("error", &format!("The shared comparison could not be opened: {error}"))
                }
            }
        } else if hash.contains(&format!("{}=", share::FRAGMENT_KEY)) {
            match share::decode(&hash).await {
                Ok(result) => {
                    host::yield_now().await;
                    let result = Rc::new(result);
                    opened::show(result.clone(), "Shared result");
                    host::yield_now().await;
                    // Kept as the link's payload: the result is not encoded, nor copied, again.
                    history::keep(&storage::id(&result), &result, share::run_payload(&hash).map(String::from)).await;
                }
                Err(error) => dom::show_message("error", &format!("The shared result could not be opened: {error}")),
            }
        }
    });
}
