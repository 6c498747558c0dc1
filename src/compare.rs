//! Results side by side: every configuration any of them ran, each result's figure for it, and its ratio
//! to the first result's with the ratio's 95 % interval and a verdict (faster, slower, or the same within
//! noise). The page and `wgsweep compare` show the same rows.

use std::collections::HashMap;

use crate::kernel::ShaderChecks;
use crate::result::{ConfigResult, RunResult};
use crate::stats::{self, Ratio, Verdict};

/// The change a comparison calls the same within noise, however sure it is: figures of one build on one
/// device move about this much between runs (clocks, temperature), which no run's samples show.
pub const NOISE_THRESHOLD: f64 = 0.02;

/// What a result measured of a configuration, in its figure's unit, for the interval of a ratio: a figure
/// per sample, and its median's interval (a gallery's median: the spread between its results).
#[derive(Clone, Debug, PartialEq)]
pub struct Figures {
    samples: Vec<f64>,
    /// The figure, and its interval's ends.
    interval: Option<(f64, f64, f64)>,
}

impl Figures {
    fn of(r: &ConfigResult) -> Option<Figures> {
        let (headline, median) = (r.headline()?, r.median_ns?);
        // A figure is work over time: at a sample's time per dispatch, the headline scaled by median / time.
        let at = |ns: f64| (ns > 0.0).then(|| headline * median / ns);
        let dispatches = r.dispatches_per_sample.max(1) as f64;
        let samples: Option<Vec<f64>> = r.samples_ns.iter().map(|ns| at(ns / dispatches)).collect();
        let samples = samples.filter(|s| s.len() >= 2).unwrap_or_default();
        // A file recorded before medians had intervals: the interval of its samples' figures.
        let interval = match r.figure_interval(headline) {
            Some([slowest, fastest]) => Some((headline, slowest, fastest)),
            None => stats::summarize(&samples).and_then(|s| s.median_interval.map(|(low, high)| (s.median, low, high))),
        };
        (!samples.is_empty() || interval.is_some()).then_some(Figures { samples, interval })
    }

    /// The ends of the figure's 95 % interval, slowest first.
    pub fn interval(&self) -> Option<[f64; 2]> {
        self.interval.map(|(_, slowest, fastest)| [slowest, fastest])
    }
}

/// The ratio of `after`'s figure to `before`'s (above 1: faster), with its interval: from both sets of
/// samples where both kept them, else from the two intervals.
fn change(before: &Figures, after: &Figures) -> Option<Ratio> {
    if !before.samples.is_empty() && !after.samples.is_empty() {
        return stats::ratio_interval(&before.samples, &after.samples);
    }
    let ((a, a_low, a_high), (b, b_low, b_high)) = (before.interval?, after.interval?);
    // Two independent intervals: the ratio's ends are the far ends of each (wider than the truth).
    Some(Ratio { estimate: b / a, low: b_low / a_high, high: b_high / a_low })
}

/// Each result's change from the first (`change`), where both measured the configuration.
fn changes(measured: &[Option<Figures>]) -> Vec<Option<Ratio>> {
    let first = measured[0].as_ref();
    measured.iter().map(|m| change(first?, m.as_ref()?)).collect()
}

/// The verdict on a ratio of figures (above 1: faster) at `threshold`.
pub fn verdict(ratio: &Ratio, threshold: f64) -> Verdict {
    // `Ratio::verdict` judges a ratio of times.
    let times = Ratio { estimate: 1.0 / ratio.estimate, low: 1.0 / ratio.high, high: 1.0 / ratio.low };
    times.verdict(threshold)
}

