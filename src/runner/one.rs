//! One configuration: built and run once, checked against its reference, and measured.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use web_time::Instant;

use super::blank;
use crate::bounds::MESSAGE;
use crate::gpu::Gpu;
use crate::kernel::{
    Configuration, Family, GpuCheck, KernelId, Prepared, Reference, ShaderChecks, Skip, Workload, shapes,
};
use crate::measure::{FirstRun, MeasureError, MeasureOptions, Timer, TimingSource, too_slow};
use crate::result::{ConfigResult, Outcome, Pace, gb_per_s};
use crate::{host, kernels, stats};

/// What measures and validates configurations, made once per run: the timer, the GPU comparison, and
/// how fast each kernel has run so far.
pub(crate) struct Harness {
    pub timer: Timer,
    pub check: GpuCheck,
    /// The most work (flops where counted, else bytes) per ns a kernel did at a workgroup shape, over the
    /// values of its parameter so far (its rate at other shapes says little: small workgroups may be far
    /// slower).
    rates: RefCell<HashMap<KernelAtShape, f64>>,
}

/// A kernel compiled with or without wgpu's checks, at one workgroup shape.
type KernelAtShape = (KernelId, ShaderChecks, [u32; 3]);

impl Harness {
    pub fn new(gpu: &Gpu, quantum_ns: f64) -> Self {
        Harness { timer: Timer::new(gpu, quantum_ns), check: GpuCheck::new(gpu), rates: RefCell::default() }
    }

    /// How long one dispatch of `configuration` would take at its kernel's best rate at its shape so far
    /// (a larger matrix, a wider blur).
    fn predicted_ns(&self, workload: &dyn Workload, configuration: &Configuration) -> Option<f64> {
        let Configuration { kernel, checks, workgroup, .. } = *configuration;
        let rate = *self.rates.borrow().get(&(kernel, checks, workgroup))?;
        Some(work(workload, configuration) / rate)
    }

    /// Records the rate of a measured configuration whose dispatch lasted long enough (1 ms) for its work,
    /// not the launch, to set its time.
    fn learn(&self, workload: &dyn Workload, configuration: &Configuration, record: &ConfigResult) {
        let Some(ns) = record.median_ns.filter(|&ns| ns >= 1e6) else { return };
        let Configuration { kernel, checks, workgroup, .. } = *configuration;
        let mut rates = self.rates.borrow_mut();
        let rate = rates.entry((kernel, checks, workgroup)).or_insert(0.0);
        *rate = rate.max(work(workload, configuration) / ns);
    }
}

/// What a dispatch does, for comparing its configurations: flops where the family counts them, else bytes.
fn work(workload: &dyn Workload, configuration: &Configuration) -> f64 {
    workload.flops_per_dispatch(configuration).unwrap_or(workload.bytes_per_dispatch(configuration)) as f64
}

/// Whether `measure_one` checks the output before measuring.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Validation {
    First,
    /// Measured only: the auto-tuner validates the shapes it reports afterwards (`validate`).
    Later,
}

/// What measures one family's configurations: the device, the run's harness, the family and its inputs.
#[derive(Clone, Copy)]
pub(crate) struct Bench<'a> {
    pub gpu: &'a Gpu,
    pub harness: &'a Harness,
    pub family: &'static dyn Family,
    pub workload: &'a dyn Workload,
}

/// What a configuration gets, decided once, as soon as it has run once.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Course {
    /// Its output checked now, then measured: the usual course.
    CheckThenMeasure,
    /// Its first run took longer than a dispatch may, but not by far: the calibration decides whether it is
    /// measured, and its output is checked only if it is (on a CPU adapter a check costs as much as a
    /// dispatch).
    MeasureThenCheck,
    /// Measured only: the auto-tuner validates the shapes it reports afterwards (`validate`).
    MeasureOnly,
    /// Its first run took this long, far longer than a dispatch may: neither checked nor measured, to know.
    TooSlow(f64),
}

