//! Timing one configuration: calibration, warm-up and raw samples, by GPU timestamps and the wall clock.
//!
//! One sample is one compute pass holding K dispatches between pass-level timestamps, submitted alone; the
//! wall clock runs from just before the submission until its results are mapped. K doubles until a sample
//! lasts well above the timer's quantum (Chrome quantizes timestamps to 100 µs), so quantization error is a
//! small fraction of every sample.

use futures_channel::oneshot;
use serde::{Deserialize, Serialize};
use web_time::Instant;

use crate::gpu::Gpu;
use crate::kernel::Step;

/// How the runner should measure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeasureOptions {
    /// Samples kept after calibration and warm-up.
    pub samples: u32,
    /// The shortest a sample may be, whatever the timer's quantum.
    pub min_sample_ns: f64,
    /// A sample lasts at least this many timer quanta.
    pub quanta_per_sample: f64,
    /// The most dispatches one sample may hold.
    pub max_dispatches: u32,
    /// How long to keep the GPU busy before the kept samples: an idle GPU drops its clocks, and
    /// ramping them back up takes far longer than one sample.
    pub warm_up_ns: f64,
}

impl Default for MeasureOptions {
    fn default() -> Self {
        Self { samples: 10, min_sample_ns: 1e6, quanta_per_sample: 20.0, max_dispatches: 4096, warm_up_ns: 2e8 }
    }
}

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
}

struct RawSample {
    gpu_ns: Option<f64>,
    wall_ns: f64,
}

/// The query set and buffers for pass timestamps, made once per run.
pub struct Timer {
    queries: Option<TimestampQueries>,
    /// The resolution of the primary clock, ns.
    pub quantum_ns: f64,
}

struct TimestampQueries {
    set: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    readback: wgpu::Buffer,
    period_ns: f64,
}

impl Timer {
    /// `quantum_ns` is the resolution of the clock that will be primary: the browser's timestamp
    /// quantization, or the wall clock's resolution when there are no timestamps.
    pub fn new(gpu: &Gpu, quantum_ns: f64) -> Self {
        let queries = gpu.timestamps.then(|| TimestampQueries {
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
            period_ns: gpu.queue.get_timestamp_period() as f64,
        });
        Self { queries, quantum_ns }
    }

    pub fn source(&self) -> TimingSource {
        if self.queries.is_some() { TimingSource::Timestamp } else { TimingSource::Wall }
    }

    /// Calibrates K, warms up once at that K, then takes `options.samples` samples.
    pub async fn measure(
        &self,
        gpu: &Gpu,
        steps: &[Step],
        options: &MeasureOptions,
    ) -> Result<Measurement, MeasureError> {
        let target_ns = options.min_sample_ns.max(options.quanta_per_sample * self.quantum_ns);
        let warm_up = Instant::now();
        let mut dispatches = 1u32;
        loop {
            let sample = self.sample(gpu, steps, dispatches).await?;
            let elapsed = self.primary(&sample).unwrap_or(0.0);
            if elapsed >= target_ns || dispatches >= options.max_dispatches {
                break;
            }
            // Jump straight to the power of two the estimate asks for; a zero reading grows K sixteenfold.
            let factor = if elapsed > 0.0 { (target_ns / elapsed).log2().ceil().clamp(1.0, 10.0) } else { 4.0 };
            dispatches = dispatches.saturating_mul(1 << factor as u32).min(options.max_dispatches);
        }
        // Warm up at the final K, at least once, until the warm-up time is spent.
        loop {
            self.sample(gpu, steps, dispatches).await?;
            if warm_up.elapsed().as_nanos() as f64 >= options.warm_up_ns {
                break;
            }
        }

        let mut measurement = Measurement {
            source: self.source(),
            dispatches_per_sample: dispatches,
            gpu_ns: Vec::new(),
            wall_ns: Vec::new(),
            discarded: 0,
        };
        for _ in 0..options.samples {
            let sample = self.sample(gpu, steps, dispatches).await?;
            measurement.wall_ns.push(sample.wall_ns);
            match sample.gpu_ns {
                Some(ns) if ns > 0.0 => measurement.gpu_ns.push(ns),
                Some(_) => measurement.discarded += 1,
                None => {}
            }
        }
        if self.queries.is_some() && measurement.gpu_ns.is_empty() {
            return Err(MeasureError::NoValidTimestamps(measurement.discarded));
        }
        Ok(measurement)
    }

