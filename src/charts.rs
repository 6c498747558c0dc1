//! Chart specifications planned from results: which charts a run, an opened result or a comparison calls
//! for, each a Chart.js configuration (a JSON value) with its series, axes and colours. Pure, so it is
//! tested natively; `web::chart` only draws them.
//!
//! Each family gets the chart its `ChartKind` names: lines of GB/s against the workgroup size or the
//! kernel's parameter; a heatmap of GB/s over 2-D workgroup shapes for each kernel variant; or bars of each
//! variant's best GB/s. Families whose every kernel counts flops (matmul, the compute peak) draw GFLOP/s
//! instead. Below them, a roofline puts every kernel that counts flops under the run's two ceilings.
//! Figures without wgpu's shader checks (native results) are series of their own.

use std::collections::{HashMap, HashSet};
use std::hash::Hash;

use serde_json::{Value, json};

use crate::kernel::{ChartKind, ShaderChecks};
use crate::result::{ConfigResult, Peaks, Unit, format_gbps};
use crate::stats::groups;
use crate::{compare, kernels};

/// One chart the results call for.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartSpec {
    /// Names the chart; also its canvas's `data-chart` attribute.
    pub key: String,
    /// The family whose results it draws; none for the roofline, which draws every family's.
    pub family: Option<String>,
    /// The Chart.js configuration.
    pub config: Value,
    /// A heatmap's columns and rows: its cells are sized to the chart area when drawn.
    pub cells: Option<(usize, usize)>,
    /// Its points carry their tooltip's text.
    pub point_text: bool,
}

impl ChartSpec {
    /// A chart of one family's results, its points without text of their own.
    fn of_family(key: String, config: Value, family: &str) -> Self {
        ChartSpec { key, config, family: Some(family.to_string()), cells: None, point_text: false }
    }
}

/// The series a result belongs to: its kernel/variant, marked when wgpu's checks were off.
fn series(r: &ConfigResult) -> String {
    match r.shader_checks {
        ShaderChecks::Default => r.label(),
        checks => format!("{} ({})", r.label(), checks.name()),
    }
}

/// The series of a heatmap: a kernel variant at one value of its parameter, if it has one.
fn heatmap_series(r: &ConfigResult) -> String {
    match r.parameter_text() {
        parameter if parameter.is_empty() => series(r),
        parameter => format!("{} · {parameter}", series(r)),
    }
}

/// Each item once, in the order it first appears.
fn unique<T: Eq + Hash + Clone>(items: impl Iterator<Item = T>) -> Vec<T> {
    let mut seen = HashSet::new();
    items.filter(|item| seen.insert(item.clone())).collect()
}

/// The most charts a family draws: a real run draws at most 18 (transpose over three matrices); a result
/// with more says how many it left out, and its table holds every row.
pub const MAX_CHARTS_PER_FAMILY: usize = 24;
/// The most kernels the roofline draws, each a series in its legend (the runs recorded in docs/results draw
/// at most 16): a crafted result of thousands held the page's thread for most of a second.
pub const MAX_ROOFLINE_KERNELS: usize = 32;

/// The most points a line has: beyond it, neighbouring values share a point, the best of them (no run
/// sweeps a parameter over more than a few dozen values; a crafted result may over thousands).
pub const MAX_POINTS: usize = 200;

/// Every chart the results call for, family by family in the order they appear, at most
/// `MAX_CHARTS_PER_FAMILY` each.
pub fn plan(results: &[ConfigResult], peaks: &Peaks) -> Vec<ChartSpec> {
    let mut planned = Vec::new();
    for (family, of_family) in groups(results, |r| r.family.clone()) {
        planned.extend(family_charts(&family, &of_family).0);
    }
    let every: Vec<&ConfigResult> = results.iter().collect();
    planned.extend(roofline(&every, peaks));
    planned
}

