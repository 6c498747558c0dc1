//! The Chart.js binding: draws the chart specifications `charts` plans (Chart.js and its matrix chart type
//! are loaded before the app), keeps them, redraws only what changed, and saves a chart as a PNG.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use super::dom::append;
use crate::charts::{self, ChartSpec};
use crate::compare;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = Chart)]
    type JsChart;

    #[wasm_bindgen(constructor, js_class = "Chart", catch)]
    fn new(canvas: &web_sys::HtmlCanvasElement, config: &JsValue) -> Result<JsChart, JsValue>;

    #[wasm_bindgen(method)]
    fn destroy(this: &JsChart);

    /// Runs Chart.js's first charts, and makes the first number format, while the page is idle (www/charts.js).
    #[wasm_bindgen(js_name = warmCharts, catch)]
    fn warm_charts() -> Result<(), JsValue>;

    /// The same steps hurried, resolved once they ran: awaited before the first chart is drawn.
    #[wasm_bindgen(js_name = chartsWarmed, catch)]
    fn charts_warmed() -> Result<js_sys::Promise, JsValue>;
}

/// Readies the charts' code once the page's start is over, so that the first chart drawn is not also the
/// first that Chart.js runs: that one took 62–69 ms on an H200's host.
pub fn warm_up() {
    // Without Chart.js no chart is drawn, and the page says so where one would be.
    warm_charts().ok();
}

type Callback = Closure<dyn Fn(JsValue, JsValue, JsValue) -> JsValue>;

/// A chart on the page, with the configuration it was drawn from and the callbacks it calls; its Chart.js
/// chart once it is drawn (`in_turn`).
struct Drawn {
    key: String,
    config: Value,
    canvas: web_sys::HtmlCanvasElement,
    chart: Rc<RefCell<Option<JsChart>>>,
    _callbacks: Vec<Callback>,
}

impl Drawn {
    fn destroy(&self) {
        if let Some(chart) = self.chart.borrow_mut().take() {
            chart.destroy();
        }
    }
}

/// The time the page gives drawing charts in one of its tasks, at least one chart: Chart.js takes from a few
/// to tens of milliseconds for one on a slow machine, and a result may call for a hundred. The others wait
/// for the page's next turns, their canvases marked `data-pending` meanwhile. A chart begun near the end of
/// the time runs past it, and the browser lays the page out after: the slice the page's other long work
/// takes before a turn, well under the 50 ms of a long task.
const DRAWING_MS_PER_TASK: f64 = crate::host::SLICE_MS;

thread_local! {
    /// Drawings waiting for a turn, oldest first.
    static WAITING: RefCell<Vec<Box<dyn FnOnce()>>> = RefCell::default();
    /// When this task began drawing charts, where it has (and the turns after it have not yet drawn them
    /// all), or asked for turns to draw them in.
    static DRAWING_SINCE: Cell<Option<f64>> = const { Cell::new(None) };
    /// Whether Chart.js's warm-up ran (`warm_up`): until it has, charts wait for it.
    static WARMED: Cell<bool> = const { Cell::new(false) };
}

/// Runs `draw` now where this task's drawing is within `DRAWING_MS_PER_TASK` and none waits, else in a later
/// turn, in the order asked.
fn in_turn(draw: impl FnOnce() + 'static) {
    let now = super::dom::now_ms();
    let since = DRAWING_SINCE.get();
    if since.is_none() {
        DRAWING_SINCE.set(Some(now));
        super::dom::spawn(next_turns());
    }
    let in_time = since.is_none_or(|since| now - since < DRAWING_MS_PER_TASK);
    if WARMED.get() && in_time && WAITING.with_borrow(Vec::is_empty) {
        draw();
    } else {
        WAITING.with_borrow_mut(|waiting| waiting.push(Box::new(draw)));
    }
}

/// A turn at a time, the charts that wait, for `DRAWING_MS_PER_TASK` a turn, until none waits.
async fn next_turns() {
    if !WARMED.get() {
        // A result opened at once draws before the page was ever idle: its first chart would also be
        // Chart.js's first (111–131 ms on an H200's host).
        if let Ok(warmed) = charts_warmed() {
            wasm_bindgen_futures::JsFuture::from(warmed).await.ok();
        }
        WARMED.set(true);
    }
    loop {
        crate::host::yield_now().await;
        let started = super::dom::now_ms();
        DRAWING_SINCE.set(Some(started));
        while super::dom::now_ms() - started < DRAWING_MS_PER_TASK {
            let next = WAITING.with_borrow_mut(|waiting| (!waiting.is_empty()).then(|| waiting.remove(0)));
            let Some(draw) = next else {
                DRAWING_SINCE.set(None);
                return;
            };
            draw();
        }
    }
}

