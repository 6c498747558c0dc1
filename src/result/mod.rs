//! The versioned result format shared by the page and the CLI (documented in docs/result-format.md).
//!
//! `schema_version` leads every file. Fields added later carry `#[serde(default)]`, so readers of later
//! versions keep reading this one; a file from a newer version is refused with a clear message.

use serde::{Deserialize, Serialize};

use crate::gpu::DeviceInfo;
use crate::kernel::{Operations, ShaderChecks};
use crate::measure::TimingSource;

mod csv;
mod engine;
mod pace;
mod plausible;
pub use csv::CSV_HEADER;
pub use engine::{DAWN_F16_ON_NVIDIA, browser, f16_unlock, implementation};
pub use pace::Pace;
pub use plausible::check_count;

pub const SCHEMA_VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    pub schema_version: u32,
    pub tool: Tool,
    /// When the run started, RFC 3339 in UTC.
    pub created: String,
    #[serde(default)]
    pub label: String,
    pub device: DeviceInfo,
    pub environment: Environment,
    pub settings: Settings,
    pub results: Vec<ConfigResult>,
    /// What a reader must know to trust the figures (sizes capped by a limit, a cancelled run, ...).
    #[serde(default)]
    pub notes: Vec<String>,
    /// False when the run was cancelled or the device was lost: `results` holds what finished.
    pub complete: bool,
    /// The run's ceilings, where it measured them: every figure is also shown as a share of them.
    #[serde(default)]
    pub peaks: Peaks,
    /// Where the run's time went, and how much of it the GPU was busy (absent in results from before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pace: Option<Pace>,
    /// The users' kernels the run ran, as written: the gallery checks each one's digest against its rows'
    /// variant (absent in results of built-ins and from before).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub user_kernels: Vec<crate::spec::KernelText>,
}

/// The best copy and the best FMA chain of a run: the bandwidth and compute ceilings of the roofline; and
/// the best chains of every other kind of operation the run measured (f16, i32, packed int8).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Peaks {
    /// GB/s of the fastest valid plain copy (STREAM's copy or transpose's same-shape copy).
    pub copy_gbps: Option<f64>,
    /// GFLOP/s of the fastest valid f32 compute-peak kernel.
    pub fma_gflops: Option<f64>,
    /// The fastest valid compute-peak kernel of each other kind of operation, in that kind's unit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub beyond_f32: Vec<(Operations, f64)>,
}

impl Peaks {
    /// "copy 2345.6 GB/s, FMA 51234.5 GFLOP/s", or `None` where the run measured neither.
    pub fn summary(&self) -> Option<String> {
        let parts: Vec<String> = [
            self.copy_gbps.map(|gbps| format!("copy {} GB/s", format_gbps(gbps))),
            self.fma_gflops.map(|gflops| format!("FMA {} GFLOP/s", format_gbps(gflops))),
        ]
        .into_iter()
        .flatten()
        .chain(self.beyond_f32_texts())
        .collect();
        (!parts.is_empty()).then(|| parts.join(", "))
    }

    /// The peaks beyond f32, each as "f16 FMA 123.4 GFLOP/s".
    pub fn beyond_f32_texts(&self) -> impl Iterator<Item = String> + '_ {
        self.beyond_f32.iter().map(|&(operations, rate)| {
            format!("{} {} {}", operations.name(), format_gbps(rate), Unit::of(operations).name())
        })
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tool {
    pub name: String,
    pub version: String,
}

impl Tool {
    pub fn this() -> Self {
        Self { name: env!("CARGO_PKG_NAME").into(), version: env!("CARGO_PKG_VERSION").into() }
    }
}

/// Where the run happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Environment {
    /// "web" or "native".
    pub runtime: String,
    /// The browser's user agent, or the operating system and architecture.
    pub platform: String,
    /// GPU timestamps were used.
    pub timestamps: bool,
    /// The resolution of the clock the figures come from, ns (Chrome quantizes timestamps to 100 µs unless
    /// WebGPU developer features are on; performance.now() to 5 µs when cross-origin isolated, else 100 µs).
    pub timer_quantum_ns: f64,
    /// Whether the page was cross-origin isolated (null natively).
    pub cross_origin_isolated: Option<bool>,
    /// The page's main-thread tasks over 50 ms while it ran, as the browser's `longtask` entries report them
    /// (absent natively and where the browser does not report them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub long_tasks: Option<LongTasks>,
    /// The Web Workers that computed the run's CPU references off the page's thread (absent natively; 0
    /// where none could start or one failed, and the page's thread computed them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference_workers: Option<u32>,
    /// The host's speed: milliseconds a fixed piece of CPU work took it, where the run's host work runs
    /// (`estimate::probe`); the estimate scales the host's share of a run by it (absent in results from
    /// before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_probe_ms: Option<f64>,
}

