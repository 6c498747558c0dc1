//! A user's kernel as a family: made at run time from its WGSL and specification (`spec::UserKernel`) and
//! registered with `kernels::register`, it is run, measured, validated, charted, shared and tuned as the
//! built-in families are.
//!
//! Its configurations are its workgroup shapes (made by the tunables its `@workgroup_size` names) times its
//! parameter, whose values are the combinations of its sizes and other tunables (`Parameter::axes`). Inputs
//! are written on the GPU as the specification says; the output is compared on the GPU with a reference made
//! on the GPU: the user's reference entry point run once, or the first configuration that ran.

use std::cell::RefCell;
use std::rc::Rc;

use crate::bounds::{NAME, PARAMETER};
use crate::fill::Pattern;
use crate::gpu::{ComputeLimits, Gpu};
use crate::kernel::{
    self, Axis, Before, ChartKind, Configuration, Family, KernelId, OwnedBuffer, Parameter, PrepareFuture, Prepared,
    Presentation, Reference, ReferenceFuture, ShaderChecks, ShaderModules, Sizing, Skip, Step, ValidationError, Words,
    Workload,
};
use crate::spec::{self, Check, Filling, GUARD_WORDS, Problem, Scalar, UserKernel, Values};

mod bindings;
mod compile;

/// What the family's name and labels are made of, kept for the life of the program: a family is
/// `&'static`, and a user's kernel is registered once per digest.
fn keep(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

/// What its results name a user's kernel, after its family (the specification's name): its entry points and
/// the start of its digest.
pub fn names_in_results(kernel: &UserKernel) -> [String; 2] {
    [NAME.clip(&kernel.entry_points()), kernel.digest[..8].into()]
}

/// Each combination's label, in order: the size, then the tunables ("n=16777216 · ELEMENTS=4"), as its
/// results name it.
pub fn combination_labels(kernel: &UserKernel) -> Vec<String> {
    let axes = kernel.axes();
    let lengths: Vec<usize> = axes.iter().map(|a| a.labels.len()).collect();
    (0..kernel.combinations())
        .map(|index| {
            let at = spec::position(&lengths, index);
            let tunables: Vec<&str> =
                axes[1..].iter().zip(&at[1..]).map(|(axis, &i)| axis.labels[i].as_str()).collect();
            let size = &axes[0].labels[at[0]];
            PARAMETER.clip(&match tunables.is_empty() {
                true => size.clone(),
                false => format!("{size}{}{}", Parameter::TUNABLES_SEPARATOR, tunables.join(" ")),
            })
        })
        .collect()
}

pub struct UserFamily {
    pub kernel: UserKernel,
    id: KernelId,
    /// What the page says about it: its combinations and how it is validated, charted as its shapes ask.
    pub presentation: Presentation,
    labels: &'static [&'static str],
    axes: &'static [Axis],
}

impl UserFamily {
    pub fn new(kernel: UserKernel) -> UserFamily {
        let [kernel_name, variant] = names_in_results(&kernel);
        let id = KernelId { family: keep(kernel.spec.name.clone()), kernel: keep(kernel_name), variant: keep(variant) };
        let axes = kernel.axes();
        let labels: Vec<&'static str> = combination_labels(&kernel).into_iter().map(keep).collect();
        let contract_axes: Vec<Axis> =
            axes.iter().map(|a| Axis { name: keep(a.name.clone()), len: a.labels.len(), tuned: a.tuned }).collect();
        let validation = match &kernel.check {
            Check::Reference { entry_point, tolerance } => {
                format!("against its reference entry point `{entry_point}` (tolerance {tolerance:e})")
            }
            Check::Agreement { tolerance } => {
                format!("by agreement with the first configuration that ran (tolerance {tolerance:e})")
            }
        };
        let about = format!(
            "Your kernel `{}` (entry point `{}`, digest {}): {} combination(s) of sizes and tunables, each at \
             every workgroup shape it lists; every output validated on the GPU {validation}.",
            kernel.spec.name,
            kernel.entry_points(),
            kernel.digest,
            kernel.combinations()
        );
        let chart = match kernel.workgroup_shapes(1024).iter().any(|w| w[1] > 1) {
            true => ChartKind::Heatmap,
            false => ChartKind::Lines,
        };
        UserFamily {
            presentation: Presentation { about: keep(about), chart, ..Presentation::NONE },
            labels: Box::leak(labels.into_boxed_slice()),
            axes: Box::leak(contract_axes.into_boxed_slice()),
            id,
            kernel,
        }
    }

