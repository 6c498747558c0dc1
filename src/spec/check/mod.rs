//! The specification checked against itself and the WGSL, every problem at its place: here the sizes,
//! tunables, workgroup, counts and every combination; `buffers` the buffers and uniforms; `textures` the
//! textures and samplers; `passes` the dispatches of a sample and what each binds.

mod buffers;
mod passes;
mod textures;

use std::collections::BTreeSet;

use super::expression::{Expression, Problem, Values};
use super::kernel::{Pass, Replacement, UserKernel, Value, encode};
use super::schema::{self, Dimension, Number, Ordered, Size, Spec};
use super::wgsl::Declarations;
use super::{DEFAULT_SIZE, MAX_COMBINATIONS, WORKGROUP_TUNABLES, split_leading_spec};

/// What the workgroup section read: its dimensions as written, as expressions, the tunables that make the
/// shape (no values for a WG_X swept over every power of two) and the tunables left to the combinations.
struct Shape {
    texts: Vec<String>,
    expressions: Vec<Expression>,
    shape_tunables: Vec<(String, Vec<u32>)>,
    tunables: Vec<(String, Vec<u32>)>,
}

/// A template's replacements, the WGSL filled in at the first values, and the tunables it names.
struct Template {
    replacements: Vec<(String, Replacement)>,
    probe: String,
    tunables: Vec<String>,
}

/// What a sample counts, where given: bytes, flops and workgroup memory.
struct Counts {
    bytes: Option<Expression>,
    flops: Option<Expression>,
    workgroup_memory: Option<Expression>,
}

/// Collects every problem of a specification rather than stopping at the first.
#[derive(Default)]
pub(super) struct Checker {
    problems: Vec<Problem>,
}

impl Checker {
    fn note<T>(&mut self, result: Result<T, Problem>) -> Option<T> {
        result.map_err(|p| self.problems.push(p)).ok()
    }

    fn problem(&mut self, place: impl Into<String>, message: impl Into<String>) {
        self.problems.push(Problem::at(place, message));
    }

    /// Checks every section of `spec` (each returning what it read), then every combination; the kernel,
    /// or every problem found.
    pub(super) fn check(mut self, source: &str, spec: Spec, digest: String) -> Result<UserKernel, Vec<Problem>> {
        let (size_names, sizes) = self.sizes(&spec);
        let template = self.template(&spec, source, &size_names, &sizes);
        let declared = Declarations::of(&template.probe);
        let templated: Vec<String> =
            template.tunables.into_iter().filter(|name| !declared.overrides.contains_key(name)).collect();
        self.name(&spec);
        self.tunables(&spec, &declared, &size_names, &templated);
        let shape = self.workgroup(&spec, &declared);
        let mut known: Vec<&str> = size_names.iter().map(String::as_str).collect();
        known.extend(spec.tunables.names());
        if shape.shape_tunables.iter().any(|(name, values)| name == "WG_X" && values.is_empty()) {
            known.push("WG_X");
        }
        let restrictions = self.expressions_of("restrictions", &spec.restrictions, &known);
        let constants = self.constants(&spec, &declared, &known);
        let buffers = self.buffers(&spec, &declared, &known, &size_names);
        let mut with_constants = known.clone();
        with_constants.extend(spec.constants.names());
        self.bindings_unique(&spec);
        let uniforms = self.uniforms(&spec, &declared, &with_constants);
        let textures = self.textures(&spec, &declared, &known[..size_names.len()]);
        let samplers = self.samplers(&spec, &declared, &textures);
        let counts = self.counts(&spec, &known);
        let default_grid = default_grid(&size_names, &shape.texts);
        let passes = self.passes(&spec, &declared, &with_constants, &default_grid);
        let (check, reference) = self.validation(&spec, &declared, &with_constants, &default_grid);
        let setup = self.setup(&spec, &declared, &with_constants, &default_grid);
        self.bindings_described(&spec, &declared, &passes, reference.as_ref(), &setup);
        if !self.problems.is_empty() {
            return Err(self.problems);
        }
        let mut kernel = UserKernel {
            source: source.into(),
            spec,
            written: Default::default(), // `UserKernel::read` sets it
            digest,
            buffers,
            uniforms,
            textures,
            samplers,
            size_names,
            sizes,
            tunables: shape.tunables,
            workgroup: shape.expressions,
            shape_tunables: shape.shape_tunables,
            restrictions,
            constants,
            passes,
            setup,
            bytes: counts.bytes,
            flops: counts.flops,
            workgroup_memory: counts.workgroup_memory,
            check,
            defaults: declared.override_defaults.iter().map(|(name, value)| (name.clone(), *value)).collect(),
            reference,
            template: template.replacements,
            templated,
            enables: declared.enables.clone(),
            shape_table: Default::default(),
        };
        self.check_combinations(&mut kernel, &declared);
        if self.problems.is_empty() { Ok(kernel) } else { Err(self.problems) }
    }

