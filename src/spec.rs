//! A kernel a person brings: WGSL and the specification that says how to run it (docs/your-kernel.md).
//!
//! The specification is JSON, in a file of its own or in a `/* wgsweep … */` comment that opens the WGSL.
//! It names the buffers (binding, element type, length, initial contents), the problem sizes, the
//! tunables (override constants, each with its values, and restrictions between them), the dispatch grid,
//! the bytes and flops a dispatch counts, and how the output is validated. Lengths, the grid, the counts
//! and restrictions are expressions of the size's variables and the tunables, evaluated by `nanoexpr` in
//! 64-bit integers: an overflow or a division by zero is an error, never a wrapped number. Everything is
//! checked when the kernel is read, at every combination, so that a run never meets a bad expression.

use std::collections::BTreeSet;
use std::fmt;

use nanoexpr::{ErrorKind, Functions, Variables};
use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The most WGSL and specification a kernel may have together, in bytes: a share link carries both.
pub const MAX_SOURCE_BYTES: usize = 48 << 10;
/// The most combinations of sizes and tunables (the workgroup shape aside) a kernel may have.
pub const MAX_COMBINATIONS: usize = 4096;
/// The problem size where the specification names none: 2^24 elements (64 MiB of f32).
pub const DEFAULT_SIZE: u64 = 1 << 24;
/// The tunables that set the workgroup's shape (`@workgroup_size(WG_X, WG_Y, WG_Z)`) where the
/// specification does not say otherwise in "workgroup_size".
pub const WORKGROUP_TUNABLES: [&str; 3] = ["WG_X", "WG_Y", "WG_Z"];
/// The tolerance of validation by agreement where the specification states none: the configurations may
/// add in different orders.
pub const DEFAULT_AGREEMENT_TOLERANCE: f64 = 1e-5;

/// A list of names with a value each, kept in the order written (a JSON object).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ordered<T>(pub Vec<(String, T)>);

impl<T> Ordered<T> {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn get(&self, name: &str) -> Option<&T> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(n, _)| n.as_str())
    }
}

impl<T> Ordered<T> {
    /// Names and values written in code (`Ordered::of(&[("N", "n")])`).
    pub fn of<V: Clone + Into<T>>(entries: &[(&str, V)]) -> Ordered<T> {
        Ordered(entries.iter().map(|(name, value)| (name.to_string(), value.clone().into())).collect())
    }
}

/// Expressions written in code, as a specification holds them.
pub fn expressions(texts: &[&str]) -> Vec<String> {
    texts.iter().map(|text| text.to_string()).collect()
}

impl<T: Serialize> Serialize for Ordered<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Ordered<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct InOrder<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for InOrder<T> {
            type Value = Ordered<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut entries: Vec<(String, T)> = Vec::new();
                while let Some((name, value)) = map.next_entry::<String, T>()? {
                    if entries.iter().any(|(n, _)| *n == name) {
                        return Err(serde::de::Error::custom(format!("`{name}` is given twice")));
                    }
                    entries.push((name, value));
                }
                Ok(Ordered(entries))
            }
        }
        deserializer.deserialize_map(InOrder(std::marker::PhantomData))
    }
}

/// The specification, as written.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    /// The kernel's name in tables, links and the gallery: letters, digits, `_` and `-`.
    pub name: String,
    /// The entry point measured.
    #[serde(default = "main_entry_point")]
    pub entry_point: String,
    pub buffers: Vec<BufferSpec>,
    /// The problem sizes: numbers (the variable `n`) or objects of named dimensions (`{"w": 4096, "h": 2048}`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sizes: Vec<Size>,
    /// Override constants and the values each takes; `WG_X`, `WG_Y` and `WG_Z` are the workgroup's shape.
    #[serde(default, skip_serializing_if = "Ordered::is_empty")]
    pub tunables: Ordered<Vec<u32>>,
    /// Conditions a combination must meet to run (`WG_X * WG_Y <= 256`); one that does not is skipped.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub restrictions: Vec<String>,
    /// Further override constants, as expressions (`{"N": "n"}`).
    #[serde(default, skip_serializing_if = "Ordered::is_empty")]
    pub constants: Ordered<String>,
    /// The workgroup's shape along x, y and z: numbers, or expressions of the tunables its
    /// `@workgroup_size` overrides name (`["blockSize", "blockSize"]`). By default WG_X, WG_Y and WG_Z.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workgroup_size: Option<Vec<Dimension>>,
    /// Workgroups along x, y and z; by default each size dimension over the workgroup's, rounded up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid: Option<Vec<String>>,
    /// Bytes one dispatch reads and writes, for GB/s; by default every buffer once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<String>,
    /// Floating-point operations one dispatch does (an FMA counts two), for GFLOP/s and the roofline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flops: Option<String>,
    /// Workgroup memory one workgroup uses, in bytes, so that a shape over the device's limit is skipped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workgroup_memory: Option<String>,
    #[serde(default)]
    pub validation: ValidationSpec,
}

impl Spec {
    /// A specification of `name` that measures `entry_point` of WGSL holding `buffers`, the rest left to
    /// its defaults: what a built-in family fills in to open one of its kernels as a user's.
    pub fn new(name: impl Into<String>, entry_point: impl Into<String>, buffers: Vec<BufferSpec>) -> Spec {
        Spec { name: name.into(), entry_point: entry_point.into(), buffers, ..Spec::default() }
    }