/// The charts inside one container element, redrawn from the results so far.
pub struct Charts {
    container: web_sys::Element,
    drawn: Vec<Drawn>,
}

impl Charts {
    /// Charts drawn inside `container`; each gets a button that saves it as a PNG image.
    pub fn new(container: web_sys::Element) -> Self {
        let save = Closure::<dyn FnMut(web_sys::Event)>::new(|event: web_sys::Event| {
            let Some(button) = event.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
            if button.class_name() != "save-chart" {
                return;
            }
            let canvas = button.parent_element().and_then(|holder| holder.query_selector("canvas").ok().flatten());
            if let Some(canvas) = canvas.and_then(|c| c.dyn_into::<web_sys::HtmlCanvasElement>().ok()) {
                let name = canvas.get_attribute("data-chart").unwrap_or_default();
                let file: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
                if let Ok(url) = canvas.to_data_url() {
                    save_url(&format!("wgsweep-{file}.png"), &url);
                }
            }
        });
        container.add_event_listener_with_callback("click", save.as_ref().unchecked_ref()).ok();
        save.forget(); // lives as long as the page's container
        Self { container, drawn: Vec::new() }
    }

    /// Removes every chart.
    pub fn clear(&mut self) {
        self.drawn.drain(..).for_each(|d| d.destroy());
        self.container.set_inner_html("");
    }

    /// Draws one chart per kernel with every compared result's figure over the workgroup shapes.
    pub fn show_comparison(&mut self, rows: &[compare::Row], names: &[String]) -> Result<(), JsValue> {
        self.clear();
        self.draw(charts::plan_comparison(rows, names))
    }

    /// Draws the planned charts; one whose configuration has not changed is left as it is.
    pub fn draw(&mut self, planned_charts: Vec<ChartSpec>) -> Result<(), JsValue> {
        let order: Vec<String> = planned_charts.iter().map(|p| p.key.clone()).collect();
        for planned in planned_charts {
            let existing = self.drawn.iter().position(|d| d.key == planned.key);
            if existing.is_some_and(|i| self.drawn[i].config == planned.config) {
                continue;
            }
            let canvas = match existing {
                Some(i) => {
                    let old = self.drawn.remove(i);
                    old.destroy();
                    old.canvas.clone()
                }
                None => {
                    let class = if planned.cells.is_some() { "chart-box heatmap" } else { "chart-box" };
                    let holder = append(&self.container, "div", class, "");
                    // A heatmap of many rows (a user's kernel's tunables) gets the width and a row's height each.
                    if let Some((_, rows)) = planned.cells.filter(|&(_, rows)| rows > TALL_HEATMAP_ROWS) {
                        holder.set_class_name("chart-box heatmap tall");
                        // Through the CSSOM: the Content-Security-Policy refuses style attributes.
                        let style = holder.clone().dyn_into::<web_sys::HtmlElement>()?.style();
                        style.set_property("height", &format!("{}rem", 8.0 + 1.1 * rows as f64))?;
                    }
                    let save = append(&holder, "button", "save-chart", "Save image");
                    save.set_attribute("title", "Save this chart as a PNG image")?;
                    let canvas = append(&holder, "canvas", "", "");
                    canvas.set_attribute("data-chart", &planned.key)?;
                    canvas.dyn_into()?
                }
            };
            let value = planned.config.serialize(&serde_wasm_bindgen::Serializer::json_compatible())?;
            let mut callbacks = match planned.cells {
                Some(cells) => cell_size_callbacks(&value, cells)?,
                None => Vec::new(),
            };
            if planned.point_text {
                callbacks.push(tooltip_text_callback(&value)?);
            }
            for axis in ["x", "y"] {
                if planned.config["options"]["scales"][axis]["type"] == "logarithmic" {
                    callbacks.push(log_ticks_callback(&value, axis)?);
                }
            }
            // Drawn in turn; not at all where the chart is replaced or removed before its turn comes.
            let chart: Rc<RefCell<Option<JsChart>>> = Rc::default();
            let (slot, on) = (Rc::downgrade(&chart), canvas.clone());
            canvas.set_attribute("data-pending", "")?;
            in_turn(move || {
                let Some(slot) = slot.upgrade() else { return };
                on.remove_attribute("data-pending").ok();
                match JsChart::new(&on, &value) {
                    Ok(chart) => *slot.borrow_mut() = Some(chart),
                    Err(e) => super::dom::show_message("error", &format!("A chart could not be drawn: {e:?}")),
                }
            });
            self.drawn.push(Drawn { key: planned.key, config: planned.config, canvas, chart, _callbacks: callbacks });
        }
        // Charts that appear mid-run (a new heatmap, the roofline) join at the end: put them in plan order.
        for key in &order {
            let holder = self.drawn.iter().find(|d| &d.key == key).and_then(|d| d.canvas.parent_element());
            if let Some(holder) = holder {
                self.container.append_child(&holder)?;
            }
        }
        Ok(())
    }
}