    /// An expression of the variables `known`, at `place`; `None` (with the problem noted) where it fails.
    fn expression(&mut self, place: String, text: &str, known: &[&str]) -> Option<Expression> {
        self.note(Expression::parse(place, text, known))
    }

    /// The expressions of a list, each at its index ("grid[1]").
    fn expressions_of(&mut self, section: &str, texts: &[String], known: &[&str]) -> Vec<Expression> {
        let expressions = texts.iter().enumerate();
        expressions.filter_map(|(i, text)| self.expression(format!("{section}[{i}]"), text, known)).collect()
    }

    /// The kernel's name.
    fn name(&mut self, spec: &Spec) {
        let name_ok = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
        if spec.name.is_empty() || spec.name.len() > 40 || !spec.name.chars().all(name_ok) {
            self.problem("name", "a name of 1 to 40 letters, digits, `_` and `-`");
        }
    }

    /// Each group and binding the specification describes is described once, in a group every device binds.
    fn bindings_unique(&mut self, spec: &Spec) {
        let mut seen = BTreeSet::new();
        for (place, group, binding) in described(spec) {
            if group >= MAX_GROUPS {
                let message = format!("group {group}: WebGPU binds groups 0 to {} on every device", MAX_GROUPS - 1);
                self.problem(format!("{place}.group"), message);
            }
            if !seen.insert((group, binding)) {
                self.problem(format!("{place}.binding"), format!("@group({group}) @binding({binding}) is given twice"));
            }
        }
    }

    /// An entry point the WGSL declares, at `place`.
    fn entry_point(&mut self, place: &str, entry_point: &str, declared: &Declarations) {
        if !declared.entry_points.contains(entry_point) {
            self.problem(place, absent("a @compute entry point", entry_point, &declared.entry_points));
        }
    }

    /// A dispatch grid of one to three expressions at `place`.
    fn grid(&mut self, place: &str, texts: &[String], known: &[&str]) -> Vec<Expression> {
        if texts.is_empty() || texts.len() > 3 {
            self.problem(place, "one to three expressions: workgroups along x, y and z");
        }
        self.expressions_of(place, &texts[..texts.len().min(3)], known)
    }

    /// The sizes' dimension names (every size names the same) and each size's values.
    fn sizes(&mut self, spec: &Spec) -> (Vec<String>, Vec<Vec<u64>>) {
        let sizes = match spec.sizes.is_empty() {
            true => vec![Size(Ordered(vec![("n".into(), DEFAULT_SIZE)]))],
            false => spec.sizes.clone(),
        };
        let size_names: Vec<String> = sizes[0].0.names().map(String::from).collect();
        for (i, size) in sizes.iter().enumerate() {
            if size.0.names().ne(size_names.iter().map(String::as_str)) {
                self.problem(
                    format!("sizes[{i}]"),
                    format!("every size names the same dimensions ({})", size_names.join(", ")),
                );
            }
        }
        let values = sizes.iter().map(|s| s.0.0.iter().map(|(_, v)| *v).collect()).collect();
        (size_names, values)
    }

