//! Results tables, one row per configuration, each sortable by any column, and the filter (by kernel and by
//! status) that the tables inside one scope share: a run's family tables, or an opened result's. A table
//! keeps its rows as data and shows them a page at a time, so a result of tens of thousands of
//! configurations opens at once and every row is a page away.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlButtonElement, HtmlDetailsElement, HtmlInputElement, HtmlSelectElement};

use super::dom::{self, append};
use crate::result::{ConfigResult, Outcome};

/// The rows a table shows at once.
pub const PAGE_ROWS: usize = 100;

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

/// One configuration's row as data: its cells (text, and the number it sorts by where it has one) and its
/// class (what became of it).
struct Row {
    cells: Vec<(String, Option<f64>)>,
    class: &'static str,
}

/// A results table: its rows, their order, and the page shown.
pub struct Table {
    scope_id: String,
    head: Element,
    body: Element,
    pager: Pager,
    rows: Vec<Row>,
    /// Row indices in the order shown: as added, or sorted by a column.
    order: Vec<usize>,
    /// The column sorted by and whether from the highest.
    sorted: Option<(usize, bool)>,
    page: usize,
}

thread_local! {
    /// Every table on the page, for the filter of its scope.
    static TABLES: RefCell<Vec<Weak<RefCell<Table>>>> = const { RefCell::new(Vec::new()) };
}

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

/// A results table inside `parent`, filtered by the filter of `scope_id`.
pub fn results_table(parent: &Element, scope_id: &str) -> Rc<RefCell<Table>> {
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
    let (pager, buttons) = Pager::new(parent);
    let shared = Rc::new(RefCell::new(Table {
        scope_id: scope_id.to_string(),
        head: head.clone(),
        body,
        pager,
        rows: Vec::new(),
        order: Vec::new(),
        sorted: None,
        page: 0,
    }));
    TABLES.with(|tables| {
        let mut tables = tables.borrow_mut();
        tables.retain(|t| t.strong_count() > 0);
        tables.push(Rc::downgrade(&shared));
    });
    let weak = Rc::downgrade(&shared);
    dom::listen(&head, "click", move |event| {
        let button =
            event.target().and_then(|t| t.dyn_into::<Element>().ok()).and_then(|t| t.closest("button").ok()?);
        let column = button.and_then(|b| b.get_attribute("data-column")?.parse::<usize>().ok());
        if let (Some(column), Some(table)) = (column, weak.upgrade()) {
            table.borrow_mut().sort(column);
        }
    });
    for (button, step) in buttons {
        let weak = Rc::downgrade(&shared);
        dom::listen(&button, "click", move |_| {
            if let Some(table) = weak.upgrade() {
                let mut table = table.borrow_mut();
                table.page = table.page.saturating_add_signed(step);
                table.render();
            }
        });
    }
    shared
}

impl Table {
    /// Adds a configuration's row, in its place where the table is sorted; the page shown changes only
    /// where the row belongs on it.
    pub fn add(&mut self, r: &ConfigResult) {
        let index = self.rows.len();
        self.rows.push(row(r));
        match self.sorted {
            Some((column, descending)) => {
                let key = |i: usize| SortKey::of(&self.rows[i], column);
                let new = key(index);
                let at = self.order.partition_point(|&i| key(i).compare(&new, descending).is_le());
                self.order.insert(at, index);
                self.render();
            }
            None => {
                self.order.push(index);
                let filter = Filter::of(&self.scope_id);
                let on_page = self.body.child_element_count() as usize;
                let shown = if filter.is_empty() { self.rows.len() } else { self.shown(&filter).len() };
                if filter.shows(&self.rows[index]) && on_page < PAGE_ROWS && self.page == last_page(shown) {
                    self.draw_row(index);
                }
                self.update_pager(&filter);
            }
        }
    }