    /// The combination and workgroup shape of a configuration, as the expressions' variables.
    fn values(&self, configuration: &Configuration) -> Values {
        self.kernel.values(configuration.parameter.unwrap_or(0) as usize, configuration.workgroup)
    }

    /// The size index of a configuration.
    fn size_index(&self, configuration: &Configuration) -> usize {
        self.kernel.position(configuration.parameter.unwrap_or(0) as usize)[0]
    }
}

/// A problem with the specification met while running (checked when the kernel was read, so not expected).
fn not_applicable(problem: Problem) -> Skip {
    Skip::NotApplicable(problem.to_string())
}

impl Family for UserFamily {
    fn name(&self) -> &'static str {
        self.id.family
    }

    fn kernels(&self) -> Vec<KernelId> {
        vec![self.id]
    }

    fn size_unit(&self) -> &'static str {
        "problem sizes of its specification"
    }

    fn default_size(&self, _: &ComputeLimits) -> Sizing {
        Sizing { size: self.kernel.sizes.len() as u64, note: None }
    }

    fn round_size(&self, size: u64) -> u64 {
        size
    }

    fn workgroup_shapes(&self, _: &KernelId, limits: &ComputeLimits) -> Vec<[u32; 3]> {
        self.kernel.workgroup_shapes(limits.max_invocations_per_workgroup.max(limits.max_workgroup_size_x))
    }

    fn parameter(&self, _: &KernelId) -> Option<Parameter> {
        let values = (0..self.labels.len() as u32).collect();
        Some(Parameter { name: Parameter::TUNABLES, values, labels: self.labels, axes: self.axes })
    }

    fn runs_unchecked(&self) -> bool {
        false
    }

    fn workgroup_storage_bytes(&self, configuration: &Configuration) -> u64 {
        let memory = self.kernel.workgroup_memory.as_ref();
        memory.and_then(|m| m.count(&self.values(configuration)).ok()).unwrap_or(0)
    }

    /// The tunables that set overrides, those of the workgroup's shape among them (the sizes, the constants
    /// and the tunables that fill a template alone, `template_filled`, aside).
    fn written(&self) -> Option<&spec::KernelText> {
        Some(&self.kernel.written)
    }

    fn tunable_values(&self, configuration: &Configuration) -> Option<Vec<(String, i64)>> {
        let mut tunables = self.values(configuration).split_off(self.kernel.size_names.len());
        tunables.retain(|(name, _)| !self.kernel.templated.contains(name));
        Some(tunables)
    }

    fn template_filled(&self, configuration: &Configuration) -> Vec<(String, String)> {
        let values = self.values(configuration);
        let filled = self
            .kernel
            .template
            .iter()
            .map(|(text, replacement)| Some((text.clone(), replacement.text(&values).ok()?)));
        filled.collect::<Option<Vec<_>>>().unwrap_or_default()
    }

    fn excluded(&self, configuration: &Configuration) -> Option<String> {
        match self.kernel.excluded_by(&self.values(configuration)) {
            Ok(Some(restriction)) => Some(format!("the restriction `{}` excludes it", restriction.text)),
            _ => None,
        }
    }

    /// Its WGSL's own override defaults (`UserKernel::default_at`).
    fn default_configuration(&self, like: &Configuration, limits: &ComputeLimits) -> Option<([u32; 3], Option<u32>)> {
        let largest = limits.max_invocations_per_workgroup.max(limits.max_workgroup_size_x);
        let (index, shape) = self.kernel.default_at(self.size_index(like), largest)?;
        Some((shape, Some(index as u32)))
    }

    fn setup(&'static self, gpu: &Gpu, _: u64, seed: u32) -> Result<Box<dyn Workload>, String> {
        Ok(Box::new(UserWorkload::new(gpu, self, seed)))
    }
}