/// Main-thread tasks that ran longer than 50 ms during a run in the page.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LongTasks {
    pub count: u32,
    /// The longest, ms (0 where there were none).
    pub longest_ms: f64,
}

impl LongTasks {
    /// "no main-thread task over 50 ms", or "3 main-thread tasks over 50 ms, the longest 120 ms".
    pub fn summary(&self) -> String {
        match self.count {
            0 => "no main-thread task over 50 ms".into(),
            1 => format!("1 main-thread task over 50 ms ({:.0} ms)", self.longest_ms),
            n => format!("{n} main-thread tasks over 50 ms, the longest {:.0} ms", self.longest_ms),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub seed: u32,
    /// Samples kept: at least these (more where sampling for `precision`).
    pub samples: u32,
    pub min_sample_ns: f64,
    /// The precision sampling went on for: the median's 95 % interval within this fraction of it to either
    /// side (`MeasureOptions::precision`); absent where a run kept exactly `samples`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision: Option<f64>,
}

/// One configuration: a kernel variant at one workgroup size and problem size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConfigResult {
    pub family: String,
    pub kernel: String,
    pub variant: String,
    /// wgpu's runtime checks were on (`default`) or dropped (`unchecked`, native only).
    #[serde(default)]
    pub shader_checks: ShaderChecks,
    pub workgroup_size: [u32; 3],
    /// The kernel's own parameter (a stride, an offset), where it has one.
    #[serde(default)]
    pub parameter: Option<ParameterValue>,
    pub problem_size: u64,
    pub bytes_per_dispatch: u64,
    /// Bytes in the whole 32-byte memory sectors a dispatch touches, where the family counts them
    /// (layouts: padding and unused fields travel with the fields a kernel uses).
    #[serde(default)]
    pub moved_bytes_per_dispatch: Option<u64>,
    /// Operations one dispatch does (an FMA counts two), where the family counts them: f32 flops unless
    /// `operations` names another kind.
    #[serde(default)]
    pub flops_per_dispatch: Option<u64>,
    /// What `flops_per_dispatch` counts, where it is not f32 flops.
    #[serde(default, skip_serializing_if = "Operations::is_flops")]
    pub operations: Operations,
    /// The workgroup grid of one dispatch.
    #[serde(default)]
    pub dispatch: [u32; 3],
    /// Dispatches in each sample; `samples_ns` are whole samples, the statistics are per dispatch.
    pub dispatches_per_sample: u32,
    /// Raw samples of the timing source, ns per sample.
    pub samples_ns: Vec<f64>,
    /// How many samples there were, where a summary (a share link) left the raw samples out.
    #[serde(default)]
    pub summarized_samples: u32,
    /// Raw wall-clock samples of the same submissions, ns per sample.
    #[serde(default)]
    pub wall_samples_ns: Vec<f64>,
    /// Samples dropped for a zero or negative timestamp delta.
    #[serde(default)]
    pub discarded_samples: u32,
    pub median_ns: Option<f64>,
    /// The median's 95 % confidence interval, distribution-free (`stats::median_interval`); absent under 6
    /// samples, and in results recorded before it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub median_interval_ns: Option<[f64; 2]>,
    /// Sampled for a precision (`Settings::precision`) it could not reach: the interval is as far as it got.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub noisy: bool,
    pub min_ns: Option<f64>,
    pub p95_ns: Option<f64>,
    pub cv: Option<f64>,
    /// Bytes per dispatch over the median time; GB = 10^9 bytes.
    pub gbps: Option<f64>,
    pub timing_source: Option<TimingSource>,
    /// What became of the configuration: in the file, the fields `valid`, `error`, `skipped` and `suspect`.
    #[serde(flatten)]
    pub outcome: Outcome,
    /// The figure as a percentage of the best figure of the family's baseline kernel in this run
    /// (transpose: the same-shape copy), where the family has one.
    #[serde(default, rename = "percent_of_reference")]
    pub percent_of_baseline: Option<f64>,
    /// The figure as a percentage of the roof above it: GFLOP/s against min(the run's FMA peak, flops per
    /// byte × its best copy) where the kernel counts flops and the run has an FMA peak, else GB/s against
    /// the best copy; absent where the run did not measure the peak it needs, or GB/s counts workgroup
    /// memory (banks).
    #[serde(default)]
    pub percent_of_peak: Option<f64>,
    /// Seconds of the run's wall time this configuration took, from the end of the one before: its family's
    /// inputs where it was the family's first, its reference, pipeline, validation and measurement, and the
    /// progress reported before it (absent in results from before, and in links). Runs' estimates are
    /// learned from it (`estimate`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub took_s: Option<f64>,
}

/// What became of one configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "OutcomeFields", into = "OutcomeFields")]
pub enum Outcome {
    /// The output matched the CPU reference and the configuration was measured. `suspect` says why the
    /// figure is still not to be trusted (e.g. above the run's best copy), where the analysis found a reason.
    Valid { suspect: Option<String> },
    /// Measured, never validated: an auto-tuning trial that was never the best.
    Measured,
    /// Preparing, validating or measuring it failed; `validated` says whether its output had matched the
    /// reference before (a measurement that failed afterwards).
    Failed { error: String, validated: bool },
    /// It could not run on this device, for this reason (a limit and both numbers, or why it does not apply).
    Skipped { reason: String },
    /// It ran once and its output matched the reference, but it was not measured, for this reason (one
    /// dispatch takes far longer than a measured one may).
    Unmeasured { reason: String },
}

/// How an outcome is written in a result file (schema 1).
#[derive(Clone, Serialize, Deserialize)]
struct OutcomeFields {
    valid: bool,
    error: Option<String>,
    skipped: Option<String>,
    #[serde(default)]
    suspect: Option<String>,
}

impl From<OutcomeFields> for Outcome {
    fn from(fields: OutcomeFields) -> Self {
        match fields {
            OutcomeFields { skipped: Some(reason), valid: true, error: None, .. } => Outcome::Unmeasured { reason },
            OutcomeFields { skipped: Some(reason), .. } => Outcome::Skipped { reason },
            OutcomeFields { error: Some(error), valid, .. } => Outcome::Failed { error, validated: valid },
            OutcomeFields { valid: true, suspect, .. } => Outcome::Valid { suspect },
            OutcomeFields { .. } => Outcome::Measured,
        }
    }
}

impl From<Outcome> for OutcomeFields {
    fn from(outcome: Outcome) -> Self {
        let none = OutcomeFields { valid: false, error: None, skipped: None, suspect: None };
        match outcome {
            Outcome::Valid { suspect } => OutcomeFields { valid: true, suspect, ..none },
            Outcome::Measured => none,
            Outcome::Failed { error, validated } => OutcomeFields { valid: validated, error: Some(error), ..none },
            Outcome::Skipped { reason } => OutcomeFields { skipped: Some(reason), ..none },
            Outcome::Unmeasured { reason } => OutcomeFields { valid: true, skipped: Some(reason), ..none },
        }
    }
}

/// The unit of a configuration's headline figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    GbPerS,
    GflopPerS,
    /// Billions of 32-bit integer operations per second.
    GiopPerS,
    /// Billions of 8-bit integer operations per second (packed dot products).
    GopPerS,
}

