//! Figures derived from a run's measurements: its ceilings (the best copy, the best FMA chain), every figure
//! as a share of the roof above it and of its family's baseline, and the figures too good to be true.
//!
//! Families declare the part their kernels play (their `Presentation`: roles, baseline); this module never
//! matches kernel names. Every reader of results calls it: the runner when a run ends, share links and
//! result files when they open, comparisons and charts through the fields it fills.

use std::collections::HashMap;

use crate::kernel::{Contrast, Operations, Presentation, Role};
use crate::kernels;
use crate::result::{ConfigResult, Outcome, Peaks, ReadError, RunResult, Unit, format_gbps};

/// How much faster than the run's best copy a figure may be before it is flagged.
const SUSPECT_OVER_COPY: f64 = 1.1;

/// Derives every figure that follows from the measured ones: suspects, shares of the family's baseline,
/// the run's peaks and shares of the roof.
pub fn derive(result: &mut RunResult) {
    DERIVE_PASSES.iter().for_each(|pass| pass(result));
}

/// `derive`'s passes over the configurations, in order: the page gives itself a turn between them.
pub const DERIVE_PASSES: [fn(&mut RunResult); 3] = [
    |result| flag_suspects(&mut result.results),
    |result| relate_to_baselines(&mut result.results),
    |result| result.peaks = relate_to_peaks(&mut result.results),
];

/// Reads a result file, deriving the peaks (and the shares of them) of a file written before runs
/// recorded their peaks, as a run derives them.
pub fn read_json(text: &str) -> Result<RunResult, ReadError> {
    let mut result = RunResult::from_json(text)?;
    if result.peaks == Peaks::default() {
        result.peaks = relate_to_peaks(&mut result.results);
    }
    Ok(result)
}

/// What the family of the configuration looked at last says of itself: looked up by name (a scan of every
/// family) only where the family changes, as a result's configurations come in runs of one family, and a
/// result may hold tens of thousands.
#[derive(Default)]
struct Known {
    family: String,
    found: Option<(Option<Presentation>, bool)>,
}

impl Known {
    /// The configuration's family's presentation (its baseline, roles, contrasts), and whether its GB/s
    /// counts device memory, which a copy bounds (not workgroup memory).
    fn of(&mut self, r: &ConfigResult) -> (Option<Presentation>, bool) {
        match self.found {
            Some(found) if self.family == r.family => found,
            _ => {
                let device_memory = kernels::family(&r.family).is_none_or(|f| f.gbps_is_device_memory());
                let found = (kernels::presentation(&r.family), device_memory);
                (self.family, self.found) = (r.family.clone(), Some(found));
                found
            }
        }
    }

    /// The part the configuration's kernel plays, as its family declares it.
    fn role(&mut self, r: &ConfigResult) -> Option<Role> {
        self.of(r).0?.role(&r.kernel)
    }
}

/// The ceilings of these results: the best valid copy's GB/s, the best valid f32 FMA chain's GFLOP/s, and
/// the best chains of each other kind of operation.
pub fn peaks(results: &[ConfigResult]) -> Peaks {
    let mut known = Known::default();
    let mut best: Vec<(Operations, f64)> = Vec::new();
    for r in results.iter().filter(|r| r.is_good() && known.role(r) == Some(Role::ComputePeak)) {
        let Some(rate) = r.operation_rate() else { continue };
        match best.iter_mut().find(|(operations, _)| *operations == r.operations) {
            Some((_, kept)) => *kept = kept.max(rate),
            None => best.push((r.operations, rate)),
        }
    }
    crate::sort::by_key(&mut best, |&(operations, _)| operations);
    let fma_gflops = best.iter().find(|(operations, _)| operations.is_flops()).map(|&(_, rate)| rate);
    best.retain(|(operations, _)| !operations.is_flops());
    Peaks { copy_gbps: best_gbps(results, |r| known.role(r) == Some(Role::Copy)), fma_gflops, beyond_f32: best }
}