/// Saves a `data:` URL (a chart's PNG) as a file.
fn save_url(filename: &str, url: &str) {
    if let Ok(link) = super::dom::element("a", "", "").dyn_into::<web_sys::HtmlAnchorElement>() {
        link.set_href(url);
        link.set_download(filename);
        link.click();
    }
}

fn get(value: &JsValue, path: &[&str]) -> Result<JsValue, JsValue> {
    path.iter().try_fold(value.clone(), |v, key| js_sys::Reflect::get(&v, &JsValue::from_str(key)))
}

/// Rows past which a heatmap grows taller than the box every other chart has.
const TALL_HEATMAP_ROWS: usize = 16;

/// The callbacks that size a heatmap's cells to fill the chart area, set into its configuration.
fn cell_size_callbacks(config: &JsValue, (columns, rows): (usize, usize)) -> Result<Vec<Callback>, JsValue> {
    let cell = |axis: &'static str, count: usize| -> Callback {
        Closure::new(move |context: JsValue, _: JsValue, _: JsValue| {
            let area = js_sys::Reflect::get(&context, &"chart".into())
                .and_then(|chart| js_sys::Reflect::get(&chart, &"chartArea".into()))
                .and_then(|area| js_sys::Reflect::get(&area, &axis.into()));
            let extent = area.ok().and_then(|a| a.as_f64()).unwrap_or(0.0);
            JsValue::from_f64((extent / count as f64 - 2.0).max(1.0))
        })
    };
    let width = cell("width", columns);
    let height = cell("height", rows);
    let dataset = get(config, &["data", "datasets", "0"])?;
    js_sys::Reflect::set(&dataset, &"width".into(), width.as_ref())?;
    js_sys::Reflect::set(&dataset, &"height".into(), height.as_ref())?;
    Ok(vec![width, height])
}

/// A tooltip that shows the hovered point's `text`, set into the chart's configuration.
fn tooltip_text_callback(config: &JsValue) -> Result<Callback, JsValue> {
    let label: Callback = Closure::new(|context: JsValue, _: JsValue, _: JsValue| {
        js_sys::Reflect::get(&context, &"raw".into())
            .and_then(|raw| js_sys::Reflect::get(&raw, &"text".into()))
            .unwrap_or(JsValue::UNDEFINED)
    });
    let callbacks = get(config, &["options", "plugins", "tooltip", "callbacks"])?;
    js_sys::Reflect::set(&callbacks, &"label".into(), label.as_ref())?;
    Ok(label)
}

/// Labels a logarithmic axis at powers of ten ("0.1", "1", "10", "1k") where it spans several decades, at
/// 1, 2 and 5 times them where it spans less, and at every tick where it spans less than a factor of 3:
/// Chart.js labels 1, 2, 3 and 5 of every decade, which crowds an axis of several decades.
fn log_ticks_callback(config: &JsValue, axis: &str) -> Result<Callback, JsValue> {
    let label: Callback = Closure::new(|value: JsValue, _index: JsValue, ticks: JsValue| {
        let value = value.as_f64().unwrap_or(0.0);
        let ticks = js_sys::Array::from(&ticks);
        let tick = |i: u32| get(&ticks.get(i), &["value"]).ok().and_then(|v| v.as_f64()).unwrap_or(value);
        let span = (tick(ticks.length().saturating_sub(1)) / tick(0)).abs().log10();
        let decade = 10f64.powf(value.log10().floor());
        let significand = (value / decade * 1000.0).round() / 1000.0;
        let shown = match span {
            s if s < 0.5 => true,
            s if s < 2.5 => [1.0, 2.0, 5.0].contains(&significand),
            _ => significand == 1.0,
        };
        JsValue::from_str(&if shown { compact(value) } else { String::new() })
    });
    let scale = get(config, &["options", "scales", axis])?;
    let ticks = js_sys::Object::new();
    js_sys::Reflect::set(&ticks, &"callback".into(), label.as_ref())?;
    js_sys::Reflect::set(&ticks, &"maxRotation".into(), &0.into())?;
    js_sys::Reflect::set(&scale, &"ticks".into(), &ticks)?;
    Ok(label)
}

/// A tick's value in few characters: 0.05, 0.5, 5, 50, 500, 5k, 50k, 5M.
fn compact(value: f64) -> String {
    let trimmed = |v: f64| format!("{v:.4}").trim_end_matches('0').trim_end_matches('.').to_string();
    match value {
        v if v >= 1e6 => format!("{}M", trimmed(v / 1e6)),
        v if v >= 1e3 => format!("{}k", trimmed(v / 1e3)),
        v => trimmed(v),
    }
}