/// The buffers and textures of one size, made when a configuration of that size first runs: `None` where a
/// buffer's length depends on a tunable, and each configuration makes its own. Where the output is a
/// texture, the buffer it is read into.
struct SizedBuffers {
    size_index: usize,
    buffers: Vec<Option<OwnedBuffer>>,
    textures: Vec<wgpu::Texture>,
    readout: Option<OwnedBuffer>,
}

struct UserWorkload {
    family: &'static UserFamily,
    seed: u32,
    /// The compiled WGSL with the source it was compiled from: a template's is compiled again where a
    /// configuration fills it otherwise.
    modules: RefCell<Option<(String, Rc<ShaderModules>)>>,
    /// A pipeline layout for each of the kernel's `every_pass`, with what that pass binds.
    layouts: Vec<wgpu::PipelineLayout>,
    samplers: Vec<wgpu::Sampler>,
    sized: RefCell<Option<SizedBuffers>>,
    reference: RefCell<Option<SizedReference>>,
}

/// The reference of one size (its index), or why it could not be made.
type SizedReference = (usize, Result<Rc<Reference>, String>);

/// What a configuration binds: its buffers, in the specification's order, and textures, as handles; the
/// buffers made for it alone.
struct Resources {
    buffers: Vec<wgpu::Buffer>,
    textures: Vec<wgpu::Texture>,
    owned: Vec<OwnedBuffer>,
}

impl UserWorkload {
    fn new(gpu: &Gpu, family: &'static UserFamily, seed: u32) -> Self {
        let kernel = &family.kernel;
        UserWorkload {
            family,
            seed,
            modules: RefCell::default(),
            layouts: kernel.every_pass().map(|pass| bindings::pass_layout(gpu, kernel, pass)).collect(),
            samplers: kernel.samplers.iter().map(|sampler| bindings::make_sampler(gpu, sampler)).collect(),
            sized: RefCell::default(),
            reference: RefCell::default(),
        }
    }

    fn kernel(&self) -> &UserKernel {
        &self.family.kernel
    }

    /// The compiled WGSL at these values.
    fn modules(&self, values: &Values) -> Result<Rc<ShaderModules>, Skip> {
        let source = self.kernel().source_at(values).map_err(not_applicable)?;
        let mut modules = self.modules.borrow_mut();
        if modules.as_ref().is_none_or(|(compiled, _)| *compiled != source) {
            let made = Rc::new(ShaderModules::new(self.family.id.family, source.to_string()));
            *modules = Some((source.into_owned(), made));
        }
        Ok(modules.as_ref().expect("just made").1.clone())
    }

