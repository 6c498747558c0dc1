//! What a run or a tuning measures: which kernels, at which workgroup shapes, problem sizes and shader
//! checks, and how; and the configurations that makes on a device.

use crate::bounds::MAX_USER_KERNELS;
use crate::gpu::ComputeLimits;
use crate::kernel::{Configuration, Family, Kernel, KernelId, ShaderChecks, shapes};
use crate::kernels;
use crate::measure::MeasureOptions;
use crate::spec::KernelText;

/// What to run.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Each with the family that runs it.
    pub kernels: Vec<Kernel>,
    pub problem_size: ProblemSize,
    pub shapes: Shapes,
    /// Values of the kernels' own numeric parameters (strides, sizes, radii) to try instead of each
    /// family's list; `None` tries each family's list. Parameters that name choices keep their list.
    pub parameter_values: Option<Vec<u32>>,
    /// Each configuration runs once per entry: wgpu's default runtime checks, and natively also without.
    pub shader_checks: Vec<ShaderChecks>,
    pub measure: MeasureOptions,
    pub seed: u32,
}

/// A configuration of a plan, with the family that runs it.
#[derive(Clone, Copy)]
pub struct Planned {
    pub family: &'static dyn Family,
    pub configuration: Configuration,
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

/// How precise a run's medians are asked to be unless its settings say otherwise: sampling goes on until
/// each median's 95 % interval is within ±1 % of it (`MeasureOptions::precision`).
pub const RUN_PRECISION: f64 = 0.01;

impl Plan {
    /// A run of `kernels` with the defaults the page's controls, its Your-kernel card and the CLI share:
    /// each family's problem size, shapes and parameter values, wgpu's default shader checks, medians to
    /// `RUN_PRECISION`, a fresh seed. Each shell changes only what its settings change.
    pub fn new(kernels: Vec<Kernel>) -> Plan {
        Plan {
            kernels,
            problem_size: ProblemSize::Default,
            shapes: Shapes::Family,
            parameter_values: None,
            shader_checks: vec![ShaderChecks::Default],
            measure: MeasureOptions { precision: RUN_PRECISION, ..MeasureOptions::default() },
            seed: crate::fill::fresh_seed(),
        }
    }

    /// The configurations this plan has on a device with these limits, in run order, each with its family;
    /// none that its family's own rules exclude (`excluded`).
    pub fn configurations(&self, limits: &ComputeLimits) -> Vec<Planned> {
        let planned = self.every_configuration(limits).into_iter();
        planned.filter(|p| p.family.excluded(&p.configuration).is_none()).collect()
    }

    /// How many configurations of each family its own rules leave out (a user's restrictions), for those
    /// that leave out any.
    pub fn excluded(&self, limits: &ComputeLimits) -> Vec<(&'static str, usize)> {
        let mut counts: Vec<(&'static str, usize)> = Vec::new();
        for Planned { family, configuration } in self.every_configuration(limits) {
            if family.excluded(&configuration).is_none() {
                continue;
            }
            match counts.iter_mut().find(|(name, _)| *name == family.name()) {
                Some((_, count)) => *count += 1,
                None => counts.push((family.name(), 1)),
            }
        }
        counts
    }

    /// Every configuration of the plan's kernels, shapes, parameter values and checks, in run order.
    fn every_configuration(&self, limits: &ComputeLimits) -> Vec<Planned> {
        let mut configurations = Vec::new();
        for &Kernel { family, id: kernel } in &self.kernels {
            let shapes = match &self.shapes {
                Shapes::Family => family.workgroup_shapes(&kernel, limits),
                Shapes::Sizes(sizes) => sizes.iter().map(|&x| [x, 1, 1]).collect(),
                Shapes::Every if is_two_dimensional(family, &kernel, limits) => shapes::power_of_two_shapes(limits),
                Shapes::Every => shapes::power_of_two_sizes(limits).into_iter().map(|x| [x, 1, 1]).collect(),
            };
            let parameters: Vec<Option<u32>> = match (family.parameter(&kernel), &self.parameter_values) {
                (Some(p), Some(values)) if p.labels.is_empty() => values.iter().copied().map(Some).collect(),
                (Some(parameter), _) => parameter.values.into_iter().map(Some).collect(),
                (None, _) => vec![None],
            };
            // Shapes vary fastest: configurations that share a parameter value share the CPU reference of
            // their output, which a family keeps only while they run.
            let checks = self.shader_checks.iter().filter(|&&c| c == ShaderChecks::Default || family.runs_unchecked());
            for &checks in checks {
                for &parameter in &parameters {
                    configurations.extend(shapes.iter().map(|&workgroup| Planned {
                        family,
                        configuration: Configuration { kernel, checks, workgroup, parameter },
                    }));
                }
            }
        }
        configurations
    }
}

impl Plan {
    /// How many configurations this plan makes on a device with these limits, or why it may not run: more
    /// than a result holds (`kernels::max_configurations`).
    pub fn count(&self, limits: &ComputeLimits) -> Result<usize, String> {
        let count = self.configurations(limits).len();
        let max = kernels::max_configurations();
        if count > max {
            return Err(format!(
                "this run would make {count} configurations, more than a result holds ({max}): pick fewer kernels, \
                 parameter values or workgroup sizes"
            ));
        }
        let users = self.users_kernels().len();
        if users > MAX_USER_KERNELS {
            return Err(format!(
                "this run would hold {users} of your kernels, more than a result carries ({MAX_USER_KERNELS}): pick \
                 fewer"
            ));
        }
        Ok(count)
    }

    /// The users' kernels this plan runs, as written, each once: what its result carries.
    pub fn users_kernels(&self) -> Vec<KernelText> {
        let mut written: Vec<KernelText> = Vec::new();
        for kernel in self.kernels.iter().filter_map(|k| k.family.written()) {
            if !written.contains(kernel) {
                written.push(kernel.clone());
            }
        }
        written
    }
}

/// Whether the family sweeps `kernel` over 2-D workgroup shapes (image-like kernels).
pub fn is_two_dimensional(family: &dyn Family, kernel: &KernelId, limits: &ComputeLimits) -> bool {
    family.workgroup_shapes(kernel, limits).iter().any(|w| w[1] > 1)
}

/// How many of the family's units its problem has on `gpu`, and why it is smaller than the default where
/// a device limit made it so.
pub fn problem_units(limits: &ComputeLimits, family: &dyn Family, problem_size: ProblemSize) -> (u64, Option<String>) {
    let sizing = family.default_size(limits);
    let (units, note) = match problem_size {
        ProblemSize::Default => (sizing.size, sizing.note),
        ProblemSize::Units(units) => (units, None),
        // A family sized by time has no buffer worth sizing: it keeps its default, which the runner shortens
        // to the device's pace (SwiftShader's 16 MiB per buffer made the FMA chains 4 M invocations long).
        ProblemSize::BytesPerBuffer(_) if family.sized_by_time() => (sizing.size, sizing.note),
        ProblemSize::BytesPerBuffer(bytes) => (bytes / family.unit_bytes(), None),
    };
    (family.round_size(units), note)
}
