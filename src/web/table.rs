//! The results table, one row per configuration: the run's and an opened result's, with a filter by
//! kernel and by status above it.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, HtmlInputElement, HtmlSelectElement};

use super::dom::{self, append};
use crate::result::{ConfigResult, Outcome};

/// The statuses a table filters by, as its rows' classes name them.
const STATUSES: [(&str, &str); 5] =
    [("", "every status"), ("valid", "valid"), ("failed", "failed"), ("suspect", "suspect"), ("skipped", "skipped")];

/// A results table inside `parent` whose body has the id `body_id`, with its filter (`{body_id}-filter`
/// for kernels, `{body_id}-status` for statuses) above it.
pub fn results_table(parent: &Element, body_id: &str) -> Element {
    let filter = append(parent, "div", "buttons table-filter", "");
    let kernel = append(&filter, "input", "", "");
    kernel.set_id(&format!("{body_id}-filter"));
    for (name, value) in
        [("type", "search"), ("placeholder", "kernel, e.g. triad/vec4"), ("aria-label", "Show kernels")]
    {
        kernel.set_attribute(name, value).ok();
    }
    let status = append(&filter, "select", "", "");
    status.set_id(&format!("{body_id}-status"));
    status.set_attribute("aria-label", "Show statuses").ok();
    for (value, text) in STATUSES {
        append(&status, "option", "", text).set_attribute("value", value).ok();
    }
    for (id, event) in [(kernel.id(), "input"), (status.id(), "change")] {
        let body_id = body_id.to_string();
        dom::on(&id, event, move |_| apply_filter(&body_id));
    }
    let table = append(parent, "table", "results", "");
    let head = append(&append(&table, "thead", "", ""), "tr", "", "");
    let columns =
        ["kernel", "workgroup", "parameter", "median", "min", "GB/s", "GFLOP/s", "of peak", "CV", "samples", "status"];
    for column in columns {
        append(&head, "th", "", column);
    }
    append(&table, "tbody", "", "").set_id(body_id);
    table
}

/// Shows the rows of the table `body_id` whose kernel contains the filter's text and whose status is the
/// one picked.
fn apply_filter(body_id: &str) {
    let filter = Filter::of(body_id);
    let rows = dom::by_id::<Element>(body_id).children();
    for row in (0..rows.length()).filter_map(|i| rows.item(i)) {
        filter.apply(&row);
    }
}

/// What a table's filter asks for: kernels containing `text` (lower case), rows of class `status` (any
/// where empty).
struct Filter {
    text: String,
    status: String,
}

impl Filter {
    fn of(body_id: &str) -> Self {
        let text = dom::by_id::<HtmlInputElement>(&format!("{body_id}-filter")).value().trim().to_lowercase();
        let status = dom::by_id::<HtmlSelectElement>(&format!("{body_id}-status")).value();
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

/// Appends a configuration's row, classed by its outcome; every cell goes in as text.
pub fn add_row(body: &Element, r: &ConfigResult) {
    let row = append(body, "tr", "", "");
    row.set_class_name(match &r.outcome {
        Outcome::Skipped { .. } => "skipped",
        Outcome::Failed { .. } => "failed",
        Outcome::Valid { suspect: Some(_) } => "suspect",
        Outcome::Valid { suspect: None } | Outcome::Measured => "valid",
    });
    let [median, min, gbps, gflops, peak, cv, samples] = r.figures();
    let (label, shape, parameter, status) = (r.label(), r.workgroup_text(), r.parameter_text(), r.status());
    for cell in [label, shape, parameter, median, min, gbps, gflops, peak, cv, samples, status] {
        append(&row, "td", "", &cell);
    }
    // A row that arrives while a filter is set (a run going on) follows it.
    Filter::of(&body.id()).apply(&row);
}
