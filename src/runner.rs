//! The one entry point both shells drive: sweep every selected kernel over every workgroup size, validate
//! each configuration against its CPU reference, time it, and collect one `RunResult`.

use crate::gpu::{ComputeLimits, Gpu};
use crate::kernel::{Before, Config, Configuration, Family, KernelId, ShaderChecks, Skip};
use crate::measure::{self, MeasureOptions, Timer};
use crate::result::{
    ConfigResult, Environment, ParameterValue, Peaks, RunResult, SCHEMA_VERSION, Settings, Tool, now_rfc3339,
};
use crate::{fill, kernels, stats, sweep};

/// What to run.
#[derive(Clone, Debug)]
pub struct Plan {
    pub kernels: Vec<KernelId>,
    pub problem_size: ProblemSize,
    pub workgroups: Shapes,
    /// Values of the kernels' own numeric parameters (strides, sizes, radii) to try instead of each
    /// family's list; `None` tries each family's list. Parameters that name choices keep their list.
    pub parameter_values: Option<Vec<u32>>,
    /// Each configuration runs once per entry: wgpu's default runtime checks, and natively also without.
    pub shader_checks: Vec<ShaderChecks>,
    pub measure: MeasureOptions,
    pub seed: u32,
}

/// Which workgroup shapes to try.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shapes {
    /// Each family's own: every power of two up to the device's maximum (every 2-D shape for image-like
    /// kernels), unless the family fixes the shape to sweep its parameter (bank strides, sizes, tiles).
    Family,
    /// These 1-D sizes.
    Sizes(Vec<u32>),
    /// Every power-of-two size, or 2-D shape for the kernels the family sweeps in 2-D, the device's largest
    /// workgroup could hold, even where the family fixes its shape: what the auto-tuner searches.
    Every,
}

/// How large each family's problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProblemSize {
    /// Each family's default for the device: 256 MiB per buffer where the device allows it.
    Default,
    /// This many of each family's units (f32 elements, particles, pixels: `Family::size_unit`).
    Units(u64),
    /// As many units as make this many bytes per buffer, whatever the family's unit.
    BytesPerBuffer(u64),
}

impl Plan {
    /// The configurations this plan has on a device with these limits, in run order.
    pub fn configurations(&self, limits: &ComputeLimits) -> Vec<Configuration> {
        let mut configurations = Vec::new();
        for &kernel in &self.kernels {
            let family = kernels::family(kernel.family).expect("plans only hold registered kernels");
            let workgroups = match &self.workgroups {
                Shapes::Family => family.workgroups(&kernel, limits),
                Shapes::Sizes(sizes) => sizes.iter().map(|&x| [x, 1, 1]).collect(),
                Shapes::Every if is_two_dimensional(family, &kernel, limits) => sweep::power_of_two_shapes(limits),
                Shapes::Every => sweep::power_of_two_sizes(limits).into_iter().map(|x| [x, 1, 1]).collect(),
            };
            let parameters: Vec<Option<u32>> = match (family.parameter(&kernel), &self.parameter_values) {
                (Some(p), Some(values)) if p.labels.is_empty() => values.iter().copied().map(Some).collect(),
                (Some(parameter), _) => parameter.values.into_iter().map(Some).collect(),
                (None, _) => vec![None],
            };
            for &checks in &self.shader_checks {
                for &workgroup in &workgroups {
                    configurations.extend(parameters.iter().map(|&parameter| Configuration {
                        kernel,
                        checks,
                        workgroup,
                        parameter,
                    }));
                }
            }
        }
        configurations
    }
}

/// Whether the family sweeps `kernel` over 2-D workgroup shapes (image-like kernels).
pub fn is_two_dimensional(family: &dyn Family, kernel: &KernelId, limits: &ComputeLimits) -> bool {
    family.workgroups(kernel, limits).iter().any(|w| w[1] > 1)
}

