//! The dispatches of a sample (the entry point alone, or the specification's passes) and the reference's:
//! what each binds, and that every binding an entry point uses is bound.

use std::collections::BTreeSet;

use super::buffers::parse_element;
use super::{Checker, absent};
use crate::spec::DEFAULT_AGREEMENT_TOLERANCE;
use crate::spec::kernel::{Bound, Check, Pass};
use crate::spec::layout::{leaves, runtime_array};
use crate::spec::schema::{PassSpec, Scalar, Spec};
use crate::spec::wgsl::{Binding, Declarations, Space, Type};

/// The most passes one sample may run.
const MAX_PASSES: usize = 64;

impl Checker {
    /// The dispatches of one sample: the specification's passes, or its entry point alone at its grid (by
    /// default `default_grid`). `known`: the variables their expressions may name.
    pub(super) fn passes(
        &mut self,
        spec: &Spec,
        declared: &Declarations,
        known: &[&str],
        default_grid: &[String],
    ) -> Vec<Pass> {
        if spec.passes.is_empty() {
            self.entry_point("entry_point", &spec.entry_point, declared);
            let grid = self.grid("grid", spec.grid.as_deref().unwrap_or(default_grid), known);
            let bound = default_bound(spec, declared);
            return vec![Pass { entry_point: spec.entry_point.clone(), grid, constants: Vec::new(), bound }];
        }
        if spec.entry_point != "main" {
            self.problem("entry_point", "with \"passes\", each pass names its entry point: leave this out");
        }
        if spec.grid.is_some() {
            self.problem("grid", "with \"passes\", each pass gives its own grid: leave this out");
        }
        if spec.passes.len() > MAX_PASSES {
            self.problem("passes", format!("{} passes; a sample may run {MAX_PASSES}", spec.passes.len()));
        }
        let passes = spec.passes.iter().enumerate();
        passes
            .map(|(index, pass)| {
                self.pass(&format!("passes[{index}]"), pass, false, spec, declared, known, default_grid)
            })
            .collect()
    }

    /// The setup passes: each binds what its entry point uses, each buffer at its own binding unless its
    /// `bind` says otherwise, and may write any buffer (it makes the inputs).
    pub(super) fn setup(
        &mut self,
        spec: &Spec,
        declared: &Declarations,
        known: &[&str],
        default_grid: &[String],
    ) -> Vec<Pass> {
        if spec.setup.len() > MAX_PASSES {
            self.problem("setup", format!("{} setup passes; a kernel may have {MAX_PASSES}", spec.setup.len()));
        }
        let passes = spec.setup.iter().enumerate();
        passes
            .map(|(index, pass)| self.pass(&format!("setup[{index}]"), pass, true, spec, declared, known, default_grid))
            .collect()
    }

    /// One pass: its entry point, its own constants (overrides the WGSL declares, which may stand in for a
    /// tunable's value in its pipeline), its grid, and the buffers at each binding, its own `bind` over the
    /// buffers' own bindings.
    #[allow(clippy::too_many_arguments)]
    fn pass(
        &mut self,
        place: &str,
        written: &PassSpec,
        setup: bool,
        spec: &Spec,
        declared: &Declarations,
        known: &[&str],
        default_grid: &[String],
    ) -> Pass {
        self.entry_point(&format!("{place}.entry_point"), &written.entry_point, declared);
        let mut constants = Vec::new();
        for (name, text) in &written.constants.0 {
            let at = format!("{place}.constants.{name}");
            if !declared.overrides.contains_key(name) {
                self.problem(&at, absent("an `override`", name, &declared.override_names()));
            }
            constants.extend(self.expression(at, text, known).map(|e| (name.clone(), e)));
        }
        let grid = self.grid(&format!("{place}.grid"), written.grid.as_deref().unwrap_or(default_grid), known);
        let mut bound = default_bound(spec, declared);
        if setup {
            let used = declared.used_by(&written.entry_point);
            bound.retain(|b| used.iter().any(|u| (u.group, u.binding) == (b.group, b.binding)));
        }
        for (variable, buffer) in &written.bind.0 {
            let at = format!("{place}.bind.{variable}");
            if let Some(binding) = self.bind(&at, variable, buffer, setup, spec, declared) {
                bound.retain(|other| (other.group, other.binding) != (binding.group, binding.binding));
                bound.push(binding);
            }
        }
        crate::sort::by_key(&mut bound, |b| (b.group, b.binding));
        for (i, a) in bound.iter().enumerate() {
            if let Some(b) = bound[i + 1..].iter().find(|b| b.buffer == a.buffer && (a.read_write || b.read_write)) {
                let message = format!(
                    "`{}` is bound at bindings {} and {} and written through one of them: WebGPU lets a dispatch \
                     bind a buffer it writes once only",
                    spec.buffers[a.buffer].name, a.binding, b.binding
                );
                self.problem(format!("{place}.bind"), message);
            }
        }
        Pass { entry_point: written.entry_point.clone(), grid, constants, bound }
    }