impl Course {
    /// The course of a configuration asked for `validation` whose first run (where it ran) took
    /// `ran_once_ns`, where that is known.
    fn of(validation: Validation, ran: bool, ran_once_ns: Option<f64>, max_dispatch_ns: f64) -> Course {
        match ran_once_ns {
            Some(ns) if ran && ns > 2.0 * max_dispatch_ns => Course::TooSlow(ns),
            _ if validation == Validation::Later => Course::MeasureOnly,
            Some(ns) if ns > max_dispatch_ns => Course::MeasureThenCheck,
            _ => Course::CheckThenMeasure,
        }
    }
}

/// Builds and runs a configuration once (unless `readied` did, while the one before it was measured), then
/// follows its `Course`: checks and measures it, and records what came of it. Adds the time each step took
/// to `pace`. `start_ahead`, once the configuration is checked, starts building the next reference and
/// readying the next configuration while it is measured (`Ahead`).
pub(crate) async fn measure_one(
    bench: Bench<'_>,
    configuration: &Configuration,
    options: &MeasureOptions,
    validation: Validation,
    (readied, start_ahead): (Option<Readied>, Option<&dyn Fn()>),
    pace: &mut Pace,
) -> ConfigResult {
    let Bench { gpu, harness, family, workload } = bench;
    let mut record =
        blank(family, configuration, workload.problem_size(configuration), workload.bytes_per_dispatch(configuration));
    record.moved_bytes_per_dispatch = workload.moved_bytes_per_dispatch(configuration);
    record.flops_per_dispatch = workload.flops_per_dispatch(configuration);
    let storage = family.workgroup_storage_bytes(configuration);
    if let Err(skip) = shapes::check_workgroup(&gpu.info.limits, configuration.workgroup, storage) {
        record.outcome = Outcome::Skipped { reason: MESSAGE.clip(&skip.to_string()) };
        return record;
    }
    let (course, ran) = match readied {
        Some(Readied { prepared, valid_run: Some(run), .. }) if validation == Validation::First => {
            log::trace!("{}: run once and checked ahead", kernels::describe(configuration));
            pace.checked_ahead += 1;
            (Course::CheckThenMeasure, Ok(Ran { prepared, first_run: Some(run) }))
        }
        // Prepared only: kept while it is prepared again, so that its pipelines are found made.
        kept => {
            let ran = run_once(bench, configuration, options, validation, pace).await;
            drop(kept);
            ran
        }
    };
    let ran = match (course, ran) {
        // It ran once, far too slowly to measure: what it wrote is still checked, so that a slow kernel
        // that is also wrong fails.
        (Course::TooSlow(ns), Ok(Ran { prepared, .. })) => {
            let reason = too_slow(ns, options.max_dispatch_ns, false);
            record.outcome = match check_output(gpu, &harness.check, workload, configuration, &prepared, pace).await {
                Ok(()) => Outcome::Unmeasured { reason },
                Err(error) => Outcome::Failed { error: format!("{error} ({reason})"), validated: false },
            };
            return record;
        }
        (_, Ok(ran)) => ran,
        (_, Err(Failure::Skip(skip))) => {
            record.outcome = Outcome::Skipped { reason: MESSAGE.clip(&skip.to_string()) };
            return record;
        }
        (_, Err(Failure::Error(error))) => {
            record.fail(error);
            return record;
        }
    };
    record.dispatch = ran.prepared.grid;
    if course == Course::CheckThenMeasure {
        record.outcome = Outcome::Valid { suspect: None };
    }
    if let Some(start) = start_ahead
        && course == Course::CheckThenMeasure
    {
        start();
    }
    if let Err(error) = time(bench, configuration, ran, options, &mut record, pace).await {
        match error {
            // Too slow to measure after all: valid (checked now where it was not yet), or failed.
            slow @ MeasureError::TooSlow(..) => {
                if course == Course::MeasureThenCheck {
                    validate(gpu, harness, workload, configuration, &mut record).await;
                }
                if record.outcome == (Outcome::Valid { suspect: None }) {
                    record.outcome = Outcome::Unmeasured { reason: slow.to_string() };
                }
            }
            error => record.fail(error),
        }
        return record;
    }
    harness.learn(workload, configuration, &record);
    if course == Course::MeasureThenCheck {
        let checking = Instant::now();
        validate(gpu, harness, workload, configuration, &mut record).await;
        pace.validation_s += checking.elapsed().as_secs_f64();
    }
    record
}

