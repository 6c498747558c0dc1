//! The comparison card: two or more results side by side (device cards, the best of each kernel, every
//! configuration with its ratio to the first result, charts overlaid per kernel) and a link that opens the
//! same comparison. Results come from a run, the history, an opened file or link, or a pasted link.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlInputElement};

use super::chart::Charts;
use super::dom::{self, append, by_id, fact};
use super::{state, table};
use crate::compare::{self, Row};
use crate::result::{RunResult, format_gbps};
use crate::share;
use crate::stats::Verdict;

/// A table of the card shown a page at a time: the page shown, and the pager under the table.
#[derive(Default)]
struct Paged {
    page: Cell<usize>,
    pager: RefCell<Option<table::Pager>>,
}

impl Paged {
    /// The page to show of `total` rows (the last one where fewer rows are left), shown in the pager.
    fn show(&self, total: usize) -> usize {
        let page = self.page.get().min(table::last_page(total));
        self.page.set(page);
        if let Some(pager) = self.pager.borrow().as_ref() {
            pager.show(page, total);
        }
        page
    }
}

/// The comparison shown: its results' names, every configuration's row and the best of each kernel, which
/// its pages and its charts are made from.
#[derive(Default)]
struct Shown {
    names: Vec<String>,
    rows: Vec<Row>,
    best: Vec<(Row, Vec<Option<String>>)>,
}

thread_local! {
    /// The best of each kernel and every configuration, a page at a time: a comparison of two results at the
    /// bound has thousands of the one and tens of thousands of the other.
    static BEST: Paged = Paged::default();
    static EVERY: Paged = Paged::default();
    static SHOWN: RefCell<Rc<Shown>> = RefCell::default();
    /// How many times a comparison was shown: charts drawn after a paint are the latest comparison's only.
    static SHOWINGS: Cell<u64> = const { Cell::new(0) };
}

/// Builds the (hidden) card inside `root` and listens to its controls.
pub fn build(root: &Element) {
    let card = dom::hidden_card(root, "compare", "Comparison");
    append(
        &card,
        "p",
        "about",
        "Results side by side, the first the baseline: ratios above 1 are faster than it. Add results with \
         Compare on a run, a history entry, an opened result or a gallery's device, or paste a link here. Under \
         each figure its spread: the figure at the run's p95 and fastest times, or for a device's median in the \
         gallery, at its slowest and fastest result. Each ratio is called faster or slower where its 95 % \
         interval (distribution-free, from the samples; hover to read it) leaves out 1 and it moves by 2 % or \
         more, and the same within noise otherwise. In the charts, a whisker spans each median's 95 % interval.",
    );
    // One device in two engines (browsers, or a browser and natively) says so first.
    let engines = append(&card, "p", "engines", "");
    engines.set_id("compare-engines");
    engines.set_attribute("hidden", "").ok();
    append(&card, "div", "compare-devices", "").set_id("compare-devices");
    let add = append(&card, "div", "buttons", "");
    let field = append(&add, "input", "compare-link", "");
    field.set_id("compare-link");
    field.set_attribute("placeholder", "a wgsweep link (#run=… or #compare=…)").ok();
    field.set_attribute("aria-label", "a link to add to the comparison").ok();
    append(&add, "button", "", "Add the link").set_id("compare-add");
    append(&add, "button", "", "Copy comparison link").set_id("compare-copy");
    append(&add, "button", "", "Clear").set_id("compare-clear");
    dom::link_output(&card, "compare-share-link", "comparison link");
    append(&card, "ul", "verdicts", "").set_id("compare-verdicts");
    append(&card, "h3", "", "Best of each kernel (over every workgroup shape)");
    append(&card, "table", "results compare", "").set_id("compare-best");
    paged(&card, &BEST, show_best);
    append(&card, "div", "charts", "").set_id("compare-charts");
    append(&card, "h3", "", "Every configuration");
    append(&card, "table", "results compare", "").set_id("compare-table");
    paged(&card, &EVERY, show_every);

    dom::on("compare-add", "click", |_| {
        let field: HtmlInputElement = by_id("compare-link");
        dom::spawn(add_from_link(field));
    });
    dom::on("compare-clear", "click", |_| {
        state::with(|app| app.compared = Rc::default());
        show();
    });
    dom::on("compare-copy", "click", |_| {
        let compared = state::with(|app| app.compared.clone());
        dom::spawn(async move {
            let link = share::comparison_link(&dom::page_address(), &compared).await;
            dom::copy_link(link, "compare-share-link", "this comparison").await
        });
    });
    dom::on("compare-devices", "click", |event| {
        let target = event.target().and_then(|t| t.dyn_into::<Element>().ok());
        let Some(index) = target.and_then(|t| t.get_attribute("data-remove")).and_then(|i| i.parse().ok()) else {
            return;
        };
        state::with(|app| {
            if index < app.compared.len() {
                Rc::make_mut(&mut app.compared).remove(index);
            }
        });
        show();
    });
}

