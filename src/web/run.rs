//! A run and its results card: progress while it goes, each family's charts and table as configurations
//! finish, then notes, Copy link, Compare and downloads. What finishes is kept in the history as it goes.

use web_sys::Element;

use super::adapter::environment;
use super::dom::{self, append, by_id, hidden_card};
use super::family_results::{self, FamilyResults};
use super::state::{self, Action};
use super::storage;
use crate::gpu::Gpu;
use crate::plan::Plan;
use crate::result::{ConfigResult, RunResult};
use crate::runner::{self, Event, Flow};
use crate::{analysis, host, kernels, share};

/// How many configurations finish between saves of a running run to the history.
const HISTORY_EVERY: usize = 10;
/// The least time between redraws of the running family's charts while a run goes: a chart redrawn for
/// every configuration would hold the page's thread for much of the run.
const CHARTS_EVERY_MS: f64 = 1000.0;

pub fn build(root: &Element) {
    let results = hidden_card(root, "results", "Results");
    append(&results, "p", "pace", "").set_id("pace");
    append(&results, "ul", "notes", "").set_id("notes");
    let buttons = append(&results, "div", "buttons", "");
    // After a lost device: the rest of the run on a fresh one.
    let go_on = append(&buttons, "button", "primary", "Go on");
    go_on.set_id("go-on");
    go_on.set_attribute("hidden", "").ok();
    append(&buttons, "button", "", "Copy link").set_id("copy-link");
    append(&buttons, "button", "", "Compare").set_id("compare-run");
    // Known devices to put beside this run, for a person with one machine: loaded only when picked.
    let known = append(&buttons, "select", "", "");
    known.set_id("compare-known");
    known.set_attribute("aria-label", "Compare with a known device").ok();
    append(&known, "option", "", "Compare with…").set_attribute("value", "").ok();
    for (index, device) in share::KNOWN_RESULTS.iter().enumerate() {
        append(&known, "option", "", device.name).set_attribute("value", &index.to_string()).ok();
    }
    // Shown where the page is served by a results gallery.
    let publish = append(&buttons, "button", "needs-gallery", "Publish…");
    publish.set_id("publish-run");
    publish.set_attribute("hidden", "").ok();
    append(&buttons, "button", "", "Download JSON").set_id("download-json");
    append(&buttons, "button", "", "Download CSV").set_id("download-csv");
    dom::link_output(&results, "share-link", "share link");
    // A machine-readable copy of the last result, for scripts that drive the page.
    let json = append(&results, "script", "", "");
    json.set_id("result-json");
    json.set_attribute("type", "application/json").ok();
    family_results::build(&results, "run-families");

    dom::on("go-on", "click", |_| state::dispatch(Action::GoOn));
    dom::on("compare-run", "click", |_| {
        if let Some(result) = state::with(|app| app.last.clone()) {
            state::dispatch(Action::Compare(result));
        }
    });
    dom::on("publish-run", "click", |_| {
        if let Some(result) = state::with(|app| app.last.clone()) {
            state::dispatch(Action::Publish(result));
        }
    });
    dom::on("compare-known", "change", |_| {
        let select: web_sys::HtmlSelectElement = by_id("compare-known");
        let picked = select.value().parse::<usize>().ok().and_then(|i| share::KNOWN_RESULTS.get(i));
        select.set_value("");
        let (Some(known), Some(run)) = (picked, state::with(|app| app.last.clone())) else { return };
        dom::spawn(async move {
            match load_known(known).await {
                Ok(result) => {
                    state::dispatch(Action::Compare(run));
                    state::dispatch(Action::Compare(result));
                }
                Err(why) => dom::show_message("error", &format!("{} could not be loaded: {why}", known.name)),
            }
        });
    });
    dom::on("copy-link", "click", |_| {
        if let Some(result) = state::with(|app| app.last.clone()) {
            dom::spawn(async move {
                let link = share::link(&dom::page_address(), &result).await;
                dom::copy_link(link, "share-link", "this result").await
            });
        }
    });
    offer_download("download-csv", "csv", "text/csv", RunResult::to_csv);
    offer_download("download-json", "json", "application/json", RunResult::to_json);
}

/// Fetches a known device's result, shipped beside the page, and opens it.
async fn load_known(known: &share::KnownResult) -> Result<RunResult, String> {
    let url = format!("known/{}", known.file);
    match dom::fetch_text(&url, "GET", None).await? {
        (200, text) => share::decode(&text).await.map_err(|e| e.to_string()),
        (status, _) => Err(format!("the page's server answered {status} for {url}")),
    }
}