    /// `wgsl` opened by this specification in its leading comment, with `about` (comment lines) between.
    pub fn open(&self, about: &str, wgsl: &str) -> String {
        let spec = serde_json::to_string_pretty(self).expect("a specification is plain data");
        format!("/* {LEADING_COMMENT}\n{spec}\n*/\n{about}{wgsl}")
    }
}

/// One dimension of the workgroup's shape, as written: a number or an expression.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Dimension {
    Size(u32),
    Expression(String),
}

impl Dimension {
    fn text(&self) -> String {
        match self {
            Dimension::Size(size) => size.to_string(),
            Dimension::Expression(text) => text.clone(),
        }
    }
}

fn main_entry_point() -> String {
    "main".into()
}

/// One problem size: its dimensions by name.
#[derive(Clone, Debug, PartialEq)]
pub struct Size(pub Ordered<u64>);

impl Size {
    /// A size of one dimension, `n`.
    pub fn n(n: u64) -> Size {
        Size(Ordered(vec![("n".into(), n)]))
    }

    pub fn named(dimensions: &[(&str, u64)]) -> Size {
        Size(Ordered(dimensions.iter().map(|&(name, value)| (name.to_string(), value)).collect()))
    }
}

impl Serialize for Size {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0.0.as_slice() {
            [(name, n)] if name == "n" => serializer.serialize_u64(*n),
            _ => self.0.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for Size {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Written {
            N(u64),
            Named(Ordered<u64>),
        }
        match Written::deserialize(deserializer)
            .map_err(|_| serde::de::Error::custom("a size is a number or an object of named dimensions"))?
        {
            Written::N(n) => Ok(Size(Ordered(vec![("n".into(), n)]))),
            Written::Named(named) => Ok(Size(named)),
        }
    }
}

/// One storage buffer of group 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BufferSpec {
    pub binding: u32,
    pub name: String,
    /// The array's element type: f32, u32, i32, f16, or vec2/vec4 of them (`vec4<f32>`, `vec4f`).
    #[serde(rename = "type")]
    pub element: String,
    /// Elements in the array, as an expression.
    pub length: String,
    /// What it holds before the kernel runs; random in [-1, 1) unless it is the output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fill: Option<Fill>,
    /// The buffer validation compares (exactly one); the kernel writes it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub output: bool,
    /// The kernel writes it too, but it is not compared (scratch, partial results).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub written: bool,
}

impl BufferSpec {
    /// A buffer the kernel reads, random in [-1, 1) as the default fill makes it.
    pub fn new(binding: u32, name: &str, element: &str, length: impl Into<String>) -> BufferSpec {
        let (name, element, length) = (name.into(), element.into(), length.into());
        BufferSpec { binding, name, element, length, fill: None, output: false, written: false }
    }

    pub fn filled(self, fill: Fill) -> BufferSpec {
        BufferSpec { fill: Some(fill), ..self }
    }

    /// The buffer validation compares.
    pub fn output(self) -> BufferSpec {
        BufferSpec { output: true, ..self }
    }
}

/// A buffer's initial contents.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Fill {
    Zeros,
    /// Element i holds i.
    Iota,
    /// Uniformly random in [low, high) (floats) or [low, high] (integers).
    Random([f64; 2]),
    Constant(f64),
}

/// How every configuration's output is validated.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValidationSpec {
    /// An entry point of the same WGSL, the author's simple version, run once at the first combination:
    /// its output is the reference. Without one, every configuration must agree with the first that ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// Floats may differ from the reference by this much relative to its magnitude (at least 1):
    /// |found − want| ≤ tolerance × max(|want|, 1). Integers must match exactly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<f64>,
    /// The reference entry point's grid, where it differs from the kernel's (one element per invocation
    /// where the kernel does several).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid: Option<Vec<String>>,
}

/// A scalar type of a buffer's elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    F32,
    U32,
    I32,
    F16,
}

impl Scalar {
    pub fn bytes(self) -> u64 {
        if self == Scalar::F16 { 2 } else { 4 }
    }

    pub fn is_float(self) -> bool {
        matches!(self, Scalar::F32 | Scalar::F16)
    }
}

/// A buffer's element type: a scalar, or a vector of 2 or 4 of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Element {
    pub scalar: Scalar,
    pub lanes: u64,
}

impl Element {
    pub fn parse(text: &str) -> Result<Element, String> {
        let scalar = |s: &str| match s {
            "f32" | "f" => Some(Scalar::F32),
            "u32" | "u" => Some(Scalar::U32),
            "i32" | "i" => Some(Scalar::I32),
            "f16" | "h" => Some(Scalar::F16),
            _ => None,
        };
        let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let parsed = match text.strip_prefix("vec") {
            None => scalar(&text).filter(|_| text.len() == 3).map(|s| (s, 1)),
            Some(rest) => {
                let lanes = rest.chars().next().and_then(|c| c.to_digit(10)).unwrap_or(0) as u64;
                let inner = &rest[1.min(rest.len())..];
                let inner = inner.strip_prefix('<').and_then(|i| i.strip_suffix('>')).unwrap_or(inner);
                scalar(inner).filter(|_| lanes == 2 || lanes == 4).map(|s| (s, lanes))
            }
        };
        let (scalar, lanes) = parsed.ok_or_else(|| {
            format!("`{text}` is not an element type wgsweep fills: f32, u32, i32, f16, or vec2/vec4 of them")
        })?;
        Ok(Element { scalar, lanes })
    }

