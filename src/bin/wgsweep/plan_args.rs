//! What `run`, `tune` and `kernel` share: the device, the problem and how to measure, as options that
//! change `Plan::new`'s defaults.

use clap::ValueEnum;
use wgsweep::gpu::Gpu;
use wgsweep::kernel::{Kernel, ShaderChecks};
use wgsweep::plan::{Plan, ProblemSize, Shapes};

use crate::choose_adapter;

/// Which of wgpu's shader runtime checks each configuration runs with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ChecksChoice {
    /// wgpu's checks on (index clamping, a guard on every loop), as browsers always run.
    Default,
    /// Trusted shader modules, without the checks.
    Unchecked,
    /// Every configuration with the checks and without, to show what they cost.
    Both,
    /// Index clamping without the guard on every loop.
    BoundsOnly,
    /// Default, bounds-only and unchecked, to tell which check costs what.
    All,
}

impl ChecksChoice {
    fn shader_checks(self) -> Vec<ShaderChecks> {
        match self {
            ChecksChoice::Default => vec![ShaderChecks::Default],
            ChecksChoice::Unchecked => vec![ShaderChecks::Unchecked],
            ChecksChoice::Both => vec![ShaderChecks::Default, ShaderChecks::Unchecked],
            ChecksChoice::BoundsOnly => vec![ShaderChecks::BoundsOnly],
            ChecksChoice::All => vec![ShaderChecks::Default, ShaderChecks::BoundsOnly, ShaderChecks::Unchecked],
        }
    }
}

#[derive(clap::Args)]
pub struct PlanArgs {
    /// Adapter: its index in `wgsweep devices`, or part of its name. Default: the high-performance one.
    #[arg(long)]
    adapter: Option<String>,
    /// A test hook: give the device up after this many seconds of one submission's work, not 10.
    #[arg(long, hide = true)]
    wait_limit_s: Option<f64>,
    /// Problem size in each family's unit (`wgsweep describe FAMILY` names it: f32 elements per array,
    /// particles, pixels). Default: each family's own, 256 MiB per buffer where the device allows it.
    #[arg(long, conflicts_with = "mib")]
    size: Option<u64>,
    /// Problem size as MiB per buffer, whatever each family's unit.
    #[arg(long)]
    mib: Option<u64>,
    /// Workgroup sizes, comma-separated. Default: every power of two up to the device's maximum (every 2-D
    /// shape for image-like kernels), unless the family fixes the shape to sweep its parameter.
    #[arg(long, value_delimiter = ',', conflicts_with = "every_shape")]
    workgroup_sizes: Option<Vec<u32>>,
    /// Every power-of-two shape the device allows (2-D ones for image-like kernels), also for the
    /// families that fix their shape (banks, saturation, access's strides, matmul's naive kernel).
    #[arg(long)]
    every_shape: bool,
    /// Values of the kernels' numeric parameters (stride, radius, matrix size...), comma-separated, instead
    /// of each family's list.
    #[arg(long, value_delimiter = ',')]
    values: Option<Vec<u32>>,
    /// wgpu's shader runtime checks (browsers always apply their own).
    #[arg(long, value_enum, default_value_t = ChecksChoice::Both)]
    shader_checks: ChecksChoice,
    /// Samples per configuration, after calibration and warm-up, at least (fewer, never under 3, where they
    /// would take over a second of GPU time); more until the median is as precise as --precision asks.
    #[arg(long, default_value_t = 10)]
    samples: u32,
    /// Keep sampling a configuration until its median's 95 % interval is within this of it (a percentage;
    /// 0 keeps exactly --samples); one that cannot get there by --max-samples is marked noisy.
    /// Default: 1%.
    #[arg(long, value_parser = percent)]
    precision: Option<f64>,
    /// The most samples sampling for precision keeps of one configuration.
    #[arg(long, default_value_t = 50)]
    max_samples: u32,
    /// Milliseconds to keep the GPU busy with each configuration before its samples (clocks ramp up).
    #[arg(long, default_value_t = 200.0)]
    warm_up_ms: f64,
    /// Seed of the pseudo-random inputs (default: a fresh one each run).
    #[arg(long)]
    seed: Option<u32>,
}

impl PlanArgs {
    /// The options given that set a built-in family's problem size or workgroup shapes, as written.
    pub fn sizing_options(&self) -> Vec<&'static str> {
        let given = [
            (self.size.is_some(), "--size"),
            (self.mib.is_some(), "--mib"),
            (self.values.is_some(), "--values"),
            (self.workgroup_sizes.is_some(), "--workgroup-sizes"),
            (self.every_shape, "--every-shape"),
        ];
        given.into_iter().filter(|(given, _)| *given).map(|(_, name)| name).collect()
    }

    /// `Plan::new(kernels)` with what these options change.
    pub fn plan(&self, kernels: Vec<Kernel>) -> Plan {
        let mut plan = Plan::new(kernels);
        plan.problem_size = match (self.size, self.mib) {
            (Some(units), _) => ProblemSize::Units(units),
            (None, Some(mib)) => ProblemSize::BytesPerBuffer(mib << 20),
            (None, None) => ProblemSize::Default,
        };
        plan.shapes = match (&self.workgroup_sizes, self.every_shape) {
            (Some(sizes), _) => Shapes::Sizes(sizes.clone()),
            (None, true) => Shapes::Every,
            (None, false) => Shapes::Family,
        };
        plan.parameter_values = self.values.clone();
        plan.shader_checks = self.shader_checks.shader_checks();
        plan.measure.samples = self.samples.max(1);
        plan.measure.precision = self.precision.unwrap_or(plan.measure.precision);
        plan.measure.max_samples = self.max_samples;
        plan.measure.warm_up_ns = self.warm_up_ms * 1e6;
        plan.seed = self.seed.unwrap_or(plan.seed);
        plan
    }

    pub async fn open_gpu(&self) -> Result<Gpu, String> {
        let adapter = choose_adapter(self.adapter.as_deref()).await?;
        let mut gpu = Gpu::open(&adapter, None).await.map_err(|e| e.to_string())?;
        if let Some(seconds) = self.wait_limit_s {
            gpu.wait_limit = std::time::Duration::from_secs_f64(seconds);
        }
        eprintln!("{} ({}, {})", gpu.info.name(), gpu.info.backend, gpu.info.driver);
        Ok(gpu)
    }
}

/// "3%" or "3" as the fraction 0.03.
pub fn percent(text: &str) -> Result<f64, String> {
    let number = text.trim().trim_end_matches('%').trim();
    match number.parse::<f64>() {
        Ok(p) if (0.0..1000.0).contains(&p) => Ok(p / 100.0),
        _ => Err(format!("`{text}` is not a percentage such as 3%")),
    }
}
