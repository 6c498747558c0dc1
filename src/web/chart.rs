//! Charts through Chart.js (www: loaded before the app), configured from Rust with plain JSON values.

use serde::Serialize;
use wasm_bindgen::prelude::*;

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

/// One chart on one canvas, replaced wholesale on every update.
pub struct Chart {
    canvas: web_sys::HtmlCanvasElement,
    current: Option<JsChart>,
}

impl Chart {
    pub fn new(canvas: web_sys::HtmlCanvasElement) -> Self {
        Self { canvas, current: None }
    }

    /// GB/s against workgroup size, one line per kernel/variant; failed and skipped points are gaps.
    pub fn show_bandwidth(&mut self, results: &[ConfigResult]) -> Result<(), JsValue> {
        let config = bandwidth_config(results);
        let value = config.serialize(&serde_wasm_bindgen::Serializer::json_compatible())?;
        if let Some(old) = self.current.take() {
            old.destroy();
        }
        self.current = Some(JsChart::new(&self.canvas, &value)?);
        Ok(())
    }
}

const KERNEL_COLOURS: [(&str, &str); 5] =
    [("copy", "#1f77b4"), ("scale", "#2ca02c"), ("add", "#ff7f0e"), ("triad", "#d62728"), ("dot", "#9467bd")];

fn bandwidth_config(results: &[ConfigResult]) -> serde_json::Value {
    let mut sizes: Vec<u32> = results.iter().map(|r| r.workgroup_size[0]).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let mut labels: Vec<String> = Vec::new();
    for r in results {
        if !labels.contains(&r.label()) {
            labels.push(r.label());
        }
    }
    let datasets: Vec<serde_json::Value> = labels
        .iter()
        .map(|label| {
            let data: Vec<Option<f64>> = sizes
                .iter()
                .map(|&size| {
                    results
                        .iter()
                        .find(|r| r.label() == *label && r.workgroup_size[0] == size && r.is_good())
                        .and_then(|r| r.gbps)
                })
                .collect();
            let (kernel, variant) = label.split_once('/').unwrap_or((label, ""));
            let colour = KERNEL_COLOURS.iter().find(|(k, _)| *k == kernel).map_or("#555", |(_, c)| c);
            let dash: &[u32] = match variant {
                "vec4" => &[6, 3],
                "grid_stride" => &[2, 2],
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
        "data": { "labels": sizes.iter().map(u32::to_string).collect::<Vec<_>>(), "datasets": datasets },
        "options": {
            "animation": false,
            "responsive": true,
            "maintainAspectRatio": false,
            "interaction": { "mode": "nearest", "intersect": false },
            "plugins": {
                "legend": { "position": "right" },
                "title": { "display": true, "text": "Bandwidth by workgroup size (median of the samples)" }
            },
            "scales": {
                "x": { "title": { "display": true, "text": "workgroup size (invocations)" } },
                "y": { "title": { "display": true, "text": "GB/s" }, "beginAtZero": true }
            }
        }
    })
}