    /// A template's text and what fills it: each text found in the WGSL, each value a number, text, or an
    /// expression of the size and the tunables; the WGSL filled in at the first value of each (where the
    /// declarations are read) and the tunables the template names.
    fn template(&mut self, spec: &Spec, source: &str, size_names: &[String], sizes: &[Vec<u64>]) -> Template {
        let body = split_leading_spec(source).map_or(source, |(_, body)| body);
        let mut known: Vec<&str> = size_names.iter().map(String::as_str).collect();
        known.extend(spec.tunables.names());
        let mut replacements = Vec::new();
        for (text, written) in &spec.template.0 {
            let place = format!("template.{text}");
            if text.is_empty() || !body.contains(text.as_str()) {
                self.problem(&place, "the WGSL does not hold this text");
            }
            let replacement = match written {
                schema::Replacement::Text(text) => Replacement::Text(text.clone()),
                schema::Replacement::Number(Number::Literal(number)) => {
                    if number.fract() != 0.0 || number.abs() > 2f64.powi(53) {
                        self.problem(&place, "a number here is a whole one; give other text as {\"text\": \"0.5\"}");
                    }
                    Replacement::Value(Value::Literal(*number))
                }
                schema::Replacement::Number(Number::Expression(expression)) => {
                    let Some(expression) = self.expression(place, expression, &known) else { continue };
                    Replacement::Value(Value::Expression(expression))
                }
            };
            replacements.push((text.clone(), replacement));
        }
        let first_size = size_names.iter().cloned().zip(sizes[0].iter().map(|&v| v as i64));
        let first_values =
            spec.tunables.0.iter().filter_map(|(name, values)| Some((name.clone(), *values.first()? as i64)));
        let first: Values = first_size.chain(first_values).collect();
        let mut probe = source.to_string();
        for (text, replacement) in &replacements {
            probe = probe.replace(text, &replacement.text(&first).unwrap_or_default());
        }
        let named: Vec<&str> =
            replacements.iter().filter_map(|(_, r)| r.expression()).flat_map(Expression::variables).collect();
        let tunables = spec.tunables.names().filter(|name| named.contains(name)).map(String::from).collect();
        Template { replacements, probe, tunables }
    }

    /// Tunables: overrides the WGSL declares (or that fill its template alone: `templated`), each with
    /// values, none named as a size dimension.
    fn tunables(&mut self, spec: &Spec, declared: &Declarations, size_names: &[String], templated: &[String]) {
        for (name, values) in &spec.tunables.0 {
            let place = format!("tunables.{name}");
            if !declared.overrides.contains_key(name) && !templated.contains(name) {
                self.problem(&place, absent("an `override`", name, &declared.override_names()));
            }
            if values.is_empty() {
                self.problem(&place, "give it at least one value");
            }
            if size_names.contains(name) {
                self.problem(&place, "a tunable may not share its name with a size dimension");
            }
        }
    }

    /// The workgroup's shape: the specification's, else WG_X (WG_Y, WG_Z) where they are tunables, else WG_X
    /// over every power of two where the WGSL declares it; and the tunables it leaves to the combinations.
    fn workgroup(&mut self, spec: &Spec, declared: &Declarations) -> Shape {
        let listed = |name: &&str| spec.tunables.get(name).is_some();
        let texts: Vec<String> = match &spec.workgroup_size {
            Some(dimensions) => dimensions.iter().map(Dimension::text).collect(),
            None => match WORKGROUP_TUNABLES.iter().rposition(&listed) {
                Some(last) => WORKGROUP_TUNABLES[..=last]
                    .iter()
                    .map(|n| if listed(n) { n.to_string() } else { "1".into() })
                    .collect(),
                None if declared.overrides.contains_key("WG_X") => vec!["WG_X".into()],
                None => {
                    let message = "say what sets the workgroup's shape: the WGSL declares no `override WG_X` \
                                   (@workgroup_size(WG_X)); name its override here (\"workgroup_size\": [\"blockSize\"]) \
                                   or give the sizes written in it (\"workgroup_size\": [64])";
                    self.problem("workgroup_size", message);
                    Vec::new()
                }
            },
        };
        if texts.len() > 3 {
            self.problem("workgroup_size", "one to three dimensions: x, y and z");
        }
        let tunable_names: Vec<&str> =
            spec.tunables.names().chain(["WG_X"].into_iter().filter(|_| !listed(&"WG_X"))).collect();
        let expressions = self.expressions_of("workgroup_size", &texts[..texts.len().min(3)], &tunable_names);
        let named_by_shape = |name: &str| expressions.iter().any(|w| w.variables().any(|v| v == name));
        let mut shape_tunables: Vec<(String, Vec<u32>)> =
            spec.tunables.0.iter().filter(|(name, _)| named_by_shape(name)).cloned().collect();
        if !listed(&"WG_X") && named_by_shape("WG_X") {
            shape_tunables.push(("WG_X".into(), Vec::new())); // every power of two the device allows
        }
        let tunables = spec.tunables.0.iter().filter(|(name, _)| !named_by_shape(name)).cloned().collect();
        Shape { texts, expressions, shape_tunables, tunables }
    }