/// Adds a result to the comparison and shows it.
pub fn add(result: RunResult) {
    if !add_quietly(result) {
        let max = share::MAX_COMPARED;
        dom::show_message("warning", &format!("A comparison holds at most {max} results: remove one to add another."));
        return;
    }
    show();
    if let Some(card) = dom::document().get_element_by_id("compare") {
        card.scroll_into_view();
    }
}

/// Replaces the comparison with these results (a comparison's link), done once its tables are shown.
pub async fn open(results: Rc<Vec<RunResult>>) {
    state::with(|app| app.compared = results.clone());
    render(results, next_showing()).await;
}

/// Adds the results of the link pasted in `field`, or says why they could not be.
async fn add_from_link(field: HtmlInputElement) {
    match share::decode_any(&field.value()).await {
        Ok(results) => {
            let results_len = results.len();
            field.set_value("");
            let added = results.into_iter().filter(|r| add_quietly(r.clone())).count();
            if added < results_len {
                let full =
                    format!("A comparison holds at most {} results: the rest were not added.", share::MAX_COMPARED);
                dom::set_text("compare-share-link-status", &full);
            }
            show();
        }
        Err(error) => dom::set_text("compare-share-link-status", &format!("That link could not be added: {error}")),
    }
}

/// Adds a result unless the same one (same run, same label) is already there; false where the comparison
/// is full.
fn add_quietly(result: RunResult) -> bool {
    state::with(|app| {
        let same = |r: &RunResult| r.created == result.created && r.device == result.device && r.label == result.label;
        if app.compared.iter().any(same) {
            return true;
        }
        if app.compared.len() >= share::MAX_COMPARED {
            return false;
        }
        Rc::make_mut(&mut app.compared).push(result);
        true
    })
}

/// Shows the comparison: at once where it is small, in turns where its results are large (eight at the
/// bound are 300 000 rows to match), a newer showing stopping an older one.
fn show() {
    dom::spawn(render(state::with(|app| app.compared.clone()), next_showing()));
}

/// A new showing, which stops those before it.
fn next_showing() -> u64 {
    let showing = SHOWINGS.get() + 1;
    SHOWINGS.set(showing);
    showing
}

/// The rows matched before the page's thread gets a turn.
const ROWS_PER_TURN: usize = 16384;

/// Shows `results` side by side, unless a newer showing than `showing` began meanwhile.
async fn render(results: Rc<Vec<RunResult>>, showing: u64) {
    let names = compare::names(&results);
    dom::set_hidden("compare", results.is_empty());
    let heading = compare::engines_heading(&results);
    dom::set_text("compare-engines", heading.as_deref().unwrap_or(""));
    dom::set_hidden("compare-engines", heading.is_none());
    let devices: Element = by_id("compare-devices");
    devices.set_inner_html("");
    for (i, (result, name)) in results.iter().zip(&names).enumerate() {
        let card = append(&devices, "div", "compare-device", "");
        append(&card, "h3", "", &format!("{}. {name}", i + 1));
        let facts = append(&card, "dl", "facts", "");
        fact(&facts, "Adapter", &result.device.name());
        fact(&facts, "Engine", &result.environment.engine(&result.device.backend));
        fact(&facts, "Platform", &result.environment.platform);
        fact(&facts, "Run", &result.created);
        fact(&facts, "Peaks", &result.peaks.summary().unwrap_or_else(|| "not measured".into()));
        let complete = if result.complete { "" } else { " (incomplete)" };
        fact(&facts, "Configurations", &format!("{}{complete}", result.results.len()));
        let remove = append(&card, "button", "", "Remove");
        remove.set_attribute("data-remove", &i.to_string()).ok();
    }
    let status = match results.len() {
        0 => "",
        1 => "Add a second result to compare with this one.",
        _ => "",
    };
    dom::set_text("compare-share-link-status", status);

    let mut matching = compare::Matching::new(results.len());
    let mut since_turn = 0;
    for result in results.iter() {
        if since_turn >= ROWS_PER_TURN {
            crate::host::yield_now().await;
            since_turn = 0;
            if SHOWINGS.get() != showing {
                return;
            }
        }
        matching.add(result);
        since_turn += result.results.len();
    }
    let rows = matching.finish();
    let best = compare::best_rows(&rows);
    let verdicts: Element = by_id("compare-verdicts");
    verdicts.set_inner_html("");
    for at in 1..results.len() {
        let text = compare::verdicts_text(&rows, at, compare::NOISE_THRESHOLD);
        append(&verdicts, "li", "", &format!("{} against 1, every configuration: {text}", at + 1));
    }
    SHOWN.set(Rc::new(Shown { names, rows, best }));
    show_best();
    show_every();
    // Charts after the tables are painted: a comparison of results at the bound draws for a while.
    dom::after_paint().await;
    if SHOWINGS.get() == showing {
        draw_charts(results.len());
    }
}