/// One configuration across the compared results.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub family: String,
    /// `kernel/variant`.
    pub kernel: String,
    pub checks: ShaderChecks,
    /// As tables show it: "256", "16×4".
    pub workgroup: String,
    /// As tables show it: "stride 8"; empty where the kernel has no parameter.
    pub parameter: String,
    /// "GFLOP/s" where the kernel counts flops, else "GB/s".
    pub unit: &'static str,
    /// Per result, in the order given: the figure, where that result measured this configuration validly.
    pub figures: Vec<Option<f64>>,
    /// Per result, where it has a figure: the figure at its slowest and at its fastest kept time
    /// (`ConfigResult::headline_range`).
    pub ranges: Vec<Option<(f64, f64)>>,
    /// Per result, where it has a figure: what its interval is made from.
    pub measured: Vec<Option<Figures>>,
    /// Each result's figure over the first result's, with its 95 % interval, where both measured it and
    /// kept samples or an interval (`changes`, worked out once the row is complete).
    pub changes: Vec<Option<Ratio>>,
}

impl Row {
    /// The kernel as charts and tables name it: `kernel/variant`, with the checks where not the default.
    pub fn series(&self) -> String {
        match self.checks {
            ShaderChecks::Default => self.kernel.clone(),
            checks => format!("{} ({})", self.kernel, checks.name()),
        }
    }

    /// Each result's figure over the first result's (above 1: faster than the first).
    pub fn ratios(&self) -> Vec<Option<f64>> {
        let first = self.figures[0].filter(|&f| f > 0.0);
        self.figures.iter().map(|f| Some(f.as_ref()? / first?)).collect()
    }

    /// The cells a table shows: figures, then for each result after the first its ratio to the first, the
    /// ratio's interval and the verdict at `threshold`.
    pub fn cells(&self, threshold: f64) -> Vec<String> {
        let figures = self.figures.iter().map(|f| f.map(crate::result::format_gbps).unwrap_or_else(|| "–".into()));
        let changes =
            self.ratios().into_iter().zip(&self.changes).skip(1).map(|(ratio, change)| match (ratio, change) {
                (Some(r), Some(c)) => {
                    format!("{r:.2}× ({:.2}–{:.2}) {}", c.low, c.high, verdict_text(verdict(c, threshold)))
                }
                (Some(r), None) => format!("{r:.2}×"),
                _ => String::new(),
            });
        figures.chain(changes).collect()
    }
}

/// The figure a comparison ranks by: the headline, of valid results only.
fn figure(r: &ConfigResult) -> Option<f64> {
    r.is_good().then(|| r.headline()).flatten()
}

/// Every configuration any result ran: kernels in the order the first result that ran them lists them,
/// and within a kernel by parameter value, then workgroup invocations, then width.
pub fn rows(results: &[RunResult]) -> Vec<Row> {
    let mut matching = Matching::new(results.len());
    for result in results {
        matching.add(result);
    }
    matching.finish()
}

/// `rows`, made a result at a time: the page gives its thread a turn between results at the bound.
pub struct Matching<'a> {
    compared: usize,
    added: usize,
    rows: Vec<(&'a ConfigResult, Row)>,
    places: HashMap<Key<'a>, usize>,
}

/// What tells configurations apart (`ConfigResult::configuration_key`).
type Key<'a> = (&'a str, &'a str, &'a str, ShaderChecks, [u32; 3], Option<u32>);

impl<'a> Matching<'a> {
    /// Rows for a comparison of `compared` results.
    pub fn new(compared: usize) -> Self {
        Self { compared, added: 0, rows: Vec::new(), places: HashMap::new() }
    }

    /// Adds the next result's figures.
    pub fn add(&mut self, result: &'a RunResult) {
        let (i, compared) = (self.added, self.compared);
        for r in &result.results {
            let rows = &mut self.rows;
            let at = *self.places.entry(r.configuration_key()).or_insert_with(|| {
                rows.push((
                    r,
                    Row {
                        family: r.family.clone(),
                        kernel: r.label(),
                        checks: r.shader_checks,
                        workgroup: r.workgroup_text(),
                        parameter: r.parameter_text(),
                        unit: r.unit().name(),
                        figures: vec![None; compared],
                        ranges: vec![None; compared],
                        measured: vec![None; compared],
                        changes: Vec::new(),
                    },
                ));
                rows.len() - 1
            });
            let figure = figure(r);
            let row = &mut self.rows[at].1;
            row.figures[i] = figure;
            row.ranges[i] = figure.and(r.headline_range());
            row.measured[i] = figure.and_then(|_| Figures::of(r));
        }
        self.added += 1;
    }

