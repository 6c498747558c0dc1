//! The summary card: what a run says at a glance, while it goes and once it is done. The device's memory
//! bandwidth (best copy) and compute (best FMA chain), whether its figures can be trusted, each family's
//! point in a sentence, and each kernel's best workgroup size with its gain over 64 invocations.

use web_sys::Element;

use super::dom::{self, append, by_id, fact, hidden_card};
use crate::analysis;
use crate::result::{ConfigResult, Outcome, RunResult, format_gbps, shape_text};

pub fn build(root: &Element) {
    let summary = hidden_card(root, "summary", "Summary");
    append(&summary, "dl", "facts", "").set_id("summary-facts");
    // Each family's point in a sentence, where the run measured both sides of it.
    append(&summary, "ul", "headlines", "").set_id("summary-headlines");
    append(&summary, "h3", "", "Best workgroup size per kernel");
    let table = append(&summary, "table", "results", "");
    let head = append(&append(&table, "thead", "", ""), "tr", "", "");
    for column in ["kernel", "at", "best workgroup", "figure", "vs 64 invocations"] {
        append(&head, "th", "", column);
    }
    append(&table, "tbody", "", "").set_id("summary-shapes");
}

/// Shows what `result` (finished or still going) says; every string goes in as text.
pub fn show(result: &RunResult) {
    let facts: Element = by_id("summary-facts");
    facts.set_inner_html("");
    let results = &result.results;
    let best = |value: Option<f64>, figure: fn(&ConfigResult) -> Option<f64>| {
        let value = value?;
        results.iter().find(|r| r.is_good() && figure(r) == Some(value))
    };
    let copy = best(result.peaks.copy_gbps, |r| r.gbps).map(|r| {
        let gbps = format_gbps(r.gbps.unwrap_or(0.0));
        format!("{gbps} GB/s (best copy: {} at {})", r.label(), r.workgroup_text())
    });
    fact(&facts, "Memory bandwidth", &copy.unwrap_or_else(|| "not measured: no copy validated in this run".into()));
    facts.last_element_child().expect("the fact just added").set_id("summary-bandwidth");
    let fma = best(result.peaks.fma_gflops, ConfigResult::gflops).map(|r| {
        let gflops = format_gbps(r.gflops().unwrap_or(0.0));
        format!("{gflops} GFLOP/s (best FMA chains: {} at {})", r.label(), r.workgroup_text())
    });
    // And every other kind of operation whose chains ran: f16, i32, packed int8.
    let compute: Vec<String> = fma.into_iter().chain(result.peaks.beyond_f32_texts()).collect();
    let compute = match compute.is_empty() {
        true => "not measured: no fma chains validated in this run".to_string(),
        false => compute.join("; "),
    };
    fact(&facts, "Compute", &compute);
    facts.last_element_child().expect("the fact just added").set_id("summary-compute");
    fact(&facts, "Checked", &checked(results));
    let timer = if result.environment.timestamps { "GPU timestamps" } else { "wall clock around each sample" };
    let busy = result.pace.as_ref().and_then(|p| Some((p.busy_share()?, p.wall_s)));
    let timing = match busy {
        Some((share, wall_s)) => {
            let wall = if wall_s < 10.0 { format!("{wall_s:.1}") } else { format!("{wall_s:.0}") };
            format!("{timer}; the GPU busy {:.0} % of {wall} s", 100.0 * share)
        }
        None => timer.to_string(),
    };
    fact(&facts, "Timing", &timing);

    let headlines: Element = by_id("summary-headlines");
    headlines.set_inner_html("");
    for headline in analysis::headlines(results) {
        append(&headlines, "li", "", &format!("{}: {}", headline.family, headline.text));
    }

    let body: Element = by_id("summary-shapes");
    body.set_inner_html("");
    for shape in analysis::best_shapes(results) {
        let row = append(&body, "tr", "", "");
        let gain = match shape.gain_over_64 {
            Some(gain) if (gain - 1.0).abs() < 0.005 => "the same".to_string(),
            Some(gain) => format!("{gain:.2}×"),
            None => "64 did not run".to_string(),
        };
        let figure = format!("{} {}", format_gbps(shape.figure), shape.unit.name());
        let best = match shape.tunables.is_empty() {
            true => shape_text(shape.shape),
            false => format!("{}, {}", shape_text(shape.shape), shape.tunables),
        };
        for cell in [shape.kernel, shape.parameter, best, figure, gain] {
            append(&row, "td", "", &cell);
        }
    }
    dom::set_hidden("summary", false);
}

/// "193 configurations: 190 valid, 3 skipped (3 over a device limit)", with failures and suspects named
/// where there are any.
fn checked(results: &[ConfigResult]) -> String {
    let count = |which: fn(&ConfigResult) -> bool| results.iter().filter(|r| which(r)).count();
    let valid = count(|r| matches!(r.outcome, Outcome::Valid { suspect: None }));
    let suspect = count(|r| r.suspect().is_some());
    let failed = count(|r| r.error().is_some());
    let skipped = count(|r| r.skipped().is_some());
    // A user's kernel is validated against its own reference entry point, or the first configuration.
    let against = match results.iter().any(|r| r.size_and_tunables().is_some()) {
        true => "valid against their references",
        false => "valid against the CPU reference",
    };
    let mut parts = vec![format!("{valid} {against}")];
    if failed > 0 {
        parts.push(format!("{failed} FAILED validation"));
    }
    if suspect > 0 {
        parts.push(format!("{suspect} suspect (faster than a copy)"));
    }
    if skipped > 0 {
        // Why, in a few words each: every skip's reason says more in the table.
        let mut why = [
            ("over a device limit", 0),
            ("too slow here", 0),
            ("needing a feature this device lacks", 0),
            ("not a combination the kernel runs", 0),
        ];
        for reason in results.iter().filter_map(ConfigResult::skipped) {
            let at = match reason {
                r if r.contains("this device allows") => 0,
                r if r.starts_with("one dispatch") => 1,
                r if r.contains("does not offer") => 2,
                _ => 3,
            };
            why[at].1 += 1;
        }
        let why: Vec<String> = why.iter().filter(|(_, n)| *n > 0).map(|(what, n)| format!("{n} {what}")).collect();
        parts.push(format!("{skipped} skipped ({})", why.join(", ")));
    }
    format!("{} configurations: {}", results.len(), parts.join(", "))
}