    pub fn bytes(self) -> u64 {
        self.scalar.bytes() * self.lanes
    }
}

/// A problem that names the place in the specification it concerns ("buffers[2].length", "line 4,
/// column 7" of the WGSL) and says what is wrong there.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub place: String,
    pub message: String,
}

impl Problem {
    fn at(place: impl Into<String>, message: impl Into<String>) -> Self {
        Problem { place: place.into(), message: message.into() }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.place, self.message)
    }
}

/// An expression of the specification: integers, the size's dimensions and the tunables as variables, the
/// operators `+ - * / %` (integer division and remainder), comparisons, `&& || !` and `c ? a : b`, and the
/// functions `ceil_div(a, b)`, `min(a, b)` and `max(a, b)`.
#[derive(Clone, Debug)]
pub struct Expression {
    /// Where it stands in the specification ("grid[0]").
    pub place: String,
    pub text: String,
}

/// The values of the variables at one configuration: the size's dimensions, then the tunables.
pub type Values = Vec<(String, i64)>;

/// The functions an expression may call.
fn call(name: &str, arguments: &[i64]) -> Option<Result<i64, ErrorKind>> {
    let &[a, b] = arguments else {
        return ["ceil_div", "min", "max"].contains(&name).then_some(Err(ErrorKind::ArgumentCount));
    };
    match name {
        "ceil_div" if b == 0 => Some(Err(ErrorKind::DivisionByZero)),
        "ceil_div" => Some(Ok(a.div_euclid(b) + i64::from(a.rem_euclid(b) != 0))),
        "min" => Some(Ok(a.min(b))),
        "max" => Some(Ok(a.max(b))),
        _ => None,
    }
}

impl Expression {
    /// Checks `text` at once for what no value of the variables mends: its syntax, names that are neither
    /// among `known` nor a function (arithmetic is checked at every combination, `check_combinations`).
    fn parse(place: String, text: &str, known: &[&str]) -> Result<Expression, Problem> {
        let probe: Values = known.iter().map(|name| (name.to_string(), 1)).collect();
        let expression = Expression { place, text: text.into() };
        match expression.evaluate(&probe) {
            Err(error) if error.kind == ErrorKind::UnknownVariable => {
                let name = &text[error.span.start..error.span.end];
                let message =
                    format!("`{text}` names `{name}`, which is neither a size nor a tunable ({})", known.join(", "));
                Err(Problem::at(&expression.place, message))
            }
            Err(error) if !matches!(error.kind, ErrorKind::DivisionByZero | ErrorKind::Overflow) => {
                let at = &text[error.span.start.min(text.len())..error.span.end.min(text.len())];
                Err(Problem::at(&expression.place, format!("`{text}`: {} at `{at}`", error.kind)))
            }
            _ => Ok(expression),
        }
    }

    fn evaluate(&self, values: &Values) -> Result<i64, nanoexpr::Error> {
        let variables = Variables(|name: &str| values.iter().find(|(n, _)| n == name).map(|(_, v)| *v));
        let context = (variables, Functions(call));
        nanoexpr::evaluate_with(&self.text, &context)
    }

    fn failed(&self, values: &Values, error: impl fmt::Display) -> Problem {
        let at: Vec<String> = values.iter().map(|(n, v)| format!("{n}={v}")).collect();
        Problem::at(&self.place, format!("`{}` at {}: {error}", self.text, at.join(", ")))
    }

    /// Its value as a count: a whole number from 0 up to 2^53 (what a result's figures hold exactly).
    pub fn count(&self, values: &Values) -> Result<u64, Problem> {
        let value = self.evaluate(values).map_err(|e| self.failed(values, e.kind))?;
        u64::try_from(value)
            .ok()
            .filter(|&v| v <= 1 << 53)
            .ok_or_else(|| self.failed(values, format!("{value} is not a count from 0 to 2^53")))
    }

    /// Whether a restriction holds (a value other than 0).
    pub fn holds(&self, values: &Values) -> Result<bool, Problem> {
        self.evaluate(values).map(|v| v != 0).map_err(|e| self.failed(values, e.kind))
    }

    /// The variables it names: the words of its text that are neither numbers nor functions.
    fn variables(&self) -> impl Iterator<Item = &str> {
        let words = self.text.split(|c: char| !(c.is_alphanumeric() || c == '_'));
        words.filter(|w| {
            w.starts_with(|c: char| c.is_alphabetic() || c == '_') && !matches!(*w, "ceil_div" | "min" | "max")
        })
    }
}

/// A buffer, checked.
#[derive(Clone, Debug)]
pub struct Buffer {
    pub binding: u32,
    pub name: String,
    pub element: Element,
    pub length: Expression,
    /// What it holds before the kernel runs: `None` for an output poisoned before validation.
    pub fill: Option<Fill>,
    pub output: bool,
    pub written: bool,
}