    /// Constants: overrides the WGSL declares that are not tunables, each an expression.
    fn constants(&mut self, spec: &Spec, declared: &Declarations, known: &[&str]) -> Vec<(String, Expression)> {
        let mut constants = Vec::new();
        for (name, text) in &spec.constants.0 {
            let place = format!("constants.{name}");
            if !declared.overrides.contains_key(name) {
                self.problem(&place, absent("an `override`", name, &declared.override_names()));
            }
            if spec.tunables.get(name).is_some() {
                self.problem(&place, "is a tunable too");
            }
            constants.extend(self.expression(place, text, known).map(|e| (name.clone(), e)));
        }
        constants
    }

    /// The bytes, flops and workgroup memory a sample counts, where given.
    fn counts(&mut self, spec: &Spec, known: &[&str]) -> Counts {
        let mut count = |name: &str, text: &Option<String>| {
            text.as_ref().and_then(|text| self.expression(name.into(), text, known))
        };
        let (bytes, flops) = (count("bytes", &spec.bytes), count("flops", &spec.flops));
        let workgroup_memory = count("workgroup_memory", &spec.workgroup_memory);
        Counts { bytes, flops, workgroup_memory }
    }

    /// Evaluates every expression at every combination the restrictions admit (with WG_X swept, at every
    /// power of two up to 1024): a run then never meets an expression that fails. The workgroup shapes count
    /// toward the combinations' bound: each combination runs at every one.
    fn check_combinations(&mut self, kernel: &mut UserKernel, declared: &Declarations) {
        let combinations = kernel.combinations();
        let shapes = kernel.shape_count(1024).unwrap_or(usize::MAX);
        if combinations.saturating_mul(shapes) > MAX_COMBINATIONS {
            let message = format!(
                "{combinations} combinations of sizes and tunables at {shapes} workgroup shapes make {}; a kernel \
                 may have {MAX_COMBINATIONS}",
                combinations.saturating_mul(shapes)
            );
            self.problem("tunables", message);
            return;
        }
        for values in kernel.shape_values(1024) {
            if let Err(problem) = kernel.shape_of(&values) {
                self.problems.push(problem);
                return;
            }
        }
        let shapes = kernel.shapes(1024);
        let shown = |values: &Values| values.iter().map(|(n, v)| format!("{n}={v}")).collect::<Vec<_>>().join(", ");
        for (shape, values) in &shapes {
            if shape.contains(&0) {
                self.problem("workgroup_size", format!("the shape at {} has a dimension of 0", shown(values)));
                return;
            }
        }
        for (i, (shape, values)) in shapes.iter().enumerate() {
            if let Some((_, other)) = shapes[..i].iter().find(|(s, _)| s == shape) {
                let message = format!(
                    "{} and {} make the same shape {shape:?}: the shape must tell its tunables' values apart",
                    shown(other),
                    shown(values)
                );
                self.problem("workgroup_size", message);
                return;
            }
        }
        kernel.shape_table = shapes.clone();
        let workgroups: Vec<[u32; 3]> = shapes.iter().map(|(shape, _)| *shape).collect();
        let mut admitted = 0;
        for index in 0..combinations {
            for &workgroup in &workgroups {
                let values = kernel.values(index, workgroup);
                match kernel.excluded_by(&values) {
                    Ok(Some(_)) => continue,
                    Ok(None) => admitted += 1,
                    Err(problem) => {
                        self.problems.push(problem);
                        return;
                    }
                }
                let counts = kernel.buffers.iter().map(|b| &b.length).chain(&kernel.bytes).chain(&kernel.flops);
                let counts = counts.chain(&kernel.workgroup_memory).chain(kernel.constants.iter().map(|(_, e)| e));
                let filled = kernel.template.iter().filter_map(|(_, r)| r.expression());
                for expression in counts.chain(filled) {
                    if let Err(problem) = expression.count(&values) {
                        self.problems.push(problem);
                        return;
                    }
                }
                for (place, pass) in kernel.every_pass().enumerate().map(|(i, pass)| (pass_place(kernel, i), pass)) {
                    if let Err(problem) =
                        kernel.grid(pass, &values).and_then(|_| overrides_fit(kernel, declared, &place, pass, &values))
                    {
                        self.problems.push(problem);
                        return;
                    }
                }
                let fills = kernel.buffers.iter().filter_map(|b| Some((b, b.fill.as_ref()?, b.element.scalar)));
                if let Err(problem) = fills
                    .map(|(buffer, fill, scalar)| {
                        let listed = buffer.length.count(&values).and_then(|n| fill.listed(scalar, n, &values));
                        let listed =
                            listed.map_err(|p| Problem::at(format!("buffers ({}).fill", buffer.name), p.message));
                        fill.constant(scalar, &values).and(fill.modulus(&values)).and(listed)
                    })
                    .collect::<Result<Vec<_>, _>>()
                {
                    self.problems.push(problem);
                    return;
                }
                let uniforms = kernel.variables(&values);
                if let Err(problem) =
                    uniforms.and_then(|all| kernel.uniforms.iter().try_for_each(|u| u.bytes(&all).map(drop)))
                {
                    self.problems.push(problem);
                    return;
                }
            }
        }
        if admitted == 0 {
            self.problem("restrictions", "no combination of the tunables meets every restriction");
        }
    }
}