/// Makes the button `id` download the last result as `render` writes it.
fn offer_download(id: &str, extension: &'static str, mime: &'static str, render: fn(&RunResult) -> String) {
    dom::on(id, "click", move |_| {
        let Some(result) = state::with(|app| app.last.clone()) else { return };
        let name = format!("wgsweep-{}.{extension}", result.created.replace(':', "-"));
        if let Err(e) = dom::download(&name, mime, &render(&result)) {
            dom::show_message("error", &format!("The download failed: {e:?}"));
        }
    });
}

/// Does `what` with the run's family results.
fn with_results<R>(what: impl FnOnce(&mut FamilyResults) -> R) -> R {
    state::with(|app| what(app.run_results.get_or_insert_with(|| FamilyResults::new("run-families"))))
}

/// Draws `family`'s headlines and charts of its rows among `results`.
fn show_family(results: &[ConfigResult], family: &str) {
    let rows: Vec<&ConfigResult> = results.iter().filter(|r| r.family == family).collect();
    if let Err(e) = with_results(|families| families.show_family(family, &rows)) {
        log::warn!("chart: {e:?}");
    }
}

/// What the page redraws after a configuration while a run goes: one at a time, each in the task of one
/// configuration's report, since their cost grows with the run (every family's charts and the summary, drawn
/// at once past a thousand configurations, took 50-84 ms a time in Chromium on an H200).
#[derive(Default)]
struct Redraws {
    /// A family whose last configuration has finished, its charts not yet drawn with it.
    family_done: Option<String>,
    /// The summary of every configuration so far, due once a family is done.
    summary: bool,
    /// When the running family's charts were last drawn (the page's clock).
    charts_drawn_ms: f64,
}

/// Runs `plan` on `gpu`, showing every configuration as it finishes; or, given the `earlier` part of a run
/// whose device was lost, goes on with it from the configuration after its last.
pub async fn run(gpu: &Gpu, plan: Plan, earlier: Option<RunResult>) {
    clear_results();
    let started = dom::now_ms();
    let from = earlier.as_ref().map_or(0, |e| e.results.len());
    let mut finished: Vec<ConfigResult> = earlier.as_ref().map(|e| e.results.clone()).unwrap_or_default();
    for record in &finished {
        with_results(|families| families.add_row(record));
    }
    // Kept in the history as it goes, so a closed tab or a lost device keeps what finished.
    let partial = RunResult {
        notes: vec!["kept while it ran: the run stopped before its end (the tab closed or the device was lost)".into()],
        ..earlier.clone().unwrap_or_else(|| runner::header(gpu, &plan, environment(gpu)))
    };
    let history_id = storage::id(&partial);
    state::dispatch(Action::Summary(partial.clone())); // nothing measured yet: no earlier run's answers
    let long_tasks = dom::LongTaskWatch::start();
    let mut redraws = Redraws { charts_drawn_ms: f64::MIN, ..Redraws::default() };
    // A test hook, off unless the address asks for it: the device is destroyed once this many
    // configurations have finished, as a driver reset or a hung kernel would lose it.
    let lose_device_after: Option<usize> = dom::query("lose-device-after").and_then(|n| n.parse().ok());
    let on_event = |event: Event| {
        match event {
            Event::Preparing { family, size, unit } => {
                dom::set_text("progress-text", &format!("Preparing {family}: {size} {unit}…"));
            }
            Event::Measuring { index, total, configuration } => {
                let left = time_left(dom::now_ms() - started, index - from, total - from);
                let text = format!("{} — {} of {total}{left}", kernels::describe(configuration), index + 1);
                dom::set_progress(index, total, &text);
            }
            Event::Finished { record, .. } => {
                with_results(|families| families.add_row(record));
                if let Some(last) = finished.last().filter(|last| last.family != record.family) {
                    redraws.family_done = Some(last.family.clone());
                }
                finished.push(record.clone());
                if lose_device_after == Some(finished.len()) {
                    gpu.device.destroy();
                }
                if finished.len().is_multiple_of(HISTORY_EVERY) {
                    let result = RunResult { results: finished.clone(), ..partial.clone() };
                    state::dispatch(Action::Keep { id: history_id.clone(), result, payload: None });
                }
                if let Some(family) = redraws.family_done.take() {
                    show_family(&finished, &family);
                    redraws.summary = true;
                } else if std::mem::take(&mut redraws.summary) {
                    let peaks = analysis::peaks(&finished);
                    state::dispatch(Action::Summary(RunResult { results: finished.clone(), peaks, ..partial.clone() }));
                } else if dom::now_ms() - redraws.charts_drawn_ms >= CHARTS_EVERY_MS {
                    show_family(&finished, &record.family);
                    redraws.charts_drawn_ms = dom::now_ms();
                }
            }
        }
        if state::with(|app| app.cancel) { Flow::Stop } else { Flow::Continue }
    };
    let mut result = match earlier {
        Some(earlier) => runner::go_on(gpu, &plan, earlier, on_event).await,
        None => runner::run(gpu, &plan, environment(gpu), on_event).await,
    };
    // One start time for the run, so that its history entry and its link name the same run.
    result.created = partial.created.clone();
    show_finished(gpu, plan, result, Finishing { started, history_id, long_tasks }).await;
}