impl Buffer {
    /// Whether its length depends on a tunable, so that each configuration makes its own.
    pub fn per_configuration(&self, sizes: &[String]) -> bool {
        self.length.variables().any(|v| !sizes.iter().any(|s| s == v))
    }
}

/// One axis of a kernel's combinations: the sizes, or a tunable other than the workgroup's shape.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    pub name: String,
    /// How each value is shown ("n=16777216", "TILE=16").
    pub labels: Vec<String>,
    /// Whether the auto-tuner searches along it (the sizes are not searched).
    pub tuned: bool,
}

/// How validation finds the right answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Check {
    /// Run this entry point once, at the first combination, into a buffer of its own.
    Reference { entry_point: String, tolerance: f64 },
    /// Every configuration against the first that ran.
    Agreement { tolerance: f64 },
}

/// A user's kernel, read and checked: ready to become a family (`kernels::user`).
#[derive(Clone, Debug)]
pub struct UserKernel {
    pub source: String,
    pub spec: Spec,
    /// A digest of the source and the specification (16 hex digits): the kernel's identity in results,
    /// links and the gallery.
    pub digest: String,
    pub buffers: Vec<Buffer>,
    /// The size variables' names, from the first size.
    pub size_names: Vec<String>,
    /// The values of each size, in `size_names` order.
    pub sizes: Vec<Vec<u64>>,
    /// The tunables other than the workgroup's shape, in the order written.
    pub tunables: Vec<(String, Vec<u32>)>,
    /// The workgroup's shape along x (and y, z): expressions of `shape_tunables`.
    pub workgroup: Vec<Expression>,
    /// The tunables the workgroup's shape names, with their values; no values for a WG_X the
    /// specification does not list, which is swept over every power of two the device allows.
    pub shape_tunables: Vec<(String, Vec<u32>)>,
    pub restrictions: Vec<Expression>,
    pub constants: Vec<(String, Expression)>,
    pub grid: Vec<Expression>,
    pub bytes: Option<Expression>,
    pub flops: Option<Expression>,
    pub workgroup_memory: Option<Expression>,
    pub check: Check,
    /// The reference entry point's own grid, where the specification gives one.
    pub reference_grid: Option<Vec<Expression>>,
}

/// Where the specification of a WGSL file without one is: a block comment that opens the file and starts
/// with this word.
pub const LEADING_COMMENT: &str = "wgsweep";

/// The specification in the WGSL's leading `/* wgsweep … */` comment, where it has one.
pub fn leading_spec(source: &str) -> Option<&str> {
    split_leading_spec(source).map(|(spec, _)| spec)
}

/// The specification in the WGSL's leading comment and the WGSL after it: what the page shows side by
/// side, and what a kernel's digest is taken of, so that a file and its two halves pasted into the page
/// are the same kernel.
pub fn split_leading_spec(source: &str) -> Option<(&str, &str)> {
    let body = source.trim_start().strip_prefix("/*")?.trim_start().strip_prefix(LEADING_COMMENT)?;
    let end = body.find("*/")?;
    Some((&body[..end], body[end + 2..].trim_start()))
}

impl UserKernel {
    /// Reads a kernel: `spec` where given, else the WGSL's leading comment. Every problem found, each at
    /// its place, or the kernel.
    pub fn read(source: &str, spec: Option<&str>) -> Result<UserKernel, Vec<Problem>> {
        // The digest is of the WGSL without a specification's leading comment, which a file may carry or
        // not (a specification given beside it takes its place).
        let leading = split_leading_spec(source);
        let body = leading.map_or(source, |(_, rest)| rest);
        let Some(spec_text) = spec.or(leading.map(|(text, _)| text)) else {
            let message = "no specification: give one, or open the WGSL with a /* wgsweep { … } */ comment";
            return Err(vec![Problem::at("spec", message)]);
        };
        if body.len() + spec_text.len() > MAX_SOURCE_BYTES {
            let message = format!(
                "the WGSL and the specification take {} bytes together; a kernel may take {MAX_SOURCE_BYTES}",
                body.len() + spec_text.len()
            );
            return Err(vec![Problem::at("source", message)]);
        }
        let spec: Spec = serde_json::from_str(spec_text)
            .map_err(|e| vec![Problem::at(format!("spec, line {}, column {}", e.line(), e.column()), e.to_string())])?;
        let digest = digest(body, spec_text.trim());
        Checker::default().check(source, spec, digest)
    }

    /// Combinations of sizes and tunables: the values of the family's parameter.
    pub fn combinations(&self) -> usize {
        self.lengths().iter().product()
    }

    /// How many values each axis of the combinations has (`axes`, without making their labels): what
    /// every configuration's position is worked out from.
    fn lengths(&self) -> Vec<usize> {
        std::iter::once(self.sizes.len()).chain(self.tunables.iter().map(|(_, values)| values.len())).collect()
    }

