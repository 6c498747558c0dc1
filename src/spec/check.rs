//! The specification checked against itself and the WGSL, every problem at its place.

use std::collections::BTreeSet;

use super::expression::{Expression, Problem, Values};
use super::kernel::{Buffer, Check, Filling, Uniform, UniformValue, UserKernel, Value, encode};
use super::layout::{Leaf, layout, leaves, runtime_array};
use super::schema::{BufferSpec, Dimension, Element, FieldValue, Fill, Number, Ordered, Size, Spec, UniformSpec};
use super::wgsl::{Binding, Declarations, Space, Type};
use super::{DEFAULT_AGREEMENT_TOLERANCE, DEFAULT_SIZE, MAX_COMBINATIONS, WORKGROUP_TUNABLES};

/// What the workgroup section read: its dimensions as written, as expressions, the tunables that make the
/// shape (no values for a WG_X swept over every power of two) and the tunables left to the combinations.
struct Shape {
    texts: Vec<String>,
    expressions: Vec<Expression>,
    shape_tunables: Vec<(String, Vec<u32>)>,
    tunables: Vec<(String, Vec<u32>)>,
}

/// What a dispatch counts: its grid, and the bytes, flops and workgroup memory where given.
struct Counts {
    grid: Vec<Expression>,
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
        let declared = Declarations::of(source);
        self.name_and_entry_point(&spec, &declared);
        let (size_names, sizes) = self.sizes(&spec);
        self.tunables(&spec, &declared, &size_names);
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
        let uniforms = self.uniforms(&spec, &declared, &with_constants);
        self.bindings_described(&spec, &declared);
        let counts = self.counts(&spec, &known, &size_names, &shape.texts);
        let (check, reference_grid) = self.validation(&spec, &declared, &known);
        if !self.problems.is_empty() {
            return Err(self.problems);
        }
        let kernel = UserKernel {
            source: source.into(),
            spec,
            digest,
            buffers,
            uniforms,
            size_names,
            sizes,
            tunables: shape.tunables,
            workgroup: shape.expressions,
            shape_tunables: shape.shape_tunables,
            restrictions,
            constants,
            grid: counts.grid,
            bytes: counts.bytes,
            flops: counts.flops,
            workgroup_memory: counts.workgroup_memory,
            check,
            defaults: declared.override_defaults.iter().map(|(name, value)| (name.clone(), *value)).collect(),
            reference_grid,
        };
        self.check_combinations(&kernel, &declared);
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