/// One family's charts (at most `MAX_CHARTS_PER_FAMILY`), and how many more it would have.
pub fn family_charts(family: &str, of_family: &[&ConfigResult]) -> (Vec<ChartSpec>, usize) {
    let kind = kernels::presentation(family).map_or(ChartKind::Lines, |p| p.chart);
    let mut of_this = FamilyCharts::default();
    // A user's kernel: its chart follows what its configurations vary, known from the results alone.
    let users = of_family.iter().all(|r| r.size_and_tunables().is_some());
    match kind {
        _ if users => tunables_charts(family, of_family, &mut of_this),
        ChartKind::Lines => {
            // Kernels of different kinds of operation (the peaks' f32, f16, i32 and int8 chains) get charts
            // of their own.
            let kinds = unique(of_family.iter().map(|r| r.operations));
            for ((x_name, kind), on_axis) in groups(of_family.iter().copied(), |r| (x_axis(r), r.operations)) {
                let of_kind = if kinds.len() > 1 { format!(" · {}", kind.name()) } else { String::new() };
                for (part, of_part) in few_lines(&on_axis) {
                    // Nothing measured (kernels this device skips): no chart of empty lines.
                    if !of_part.iter().any(|r| r.is_good()) {
                        continue;
                    }
                    of_this.add(|| {
                        let key = format!("{family} · {x_name}{of_kind}{part}");
                        let config = line_config(&key, &x_name, &of_part);
                        ChartSpec::of_family(key, config, family)
                    });
                }
            }
        }
        ChartKind::Heatmap => {
            // Colours compare the kernels of a family at the same parameter (a radius changes the work
            // many times over, a matrix shape does not).
            let mut best_at: HashMap<Option<u32>, f64> = HashMap::new();
            for r in of_family.iter().filter(|r| r.is_good()) {
                let best = best_at.entry(r.parameter_value()).or_insert(0.0);
                *best = best.max(r.gbps.unwrap_or(0.0));
            }
            for (name, of_series) in groups(of_family.iter().copied(), heatmap_series) {
                let best = best_at.get(&of_series[0].parameter_value()).copied().unwrap_or(0.0);
                of_this.add(|| {
                    let key = format!("{family} · {name}");
                    let (config, cells) = heatmap_config(&key, &of_series, best);
                    let family = Some(family.to_string());
                    ChartSpec { key, config, family, cells: Some(cells), point_text: true }
                });
            }
        }
        ChartKind::Bars => {
            for moved in [false, true] {
                of_this.add(|| {
                    let key = format!("{family} · {}", if moved { "bytes moved" } else { "bytes used" });
                    let config = bars_config(&key, of_family, moved);
                    ChartSpec::of_family(key, config, family)
                });
            }
        }
    }
    (of_this.charts, of_this.left_out)
}

/// The roofline over every family's kernels that count flops, where any ran validly.
pub fn roofline(results: &[&ConfigResult], peaks: &Peaks) -> Option<ChartSpec> {
    let good = results.iter().any(|r| r.is_good() && r.intensity().is_some());
    good.then(|| ChartSpec {
        config: roofline_config(results, peaks),
        key: "roofline".to_string(),
        family: None,
        cells: None,
        point_text: true,
    })
}