    /// Adds many rows at once and shows the page once (a result opened whole, a few rows a turn).
    pub fn extend<'a>(&mut self, results: impl IntoIterator<Item = &'a ConfigResult>) {
        let start = self.rows.len();
        self.rows.extend(results.into_iter().map(row));
        self.order.extend(start..self.rows.len());
        // Rows added after a full page in the order added land on later pages: only the pager changes.
        if self.sorted.is_none() && self.body.child_element_count() as usize == PAGE_ROWS {
            self.update_pager(&Filter::of(&self.scope_id));
            return;
        }
        self.sort_order();
        self.render();
    }

    /// Puts the rows in the order of the column sorted by, if any (stable: ties keep their order).
    fn sort_order(&mut self) {
        if let Some((column, descending)) = self.sorted {
            let rows = &self.rows;
            crate::sort::by(&mut self.order, |&a, &b| {
                SortKey::of(&rows[a], column).compare(&SortKey::of(&rows[b], column), descending)
            });
        }
    }

    /// The rows the filter shows, in order.
    fn shown(&self, filter: &Filter) -> Vec<usize> {
        self.order.iter().copied().filter(|&i| filter.shows(&self.rows[i])).collect()
    }

    /// Shows the current page of the rows the filter shows.
    fn render(&mut self) {
        let filter = Filter::of(&self.scope_id);
        let shown = self.shown(&filter);
        self.page = self.page.min(last_page(shown.len()));
        self.body.set_inner_html("");
        for &i in shown.iter().skip(self.page * PAGE_ROWS).take(PAGE_ROWS) {
            self.draw_row(i);
        }
        self.update_pager(&filter);
    }

    /// Says which rows the page shows, with buttons to the others.
    fn update_pager(&self, filter: &Filter) {
        let total = if filter.is_empty() { self.rows.len() } else { self.shown(filter).len() };
        self.pager.show(self.page, total);
    }

    /// Appends row `index` to the page shown, every cell as text with the number it sorts by.
    fn draw_row(&self, index: usize) {
        let data = &self.rows[index];
        let row = append(&self.body, "tr", data.class, "");
        for (text, number) in &data.cells {
            let cell = append(&row, "td", "", text);
            if let Some(number) = number {
                cell.set_attribute("data-sort", &number.to_string()).ok();
            }
        }
    }

    /// Sorts by `column`: from the column's first direction, or the other way where it is sorted that way
    /// already. Cells without a value go last either way. Shows the first page.
    fn sort(&mut self, column: usize) {
        let first = COLUMNS[column].1;
        let descending = match self.sorted {
            Some((sorted, was)) if sorted == column && was == first => !first,
            _ => first,
        };
        let direction = if descending { "descending" } else { "ascending" };
        for (i, header) in dom::select_all(&self.head, "th").iter().enumerate() {
            header.set_attribute("aria-sort", if i == column { direction } else { "none" }).ok();
        }
        self.sorted = Some((column, descending));
        self.order = (0..self.rows.len()).collect();
        self.sort_order();
        self.page = 0;
        self.render();
    }
}

/// Previous and Next buttons under a table and the rows the page shows ("Rows 101–200 of 3000"), shown
/// where the table's rows do not fit on one page.
pub struct Pager(Element);

impl Pager {
    /// A pager inside `parent`, hidden, and its buttons with the step each takes (-1, +1).
    pub fn new(parent: &Element) -> (Self, [(Element, isize); 2]) {
        let pager = append(parent, "div", "buttons pager", "");
        pager.set_attribute("hidden", "").ok();
        let previous = append(&pager, "button", "", "Previous rows");
        append(&pager, "span", "pager-text", "").set_attribute("aria-live", "polite").ok();
        let next = append(&pager, "button", "", "Next rows");
        for button in [&previous, &next] {
            button.set_attribute("type", "button").ok();
        }
        (Pager(pager), [(previous, -1), (next, 1)])
    }

    /// Shows page `page` of `total` rows, or nothing where they fit on one page.
    pub fn show(&self, page: usize, total: usize) {
        self.0.toggle_attribute_with_force("hidden", total <= PAGE_ROWS).ok();
        if total <= PAGE_ROWS {
            return;
        }
        let first = page * PAGE_ROWS;
        let text = format!("Rows {}–{} of {total}", first + 1, (first + PAGE_ROWS).min(total));
        for element in dom::select_all(&self.0, ".pager-text") {
            element.set_text_content(Some(&text));
        }
        let ends = [page == 0, first + PAGE_ROWS >= total];
        for (button, at_end) in dom::select_all(&self.0, "button").iter().zip(ends) {
            if let Some(button) = button.dyn_ref::<HtmlButtonElement>() {
                button.set_disabled(at_end);
            }
        }
    }
}

