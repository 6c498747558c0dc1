//! Timing one configuration: calibration, warm-up and raw samples, by GPU timestamps and the wall clock.
//!
//! One sample is one compute pass holding K dispatches between pass-level timestamps, in a submission of
//! its own. K doubles until a sample lasts well above the timer's quantum (Chrome quantizes timestamps to
//! 100 µs), so quantization error is a small fraction of every sample. After calibration, samples are
//! queued 20 ms of GPU work ahead so the GPU never waits for the host; the wall clock then measures the
//! time between consecutive completions as the host sees them.

use std::cell::Cell;
use std::collections::VecDeque;

use futures_channel::oneshot;
use serde::{Deserialize, Serialize};
use web_time::Instant;

use crate::gpu::Gpu;
use crate::host;
use crate::kernel::{Step, encode_steps};

mod options;
mod warm_up;

pub use options::{MIN_SAMPLES, MeasureOptions};
use warm_up::{BUSY_GAP_NS, EarlyEnd, MAX_RESTARTS, WarmUp};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TimingSource {
    /// GPU timestamps written at the compute pass's start and end.
    Timestamp,
    /// The host's clock around submission and readback.
    Wall,
}

/// The raw samples of one configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    pub source: TimingSource,
    pub dispatches_per_sample: u32,
    /// Whole-pass durations by GPU timestamps (empty without them), ns.
    pub gpu_ns: Vec<f64>,
    /// Whole-submission durations by the wall clock, ns.
    pub wall_ns: Vec<f64>,
    /// Samples whose timestamp delta was zero or negative, dropped from `gpu_ns`.
    pub discarded: u32,
    /// GPU time of every pass this measurement ran (calibration, warm-up, kept and drained samples), ns:
    /// by timestamps, or by the wall clock without them.
    pub busy_ns: f64,
    /// Host time calibrating K, warming up and sampling, ns.
    pub calibration_ns: f64,
    pub warm_up_ns: f64,
    pub sampling_ns: f64,
}

impl Measurement {
    /// The samples of the timing source, per sample (K dispatches).
    pub fn primary(&self) -> &[f64] {
        match self.source {
            TimingSource::Timestamp => &self.gpu_ns,
            TimingSource::Wall => &self.wall_ns,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum MeasureError {
    #[error("reading results back failed: {0}")]
    Readback(String),
    #[error("all {0} samples had a zero or negative timestamp delta: GPU timestamps are unusable on this device")]
    NoValidTimestamps(u32),
    /// One dispatch took longer than `MeasureOptions::max_dispatch_ns`: the configuration was not measured.
    #[error("{}", too_slow(*.0, *.1, false))]
    TooSlow(f64, f64),
}

/// Why a configuration was not measured: one dispatch takes `ns` (or, `predicted`, would take), more than
/// `max_ns`.
pub fn too_slow(ns: f64, max_ns: f64, predicted: bool) -> String {
    format!(
        "one dispatch {} about {} on this device, over the {} a measured one may take: not measured, to keep \
         the run short",
        if predicted { "would take" } else { "takes" },
        seconds(ns),
        seconds(max_ns)
    )
}

fn seconds(ns: f64) -> String {
    if ns >= 1e9 { format!("{:.1} s", ns / 1e9) } else { format!("{:.0} ms", ns / 1e6) }
}

/// Whether the median of `samples` is known to within `precision` (a fraction of it) to either side, at 95 %.
pub fn precise(samples: &[f64], precision: f64) -> bool {
    crate::stats::summarize(samples).is_some_and(|summary| summary.within(precision))
}

/// The most samples queued on the GPU at once (each holds a timestamp slot): enough for 20 ms of work when
/// a sample lasts 1 ms, with room to spare.
const MAX_IN_FLIGHT: usize = 64;

/// One sample's query set and buffers: one per sample in flight.
struct TimestampSlot {
    set: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    readback: wgpu::Buffer,
}

impl TimestampSlot {
    fn new(gpu: &Gpu) -> Self {
        TimestampSlot {
            set: gpu.device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("pass timestamps"),
                ty: wgpu::QueryType::Timestamp,
                count: 2,
            }),
            resolve: gpu.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("timestamp resolve"),
                size: 16,
                usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            }),
            readback: gpu.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("timestamp readback"),
                size: 16,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }),
        }
    }
}