/// Progress, as the runner reports it.
pub enum Event<'a> {
    /// Inputs for a family are being prepared: `size` of the family's `unit`.
    Preparing { family: &'a str, size: u64, unit: &'a str },
    /// Configuration `index` (0-based) of `total` is about to be validated and measured.
    Measuring { index: usize, total: usize, configuration: &'a Configuration },
    /// Configuration `index` is done (measured, failed or skipped).
    Finished { index: usize, total: usize, record: &'a ConfigResult },
}

/// The listener's answer: go on, or stop and keep what finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
}

/// How much faster than the run's best copy a figure may be before it is flagged.
const SUSPECT_OVER_COPY: f64 = 1.1;

/// Runs `plan` on `gpu`. Never fails as a whole: a configuration that cannot run is recorded with its
/// reason, and a cancelled run or a lost device returns what finished, marked incomplete.
pub async fn run(
    gpu: &Gpu,
    plan: &Plan,
    environment: Environment,
    mut on_event: impl FnMut(Event) -> Flow,
) -> RunResult {
    let mut result = RunResult {
        schema_version: SCHEMA_VERSION,
        tool: Tool::this(),
        created: now_rfc3339(),
        label: String::new(),
        device: gpu.info.clone(),
        environment,
        settings: Settings {
            seed: plan.seed,
            samples: plan.measure.samples,
            min_sample_ns: plan.measure.min_sample_ns,
        },
        results: Vec::new(),
        notes: Vec::new(),
        complete: false,
        peaks: Peaks::default(),
    };
    let timer = Timer::new(gpu, result.environment.timer_quantum_ns);
    let configurations = plan.configurations(&gpu.info.limits);
    let total = configurations.len();
    // The inputs of the family being run; `prepared` names it even when preparing failed, so a failure
    // is reported once per family rather than once per configuration.
    let mut prepared: Option<&'static str> = None;
    let mut workload: Option<Box<dyn crate::kernel::Workload>> = None;

    for (index, configuration) in configurations.iter().enumerate() {
        let kernel = &configuration.kernel;
        if let Some(reason) = gpu.lost_reason() {
            result.notes.push(format!("the GPU device was lost after {index} of {total} configurations ({reason})"));
            return finish(result);
        }
        let family = kernels::family(kernel.family).expect("plans only hold registered kernels");
        if prepared != Some(kernel.family) {
            prepared = Some(kernel.family);
            workload = None; // free the last family's buffers before making the next one's
            let (size, note) = problem_units(gpu, family, plan.problem_size);
            result.notes.extend(note.map(|note| format!("{}: {note}", family.name())));
            if on_event(Event::Preparing { family: family.name(), size, unit: family.size_unit() }) == Flow::Stop {
                return cancelled(result, index, total);
            }
            match setup(gpu, family, size, plan.seed).await {
                Ok(w) => {
                    result.notes.extend(w.notes().into_iter().map(|note| format!("{}: {note}", family.name())));
                    workload = Some(w);
                }
                Err(error) => result.notes.push(format!(
                    "{}: could not prepare {size} {}: {error}",
                    family.name(),
                    family.size_unit()
                )),
            }
        }
        if on_event(Event::Measuring { index, total, configuration }) == Flow::Stop {
            return cancelled(result, index, total);
        }
        let record = match &workload {
            Some(w) => {
                measure_one(gpu, &timer, family, w.as_ref(), configuration, &plan.measure, Validation::First).await
            }
            None => blank(configuration, 0, 0).with_error("the family's inputs could not be prepared"),
        };
        result.results.push(record);
        let record = result.results.last().expect("just pushed");
        if on_event(Event::Finished { index, total, record }) == Flow::Stop {
            return cancelled(result, index + 1, total);
        }
    }
    result.complete = true;
    finish(result)
}

fn cancelled(mut result: RunResult, done: usize, total: usize) -> RunResult {
    result.notes.push(format!("cancelled after {done} of {total} configurations"));
    finish(result)
}

fn finish(mut result: RunResult) -> RunResult {
    flag_suspects(&mut result.results);
    relate_to_references(&mut result.results);
    result.peaks = relate_to_peaks(&mut result.results);
    result
}