/// Finds the run's ceilings (`peaks`) and puts every valid figure in proportion to the roof above it: the
/// GFLOP/s of a kernel that counts flops against min(FMA peak, its flops per byte × copy bandwidth), as on
/// the roofline, where the run has an FMA peak; otherwise GB/s against the copy, unless the GB/s counts
/// workgroup memory.
pub fn relate_to_peaks(results: &mut [ConfigResult]) -> Peaks {
    let peaks = peaks(results);
    let mut known = Known::default();
    for r in results.iter_mut().filter(|r| r.is_good()) {
        let roof = match (r.intensity(), peaks.fma_gflops, peaks.copy_gbps) {
            (Some(intensity), Some(fma), Some(copy)) => Some(fma.min(intensity * copy)),
            (Some(_), Some(fma), None) => Some(fma),
            _ => None,
        };
        r.percent_of_peak = match (r.gflops(), roof, r.gbps, peaks.copy_gbps) {
            (Some(gflops), Some(roof), _, _) => Some(100.0 * gflops / roof),
            // Chains of f16 or integer operations: no roof of theirs, and their bytes are no point.
            _ if !r.operations.is_flops() => None,
            (_, None, Some(gbps), Some(copy)) if known.of(r).1 => Some(100.0 * gbps / copy),
            _ => None,
        };
    }
    peaks
}

/// Puts every valid figure of a family that has a baseline kernel in proportion to that kernel's best
/// at the same value of the parameter (transpose: the same matrix shape).
pub fn relate_to_baselines(results: &mut [ConfigResult]) {
    // Each baseline's best, found in one pass: a result may hold thousands of configurations.
    let mut known = Known::default();
    let mut best: HashMap<(String, Option<u32>), f64> = HashMap::new();
    for r in results.iter().filter(|r| r.is_good()) {
        if known.of(r).0.and_then(|p| p.baseline) == Some(r.kernel.as_str())
            && let Some(gbps) = r.gbps
        {
            let kept = best.entry((r.family.clone(), r.parameter_value())).or_insert(gbps);
            *kept = kept.max(gbps);
        }
    }
    for r in results.iter_mut().filter(|r| r.is_good()) {
        if known.of(r).0.and_then(|p| p.baseline).is_none() {
            continue;
        }
        if let Some(&best) = best.get(&(r.family.clone(), r.parameter_value())).filter(|&&best| best > 0.0) {
            r.percent_of_baseline = r.gbps.map(|gbps| 100.0 * gbps / best);
        }
    }
}

/// The highest figure among the valid results that `which` picks, if any.
fn best_gbps(results: &[ConfigResult], mut which: impl FnMut(&ConfigResult) -> bool) -> Option<f64> {
    results.iter().filter(|r| r.is_good() && which(r)).filter_map(|r| r.gbps).reduce(f64::max)
}

/// Flags figures above the run's best copy: no kernel can move data faster than a plain copy does.
pub fn flag_suspects(results: &mut [ConfigResult]) {
    let mut known = Known::default();
    let Some(best_copy) = best_gbps(results, |r| known.role(r) == Some(Role::Copy)) else { return };
    for r in results.iter_mut().filter(|r| r.is_good() && known.of(r).1) {
        let gbps = r.gbps.expect("good results have a figure");
        if gbps > SUSPECT_OVER_COPY * best_copy {
            r.outcome = Outcome::Valid {
                suspect: Some(format!(
                    "{gbps:.1} GB/s is above {SUSPECT_OVER_COPY}× this run's best copy ({best_copy:.1} GB/s): \
                     the data may be cached or the timing wrong"
                )),
            };
        }
    }
}

