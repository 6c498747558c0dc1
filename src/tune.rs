//! Auto-tuning: the best workgroup shape for a kernel without measuring every shape.
//!
//! A pattern search over the shapes' log-spaced grid (the position of x among the candidate widths, of y
//! among the heights). It starts at the common default (64, or 8×8), polls the shapes two grid steps away
//! (×4, ÷4 along each axis), moves to the best neighbour while that gains at least `min_gain`, then polls
//! one step away (×2, ÷2), and where no step gains, trades between two axes (the same-size shapes x×2 y÷2
//! and x÷2 y×2; a tunable a step up and another a step down), and stops when no neighbour gains; six shapes
//! or fewer are all tried. Trials are measured with fewer samples and a short warm-up (the GPU stays busy
//! from one trial to the next, so only the first needs the full warm-up), and
//! validated afterwards where it matters: the fastest trial whose output matches the CPU reference is the
//! answer, and the default it is compared with is checked too. Optionally the whole sweep runs afterwards,
//! measured and validated as a run does, to show how close the tuner came and what it saved.

use serde::{Deserialize, Serialize};
use web_time::Instant;

use crate::gpu::Gpu;
use crate::kernel::{Configuration, Family, KernelId, ShaderChecks, Workload, shapes};
use crate::measure::MeasureOptions;
use crate::plan::{self, Plan, Planned};
use crate::result::{ConfigResult, Environment, Outcome, shape_text};
use crate::runner::{self, Bench, Flow, Harness, Validation};

/// How the tuner measures.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    /// How each trial is measured. Its warm-up applies from the second trial on; the first gets
    /// `first_warm_up_ns`, which brings the clocks up for all of them.
    pub trial: MeasureOptions,
    pub first_warm_up_ns: f64,
    /// A neighbour must be this much faster (0.02: 2 %) to move the search: less is within the noise.
    pub min_gain: f64,
    /// Also run the exhaustive sweep, measured with these options, to judge the tuner by.
    pub exhaustive: Option<MeasureOptions>,
}

impl Default for TuneOptions {
    fn default() -> Self {
        let full = MeasureOptions::default();
        Self {
            trial: MeasureOptions { samples: 5, warm_up_ns: 2e7, ..full.clone() },
            first_warm_up_ns: full.warm_up_ns,
            min_gain: 0.02,
            exhaustive: None,
        }
    }
}

/// What the tuner found for one kernel (with one kind of checks, at one value of its parameter).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tuning {
    pub family: String,
    /// `kernel/variant`.
    pub kernel: String,
    pub checks: ShaderChecks,
    /// "stride 8", or empty.
    pub parameter: String,
    /// The shapes the device can run for this kernel: what an exhaustive sweep measures.
    pub candidates: usize,
    /// The default the speed-up is measured against: the kernel's own (a user's kernel: its WGSL's override
    /// defaults), else the common 64, or 8×8 for 2-D kernels.
    pub default_workgroup: [u32; 3],
    /// Whether the search also moved along the parameter's tunables (a user's kernel): then each trial's
    /// parameter is part of its configuration, and the default is at the first value of each.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub searches_parameter: bool,
    /// The default's parameter value, where the search moves along the parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_parameter: Option<u32>,
    /// How the default's parameter value reads ("n=4096 · TILE=4"), where the search moves along it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_label: Option<String>,
    /// The override constants the best configuration sets, by the kernel's own names, where they are not
    /// just WG_X and WG_Y (a user's kernel).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_overrides: Option<Vec<(String, i64)>>,
    /// A template kernel's text and what fills it at the best configuration.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub best_template: Vec<(String, String)>,
    /// Every shape tried, in the order tried; the best that validates, and the default, have `valid` set.
    pub trials: Vec<ConfigResult>,
    /// Wall-clock seconds the search took: trials, pipeline builds and validation.
    pub seconds: f64,
    /// The exhaustive sweep, where it was run to compare.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exhaustive: Option<Exhaustive>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Exhaustive {
    pub results: Vec<ConfigResult>,
    pub seconds: f64,
}

/// How results are ranked: throughput (GB/s), valid results only.
fn score(r: &ConfigResult) -> Option<f64> {
    r.is_good().then_some(r.gbps).flatten()
}