    /// The axes of the combinations, the slowest first: the sizes, then each tunable but the workgroup's.
    pub fn axes(&self) -> Vec<Axis> {
        let size_label = |values: &Vec<u64>| {
            let parts: Vec<String> = self.size_names.iter().zip(values).map(|(n, v)| format!("{n}={v}")).collect();
            parts.join(" ")
        };
        let mut axes =
            vec![Axis { name: "size".into(), labels: self.sizes.iter().map(size_label).collect(), tuned: false }];
        axes.extend(self.tunables.iter().map(|(name, values)| Axis {
            name: name.clone(),
            labels: values.iter().map(|v| format!("{name}={v}")).collect(),
            tuned: true,
        }));
        axes
    }

    /// The index along each axis of combination `index` (mixed radix, the first axis slowest).
    pub fn position(&self, index: usize) -> Vec<usize> {
        position(&self.lengths(), index)
    }

    /// The variables' values at combination `index` and workgroup shape `workgroup`.
    pub fn values(&self, index: usize, workgroup: [u32; 3]) -> Values {
        let at = self.position(index);
        let mut values: Values =
            self.size_names.iter().zip(&self.sizes[at[0]]).map(|(n, &v)| (n.clone(), v as i64)).collect();
        for ((name, list), &i) in self.tunables.iter().zip(&at[1..]) {
            values.push((name.clone(), list[i] as i64));
        }
        // The shape's tunables: those that make this shape (1024 covers any shape a device runs).
        let shapes = self.shapes(workgroup[0].max(1024));
        if let Some((_, of_shape)) = shapes.into_iter().find(|(shape, _)| *shape == workgroup) {
            values.extend(of_shape);
        }
        values
    }

    /// Every combination of the values of the tunables that make the workgroup's shape; a WG_X the
    /// specification does not list takes every power of two up to `largest`.
    fn shape_values(&self, largest: u32) -> Vec<Values> {
        let lists: Vec<Vec<u32>> = self
            .shape_tunables
            .iter()
            .map(|(_, values)| match values.is_empty() {
                true => (0..32).map(|p| 1u32 << p).take_while(|&s| s <= largest.max(1)).collect(),
                false => values.clone(),
            })
            .collect();
        let lengths: Vec<usize> = lists.iter().map(Vec::len).collect();
        let combinations: usize = lengths.iter().product();
        let names = self.shape_tunables.iter().map(|(name, _)| name);
        (0..combinations)
            .map(|index| {
                names
                    .clone()
                    .zip(&lists)
                    .zip(position(&lengths, index))
                    .map(|((n, l), i)| (n.clone(), l[i] as i64))
                    .collect()
            })
            .collect()
    }

    /// The workgroup's shape where its tunables take `values`.
    fn shape_of(&self, values: &Values) -> Result<[u32; 3], Problem> {
        let mut shape = [1u32; 3];
        for (axis, expression) in self.workgroup.iter().enumerate() {
            let size = expression.count(values)?;
            shape[axis] = u32::try_from(size).map_err(|_| expression.failed(values, "over 2^32 invocations"))?;
        }
        Ok(shape)
    }

    /// The workgroup shapes the kernel is swept over, each with the values of the tunables that make it.
    fn shapes(&self, largest: u32) -> Vec<([u32; 3], Values)> {
        self.shape_values(largest)
            .into_iter()
            .filter_map(|values| Some((self.shape_of(&values).ok()?, values)))
            .collect()
    }

    /// The workgroup shapes the kernel is swept over (`shapes`).
    pub fn workgroup_shapes(&self, largest: u32) -> Vec<[u32; 3]> {
        self.shapes(largest).into_iter().map(|(shape, _)| shape).collect()
    }

    /// The first restriction a configuration breaks, where it breaks one.
    pub fn excluded_by(&self, values: &Values) -> Result<Option<&Expression>, Problem> {
        for restriction in &self.restrictions {
            if !restriction.holds(values)? {
                return Ok(Some(restriction));
            }
        }
        Ok(None)
    }

    /// The override constants a configuration's pipeline sets: the tunables (the workgroup's shape among
    /// them), then the specification's constants.
    pub fn overrides(&self, values: &Values) -> Result<Vec<(String, f64)>, Problem> {
        let size_count = self.size_names.len();
        let mut overrides: Vec<(String, f64)> =
            values[size_count..].iter().map(|(n, v)| (n.clone(), *v as f64)).collect();
        for (name, expression) in &self.constants {
            overrides.push((name.clone(), expression.count(values)? as f64));
        }
        Ok(overrides)
    }

    /// The dispatch grid at a configuration.
    pub fn grid(&self, values: &Values) -> Result<[u64; 3], Problem> {
        grid_of(&self.grid, values)
    }

    /// The reference entry point's grid at a configuration: its own where the specification gives one.
    pub fn reference_grid(&self, values: &Values) -> Result<[u64; 3], Problem> {
        grid_of(self.reference_grid.as_ref().unwrap_or(&self.grid), values)
    }

    /// Bytes a dispatch moves at a configuration: the specification's count, or every buffer once.
    pub fn bytes(&self, values: &Values) -> Result<u64, Problem> {
        match &self.bytes {
            Some(bytes) => bytes.count(values),
            None => self.buffers.iter().map(|b| Ok(b.length.count(values)? * b.element.bytes())).sum(),
        }
    }

    /// The output buffer.
    pub fn output(&self) -> &Buffer {
        self.buffers.iter().find(|b| b.output).expect("a checked kernel has one output")
    }
}