    /// A buffer of `elements` of this spec buffer, filled as its specification says, or why not.
    fn make_buffer(&self, gpu: &Gpu, index: usize, values: &Values) -> Result<OwnedBuffer, Skip> {
        let spec = &self.kernel().buffers[index];
        let bytes = spec.bytes(values).map_err(not_applicable)?;
        let limit = gpu.info.limits.max_binding_bytes();
        if bytes > limit {
            return Err(Skip::ExceedsLimit { limit: "max_storage_buffer_binding_size", device: limit, needed: bytes });
        }
        // The guard is bound with the buffer, so that a write past its end lands there and is seen, and a
        // read there reads the poison.
        let guard = spec.guarded && bytes + 4 * GUARD_WORDS <= limit;
        let buffer = kernel::storage_buffer(gpu, &spec.name, (bytes + if guard { 4 * GUARD_WORDS } else { 0 }).max(4));
        let length = spec.length.count(values).map_err(not_applicable)?;
        let listed = spec.fill.as_ref().map(|fill| fill.listed(spec.element.scalar, length, values));
        if let Some(listed) = listed.transpose().map_err(not_applicable)?.flatten() {
            gpu.queue.write_buffer(&buffer, 0, &listed);
        } else if let Some(fill) = &spec.fill {
            let pattern = pattern(fill, spec.element.scalar, values).map_err(not_applicable)?;
            let seed = self.seed.wrapping_add(index as u32);
            kernel::submit(gpu, |encoder| gpu.filler().pattern(&gpu.device, encoder, &buffer, pattern, seed));
        }
        if guard && !spec.output {
            // After the fill (the queue's writes come after what it was given before).
            let poison: Vec<u8> = (0..GUARD_WORDS).flat_map(|_| crate::fill::INPUT_GUARD.to_le_bytes()).collect();
            gpu.queue.write_buffer(&buffer, bytes, &poison);
        }
        Ok(buffer)
    }

    /// What `configuration` binds: its size's buffers and textures (made now where they are another size's)
    /// and the buffers it makes for itself.
    fn resources(&self, gpu: &Gpu, configuration: &Configuration, values: &Values) -> Result<Resources, Skip> {
        let size_index = self.family.size_index(configuration);
        let kernel = self.kernel();
        let mut sized = self.sized.borrow_mut();
        if sized.as_ref().is_none_or(|s| s.size_index != size_index) {
            *sized = None; // free the last size's buffers first
            *self.reference.borrow_mut() = None;
            let mut buffers = Vec::new();
            for (index, buffer) in kernel.buffers.iter().enumerate() {
                let shared = !buffer.per_configuration(&kernel.size_names);
                buffers.push(if shared { Some(self.make_buffer(gpu, index, values)?) } else { None });
            }
            let mut textures = Vec::new();
            for (index, texture) in kernel.textures.iter().enumerate() {
                let seed = self.seed.wrapping_add((kernel.buffers.len() + index) as u32);
                textures.push(bindings::make(gpu, texture, values, seed)?);
            }
            let output = kernel.textures.iter().zip(&textures).find(|(t, _)| t.output);
            let readout = output.map(|(texture, made)| {
                kernel::storage_buffer(gpu, &texture.name, bindings::texel_copy(texture.format, made).bytes())
            });
            *sized = Some(SizedBuffers { size_index, buffers, textures, readout });
        }
        let sized = sized.as_ref().expect("just made");
        let mut resources = Resources { buffers: Vec::new(), textures: sized.textures.clone(), owned: Vec::new() };
        for (index, shared) in sized.buffers.iter().enumerate() {
            match shared {
                Some(buffer) => resources.buffers.push(buffer.handle()),
                None => {
                    let buffer = self.make_buffer(gpu, index, values)?;
                    resources.buffers.push(buffer.handle());
                    resources.owned.push(buffer);
                }
            }
        }
        Ok(resources)
    }

    /// The dispatches of the kernel's `every_pass` at `passes` (indices), at these values, binding
    /// `resources` as each pass binds them.
    fn steps(
        &self,
        gpu: &Gpu,
        passes: std::ops::Range<usize>,
        values: &Values,
        resources: &Resources,
    ) -> Result<Vec<Step>, Skip> {
        let kernel = self.kernel();
        let uniforms = self.uniform_buffers(gpu, values)?;
        let views: Vec<wgpu::TextureView> =
            resources.textures.iter().map(|t| t.create_view(&Default::default())).collect();
        let bound = bindings::Bound {
            buffers: &resources.buffers,
            uniforms: &uniforms,
            views: &views,
            samplers: &self.samplers,
        };
        let modules = self.modules(values)?;
        let mut steps = Vec::new();
        for (index, pass) in kernel.every_pass().enumerate().take(passes.end).skip(passes.start) {
            let grid = self.grid(gpu, kernel.grid(pass, values))?;
            let overrides = kernel.overrides(pass, values).map_err(not_applicable)?;
            let constants: Vec<(&str, f64)> = overrides.iter().map(|(n, v)| (n.as_str(), *v)).collect();
            let layout = Some(&self.layouts[index]);
            let pipeline = modules.pipeline_in(gpu, ShaderChecks::Default, &pass.entry_point, &constants, layout);
            let bind_groups = bindings::bind_groups(gpu, kernel, pass, &pipeline, &bound);
            steps.push(Step { pipeline, bind_groups, grid });
        }
        Ok(steps)
    }