/// How the search ranks trials, before any is validated: throughput, where the trial ran and measured.
fn trial_score(r: &ConfigResult) -> Option<f64> {
    matches!(r.outcome, Outcome::Valid { .. } | Outcome::Measured).then_some(r.gbps).flatten()
}

fn best_of(results: &[ConfigResult]) -> Option<&ConfigResult> {
    results.iter().filter(|r| score(r).is_some()).max_by(|a, b| score(a).partial_cmp(&score(b)).expect("finite"))
}

impl Tuning {
    /// The fastest valid trial.
    pub fn best(&self) -> Option<&ConfigResult> {
        best_of(&self.trials)
    }

    /// The trial at the common default shape, where the device can run it.
    pub fn default_trial(&self) -> Option<&ConfigResult> {
        self.trials.iter().find(|r| self.is_default(r) && score(r).is_some())
    }

    fn is_default(&self, r: &ConfigResult) -> bool {
        r.workgroup_size == self.default_workgroup
            && (!self.searches_parameter || r.parameter_value() == self.default_parameter)
    }

    /// How much faster the best shape is than the common default.
    pub fn speedup(&self) -> Option<f64> {
        Some(score(self.best()?)? / score(self.default_trial()?)?)
    }

    /// The exhaustive sweep's figure for the tuner's choice over the sweep's best (1.0: the tuner found
    /// the best; 0.97: within 3 %), where the sweep was run.
    pub fn share_of_exhaustive_best(&self) -> Option<f64> {
        let exhaustive = &self.exhaustive.as_ref()?.results;
        let chosen = self.best()?;
        let chosen = exhaustive.iter().find(|r| r.same_configuration(chosen)).and_then(score)?;
        Some(chosen / score(best_of(exhaustive)?)?)
    }

    /// The best shape, ready to paste: as a WGSL attribute, as override constants, and as a Rust constant.
    pub fn snippet(&self) -> Option<String> {
        let [x, y, z] = self.best()?.workgroup_size;
        let (attribute, overrides) = match ((y, z), &self.best_overrides) {
            (_, Some(named)) => {
                let lines: Vec<String> =
                    named.iter().map(|(name, value)| format!("override {name}: u32 = {value};")).collect();
                (format!("{x}, {y}, {z}"), lines.join("\n"))
            }
            ((1, 1), None) => (format!("{x}"), format!("override WG_X: u32 = {x};")),
            (_, None) => (format!("{x}, {y}, {z}"), format!("override WG_X: u32 = {x};\noverride WG_Y: u32 = {y};")),
        };
        let tunables = match self.searches_parameter {
            true => format!("\n// with {}", self.best()?.parameter_text()),
            false => String::new(),
        };
        let overrides = match overrides.is_empty() {
            true => String::new(),
            false => format!("// or as constants the pipeline overrides:\n{overrides}\n"),
        };
        let template = match self.best_template.is_empty() {
            true => String::new(),
            false => {
                let lines: Vec<String> =
                    self.best_template.iter().map(|(text, value)| format!("//   {text} → {value}")).collect();
                format!("// the template filled in as:\n{}\n", lines.join("\n"))
            }
        };
        Some(format!(
            "// {kernel}: the best workgroup shape wgsweep found on this device{tunables}\n\
             @compute @workgroup_size({attribute})\n\
             {overrides}{template}\
             // Rust\nconst WORKGROUP_SIZE: [u32; 3] = [{x}, {y}, {z}];",
            kernel = self.kernel
        ))
    }

    /// The trials that ran and were measured (a trial the device rejected was tried, not measured).
    pub fn measured(&self) -> usize {
        self.trials.iter().filter(|r| r.median_ns.is_some()).count()
    }

    /// The best against the default, in words: "1.80× the default 64", "1.80× its default 128, n=4096 ·
    /// ELEMENTS=2" (a user's kernel, at its WGSL's own defaults), or that the default did not run.
    pub fn versus_default(&self) -> String {
        let default = match &self.default_label {
            Some(tunables) => format!("its default {}, {tunables}", shape_text(self.default_workgroup)),
            None => format!("the default {}", shape_text(self.default_workgroup)),
        };
        match self.speedup() {
            Some(s) => format!("{s:.2}× {default}"),
            None => format!("{default} did not run"),
        }
    }

