//! Results tables, one row per configuration, each sortable by any column, and the filter (by kernel and by
//! status) that the tables inside one scope share: a run's family tables, or an opened result's.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlDetailsElement, HtmlElement, HtmlInputElement, HtmlSelectElement};

use super::dom::{self, append};
use crate::result::{ConfigResult, Outcome};

/// The statuses a table filters by, as its rows' classes name them.
const STATUSES: [(&str, &str); 5] =
    [("", "every status"), ("valid", "valid"), ("failed", "failed"), ("suspect", "suspect"), ("skipped", "skipped")];

/// The columns, and whether a first click sorts them from the highest value (rates, where higher is
/// better) rather than the lowest.
const COLUMNS: [(&str, bool); 11] = [
    ("kernel", false),
    ("workgroup", false),
    ("parameter", false),
    ("median", false),
    ("min", false),
    ("GB/s", true),
    ("GFLOP/s", true),
    ("of peak", true),
    ("CV", false),
    ("samples", false),
    ("status", false),
];

/// The filter of the tables inside the element `scope_id`, inside `parent`: `{scope_id}-filter` for
/// kernels, `{scope_id}-status` for statuses.
pub fn filter_bar(parent: &Element, scope_id: &str) {
    let filter = append(parent, "div", "buttons table-filter", "");
    let kernel = append(&filter, "input", "", "");
    kernel.set_id(&format!("{scope_id}-filter"));
    for (name, value) in
        [("type", "search"), ("placeholder", "kernel, e.g. triad/vec4"), ("aria-label", "Show kernels")]
    {
        kernel.set_attribute(name, value).ok();
    }
    let status = append(&filter, "select", "", "");
    status.set_id(&format!("{scope_id}-status"));
    status.set_attribute("aria-label", "Show statuses").ok();
    for (value, text) in STATUSES {
        append(&status, "option", "", text).set_attribute("value", value).ok();
    }
    for (id, event) in [(kernel.id(), "input"), (status.id(), "change")] {
        let scope_id = scope_id.to_string();
        dom::on(&id, event, move |_| apply_filter(&scope_id));
    }
}

/// A results table inside `parent`, filtered by the filter of `scope_id`; returns its body, where rows go.
pub fn results_table(parent: &Element, scope_id: &str) -> Element {
    let table = append(parent, "table", "results", "");
    let head = append(&append(&table, "thead", "", ""), "tr", "", "");
    for (index, (column, _)) in COLUMNS.iter().enumerate() {
        let cell = append(&head, "th", "", "");
        cell.set_attribute("aria-sort", "none").ok();
        let button = append(&cell, "button", "sort", column);
        button.set_attribute("type", "button").ok();
        button.set_attribute("data-column", &index.to_string()).ok();
        button.set_attribute("title", &format!("Sort by {column}")).ok();
    }
    let body = append(&table, "tbody", "", "");
    body.set_attribute("data-scope", scope_id).ok();
    let sorted_body = body.clone();
    dom::listen(&head, "click", move |event| {
        let button =
            event.target().and_then(|t| t.dyn_into::<Element>().ok()).and_then(|t| t.closest("button").ok()?);
        if let Some(column) = button.and_then(|b| b.get_attribute("data-column")?.parse::<usize>().ok()) {
            sort(&sorted_body, column);
        }
    });
    body
}

/// Sorts the rows of `body` by `column`: from the column's first direction, or the other way where it is
/// sorted that way already. Cells without a value go last either way.
fn sort(body: &Element, column: usize) {
    let Some(table) = body.parent_element() else { return };
    let headers = dom::select_all(&table, "thead th");
    let was_first = headers.get(column).and_then(|h| h.get_attribute("aria-sort"));
    let first = if COLUMNS[column].1 { "descending" } else { "ascending" };
    let direction = if was_first.as_deref() == Some(first) {
        if first == "ascending" { "descending" } else { "ascending" }
    } else {
        first
    };
    for (i, header) in headers.iter().enumerate() {
        header.set_attribute("aria-sort", if i == column { direction } else { "none" }).ok();
    }
    let mut rows: Vec<(SortKey, Element)> = dom::select_all(body, ":scope > tr")
        .into_iter()
        .map(|row| {
            let cell = row.children().item(column as u32);
            let number = cell.as_ref().and_then(|c| c.get_attribute("data-sort")?.parse::<f64>().ok());
            let text = cell.and_then(|c| c.text_content()).unwrap_or_default();
            (SortKey { number, text }, row)
        })
        .collect();
    rows.sort_by(|(a, _), (b, _)| a.compare(b, direction == "descending"));
    for (_, row) in rows {
        body.append_child(&row).ok();
    }
}

