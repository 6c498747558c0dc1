//! Results side by side: every configuration any of them ran, each result's figure for it, and its ratio
//! to the first result's. The page and `wgsweep compare` show the same rows.

use std::collections::HashMap;

use crate::kernel::ShaderChecks;
use crate::result::{ConfigResult, RunResult};

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

    /// The cells a table shows: figures, then the ratio of each result after the first.
    pub fn cells(&self) -> Vec<String> {
        let figures = self.figures.iter().map(|f| f.map(crate::result::format_gbps).unwrap_or_else(|| "–".into()));
        let ratios = self.ratios().into_iter().skip(1).map(|r| r.map(|r| format!("{r:.2}×")).unwrap_or_default());
        figures.chain(ratios).collect()
    }
}

/// The figure a comparison ranks by: the headline, of valid results only.
fn figure(r: &ConfigResult) -> Option<f64> {
    r.is_good().then(|| r.headline()).flatten()
}

/// Every configuration any result ran: kernels in the order the first result that ran them lists them,
/// and within a kernel by parameter value, then workgroup invocations, then width.
pub fn rows(results: &[RunResult]) -> Vec<Row> {
    let mut rows: Vec<(&ConfigResult, Row)> = Vec::new();
    let mut places = HashMap::new();
    for (i, result) in results.iter().enumerate() {
        for r in &result.results {
            let at = *places.entry(r.configuration_key()).or_insert_with(|| {
                rows.push((
                    r,
                    Row {
                        family: r.family.clone(),
                        kernel: r.label(),
                        checks: r.shader_checks,
                        workgroup: r.workgroup_text(),
                        parameter: r.parameter_text(),
                        unit: r.unit().name(),
                        figures: vec![None; results.len()],
                        ranges: vec![None; results.len()],
                    },
                ));
                rows.len() - 1
            });
            let figure = figure(r);
            rows[at].1.figures[i] = figure;
            rows[at].1.ranges[i] = figure.and(r.headline_range());
        }
    }
    // A kernel sorts where its first row stands: the order the first result that ran it lists it.
    let mut first_of_kernel = HashMap::new();
    for (at, (_, row)) in rows.iter().enumerate() {
        first_of_kernel.entry((row.kernel.clone(), row.checks)).or_insert(at);
    }
    let keys: Vec<_> = rows
        .iter()
        .map(|(r, row)| {
            let [x, y, z] = r.workgroup_size;
            (first_of_kernel[&(row.kernel.clone(), row.checks)], r.parameter.as_ref().map(|p| p.value), x * y * z, x)
        })
        .collect();
    let mut keyed: Vec<_> = keys.into_iter().zip(rows.into_iter().map(|(_, row)| row)).collect();
    keyed.sort_by_key(|(key, _)| *key);
    keyed.into_iter().map(|(_, row)| row).collect()
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
                shapes[i] = Some(row.workgroup.clone());
            }
        }
    }
    best
}

/// A short name for each result: its label, else its device; "#2" and so on where names repeat.
pub fn names(results: &[RunResult]) -> Vec<String> {
    let base: Vec<String> = results
        .iter()
        .map(|r| {
            let name = if r.label.is_empty() { r.device.name() } else { r.label.clone() };
            format!("{name} ({})", r.environment.runtime)
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