/// The unit that tells what a kernel achieves: GFLOP/s for one that does at least a flop per byte it moves,
/// else GB/s (a triad counts flops, but its bandwidth is its point).
fn telling_unit(r: &ConfigResult) -> Unit {
    match r.intensity() {
        Some(intensity) if intensity >= 1.0 => Unit::GflopPerS,
        // Chains of f16 or integer operations: their operations are their point.
        None if !r.operations.is_flops() => r.unit(),
        _ => Unit::GbPerS,
    }
}

/// A result's figure in `unit`.
fn figure_in(r: &ConfigResult, unit: Unit) -> Option<f64> {
    match unit {
        Unit::GbPerS => r.gbps,
        _ => r.operation_rate(),
    }
}

/// A kernel's best workgroup shape in a run, and what it gains over the common default of 64 invocations.
#[derive(Clone, Debug, PartialEq)]
pub struct BestShape {
    /// `kernel/variant`.
    pub kernel: String,
    /// The parameter value compared at ("stride 8"; empty where the kernel has none); for a user's kernel,
    /// the problem size ("n=16777216").
    pub parameter: String,
    pub shape: [u32; 3],
    /// A user's kernel's tunables at the best ("ELEMENTS=4"), found with the shape; empty for the others.
    pub tunables: String,
    /// The best figure, in `unit`: GFLOP/s for a kernel that does at least a flop per byte it moves, else
    /// GB/s (a triad counts flops, but its bandwidth is its point).
    pub figure: f64,
    pub unit: Unit,
    /// The best figure over the best one at 64 invocations (64, or 8 × 8), where a shape of 64 ran.
    pub gain_over_64: Option<f64>,
}

/// Each kernel's best workgroup shape among the valid results, in the order the kernels first appear. A
/// kernel swept over a parameter is compared at the value that ran at the most shapes (the largest of
/// those that tie: a larger matrix, a wider stride), since shapes compare only on the same work; a user's
/// kernel at the size that ran the most configurations, its best shape and tunables together.
pub fn best_shapes(results: &[ConfigResult]) -> Vec<BestShape> {
    // The valid results of each kernel (family, kernel, variant), in the order the kernels first appear.
    let mut kernels: Vec<Vec<&ConfigResult>> = Vec::new();
    let mut places: HashMap<(&str, &str, &str), usize> = HashMap::new();
    for r in results.iter().filter(|r| r.is_good()) {
        match places.get(&(&*r.family, &*r.kernel, &*r.variant)) {
            Some(&at) => kernels[at].push(r),
            None => {
                places.insert((&r.family, &r.kernel, &r.variant), kernels.len());
                kernels.push(vec![r]);
            }
        }
    }
    kernels
        .into_iter()
        .filter_map(|of_kernel| {
            // What configurations compare at: the parameter's value, or a user's kernel's size.
            let at = |r: &ConfigResult| match r.size_and_tunables() {
                Some((size, _)) => (None, Some(size.to_string())),
                None => (r.parameter_value(), None),
            };
            let mut shapes_at: HashMap<(Option<u32>, Option<String>), usize> = HashMap::new();
            for r in &of_kernel {
                *shapes_at.entry(at(r)).or_default() += 1;
            }
            let value = shapes_at.into_iter().map(|(v, shapes)| (shapes, v)).max()?.1;
            let at_value: Vec<&&ConfigResult> = of_kernel.iter().filter(|r| at(r) == value).collect();
            let unit = telling_unit(of_kernel[0]);
            let figure = |r: &&&ConfigResult| figure_in(r, unit).unwrap_or(0.0);
            let best = at_value.iter().max_by(|a, b| figure(a).total_cmp(&figure(b)))?;
            let at_64 = at_value.iter().filter(|r| r.workgroup_size.iter().product::<u32>() == 64).map(figure);
            let best_at_64 = at_64.reduce(f64::max).filter(|&f| f > 0.0);
            let (parameter, tunables) = match best.size_and_tunables() {
                Some((size, tunables)) => (size.to_string(), tunables.to_string()),
                None => (best.parameter_text(), String::new()),
            };
            Some(BestShape {
                kernel: best.label(),
                parameter,
                shape: best.workgroup_size,
                tunables,
                figure: figure(best),
                unit,
                gain_over_64: best_at_64.map(|at_64| figure(best) / at_64),
            })
        })
        .collect()
}