/// A user's kernel's charts, one per problem size: a line over the one thing its configurations vary
/// (the workgroup's shape or a tunable), or a heatmap over the first two (the workgroup's shape, if it
/// varies, along x; the other tunables together up the y axis).
fn tunables_charts<'a>(family: &str, results: &[&'a ConfigResult], charts: &mut FamilyCharts) {
    let size = |r: &ConfigResult| r.size_and_tunables().map_or(String::new(), |(size, _)| size.to_string());
    for (size, at_size) in groups(results.iter().copied(), size) {
        if !at_size.iter().any(|r| r.is_good()) {
            continue;
        }
        if charts.full() {
            charts.left_out += 1;
            continue;
        }
        // Along dimension 0 the workgroup's shape; along d the (d-1)th tunable ("TILE=8").
        let value = |r: &ConfigResult, d: usize| match d {
            0 => r.workgroup_text(),
            d => r.size_and_tunables().and_then(|(_, t)| t.split(' ').nth(d - 1)).unwrap_or("").to_string(),
        };
        let name = |d: usize| match d {
            0 => "workgroup".to_string(),
            d => value(at_size[0], d).split_once('=').map_or(String::new(), |(n, _)| n.to_string()),
        };
        let dimensions =
            1 + at_size[0].size_and_tunables().map_or(0, |(_, t)| t.split(' ').filter(|p| !p.is_empty()).count());
        let varying: Vec<usize> =
            (0..dimensions).filter(|&d| unique(at_size.iter().map(|r| value(r, d))).len() > 1).collect();
        let key = format!("{family} · {size}");
        // GFLOP/s where the kernel does a flop or more per byte it moves (a matmul), else GB/s (a triad).
        let compute_bound = at_size.iter().all(|r| r.intensity().is_some_and(|i| i >= 1.0));
        let rate: (&str, fn(&ConfigResult) -> Option<f64>) = match compute_bound {
            true => (Unit::GflopPerS.name(), ConfigResult::gflops),
            false => (Unit::GbPerS.name(), |r| r.gbps),
        };
        let config = match varying.as_slice() {
            [] | [_] => {
                let along = varying.first().copied().unwrap_or(0);
                let points = groups(at_size.iter().copied(), |r| value(r, along));
                let labels: Vec<&String> = points.iter().map(|(label, _)| label).collect();
                let best = |rows: &Vec<&'a ConfigResult>| {
                    let figures = rows.iter().filter(|r| r.is_good()).filter_map(|r| Some(((rate.1)(r)?, *r)));
                    figures.max_by(|a, b| a.0.total_cmp(&b.0))
                };
                let best: Vec<_> = points.iter().map(|(_, rows)| best(rows)).collect();
                let (data, intervals) = figures_and_intervals(&best);
                let colour = kernel_colour(family, &at_size[0].kernel);
                let mut options = common_options(json!(key.clone()), &name(along), &rate_axis(rate.0));
                options["plugins"]["legend"] = json!({ "display": false });
                let dataset = json!({ "label": series(at_size[0]), "data": data, "intervals": intervals,
                                      "borderColor": colour, "backgroundColor": colour, "spanGaps": false });
                json!({ "type": "line", "data": { "labels": labels, "datasets": [dataset] }, "options": options })
            }
            [x, rest @ ..] => {
                let across = |r: &ConfigResult| rest.iter().map(|&d| value(r, d)).collect::<Vec<_>>().join(" ");
                let cells: Vec<Cell> = at_size
                    .iter()
                    .map(|r| Cell {
                        x: value(r, *x),
                        y: across(r),
                        result: r,
                        name: format!("{} {}", value(r, *x), across(r)),
                    })
                    .collect();
                let labels = (unique(cells.iter().map(|c| c.x.clone())), unique(cells.iter().map(|c| c.y.clone())));
                let best = at_size.iter().filter(|r| r.is_good()).filter_map(|r| (rate.1)(r)).fold(0.0, f64::max);
                let y_name = rest.iter().map(|&d| name(d)).collect::<Vec<_>>().join(", ");
                let heading = format!(
                    "{} by {} and {y_name}: dark is slow, yellow is {} {}",
                    rate.0,
                    name(*x),
                    format_gbps(best),
                    rate.0
                );
                let (config, cells) = matrix_config(&key, &heading, (&name(*x), &y_name), labels, &cells, best, rate);
                let family = Some(family.to_string());
                charts.add(|| ChartSpec { key, config, family, cells: Some(cells), point_text: true });
                continue;
            }
        };
        charts.add(|| ChartSpec::of_family(key, config, family));
    }
}

/// A family's charts as they are planned: made while there is room (`MAX_CHARTS_PER_FAMILY`), only counted
/// after it, so that a result of thousands of kernels costs no more than its charts drawn.
#[derive(Default)]
struct FamilyCharts {
    charts: Vec<ChartSpec>,
    left_out: usize,
}

impl FamilyCharts {
    fn full(&self) -> bool {
        self.charts.len() >= MAX_CHARTS_PER_FAMILY
    }

    fn add(&mut self, chart: impl FnOnce() -> ChartSpec) {
        match self.full() {
            true => self.left_out += 1,
            false => self.charts.push(chart()),
        }
    }
}

/// The most lines a chart draws: more than a person tells apart by colour and dash.
pub const MAX_LINES: usize = 6;

/// The results of one line chart in parts of at most `MAX_LINES` series, each with the suffix of its key:
/// all in one where they fit, else a chart per variant (" · vec4"), a variant's series in parts of
/// `MAX_LINES` where it still has more (" · vec4 (2 of 2)").
fn few_lines<'a>(results: &[&'a ConfigResult]) -> Vec<(String, Vec<&'a ConfigResult>)> {
    if unique(results.iter().map(|r| series(r))).len() <= MAX_LINES {
        return vec![(String::new(), results.to_vec())];
    }
    let mut parts = Vec::new();
    for (variant, of_variant) in groups(results.iter().copied(), |r| r.variant.clone()) {
        let of_series = groups(of_variant.iter().copied(), series);
        let chunks: Vec<_> = of_series.chunks(MAX_LINES).collect();
        for (i, chunk) in chunks.iter().enumerate() {
            let suffix = match chunks.len() {
                1 => format!(" · {variant}"),
                n => format!(" · {variant} ({} of {n})", i + 1),
            };
            let of_chunk = chunk.iter().flat_map(|(_, rows)| rows.iter().copied()).collect();
            parts.push((suffix, of_chunk));
        }
    }
    parts
}