/// Workgroups along x, y and z as `expressions` count them (1 along an axis they do not name).
fn grid_of(expressions: &[Expression], values: &Values) -> Result<[u64; 3], Problem> {
    let mut grid = [1; 3];
    for (axis, expression) in expressions.iter().enumerate() {
        grid[axis] = expression.count(values)?;
    }
    Ok(grid)
}

/// The index along each axis of `lengths` of combination `index`, the first axis slowest.
pub fn position(lengths: &[usize], mut index: usize) -> Vec<usize> {
    let mut at = vec![0; lengths.len()];
    for (axis, &length) in lengths.iter().enumerate().rev() {
        at[axis] = index % length.max(1);
        index /= length.max(1);
    }
    at
}

/// 16 hex digits of the SHA-256 of the WGSL and the specification, as written.
fn digest(source: &str, spec: &str) -> String {
    use sha2::Digest;
    let hash = sha2::Sha256::new().chain_update(source).chain_update([0]).chain_update(spec).finalize();
    hash[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// What the WGSL declares that a specification refers to, found in its text (comments left out).
#[derive(Debug, Default)]
pub struct Declarations {
    pub overrides: BTreeSet<String>,
    /// Each storage binding of group 0: its number, name and whether it is `read_write`.
    pub bindings: Vec<(u32, String, bool)>,
    pub entry_points: BTreeSet<String>,
}

impl Declarations {
    pub fn of(source: &str) -> Declarations {
        let code = without_comments(source);
        let tokens = tokens(&code);
        let mut found = Declarations::default();
        for (i, &token) in tokens.iter().enumerate() {
            let next = |k: usize| tokens.get(i + k).copied().unwrap_or("");
            match token {
                "override" => {
                    found.overrides.insert(next(1).to_string());
                }
                "@compute" => {
                    if let Some(at) = tokens[i..].iter().position(|&t| t == "fn") {
                        found.entry_points.insert(tokens.get(i + at + 1).copied().unwrap_or("").to_string());
                    }
                }
                "var" => {
                    // The attributes since the last declaration: @group(0) @binding(N), in either order.
                    let from = tokens[..i].iter().rposition(|&t| t == ";" || t == "}").map_or(0, |at| at + 1);
                    let attributes = &tokens[from..i];
                    let number = |name: &str| {
                        let at = attributes.iter().position(|&t| t == name)?;
                        attributes.get(at + 2)?.parse::<u32>().ok()
                    };
                    let (Some(0), Some(binding)) = (number("@group"), number("@binding")) else { continue };
                    if next(1) != "<" || next(2) != "storage" {
                        continue;
                    }
                    let close = tokens[i..].iter().position(|&t| t == ">").unwrap_or(0);
                    let read_write = tokens[i..i + close].contains(&"read_write");
                    found.bindings.push((
                        binding,
                        tokens.get(i + close + 1).copied().unwrap_or("").to_string(),
                        read_write,
                    ));
                }
                _ => {}
            }
        }
        found
    }
}

/// The source with its comments blanked out (line breaks kept).
fn without_comments(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut chars = source.chars().peekable();
    let mut depth = 0;
    while let Some(c) = chars.next() {
        match (c, chars.peek().copied()) {
            ('/', Some('*')) => {
                chars.next();
                depth += 1;
                out.push_str("  ");
            }
            ('*', Some('/')) if depth > 0 => {
                chars.next();
                depth -= 1;
                out.push_str("  ");
            }
            ('/', Some('/')) if depth == 0 => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            (c, _) if depth > 0 => out.push(if c == '\n' { '\n' } else { ' ' }),
            (c, _) => out.push(c),
        }
    }
    out
}

/// Identifiers (with a leading `@` for attributes), numbers and single punctuation characters.
fn tokens(code: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    let mut start = None;
    for (i, c) in code.char_indices() {
        let word = c.is_alphanumeric() || c == '_' || (c == '@' && start.is_none());
        match (word, start) {
            (true, None) => start = Some(i),
            (true, Some(_)) => {}
            (false, Some(s)) => {
                tokens.push(&code[s..i]);
                start = None;
            }
            (false, None) => {}
        }
        if !word && !c.is_whitespace() {
            tokens.push(&code[i..i + c.len_utf8()]);
        }
    }
    if let Some(s) = start {
        tokens.push(&code[s..]);
    }
    tokens
}

/// Collects every problem of a specification rather than stopping at the first.
#[derive(Default)]
struct Checker {
    problems: Vec<Problem>,
}

impl Checker {
    fn note<T>(&mut self, result: Result<T, Problem>) -> Option<T> {
        result.map_err(|p| self.problems.push(p)).ok()
    }

    fn problem(&mut self, place: impl Into<String>, message: impl Into<String>) {
        self.problems.push(Problem::at(place, message));
    }

    fn check(mut self, source: &str, spec: Spec, digest: String) -> Result<UserKernel, Vec<Problem>> {
        let declared = Declarations::of(source);
        let name_ok = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
        if spec.name.is_empty() || spec.name.len() > 40 || !spec.name.chars().all(name_ok) {
            self.problem("name", "a name of 1 to 40 letters, digits, `_` and `-`");
        }
        if !declared.entry_points.contains(&spec.entry_point) {
            self.problem("entry_point", absent("a @compute entry point", &spec.entry_point, &declared.entry_points));
        }

        // Sizes: every size names the same dimensions.
        let sizes = if spec.sizes.is_empty() {
            vec![Size(Ordered(vec![("n".into(), DEFAULT_SIZE)]))]
        } else {
            spec.sizes.clone()
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
        let size_values: Vec<Vec<u64>> = sizes.iter().map(|s| s.0.0.iter().map(|(_, v)| *v).collect()).collect();

        // Tunables: overrides the WGSL declares, each with values.
        for (name, values) in &spec.tunables.0 {
            let place = format!("tunables.{name}");
            if !declared.overrides.contains(name) {
                self.problem(&place, absent("an `override`", name, &declared.overrides));
            }
            if values.is_empty() {
                self.problem(&place, "give it at least one value");
            }
            if size_names.contains(name) {
                self.problem(&place, "a tunable may not share its name with a size dimension");
            }
        }
        // The workgroup's shape: the specification's, else WG_X (WG_Y, WG_Z) where they are tunables, else
        // WG_X over every power of two where the WGSL declares it.
        let listed = |name: &&str| spec.tunables.get(name).is_some();
        let workgroup_texts: Vec<String> = match &spec.workgroup_size {
            Some(dimensions) => dimensions.iter().map(Dimension::text).collect(),
            None => match WORKGROUP_TUNABLES.iter().rposition(&listed) {
                Some(last) => WORKGROUP_TUNABLES[..=last]
                    .iter()
                    .map(|n| if listed(n) { n.to_string() } else { "1".into() })
                    .collect(),
                None if declared.overrides.contains("WG_X") => vec!["WG_X".into()],
                None => {
                    let message = "say what sets the workgroup's shape: the WGSL declares no `override WG_X` \
                                   (@workgroup_size(WG_X)); name its override here (\"workgroup_size\": [\"blockSize\"]) \
                                   or give the sizes written in it (\"workgroup_size\": [64])";
                    self.problem("workgroup_size", message);
                    Vec::new()
                }
            },
        };
        if workgroup_texts.len() > 3 {
            self.problem("workgroup_size", "one to three dimensions: x, y and z");
        }
        let tunable_names: Vec<&str> =
            spec.tunables.names().chain(["WG_X"].into_iter().filter(|_| !listed(&"WG_X"))).collect();
        let workgroup: Vec<Expression> = workgroup_texts
            .iter()
            .take(3)
            .enumerate()
            .filter_map(|(axis, text)| {
                self.note(Expression::parse(format!("workgroup_size[{axis}]"), text, &tunable_names))
            })
            .collect();
        let named_by_shape = |name: &str| workgroup.iter().any(|w| w.variables().any(|v| v == name));
        let mut shape_tunables: Vec<(String, Vec<u32>)> =
            spec.tunables.0.iter().filter(|(name, _)| named_by_shape(name)).cloned().collect();
        if !listed(&"WG_X") && named_by_shape("WG_X") {
            shape_tunables.push(("WG_X".into(), Vec::new())); // every power of two the device allows
        }
        let tunables: Vec<(String, Vec<u32>)> =
            spec.tunables.0.iter().filter(|(name, _)| !named_by_shape(name)).cloned().collect();

        let mut known: Vec<&str> = size_names.iter().map(String::as_str).collect();
        known.extend(spec.tunables.names());
        if shape_tunables.iter().any(|(name, values)| name == "WG_X" && values.is_empty()) {
            known.push("WG_X");
        }
        let expression =
            |place: String, text: &str, checker: &mut Checker| checker.note(Expression::parse(place, text, &known));

        let restrictions: Vec<Expression> = spec
            .restrictions
            .iter()
            .enumerate()
            .filter_map(|(i, text)| expression(format!("restrictions[{i}]"), text, &mut self))
            .collect();
        let mut constants = Vec::new();
        for (name, text) in &spec.constants.0 {
            if !declared.overrides.contains(name) {
                self.problem(format!("constants.{name}"), absent("an `override`", name, &declared.overrides));
            }
            if spec.tunables.get(name).is_some() {
                self.problem(format!("constants.{name}"), "is a tunable too");
            }
            constants.extend(expression(format!("constants.{name}"), text, &mut self).map(|e| (name.clone(), e)));
        }

        // Buffers: each a storage binding of group 0 the WGSL declares, written ones read_write.
        let mut buffers = Vec::new();
        for (i, b) in spec.buffers.iter().enumerate() {
            let place = format!("buffers[{i}] ({})", b.name);
            let element = self.note(Element::parse(&b.element).map_err(|m| Problem::at(format!("{place}.type"), m)));
            match declared.bindings.iter().find(|(binding, ..)| *binding == b.binding) {
                None => self.problem(
                    format!("{place}.binding"),
                    format!("the WGSL declares no storage buffer at @group(0) @binding({})", b.binding),
                ),
                Some((_, name, false)) if b.output || b.written => self.problem(
                    format!("{place}.binding"),
                    format!("the kernel writes it, but `{name}` is declared var<storage, read>: make it read_write"),
                ),
                Some((_, name, true)) if !(b.output || b.written) => self.problem(
                    format!("{place}.binding"),
                    format!("`{name}` is declared read_write: mark the buffer \"written\" (or \"output\") or declare it read"),
                ),
                _ => {}
            }
            if spec.buffers[..i].iter().any(|other| other.binding == b.binding) {
                self.problem(format!("{place}.binding"), format!("binding {} is given twice", b.binding));
            }
            if let (Some(Fill::Random([low, high])), Some(element)) = (b.fill, element)
                && !(low < high || (!element.scalar.is_float() && low <= high))
            {
                self.problem(format!("{place}.fill"), "a random range is [low, high) with low < high");
            }
            let length = expression(format!("{place}.length"), &b.length, &mut self);
            if let (Some(element), Some(length)) = (element, length) {
                let fill = match (b.fill, b.output) {
                    (None, false) => Some(Fill::Random([-1.0, 1.0])),
                    (fill, _) => fill,
                };
                buffers.push(Buffer {
                    binding: b.binding,
                    name: b.name.clone(),
                    element,
                    length,
                    fill,
                    output: b.output,
                    written: b.written,
                });
            }
        }
        match spec.buffers.iter().filter(|b| b.output).count() {
            1 => {}
            0 => self.problem("buffers", "mark the buffer validation compares with \"output\": true"),
            _ => self.problem("buffers", "only one buffer is the output; mark the others \"written\""),
        }
        if let Some(output) = buffers.iter().find(|b| b.output)
            && output.per_configuration(&size_names)
        {
            let message = "the output's length may depend on the size only: every configuration's output is compared with one reference";
            self.problem(format!("buffers ({}).length", output.name), message);
        }

        // By default each size dimension over the workgroup's, rounded up.
        let default_grid: Vec<String> = size_names
            .iter()
            .take(3)
            .zip(&workgroup_texts)
            .map(|(size, dimension)| format!("ceil_div({size}, {dimension})"))
            .collect();
        let grid_texts = spec.grid.clone().unwrap_or(default_grid);
        if grid_texts.is_empty() || grid_texts.len() > 3 {
            self.problem("grid", "one to three expressions: workgroups along x, y and z");
        }
        let grid: Vec<Expression> = grid_texts
            .iter()
            .take(3)
            .enumerate()
            .filter_map(|(i, t)| expression(format!("grid[{i}]"), t, &mut self))
            .collect();
        let bytes = spec.bytes.as_ref().and_then(|t| expression("bytes".into(), t, &mut self));
        let flops = spec.flops.as_ref().and_then(|t| expression("flops".into(), t, &mut self));
        let workgroup_memory =
            spec.workgroup_memory.as_ref().and_then(|t| expression("workgroup_memory".into(), t, &mut self));

        let check = match &spec.validation.reference {
            Some(entry_point) => {
                if !declared.entry_points.contains(entry_point) {
                    self.problem(
                        "validation.reference",
                        absent("a @compute entry point", entry_point, &declared.entry_points),
                    );
                }
                Check::Reference {
                    entry_point: entry_point.clone(),
                    tolerance: spec.validation.tolerance.unwrap_or(0.0),
                }
            }
            None => Check::Agreement { tolerance: spec.validation.tolerance.unwrap_or(DEFAULT_AGREEMENT_TOLERANCE) },
        };
        let reference_grid = spec.validation.grid.as_ref().map(|texts| {
            if texts.is_empty() || texts.len() > 3 {
                self.problem("validation.grid", "one to three expressions: workgroups along x, y and z");
            }
            let grid = texts.iter().take(3).enumerate();
            grid.filter_map(|(i, t)| expression(format!("validation.grid[{i}]"), t, &mut self)).collect::<Vec<_>>()
        });
        if spec.validation.reference.is_none() && spec.validation.grid.is_some() {
            self.problem("validation.grid", "a grid for the reference entry point, but there is no reference");
        }
        if spec.validation.tolerance.is_some_and(|t| !(t.is_finite() && t >= 0.0)) {
            self.problem("validation.tolerance", "a tolerance is a number from 0 up");
        }

        if !self.problems.is_empty() {
            return Err(self.problems);
        }
        let kernel = UserKernel {
            source: source.into(),
            spec,
            digest,
            buffers,
            size_names,
            sizes: size_values,
            tunables,
            workgroup,
            shape_tunables,
            restrictions,
            constants,
            grid,
            bytes,
            flops,
            workgroup_memory,
            check,
            reference_grid,
        };
        self.check_combinations(&kernel);
        if self.problems.is_empty() { Ok(kernel) } else { Err(self.problems) }
    }

    /// Evaluates every expression at every combination the restrictions admit (with WG_X swept, at every
    /// power of two up to 1024): a run then never meets an expression that fails.
    fn check_combinations(&mut self, kernel: &UserKernel) {
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
            }
        }
        if admitted == 0 {
            self.problem("restrictions", "no combination of the tunables meets every restriction");
        }
    }
}

/// "`TILE` is not an override the WGSL declares (it declares WG_X, EPI)".
fn absent(what: &str, name: &str, declared: &BTreeSet<String>) -> String {
    let list: Vec<&str> = declared.iter().map(String::as_str).collect();
    let list = if list.is_empty() { "none".to_string() } else { list.join(", ") };
    format!("`{name}` is not {what} the WGSL declares (it declares: {list})")
}