/// The kernels whose best figure is the run's compute ceiling.
const PEAK_KERNELS: [&str; 1] = ["fma"];

/// The ceilings of these results: the best valid copy's GB/s and the best valid FMA chain's GFLOP/s.
pub fn peaks(results: &[ConfigResult]) -> Peaks {
    Peaks {
        copy_gbps: best_gbps(results, |r| COPY_KERNELS.contains(&r.kernel.as_str())),
        fma_gflops: results
            .iter()
            .filter(|r| r.is_good() && PEAK_KERNELS.contains(&r.kernel.as_str()))
            .filter_map(ConfigResult::gflops)
            .reduce(f64::max),
    }
}

/// Finds the run's ceilings (`peaks`) and puts every valid figure in proportion to the roof above it: the
/// GFLOP/s of a kernel that counts flops against min(FMA peak, its flops per byte × copy bandwidth), as on
/// the roofline, where the run has an FMA peak; otherwise GB/s against the copy, unless the GB/s counts
/// workgroup memory.
pub fn relate_to_peaks(results: &mut [ConfigResult]) -> Peaks {
    let peaks = peaks(results);
    for r in results.iter_mut().filter(|r| r.is_good()) {
        let roof = match (r.intensity(), peaks.fma_gflops, peaks.copy_gbps) {
            (Some(intensity), Some(fma), Some(copy)) => Some(fma.min(intensity * copy)),
            (Some(_), Some(fma), None) => Some(fma),
            _ => None,
        };
        r.percent_of_peak = match (r.gflops(), roof, r.gbps, peaks.copy_gbps) {
            (Some(gflops), Some(roof), _, _) => Some(100.0 * gflops / roof),
            (_, None, Some(gbps), Some(copy)) if in_device_memory(r) => Some(100.0 * gbps / copy),
            _ => None,
        };
    }
    peaks
}

/// Puts every valid figure of a family that has a reference kernel in proportion to that kernel's best
/// at the same value of the parameter (transpose: the same matrix shape).
pub fn relate_to_references(results: &mut [ConfigResult]) {
    for family in kernels::FAMILIES {
        let Some(reference) = family.reference() else { continue };
        for i in 0..results.len() {
            let r = &results[i];
            if r.family != family.name() || !r.is_good() {
                continue;
            }
            let same = |other: &ConfigResult| {
                other.family == r.family && other.kernel == reference && other.parameter == r.parameter
            };
            if let Some(best) = best_gbps(results, same).filter(|&best| best > 0.0) {
                results[i].percent_of_reference = results[i].gbps.map(|gbps| 100.0 * gbps / best);
            }
        }
    }
}

/// The highest figure among the valid results that `which` picks, if any.
fn best_gbps(results: &[ConfigResult], which: impl Fn(&ConfigResult) -> bool) -> Option<f64> {
    results.iter().filter(|r| r.is_good() && which(r)).filter_map(|r| r.gbps).reduce(f64::max)
}

/// The kernels that are plain copies, by family: STREAM's copy and transpose's same-shape reference.
const COPY_KERNELS: [&str; 2] = ["copy", "copy2d"];

/// Whether a result's GB/s counts device memory, which a copy bounds (not workgroup memory).
fn in_device_memory(r: &ConfigResult) -> bool {
    kernels::family(&r.family).is_none_or(|f| f.gbps_is_device_memory())
}

/// Flags figures above the run's best copy: no kernel can move data faster than a plain copy does.
pub fn flag_suspects(results: &mut [ConfigResult]) {
    let Some(best_copy) = best_gbps(results, |r| COPY_KERNELS.contains(&r.kernel.as_str())) else { return };
    for r in results.iter_mut().filter(|r| r.is_good() && in_device_memory(r)) {
        let gbps = r.gbps.expect("good results have a figure");
        if gbps > SUSPECT_OVER_COPY * best_copy {
            r.suspect = Some(format!(
                "{gbps:.1} GB/s is above {SUSPECT_OVER_COPY}× this run's best copy ({best_copy:.1} GB/s): \
                 the data may be cached or the timing wrong"
            ));
        }
    }
}