    /// The uniform buffers at these values, each holding its fields as the WGSL lays them out.
    fn uniform_buffers(&self, gpu: &Gpu, values: &Values) -> Result<Vec<wgpu::Buffer>, Skip> {
        let kernel = self.kernel();
        let all = kernel.variables(values).map_err(not_applicable)?;
        let made = kernel.uniforms.iter().map(|uniform| {
            let contents = uniform.bytes(&all).map_err(not_applicable)?;
            Ok(kernel::buffer_holding(gpu, &uniform.name, wgpu::BufferUsages::UNIFORM, &contents))
        });
        made.collect()
    }

    /// A dispatch grid as the specification counts it, or the limit it is over.
    fn grid(&self, gpu: &Gpu, grid: Result<[u64; 3], Problem>) -> Result<[u32; 3], Skip> {
        let grid = grid.map_err(not_applicable)?;
        let max = gpu.info.limits.max_workgroups_per_dimension;
        if let Some(&needed) = grid.iter().find(|&&g| g > max as u64) {
            return Err(Skip::ExceedsLimit {
                limit: "max_compute_workgroups_per_dimension",
                device: max as u64,
                needed,
            });
        }
        Ok(grid.map(|g| g as u32))
    }

    /// How the output's words are matched.
    fn words(&self) -> Words {
        let tolerance = match &self.kernel().check {
            Check::Reference { tolerance, .. } | Check::Agreement { tolerance } => *tolerance as f32,
        };
        let Some(output) = self.kernel().output() else {
            let texture = self.kernel().output_texture().expect("a checked kernel has one output");
            return bindings::words(texture.format, tolerance);
        };
        match output.element.scalar {
            Scalar::F32 => Words::F32 { tolerance },
            Scalar::F16 => Words::F16Pairs { tolerance },
            Scalar::U32 | Scalar::I32 => Words::Exact,
        }
    }

    /// The reference of `configuration`'s size: the reference entry point's output at the first
    /// combination of that size the device runs, or (by agreement) what this configuration wrote.
    async fn make_reference(&self, gpu: &Gpu, configuration: &Configuration) -> Result<Rc<Reference>, String> {
        let kernel = self.kernel();
        let output = self.output_buffer().ok_or("the output was not made")?;
        let words = output.size() / 4;
        let raw = kernel::storage_buffer(gpu, "reference output", output.size());
        match &kernel.check {
            Check::Agreement { .. } => {
                let who = "the configuration the others are compared with";
                self.guard_untouched(gpu, configuration, &output, who).await?;
                kernel::submit(gpu, |encoder| encoder.copy_buffer_to_buffer(&output, 0, &raw, 0, output.size()));
            }
            Check::Reference { entry_point, .. } => {
                let at = self.reference_configuration(gpu, configuration).ok_or(
                    "no combination of this size meets the restrictions within this device's limits, to run the reference at",
                )?;
                let values = self.family.values(&at);
                let could_not = |why: &dyn std::fmt::Display| {
                    format!("the reference entry point `{entry_point}` could not run: {why}")
                };
                let scope = gpu.error_scope(wgpu::ErrorFilter::Validation).await;
                let prepared =
                    self.reference_prepared(gpu, &at, &values, raw.handle()).map_err(|skip| could_not(&skip))?;
                kernel::submit_once(gpu, &prepared);
                if let Some(error) = scope.pop().await {
                    return Err(could_not(&error));
                }
                let who = format!("the reference entry point `{entry_point}`");
                self.guard_untouched(gpu, &at, &raw, &who).await?;
            }
        }
        Reference::of_output(gpu, "output", &raw, words, self.words()).await.map(Rc::new)
    }

