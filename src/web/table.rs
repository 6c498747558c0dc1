//! The results table, one row per configuration: the run's and an opened result's.

use web_sys::Element;

use super::dom::append;
use crate::result::{ConfigResult, Outcome};

/// A results table inside `parent` whose body has the id `body_id`.
pub fn results_table(parent: &Element, body_id: &str) -> Element {
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
}