/// The last page `total` rows fill (0 where there are none).
pub fn last_page(total: usize) -> usize {
    total.div_ceil(PAGE_ROWS).max(1) - 1
}

/// A cell's value to sort by: its number where it has one, else its text.
struct SortKey<'a> {
    number: Option<f64>,
    text: &'a str,
}

impl<'a> SortKey<'a> {
    fn of(row: &'a Row, column: usize) -> Self {
        let (text, number) = &row.cells[column];
        SortKey { number: *number, text }
    }

    fn compare(&self, other: &SortKey, descending: bool) -> std::cmp::Ordering {
        use std::cmp::Ordering;
        let ordered = match (self.number, other.number) {
            (Some(a), Some(b)) => a.total_cmp(&b),
            (Some(_), None) => return Ordering::Less,
            (None, Some(_)) => return Ordering::Greater,
            (None, None) if self.text.is_empty() != other.text.is_empty() => {
                return if self.text.is_empty() { Ordering::Greater } else { Ordering::Less };
            }
            (None, None) => self.text.cmp(other.text),
        };
        if descending { ordered.reverse() } else { ordered }
    }
}

/// Shows the rows of the tables in `scope_id` whose kernel contains the filter's text and whose status is
/// the one picked, from their first page; a filter that asks for something opens the folded tables, so
/// that their rows are seen.
fn apply_filter(scope_id: &str) {
    let tables: Vec<Rc<RefCell<Table>>> = TABLES.with(|t| t.borrow().iter().filter_map(Weak::upgrade).collect());
    for table in tables.iter().filter(|t| t.borrow().scope_id == scope_id) {
        let mut table = table.borrow_mut();
        table.page = 0;
        table.render();
    }
    let filter = Filter::of(scope_id);
    if !filter.is_empty() {
        let scope: Element = dom::by_id(scope_id);
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
        let field = |suffix: &str| dom::document().get_element_by_id(&format!("{scope_id}-{suffix}"));
        let text = field("filter").and_then(|f| f.dyn_into::<HtmlInputElement>().ok()).map(|f| f.value());
        let status = field("status").and_then(|f| f.dyn_into::<HtmlSelectElement>().ok()).map(|f| f.value());
        Filter { text: text.unwrap_or_default().trim().to_ascii_lowercase(), status: status.unwrap_or_default() }
    }

    fn is_empty(&self) -> bool {
        self.text.is_empty() && self.status.is_empty()
    }

    fn shows(&self, row: &Row) -> bool {
        (self.status.is_empty() || row.class == self.status)
            && (self.text.is_empty() || row.cells[0].0.to_ascii_lowercase().contains(&self.text))
    }
}

/// The class of a configuration's row: what became of it.
pub fn status_class(r: &ConfigResult) -> &'static str {
    match &r.outcome {
        Outcome::Skipped { .. } => "skipped",
        Outcome::Unmeasured { .. } => "unmeasured",
        Outcome::Failed { .. } => "failed",
        Outcome::Valid { suspect: Some(_) } => "suspect",
        Outcome::Valid { suspect: None } | Outcome::Measured => "valid",
    }
}

/// A configuration's row as data: every cell's text, with the number it sorts by where it has one.
fn row(r: &ConfigResult) -> Row {
    let [median, min, gbps, gflops, peak, cv, samples] = r.figures();
    let (label, shape, parameter, status) = (r.label(), r.workgroup_text(), r.parameter_text(), r.status());
    let invocations = Some(r.workgroup_size.iter().product::<u32>() as f64);
    let samples_count = Some(r.sample_count() as f64).filter(|&n| n > 0.0);
    let cells = vec![
        (label, None),
        (shape, invocations),
        (parameter, r.parameter_value().map(f64::from)),
        (median, r.median_ns),
        (min, r.min_ns),
        (gbps, r.gbps),
        (gflops, r.operation_rate()),
        (peak, r.percent_of_peak),
        (cv, r.cv),
        (samples, samples_count),
        (status, None),
    ];
    let cells = cells.into_iter().map(|(text, number)| (text, number.filter(|n| n.is_finite()))).collect();
    Row { cells, class: status_class(r) }
}