    /// The rows, in order: kernels in the order the first result that ran them lists them.
    pub fn finish(self) -> Vec<Row> {
        let rows = self.rows;
        // A kernel sorts where its first row stands: the order the first result that ran it lists it.
        let mut first_of_kernel = HashMap::new();
        for (at, (_, row)) in rows.iter().enumerate() {
            first_of_kernel.entry((row.kernel.clone(), row.checks)).or_insert(at);
        }
        let keys: Vec<_> = rows
            .iter()
            .map(|(r, row)| {
                let [x, y, z] = r.workgroup_size;
                let first = first_of_kernel[&(row.kernel.clone(), row.checks)];
                (first, r.parameter.as_ref().map(|p| p.value), x * y * z, x)
            })
            .collect();
        let mut keyed: Vec<_> = keys.into_iter().zip(rows.into_iter().map(|(_, row)| row)).collect();
        crate::sort::by_key(&mut keyed, |(key, _)| *key);
        keyed.into_iter().map(|(_, row)| Row { changes: changes(&row.measured), ..row }).collect()
    }
}

/// Per kernel (and checks and parameter value), each result's best figure over every workgroup shape, and
/// which shape gave it: the headline of a comparison.
pub fn best_rows(rows: &[Row]) -> Vec<(Row, Vec<Option<String>>)> {
    let mut best: Vec<(Row, Vec<Option<String>>)> = Vec::new();
    // Where each kernel's best is in `best`: a comparison at the bound has thousands of them.
    let mut places: HashMap<(&str, ShaderChecks, &str), usize> = HashMap::new();
    for row in rows {
        let at = *places.entry((&row.kernel, row.checks, &row.parameter)).or_insert_with(|| {
            let blank = Row {
                workgroup: String::new(),
                figures: vec![None; row.figures.len()],
                ranges: vec![None; row.figures.len()],
                measured: vec![None; row.figures.len()],
                changes: Vec::new(),
                ..row.clone()
            };
            best.push((blank, vec![None; row.figures.len()]));
            best.len() - 1
        });
        let (b, shapes) = &mut best[at];
        for (i, figure) in row.figures.iter().enumerate() {
            if let Some(f) = *figure
                && b.figures[i].is_none_or(|known| f > known)
            {
                b.figures[i] = Some(f);
                b.ranges[i] = row.ranges[i];
                b.measured[i] = row.measured[i].clone();
                shapes[i] = Some(row.workgroup.clone());
            }
        }
    }
    for (row, _) in &mut best {
        row.changes = changes(&row.measured);
    }
    best
}

/// A short name for each result: its label, else its device; "#2" and so on where names repeat.
pub fn names(results: &[RunResult]) -> Vec<String> {
    let base: Vec<String> = results
        .iter()
        .map(|r| {
            let name = if r.label.is_empty() { r.device.name() } else { r.label.clone() };
            format!("{name} ({})", r.environment.engine(&r.device.backend))
        })
        .collect();
    base.iter()
        .enumerate()
        .map(|(i, name)| match base[..i].iter().filter(|n| *n == name).count() {
            0 => name.clone(),
            n => format!("{name} #{}", n + 1),
        })
        .collect()
}

/// What a comparison of one device in several engines (browsers, or a browser and natively) is, in one
/// line: "One GPU, two engines: NVIDIA H100 80GB HBM3 in Chrome 156 (Dawn) and natively (wgpu on vulkan)";
/// `None` where the results are of different devices, or all of one engine.
pub fn engines_heading(results: &[RunResult]) -> Option<String> {
    let first = results.first()?;
    // A GPU whose browser withholds its name is this one where its person named it so.
    let name = |d: &crate::gpu::DeviceInfo| d.own_name().or(d.named_by_person.as_deref()).map(str::to_string);
    let same_device = |r: &RunResult| {
        let (a, b) = (&r.device, &first.device);
        name(a).is_some() && name(a) == name(b)
    };
    let mut engines: Vec<String> = Vec::new();
    for r in results {
        let engine = r.environment.engine(&r.device.backend);
        let engine = engine.strip_prefix("native ").map_or(format!("in {engine}"), |how| format!("natively {how}"));
        if !same_device(r) {
            return None;
        }
        if !engines.contains(&engine) {
            engines.push(engine);
        }
    }
    let count = match engines.len() {
        0 | 1 => return None,
        2 => "two",
        3 => "three",
        _ => "several",
    };
    let listed = match engines.split_last() {
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    };
    Some(format!("One GPU, {count} engines: {} {listed}", first.device.name()))
}