/// The most charts a comparison draws: one per kernel variant under each of the three shader checks.
fn max_comparison_charts() -> usize {
    3 * kernels::all().len()
}

/// Per kernel (with its checks), a line per compared result over the shapes and parameter values any of
/// them measured (at most `max_comparison_charts`).
pub fn plan_comparison(rows: &[compare::Row], names: &[String]) -> Vec<ChartSpec> {
    let point = |row: &compare::Row| match row.parameter.as_str() {
        "" => row.workgroup.clone(),
        parameter => format!("{} · {parameter}", row.workgroup),
    };
    let mut planned = Vec::new();
    for (kernel, mut of_kernel) in groups(rows, compare::Row::series).into_iter().take(max_comparison_charts()) {
        // A crafted comparison may hold thousands of configurations of one kernel: the chart shows the first.
        let configurations = of_kernel.len();
        of_kernel.truncate(MAX_POINTS);
        let labels: Vec<String> = of_kernel.iter().map(|r| point(r)).collect();
        let datasets: Vec<Value> = names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let colour = COMPARE_COLOURS[i % COMPARE_COLOURS.len()];
                let data: Vec<Option<f64>> = of_kernel.iter().map(|r| r.figures[i]).collect();
                let intervals: Vec<Option<[f64; 2]>> =
                    of_kernel.iter().map(|r| r.measured[i].as_ref().and_then(compare::Figures::interval)).collect();
                // Results that agree draw on top of each other: dashes and larger points keep both visible.
                let dash: &[u32] = if i == 0 { &[] } else { &[6, 4] };
                json!({
                    "label": name, "data": data, "intervals": intervals, "borderColor": colour,
                    "backgroundColor": colour, "borderDash": dash, "spanGaps": false, "pointRadius": 3 + 2 * i.min(2),
                    "borderWidth": 2,
                })
            })
            .collect();
        let unit = of_kernel[0].unit;
        let key = format!("compare · {kernel}");
        let figures = of_kernel.iter().flat_map(|r| r.figures.iter().flatten().copied());
        let (low, high) = figures.fold((f64::MAX, 0.0f64), |(low, high), f| (low.min(f), high.max(f)));
        // Devices far apart (a laptop and a data-centre GPU) would flatten the slower one's line at zero.
        let log = high > 30.0 * low && low > 0.0;
        let scale = if log { " (log scale)" } else { "" };
        let first = match configurations > MAX_POINTS {
            true => format!(" (the first {MAX_POINTS} of {configurations} configurations)"),
            false => String::new(),
        };
        let title = json!(format!("{kernel}: {unit}{scale}{first}"));
        let mut options = common_options(title, "workgroup shape", &rate_axis(unit));
        if log {
            options["scales"]["y"]["type"] = json!("logarithmic");
            options["scales"]["y"]["beginAtZero"] = json!(false);
        }
        options["interaction"] = json!({ "mode": "index", "intersect": false });
        options["plugins"]["legend"]["position"] = json!("bottom");
        let config = json!({ "type": "line", "data": { "labels": labels, "datasets": datasets }, "options": options });
        planned.push(ChartSpec { key, config, family: None, cells: None, point_text: false });
    }
    planned
}

/// One colour per compared result, told apart without colour vision by lightness too.
const COMPARE_COLOURS: [&str; 6] = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf"];

/// The x axis a line chart puts a result on: its parameter's name, or the workgroup size.
fn x_axis(r: &ConfigResult) -> String {
    r.parameter.as_ref().map_or("workgroup size (invocations)".to_string(), |p| p.name.clone())
}

/// Where a result sits on its axis: the parameter's value, or the workgroup's invocations then its width.
fn x_value(r: &ConfigResult) -> (u32, u32) {
    let [x, y, z] = r.workgroup_size;
    r.parameter.as_ref().map_or((x * y * z, x), |p| (p.value, 0))
}