/// Pass timestamps (when the device has them) and the clock's resolution, made once per run.
pub struct Timer {
    slots: Vec<TimestampSlot>,
    period_ns: f64,
    /// The resolution of the primary clock, ns.
    pub quantum_ns: f64,
    /// When the last measurement ended: a GPU busy until just now keeps its clocks up.
    last_end: Cell<Option<Instant>>,
    /// A CPU adapter (lavapipe, SwiftShader) has no GPU clocks to ramp up: its warm-up lasts
    /// `min_warm_up_ns`, however long it idled (a sample of a slow kernel there takes a tenth of a second).
    cpu_adapter: bool,
}

/// What calibration found: K, the last sample's time at that K (or, not yet `confirmed`, the time a sample
/// at K should take by the last reading at fewer dispatches), and the GPU time it spent.
struct Calibration {
    dispatches: u32,
    sample_ns: f64,
    busy_ns: f64,
    /// Whether samples at K were seen to last long enough; if not, the warm-up's first two say so.
    confirmed: bool,
}

/// How a warm-up and its samples ended.
enum Sampled {
    /// Sampled: when the warm-up ended, if it did.
    Done(Option<Instant>),
    /// K is too small: the first two samples at an unconfirmed K were shorter than a sample must be, or the
    /// warm-up's last or a sample to keep under half that; the shorter one's time, or that sample's.
    Short(f64),
}

/// How many samples to keep: `samples` (fewer, never under `MIN_SAMPLES`, where they would take more than
/// `max_sampling_ns`), then one more at a time while the median is less precise than asked, up to `most`.
struct SampleCount {
    target: u32,
    most: u32,
    precision: f64,
}

impl SampleCount {
    fn new(options: &MeasureOptions, sample_ns: f64) -> SampleCount {
        let affordable = (options.max_sampling_ns / sample_ns) as u32;
        let target = options.samples.min(affordable.max(MIN_SAMPLES));
        let most = match options.precision > 0.0 {
            true => options.max_samples.min(affordable).max(target),
            false => target,
        };
        SampleCount { target, most, precision: options.precision }
    }

    /// Once the kept samples reach the target: one more where their median is not yet precise enough.
    fn extend_for_precision(&mut self, kept: &[f64]) {
        if self.target < self.most && !precise(kept, self.precision) {
            self.target += 1;
        }
    }
}

/// Where the samples before this one ended, by the host's clock and by timestamps.
struct Timeline {
    previous_done: Instant,
    previous_end: Option<u64>,
}

/// One sample as the timeline places it.
struct Timed {
    /// From the previous sample's completion (or the first submission) to this one's, as the host saw them.
    wall_ns: f64,
    /// By timestamps, where there are any.
    gpu_ns: Option<f64>,
    /// How long the GPU sat idle between the previous sample's end and this one's beginning, by timestamps
    /// (0 without them).
    idle_ns: f64,
}

impl Timeline {
    /// Places a sample that ended on the GPU at `ticks` and that the host saw done at `done` (`ns_between`
    /// converts timestamps).
    fn sample(&mut self, ticks: Option<[u64; 2]>, done: Instant, ns_between: impl Fn(u64, u64) -> f64) -> Timed {
        let wall_ns = (done - self.previous_done).as_nanos() as f64;
        self.previous_done = done;
        let mut idle_ns = 0.0;
        // A pass's beginning timestamp may be written while the sample before it still runs (it waits for
        // that sample's writes only at its first dispatch), so a sample starts at the later of its own
        // beginning and the previous sample's end.
        let gpu_ns = ticks.map(|[begin, end]| {
            let start = match self.previous_end {
                Some(previous) if (previous.wrapping_sub(begin) as i64) > 0 => previous,
                Some(previous) => {
                    idle_ns = ns_between(previous, begin);
                    begin
                }
                None => begin,
            };
            self.previous_end = Some(end);
            ns_between(start, end)
        });
        Timed { wall_ns, gpu_ns, idle_ns }
    }
}

/// A configuration's first run, submitted (`Timer::submit_first_run`), its time not in yet. It may be
/// dropped unread: its timestamps are its own.
pub struct FirstRun(InFlight);