    /// The name, and the entry point among the WGSL's.
    fn name_and_entry_point(&mut self, spec: &Spec, declared: &Declarations) {
        let name_ok = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
        if spec.name.is_empty() || spec.name.len() > 40 || !spec.name.chars().all(name_ok) {
            self.problem("name", "a name of 1 to 40 letters, digits, `_` and `-`");
        }
        if !declared.entry_points.contains(&spec.entry_point) {
            self.problem("entry_point", absent("a @compute entry point", &spec.entry_point, &declared.entry_points));
        }
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

    /// Tunables: overrides the WGSL declares, each with values, none named as a size dimension.
    fn tunables(&mut self, spec: &Spec, declared: &Declarations, size_names: &[String]) {
        for (name, values) in &spec.tunables.0 {
            let place = format!("tunables.{name}");
            if !declared.overrides.contains_key(name) {
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

    /// Buffers: each a storage array of group 0 the WGSL declares, of the element type given, written ones
    /// read_write, one output whose length depends on the size only.
    fn buffers(&mut self, spec: &Spec, declared: &Declarations, known: &[&str], size_names: &[String]) -> Vec<Buffer> {
        let mut buffers = Vec::new();
        for (i, b) in spec.buffers.iter().enumerate() {
            let place = format!("buffers[{i}] ({})", b.name);
            let written = b.element.trim();
            let element_text = written.strip_prefix("atomic<").and_then(|t| t.strip_suffix('>')).unwrap_or(written);
            let element = self.note(Element::parse(element_text).map_err(|m| Problem::at(format!("{place}.type"), m)));
            let (read_write, offset, stride) = self.buffer_declaration(&place, b, element, declared);
            if spec.buffers[..i].iter().any(|other| other.binding == b.binding) {
                self.problem(format!("{place}.binding"), format!("binding {} is given twice", b.binding));
            }
            if let (Some(Fill::Random([low, high])), Some(element)) = (&b.fill, element)
                && !(low < high || (!element.scalar.is_float() && low <= high))
            {
                self.problem(format!("{place}.fill"), "a random range is [low, high) with low < high");
            }
            let fill = self.filling(&format!("{place}.fill"), b, element, size_names);
            let length = self.expression(format!("{place}.length"), &b.length, known);
            let declaration = declared.binding(0, b.binding);
            let guarded =
                b.output && b.fill.is_none() && declaration.is_some_and(|d| !declared.length_read.contains(&d.name));
            if let (Some(element), Some(length)) = (element, length) {
                let (binding, name, output, written) = (b.binding, b.name.clone(), b.output, b.written);
                let stride = stride.unwrap_or(element.bytes());
                let buffer = Buffer {
                    binding,
                    name,
                    element,
                    length,
                    fill,
                    output,
                    written,
                    read_write,
                    offset,
                    stride,
                    guarded,
                };
                buffers.push(buffer);
            }
        }
        match spec.buffers.iter().filter(|b| b.output).count() {
            1 => {}
            0 => self.problem("buffers", "mark the buffer validation compares with \"output\": true"),
            _ => self.problem("buffers", "only one buffer is the output; mark the others \"written\""),
        }
        if let Some(output) = buffers.iter().find(|b| b.output)
            && output.per_configuration(size_names)
        {
            let message = "the output's length may depend on the size only: every configuration's output is compared with one reference";
            self.problem(format!("buffers ({}).length", output.name), message);
        }
        buffers
    }

    /// What a buffer holds before the kernel runs (inputs by default random in [-1, 1); an output without a
    /// fill is poisoned); a constant's value a number that fits its element, or an expression of the size.
    fn filling(
        &mut self,
        place: &str,
        b: &BufferSpec,
        element: Option<Element>,
        size_names: &[String],
    ) -> Option<Filling> {
        Some(match &b.fill {
            None if b.output => return None,
            None => Filling::Random([-1.0, 1.0]),
            Some(Fill::Zeros) => Filling::Zeros,
            Some(Fill::Iota) => Filling::Iota,
            Some(Fill::Random(range)) => Filling::Random(*range),
            Some(Fill::Constant(Number::Literal(value))) => {
                if let Some(Err(why)) = element.map(|e| encode(e.scalar, *value)) {
                    self.problem(place, why);
                }
                Filling::Constant(Value::Literal(*value))
            }
            Some(Fill::Constant(Number::Expression(text))) => {
                let sizes: Vec<&str> = size_names.iter().map(String::as_str).collect();
                Filling::Constant(Value::Expression(self.expression(place.into(), text, &sizes)?))
            }
        })
    }

    /// A buffer's declaration in the WGSL: a storage array of its element type (atomic or not; of structs
    /// whose every value is of that type; the last member of a struct), read_write where the kernel writes
    /// it. Whether the WGSL declares it read_write, the bytes before its array, and its stride where the
    /// WGSL's layout gives one.
    fn buffer_declaration(
        &mut self,
        place: &str,
        b: &BufferSpec,
        element: Option<Element>,
        declared: &Declarations,
    ) -> (bool, u64, Option<u64>) {
        let writes = b.output || b.written;
        let Some(binding) = declared.binding(0, b.binding) else {
            let message = format!("the WGSL declares no storage buffer at @group(0) @binding({})", b.binding);
            self.problem(format!("{place}.binding"), message);
            return (writes, 0, None);
        };
        let name = &binding.name;
        let read_write = match binding.space {
            Space::Storage { read_write } => read_write,
            Space::Uniform => {
                let message =
                    format!("`{name}` is a var<uniform>: describe it under \"uniforms\", with its fields' values");
                self.problem(format!("{place}.binding"), message);
                return (false, 0, None);
            }
            Space::Handle => {
                self.problem(
                    format!("{place}.binding"),
                    format!("`{name}` is a {}, not a storage buffer", binding.type_text),
                );
                return (false, 0, None);
            }
        };
        // An array (perhaps the runtime-sized end of a struct), or a single number or vector (a `vec2<u32>`
        // may be given as two u32s).
        let (array_element, single, offset) = match declared.resolve(&binding.ty) {
            Type::Array(element, _) => (Some(declared.resolve(element)), false, 0),
            Type::Named(name) => match runtime_array(declared, name) {
                Some((offset, element)) => (Some(declared.resolve(element)), false, offset),
                None => (None, false, 0),
            },
            single @ (Type::Scalar(_) | Type::Vector(..) | Type::Atomic(_)) => (Some(single), true, 0),
            _ => (None, false, 0),
        };
        match (array_element, element) {
            (None, _) => {
                let message = format!(
                    "`{name}` is declared {}; a buffer wgsweep fills is an array (or a struct ending in one) of f32, u32, i32, f16, vec2 or vec4 of them, atomics, or structs of one of them",
                    binding.type_text
                );
                self.problem(format!("{place}.binding"), message);
            }
            (Some(found), Some(element)) if !same_element(declared, found, element, single) => {
                let message = format!(
                    "`{name}` is declared {} in the WGSL: its elements are not {}",
                    binding.type_text, b.element
                );
                self.problem(format!("{place}.type"), message);
            }
            _ => {}
        }
        let atomic = matches!(array_element, Some(Type::Atomic(_)));
        if writes && !read_write {
            let message =
                format!("the kernel writes it, but `{name}` is declared var<storage, read>: make it read_write");
            self.problem(format!("{place}.binding"), message);
        } else if read_write && !writes && !atomic {
            let message = format!(
                "`{name}` is declared read_write: mark the buffer \"written\" (or \"output\") or declare it read"
            );
            self.problem(format!("{place}.binding"), message);
        }
        let stride = array_element.filter(|_| !single).and_then(|e| layout(declared, e).ok());
        (read_write, offset, stride.map(|l| l.size.div_ceil(l.align) * l.align))
    }

    /// Uniforms: each a var<uniform> of group 0 the WGSL declares, every value of its type given once (a
    /// number, or an expression of `known`), laid out as the WGSL lays it out.
    fn uniforms(&mut self, spec: &Spec, declared: &Declarations, known: &[&str]) -> Vec<Uniform> {
        let mut uniforms = Vec::new();
        for (i, u) in spec.uniforms.iter().enumerate() {
            let place = format!("uniforms[{i}]");
            if spec.buffers.iter().any(|b| b.binding == u.binding)
                || spec.uniforms[..i].iter().any(|o| o.binding == u.binding)
            {
                self.problem(format!("{place}.binding"), format!("binding {} is given twice", u.binding));
            }
            let binding = match declared.binding(0, u.binding) {
                Some(binding) if binding.space == Space::Uniform => binding,
                Some(binding) => {
                    let message = format!("`{}` at binding {} is not a var<uniform>", binding.name, u.binding);
                    self.problem(format!("{place}.binding"), message);
                    continue;
                }
                None => {
                    let message = format!("the WGSL declares no var<uniform> at @group(0) @binding({})", u.binding);
                    self.problem(format!("{place}.binding"), message);
                    continue;
                }
            };
            let is_struct = matches!(declared.resolve(&binding.ty), Type::Named(_));
            let path = if is_struct { "" } else { binding.name.as_str() };
            let laid_out = layout(declared, &binding.ty).and_then(|l| Ok((l, leaves(declared, &binding.ty, path, 0)?)));
            let Some((layout, leaves)) = self.note(laid_out.map_err(|m| Problem::at(format!("{place}.binding"), m)))
            else {
                continue;
            };
            let values = self.uniform_fields(&place, u, binding, &leaves, known);
            let size = layout.size.div_ceil(16) * 16;
            uniforms.push(Uniform { binding: u.binding, name: binding.name.clone(), size, values });
        }
        uniforms
    }

    /// The values of a uniform's fields, each of a field of its type, with every field given.
    fn uniform_fields(
        &mut self,
        place: &str,
        u: &UniformSpec,
        binding: &Binding,
        leaves: &[Leaf],
        known: &[&str],
    ) -> Vec<UniformValue> {
        let paths: Vec<&str> = leaves.iter().map(|leaf| leaf.path.as_str()).collect();
        let mut values = Vec::new();
        for (path, written) in &u.fields.0 {
            let place = format!("{place}.fields.{path}");
            let Some(leaf) = leaves.iter().find(|leaf| leaf.path == *path) else {
                let message =
                    format!("`{path}` is not a field of `{}` (its fields: {})", binding.name, paths.join(", "));
                self.problem(place, message);
                continue;
            };
            let numbers = match written {
                FieldValue::One(number) => std::slice::from_ref(number),
                FieldValue::List(numbers) => numbers.as_slice(),
            };
            if numbers.len() != leaf.offsets.len() {
                let count = leaf.offsets.len();
                self.problem(
                    &place,
                    format!("give {count} value(s), one for each {} of the field", leaf.scalar.name()),
                );
                continue;
            }
            for (number, &offset) in numbers.iter().zip(&leaf.offsets) {
                let value = match number {
                    Number::Literal(literal) => match encode(leaf.scalar, *literal) {
                        Ok(_) => Value::Literal(*literal),
                        Err(why) => {
                            self.problem(&place, why);
                            continue;
                        }
                    },
                    Number::Expression(text) => match self.expression(place.clone(), text, known) {
                        Some(expression) => Value::Expression(expression),
                        None => continue,
                    },
                };
                values.push(UniformValue { place: place.clone(), scalar: leaf.scalar, offset, value });
            }
        }
        let missing: Vec<&str> = paths.iter().copied().filter(|path| u.fields.get(path).is_none()).collect();
        if !missing.is_empty() {
            let message = format!("give a value to every field of `{}`; missing: {}", binding.name, missing.join(", "));
            self.problem(format!("{place}.fields"), message);
        }
        values
    }

    /// Every binding the measured and the reference entry points use is described (a buffer or a uniform)
    /// and in group 0: what would otherwise fail every configuration with "binding is missing from the
    /// pipeline layout".
    fn bindings_described(&mut self, spec: &Spec, declared: &Declarations) {
        let entry_points = std::iter::once(&spec.entry_point).chain(&spec.validation.reference);
        let mut used: Vec<&Binding> = entry_points.flat_map(|entry_point| declared.used_by(entry_point)).collect();
        used.sort_by_key(|b| (b.group, b.binding));
        used.dedup_by_key(|b| (b.group, b.binding));
        let described = |binding: u32| {
            spec.buffers.iter().any(|b| b.binding == binding) || spec.uniforms.iter().any(|u| u.binding == binding)
        };
        for b in used {
            let at = format!("@group({}) @binding({})", b.group, b.binding);
            let message = match b.space {
                _ if b.group != 0 => format!("`{}` is at {at}: wgsweep binds group 0 only", b.name),
                _ if described(b.binding) => continue,
                Space::Storage { .. } => {
                    format!("the kernel uses `{}` ({at}, {}): add it to \"buffers\"", b.name, b.type_text)
                }
                Space::Uniform => {
                    format!("the kernel uses `{}` ({at}, var<uniform> {}): add it to \"uniforms\"", b.name, b.type_text)
                }
                Space::Handle => {
                    format!(
                        "the kernel uses `{}` ({at}, {}), a binding a specification cannot describe",
                        b.name, b.type_text
                    )
                }
            };
            let section = if b.space == Space::Uniform { "uniforms" } else { "buffers" };
            self.problem(section, message);
        }
    }

    /// The dispatch grid (by default each size dimension over the workgroup's, rounded up), and the bytes,
    /// flops and workgroup memory a dispatch counts.
    fn counts(&mut self, spec: &Spec, known: &[&str], size_names: &[String], workgroup: &[String]) -> Counts {
        let default_grid: Vec<String> = size_names
            .iter()
            .take(3)
            .zip(workgroup)
            .map(|(size, dimension)| format!("ceil_div({size}, {dimension})"))
            .collect();
        let grid_texts = spec.grid.clone().unwrap_or(default_grid);
        if grid_texts.is_empty() || grid_texts.len() > 3 {
            self.problem("grid", "one to three expressions: workgroups along x, y and z");
        }
        let grid = self.expressions_of("grid", &grid_texts[..grid_texts.len().min(3)], known);
        let mut count = |name: &str, text: &Option<String>| {
            text.as_ref().and_then(|text| self.expression(name.into(), text, known))
        };
        let (bytes, flops) = (count("bytes", &spec.bytes), count("flops", &spec.flops));
        let workgroup_memory = count("workgroup_memory", &spec.workgroup_memory);
        Counts { grid, bytes, flops, workgroup_memory }
    }

    /// How the output is validated, and the reference entry point's own grid where one is given.
    fn validation(&mut self, spec: &Spec, declared: &Declarations, known: &[&str]) -> (Check, Option<Vec<Expression>>) {
        let validation = &spec.validation;
        let check = match &validation.reference {
            Some(entry_point) => {
                if !declared.entry_points.contains(entry_point) {
                    let message = absent("a @compute entry point", entry_point, &declared.entry_points);
                    self.problem("validation.reference", message);
                }
                Check::Reference { entry_point: entry_point.clone(), tolerance: validation.tolerance.unwrap_or(0.0) }
            }
            None => Check::Agreement { tolerance: validation.tolerance.unwrap_or(DEFAULT_AGREEMENT_TOLERANCE) },
        };
        let reference_grid = validation.grid.as_ref().map(|texts| {
            if texts.is_empty() || texts.len() > 3 {
                self.problem("validation.grid", "one to three expressions: workgroups along x, y and z");
            }
            self.expressions_of("validation.grid", &texts[..texts.len().min(3)], known)
        });
        if validation.reference.is_none() && validation.grid.is_some() {
            self.problem("validation.grid", "a grid for the reference entry point, but there is no reference");
        }
        if validation.tolerance.is_some_and(|t| !(t.is_finite() && t >= 0.0)) {
            self.problem("validation.tolerance", "a tolerance is a number from 0 up");
        }
        (check, reference_grid)
    }

    /// Evaluates every expression at every combination the restrictions admit (with WG_X swept, at every
    /// power of two up to 1024): a run then never meets an expression that fails.
    fn check_combinations(&mut self, kernel: &UserKernel, declared: &Declarations) {
        let combinations = kernel.combinations();
        if combinations > MAX_COMBINATIONS {
            let message =
                format!("{combinations} combinations of sizes and tunables; a kernel may have {MAX_COMBINATIONS}");
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
        for (i, (shape, values)) in shapes.iter().enumerate() {
            if shape.contains(&0) {
                self.problem("workgroup_size", format!("the shape at {} has a dimension of 0", shown(values)));
                return;
            }
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
        let mut admitted = 0;
        for index in 0..combinations {
            for workgroup in kernel.workgroup_shapes(1024) {
                let values = kernel.values(index, workgroup);
                match kernel.excluded_by(&values) {
                    Ok(Some(_)) => continue,
                    Ok(None) => admitted += 1,
                    Err(problem) => {
                        self.problems.push(problem);
                        return;
                    }
                }
                let counts = kernel
                    .buffers
                    .iter()
                    .map(|b| &b.length)
                    .chain(&kernel.grid)
                    .chain(&kernel.bytes)
                    .chain(&kernel.flops);
                let counts = counts.chain(&kernel.workgroup_memory).chain(kernel.constants.iter().map(|(_, e)| e));
                let counts = counts.chain(kernel.reference_grid.iter().flatten());
                for expression in counts {
                    if let Err(problem) = expression.count(&values) {
                        self.problems.push(problem);
                        return;
                    }
                }
                if let Err(problem) = overrides_fit(kernel, declared, &values) {
                    self.problems.push(problem);
                    return;
                }
                let fills = kernel.buffers.iter().filter_map(|b| Some((b.fill.as_ref()?, b.element.scalar)));
                if let Err(problem) =
                    fills.map(|(fill, scalar)| fill.constant(scalar, &values)).collect::<Result<Vec<_>, _>>()
                {
                    self.problems.push(problem);
                    return;
                }
                let uniforms = kernel.uniform_values(&values);
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

/// Every override's value at a configuration fits the type the WGSL gives it (a u32 constant of 2^32 would
/// otherwise fail every pipeline with "Source f64 value doesn't fit", naming no constant).
fn overrides_fit(kernel: &UserKernel, declared: &Declarations, values: &Values) -> Result<(), Problem> {
    for (name, value) in kernel.overrides(values)? {
        let Some(Some(scalar)) = declared.overrides.get(&name) else { continue };
        if let Err(why) = encode(*scalar, value) {
            let shown: Vec<String> = values.iter().map(|(n, v)| format!("{n}={v}")).collect();
            let section = if kernel.constants.iter().any(|(c, _)| *c == name) { "constants" } else { "tunables" };
            let message = format!("`{name}` is a {} in the WGSL; at {}: {why}", scalar.name(), shown.join(", "));
            return Err(Problem::at(format!("{section}.{name}"), message));
        }
    }
    Ok(())
}

/// Whether a WGSL array's element is the element a specification gives; of a `single` number or vector,
/// whether their scalars are the same; of a struct, whether each of its values is of the scalar given.
fn same_element(declared: &Declarations, found: &Type, element: Element, single: bool) -> bool {
    match found {
        Type::Scalar(scalar) | Type::Atomic(scalar) => element.lanes == 1 && *scalar == element.scalar,
        Type::Vector(lanes, scalar) => (single || *lanes == element.lanes) && *scalar == element.scalar,
        Type::Named(_) => {
            let values = leaves(declared, found, "", 0).unwrap_or_default();
            element.lanes == 1 && !values.is_empty() && values.iter().all(|v| v.scalar == element.scalar)
        }
        _ => false,
    }
}

/// "`TILE` is not an override the WGSL declares (it declares WG_X, EPI)".
fn absent(what: &str, name: &str, declared: &BTreeSet<String>) -> String {
    let list: Vec<&str> = declared.iter().map(String::as_str).collect();
    let list = if list.is_empty() { "none".to_string() } else { list.join(", ") };
    format!("`{name}` is not {what} the WGSL declares (it declares: {list})")
}
