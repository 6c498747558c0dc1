//! The buffers and uniforms of a specification, each against the WGSL's declaration at its binding.

use super::passes::declaration;
use super::{Checker, Problem};
use crate::spec::kernel::{Buffer, Filling, Uniform, UniformValue, Value, encode};
use crate::spec::layout::{Leaf, layout, leaves, runtime_array};
use crate::spec::schema::{BufferSpec, Element, FieldValue, Fill, Number, Spec, UniformSpec};
use crate::spec::wgsl::{Binding, Declarations, Space, Type};

impl Checker {
    /// Buffers: each a storage array the WGSL declares (at its group and binding, or where passes bind it),
    /// of the element type given, written ones read_write, one output whose length depends on the size only.
    pub(super) fn buffers(
        &mut self,
        spec: &Spec,
        declared: &Declarations,
        known: &[&str],
        size_names: &[String],
    ) -> Vec<Buffer> {
        let mut buffers = Vec::new();
        for (i, b) in spec.buffers.iter().enumerate() {
            let place = format!("buffers[{i}] ({})", b.name);
            let element = self.note(parse_element(&b.element).map_err(|m| Problem::at(format!("{place}.type"), m)));
            let declaration = declaration(spec, declared, &b.name);
            let (read_write, offset, stride) = self.buffer_declaration(&place, b, element, declaration, declared);
            if spec.buffers[..i].iter().any(|other| other.name == b.name) {
                self.problem(format!("{place}.name"), format!("another buffer is named `{}`", b.name));
            }
            if let (Some(Fill::Random([low, high])), Some(element)) = (&b.fill, element)
                && !(low < high || (!element.scalar.is_float() && low <= high))
            {
                self.problem(format!("{place}.fill"), "a random range is [low, high) with low < high");
            } else if let (Some(Fill::Random([low, high])), Some(element)) = (&b.fill, element) {
                let (least, most, said) = element.scalar.values();
                if !(*low >= least && *high <= most) {
                    let shown = |x: f64| if x.abs() >= 1e9 { format!("{x:e}") } else { format!("{x}") };
                    let (name, range) = (element.scalar.name(), format!("[{}, {}]", shown(*low), shown(*high)));
                    self.problem(format!("{place}.fill"), format!("{range} holds values no {name} holds: {said}"));
                }
            }
            let fill = self.filling(&format!("{place}.fill"), b, element, size_names);
            let length = self.expression(format!("{place}.length"), &b.length, known);
            // A guard (`Buffer::guarded`) where no variable the buffer is bound at reads its arrayLength,
            // which the guard would lengthen: after the output (poisoned, written nowhere) or an input.
            let passes_bind = spec.binds().filter(|(_, to)| **to == b.name);
            let mut bound_at =
                declaration.map(|d| d.name.as_str()).into_iter().chain(passes_bind.map(|(v, _)| v.as_str()));
            let length_unread = declaration.is_some() && bound_at.all(|v| !declared.length_read.contains(v));
            let guarded = length_unread
                && match b.output {
                    true => b.fill.is_none(),
                    false => !b.written && !read_write,
                };
            if let (Some(element), Some(length)) = (element, length) {
                let (binding, name, output, written) = (b.binding, b.name.clone(), b.output, b.written);
                let stride = stride.unwrap_or(element.bytes());
                let buffer = Buffer {
                    group: b.group,
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
        let outputs =
            spec.buffers.iter().filter(|b| b.output).count() + spec.textures.iter().filter(|t| t.output).count();
        match outputs {
            1 => {}
            0 => self.problem("buffers", "mark the buffer (or texture) validation compares with \"output\": true"),
            _ => {
                self.problem("buffers", "only one buffer or texture is the output; mark the other buffers \"written\"")
            }
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
            Some(Fill::Iota(None)) => Filling::Iota(None),
            Some(Fill::Iota(Some(Number::Literal(modulus)))) => {
                let filling = Filling::Iota(Some(Value::Literal(*modulus)));
                if let Err(problem) = filling.modulus(&Vec::new()) {
                    self.problem(place, problem.message);
                }
                filling
            }
            Some(Fill::Iota(Some(Number::Expression(text)))) => {
                let sizes: Vec<&str> = size_names.iter().map(String::as_str).collect();
                Filling::Iota(Some(Value::Expression(self.expression(place.into(), text, &sizes)?)))
            }
            Some(Fill::Random(range)) => Filling::Random(*range),
            Some(Fill::Constant(number)) => Filling::Constant(self.element_value(place, number, element, size_names)?),
            Some(Fill::Values(listed)) => {
                let mut values = Vec::new();
                for (i, number) in listed.iter().enumerate() {
                    values.push(self.element_value(&format!("{place}.values[{i}]"), number, element, size_names)?);
                }
                Filling::Values(values)
            }
        })
    }

    /// A value a fill puts in an element: a number that fits the element's type, or an expression of the
    /// size's dimensions (`None`, with the problem noted, where it is neither).
    fn element_value(
        &mut self,
        place: &str,
        number: &Number,
        element: Option<Element>,
        size_names: &[String],
    ) -> Option<Value> {
        match number {
            Number::Literal(value) => {
                if let Some(Err(why)) = element.map(|e| encode(e.scalar, *value)) {
                    self.problem(place, why);
                }
                Some(Value::Literal(*value))
            }
            Number::Expression(text) => {
                let sizes: Vec<&str> = size_names.iter().map(String::as_str).collect();
                Some(Value::Expression(self.expression(place.into(), text, &sizes)?))
            }
        }
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
        declaration: Option<&Binding>,
        declared: &Declarations,
    ) -> (bool, u64, Option<u64>) {
        let writes = b.output || b.written;
        let Some(binding) = declaration else {
            let message = match b.binding {
                Some(binding) => {
                    format!("the WGSL declares no storage buffer at @group({}) @binding({binding})", b.group)
                }
                None => "give its binding, or bind it in a pass (\"bind\")".into(),
            };
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
        if b.binding.is_none() {
            // Bound by passes alone: each place it is bound at is checked where it is bound (`Checker::bind`).
        } else if writes && !read_write {
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

    /// Uniforms: each a var<uniform> the WGSL declares at its group and binding, every value of its type given once (a
    /// number, or an expression of `known`), laid out as the WGSL lays it out.
    pub(super) fn uniforms(&mut self, spec: &Spec, declared: &Declarations, known: &[&str]) -> Vec<Uniform> {
        let mut uniforms = Vec::new();
        for (i, u) in spec.uniforms.iter().enumerate() {
            let place = format!("uniforms[{i}]");
            let binding = match declared.binding(u.group, u.binding) {
                Some(binding) if binding.space == Space::Uniform => binding,
                Some(binding) => {
                    let message = format!("`{}` at binding {} is not a var<uniform>", binding.name, u.binding);
                    self.problem(format!("{place}.binding"), message);
                    continue;
                }
                None => {
                    let message =
                        format!("the WGSL declares no var<uniform> at @group({}) @binding({})", u.group, u.binding);
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
            let (group, name) = (u.group, binding.name.clone());
            uniforms.push(Uniform { group, binding: u.binding, name, size, values });
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
}

/// A buffer's element type as written: a scalar or vector, perhaps atomic (`atomic<u32>`).
pub(super) fn parse_element(written: &str) -> Result<Element, String> {
    let written = written.trim();
    Element::parse(written.strip_prefix("atomic<").and_then(|t| t.strip_suffix('>')).unwrap_or(written))
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