/// A submitted sample whose results are not in yet.
struct InFlight {
    slot: usize,
    /// Timestamps of its own instead of the slot's (a first run's).
    own: Option<TimestampSlot>,
    index: wgpu::SubmissionIndex,
    done: oneshot::Receiver<Result<(), String>>,
}

impl Timer {
    /// `quantum_ns` is the resolution of the clock that will be primary: the browser's timestamp
    /// quantization, or the wall clock's resolution when there are no timestamps.
    pub fn new(gpu: &Gpu, quantum_ns: f64) -> Self {
        let slots =
            if gpu.timestamps { (0..MAX_IN_FLIGHT).map(|_| TimestampSlot::new(gpu)).collect() } else { Vec::new() };
        Self {
            slots,
            period_ns: gpu.queue.get_timestamp_period() as f64,
            quantum_ns,
            last_end: Cell::new(None),
            cpu_adapter: gpu.info.is_cpu_adapter(),
        }
    }

    pub fn source(&self) -> TimingSource {
        if self.slots.is_empty() { TimingSource::Wall } else { TimingSource::Timestamp }
    }

    /// Calibrates K (`calibrate`), then warms up and samples (`warm_up_and_sample`) with enough submissions
    /// queued to keep the GPU busy for `options.in_flight_ns` whatever K is, so that it never waits for the
    /// host (which in a browser hears of a finished sample only every few milliseconds): an idle GPU lowers
    /// its clocks. `first_run_ns`: how long the configuration's first run took on the GPU, where known.
    pub async fn measure(
        &self,
        gpu: &Gpu,
        steps: &[Step],
        options: &MeasureOptions,
        first_run_ns: Option<f64>,
    ) -> Result<Measurement, MeasureError> {
        let start = Instant::now();
        // Settled samples end the warm-up early only on a GPU busy until just now: one that idled (while
        // the host compared an output, say) may time steadily at clocks that have yet to rise.
        let kept_busy = self.last_end.get().is_some_and(|end| (start - end).as_nanos() as f64 <= BUSY_GAP_NS);
        // A first run that took longer than a dispatch may (a browser may compile its pipeline then) says
        // nothing: a dispatch of its own decides.
        let mut reading = first_run_ns.filter(|&ns| ns <= options.max_dispatch_ns).map(|ns| (1, ns));
        // Only timestamps time the warm-up's first samples as a calibration's (the wall clock would count the
        // round trip to the GPU in them), and only a warm-up is sure to run two before any is kept.
        let mut speculate = !self.slots.is_empty() && options.warm_up_ns > 0.0;
        let mut busy_ns = 0.0;
        loop {
            let calibration = self.calibrate(gpu, steps, options, reading, speculate).await;
            let calibrated = Instant::now();
            if let Err(MeasureError::TooSlow(..)) = calibration {
                self.last_end.set(Some(calibrated));
            }
            let calibration = calibration?;
            let early_end = match (self.cpu_adapter, kept_busy) {
                (true, _) => EarlyEnd::AtLeast,
                (false, true) => EarlyEnd::Settled,
                (false, false) => EarlyEnd::Never,
            };
            let warm_up = WarmUp {
                samples: Vec::new(),
                at_least_ns: options.min_warm_up_ns,
                at_most_ns: options.warm_up_ns,
                early_end,
            };
            let mut measurement = Measurement {
                source: self.source(),
                dispatches_per_sample: calibration.dispatches,
                gpu_ns: Vec::new(),
                wall_ns: Vec::new(),
                discarded: 0,
                busy_ns: busy_ns + calibration.busy_ns,
                calibration_ns: (calibrated - start).as_nanos() as f64,
                warm_up_ns: 0.0,
                sampling_ns: 0.0,
            };
            let sampled = self.warm_up_and_sample(gpu, steps, options, &calibration, warm_up, &mut measurement).await?;
            let warmed_at = match sampled {
                Sampled::Done(warmed_at) => warmed_at,
                Sampled::Short(shortest_ns) => {
                    (reading, speculate, busy_ns) =
                        (Some((calibration.dispatches, shortest_ns)), false, measurement.busy_ns);
                    continue;
                }
            };
            let end = Instant::now();
            self.last_end.set(Some(end));
            let warmed_at = warmed_at.unwrap_or(end);
            measurement.warm_up_ns = (warmed_at - calibrated).as_nanos() as f64;
            measurement.sampling_ns = (end - warmed_at).as_nanos() as f64;
            if !self.slots.is_empty() && measurement.gpu_ns.is_empty() {
                return Err(MeasureError::NoValidTimestamps(measurement.discarded));
            }
            return Ok(measurement);
        }
    }