impl Unit {
    pub fn name(self) -> &'static str {
        match self {
            Unit::GbPerS => "GB/s",
            Unit::GflopPerS => "GFLOP/s",
            Unit::GiopPerS => "GIOP/s",
            Unit::GopPerS => "GOP/s",
        }
    }

    /// The unit of a rate of `operations`.
    pub fn of(operations: Operations) -> Unit {
        match operations {
            Operations::Flops | Operations::HalfFlops => Unit::GflopPerS,
            Operations::IntegerOps => Unit::GiopPerS,
            Operations::Int8Ops => Unit::GopPerS,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ParameterValue {
    pub name: String,
    pub value: u32,
    /// What the value stands for, where it names a choice (transpose: "square").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

impl ConfigResult {
    /// Whether `other` is the same configuration: kernel, checks, workgroup shape and parameter value.
    pub fn same_configuration(&self, other: &ConfigResult) -> bool {
        self.configuration_key() == other.configuration_key()
    }

    /// What tells one configuration from another (`same_configuration`), to find it in a map: results of
    /// thousands of configurations are matched in linear time, not quadratic.
    pub fn configuration_key(&self) -> (&str, &str, &str, ShaderChecks, [u32; 3], Option<u32>) {
        (&self.family, &self.kernel, &self.variant, self.shader_checks, self.workgroup_size, self.parameter_value())
    }

    /// `kernel/variant`.
    pub fn label(&self) -> String {
        format!("{}/{}", self.kernel, self.variant)
    }

    /// What became of the configuration, in words: "valid", "skipped: ...", the error, or "suspect: ...".
    pub fn status(&self) -> String {
        match &self.outcome {
            Outcome::Skipped { reason } => format!("skipped: {reason}"),
            Outcome::Unmeasured { reason } => format!("valid; {reason}"),
            Outcome::Failed { error, .. } => error.clone(),
            Outcome::Valid { suspect: Some(why) } => format!("suspect: {why}"),
            Outcome::Measured => "measured, not validated (an auto-tuning trial that was never the best)".into(),
            Outcome::Valid { suspect: None } => "valid".into(),
        }
    }

    /// Why the configuration did not run, where it was skipped.
    pub fn skipped(&self) -> Option<&str> {
        match &self.outcome {
            Outcome::Skipped { reason } => Some(reason),
            _ => None,
        }
    }

    /// What went wrong, where preparing, validating or measuring the configuration failed.
    pub fn error(&self) -> Option<&str> {
        match &self.outcome {
            Outcome::Failed { error, .. } => Some(error),
            _ => None,
        }
    }

    /// Why a valid figure is not to be trusted, where the analysis found a reason.
    pub fn suspect(&self) -> Option<&str> {
        match &self.outcome {
            Outcome::Valid { suspect } => suspect.as_deref(),
            _ => None,
        }
    }

    /// Whether the output matched the CPU reference (even where measuring failed afterwards).
    pub fn is_validated(&self) -> bool {
        matches!(
            self.outcome,
            Outcome::Valid { .. } | Outcome::Unmeasured { .. } | Outcome::Failed { validated: true, .. }
        )
    }

    /// Records a failure, keeping whether the output had been validated before it.
    pub fn fail(&mut self, error: impl ToString) {
        let error = crate::bounds::MESSAGE.clip(&error.to_string());
        self.outcome = Outcome::Failed { error, validated: self.is_validated() };
    }

    /// The workgroup shape as shown in tables: "256" for 1-D, "16×4" for 2-D, "4×4×4" for 3-D.
    pub fn workgroup_text(&self) -> String {
        shape_text(self.workgroup_size)
    }

    /// The value of the kernel's own parameter, where it has one.
    pub fn parameter_value(&self) -> Option<u32> {
        self.parameter.as_ref().map(|p| p.value)
    }

    /// Where the parameter combines a user's kernel's size and tunables: the size ("n=16777216") and the
    /// tunables ("ELEMENTS=4"; empty where the workgroup's shape is the only one).
    pub fn size_and_tunables(&self) -> Option<(&str, &str)> {
        let parameter = self.parameter.as_ref().filter(|p| p.name == crate::kernel::Parameter::TUNABLES)?;
        let label = parameter.label.as_deref()?;
        Some(label.split_once(crate::kernel::Parameter::TUNABLES_SEPARATOR).unwrap_or((label, "")))
    }

    /// The kernel's own parameter as shown in tables, e.g. "stride 8"; empty where it has none.
    pub fn parameter_text(&self) -> String {
        let text = |p: &ParameterValue| match &p.label {
            Some(label) => format!("{} {label}", p.name),
            None => format!("{} {}", p.name, p.value),
        };
        self.parameter.as_ref().map(text).unwrap_or_default()
    }

    /// The table cells both shells show: median, min, GB/s (with the % of the family's reference where
    /// there is one), GFLOP/s, % of the run's peak, CV, samples × dispatches.
    pub fn figures(&self) -> [String; 7] {
        let gbps = match (self.gbps, self.percent_of_baseline) {
            (Some(gbps), Some(percent)) => format!("{} ({percent:.0} %)", format_gbps(gbps)),
            (gbps, _) => gbps.map(format_gbps).unwrap_or_default(),
        };
        let gbps = match self.moved_gbps() {
            Some(moved) => format!("{gbps} (moved {})", format_gbps(moved)),
            None => gbps,
        };
        let noisy = if self.noisy { " noisy" } else { "" };
        let median = match (self.median_ns, self.interval_percent()) {
            (Some(median), Some(percent)) => format!("{} ±{percent:.1}%{noisy}", format_ns(median)),
            (median, _) => median.map(format_ns).unwrap_or_default(),
        };
        [
            median,
            self.min_ns.map(format_ns).unwrap_or_default(),
            gbps,
            match self.unit() {
                Unit::GiopPerS | Unit::GopPerS => self.headline_text(),
                _ => self.gflops().map(format_gbps).unwrap_or_default(),
            },
            self.percent_of_peak.map(|p| format!("{p:.0} %")).unwrap_or_default(),
            self.cv.map(|cv| format!("{:.1}%", cv * 100.0)).unwrap_or_default(),
            match self.sample_count() {
                0 => String::new(),
                samples => format!("{samples}×{}", self.dispatches_per_sample),
            },
        ]
    }

    /// How far the median's interval reaches from it, at its wider side, as a percentage of it.
    pub fn interval_percent(&self) -> Option<f64> {
        let ([low, high], median) = (self.median_interval_ns?, self.median_ns?);
        Some(100.0 * (median - low).max(high - median) / median)
    }

    /// The 95 % interval of a figure of work over the median time (GB/s, GFLOP/s): the same work over the
    /// ends of the median's interval, slowest first.
    pub fn figure_interval(&self, figure: f64) -> Option<[f64; 2]> {
        let ([fastest, slowest], median) = (self.median_interval_ns?, self.median_ns?);
        (fastest > 0.0).then(|| [figure * median / slowest, figure * median / fastest])
    }

    /// Samples taken: the raw samples, or the count a summary kept.
    pub fn sample_count(&self) -> usize {
        if self.samples_ns.is_empty() { self.summarized_samples as usize } else { self.samples_ns.len() }
    }

    /// Counted operations per dispatch over the median time, in `unit()`, where the family counts them.
    pub fn operation_rate(&self) -> Option<f64> {
        Some(self.flops_per_dispatch? as f64 / self.median_ns?)
    }

    /// Flops (f32 or f16) per dispatch over the median time (GFLOP/s), where the family counts them.
    pub fn gflops(&self) -> Option<f64> {
        matches!(self.operations, Operations::Flops | Operations::HalfFlops).then(|| self.operation_rate())?
    }

    /// f32 flops per byte moved: where the kernel sits on the roofline's x axis (whose roof is f32's).
    pub fn intensity(&self) -> Option<f64> {
        let flops = self.flops_per_dispatch.filter(|_| self.operations.is_flops())?;
        (self.bytes_per_dispatch > 0).then(|| flops as f64 / self.bytes_per_dispatch as f64)
    }

    /// Moved bytes per dispatch over the median time, where the family counts them.
    pub fn moved_gbps(&self) -> Option<f64> {
        Some(self.moved_bytes_per_dispatch? as f64 / self.median_ns?)
    }

    /// Measured and valid: may be ranked and charted.
    pub fn is_good(&self) -> bool {
        matches!(self.outcome, Outcome::Valid { .. }) && self.gbps.is_some()
    }

    /// The unit of the headline figure: that of the operations where the kernel counts them (GFLOP/s,
    /// GIOP/s, GOP/s), else GB/s.
    pub fn unit(&self) -> Unit {
        if self.flops_per_dispatch.is_some() { Unit::of(self.operations) } else { Unit::GbPerS }
    }

    /// The figure a configuration is judged by, in `unit()`: per unit of work, so results with different
    /// problem sizes still compare. `None` until measured.
    pub fn headline(&self) -> Option<f64> {
        match self.unit() {
            Unit::GbPerS => self.gbps,
            _ => self.operation_rate(),
        }
    }

    /// The headline figure at the slowest and the fastest time this configuration's statistics keep (its p95
    /// and min: the samples' spread, or for a gallery's median the slowest and the fastest result's).
    pub fn headline_range(&self) -> Option<(f64, f64)> {
        let (headline, median) = (self.headline()?, self.median_ns?);
        let at = |ns: f64| (ns > 0.0).then(|| headline * median / ns);
        Some((at(self.p95_ns?)?, at(self.min_ns?)?))
    }

    /// The headline figure with its unit, e.g. "2345.6 GB/s"; empty until measured.
    pub fn headline_text(&self) -> String {
        self.headline().map(|figure| format!("{} {}", format_gbps(figure), self.unit().name())).unwrap_or_default()
    }
}

/// GB/s of `bytes` moved in `ns` (GB = 10^9 bytes), the figure every result records; none for a time
/// that is not positive.
pub fn gb_per_s(bytes: u64, ns: f64) -> Option<f64> {
    (ns > 0.0).then(|| bytes as f64 / ns)
}

/// A workgroup shape as tables show it: "256" for 1-D, "16×4" for 2-D, "4×4×4" for 3-D.
pub fn shape_text(shape: [u32; 3]) -> String {
    match shape {
        [x, 1, 1] => x.to_string(),
        [x, y, 1] => format!("{x}×{y}"),
        [x, y, z] => format!("{x}×{y}×{z}"),
    }
}

/// A duration in the unit that reads best.
pub fn format_ns(ns: f64) -> String {
    match ns {
        ns if ns >= 1e6 => format!("{:.3} ms", ns / 1e6),
        ns if ns >= 1e3 => format!("{:.2} µs", ns / 1e3),
        ns => format!("{ns:.0} ns"),
    }
}

/// GB/s with three significant figures for small values, one decimal otherwise.
pub fn format_gbps(gbps: f64) -> String {
    if gbps < 10.0 { format!("{gbps:.3}") } else { format!("{gbps:.1}") }
}

#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("not a wgsweep result: {0}")]
    Malformed(String),
    #[error("not a believable result: {0}")]
    Implausible(String),
    #[error(
        "this result was written by a newer wgsweep (schema version {found}; this one reads up to {SCHEMA_VERSION}): update wgsweep to read it"
    )]
    TooNew { found: u32 },
    #[error(
        "this result takes {bytes} bytes, {} more than the {MAX_FILE_BYTES} a result file may (a result at the configuration bound with 50 samples a configuration takes 112 MB)",
        bytes - MAX_FILE_BYTES
    )]
    TooLarge { bytes: usize },
}