fn x_label(r: &ConfigResult) -> String {
    r.parameter.as_ref().map_or_else(|| r.workgroup_text(), |p| p.value.to_string())
}

/// Colours told apart by hue and lightness; a family's kernels (and a layout's variants) take them in the
/// family's own order, so a new family or kernel needs no entry anywhere.
const PALETTE: [&str; 8] = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#17becf", "#8c564b", "#e377c2"];
/// For what no registered family names (a result from a later wgsweep).
const UNKNOWN_COLOUR: &str = "#555555";

/// The colour of `name` among `names`, in order.
fn colour_at(names: &[&str], name: &str) -> &'static str {
    names.iter().position(|n| *n == name).map_or(UNKNOWN_COLOUR, |i| PALETTE[i % PALETTE.len()])
}

/// A kernel's colour: by its place among its family's kernels.
pub fn kernel_colour(family: &str, kernel: &str) -> &'static str {
    let kernels = kernels::family(family).map(|f| f.kernels()).unwrap_or_default();
    colour_at(&unique(kernels.iter().map(|k| k.kernel)), kernel)
}

/// A variant's colour: by its place among its family's variants (bars of layouts).
pub fn variant_colour(family: &str, variant: &str) -> &'static str {
    let kernels = kernels::family(family).map(|f| f.kernels()).unwrap_or_default();
    colour_at(&unique(kernels.iter().map(|k| k.variant)), variant)
}

/// A rate's axis title, saying which way is better.
fn rate_axis(unit: &str) -> String {
    format!("{unit}, higher is better")
}

fn common_options(title: Value, x_name: &str, y_name: &str) -> Value {
    json!({
        "animation": false,
        "responsive": true,
        "maintainAspectRatio": false,
        "plugins": { "legend": { "position": "right" }, "title": { "display": true, "text": title } },
        "scales": {
            "x": { "title": { "display": true, "text": x_name } },
            "y": { "title": { "display": true, "text": y_name }, "beginAtZero": true }
        }
    })
}

/// The figure a line chart draws: the headline where every result's is in one unit of operations (GFLOP/s,
/// GIOP/s, GOP/s), else GB/s.
fn rate(results: &[&ConfigResult]) -> (&'static str, fn(&ConfigResult) -> Option<f64>) {
    match results.first().map(|r| r.unit()) {
        Some(unit) if unit != Unit::GbPerS && results.iter().all(|r| r.unit() == unit) => {
            (unit.name(), ConfigResult::headline)
        }
        _ => (Unit::GbPerS.name(), |r| r.gbps),
    }
}

fn line_config(title: &str, x_name: &str, results: &[&ConfigResult]) -> Value {
    let (unit, figure) = rate(results);
    let mut xs: Vec<((u32, u32), String)> = unique(results.iter().map(|r| (x_value(r), x_label(r))));
    crate::sort::ascending(&mut xs);
    xs.dedup_by_key(|(x, _)| *x);
    // Neighbouring values share a point where there are too many to tell apart: each point is a span of
    // `per_point` values, labelled by its first and last.
    let per_point = xs.len().div_ceil(MAX_POINTS).max(1);
    let point_of: HashMap<(u32, u32), usize> = xs.iter().enumerate().map(|(i, (x, _))| (*x, i / per_point)).collect();
    let labels: Vec<String> = xs
        .chunks(per_point)
        .map(|span| match span {
            [(_, only)] => only.clone(),
            [(_, first), .., (_, last)] => format!("{first}–{last}"),
            [] => String::new(),
        })
        .collect();
    let variants_of: Vec<(String, Vec<String>)> = groups(results.iter().copied(), |r| r.kernel.clone())
        .into_iter()
        .map(|(kernel, of_kernel)| (kernel, unique(of_kernel.iter().map(|r| r.variant.clone()))))
        .collect();
    let mut several_per_point = false;
    let datasets: Vec<Value> = groups(results.iter().copied(), series)
        .iter()
        .filter_map(|(name, of_series)| {
            // Failed and skipped points are gaps in the line; where a parameter was swept over several
            // workgroup sizes, or a point spans several values, a point is the best of them.
            let mut best: Vec<Option<(f64, &ConfigResult)>> = vec![None; labels.len()];
            let mut seen = HashSet::new();
            for r in of_series {
                several_per_point |= !seen.insert(x_value(r));
                let at = point_of[&x_value(r)];
                if let Some(f) = figure(r).filter(|_| r.is_good())
                    && best[at].is_none_or(|(kept, _)| f > kept)
                {
                    best[at] = Some((f, r));
                }
            }
            // A series with nothing measured (a kernel this device skips) draws no line and takes no place
            // in the legend.
            if best.iter().all(Option::is_none) {
                return None;
            }
            let (data, intervals) = figures_and_intervals(&best);
            let first = of_series[0];
            let mut colour = kernel_colour(&first.family, &first.kernel).to_string();
            if first.shader_checks != ShaderChecks::Default {
                colour.push_str("80"); // half opacity
            }
            // A kernel's variants share its colour: the first is solid, the next dashed, then dotted.
            let variants = variants_of.iter().find(|(k, _)| *k == first.kernel).map(|(_, v)| v.as_slice());
            let dash: &[u32] = match variants.unwrap_or_default().iter().position(|v| *v == first.variant) {
                Some(0) => &[],
                Some(1) => &[6, 3],
                _ => &[2, 2],
            };
            Some(json!({
                "label": name, "data": data, "intervals": intervals, "borderColor": colour,
                "backgroundColor": colour, "borderDash": dash, "spanGaps": false, "pointRadius": 3, "borderWidth": 2,
            }))
        })
        .collect();
    let what = match (per_point, several_per_point) {
        (1, false) => "median of the samples, bars its 95 % interval".to_string(),
        (1, true) => "best workgroup size at each point".to_string(),
        (n, _) => format!("{} values, the best of every {n} at each point", xs.len()),
    };
    let mut options = common_options(json!(format!("{title}: {unit} ({what})")), x_name, &rate_axis(unit));
    options["interaction"] = json!({ "mode": "nearest", "intersect": false });
    json!({ "type": "line", "data": { "labels": labels, "datasets": datasets }, "options": options })
}