    /// The reference entry point's dispatch at `at` (its `values`), writing into `raw` (and, where the output
    /// is a texture, a texture of its own read into `raw`) from what the output holds before a run.
    fn reference_prepared(
        &self,
        gpu: &Gpu,
        at: &Configuration,
        values: &Values,
        raw: wgpu::Buffer,
    ) -> Result<Prepared, Skip> {
        let kernel = self.kernel();
        let mut resources = self.resources(gpu, at, values)?;
        let texture = match self.output_index() {
            Some(index) => {
                resources.buffers[index] = raw.clone();
                None
            }
            None => {
                let (index, spec) = kernel.textures.iter().enumerate().find(|(_, t)| t.output).expect("one output");
                let made = bindings::make(gpu, spec, values, 0)?;
                resources.textures[index] = made.clone();
                Some(bindings::texel_copy(spec.format, &made))
            }
        };
        let reference = kernel.passes.len();
        let steps = self.steps(gpu, reference..reference + 1, values, &resources)?;
        let (grid, before) = (steps[0].grid, self.set_up(gpu, values, &resources)?);
        Ok(Prepared { steps, output: raw, before, grid, owned: resources.owned, texture })
    }

    /// That what became the reference (`who` wrote it, at `configuration`) left the output's guard
    /// poisoned: else every configuration writing past the end alike would agree with it.
    async fn guard_untouched(
        &self,
        gpu: &Gpu,
        configuration: &Configuration,
        output: &wgpu::Buffer,
        who: &str,
    ) -> Result<(), String> {
        let Some(spec) = self.kernel().output() else { return Ok(()) }; // a texture has no guard
        let values = self.family.values(configuration);
        let end = spec.bytes(&values).map_err(|p| p.to_string())?;
        if !spec.guarded || output.size() <= end {
            return Ok(());
        }
        let guard = kernel::read_range(gpu, output, end, output.size() - end).await?;
        let written =
            guard.chunks_exact(4).position(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]) != crate::fill::POISON);
        match written {
            None => Ok(()),
            Some(word) => Err(format!(
                "{who} wrote past the end of `{}` ({} bytes): at byte {}",
                spec.name,
                end,
                end + 4 * word as u64
            )),
        }
    }

    /// The configuration the reference entry point runs at: the first combination of `configuration`'s
    /// size, at the first workgroup shape, that the restrictions and the device's limits admit.
    fn reference_configuration(&self, gpu: &Gpu, configuration: &Configuration) -> Option<Configuration> {
        let size_index = self.family.size_index(configuration);
        let limits = &gpu.info.limits;
        let shapes = self.family.workgroup_shapes(&configuration.kernel, limits);
        (0..self.kernel().combinations() as u32)
            .filter(|&c| self.kernel().position(c as usize)[0] == size_index)
            .flat_map(|c| {
                shapes.iter().map(move |&w| Configuration { parameter: Some(c), workgroup: w, ..*configuration })
            })
            .find(|c| {
                let values = self.family.values(c);
                let memory = self.family.workgroup_storage_bytes(c);
                matches!(self.kernel().excluded_by(&values), Ok(None))
                    && kernel::shapes::check_workgroup(limits, c.workgroup, memory).is_ok()
            })
    }

    /// Runs the setup passes over `resources` (untimed, now), and says what the output holds before a
    /// validated run: where a setup pass writes the output, what the setup passes make of it (run then,
    /// rather than now), else its initial contents, or poison.
    fn set_up(&self, gpu: &Gpu, values: &Values, resources: &Resources) -> Result<Before, Skip> {
        let kernel = self.kernel();
        if kernel.setup.is_empty() {
            return self.before(values);
        }
        let setup = self.steps(gpu, kernel.setup_passes(), values, resources)?;
        let output = self.output_index();
        if kernel.setup.iter().any(|pass| pass.bound.iter().any(|b| b.read_write && Some(b.buffer) == output)) {
            return Ok(Before::State(setup));
        }
        kernel::submit_steps(gpu, &setup);
        self.before(values)
    }

    /// What the output holds before a validated run (at `values`): its initial contents, or poison.
    fn before(&self, values: &Values) -> Result<Before, Skip> {
        let (Some(index), Some(output)) = (self.output_index(), self.kernel().output()) else {
            return Ok(Before::Poison); // an output texture starts poisoned
        };
        Ok(match &output.fill {
            Some(fill) => Before::Pattern(
                pattern(fill, output.element.scalar, values).map_err(not_applicable)?,
                self.seed.wrapping_add(index as u32),
            ),
            None => Before::Poison,
        })
    }

    /// The output's index among the buffers, where the output is a buffer.
    fn output_index(&self) -> Option<usize> {
        self.kernel().buffers.iter().position(|b| b.output)
    }

    /// The buffer that holds the output after a run: the output buffer, or the one the output texture is
    /// read into.
    fn output_buffer(&self) -> Option<wgpu::Buffer> {
        let sized = self.sized.borrow();
        let sized = sized.as_ref()?;
        match self.output_index() {
            Some(index) => sized.buffers[index].as_ref().map(OwnedBuffer::handle),
            None => sized.readout.as_ref().map(OwnedBuffer::handle),
        }
    }
}