    /// One line for a table or a log: best shape, its figure, speed-up over the default, cost.
    pub fn summary(&self) -> String {
        let Some(best) = self.best() else {
            return format!("{}: no valid shape among {} tried", self.kernel, self.trials.len());
        };
        let speedup = match (self.speedup(), self.candidates) {
            (None, 1) => "the family fixes this kernel's shape; every shape can be searched (--every-shape)".into(),
            _ => self.versus_default(),
        };
        let figure = best.headline_text();
        let chosen = match self.searches_parameter {
            true => format!("{}, {}", best.workgroup_text(), best.parameter_text()),
            false => best.workgroup_text(),
        };
        let mut line = format!(
            "{} {}{}: best {chosen} at {figure} ({speedup}); {} of {} {} in {:.1} s",
            self.kernel,
            self.checks.name(),
            if self.parameter.is_empty() { String::new() } else { format!(", {}", self.parameter) },
            self.measured(),
            self.candidates,
            if self.searches_parameter { "admitted configurations measured" } else { "shapes measured" },
            self.seconds,
        );
        if let (Some(exhaustive), Some(share)) = (&self.exhaustive, self.share_of_exhaustive_best()) {
            let text = |r: &ConfigResult| match self.searches_parameter {
                true => format!("{}, {}", r.workgroup_text(), r.parameter_text()),
                false => r.workgroup_text(),
            };
            let best = best_of(&exhaustive.results).map(text).unwrap_or_default();
            line += &format!(
                "; the exhaustive sweep: best {best}, the tuner's choice at {:.1} % of it, in {:.1} s ({:.0} % of its time)",
                share * 100.0,
                exhaustive.seconds,
                100.0 * self.seconds / exhaustive.seconds
            );
        }
        line
    }
}

/// Progress of a tuning run.
pub enum TuneEvent<'a> {
    /// Tuning `index` (0-based) of `total` starts.
    Tuning { index: usize, total: usize, kernel: &'a KernelId },
    /// A trial (or, when comparing, an exhaustive configuration) is about to be measured.
    Measuring { configuration: &'a Configuration },
}

/// Tunes every kernel the plan names, for each of its shader checks and parameter values (the plan's
/// workgroup sizes, where given, are the candidates). Stops early when `on_event` says so, keeping what
/// finished.
pub async fn tune(
    gpu: &Gpu,
    plan: &Plan,
    options: &TuneOptions,
    environment: &Environment,
    mut on_event: impl FnMut(TuneEvent) -> Flow,
) -> Result<Vec<Tuning>, String> {
    let harness = Harness::new(gpu, environment.timer_quantum_ns);
    let targets = targets(gpu, plan);
    let mut inputs = Inputs { gpu, plan, prepared: None };
    // Judged against the sweep, the search and the sweep each start from fresh inputs: a family's CPU
    // reference is computed on first use, and neither may inherit it from the other.
    let fresh = options.exhaustive.is_some();
    let mut tunings = Vec::new();
    for (index, target) in targets.iter().enumerate() {
        if on_event(TuneEvent::Tuning { index, total: targets.len(), kernel: &target.kernel }) == Flow::Stop {
            break;
        }
        let family = target.family;
        let bench = Bench { gpu, harness: &harness, family, workload: inputs.get(family, fresh).await? };
        let Some((trials, seconds)) = bench.search(target, options, &mut on_event).await else { break };
        let mut exhaustive = None;
        if let Some(full) = &options.exhaustive {
            let bench = Bench { gpu, harness: &harness, family, workload: inputs.get(family, fresh).await? };
            let start = Instant::now();
            let mut results = Vec::new();
            for &candidate in &target.candidates {
                let config_start = Instant::now();
                let measured = bench.measure(target.at(candidate), full, Validation::First, &mut on_event).await;
                log::debug!("sweep {candidate:?}: {:.3} s", config_start.elapsed().as_secs_f64());
                match measured {
                    Some(record) => results.push(record),
                    None => break,
                }
            }
            if results.len() < target.candidates.len() {
                break; // stopped
            }
            exhaustive = Some(Exhaustive { results, seconds: start.elapsed().as_secs_f64() });
        }
        let searches_parameter = target.searches_parameter;
        let best = best_of(&trials).map(|r| target.at((r.workgroup_size, r.parameter_value())));
        let best_overrides = best.and_then(|best| family.tunable_values(&best));
        let best_template = best.map(|best| family.template_filled(&best)).unwrap_or_default();
        tunings.push(Tuning {
            family: family.name().into(),
            kernel: target.kernel.label(),
            checks: target.checks,
            parameter: match searches_parameter {
                true => String::new(),
                false => trials.first().map(ConfigResult::parameter_text).unwrap_or_default(),
            },
            candidates: target.candidates.len(),
            default_workgroup: target.default.0,
            searches_parameter,
            default_parameter: searches_parameter.then_some(target.default.1).flatten(),
            default_label: match (searches_parameter, target.default.1, family.parameter(&target.kernel)) {
                (true, Some(index), Some(parameter)) => parameter.labels.get(index as usize).map(|l| l.to_string()),
                _ => None,
            },
            best_overrides,
            best_template,
            trials,
            seconds,
            exhaustive,
        });
    }
    Ok(tunings)
}

/// The inputs of the family being tuned, kept from one kernel to the next.
struct Inputs<'a> {
    gpu: &'a Gpu,
    plan: &'a Plan,
    prepared: Option<(&'static str, Box<dyn Workload>)>,
}

impl Inputs<'_> {
    /// The family's inputs: made anew when `fresh` or when the last ones were another family's.
    async fn get(&mut self, family: &'static dyn Family, fresh: bool) -> Result<&dyn Workload, String> {
        if fresh || self.prepared.as_ref().is_none_or(|(name, _)| *name != family.name()) {
            drop(self.prepared.take()); // free the last buffers before making the next
            let (size, _) = plan::problem_units(&self.gpu.info.limits, family, self.plan.problem_size);
            let workload = runner::setup(self.gpu, family, size, self.plan.seed)
                .await
                .map_err(|e| format!("{}: could not prepare {size} {}: {e}", family.name(), family.size_unit()))?;
            crate::kernel::idle(self.gpu).await?;
            self.prepared = Some((family.name(), workload));
        }
        Ok(self.prepared.as_ref().expect("just prepared").1.as_ref())
    }
}