/// Each point's figure, and its 95 % interval (`ConfigResult::figure_interval`), from the result it
/// shows: the whiskers `www/charts.js` draws are a dataset's `intervals`, point by point.
fn figures_and_intervals(points: &[Option<(f64, &ConfigResult)>]) -> (Vec<Option<f64>>, Vec<Option<[f64; 2]>>) {
    points.iter().map(|point| (point.map(|(f, _)| f), point.and_then(|(f, r)| r.figure_interval(f)))).unzip()
}

/// Viridis, from dark purple (slow) to yellow (fast): ordered in lightness, readable without colour vision.
fn viridis(t: f64) -> String {
    const STOPS: [[f64; 3]; 5] =
        [[68.0, 1.0, 84.0], [59.0, 82.0, 139.0], [33.0, 145.0, 140.0], [94.0, 201.0, 98.0], [253.0, 231.0, 37.0]];
    let t = t.clamp(0.0, 1.0) * (STOPS.len() - 1) as f64;
    let i = (t.floor() as usize).min(STOPS.len() - 2);
    let f = t - i as f64;
    let [r, g, b] = [0, 1, 2].map(|c| (STOPS[i][c] + (STOPS[i + 1][c] - STOPS[i][c]) * f).round() as u8);
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// A heatmap of one series over workgroup shapes, coloured against `best` (the family's best GB/s at the
/// series' parameter), and
/// its (columns, rows).
fn heatmap_config(title: &str, results: &[&ConfigResult], best: f64) -> (Value, (usize, usize)) {
    let mut xs: Vec<u32> = unique(results.iter().map(|r| r.workgroup_size[0]));
    let mut ys: Vec<u32> = unique(results.iter().map(|r| r.workgroup_size[1]));
    crate::sort::ascending(&mut xs);
    crate::sort::ascending(&mut ys); // the category axis puts its first label at the bottom
    let cells: Vec<Cell> = results
        .iter()
        .map(|r| {
            let [x, y, _] = r.workgroup_size;
            Cell { x: x.to_string(), y: y.to_string(), result: r, name: format!("{x}×{y}") }
        })
        .collect();
    let at = match results.first().map(|r| r.parameter_text()) {
        Some(parameter) if !parameter.is_empty() => format!(" at {parameter}"),
        _ => String::new(),
    };
    let heading =
        format!("GB/s by workgroup shape: dark is slow, yellow is {} GB/s (the family's best{at})", format_gbps(best));
    let labels = |values: Vec<u32>| values.iter().map(u32::to_string).collect();
    let rate = (Unit::GbPerS.name(), (|r| r.gbps) as fn(&ConfigResult) -> Option<f64>);
    matrix_config(title, &heading, ("workgroup x", "workgroup y"), (labels(xs), labels(ys)), &cells, best, rate)
}

/// One cell of a heatmap: where it sits, the configuration it shows, and how its tooltip names it.
struct Cell<'a> {
    x: String,
    y: String,
    result: &'a ConfigResult,
    name: String,
}

