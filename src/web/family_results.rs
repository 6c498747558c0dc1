//! A result's figures family by family: each family's point in a sentence, its charts and its table
//! (folded, unless it holds a failure or a suspect), with one filter over every table; the roofline, which
//! draws every family, last. The run's card and an opened result's each hold one.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlDetailsElement};

use super::chart::Charts;
use super::dom::{self, append, by_id};
use super::table;
use crate::analysis::{self, Headline};
use crate::charts::{self, ChartSpec};
use crate::kernels;
use crate::result::{ConfigResult, Peaks};

/// The filter and the families' container `id` inside `parent`.
pub fn build(parent: &Element, id: &str) {
    table::filter_bar(parent, id);
    append(parent, "div", "families", "").set_id(id);
}

/// One family's part: its headlines, charts (and a line saying how many it left out), and table with a
/// line that counts its rows.
struct Section {
    family: String,
    headlines: Element,
    charts: Charts,
    charts_left_out: Element,
    details: HtmlDetailsElement,
    count: Element,
    table: Rc<RefCell<table::Table>>,
    /// How many rows the table holds, and how many of them are failed, suspect or skipped
    /// (`table::status_class`): counted as they come, as a run adds its rows one by one.
    rows: usize,
    marked: [(&'static str, usize); 3],
}

/// The most families a result's sections show: a run of every kernel makes 12, and a user's kernel one more.
const MAX_FAMILIES: usize = 24;

/// The rows added to a table of a result shown whole between looks at the clock (`host::pause_if_due`):
/// some 20 µs of formatting each on a slow machine.
const ROWS_AT_ONCE: usize = 64;

/// The families shown inside the container that `build` made: a handle that the page's state keeps and
/// the turns showing a finished result share.
#[derive(Clone)]
pub struct FamilyResults(Rc<RefCell<Families>>);

struct Families {
    id: String,
    sections: Vec<Section>,
    /// The roofline's own place, after every family.
    across: Option<Charts>,
    /// How many results have been shown whole: turns still showing an earlier one stop.
    shown: u64,
}

impl FamilyResults {
    pub fn new(id: &str) -> Self {
        let id = id.to_string();
        Self(Rc::new(RefCell::new(Families { id, sections: Vec::new(), across: None, shown: 0 })))
    }

    /// Removes every family, and stops the turns of a result being shown.
    pub fn clear(&self) {
        self.0.borrow_mut().clear();
    }

    /// Shows a finished result whole, a part a turn so that the page answers meanwhile: the tables
    /// `ROWS_AT_ONCE` rows at a time, then each family's headlines and charts, then the roofline; the
    /// container is marked `data-building` until the last. Stops where the families are cleared or another
    /// result is shown meanwhile. Of a result of more families than any run makes (a crafted one), the
    /// first `MAX_FAMILIES`, saying how many more it holds.
    pub async fn show_all(&self, results: &[ConfigResult], peaks: &Peaks) {
        let turn = {
            let mut families = self.0.borrow_mut();
            families.clear();
            families.container().set_attribute("data-building", "").ok();
            families.shown
        };
        let current = || self.0.borrow().shown == turn;
        // Grouping tens of thousands of rows is a task of its own.
        crate::host::yield_now().await;
        if !current() {
            return;
        }
        let mut groups = crate::stats::groups(results, |r| r.family.clone());
        if groups.len() > MAX_FAMILIES {
            let left = groups.split_off(MAX_FAMILIES);
            let rows: usize = left.iter().map(|(_, of_family)| of_family.len()).sum();
            let text = format!(
                "{} more families ({rows} configurations) are in this result and not shown here: the page \
                 shows the first {MAX_FAMILIES}, more than any run makes.",
                left.len()
            );
            let families = self.0.borrow();
            append(&families.container(), "p", "note", &text).set_id(&format!("{}-left-out", families.id));
        }
        for (family, rows) in &groups {
            for chunk in rows.chunks(ROWS_AT_ONCE) {
                crate::host::pause_if_due().await;
                if !current() {
                    return;
                }
                self.0.borrow_mut().add_rows(family, chunk);
            }
        }
        for (family, rows) in &groups {
            crate::host::yield_now().await;
            if !current() {
                return;
            }
            if let Err(e) = self.0.borrow_mut().show_family(family, rows) {
                dom::show_message("error", &format!("The result's charts could not be drawn: {e:?}"));
            }
        }
        crate::host::yield_now().await;
        if !current() {
            return;
        }
        let every: Vec<&ConfigResult> = groups.iter().flat_map(|(_, rows)| rows.iter().copied()).collect();
        let mut shown = self.0.borrow_mut();
        if let Err(e) = shown.draw_across(charts::roofline(&every, peaks).into_iter().collect()) {
            dom::show_message("error", &format!("The roofline could not be drawn: {e:?}"));
        }
        shown.container().remove_attribute("data-building").ok();
    }

    /// Adds a configuration's row to its family's table.
    pub fn add_row(&self, r: &ConfigResult) {
        let mut families = self.0.borrow_mut();
        let section = families.section(&r.family);
        section.table.borrow_mut().add(r);
        section.count(r);
        section.count_rows();
    }

    /// Draws one family's charts and headlines, of its `rows` (added by `add_row`); a chart whose data has
    /// not changed is left as it is.
    pub fn show_family(&self, family: &str, rows: &[&ConfigResult]) -> Result<(), JsValue> {
        self.0.borrow_mut().show_family(family, rows)
    }
}

impl Families {
    fn container(&self) -> Element {
        by_id(&self.id)
    }

    fn clear(&mut self) {
        for section in &mut self.sections {
            section.charts.clear();
        }
        self.across.as_mut().map(Charts::clear);
        self.sections.clear();
        self.across = None;
        self.shown += 1;
        let container = self.container();
        container.set_inner_html("");
        container.remove_attribute("data-building").ok();
    }

    /// Adds rows of one family to its table at once.
    fn add_rows(&mut self, family: &str, rows: &[&ConfigResult]) {
        let section = self.section(family);
        section.table.borrow_mut().extend(rows.iter().copied());
        rows.iter().for_each(|r| section.count(r));
        section.count_rows();
    }

    /// One family's headlines and charts, of its rows alone.
    fn show_family(&mut self, family: &str, rows: &[&ConfigResult]) -> Result<(), JsValue> {
        let headlines = analysis::family_headlines(family, rows.to_vec());
        let (planned, left_out) = charts::family_charts(family, rows);
        self.section(family).show(planned, left_out, &headlines)
    }

    /// Draws the charts of every family (the roofline) in their own place after the families.
    fn draw_across(&mut self, planned: Vec<ChartSpec>) -> Result<(), JsValue> {
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
        // The last section first: a run adds its rows family by family.
        if let Some(at) = self.sections.iter().rposition(|s| s.family == family) {
            return &mut self.sections[at];
        }
        let part = element_for(&self.container(), family);
        let headlines = append(&part, "ul", "headlines", "");
        let charts = Charts::new(append(&part, "div", "charts", ""));
        let charts_left_out = append(&part, "p", "note", "");
        let details: HtmlDetailsElement =
            append(&part, "details", "family-table", "").dyn_into().expect("a details element");
        let count = append(&details, "summary", "", "Table");
        let table = table::results_table(&details, &self.id);
        let (family, rows, marked) = (family.to_string(), 0, [("failed", 0), ("suspect", 0), ("skipped", 0)]);
        self.sections.push(Section { family, headlines, charts, charts_left_out, details, count, table, rows, marked });
        self.sections.last_mut().expect("the section just added")
    }
}

impl Section {
    /// Draws the family's charts, says how many it left out, and lists its headlines.
    fn show(&mut self, planned: Vec<ChartSpec>, left_out: usize, headlines: &[Headline]) -> Result<(), JsValue> {
        self.charts.draw(planned)?;
        let note = (left_out > 0).then(|| {
            format!(
                "{left_out} more charts are not drawn (at most {} a family); the table holds every row.",
                charts::MAX_CHARTS_PER_FAMILY
            )
        });
        self.charts_left_out.set_text_content(note.as_deref());
        self.headlines.set_inner_html("");
        for headline in headlines.iter().filter(|h| h.family == self.family) {
            append(&self.headlines, "li", "", &headline.text);
        }
        Ok(())
    }
    /// Counts the table's rows, by what became of them, on its folded line; a failure or a suspect opens
    /// the table, as they are what a person must not miss.
    fn count_rows(&self) {
        let mut text = format!("Table: {} configurations", self.rows);
        for (class, n) in self.marked.iter().filter(|(_, n)| *n > 0) {
            text.push_str(&format!(", {n} {class}"));
        }
        self.count.set_text_content(Some(&text));
        if self.marked[0].1 + self.marked[1].1 > 0 {
            self.details.set_open(true);
        }
    }

    /// Counts `r` among the table's rows.
    fn count(&mut self, r: &ConfigResult) {
        self.rows += 1;
        let class = table::status_class(r);
        if let Some((_, n)) = self.marked.iter_mut().find(|(marked, _)| *marked == class) {
            *n += 1;
        }
    }
}

/// A family's section inside `container`, titled, with what the family measures behind "what is this?",
/// before the roofline's where that is there already.
fn element_for(container: &Element, family: &str) -> Element {
    let part = dom::element("section", "family", "");
    part.set_attribute("data-family", family).ok();
    append(&part, "h3", "", family);
    if let Some(declared) = kernels::presentation(family) {
        dom::about_fold(&part, family, declared.about);
    }
    let roofline = dom::select_all(container, ":scope > section.family:not([data-family])").into_iter().next();
    container.insert_before(&part, roofline.as_ref().map(|r| r.unchecked_ref())).ok();
    part
}