    /// Finds K: the power of two of dispatches whose sample lasts at least `min_sample_ns` and
    /// `quanta_per_sample` timer quanta, twice in a row. From `reading` where there is one (K and a sample's
    /// time at it: the first run's, a single dispatch), else a single dispatch (over `max_dispatch_ns` it is
    /// too slow to measure); past it, the two samples at each K are submitted together: one round trip to the
    /// GPU where there were two. With `speculate`, the first K past one dispatch comes back unconfirmed, the
    /// time a sample should take by the reading before: the warm-up's first two samples confirm it, with no
    /// round trip of their own.
    async fn calibrate(
        &self,
        gpu: &Gpu,
        steps: &[Step],
        options: &MeasureOptions,
        mut reading: Option<(u32, f64)>,
        speculate: bool,
    ) -> Result<Calibration, MeasureError> {
        let target_ns = self.target_ns(options);
        let mut calibration = Calibration { dispatches: 1, sample_ns: 0.0, busy_ns: 0.0, confirmed: true };
        let (mut confirming, mut read_at) = (false, 1);
        loop {
            let together = if calibration.dispatches > 1 { 2 } else { 1 };
            let shortest_ns = match reading.take() {
                Some((dispatches, ns)) => {
                    log::trace!("calibration from a reading: {dispatches} dispatches in {ns:.0} ns");
                    (calibration.dispatches, calibration.sample_ns, read_at) = (dispatches, ns, dispatches);
                    ns
                }
                None if speculate && together == 2 => {
                    calibration.sample_ns *= calibration.dispatches as f64 / read_at as f64;
                    calibration.confirmed = calibration.dispatches >= options.max_dispatches;
                    log::trace!("calibration speculated: {} dispatches", calibration.dispatches);
                    return Ok(calibration);
                }
                None => {
                    let shortest_ns = self.calibration_round(gpu, steps, &mut calibration, together).await?;
                    log::trace!(
                        "calibration: {together} × {} dispatches, the shortest {shortest_ns:.0} ns",
                        calibration.dispatches
                    );
                    read_at = calibration.dispatches;
                    shortest_ns
                }
            };
            if calibration.dispatches == 1 && shortest_ns > options.max_dispatch_ns {
                return Err(MeasureError::TooSlow(shortest_ns, options.max_dispatch_ns));
            }
            if calibration.dispatches >= options.max_dispatches {
                return Ok(calibration);
            }
            if shortest_ns >= target_ns {
                // Twice at this K before keeping it: a first sample slowed by the host or by clocks still
                // rising would leave the kept ones short (seen on lavapipe, 3× apart).
                if confirming || together == 2 {
                    return Ok(calibration);
                }
                confirming = true;
                continue;
            }
            confirming = false;
            // Jump straight to the power of two the estimate asks for; a zero reading grows K sixteenfold.
            let factor = if shortest_ns > 0.0 { (target_ns / shortest_ns).log2().ceil().clamp(1.0, 10.0) } else { 4.0 };
            calibration.dispatches =
                calibration.dispatches.saturating_mul(1 << factor as u32).min(options.max_dispatches);
        }
    }

    /// The least a sample may last: `min_sample_ns`, and `quanta_per_sample` of the timer's quanta.
    fn target_ns(&self, options: &MeasureOptions) -> f64 {
        options.min_sample_ns.max(options.quanta_per_sample * self.quantum_ns)
    }