/// A heatmap of `cells` over the categories `labels` (x, then y from the bottom), each coloured by its
/// figure (`rate`: the unit's name and the figure) against `best`.
fn matrix_config(
    title: &str,
    heading: &str,
    axes: (&str, &str),
    labels: (Vec<String>, Vec<String>),
    cells: &[Cell],
    best: f64,
    (unit, figure): (&str, fn(&ConfigResult) -> Option<f64>),
) -> (Value, (usize, usize)) {
    let mut data = Vec::new();
    let mut colours = Vec::new();
    for Cell { x, y, result: r, name } in cells {
        let (value, colour, what) = match figure(r).filter(|_| r.is_good()) {
            Some(v) => (Some(v), viridis(v / best.max(f64::MIN_POSITIVE)), format!("{} {unit}", format_gbps(v))),
            None if r.skipped().is_some() => (None, "#eef0f3".to_string(), "skipped".to_string()),
            None => (None, "#b3261e".to_string(), r.status()),
        };
        data.push(json!({ "x": x, "y": y, "v": value, "text": format!("{name}: {what}") }));
        colours.push(colour);
    }
    let mut options = common_options(json!([title, heading]), axes.0, axes.1);
    options["plugins"]["legend"] = json!({ "display": false });
    // The cell's text, set in `tooltip_text_callback`.
    options["plugins"]["tooltip"] = json!({ "callbacks": {} });
    let size = (labels.0.len(), labels.1.len());
    for (axis, labels) in [("x", labels.0), ("y", labels.1)] {
        options["scales"][axis]["type"] = json!("category");
        options["scales"][axis]["labels"] = json!(labels);
        options["scales"][axis]["offset"] = json!(true);
        options["scales"][axis]["grid"] = json!({ "display": false });
    }
    let dataset = json!({ "label": title, "data": data, "backgroundColor": colours, "borderWidth": 0 });
    (json!({ "type": "matrix", "data": { "datasets": [dataset] }, "options": options }), size)
}