/// Prepares and runs a configuration once (unless its kernel's rate so far says a dispatch would take too
/// long), decides its `Course` from how long that took, and checks its output now where the course says so.
async fn run_once(
    bench: Bench<'_>,
    configuration: &Configuration,
    options: &MeasureOptions,
    validation: Validation,
    pace: &mut Pace,
) -> (Course, Result<Ran, Failure>) {
    let Bench { gpu, harness, workload, .. } = bench;
    let started = Instant::now();
    let before = (pace.pipelines_s, pace.references_s);
    // A larger problem of a kernel already slow on this device (a larger matrix, a wider blur) is not run.
    let too_slow_ahead = harness
        .predicted_ns(workload, configuration)
        .filter(|&ns| ns > options.max_dispatch_ns)
        .map(|ns| Skip::NotApplicable(too_slow(ns, options.max_dispatch_ns, true)));
    let timer = Some(&harness.timer);
    let mut ran = prepare_and_run_once(gpu, workload, configuration, too_slow_ahead, timer, pace).await;
    log::trace!("{}: prepared and ran once, its error scope back", kernels::describe(configuration));
    let ran_once_ns = first_run_ns(gpu, started, pace.pipelines_s - before.0).await;
    // A first run that never finished gave the device up: nothing more can run on it.
    if let Some(reason) = gpu.lost_reason() {
        return (Course::CheckThenMeasure, Err(Failure::Error(reason)));
    }
    let course = Course::of(validation, ran.is_ok(), ran_once_ns, options.max_dispatch_ns);
    if course == Course::CheckThenMeasure
        && let Ok(ready) = &ran
        && let Err(error) = check_output(gpu, &harness.check, workload, configuration, &ready.prepared, pace).await
    {
        ran = Err(Failure::Error(error));
    }
    let elsewhere = (pace.pipelines_s - before.0) + (pace.references_s - before.1);
    let validating_s = started.elapsed().as_secs_f64() - elsewhere;
    pace.validation_s += validating_s;
    log::debug!("{}: run once and validated in {validating_s:.3} s", kernels::describe(configuration));
    (course, ran)
}

/// Measures a configuration run once (`Timer::measure`, from its first run's time) and puts its samples
/// and their statistics in `record`, and the time each stage took in `pace`.
async fn time(
    bench: Bench<'_>,
    configuration: &Configuration,
    ran: Ran,
    options: &MeasureOptions,
    record: &mut ConfigResult,
    pace: &mut Pace,
) -> Result<(), MeasureError> {
    let Bench { gpu, harness: Harness { timer, .. }, .. } = bench;
    let first_run_ns = match ran.first_run {
        Some(run) => timer.first_run_ns(gpu, run).await,
        None => None,
    };
    let measuring = host::measuring();
    let measurement = timer.measure(gpu, &ran.prepared.steps, options, first_run_ns).await?;
    drop(measuring);
    pace.gpu_busy_s += measurement.busy_ns / 1e9;
    pace.calibration_s += measurement.calibration_ns / 1e9;
    pace.warm_up_s += measurement.warm_up_ns / 1e9;
    pace.samples_s += measurement.sampling_ns / 1e9;
    log::debug!(
        "{}: calibrated in {:.3} s, warmed up {:.3} s, sampled {:.3} s",
        kernels::describe(configuration),
        measurement.calibration_ns / 1e9,
        measurement.warm_up_ns / 1e9,
        measurement.sampling_ns / 1e9
    );
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
        record.median_interval_ns = summary.median_interval.map(|(low, high)| [low, high]);
        record.noisy = options.precision > 0.0 && !summary.within(options.precision);
        record.gbps = gb_per_s(record.bytes_per_dispatch, summary.median);
    }
    record.samples_ns = measurement.primary().to_vec();
    record.wall_samples_ns = measurement.wall_ns;
    Ok(())
}