/// How many of the family's units its problem has on `gpu`, and why it is smaller than the default where
/// a device limit made it so.
pub(crate) fn problem_units(gpu: &Gpu, family: &dyn Family, problem_size: ProblemSize) -> (u64, Option<String>) {
    let sizing = family.default_size(&gpu.info.limits);
    let (units, note) = match problem_size {
        ProblemSize::Default => (sizing.size, sizing.note),
        ProblemSize::Units(units) => (units, None),
        ProblemSize::BytesPerBuffer(bytes) => (bytes / family.unit_bytes(), None),
    };
    (family.round_size(units), note)
}

/// Makes the family's inputs, turning running out of GPU memory into an error rather than a lost device.
pub(crate) async fn setup(
    gpu: &Gpu,
    family: &dyn Family,
    size: u64,
    seed: u32,
) -> Result<Box<dyn crate::kernel::Workload>, String> {
    let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
    let workload = family.setup(gpu, size, seed);
    if let Some(error) = scope.pop().await {
        return Err(format!("the GPU is out of memory ({error})"));
    }
    workload
}

fn blank(configuration: &Configuration, problem_size: u64, bytes_per_dispatch: u64) -> ConfigResult {
    let Configuration { kernel, checks, workgroup, parameter } = *configuration;
    let family = kernels::family(kernel.family).expect("plans only hold registered kernels");
    let parameter = parameter.zip(family.parameter(&kernel)).map(|(value, p)| ParameterValue {
        name: p.name.into(),
        value,
        label: p.labels.get(value as usize).map(|l| l.to_string()),
    });
    ConfigResult {
        family: kernel.family.into(),
        kernel: kernel.kernel.into(),
        variant: kernel.variant.into(),
        shader_checks: checks,
        workgroup_size: workgroup,
        parameter,
        problem_size,
        bytes_per_dispatch,
        moved_bytes_per_dispatch: None,
        flops_per_dispatch: None,
        dispatch: [0; 3],
        dispatches_per_sample: 0,
        samples_ns: Vec::new(),
        summarized_samples: 0,
        wall_samples_ns: Vec::new(),
        discarded_samples: 0,
        median_ns: None,
        min_ns: None,
        p95_ns: None,
        cv: None,
        gbps: None,
        timing_source: None,
        valid: false,
        error: None,
        skipped: None,
        suspect: None,
        percent_of_reference: None,
        percent_of_peak: None,
    }
}

impl ConfigResult {
    fn with_error(mut self, error: impl ToString) -> Self {
        self.error = Some(error.to_string());
        self
    }
}

/// Whether `measure_one` checks the output before measuring.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Validation {
    First,
    /// Measured only: the auto-tuner validates the shapes it reports afterwards (`validate`).
    Later,
}