/// A pager under the table just appended to `card`, whose buttons turn the pages that `paging` keeps,
/// shown by `show`.
fn paged(card: &Element, paging: &'static std::thread::LocalKey<Paged>, show: fn()) {
    let (pager, buttons) = table::Pager::new(card);
    for (button, step) in buttons {
        dom::listen(&button, "click", move |_| {
            paging.with(|paged| paged.page.set(paged.page.get().saturating_add_signed(step)));
            show();
        });
    }
    paging.with(|paged| paged.pager.replace(Some(pager)));
}

/// The page of the best of each kernel that `BEST` says.
fn show_best() {
    let shown = SHOWN.with_borrow(Rc::clone);
    let table: Element = by_id("compare-best");
    table.set_inner_html("");
    header(&table, &["kernel", "parameter", "unit"], &shown.names);
    let body = append(&table, "tbody", "", "");
    let page = BEST.with(|best| best.show(shown.best.len()));
    for (row, shapes) in shown.best.iter().skip(page * table::PAGE_ROWS).take(table::PAGE_ROWS) {
        let tr = append(&body, "tr", "", "");
        append(&tr, "td", "", &row.series());
        append(&tr, "td", "", &row.parameter);
        append(&tr, "td", "", row.unit);
        for ((figure, range), shape) in row.figures.iter().zip(&row.ranges).zip(shapes) {
            let at = shape.as_ref().map(|shape| format!(" at {shape}")).unwrap_or_default();
            figure_cell(&tr, *figure, *range, &at);
        }
        ratio_cells(&tr, row);
    }
}

/// The page of every configuration that `EVERY` says.
fn show_every() {
    let shown = SHOWN.with_borrow(Rc::clone);
    let table: Element = by_id("compare-table");
    table.set_inner_html("");
    header(&table, &["kernel", "workgroup", "parameter", "unit"], &shown.names);
    let body = append(&table, "tbody", "", "");
    let page = EVERY.with(|every| every.show(shown.rows.len()));
    for row in shown.rows.iter().skip(page * table::PAGE_ROWS).take(table::PAGE_ROWS) {
        let tr = append(&body, "tr", "", "");
        append(&tr, "td", "", &row.series());
        append(&tr, "td", "", &row.workgroup);
        append(&tr, "td", "", &row.parameter);
        append(&tr, "td", "", row.unit);
        for (figure, range) in row.figures.iter().zip(&row.ranges) {
            figure_cell(&tr, *figure, *range, "");
        }
        ratio_cells(&tr, row);
    }
}

/// The comparison's charts, a kernel's lines overlaid (none for a single result).
fn draw_charts(compared: usize) {
    let shown = SHOWN.with_borrow(Rc::clone);
    let drawn = state::with(|app| {
        let charts = app.compare_charts.get_or_insert_with(|| Charts::new(by_id("compare-charts")));
        if compared < 2 {
            charts.clear();
            Ok(())
        } else {
            charts.show_comparison(&shown.rows, &shown.names)
        }
    });
    if let Err(e) = drawn {
        dom::set_text("compare-share-link-status", &format!("The comparison's charts could not be drawn: {e:?}"));
    }
}

/// A table's head: the fixed columns, one per result, and one ratio per result after the first.
fn header(table: &Element, fixed: &[&str], names: &[String]) {
    let head = append(&append(table, "thead", "", ""), "tr", "", "");
    for column in fixed {
        append(&head, "th", "", column);
    }
    for (i, name) in names.iter().enumerate() {
        append(&head, "th", "", &format!("{}. {name}", i + 1)).set_attribute("title", name).ok();
    }
    for i in 2..=names.len() {
        append(&head, "th", "", &format!("{i} ÷ 1"));
    }
}

/// A result's figure (then `after`, e.g. the shape) with its spread beneath, or a dash where it has none.
fn figure_cell(tr: &Element, figure: Option<f64>, range: Option<(f64, f64)>, after: &str) {
    let Some(figure) = figure else {
        append(tr, "td", "", "–");
        return;
    };
    let cell = append(tr, "td", "", &format!("{}{after}", format_gbps(figure)));
    if let Some((slowest, fastest)) = range {
        let spread = append(&cell, "small", "spread", &format!(" {}–{}", format_gbps(slowest), format_gbps(fastest)));
        spread.set_attribute("title", "the spread: slowest to fastest").ok();
    }
}

/// The ratio of each result after the first to the first, with its verdict (its interval on hover).
fn ratio_cells(tr: &Element, row: &Row) {
    for (ratio, &change) in row.ratios().into_iter().zip(&row.changes).skip(1) {
        let verdict = change.map(|c| compare::verdict(&c, compare::NOISE_THRESHOLD));
        let class = match verdict {
            Some(Verdict::Faster) => "ratio faster",
            Some(Verdict::Slower) => "ratio slower",
            _ => "ratio",
        };
        let text = match (ratio, verdict) {
            (Some(r), Some(v)) => format!("{r:.2}× {}", compare::verdict_text(v)),
            (Some(r), None) => format!("{r:.2}×"),
            _ => String::new(),
        };
        let cell = append(tr, "td", class, &text);
        if let Some(c) = change {
            cell.set_attribute("title", &format!("95 % interval {:.3}–{:.3}", c.low, c.high)).ok();
        }
    }
}