/// What the tuner does with a bench (`runner::Bench`: what measuring one kernel's shapes needs).
impl Bench<'_> {
    /// Measures one configuration, or `None` when the listener says stop.
    async fn measure(
        &self,
        configuration: Configuration,
        options: &MeasureOptions,
        validation: Validation,
        on_event: &mut impl FnMut(TuneEvent) -> Flow,
    ) -> Option<ConfigResult> {
        if on_event(TuneEvent::Measuring { configuration: &configuration }) == Flow::Stop {
            return None;
        }
        let pace = &mut Default::default(); // a tuning keeps no account of its time but its seconds
        Some(runner::measure_one(*self, &configuration, options, validation, (None, None), pace).await)
    }

    /// The search's trials, validated where reported, and its wall-clock seconds; `None` when stopped.
    async fn search(
        &self,
        target: &Target,
        options: &TuneOptions,
        on_event: &mut impl FnMut(TuneEvent) -> Flow,
    ) -> Option<(Vec<ConfigResult>, f64)> {
        let start = Instant::now();
        let mut trials: Vec<ConfigResult> = Vec::new();
        let mut search =
            Search::on_grid(&target.candidates, target.positions.clone(), target.default, options.min_gain);
        while let Some(candidate) = search.next() {
            let trial_options = match trials.is_empty() {
                true => MeasureOptions { warm_up_ns: options.first_warm_up_ns, ..options.trial.clone() },
                false => options.trial.clone(),
            };
            let trial_start = Instant::now();
            let record = self.measure(target.at(candidate), &trial_options, Validation::Later, on_event).await?;
            log::debug!("trial {candidate:?}: {:.3} s", trial_start.elapsed().as_secs_f64());
            search.record(candidate, trial_score(&record));
            trials.push(record);
        }
        // Only what is reported needs checking: the fastest trial that validates, and the default.
        let mut by_speed: Vec<usize> = (0..trials.len()).filter(|&i| trial_score(&trials[i]).is_some()).collect();
        crate::sort::by(&mut by_speed, |&a, &b| {
            trial_score(&trials[b]).partial_cmp(&trial_score(&trials[a])).expect("finite")
        });
        let validation_start = Instant::now();
        for i in by_speed {
            let candidate = (trials[i].workgroup_size, trials[i].parameter_value());
            runner::validate(self.gpu, self.harness, self.workload, &target.at(candidate), &mut trials[i]).await;
            if trials[i].is_validated() {
                break;
            }
        }
        let not_yet_validated = |r: &&mut ConfigResult| r.outcome == Outcome::Measured;
        let is_default = |r: &&mut ConfigResult| (r.workgroup_size, r.parameter_value()) == target.default;
        if let Some(default) = trials.iter_mut().find(is_default).filter(not_yet_validated) {
            runner::validate(self.gpu, self.harness, self.workload, &target.at(target.default), default).await;
        }
        log::debug!("validation: {:.3} s", validation_start.elapsed().as_secs_f64());
        Some((trials, start.elapsed().as_secs_f64()))
    }
}

