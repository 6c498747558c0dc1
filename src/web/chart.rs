//! Charts through Chart.js (loaded before the app), configured from Rust with plain JSON values.
//!
//! One chart per family and swept axis: GB/s against workgroup size, or against the kernel's own parameter
//! (stride, offset), one line per kernel/variant.

use serde::Serialize;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use super::dom::append;
use crate::result::ConfigResult;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = Chart)]
    type JsChart;

    #[wasm_bindgen(constructor, js_class = "Chart", catch)]
    fn new(canvas: &web_sys::HtmlCanvasElement, config: &JsValue) -> Result<JsChart, JsValue>;

    #[wasm_bindgen(method)]
    fn destroy(this: &JsChart);
}

/// The charts inside one container element, redrawn from the results so far.
pub struct Charts {
    container: web_sys::Element,
    drawn: Vec<(String, JsChart)>,
}

/// Which axis a result belongs on: its family and its parameter's name, or the workgroup size.
fn axis(r: &ConfigResult) -> (String, String) {
    let x = r.parameter.as_ref().map_or("workgroup size (invocations)".to_string(), |p| p.name.clone());
    (r.family.clone(), x)
}

/// Where a result sits on its axis: the parameter's value, or the workgroup's invocations then its width.
fn x_value(r: &ConfigResult) -> (u32, u32) {
    let [x, y, z] = r.workgroup_size;
    r.parameter.as_ref().map_or((x * y * z, x), |p| (p.value, 0))
}

fn x_label(r: &ConfigResult) -> String {
    r.parameter.as_ref().map_or_else(|| r.workgroup_text(), |p| p.value.to_string())
}

impl Charts {
    pub fn new(container: web_sys::Element) -> Self {
        Self { container, drawn: Vec::new() }
    }

    /// Removes every chart.
    pub fn clear(&mut self) {
        self.drawn.drain(..).for_each(|(_, chart)| chart.destroy());
        self.container.set_inner_html("");
    }

    /// Draws (or redraws) one chart per family and axis found in `results`.
    pub fn show(&mut self, results: &[ConfigResult]) -> Result<(), JsValue> {
        let mut axes: Vec<(String, String)> = Vec::new();
        for r in results {
            if !axes.contains(&axis(r)) {
                axes.push(axis(r));
            }
        }
        for (family, x_name) in axes {
            let key = format!("{family} · {x_name}");
            let on_axis: Vec<&ConfigResult> =
                results.iter().filter(|r| axis(r) == (family.clone(), x_name.clone())).collect();
            let config = line_config(&key, &x_name, &on_axis);
            let value = config.serialize(&serde_wasm_bindgen::Serializer::json_compatible())?;
            let canvas = match self.drawn.iter().position(|(k, _)| *k == key) {
                Some(i) => {
                    let (_, old) = self.drawn.remove(i);
                    old.destroy();
                    self.container.query_selector(&format!("canvas[data-chart='{key}']"))?.ok_or("a chart's canvas")?
                }
                None => {
                    let holder = append(&self.container, "div", "chart-box", "");
                    let canvas = append(&holder, "canvas", "", "");
                    canvas.set_attribute("data-chart", &key)?;
                    canvas
                }
            };
            let canvas: web_sys::HtmlCanvasElement = canvas.dyn_into()?;
            self.drawn.push((key, JsChart::new(&canvas, &value)?));
        }
        Ok(())
    }
}

const KERNEL_COLOURS: [(&str, &str); 12] = [
    ("copy", "#1f77b4"),
    ("scale", "#2ca02c"),
    ("add", "#ff7f0e"),
    ("triad", "#d62728"),
    ("dot", "#9467bd"),
    ("coalesced", "#1f77b4"),
    ("strided", "#d62728"),
    ("random", "#9467bd"),
    ("misaligned", "#2ca02c"),
    ("copy2d", "#1f77b4"),
    ("naive", "#d62728"),
    ("tiled", "#2ca02c"),
];

fn line_config(title: &str, x_name: &str, results: &[&ConfigResult]) -> serde_json::Value {
    let mut xs: Vec<((u32, u32), String)> = results.iter().map(|r| (x_value(r), x_label(r))).collect();
    xs.sort_unstable();
    xs.dedup();
    let mut labels: Vec<String> = Vec::new();
    for r in results {
        if !labels.contains(&r.label()) {
            labels.push(r.label());
        }
    }
    let datasets: Vec<serde_json::Value> = labels
        .iter()
        .map(|label| {
            // Failed and skipped points are gaps in the line.
            let data: Vec<Option<f64>> = xs
                .iter()
                .map(|(x, _)| {
                    results.iter().find(|r| r.label() == *label && x_value(r) == *x && r.is_good()).and_then(|r| r.gbps)
                })
                .collect();
            let (kernel, variant) = label.split_once('/').unwrap_or((label, ""));
            let colour = KERNEL_COLOURS.iter().find(|(k, _)| *k == kernel).map_or("#555", |(_, c)| c);
            let dash: &[u32] = match variant {
                "vec4" => &[6, 3],
                "vec2" | "grid_stride" | "write" | "padded" => &[2, 2],
                _ => &[],
            };
            serde_json::json!({
                "label": label, "data": data, "borderColor": colour, "backgroundColor": colour,
                "borderDash": dash, "spanGaps": false, "pointRadius": 3, "borderWidth": 2,
            })
        })
        .collect();
    serde_json::json!({
        "type": "line",
        "data": { "labels": xs.iter().map(|(_, label)| label).collect::<Vec<_>>(), "datasets": datasets },
        "options": {
            "animation": false,
            "responsive": true,
            "maintainAspectRatio": false,
            "interaction": { "mode": "nearest", "intersect": false },
            "plugins": {
                "legend": { "position": "right" },
                "title": { "display": true, "text": format!("{title}: GB/s (median of the samples)") }
            },
            "scales": {
                "x": { "title": { "display": true, "text": x_name } },
                "y": { "title": { "display": true, "text": "GB/s" }, "beginAtZero": true }
            }
        }
    })
}