    fn primary(&self, sample: &RawSample) -> Option<f64> {
        if self.queries.is_some() { sample.gpu_ns } else { Some(sample.wall_ns) }
    }

    async fn sample(&self, gpu: &Gpu, steps: &[Step], dispatches: u32) -> Result<RawSample, MeasureError> {
        let mut encoder = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("sample") });
        {
            let timestamp_writes = self.queries.as_ref().map(|q| wgpu::ComputePassTimestampWrites {
                query_set: &q.set,
                beginning_of_pass_write_index: Some(0),
                end_of_pass_write_index: Some(1),
            });
            let mut pass =
                encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("sample"), timestamp_writes });
            for _ in 0..dispatches {
                for step in steps {
                    pass.set_pipeline(&step.pipeline);
                    pass.set_bind_group(0, &step.bind_group, &[]);
                    let [x, y, z] = step.workgroups;
                    pass.dispatch_workgroups(x, y, z);
                }
            }
        }
        if let Some(q) = &self.queries {
            encoder.resolve_query_set(&q.set, 0..2, &q.resolve, 0);
            encoder.copy_buffer_to_buffer(&q.resolve, 0, &q.readback, 0, 16);
        }
        let start = Instant::now();
        gpu.queue.submit([encoder.finish()]);
        let gpu_ns = match &self.queries {
            Some(q) => {
                let bytes = map_read(gpu, &q.readback).await?;
                let tick = |i: usize| u64::from_le_bytes(bytes[i * 8..i * 8 + 8].try_into().expect("8 bytes"));
                // Deltas may be zero or negative on some drivers: keep the sign so the caller can drop them.
                let delta = tick(1).wrapping_sub(tick(0)) as i64;
                Some(delta as f64 * q.period_ns)
            }
            None => {
                work_done(gpu).await?;
                None
            }
        };
        Ok(RawSample { gpu_ns, wall_ns: start.elapsed().as_nanos() as f64 })
    }
}

/// Maps a MAP_READ buffer, copies its bytes out and unmaps it.
/// The web cannot block: `device.poll` is a no-op there and the callback resolves the channel; natively
/// `poll` waits for the GPU and the channel is already resolved.
pub async fn map_read(gpu: &Gpu, buffer: &wgpu::Buffer) -> Result<Vec<u8>, MeasureError> {
    let (sender, receiver) = oneshot::channel();
    buffer.map_async(wgpu::MapMode::Read, .., move |result| {
        let _ = sender.send(result);
    });
    gpu.device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| MeasureError::Readback(e.to_string()))?;
    receiver
        .await
        .map_err(|_| MeasureError::Readback("the map request was dropped".into()))?
        .map_err(|e| MeasureError::Readback(e.to_string()))?;
    let bytes = buffer.get_mapped_range(..).map_err(|e| MeasureError::Readback(e.to_string()))?.to_vec();
    buffer.unmap();
    Ok(bytes)
}

/// Copies `bytes` of `source` to a fresh MAP_READ buffer and reads them.
pub async fn read_buffer(gpu: &Gpu, source: &wgpu::Buffer) -> Result<Vec<u8>, MeasureError> {
    let staging = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size: source.size(),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(source, 0, &staging, 0, source.size());
    gpu.queue.submit([encoder.finish()]);
    map_read(gpu, &staging).await
}

/// Waits until everything submitted so far has finished on the GPU.
async fn work_done(gpu: &Gpu) -> Result<(), MeasureError> {
    let (sender, receiver) = oneshot::channel();
    gpu.queue.on_submitted_work_done(move || {
        let _ = sender.send(());
    });
    gpu.device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| MeasureError::Readback(e.to_string()))?;
    receiver.await.map_err(|_| MeasureError::Readback("the device stopped answering".into()))
}