/// A configuration the search may pick: a workgroup shape, and the parameter's value.
type Candidate = ([u32; 3], Option<u32>);

/// One kernel, checks and parameter value to tune (or, where the parameter combines tunables, every value
/// of one problem size), the configurations the device can run for it, and where each sits on the grid
/// the search moves on.
struct Target {
    family: &'static dyn Family,
    kernel: KernelId,
    checks: ShaderChecks,
    candidates: Vec<Candidate>,
    /// Each candidate's position: along x, y and z among the distinct workgroup sizes, then along each
    /// tuned axis of the parameter.
    positions: Vec<Vec<i32>>,
    /// The common default shape (64, or 8×8) at the first value of each tunable.
    default: Candidate,
    searches_parameter: bool,
}

impl Target {
    fn at(&self, (workgroup, parameter): Candidate) -> Configuration {
        Configuration { kernel: self.kernel, checks: self.checks, workgroup, parameter }
    }
}

/// The plan's configurations grouped by everything the search does not move along, each keeping those
/// within the device's limits.
fn targets(gpu: &Gpu, plan: &Plan) -> Vec<Target> {
    let limits = &gpu.info.limits;
    let mut groups: Vec<(Target, Vec<usize>)> = Vec::new();
    for Planned { family, configuration: c } in plan.configurations(limits) {
        let fits = shapes::check_workgroup(limits, c.workgroup, family.workgroup_storage_bytes(&c)).is_ok();
        let parameter = family.parameter(&c.kernel);
        let searched = parameter.as_ref().is_some_and(|p| p.axes.iter().any(|a| a.tuned));
        // What tells targets apart: the parameter's value, or where the search moves along the parameter,
        // its position on the axes it does not tune (the problem size).
        let (kept, tuned): (Vec<usize>, Vec<usize>) = match (&parameter, c.parameter) {
            (Some(p), Some(value)) if searched => {
                let at = p.position(value);
                let kept = p.axes.iter().zip(&at).filter(|(a, _)| !a.tuned).map(|(_, &i)| i).collect();
                (kept, p.axes.iter().zip(&at).filter(|(a, _)| a.tuned).map(|(_, &i)| i).collect())
            }
            _ => (c.parameter.map(|v| v as usize).into_iter().collect(), Vec::new()),
        };
        let same = |(t, key): &(Target, Vec<usize>)| t.kernel == c.kernel && t.checks == c.checks && *key == kept;
        let at = groups.iter().position(same).unwrap_or_else(|| {
            let two_d = plan::is_two_dimensional(family, &c.kernel, limits);
            let common = (if two_d { [8, 8, 1] } else { [64, 1, 1] }, c.parameter);
            let target = Target {
                family,
                kernel: c.kernel,
                checks: c.checks,
                candidates: Vec::new(),
                positions: Vec::new(),
                default: family.default_configuration(&c, limits).unwrap_or(common),
                searches_parameter: searched,
            };
            groups.push((target, kept.clone()));
            groups.len() - 1
        });
        if fits {
            let target = &mut groups[at].0;
            target.candidates.push((c.workgroup, c.parameter));
            target.positions.push(tuned.iter().map(|&i| i as i32).collect());
        }
    }
    let mut targets: Vec<Target> = groups.into_iter().map(|(t, _)| t).filter(|t| !t.candidates.is_empty()).collect();
    for target in &mut targets {
        // Each axis of the workgroup shape: the position of its size among the distinct sizes.
        for axis in (0..3).rev() {
            let mut sizes: Vec<u32> = target.candidates.iter().map(|(w, _)| w[axis]).collect();
            crate::sort::ascending(&mut sizes);
            sizes.dedup();
            for ((w, _), position) in target.candidates.iter().zip(&mut target.positions) {
                position.insert(0, sizes.iter().position(|&s| s == w[axis]).unwrap_or(0) as i32);
            }
        }
    }
    targets
}