    /// The buffer named `buffer` bound at the WGSL's variable `variable`: a storage buffer whose
    /// elements are of the buffer's scalar type, read_write only where the buffer is written (or by a setup
    /// pass, which writes inputs).
    fn bind(
        &mut self,
        place: &str,
        variable: &str,
        buffer: &str,
        setup: bool,
        spec: &Spec,
        declared: &Declarations,
    ) -> Option<Bound> {
        let storage: BTreeSet<String> = declared
            .bindings
            .iter()
            .filter(|b| matches!(b.space, Space::Storage { .. }))
            .map(|b| b.name.clone())
            .collect();
        let Some(declaration) = declared.bindings.iter().find(|b| b.name == variable && storage.contains(&b.name))
        else {
            self.problem(place, absent("a storage buffer", variable, &storage));
            return None;
        };
        let Some(index) = spec.buffers.iter().position(|b| b.name == buffer) else {
            let names: BTreeSet<String> = spec.buffers.iter().map(|b| b.name.clone()).collect();
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            self.problem(place, format!("no buffer is named `{buffer}` (the buffers: {})", names.join(", ")));
            return None;
        };
        let written = &spec.buffers[index];
        if let Ok(element) = parse_element(&written.element)
            && scalar_of(declared, &declaration.ty) != Some(element.scalar)
        {
            let message = format!(
                "`{variable}` is declared {}: its elements are not {}s, as `{buffer}`'s are",
                declaration.type_text,
                element.scalar.name()
            );
            self.problem(place, message);
        }
        let read_write = declaration.space == Space::Storage { read_write: true };
        if read_write && !(written.output || written.written || setup) {
            let message = format!("`{variable}` is declared read_write: mark `{buffer}` \"written\"");
            self.problem(place, message);
        }
        Some(Bound { group: declaration.group, binding: declaration.binding, buffer: index, read_write })
    }

    /// How the output is validated, and the reference entry point's dispatch (every buffer at its own
    /// binding, at its own grid where the specification gives one, else `default_grid`).
    pub(super) fn validation(
        &mut self,
        spec: &Spec,
        declared: &Declarations,
        known: &[&str],
        default_grid: &[String],
    ) -> (Check, Option<Pass>) {
        let validation = &spec.validation;
        let tolerance = validation.tolerance;
        if tolerance.is_some_and(|t| !(t.is_finite() && t >= 0.0)) {
            self.problem("validation.tolerance", "a tolerance is a number from 0 up");
        }
        let Some(entry_point) = &validation.reference else {
            if validation.grid.is_some() {
                self.problem("validation.grid", "a grid for the reference entry point, but there is no reference");
            }
            return (Check::Agreement { tolerance: tolerance.unwrap_or(DEFAULT_AGREEMENT_TOLERANCE) }, None);
        };
        self.entry_point("validation.reference", entry_point, declared);
        if let Some(output) = spec.buffers.iter().find(|b| b.output && b.binding.is_none()) {
            let message = format!("the reference writes the output at its binding: give `{}` one", output.name);
            self.problem("validation.reference", message);
        }
        let grid = self.grid("validation.grid", validation.grid.as_deref().unwrap_or(default_grid), known);
        let bound = default_bound(spec, declared);
        let reference = Pass { entry_point: entry_point.clone(), grid, constants: Vec::new(), bound };
        let check = Check::Reference { entry_point: entry_point.clone(), tolerance: tolerance.unwrap_or(0.0) };
        (check, Some(reference))
    }