    /// One round of a calibration: `together` samples at its K, submitted at once; the shortest one's time.
    async fn calibration_round(
        &self,
        gpu: &Gpu,
        steps: &[Step],
        calibration: &mut Calibration,
        together: usize,
    ) -> Result<f64, MeasureError> {
        let mut timeline = Timeline { previous_done: Instant::now(), previous_end: None };
        let samples: Vec<InFlight> =
            (0..together).map(|slot| self.submit(gpu, steps, calibration.dispatches, slot)).collect();
        let mut shortest_ns = f64::INFINITY;
        for sample in samples {
            let (ticks, done) = self.finish(gpu, sample).await?;
            let timed = timeline.sample(ticks, done, |start, end| self.ns_between(start, end));
            let sample_ns = timed.gpu_ns.unwrap_or(timed.wall_ns);
            calibration.sample_ns = sample_ns;
            calibration.busy_ns += sample_ns.max(0.0);
            shortest_ns = shortest_ns.min(sample_ns);
        }
        Ok(shortest_ns)
    }

    /// Queues samples of K dispatches `in_flight_ns` ahead: they are warm-up until `warm_up` says the clocks
    /// are up, and the samples queued behind them are kept with no gap between, as many as `SampleCount`
    /// wants (more while sampling for precision). Where K is not yet `confirmed`, the first two samples'
    /// shorter one must last long enough (`target_ns`), else the rest are drained and it comes back (`Short`);
    /// so it does where the warm-up's last sample, or a sample to keep, lasts under half that (the GPU, or a
    /// CPU adapter's host, has grown faster since K was found), unless K is at its most.
    async fn warm_up_and_sample(
        &self,
        gpu: &Gpu,
        steps: &[Step],
        options: &MeasureOptions,
        calibration: &Calibration,
        mut warm_up: WarmUp,
        measurement: &mut Measurement,
    ) -> Result<Sampled, MeasureError> {
        let sample_ns = calibration.sample_ns.max(1.0);
        // Enough samples queued that the GPU has `in_flight_ns` of work ahead of it, at least two.
        let depth = (options.in_flight_ns / sample_ns).ceil().clamp(2.0, MAX_IN_FLIGHT as f64) as usize;
        let mut count = SampleCount::new(options, sample_ns);
        let mut warmed_at = (options.warm_up_ns <= 0.0).then(Instant::now);
        let mut kept = 0u32;
        let mut in_flight: VecDeque<InFlight> = VecDeque::new();
        let mut submitted = 0usize;
        let mut timeline = Timeline { previous_done: Instant::now(), previous_end: None };
        let (mut unconfirmed, mut shortest_ns) = (if calibration.confirmed { 0 } else { 2 }, f64::INFINITY);
        // A CPU adapter has no clocks to fall, and a measurement without a warm-up nothing to start over.
        let (may_restart, mut restarts) = (!self.cpu_adapter && options.warm_up_ns > 0.0, 0);
        loop {
            // Until warm, queue without end; then only as many as the samples still to keep.
            let wanted = |in_flight: usize, warm: bool| !warm || kept as usize + in_flight < count.target as usize;
            while in_flight.len() < depth && wanted(in_flight.len(), warmed_at.is_some()) {
                let slot = submitted % self.slot_count();
                in_flight.push_back(self.submit(gpu, steps, calibration.dispatches, slot));
                submitted += 1;
            }
            // The first round queued: `depth` samples, or fewer where fewer are kept.
            if in_flight.len() == submitted {
                host::samples_queued();
            }
            let Some(sample) = in_flight.pop_front() else { return Ok(Sampled::Done(warmed_at)) };
            let (ticks, done) = self.finish(gpu, sample).await?;
            let Timed { wall_ns, gpu_ns, idle_ns } =
                timeline.sample(ticks, done, |start, end| self.ns_between(start, end));
            let pass_ns = gpu_ns.unwrap_or(wall_ns).max(0.0);
            measurement.busy_ns += pass_ns;
            if unconfirmed > 0 {
                (unconfirmed, shortest_ns) = (unconfirmed - 1, shortest_ns.min(gpu_ns.unwrap_or(wall_ns)));
                if unconfirmed == 0 && shortest_ns < self.target_ns(options) {
                    log::trace!(
                        "calibration: 2 × {} dispatches, the shortest {shortest_ns:.0} ns",
                        calibration.dispatches
                    );
                    self.drain(gpu, in_flight, &mut timeline, measurement).await?;
                    return Ok(Sampled::Short(shortest_ns));
                }
            }
            // The GPU waited between two samples, its queue run dry while the host heard nothing (in Chromium,
            // while the GPU process compiled the next configuration's pipeline): its clocks may have fallen,
            // and samples after it time steadily at them. The warm-up starts over as after an idle, and this
            // sample is its first. A few times at most, should timestamps tell of gaps that are not.
            if idle_ns > BUSY_GAP_NS && kept < count.target && may_restart && restarts < MAX_RESTARTS {
                log::debug!("the GPU idled {:.0} ms between two samples: warming up again", idle_ns / 1e6);
                restarts += 1;
                warm_up.restart();
                warmed_at = None;
            }
            let warming = warmed_at.is_none();
            if warming && !warm_up.done_after(pass_ns) {
                continue;
            }
            if !warming && kept == count.target {
                continue; // queued before the last kept sample was known to be the last: drained
            }
            // The warm-up's last sample, or one to keep (a timed one: a timestamp pair that failed says nothing),
            // under half the length K was found for: the GPU, or a CPU adapter's host, has grown faster since.
            if gpu_ns.is_none_or(|ns| ns > 0.0)
                && pass_ns < self.target_ns(options) / 2.0
                && calibration.dispatches < options.max_dispatches
            {
                let which = if warming { "warm" } else { "kept" };
                log::trace!("{which}, a sample of {} dispatches takes {pass_ns:.0} ns", calibration.dispatches);
                self.drain(gpu, in_flight, &mut timeline, measurement).await?;
                return Ok(Sampled::Short(pass_ns));
            }
            if warming {
                warmed_at = Some(done);
                continue;
            }
            kept += 1;
            measurement.wall_ns.push(wall_ns);
            match gpu_ns {
                Some(ns) if ns > 0.0 => measurement.gpu_ns.push(ns),
                Some(_) => measurement.discarded += 1,
                None => {}
            }
            if kept == count.target {
                count.extend_for_precision(measurement.primary());
            }
        }
    }