/// Empties the results card for a new run.
fn clear_results() {
    dom::set_hidden("results", false);
    by_id::<Element>("results").remove_attribute("data-done").ok();
    by_id::<Element>("notes").set_inner_html("");
    dom::set_text("pace", "");
    dom::set_hidden("share-link", true);
    dom::set_text("share-link-status", "");
    with_results(|families| families.clear());
    dom::set_hidden("go-on", true);
    state::with(|app| app.resumable = None); // a new run leaves the last one's rest behind
}

/// What showing a run at its end needs of its start: when it started, its history entry, the watch on the
/// page's long tasks.
struct Finishing {
    started: f64,
    history_id: String,
    long_tasks: Option<dom::LongTaskWatch>,
}

/// Shows a finished (or stopped) run whole, offers to go on where its device was lost, and keeps it in the
/// history.
async fn show_finished(gpu: &Gpu, plan: Plan, mut result: RunResult, finishing: Finishing) {
    let Finishing { started, history_id, long_tasks } = finishing;
    // Suspect figures and shares of the peaks are known only now: the tables show them all. Each of the
    // steps below takes the page's thread for a while: the page gets a turn between them.
    if let Some(peaks) = result.peaks.summary() {
        state::dispatch(Action::Peaks(peaks));
    }
    let notes: Element = by_id("notes");
    for note in &result.notes {
        append(&notes, "li", "", note);
    }
    host::yield_now().await;
    let families = with_results(|families| families.clone());
    families.show_all(&result.results, &result.peaks).await;
    host::yield_now().await;
    // The long tasks of the run and of drawing its results (writing the file that records them aside).
    result.environment.long_tasks = long_tasks.map(dom::LongTaskWatch::finish);
    result.environment.reference_workers = Some(host::workers::count() as u32);
    result.environment.host_probe_ms = state::with(|app| app.host_probe_ms);
    if let Some(pace) = result.pace_text() {
        dom::set_text("pace", &pace);
    }
    state::dispatch(Action::Summary(result.clone()));
    let done = result.results.len();
    if result.complete {
        // The bar moved as each configuration started: a finished run fills it.
        let summary = format!("Done: {done} configurations in {:.1} s.", (dom::now_ms() - started) / 1000.0);
        dom::set_progress(done, done, &summary);
    } else {
        dom::set_text("progress-text", &format!("Stopped after {done} configurations; those results are kept."));
    }
    if let Some(reason) = gpu.lost_reason() {
        dom::show_message(
            "error",
            &format!(
                "The GPU device was lost ({reason}) after {done} configurations. Those results are kept below and in \
                 the history, to share, compare or publish; Go on runs the rest on a fresh device, Run starts again."
            ),
        );
        // What it takes to go on: the plan, and what finished.
        state::with(|app| app.resumable = Some((plan.clone(), result.clone())));
        dom::set_text("go-on", &format!("Go on from configuration {}", done + 1));
        dom::set_hidden("go-on", false);
    }
    // Writing out every configuration (1961 of them, in Chromium on an H200: 40 ms) in a task of its own.
    host::yield_now().await;
    dom::set_text("result-json", &result.to_json());
    host::yield_now().await;
    state::dispatch(Action::Keep { id: history_id, result: result.clone(), payload: None });
    state::with(|app| app.last = Some(result));
    storage::settled().await; // done means kept too
    by_id::<Element>("results").set_attribute("data-done", "").ok();
}

fn time_left(elapsed_ms: f64, done: usize, total: usize) -> String {
    if done == 0 {
        return String::new();
    }
    let left_s = elapsed_ms / done as f64 * (total - done) as f64 / 1000.0;
    format!(", {} left", crate::estimate::about(left_s))
}