/// How long the run submitted `started` (less `preparing_s` of building its pipelines) took on the GPU,
/// where that is a dispatch's time: natively, where wgpu compiles a pipeline when it is made. A browser may
/// compile it at its first dispatch instead (SwiftShader's took most of a second), so there the
/// calibration's first timed dispatch decides.
async fn first_run_ns(gpu: &Gpu, started: Instant, preparing_s: f64) -> Option<f64> {
    if cfg!(target_arch = "wasm32") {
        return None;
    }
    crate::kernel::idle(gpu).await.ok()?;
    Some((started.elapsed().as_secs_f64() - preparing_s) * 1e9)
}

/// Compares a configuration's output (after `kernel::submit_once`) with the CPU reference: on the GPU where
/// the family compares word by word, else read back and on the CPU. Adds the time spent computing the
/// reference to `pace`.
pub async fn check_output(
    gpu: &Gpu,
    check: &GpuCheck,
    workload: &dyn Workload,
    configuration: &Configuration,
    prepared: &Prepared,
    pace: &mut Pace,
) -> Result<(), String> {
    let started = Instant::now();
    let reference = workload.reference(gpu, configuration).await?;
    let referencing_s = started.elapsed().as_secs_f64();
    pace.references_s += referencing_s;
    log::debug!("{}: reference ready in {referencing_s:.3} s", kernels::describe(configuration));
    if let Some(reference) = reference {
        return check.check(gpu, &prepared.output, &reference).await;
    }
    let output = crate::kernel::read_buffer(gpu, &prepared.output).await?;
    crate::kernel::check_on_cpu(workload, configuration, prepared, &output)
        .await
        .map_err(|mismatch| format!("FAILED validation: {mismatch}"))
}

/// Validates a configuration measured with `Validation::Later`: builds and runs it once more and checks
/// its output. Marks `record` valid, or records why not.
pub(crate) async fn validate(
    gpu: &Gpu,
    harness: &Harness,
    workload: &dyn Workload,
    configuration: &Configuration,
    record: &mut ConfigResult,
) {
    let outcome = match prepare_and_run_once(gpu, workload, configuration, None, None, &mut Pace::default()).await {
        Ok(Ran { prepared, .. }) => {
            check_output(gpu, &harness.check, workload, configuration, &prepared, &mut Pace::default()).await
        }
        Err(Failure::Skip(skip)) => Err(skip.to_string()),
        Err(Failure::Error(error)) => Err(error),
    };
    match outcome {
        Ok(()) => record.outcome = Outcome::Valid { suspect: None },
        Err(error) => record.fail(error),
    }
}

enum Failure {
    Skip(Skip),
    Error(String),
}

/// Prepares the configuration, poisons its output and runs it once, inside a validation error scope so a
/// pipeline the device rejects becomes this configuration's error instead of the whole run's; with `timer`,
/// that run is timed (`Timer::submit_first_run`). A configuration that can run but is known to be too slow
/// (`too_slow`) is prepared only, to learn whether it applies at all, and skipped.
async fn prepare_and_run_once(
    gpu: &Gpu,
    workload: &dyn Workload,
    configuration: &Configuration,
    too_slow: Option<Skip>,
    timer: Option<&Timer>,
    pace: &mut Pace,
) -> Result<Ran, Failure> {
    let once = match (&too_slow, timer) {
        (Some(_), _) => Once::Not,
        (None, Some(timer)) => Once::Timed(timer),
        (None, None) => Once::Untimed,
    };
    let (prepared, first_run, error) = prepare_and_submit(gpu, workload, configuration, once, pace).await;
    let error = error.await;
    if error.is_some() {
        // A lost device rejects everything: the run then stops as lost rather than fail what is left.
        gpu.lost_reason_soon().await;
    }
    let prepared = match (prepared, too_slow) {
        (Ok(_), Some(skip)) => Err(skip),
        (prepared, _) => prepared,
    };
    match (prepared, error) {
        (_, Some(error)) => Err(Failure::Error(format!("the GPU rejected this configuration: {error}"))),
        (Err(skip), None) => Err(Failure::Skip(skip)),
        (Ok(prepared), None) => Ok(Ran { prepared, first_run }),
    }
}

/// How `prepare_and_submit` runs a configuration once: timed, untimed, or not at all.
enum Once<'a> {
    Timed(&'a Timer),
    Untimed,
    Not,
}