/// Up to this many candidates, the search tries them all.
const MEASURE_ALL_UP_TO: usize = 6;

/// The pattern search over candidates on a grid: each candidate's position along each axis (for
/// workgroup shapes of powers of two: log2 x, log2 y; for a user's kernel also the index of each tunable's
/// value). It moves along every axis with more than one position, and where no single step gains, by
/// trades between two axes (x×2 y÷2, x÷2 y×2; a tunable up and another down).
pub struct Search<P> {
    points: Vec<(P, Vec<i32>)>,
    /// Scores measured so far (`None`: tried, no valid figure).
    measured: Vec<(P, Option<f64>)>,
    best: P,
    step: i32,
    /// Whether the search polls trades between two axes, once no single step one away gains.
    trading: bool,
    min_gain: f64,
    /// The axes with more than one position.
    moving: Vec<usize>,
    /// Shapes to try before the search decides its next move.
    queue: Vec<P>,
    phase: Phase,
    /// Where the sample's trials start among `measured`.
    sampled_from: usize,
}

/// Where a search over many tunables is: a pattern search finds a local best, a sample spread over the
/// whole space looks for a better region, and a second pattern search refines the best it found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Local,
    Sampling,
    Refining,
}

/// A search over more axes than a workgroup's two, with more candidates than this, samples the space once
/// its first pattern search ends: a tiled kernel's landscape has local bests a pattern search stops at.
const SAMPLE_OVER: usize = 64;
/// The share of the candidates the sample measures.
const SAMPLE_SHARE: usize = 10;

impl Search<[u32; 3]> {
    /// The search over workgroup shapes, from the candidate nearest `default`.
    pub fn new(candidates: &[[u32; 3]], default: [u32; 3], min_gain: f64) -> Self {
        let position = |axis: usize, v: u32| {
            let mut values: Vec<u32> = candidates.iter().map(|w| w[axis]).collect();
            crate::sort::ascending(&mut values);
            values.dedup();
            values.iter().position(|&x| x == v).unwrap_or(0) as i32
        };
        let positions = candidates.iter().map(|w| vec![position(0, w[0]), position(1, w[1])]).collect();
        Search::on_grid(candidates, positions, default, min_gain)
    }
}

/// What the search needs of a candidate: its workgroup shape, to start near the common default.
pub trait Shaped: Copy + PartialEq {
    fn shape(&self) -> [u32; 3];
}

impl Shaped for ([u32; 3], Option<u32>) {
    fn shape(&self) -> [u32; 3] {
        self.0
    }
}

impl Shaped for [u32; 3] {
    fn shape(&self) -> [u32; 3] {
        *self
    }
}

impl<P: Shaped> Search<P> {
    /// The search over `candidates` at `positions`, from `default` where it is a candidate, else from the
    /// candidate whose shape is nearest the default's, at the lowest position on every other axis.
    pub fn on_grid(candidates: &[P], positions: Vec<Vec<i32>>, default: P, min_gain: f64) -> Self {
        let log = |v: u32| (v.max(1) as f64).log2();
        let wanted = default.shape();
        let distance = |(p, at): &(P, Vec<i32>)| {
            let w = p.shape();
            let shape = (log(w[0]) - log(wanted[0])).abs() + (log(w[1]) - log(wanted[1])).abs();
            shape + at.iter().skip(3).map(|&i| i as f64).sum::<f64>()
        };
        let points: Vec<(P, Vec<i32>)> = candidates.iter().copied().zip(positions).collect();
        let start = match points.iter().find(|(p, _)| *p == default) {
            Some((p, _)) => *p,
            None => {
                points
                    .iter()
                    .min_by(|a, b| distance(a).partial_cmp(&distance(b)).expect("finite"))
                    .expect("a target has candidates")
                    .0
            }
        };
        let axes = points.first().map_or(0, |(_, at)| at.len());
        let moving = (0..axes).filter(|&axis| points.iter().any(|(_, at)| at[axis] != points[0].1[axis])).collect();
        // So few shapes that the search would save little and its grid has gaps (transpose's tiles): all.
        let mut queue = Vec::new(); // popped from the end: the start first
        if candidates.len() <= MEASURE_ALL_UP_TO {
            queue.extend(candidates.iter().rev().filter(|&&w| w != start));
        }
        queue.push(start);
        Self {
            points,
            measured: Vec::new(),
            best: start,
            step: 2,
            trading: false,
            min_gain,
            moving,
            queue,
            phase: Phase::Local,
            sampled_from: 0,
        }
    }