/// The most bytes a result's JSON may take: every reader refuses more before it reads a field, so that a
/// crafted file cannot make one allocate without bound.
pub const MAX_FILE_BYTES: usize = 128 << 20;

impl RunResult {
    /// Where the run's time went, and in the page how long the main thread was held (under its results).
    pub fn pace_text(&self) -> Option<String> {
        let mut text = self.pace.as_ref()?.summary();
        if let Some(long_tasks) = &self.environment.long_tasks {
            text += &format!("; {}", long_tasks.summary());
        }
        match self.environment.reference_workers {
            Some(0) => text += "; CPU references on the page's thread",
            Some(1) => text += "; CPU references in a Web Worker",
            Some(workers) => text += &format!("; CPU references in {workers} Web Workers"),
            None => {}
        }
        if let Some(ms) = self.environment.host_probe_ms {
            text += &format!("; the host's probe {ms:.2} ms");
        }
        Some(text)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a RunResult always serializes")
    }

    /// Reads a result file; refuses one that is malformed, from a newer wgsweep, or not believable
    /// (`check`), with a message that says why.
    pub fn from_json(text: &str) -> Result<Self, ReadError> {
        if text.len() > MAX_FILE_BYTES {
            return Err(ReadError::TooLarge { bytes: text.len() });
        }
        #[derive(Deserialize)]
        struct Version {
            schema_version: u32,
        }
        let version: Version = serde_json::from_str(text).map_err(|e| ReadError::Malformed(e.to_string()))?;
        if version.schema_version > SCHEMA_VERSION {
            return Err(ReadError::TooNew { found: version.schema_version });
        }
        let result: RunResult = serde_json::from_str(text).map_err(|e| ReadError::Malformed(e.to_string()))?;
        result.check().map_err(ReadError::Implausible)?;
        Ok(result)
    }
}

/// RFC 3339 (UTC, milliseconds) for a time in milliseconds since the Unix epoch.
pub fn rfc3339(unix_ms: u64) -> String {
    let days = (unix_ms / 86_400_000) as i64;
    let ms_of_day = unix_ms % 86_400_000;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let (h, m, s, ms) = (ms_of_day / 3_600_000, ms_of_day / 60_000 % 60, ms_of_day / 1000 % 60, ms_of_day % 1000);
    format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{ms:03}Z")
}

/// Now, as RFC 3339.
pub fn now_rfc3339() -> String {
    let ms =
        web_time::SystemTime::now().duration_since(web_time::UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0);
    rfc3339(ms)
}
