//! A result's figures family by family: each family's point in a sentence, its charts and its table
//! (folded, unless it holds a failure or a suspect), with one filter over every table; the roofline, which
//! draws every family, last. The run's card and an opened result's each hold one.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlDetailsElement};

use super::chart::Charts;
use super::dom::{self, append, by_id};
use super::table;
use crate::analysis;
use crate::charts::{self, ChartSpec};
use crate::kernels;
use crate::result::{ConfigResult, Peaks};

/// The filter and the families' container `id` inside `parent`.
pub fn build(parent: &Element, id: &str) {
    table::filter_bar(parent, id);
    append(parent, "div", "families", "").set_id(id);
}

/// One family's part: its headlines, charts, and table with a line that counts its rows.
struct Section {
    family: String,
    headlines: Element,
    charts: Charts,
    table: HtmlDetailsElement,
    count: Element,
    body: Element,
    rows: Vec<&'static str>,
}

/// The families shown inside the container that `build` made.
pub struct FamilyResults {
    id: String,
    sections: Vec<Section>,
    /// The roofline's own place, after every family.
    across: Option<Charts>,
}

impl FamilyResults {
    pub fn new(id: &str) -> Self {
        Self { id: id.to_string(), sections: Vec::new(), across: None }
    }

    fn container(&self) -> Element {
        by_id(&self.id)
    }

    /// Removes every family.
    pub fn clear(&mut self) {
        for section in &mut self.sections {
            section.charts.clear();
        }
        self.across.as_mut().map(Charts::clear);
        self.sections.clear();
        self.across = None;
        self.container().set_inner_html("");
    }

    /// Shows a finished result whole: its rows, charts and headlines.
    pub fn show_all(&mut self, results: &[ConfigResult], peaks: &Peaks) -> Result<(), wasm_bindgen::JsValue> {
        self.clear();
        results.iter().for_each(|r| self.add_row(r));
        self.show(results, peaks)
    }

    /// Adds a configuration's row to its family's table.
    pub fn add_row(&mut self, r: &ConfigResult) {
        let section = self.section(&r.family);
        table::add_row(&section.body, r);
        section.rows.push(table::status_class(r));
        let count = |class: &str| section.rows.iter().filter(|c| **c == class).count();
        let mut text = format!("Table: {} configurations", section.rows.len());
        for class in ["failed", "suspect", "skipped"] {
            match count(class) {
                0 => {}
                n => text.push_str(&format!(", {n} {class}")),
            }
        }
        section.count.set_text_content(Some(&text));
        // Failures and suspects are what a person must not miss: their table opens.
        if count("failed") + count("suspect") > 0 {
            section.table.set_open(true);
        }
    }

    /// Draws the charts and headlines `results` call for (rows are added by `add_row`); a chart whose data
    /// has not changed is left as it is.
    pub fn show(&mut self, results: &[ConfigResult], peaks: &Peaks) -> Result<(), wasm_bindgen::JsValue> {
        let headlines = analysis::headlines(results);
        let mut planned: Vec<ChartSpec> = charts::plan(results, peaks);
        for section in &mut self.sections {
            let (of_family, rest): (Vec<ChartSpec>, Vec<ChartSpec>) =
                planned.into_iter().partition(|c| c.family.as_ref() == Some(&section.family));
            planned = rest;
            section.charts.draw(of_family)?;
            section.headlines.set_inner_html("");
            for headline in headlines.iter().filter(|h| h.family == section.family) {
                append(&section.headlines, "li", "", &headline.text);
            }
        }
        // What is left draws every family: the roofline.
        if planned.is_empty() {
            return Ok(());
        }
        let across = match &mut self.across {
            Some(across) => across,
            None => {
                let part = append(&self.container(), "section", "family", "");
                append(&part, "h3", "", "Every kernel that counts flops");
                self.across.insert(Charts::new(append(&part, "div", "charts", "")))
            }
        };
        across.draw(planned)
    }

    /// The family's section, made where it is the first of its family.
    fn section(&mut self, family: &str) -> &mut Section {
        if let Some(at) = self.sections.iter().position(|s| s.family == family) {
            return &mut self.sections[at];
        }
        let part = element_for(&self.container(), family);
        let headlines = append(&part, "ul", "headlines", "");
        let charts = Charts::new(append(&part, "div", "charts", ""));
        let table: HtmlDetailsElement =
            append(&part, "details", "family-table", "").dyn_into().expect("a details element");
        let count = append(&table, "summary", "", "Table");
        let body = table::results_table(&table, &self.id);
        let rows = Vec::new();
        self.sections.push(Section { family: family.to_string(), headlines, charts, table, count, body, rows });
        self.sections.last_mut().expect("the section just added")
    }
}

/// A family's section inside `container`, titled, with what the family measures behind "what is this?",
/// before the roofline's where that is there already.
fn element_for(container: &Element, family: &str) -> Element {
    let part = dom::element("section", "family", "");
    part.set_attribute("data-family", family).ok();
    append(&part, "h3", "", family);
    if let Some(declared) = kernels::family(family) {
        let about = append(&part, "details", "about", "");
        append(&about, "summary", "", "what is this?");
        append(&about, "p", "", declared.about());
    }
    let roofline = dom::select_all(container, ":scope > section.family:not([data-family])").into_iter().next();
    container.insert_before(&part, roofline.as_ref().map(|r| r.unchecked_ref())).ok();
    part
}