/// The roofline: every kernel that counts flops at its flops per byte (x) and GFLOP/s (y), the best
/// workgroup size of each kernel variant and parameter value, under the run's ceilings: the copy's
/// bandwidth (a diagonal, GFLOP/s = GB/s × flops per byte) and the FMA peak (a horizontal line).
fn roofline_config(results: &[&ConfigResult], peaks: &Peaks) -> Value {
    let good: Vec<&ConfigResult> = results.iter().copied().filter(|r| r.is_good() && r.intensity().is_some()).collect();
    // Grouped by what names a series, without writing its name: a crafted result holds tens of thousands.
    fn series_key(r: &ConfigResult) -> (&str, &str, ShaderChecks) {
        (&r.kernel, &r.variant, r.shader_checks)
    }
    let mut kernels = groups(good.iter().copied(), series_key);
    let left_out = kernels.len().saturating_sub(MAX_ROOFLINE_KERNELS);
    kernels.truncate(MAX_ROOFLINE_KERNELS);
    let mut datasets: Vec<Value> = kernels
        .into_iter()
        .map(|(_, of_series)| {
            let name = series(of_series[0]);
            // A point per parameter value: the series names the rest.
            let point = |r: &ConfigResult| r.parameter.clone();
            let (data, intervals): (Vec<Value>, Vec<Option<[f64; 2]>>) = groups(of_series.iter().copied(), point)
                .iter()
                .filter_map(|(_, at_point)| {
                    let best =
                        at_point.iter().max_by(|a, b| a.gflops().partial_cmp(&b.gflops()).expect("finite figures"))?;
                    let (x, y) = (best.intensity()?, best.gflops()?);
                    let text = format!(
                        "{} {} wg {}: {} GFLOP/s at {x:.3} flops/byte",
                        series(best),
                        best.parameter_text(),
                        best.workgroup_text(),
                        format_gbps(y)
                    );
                    Some((json!({ "x": x, "y": y, "text": text }), best.figure_interval(y)))
                })
                .unzip();
            let first = of_series[0];
            let colour = kernel_colour(&first.family, &first.kernel);
            let style = if first.shader_checks == ShaderChecks::Default { "circle" } else { "triangle" };
            json!({ "label": name, "data": data, "intervals": intervals, "backgroundColor": colour,
                    "borderColor": colour, "pointStyle": style, "pointRadius": 4 })
        })
        .collect();
    let xs = good.iter().filter_map(|r| r.intensity());
    let (low, high) = xs.fold((f64::MAX, f64::MIN), |(lo, hi), x| (lo.min(x), hi.max(x)));
    let (low, high) = (low / 2.0, high * 2.0);
    let roof: Vec<Value> = match (peaks.copy_gbps, peaks.fma_gflops) {
        (Some(copy), Some(fma)) => {
            let knee = (fma / copy).clamp(low, high);
            [low, knee, high].iter().map(|&x| json!({ "x": x, "y": (x * copy).min(fma), "text": "" })).collect()
        }
        (Some(copy), None) => [low, high].iter().map(|&x| json!({ "x": x, "y": x * copy, "text": "" })).collect(),
        (None, Some(fma)) => [low, high].iter().map(|&x| json!({ "x": x, "y": fma, "text": "" })).collect(),
        (None, None) => Vec::new(),
    };
    let ceilings = peaks.summary().unwrap_or_else(|| "no copy or FMA kernel in this run".into());
    datasets.push(json!({ "label": format!("roof: {ceilings}"), "data": roof, "showLine": true,
                          "borderColor": "#333333", "backgroundColor": "#333333", "pointRadius": 0,
                          "borderWidth": 2 }));
    let heading = json!([
        "roofline: GFLOP/s against flops per byte (best workgroup size of each kernel and parameter)",
        match left_out {
            0 => format!("ceilings of this run: {ceilings}; kernels that count no flops are not on it"),
            n => format!(
                "ceilings of this run: {ceilings}; the first {MAX_ROOFLINE_KERNELS} kernels, {n} more not drawn"
            ),
        }
    ]);
    let mut options = common_options(heading, "flops per byte (arithmetic intensity)", &rate_axis("GFLOP/s"));
    options["scales"]["x"]["type"] = json!("logarithmic");
    options["scales"]["y"]["type"] = json!("logarithmic");
    options["scales"]["y"]["beginAtZero"] = json!(false);
    options["plugins"]["tooltip"] = json!({ "callbacks": {} });
    json!({ "type": "scatter", "data": { "datasets": datasets }, "options": options })
}

/// Bars of each variant's best figure (over workgroup sizes) per kernel: the bytes the kernel uses, or
/// the bytes moved in whole memory sectors.
fn bars_config(title: &str, results: &[&ConfigResult], moved: bool) -> Value {
    let group = |r: &ConfigResult| match r.shader_checks {
        ShaderChecks::Default => r.kernel.clone(),
        checks => format!("{} ({})", r.kernel, checks.name()),
    };
    let labels = unique(results.iter().map(|r| group(r)));
    let figure = |r: &ConfigResult| if moved { r.moved_gbps() } else { r.gbps };
    let mut best: HashMap<(&str, String), (f64, &ConfigResult)> = HashMap::new();
    for r in results.iter().filter(|r| r.is_good()) {
        if let Some(f) = figure(r) {
            let kept = best.entry((r.variant.as_str(), group(r))).or_insert((f, r));
            if f > kept.0 {
                *kept = (f, r);
            }
        }
    }
    let datasets: Vec<Value> = unique(results.iter().map(|r| r.variant.clone()))
        .iter()
        .map(|variant| {
            let bars: Vec<_> = labels.iter().map(|g| best.get(&(variant.as_str(), g.clone())).copied()).collect();
            let (data, intervals) = figures_and_intervals(&bars);
            let colour = variant_colour(&results[0].family, variant);
            json!({ "label": variant, "data": data, "intervals": intervals, "backgroundColor": colour,
                    "borderColor": colour })
        })
        .collect();
    let what = if moved {
        "GB/s moved in whole 32-byte sectors (best workgroup size)"
    } else {
        "GB/s of the fields used (best workgroup size)"
    };
    let options = common_options(json!(format!("{title}: {what}")), "workload", &rate_axis("GB/s"));
    json!({ "type": "bar", "data": { "labels": labels, "datasets": datasets }, "options": options })
}