    /// The next candidate to measure, or `None` when the search is done.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<P> {
        loop {
            if let Some(w) = self.queue.pop() {
                return Some(w);
            }
            let untried: Vec<P> =
                self.neighbours(self.best, self.step).into_iter().filter(|&w| !self.tried(w)).rev().collect();
            if !untried.is_empty() {
                self.queue = untried; // popped in poll order
                continue;
            }
            // Every neighbour at this step is measured: move, refine or stop.
            let neighbour = self
                .neighbours(self.best, self.step)
                .into_iter()
                .filter_map(|w| Some((w, self.score(w)?)))
                .max_by(|a, b| a.1.partial_cmp(&b.1).expect("finite"));
            match (neighbour, self.score(self.best)) {
                (Some((w, s)), Some(best)) if s > best * (1.0 + self.min_gain) => {
                    (self.best, self.trading) = (w, false)
                }
                (Some((w, _)), None) => self.best = w,
                _ if self.step > 1 => self.step = 1,
                _ if !self.trading && self.moving.len() > 1 => self.trading = true,
                _ => match self.phase {
                    Phase::Local if self.moving.len() > 2 && self.points.len() > SAMPLE_OVER => {
                        self.phase = Phase::Sampling;
                        self.sampled_from = self.measured.len();
                        self.queue = self.sample();
                    }
                    // A second pattern search from the best of the sample, which may lie on another slope.
                    Phase::Sampling => {
                        self.phase = Phase::Refining;
                        let sampled = self.measured[self.sampled_from..].iter().filter_map(|&(p, s)| Some((p, s?)));
                        match sampled.max_by(|a, b| a.1.total_cmp(&b.1)) {
                            Some((p, _)) => (self.best, self.step, self.trading) = (p, 2, false),
                            None => return None,
                        }
                    }
                    _ => return None,
                },
            }
        }
    }

    /// A tenth of the untried candidates, spread over the space: a fixed pseudo-random pick (by a hash of
    /// each one's place), so that a tuning can be repeated.
    fn sample(&self) -> Vec<P> {
        let mut untried: Vec<(u32, P)> = (0..self.points.len())
            .filter(|&i| !self.tried(self.points[i].0))
            .map(|i| (crate::fill::hash_u32(i as u32 ^ 0x9e37_79b9), self.points[i].0))
            .collect();
        crate::sort::by_key(&mut untried, |&(hash, _)| hash);
        untried.into_iter().take(self.points.len() / SAMPLE_SHARE).map(|(_, p)| p).collect()
    }

    pub fn record(&mut self, candidate: P, score: Option<f64>) {
        self.measured.push((candidate, score));
    }

    fn tried(&self, w: P) -> bool {
        self.measured.iter().any(|(m, _)| *m == w)
    }

    fn score(&self, w: P) -> Option<f64> {
        self.measured.iter().find(|(m, _)| *m == w).and_then(|(_, s)| *s)
    }

    /// The candidates `step` away from `w` along each axis; while trading, those a step up one axis and a
    /// step down another: the same number of invocations in another shape (x×2 y÷2), or a tiled kernel's
    /// work moved between its invocations and their number (half as many along y, each computing twice
    /// the rows), which a move along one axis at a time cannot reach without passing a slower one.
    fn neighbours(&self, w: P, step: i32) -> Vec<P> {
        let at = &self.points.iter().find(|(p, _)| *p == w).expect("the best is a candidate").1;
        let mut moves: Vec<Vec<i32>> = Vec::new();
        let moved = |changes: &[(usize, i32)]| {
            let mut to = at.clone();
            changes.iter().for_each(|&(axis, delta)| to[axis] += delta);
            to
        };
        for (i, &a) in self.moving.iter().enumerate() {
            match self.trading {
                false => moves.extend([moved(&[(a, step)]), moved(&[(a, -step)])]),
                true => {
                    for &b in &self.moving[i + 1..] {
                        moves.extend([moved(&[(a, 1), (b, -1)]), moved(&[(a, -1), (b, 1)])]);
                    }
                }
            }
        }
        moves.into_iter().filter_map(|to| self.points.iter().find(|(_, p)| *p == to).map(|(w, _)| *w)).collect()
    }
}