/// A cell's value to sort by: its number where it has one, else its text.
struct SortKey {
    number: Option<f64>,
    text: String,
}

impl SortKey {
    fn compare(&self, other: &SortKey, descending: bool) -> std::cmp::Ordering {
        use std::cmp::Ordering;
        let ordered = match (self.number, other.number) {
            (Some(a), Some(b)) => a.total_cmp(&b),
            (Some(_), None) => return Ordering::Less,
            (None, Some(_)) => return Ordering::Greater,
            (None, None) if self.text.is_empty() != other.text.is_empty() => {
                return if self.text.is_empty() { Ordering::Greater } else { Ordering::Less };
            }
            (None, None) => self.text.cmp(&other.text),
        };
        if descending { ordered.reverse() } else { ordered }
    }
}

/// Shows the rows of the tables in `scope_id` whose kernel contains the filter's text and whose status is
/// the one picked; a filter that asks for something opens the folded tables, so that their rows are seen.
fn apply_filter(scope_id: &str) {
    let filter = Filter::of(scope_id);
    let scope: Element = dom::by_id(scope_id);
    for row in dom::select_all(&scope, "tbody > tr") {
        filter.apply(&row);
    }
    if !filter.text.is_empty() || !filter.status.is_empty() {
        for details in dom::select_all(&scope, "details.family-table") {
            if let Ok(details) = details.dyn_into::<HtmlDetailsElement>() {
                details.set_open(true);
            }
        }
    }
}

/// What a filter asks for: kernels containing `text` (lower case), rows of class `status` (any where
/// empty).
struct Filter {
    text: String,
    status: String,
}

impl Filter {
    fn of(scope_id: &str) -> Self {
        let text = dom::by_id::<HtmlInputElement>(&format!("{scope_id}-filter")).value().trim().to_lowercase();
        let status = dom::by_id::<HtmlSelectElement>(&format!("{scope_id}-status")).value();
        Filter { text, status }
    }

    /// Hides `row` unless the filter shows it.
    fn apply(&self, row: &Element) {
        let kernel = row.first_element_child().and_then(|cell| cell.text_content()).unwrap_or_default();
        let shown =
            kernel.to_lowercase().contains(&self.text) && (self.status.is_empty() || row.class_name() == self.status);
        if let Some(row) = row.dyn_ref::<HtmlElement>() {
            row.set_hidden(!shown);
        }
    }
}

/// The class of a configuration's row: what became of it.
pub fn status_class(r: &ConfigResult) -> &'static str {
    match &r.outcome {
        Outcome::Skipped { .. } => "skipped",
        Outcome::Failed { .. } => "failed",
        Outcome::Valid { suspect: Some(_) } => "suspect",
        Outcome::Valid { suspect: None } | Outcome::Measured => "valid",
    }
}

/// Appends a configuration's row to a table's body, classed by its outcome; every cell goes in as text,
/// with the number it sorts by where it has one.
pub fn add_row(body: &Element, r: &ConfigResult) {
    let row = append(body, "tr", status_class(r), "");
    let [median, min, gbps, gflops, peak, cv, samples] = r.figures();
    let (label, shape, parameter, status) = (r.label(), r.workgroup_text(), r.parameter_text(), r.status());
    let invocations = Some(r.workgroup_size.iter().product::<u32>() as f64);
    let samples_count = Some(r.sample_count() as f64).filter(|&n| n > 0.0);
    let cells = [
        (label, None),
        (shape, invocations),
        (parameter, r.parameter_value().map(f64::from)),
        (median, r.median_ns),
        (min, r.min_ns),
        (gbps, r.gbps),
        (gflops, r.gflops()),
        (peak, r.percent_of_peak),
        (cv, r.cv),
        (samples, samples_count),
        (status, None),
    ];
    for (text, number) in cells {
        let cell = append(&row, "td", "", &text);
        if let Some(number) = number.filter(|n| n.is_finite()) {
            cell.set_attribute("data-sort", &number.to_string()).ok();
        }
    }
    // A row that arrives while a filter is set (a run going on) follows it.
    if let Some(scope_id) = body.get_attribute("data-scope") {
        Filter::of(&scope_id).apply(&row);
    }
}