/// A verdict as tables write it.
pub fn verdict_text(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Faster => "faster",
        Verdict::Slower => "slower",
        Verdict::Same => "the same",
    }
}

/// Per family, how many configurations result `at` (after the first) ran faster, slower and the same
/// within noise as the first, at `threshold`; families in the order the rows list them.
pub fn verdict_counts(rows: &[Row], at: usize, threshold: f64) -> Vec<(String, [usize; 3])> {
    let mut counts: Vec<(String, [usize; 3])> = Vec::new();
    for row in rows {
        let Some(change) = row.changes[at] else { continue };
        let slot = match verdict(&change, threshold) {
            Verdict::Faster => 0,
            Verdict::Slower => 1,
            Verdict::Same => 2,
        };
        match counts.iter_mut().find(|(family, _)| *family == row.family) {
            Some((_, c)) => c[slot] += 1,
            None => {
                let mut c = [0; 3];
                c[slot] = 1;
                counts.push((row.family.clone(), c));
            }
        }
    }
    counts
}

/// Result `at`'s verdicts against the first, family by family ("stream: 3 faster, 0 slower, 12 the same;
/// …"), or why there are none.
pub fn verdicts_text(rows: &[Row], at: usize, threshold: f64) -> String {
    let counts = verdict_counts(rows, at, threshold);
    if !counts.is_empty() {
        return counts.iter().map(counts_text).collect::<Vec<_>>().join("; ");
    }
    match rows.iter().any(|row| row.figures[0].is_some() && row.figures[at].is_some()) {
        true => "no verdicts: a result recorded before intervals were keeps neither samples nor intervals".into(),
        false => "no verdicts: no configuration was measured in both".into(),
    }
}

/// "stream: 3 faster, 0 slower, 12 the same".
pub fn counts_text((family, [faster, slower, same]): &(String, [usize; 3])) -> String {
    format!("{family}: {faster} faster, {slower} slower, {same} the same")
}

/// A configuration that result `at` ran slower than the first, beyond noise and by at least a limit: what a
/// regression gate (`wgsweep compare --fail-if-slower`) refuses.
#[derive(Clone, Debug, PartialEq)]
pub struct Regression<'a> {
    pub row: &'a Row,
    pub at: usize,
    pub change: Ratio,
}

impl Regression<'_> {
    /// "triad/vec4 default wg 256 : [2] at 0.91× of [1] (0.90–0.92)", results counted from 1.
    pub fn text(&self) -> String {
        let (row, change) = (self.row, &self.change);
        format!(
            "{} {} wg {} {}: [{}] at {:.2}× of [1] ({:.2}–{:.2})",
            row.kernel,
            row.checks.name(),
            row.workgroup,
            row.parameter,
            self.at + 1,
            change.estimate,
            change.low,
            change.high
        )
    }
}

/// Every configuration a later result ran slower than the first: slower by the verdict at `threshold`, and
/// at most `1 / (1 + limit)` of the first's figure (`limit` 0.03: 3 % slower or more).
pub fn regressions(rows: &[Row], threshold: f64, limit: f64) -> Vec<Regression<'_>> {
    rows.iter()
        .flat_map(|row| {
            row.changes.iter().enumerate().skip(1).filter_map(move |(at, change)| {
                let change = (*change)?;
                let slower = verdict(&change, threshold) == Verdict::Slower && change.estimate <= 1.0 / (1.0 + limit);
                slower.then_some(Regression { row, at, change })
            })
        })
        .collect()
}