/// The GPU's fill of elements of `scalar` as a buffer's `Filling` says, at a configuration (`values`).
fn pattern(fill: &Filling, scalar: Scalar, values: &Values) -> Result<Pattern, Problem> {
    Ok(match (fill, scalar) {
        (Filling::Zeros, _) => Pattern::Word(0),
        // The constant's bytes: a word of f32, u32 or i32, or an f16 written into both halves of one.
        (Filling::Constant(_), _) => match fill.constant(scalar, values)?.unwrap_or_default()[..] {
            [low, high] => Pattern::Word(u32::from_le_bytes([low, high, low, high])),
            [a, b, c, d] => Pattern::Word(u32::from_le_bytes([a, b, c, d])),
            _ => unreachable!("a scalar is 2 or 4 bytes"),
        },
        (Filling::Iota(_), Scalar::F32) => Pattern::IotaF32 { modulus: fill.modulus(values)? },
        (Filling::Iota(_), Scalar::F16) => Pattern::IotaF16 { modulus: fill.modulus(values)? },
        (Filling::Iota(_), _) => Pattern::IotaU32 { modulus: fill.modulus(values)? },
        (Filling::Random([low, high]), Scalar::F32) => Pattern::RandomF32 { low: *low as f32, high: *high as f32 },
        (Filling::Random([low, high]), Scalar::F16) => Pattern::RandomF16 { low: *low as f32, high: *high as f32 },
        (Filling::Random([low, high]), _) => Pattern::RandomInt { low: *low as i64 as u32, high: *high as i64 as u32 },
        (Filling::Values(_), _) => unreachable!("listed values are written, not filled on the GPU"),
    })
}