/// Prepares the configuration inside a validation error scope and runs it `once`, its output poisoned
/// first. Returns what it prepared, its first run where timed, and the scope's answer, to be awaited once
/// whatever must follow that run at once is submitted.
async fn prepare_and_submit<'a>(
    gpu: &'a Gpu,
    workload: &dyn Workload,
    configuration: &Configuration,
    once: Once<'_>,
    pace: &mut Pace,
) -> (Result<Prepared, Skip>, Option<FirstRun>, impl Future<Output = Option<wgpu::Error>> + use<'a>) {
    let scope = gpu.error_scope(wgpu::ErrorFilter::Validation).await;
    let started = Instant::now();
    let prepared = workload.prepare(gpu, configuration).await;
    pace.pipelines_s += started.elapsed().as_secs_f64();
    let first_run = match (&prepared, once) {
        (Ok(prepared), Once::Timed(timer)) => Some(timer.submit_first_run(gpu, |encoder, timestamps| {
            crate::kernel::encode_once(gpu, encoder, prepared, timestamps)
        })),
        (Ok(prepared), Once::Untimed) => {
            crate::kernel::submit_once(gpu, prepared);
            None
        }
        _ => None,
    };
    (prepared, first_run, scope.pop())
}

/// Page only: a configuration prepared while the one before it is measured, and kept until its own turn
/// (the GPU's process keeps a pipeline while one made like it lives, so its pipelines are not compiled
/// between two measurements); where its reference is at hand, also run once and checked then.
pub(crate) struct Readied {
    /// Its place in the run.
    pub index: usize,
    prepared: Prepared,
    /// Its first run, timed, where its output was compared with its reference and found right.
    valid_run: Option<FirstRun>,
}

/// Page only: prepares `configuration` (at `index` in the run) while `measured` is measured and, where
/// `reference` is its reference, no rate says its dispatch is too slow to run and samples are timed by
/// timestamps, runs it once and compares its output with the reference on the GPU. The comparison is
/// submitted with the run, so that nothing the GPU runs after them (the measurement, still sampling) writes
/// over the output first. Anything amiss (an error, a wrong word) is left for its own turn, which does it
/// all again and says why.
pub(crate) async fn ready_ahead(
    bench: Bench<'_>,
    (index, configuration): (usize, &Configuration),
    measured: &Configuration,
    reference: Option<Rc<Reference>>,
    max_dispatch_ns: f64,
) -> Option<Readied> {
    let Bench { gpu, harness, family, workload } = bench;
    let storage = family.workgroup_storage_bytes(configuration);
    shapes::check_workgroup(&gpu.info.limits, configuration.workgroup, storage).ok()?;
    let shape = |c: &Configuration| (c.kernel, c.checks, c.workgroup);
    let runs = match harness.predicted_ns(workload, configuration) {
        Some(ns) => ns <= max_dispatch_ns,
        // Its shape's first rate may come from the measurement under way (a smaller matrix).
        None => shape(configuration) != shape(measured),
    };
    // Timed by the wall clock, a sample of the measurement under way would take in this run and check.
    let timed = harness.timer.source() == TimingSource::Timestamp;
    let reference = reference.filter(|_| runs && timed);
    let once = if reference.is_some() { Once::Timed(&harness.timer) } else { Once::Not };
    let (prepared, run, error) = prepare_and_submit(gpu, workload, configuration, once, &mut Pace::default()).await;
    let prepared = prepared.ok()?;
    let (Some(run), Some(reference)) = (run, reference) else {
        return Some(Readied { index, prepared, valid_run: None });
    };
    // The comparison goes right behind the run: the measurement's samples would write over the output.
    let submitted = harness.check.submit(gpu, &prepared.output, &reference);
    let error = error.await;
    let passed = match submitted {
        Ok(submitted) => crate::kernel::passed(gpu, submitted).await,
        Err(why) => Err(why),
    };
    let valid = error.is_none() && passed == Ok(true);
    log::trace!("{}: readied ahead, valid: {valid}", kernels::describe(configuration));
    Some(Readied { index, prepared, valid_run: valid.then_some(run) })
}

/// A configuration prepared and run once, and that run where it was timed: its time is read when the
/// configuration is measured, by when it has long come back.
struct Ran {
    prepared: Prepared,
    first_run: Option<FirstRun>,
}