/// A family's point in a sentence, with its number, as a run measured it.
#[derive(Clone, Debug, PartialEq)]
pub struct Headline {
    pub family: String,
    pub text: String,
}

/// The sentences each family's `contrasts` call for, where this run measured both sides validly, in the
/// order the families appear.
pub fn headlines(results: &[ConfigResult]) -> Vec<Headline> {
    let groups = crate::stats::groups(results, |r| r.family.clone());
    groups.into_iter().flat_map(|(family, of_family)| family_headlines(&family, of_family)).collect()
}

/// One family's headlines, of its results alone.
pub fn family_headlines(family: &str, mut of_family: Vec<&ConfigResult>) -> Vec<Headline> {
    let Some(declared) = kernels::presentation(family) else { return Vec::new() };
    of_family.retain(|r| r.is_good());
    let texts = declared.contrasts.iter().filter_map(|contrast| contrast_text(contrast, &of_family));
    texts.map(|text| Headline { family: family.to_string(), text }).collect()
}

/// The contrast's sentence with its ratio and both figures, if both sides have valid results.
fn contrast_text(contrast: &Contrast, results: &[&ConfigResult]) -> Option<String> {
    let named = |(name, _): (&str, Option<u32>), r: &ConfigResult| r.label() == name || r.kernel == name;
    let side_of = |side: (&'static str, Option<u32>)| -> Vec<&ConfigResult> {
        let at = |r: &&&ConfigResult| side.1.is_none_or(|value| r.parameter_value() == Some(value));
        results.iter().filter(|r| named(side, r)).filter(at).copied().collect()
    };
    let (mut first, mut second) = (side_of(contrast.kernel), side_of(contrast.against));
    // Both swept over a parameter and neither side named a value: meet at the largest value both ran.
    let swept = |side: &[&ConfigResult]| side.iter().any(|r| r.parameter.is_some());
    if contrast.kernel.1.is_none() && contrast.against.1.is_none() && swept(&first) && swept(&second) {
        let mut seconds: Vec<u32> = second.iter().filter_map(|r| r.parameter_value()).collect();
        crate::sort::ascending(&mut seconds);
        let value =
            first.iter().filter_map(|r| r.parameter_value()).filter(|v| seconds.binary_search(v).is_ok()).max()?;
        first.retain(|r| r.parameter_value() == Some(value));
        second.retain(|r| r.parameter_value() == Some(value));
    }
    // Both figures in one unit, as the best shapes say them.
    let unit = match first.iter().chain(&second).all(|r| telling_unit(r) == Unit::GflopPerS) {
        true => Unit::GflopPerS,
        false => Unit::GbPerS,
    };
    let best = |side: &[&ConfigResult]| side.iter().filter_map(|r| figure_in(r, unit)).reduce(f64::max);
    let best = |side: &[&ConfigResult]| best(side).filter(|&f| f > 0.0);
    let (a, b) = (best(&first)?, best(&second)?);
    let ratio = a / b;
    let than = if ratio >= 1.05 {
        format!("{} faster than", times(ratio))
    } else if ratio <= 1.0 / 1.05 {
        format!("{} slower than", times(1.0 / ratio))
    } else {
        "as fast as".to_string()
    };
    let sentence = contrast.sentence.replace("{than}", &than).replace("{percent}", &format!("{:.0} %", 100.0 * ratio));
    Some(format!("{sentence} ({} vs {} {}).", format_gbps(a), format_gbps(b), unit.name()))
}

/// A ratio as people say it: "1.3×", "7.8×", "31×".
fn times(ratio: f64) -> String {
    if ratio >= 10.0 { format!("{ratio:.0}×") } else { format!("{ratio:.1}×") }
}