/// Builds, runs once and (with `Validation::First`) checks a configuration, then measures it.
pub(crate) async fn measure_one(
    gpu: &Gpu,
    timer: &Timer,
    family: &dyn Family,
    workload: &dyn crate::kernel::Workload,
    configuration: &Configuration,
    options: &MeasureOptions,
    validation: Validation,
) -> ConfigResult {
    let workgroup = configuration.workgroup;
    let mut record = blank(configuration, workload.size(), workload.bytes_per_dispatch(configuration));
    record.moved_bytes_per_dispatch = workload.moved_bytes_per_dispatch(configuration);
    record.flops_per_dispatch = workload.flops_per_dispatch(configuration);
    if let Err(skip) =
        sweep::check_workgroup(&gpu.info.limits, workgroup, family.workgroup_storage_bytes(configuration))
    {
        record.skipped = Some(skip.to_string());
        return record;
    }
    let config = match configure_and_run_once(gpu, workload, configuration).await {
        Ok(config) => config,
        Err(Failure::Skip(skip)) => {
            record.skipped = Some(skip.to_string());
            return record;
        }
        Err(Failure::Error(error)) => return record.with_error(error),
    };
    record.dispatch = config.workgroups;
    if validation == Validation::First {
        if let Err(error) = check_output(gpu, workload, configuration, &config).await {
            return record.with_error(error);
        }
        record.valid = true;
    }

    let measurement = match timer.measure(gpu, &config.steps, options).await {
        Ok(m) => m,
        Err(error) => return record.with_error(error),
    };
    record.timing_source = Some(measurement.source);
    record.dispatches_per_sample = measurement.dispatches_per_sample;
    record.discarded_samples = measurement.discarded;
    let per_dispatch: Vec<f64> =
        measurement.primary().iter().map(|ns| ns / measurement.dispatches_per_sample as f64).collect();
    if let Some(summary) = stats::summarize(&per_dispatch) {
        record.median_ns = Some(summary.median);
        record.min_ns = Some(summary.min);
        record.p95_ns = Some(summary.p95);
        record.cv = Some(summary.cv);
        record.gbps = Some(record.bytes_per_dispatch as f64 / summary.median);
    }
    record.samples_ns = measurement.primary().to_vec();
    record.wall_samples_ns = measurement.wall_ns;
    record
}

/// Reads a configuration's output (after `submit_once`) and compares it with the CPU reference.
async fn check_output(
    gpu: &Gpu,
    workload: &dyn crate::kernel::Workload,
    configuration: &Configuration,
    config: &Config,
) -> Result<(), String> {
    let output = measure::read_buffer(gpu, &config.output).await.map_err(|e| e.to_string())?;
    workload.check(configuration, config, &output).map_err(|mismatch| format!("FAILED validation: {mismatch}"))
}

/// Validates a configuration measured with `Validation::Later`: builds and runs it once more and checks
/// its output. Marks `record` valid, or records why not.
pub(crate) async fn validate(
    gpu: &Gpu,
    workload: &dyn crate::kernel::Workload,
    configuration: &Configuration,
    record: &mut ConfigResult,
) {
    let outcome = match configure_and_run_once(gpu, workload, configuration).await {
        Ok(config) => check_output(gpu, workload, configuration, &config).await,
        Err(Failure::Skip(skip)) => Err(skip.to_string()),
        Err(Failure::Error(error)) => Err(error),
    };
    match outcome {
        Ok(()) => record.valid = true,
        Err(error) => record.error = Some(error),
    }
}

enum Failure {
    Skip(Skip),
    Error(String),
}

/// Builds the configuration, poisons its output and runs it once, inside a validation error scope so a
/// pipeline the device rejects becomes this configuration's error instead of the whole run's.
async fn configure_and_run_once(
    gpu: &Gpu,
    workload: &dyn crate::kernel::Workload,
    configuration: &Configuration,
) -> Result<Config, Failure> {
    let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let config = workload.configure(gpu, configuration);
    if let Ok(config) = &config {
        submit_once(gpu, config);
    }
    let error = scope.pop().await;
    match (config, error) {
        (_, Some(error)) => Err(Failure::Error(format!("the GPU rejected this configuration: {error}"))),
        (Err(skip), None) => Err(Failure::Skip(skip)),
        (Ok(config), None) => Ok(config),
    }
}

/// Poisons the configuration's output (or writes its initial state), then runs its dispatches once: what
/// the output holds afterwards is the kernel's work.
pub fn submit_once(gpu: &Gpu, config: &Config) {
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    match config.before {
        Before::Poison => gpu.filler().word(&gpu.device, &mut encoder, &config.output, fill::POISON),
        Before::Zero => gpu.filler().word(&gpu.device, &mut encoder, &config.output, 0),
        Before::State(_) => {}
    }
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        if let Before::State(steps) = &config.before {
            measure::encode_steps(&mut pass, steps);
        }
        measure::encode_steps(&mut pass, &config.steps);
    }
    gpu.queue.submit([encoder.finish()]);
}
