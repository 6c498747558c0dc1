//! The auto-tuning card: for each tuned kernel, the best workgroup shape, its speed-up over the common
//! default, what the search cost against the exhaustive sweep, and a snippet to paste.

use web_sys::Element;

use super::adapter::environment;
use super::dom::{self, append, by_id};
use super::state;
use crate::gpu::Gpu;
use crate::kernels;
use crate::plan::Plan;
use crate::runner::Flow;
use crate::tune::{self, TuneEvent, Tuning};

pub fn build(root: &Element) {
    let card = dom::hidden_card(root, "tuning", "Auto-tuning");
    append(
        &card,
        "p",
        "about",
        "Each kernel's best workgroup shape, found by a search that starts at the common default (64, or 8×8; \
         your kernel's own, its WGSL's override defaults), \
         tries shapes four times larger and smaller along each axis, moves while that gains 2 % or more, then \
         tries the shapes twice and half as large, and where none gains, trades between two axes (twice as wide, \
         half as tall; a tunable a step up, another a step down). Your kernel is searched along its tunables too, and a space of \
         many is sampled (a tenth) and searched again from the sample's best. Trials take 5 samples; the \
         configuration reported, and the default, are validated.",
    );
    let table = append(&card, "table", "results", "");
    let head = append(&append(&table, "thead", "", ""), "tr", "", "");
    for column in ["kernel", "parameter", "best shape", "figure", "vs the default", "measured", "time", "snippet"] {
        append(&head, "th", "", column);
    }
    append(&table, "tbody", "", "").set_id("tuning-body");
    // A machine-readable copy, for scripts that drive the page.
    let json = append(&card, "script", "", "");
    json.set_id("tuning-json");
    json.set_attribute("type", "application/json").ok();
}

/// Auto-tunes the kernels `plan` picks on `gpu` and shows the best shape of each.
pub async fn tune(gpu: &Gpu, plan: Plan) {
    dom::set_hidden("tuning", false);
    by_id::<Element>("tuning").remove_attribute("data-done").ok();
    by_id::<Element>("tuning-body").set_inner_html("");
    let started = dom::now_ms();
    let outcome = tune::tune(gpu, &plan, &Default::default(), &environment(gpu), |event| {
        match event {
            TuneEvent::Tuning { index, total, kernel } => {
                dom::set_progress(index, total, &format!("Tuning {} ({} of {total})…", kernel.label(), index + 1));
            }
            TuneEvent::Measuring { configuration } => {
                dom::set_text("progress-text", &format!("Tuning: trying {}", kernels::describe(configuration)));
            }
        }
        if state::with(|app| app.cancel) { Flow::Stop } else { Flow::Continue }
    })
    .await;
    match outcome {
        Ok(tunings) => {
            show(&tunings);
            let stopped = state::with(|app| app.cancel);
            let what = if stopped { "Stopped: the kernels tuned so far are shown" } else { "Tuned" };
            let text = format!("{what}: {} in {:.1} s.", tunings.len(), (dom::now_ms() - started) / 1000.0);
            dom::set_text("progress-text", &text);
        }
        Err(error) => dom::show_message("error", &format!("Auto-tuning stopped: {error}")),
    }
    if let Some(reason) = gpu.lost_reason() {
        dom::show_message(
            "error",
            &format!(
                "The GPU device was lost ({reason}); the kernels tuned so far are shown, and Auto-tune starts again on a fresh device."
            ),
        );
    }
}

fn show(tunings: &[Tuning]) {
    let body: Element = by_id("tuning-body");
    body.set_inner_html("");
    for tuning in tunings {
        let row = append(&body, "tr", "", "");
        append(&row, "td", "", &tuning.kernel);
        let best = tuning.best();
        // A user's kernel: the size it was tuned at, and its best shape with its tunables.
        let (at, tunables) = match best.and_then(|b| b.size_and_tunables()) {
            Some((size, tunables)) if tuning.searches_parameter => (size.to_string(), tunables.to_string()),
            _ => (tuning.parameter.clone(), String::new()),
        };
        append(&row, "td", "", &at);
        row.set_class_name(if best.is_some() { "valid" } else { "failed" });
        let shape = |b: &crate::result::ConfigResult| match tunables.is_empty() {
            true => b.workgroup_text(),
            false => format!("{}, {tunables}", b.workgroup_text()),
        };
        append(&row, "td", "", &best.map(shape).unwrap_or_else(|| "none valid".into()));
        append(&row, "td", "", &best.map(|b| b.headline_text()).unwrap_or_default());
        append(&row, "td", "", &tuning.versus_default());
        append(&row, "td", "", &format!("{} of {}", tuning.measured(), tuning.candidates));
        append(&row, "td", "", &format!("{:.1} s", tuning.seconds));
        let cell = append(&row, "td", "snippet-cell", "");
        if let Some(snippet) = tuning.snippet() {
            let details = append(&cell, "details", "", "");
            append(&details, "summary", "", "WGSL / Rust");
            append(&details, "pre", "snippet", &snippet);
        }
    }
    // Pretty, as every JSON the page writes: one JSON writer in its download, not two.
    dom::set_text("tuning-json", &serde_json::to_string_pretty(tunings).expect("tunings serialize"));
    by_id::<Element>("tuning").set_attribute("data-done", "").ok();
}