    /// Waits for the samples `in_flight`, counting their GPU time and keeping none.
    async fn drain(
        &self,
        gpu: &Gpu,
        in_flight: VecDeque<InFlight>,
        timeline: &mut Timeline,
        measurement: &mut Measurement,
    ) -> Result<(), MeasureError> {
        for sample in in_flight {
            let (ticks, done) = self.finish(gpu, sample).await?;
            let timed = timeline.sample(ticks, done, |start, end| self.ns_between(start, end));
            measurement.busy_ns += timed.gpu_ns.unwrap_or(timed.wall_ns).max(0.0);
        }
        Ok(())
    }

    /// How many samples may be in flight with a timestamp slot each (any number without timestamps).
    fn slot_count(&self) -> usize {
        self.slots.len().max(1)
    }

    /// Records one sample (K dispatches in one pass between timestamps) and submits it.
    fn submit(&self, gpu: &Gpu, steps: &[Step], dispatches: u32, slot: usize) -> InFlight {
        self.submit_timed(gpu, slot, None, |encoder, timestamp_writes| {
            let mut pass =
                encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("sample"), timestamp_writes });
            for _ in 0..dispatches {
                encode_steps(&mut pass, steps);
            }
        })
    }

    /// Submits what `record` records, its one timed pass writing the timestamps of `own` or else of slot
    /// `slot` (where there are any), with the commands that bring them back.
    fn submit_timed(
        &self,
        gpu: &Gpu,
        slot: usize,
        own: Option<TimestampSlot>,
        record: impl FnOnce(&mut wgpu::CommandEncoder, Option<wgpu::ComputePassTimestampWrites<'_>>),
    ) -> InFlight {
        let timestamps = own.as_ref().or(self.slots.get(slot));
        let mut encoder = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("sample") });
        let timestamp_writes = timestamps.map(|t| wgpu::ComputePassTimestampWrites {
            query_set: &t.set,
            beginning_of_pass_write_index: Some(0),
            end_of_pass_write_index: Some(1),
        });
        record(&mut encoder, timestamp_writes);
        if let Some(t) = timestamps {
            encoder.resolve_query_set(&t.set, 0..2, &t.resolve, 0);
            encoder.copy_buffer_to_buffer(&t.resolve, 0, &t.readback, 0, 16);
        }
        let index = gpu.queue.submit([encoder.finish()]);
        let (sender, done) = oneshot::channel();
        match timestamps {
            Some(t) => t.readback.map_async(wgpu::MapMode::Read, .., move |result| {
                let _ = sender.send(result.map_err(|e| e.to_string()));
            }),
            None => gpu.queue.on_submitted_work_done(move || {
                let _ = sender.send(Ok(()));
            }),
        }
        InFlight { slot, own, index, done }
    }

    /// Submits a configuration's first run, which `record` records (`kernel::encode_once`), its pass timed
    /// where there are timestamps (its own: whether it is read, and when, is the caller's choice): its time
    /// (`first_run_ns`) is where a calibration starts, a round trip to the GPU fewer than a dispatch of its own.
    pub fn submit_first_run(
        &self,
        gpu: &Gpu,
        record: impl FnOnce(&mut wgpu::CommandEncoder, Option<wgpu::ComputePassTimestampWrites<'_>>),
    ) -> FirstRun {
        let own = (!self.slots.is_empty()).then(|| TimestampSlot::new(gpu));
        FirstRun(self.submit_timed(gpu, 0, own, record))
    }

    /// How long a first run's timed pass took on the GPU, where there are timestamps and the run ended.
    pub async fn first_run_ns(&self, gpu: &Gpu, run: FirstRun) -> Option<f64> {
        let (ticks, _) = self.finish(gpu, run.0).await.ok()?;
        let [begin, end] = ticks?;
        Some(self.ns_between(begin, end)).filter(|&ns| ns > 0.0)
    }

    /// Waits for a submitted sample; returns its pass's raw beginning and end timestamps (if any) and when
    /// the host saw it done.
    async fn finish(&self, gpu: &Gpu, sample: InFlight) -> Result<(Option<[u64; 2]>, Instant), MeasureError> {
        // Natively this waits for that submission alone; on the web the callback resolves the channel when
        // the browser has the result. Either way a sample that never ends gives the device up.
        let done = gpu.wait(Some(sample.index), sample.done).await.map_err(MeasureError::Readback)?;
        done.map_err(MeasureError::Readback)?;
        let done = Instant::now();
        let Some(t) = sample.own.as_ref().or(self.slots.get(sample.slot)) else {
            return Ok((None, done));
        };
        let ticks: Vec<u64> = {
            let bytes = t.readback.get_mapped_range(..).map_err(|e| MeasureError::Readback(e.to_string()))?;
            bytes.chunks_exact(8).map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes"))).collect()
        };
        t.readback.unmap();
        Ok((Some([ticks[0], ticks[1]]), done))
    }

    /// Nanoseconds from one raw timestamp to a later one. Timestamps may wrap, and on some drivers a
    /// delta is zero or negative: the sign is kept so the caller can drop such samples.
    fn ns_between(&self, start: u64, end: u64) -> f64 {
        end.wrapping_sub(start) as i64 as f64 * self.period_ns
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Raw timestamps in nanoseconds.
    fn ns(start: u64, end: u64) -> f64 {
        end.wrapping_sub(start) as i64 as f64
    }

    #[test]
    fn a_timeline_tells_how_long_the_gpu_idled_between_two_samples() {
        let mut timeline = Timeline { previous_done: Instant::now(), previous_end: None };
        let first = timeline.sample(Some([100, 200]), Instant::now(), ns);
        assert_eq!((first.gpu_ns, first.idle_ns), (Some(100.0), 0.0));
        // Begun before the one before it ended: timed from that end, the GPU never idle.
        let overlapping = timeline.sample(Some([150, 300]), Instant::now(), ns);
        assert_eq!((overlapping.gpu_ns, overlapping.idle_ns), (Some(100.0), 0.0));
        let after_a_wait = timeline.sample(Some([1300, 1400]), Instant::now(), ns);
        assert_eq!((after_a_wait.gpu_ns, after_a_wait.idle_ns), (Some(100.0), 1000.0));
        let untimed = timeline.sample(None, Instant::now(), ns);
        assert_eq!((untimed.gpu_ns, untimed.idle_ns), (None, 0.0));
    }
}