/// Every override's value in a pass (at `place`) at a configuration fits the type the WGSL gives it (a u32
/// constant of 2^32 would otherwise fail every pipeline with "Source f64 value doesn't fit", naming no
/// constant).
fn overrides_fit(
    kernel: &UserKernel,
    declared: &Declarations,
    place: &str,
    pass: &Pass,
    values: &Values,
) -> Result<(), Problem> {
    for (name, value) in kernel.overrides(pass, values)? {
        let Some(Some(scalar)) = declared.overrides.get(&name) else { continue };
        if let Err(why) = encode(*scalar, value) {
            let shown: Vec<String> = values.iter().map(|(n, v)| format!("{n}={v}")).collect();
            let section = match () {
                _ if pass.constants.iter().any(|(c, _)| *c == name) => format!("{place}.constants"),
                _ if kernel.constants.iter().any(|(c, _)| *c == name) => "constants".into(),
                _ => "tunables".into(),
            };
            let message = format!("`{name}` is a {} in the WGSL; at {}: {why}", scalar.name(), shown.join(", "));
            return Err(Problem::at(format!("{section}.{name}"), message));
        }
    }
    Ok(())
}

/// Where the specification says the `index`th of a kernel's `every_pass`: a pass of its own, the measured
/// entry point, or the reference.
fn pass_place(kernel: &UserKernel, index: usize) -> String {
    match index {
        _ if index == kernel.passes.len() => "validation.reference".into(),
        _ if kernel.spec.passes.is_empty() => "entry_point".into(),
        _ => format!("passes[{index}]"),
    }
}

/// The bind groups every WebGPU device binds at once (`maxBindGroups`).
const MAX_GROUPS: u32 = 4;

/// Every binding the specification describes, with where: (place, group, binding); buffers that passes
/// alone bind have none.
fn described(spec: &Spec) -> Vec<(String, u32, u32)> {
    let buffers = spec.buffers.iter().enumerate();
    let buffers = buffers.filter_map(|(i, b)| Some((format!("buffers[{i}] ({})", b.name), b.group, b.binding?)));
    let uniforms = spec.uniforms.iter().enumerate().map(|(i, u)| (format!("uniforms[{i}]"), u.group, u.binding));
    let textures = spec.textures.iter().enumerate();
    let textures = textures.map(|(i, t)| (format!("textures[{i}] ({})", t.name), t.group, t.binding));
    let samplers = spec.samplers.iter().enumerate().map(|(i, s)| (format!("samplers[{i}]"), s.group, s.binding));
    buffers.chain(uniforms).chain(textures).chain(samplers).collect()
}

/// The grid where none is given: each size dimension over the workgroup's, rounded up.
fn default_grid(size_names: &[String], workgroup: &[String]) -> Vec<String> {
    let dimensions = size_names.iter().take(3).zip(workgroup);
    dimensions.map(|(size, dimension)| format!("ceil_div({size}, {dimension})")).collect()
}

/// "`TILE` is not an override the WGSL declares (it declares WG_X, EPI)".
fn absent(what: &str, name: &str, declared: &BTreeSet<String>) -> String {
    let list: Vec<&str> = declared.iter().map(String::as_str).collect();
    let list = if list.is_empty() { "none".to_string() } else { list.join(", ") };
    format!("`{name}` is not {what} the WGSL declares (it declares: {list})")
}