impl UserWorkload {
    /// `prepare`, at once, its pipelines made synchronously: a person's large kernel would compile without
    /// stalling the page as the matmuls' do (`ShaderModules::pipeline_async`), but the page's download has
    /// no room left for the code (docs/results/rewarm-h200.md).
    fn prepare_now(&self, gpu: &Gpu, configuration: &Configuration) -> Result<Prepared, Skip> {
        let kernel = self.kernel();
        let values = self.family.values(configuration);
        if let Some(restriction) = kernel.excluded_by(&values).map_err(not_applicable)? {
            return Err(Skip::NotApplicable(format!("the restriction `{}` excludes it", restriction.text)));
        }
        if let Some(skip) = compile::lacked_feature(gpu, kernel) {
            return Err(skip);
        }
        let resources = self.resources(gpu, configuration, &values)?;
        let output = self.output_buffer().expect("made with its size: an output's length depends on the size alone");
        let texture = kernel.textures.iter().zip(&resources.textures).find(|(t, _)| t.output);
        let texture = texture.map(|(spec, made)| bindings::texel_copy(spec.format, made));
        let steps = self.steps(gpu, 0..kernel.passes.len(), &values, &resources)?;
        let (grid, before) = (steps[0].grid, self.set_up(gpu, &values, &resources)?);
        Ok(Prepared { steps, output, before, grid, owned: resources.owned, texture })
    }
}

impl Workload for UserWorkload {
    fn size(&self) -> u64 {
        self.kernel().sizes.len() as u64
    }

    /// The product of the size's dimensions (n; w × h).
    fn problem_size(&self, configuration: &Configuration) -> u64 {
        self.kernel().sizes[self.family.size_index(configuration)].iter().product()
    }

    fn bytes_per_dispatch(&self, configuration: &Configuration) -> u64 {
        self.kernel().bytes(&self.family.values(configuration)).unwrap_or(0)
    }

    fn flops_per_dispatch(&self, configuration: &Configuration) -> Option<u64> {
        self.kernel().flops.as_ref()?.count(&self.family.values(configuration)).ok()
    }

    fn notes(&self) -> Vec<String> {
        let mut notes = vec![format!("digest {}", self.kernel().digest)];
        if let Some(output) = self.kernel().output()
            && output.guarded
        {
            notes.push(format!(
                "`{}` is followed by a guard of {GUARD_WORDS} words the kernel must not write (it bounds its writes \
                 by something other than the buffer's arrayLength): a mismatch past its length is a write past its end",
                output.name
            ));
        }
        let inputs: Vec<&str> =
            self.kernel().buffers.iter().filter(|b| b.guarded && !b.output).map(|b| b.name.as_str()).collect();
        if !inputs.is_empty() {
            notes.push(format!(
                "{} {} followed by a guard of {GUARD_WORDS} words of a NaN: a float read past the end fails validation",
                inputs.iter().map(|name| format!("`{name}`")).collect::<Vec<_>>().join(", "),
                if inputs.len() == 1 { "is" } else { "are" }
            ));
        }
        if self.kernel().bytes.is_none() {
            notes.push(
                "GB/s counts every buffer and texture once a sample: the specification gives no \"bytes\"".into(),
            );
        }
        notes
    }

    fn prepare<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> PrepareFuture<'a> {
        Box::pin(std::future::ready(self.prepare_now(gpu, configuration)))
    }

    fn reference<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> ReferenceFuture<'a> {
        Box::pin(async move {
            let size_index = self.family.size_index(configuration);
            if let Some((kept, reference)) = self.reference.borrow().as_ref()
                && *kept == size_index
            {
                return reference.clone().map(Some);
            }
            let made = self.make_reference(gpu, configuration).await;
            *self.reference.borrow_mut() = Some((size_index, made.clone()));
            made.map(Some)
        })
    }

    /// Not ahead: by agreement the reference is what a configuration of its size wrote, and one is kept.
    fn reference_ahead(&self) -> bool {
        false
    }

    /// Never called: the output is always compared on the GPU, with the reference `reference` makes.
    fn check(&self, _: &Configuration, _: &Prepared, _: &[u8]) -> Result<(), ValidationError> {
        Err(ValidationError { what: "output (compared on the GPU only)", first: Vec::new(), wrong: 0, checked: 0 })
    }
}

/// What the GPU's compiler finds wrong with the kernel's WGSL, each at its line and column; empty where it
/// compiles (`compile::problems`).
pub async fn compilation_problems(gpu: &Gpu, family: &UserFamily) -> Vec<Problem> {
    compile::problems(gpu, family.name(), &family.kernel).await
}