    /// Every binding a pass's (or the reference's) entry point uses is bound in it at its group and binding
    /// (a buffer, a uniform, a texture or a sampler): what would otherwise fail every configuration with
    /// "binding is missing from the pipeline layout". Each binding is named once.
    pub(super) fn bindings_described(
        &mut self,
        spec: &Spec,
        declared: &Declarations,
        passes: &[Pass],
        reference: Option<&Pass>,
        setup: &[Pass],
    ) {
        // Uniforms, textures and samplers are bound in every pass.
        let uniform = |group: u32, binding: u32| {
            spec.uniforms.iter().any(|u| (u.group, u.binding) == (group, binding))
                || spec.textures.iter().any(|t| (t.group, t.binding) == (group, binding))
                || spec.samplers.iter().any(|s| (s.group, s.binding) == (group, binding))
        };
        let same = |bound: &Bound, b: &Binding| (bound.group, bound.binding) == (b.group, b.binding);
        let mut named = BTreeSet::new();
        let first_setup = passes.len() + usize::from(reference.is_some());
        for (index, pass) in passes.iter().chain(reference).chain(setup).enumerate() {
            for b in declared.used_by(&pass.entry_point) {
                let bound = pass.bound.iter().any(|bound| same(bound, b)) || uniform(b.group, b.binding);
                if bound || !named.insert((b.group, b.binding)) {
                    continue;
                }
                let at = format!("@group({}) @binding({})", b.group, b.binding);
                let bound_elsewhere = passes.iter().any(|p| p.bound.iter().any(|bound| same(bound, b)));
                let (section, message) = match b.space {
                    Space::Storage { .. } if index >= first_setup => (
                        format!("setup[{}].bind", index - first_setup),
                        format!("`{}` ({at}) is not bound: bind a buffer there", b.name),
                    ),
                    Space::Storage { .. } if bound_elsewhere && index < passes.len() => (
                        format!("passes[{index}].bind"),
                        format!("`{}` ({at}) is bound in other passes, not in this one: bind a buffer there", b.name),
                    ),
                    Space::Storage { .. } => (
                        "buffers".into(),
                        format!("the kernel uses `{}` ({at}, {}): add it to \"buffers\"", b.name, b.type_text),
                    ),
                    Space::Uniform => (
                        "uniforms".into(),
                        format!(
                            "the kernel uses `{}` ({at}, var<uniform> {}): add it to \"uniforms\"",
                            b.name, b.type_text
                        ),
                    ),
                    Space::Handle if b.type_text.starts_with("sampler") => (
                        "samplers".into(),
                        format!("the kernel uses `{}` ({at}, {}): add it to \"samplers\"", b.name, b.type_text),
                    ),
                    Space::Handle => (
                        "textures".into(),
                        format!("the kernel uses `{}` ({at}, {}): add it to \"textures\"", b.name, b.type_text),
                    ),
                };
                self.problem(section, message);
            }
        }
    }
}

/// The buffers at their own bindings, as every pass binds them unless it says otherwise.
fn default_bound(spec: &Spec, declared: &Declarations) -> Vec<Bound> {
    let own = spec.buffers.iter().enumerate().filter_map(|(buffer, b)| Some((buffer, b.group, b.binding?)));
    own.map(|(buffer, group, binding)| {
        let declaration = declared.binding(group, binding);
        let read_write = declaration.is_some_and(|d| d.space == Space::Storage { read_write: true });
        Bound { group, binding, buffer, read_write }
    })
    .collect()
}

/// The scalar of a storage buffer's elements (of an array, or of the runtime-sized array that ends a struct;
/// of a struct's, where they are all one).
fn scalar_of(declared: &Declarations, ty: &Type) -> Option<Scalar> {
    let element = match declared.resolve(ty) {
        Type::Array(element, _) => declared.resolve(element),
        Type::Named(name) if runtime_array(declared, name).is_some() => {
            declared.resolve(runtime_array(declared, name)?.1)
        }
        single => single,
    };
    match element {
        Type::Scalar(scalar) | Type::Vector(_, scalar) | Type::Atomic(scalar) => Some(*scalar),
        Type::Named(_) => {
            let leaves = leaves(declared, element, "", 0).ok()?;
            let first = leaves.first()?.scalar;
            leaves.iter().all(|leaf| leaf.scalar == first).then_some(first)
        }
        _ => None,
    }
}

/// The declaration a buffer is sized and typed by: at its own binding, else the first a pass binds it at.
pub(super) fn declaration<'a>(spec: &Spec, declared: &'a Declarations, buffer: &str) -> Option<&'a Binding> {
    let own = spec.buffers.iter().find(|b| b.name == buffer).and_then(|b| Some((b.group, b.binding?)));
    match own {
        Some((group, binding)) => declared.binding(group, binding),
        None => {
            let (variable, _) = spec.binds().find(|(_, b)| *b == buffer)?;
            declared.bindings.iter().find(|b| b.name == *variable)
        }
    }
}
