//! A user's kernel as checked: its buffers, axes, shapes and expressions, and what it says at each
//! configuration (values, overrides, grid, bytes).

use super::check::Checker;
use super::expression::{Expression, Problem, Values};
use super::schema::{Element, Scalar, Spec, TextureFill};
use super::{KernelText, MAX_SOURCE_BYTES, digest, split_leading_spec};

/// A buffer, checked.
#[derive(Clone, Debug)]
pub struct Buffer {
    pub group: u32,
    /// Its `@binding`, where it has one of its own (else passes bind it by name).
    pub binding: Option<u32>,
    pub name: String,
    pub element: Element,
    pub length: Expression,
    /// What it holds before the kernel runs: `None` for an output poisoned before validation.
    pub fill: Option<Filling>,
    pub output: bool,
    pub written: bool,
    /// Whether the WGSL declares it `read_write` (written, or read with atomics).
    pub read_write: bool,
    /// Bytes before its array (the members of a struct that ends in a runtime-sized array) and from one
    /// element to the next (a struct element's size with its padding; else the element's size).
    pub offset: u64,
    pub stride: u64,
    /// Whether it is bound with a guard of poison past its end (`GUARD_WORDS`), where the kernel bounds its
    /// accesses by something other than its `arrayLength` (which the guard would lengthen): the output's
    /// must stay untouched, and an input's makes a read past its end read NaNs.
    pub guarded: bool,
}

/// The 32-bit words of a guard past a buffer's declared end: a write there fails validation at its index,
/// and a float read there is a NaN, on every device (WebGPU may drop a write past a binding's end, or keep
/// it inside, and read zeros or another element).
pub const GUARD_WORDS: u64 = 1024;

impl Buffer {
    /// Its size in bytes at a configuration, rounded up to whole words.
    pub fn bytes(&self, values: &Values) -> Result<u64, Problem> {
        Ok((self.offset + self.length.count(values)? * self.stride).div_ceil(4) * 4)
    }

    /// Whether its length depends on a tunable, so that each configuration makes its own.
    pub fn per_configuration(&self, sizes: &[String]) -> bool {
        self.length.variables().any(|v| !sizes.iter().any(|s| s == v))
    }
}

/// A buffer's initial contents, checked: a constant's expression names the size's dimensions only, so that
/// every configuration of a size starts from the same contents.
#[derive(Clone, Debug)]
pub enum Filling {
    Zeros,
    /// Element i holds i, or i modulo this.
    Iota(Option<Value>),
    Random([f64; 2]),
    Constant(Value),
    /// Element i holds the ith value.
    Values(Vec<Value>),
}

impl Filling {
    /// A constant's bytes as a `scalar` at a configuration (`values`), or why it does not fit one.
    pub fn constant(&self, scalar: Scalar, values: &Values) -> Result<Option<Vec<u8>>, Problem> {
        match self {
            // A literal was checked when the kernel was read.
            Filling::Constant(value) => value.encoded(scalar, "fill", values).map(Some),
            _ => Ok(None),
        }
    }

    /// The bytes of listed values as `scalar`s at a configuration (`values`), where the fill lists them:
    /// `length` of them, or why not.
    pub fn listed(&self, scalar: Scalar, length: u64, values: &Values) -> Result<Option<Vec<u8>>, Problem> {
        let Filling::Values(listed) = self else { return Ok(None) };
        if listed.len() as u64 != length {
            let message = format!("lists {} values for a buffer of {length} elements", listed.len());
            return Err(Problem::at("fill", message));
        }
        let bytes = listed.iter().map(|value| value.encoded(scalar, "fill", values));
        Ok(Some(bytes.collect::<Result<Vec<_>, _>>()?.concat()))
    }

    /// An iota's modulus at a configuration (`values`; 0 for none), or why it is not a u32 of at least 1.
    pub fn modulus(&self, values: &Values) -> Result<u32, Problem> {
        let Filling::Iota(Some(value)) = self else { return Ok(0) };
        let bytes = value.encoded(Scalar::U32, "fill", values)?;
        match u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) {
            0 => Err(match value {
                Value::Expression(e) => e.failed(values, "a modulus is at least 1"),
                Value::Literal(_) => Problem::at("fill", "a modulus is at least 1"),
            }),
            modulus => Ok(modulus),
        }
    }
}

/// What fills a template's text at each configuration, checked.
#[derive(Clone, Debug)]
pub enum Replacement {
    Value(Value),
    Text(String),
}

impl Replacement {
    /// Its expression, where it is one (a number or text is the same at every configuration).
    pub fn expression(&self) -> Option<&Expression> {
        match self {
            Replacement::Value(Value::Expression(e)) => Some(e),
            _ => None,
        }
    }

    /// The text it puts in the WGSL at a configuration (`values`): its text, or its number as an integer.
    pub fn text(&self, values: &Values) -> Result<String, Problem> {
        Ok(match self {
            Replacement::Text(text) => text.clone(),
            // A whole number, as read (`Checker::template`).
            Replacement::Value(Value::Literal(number)) => (*number as i64).to_string(),
            Replacement::Value(Value::Expression(e)) => e.value(values)?.to_string(),
        })
    }
}

/// A uniform buffer, checked: where each value goes in its bytes.
#[derive(Clone, Debug)]
pub struct Uniform {
    pub group: u32,
    pub binding: u32,
    /// The WGSL's name for it.
    pub name: String,
    /// The bytes it holds: its type's size, rounded up to 16.
    pub size: u64,
    pub values: Vec<UniformValue>,
}

/// One scalar of a uniform: where the specification gives it, its type and byte offset, and its value.
#[derive(Clone, Debug)]
pub struct UniformValue {
    pub place: String,
    pub scalar: Scalar,
    pub offset: u64,
    pub value: Value,
}

/// A uniform's value: a literal, or an integer expression evaluated at each configuration.
#[derive(Clone, Debug)]
pub enum Value {
    Literal(f64),
    Expression(Expression),
}

impl Value {
    /// Its bytes as a `scalar` at a configuration (`values`), or why it does not fit one: at `place` for a
    /// literal, at the expression's own place and values for an expression.
    pub fn encoded(&self, scalar: Scalar, place: &str, values: &Values) -> Result<Vec<u8>, Problem> {
        match self {
            Value::Literal(number) => encode(scalar, *number).map_err(|why| Problem::at(place, why)),
            Value::Expression(e) => encode(scalar, e.value(values)? as f64).map_err(|why| e.failed(values, why)),
        }
    }
}

impl Uniform {
    /// Its bytes at a configuration (`values`: the sizes, the tunables and the constants).
    pub fn bytes(&self, values: &Values) -> Result<Vec<u8>, Problem> {
        let mut bytes = vec![0; self.size as usize];
        for value in &self.values {
            let encoded = value.value.encoded(value.scalar, &value.place, values)?;
            bytes[value.offset as usize..][..encoded.len()].copy_from_slice(&encoded);
        }
        Ok(bytes)
    }
}

/// `number` as the bytes of a `scalar`, or why it does not fit one.
pub(super) fn encode(scalar: Scalar, number: f64) -> Result<Vec<u8>, String> {
    let integer = |low: f64, high: f64| {
        let fits = number.fract() == 0.0 && (low..=high).contains(&number);
        fits.then_some(number).ok_or_else(|| format!("{number} is not a {} ({low} to {high})", scalar.name()))
    };
    Ok(match scalar {
        Scalar::F32 => (number as f32).to_le_bytes().to_vec(),
        Scalar::F16 if number.abs() > 65504.0 => return Err(format!("{number} is over an f16's largest, 65504")),
        Scalar::F16 => half::f16::from_f64(number).to_le_bytes().to_vec(),
        Scalar::U32 => (integer(0.0, u32::MAX as f64)? as u32).to_le_bytes().to_vec(),
        Scalar::I32 => (integer(i32::MIN as f64, i32::MAX as f64)? as i32).to_le_bytes().to_vec(),
    })
}

/// A texel format a texture may have: what a texel holds and how its channels are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TexelFormat {
    Rgba8Unorm,
    Rgba8Uint,
    Rgba16Float,
    Rgba32Float,
    R32Float,
    R32Uint,
}

impl TexelFormat {
    pub const ALL: [TexelFormat; 6] = [
        TexelFormat::Rgba8Unorm,
        TexelFormat::Rgba8Uint,
        TexelFormat::Rgba16Float,
        TexelFormat::Rgba32Float,
        TexelFormat::R32Float,
        TexelFormat::R32Uint,
    ];

    /// Its name in WGSL and WebGPU.
    pub fn name(self) -> &'static str {
        match self {
            TexelFormat::Rgba8Unorm => "rgba8unorm",
            TexelFormat::Rgba8Uint => "rgba8uint",
            TexelFormat::Rgba16Float => "rgba16float",
            TexelFormat::Rgba32Float => "rgba32float",
            TexelFormat::R32Float => "r32float",
            TexelFormat::R32Uint => "r32uint",
        }
    }

    pub fn named(name: &str) -> Option<TexelFormat> {
        TexelFormat::ALL.into_iter().find(|f| f.name() == name)
    }

    pub fn bytes(self) -> u64 {
        match self {
            TexelFormat::Rgba16Float => 8,
            TexelFormat::Rgba32Float => 16,
            _ => 4,
        }
    }

    /// The scalar a shader reads its channels as (`texture_2d<f32>` or `<u32>`).
    pub fn channel(self) -> Scalar {
        match self {
            TexelFormat::Rgba8Uint | TexelFormat::R32Uint => Scalar::U32,
            _ => Scalar::F32,
        }
    }

    /// Whether a linear sampler may filter it (WebGPU filters 32-bit floats only with a feature).
    pub fn filterable(self) -> bool {
        matches!(self, TexelFormat::Rgba8Unorm | TexelFormat::Rgba16Float)
    }
}

/// A texture, checked.
#[derive(Clone, Debug)]
pub struct Texture {
    pub group: u32,
    pub binding: u32,
    pub name: String,
    pub format: TexelFormat,
    pub width: Expression,
    pub height: Expression,
    /// Its initial contents: `None` for an output, poisoned before the validated run.
    pub fill: Option<TextureFill>,
    pub output: bool,
    /// How the WGSL binds it: sampled, or a storage texture written (and perhaps read).
    pub access: TextureAccess,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextureAccess {
    Sampled,
    Write,
    ReadWrite,
}

impl Texture {
    /// Texels across and down at a configuration.
    pub fn extent(&self, values: &Values) -> Result<[u64; 2], Problem> {
        Ok([self.width.count(values)?, self.height.count(values)?])
    }
}

/// A sampler, checked: whether it filters linearly (else nearest), and how it addresses past the edge.
#[derive(Clone, Debug)]
pub struct Sampler {
    pub group: u32,
    pub binding: u32,
    pub linear: bool,
    pub address: AddressMode,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddressMode {
    ClampToEdge,
    Repeat,
    MirrorRepeat,
}

/// One dispatch of a sample, checked: its entry point, its grid, the override values it sets otherwise
/// than the configuration, and the storage buffers it binds.
#[derive(Clone, Debug)]
pub struct Pass {
    pub entry_point: String,
    pub grid: Vec<Expression>,
    pub constants: Vec<(String, Expression)>,
    pub bound: Vec<Bound>,
}

/// A storage buffer bound in a pass: at `group` and `binding`, the buffer `buffers[buffer]`; `read_write`
/// where the WGSL declares that binding so.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bound {
    pub group: u32,
    pub binding: u32,
    pub buffer: usize,
    pub read_write: bool,
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
    /// The WGSL and the specification as they were read: what its results carry.
    pub written: KernelText,
    /// A digest of the source and the specification (16 hex digits): the kernel's identity in results,
    /// links and the gallery.
    pub digest: String,
    pub buffers: Vec<Buffer>,
    pub uniforms: Vec<Uniform>,
    pub textures: Vec<Texture>,
    pub samplers: Vec<Sampler>,
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
    /// The dispatches of one sample, in order: the entry point alone, or the specification's passes.
    pub passes: Vec<Pass>,
    /// The dispatches that make the inputs, before a configuration is measured (`Spec::setup`).
    pub setup: Vec<Pass>,
    pub bytes: Option<Expression>,
    pub flops: Option<Expression>,
    pub workgroup_memory: Option<Expression>,
    pub check: Check,
    /// The tunables' defaults the WGSL gives them (`override TILE: u32 = 4;`), where it gives one.
    pub defaults: Vec<(String, u64)>,
    /// The reference entry point's dispatch, with every buffer at its own binding.
    pub reference: Option<Pass>,
    /// The template's text and what fills it, where the WGSL is a template.
    pub template: Vec<(String, Replacement)>,
    /// The tunables that fill the template alone: no override of the WGSL, so no pipeline sets them.
    pub templated: Vec<String>,
    /// The extensions the WGSL enables (`enable subgroups;`), which the device must offer.
    pub enables: std::collections::BTreeSet<String>,
    /// Each workgroup shape up to 1024 invocations along x with the values of the tunables that make it:
    /// listed once by the check, as each configuration asks for its own (made anew, a kernel's 4 096 shapes
    /// each took all of them again).
    pub(super) shape_table: Vec<([u32; 3], Values)>,
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
        let written = KernelText { source: source.into(), spec: spec_text.into() };
        Checker::default().check(source, spec, digest).map(|kernel| UserKernel { written, ..kernel })
    }

    /// The WGSL at a configuration: the source, its template filled in where it is one.
    pub fn source_at(&self, values: &Values) -> Result<std::borrow::Cow<'_, str>, Problem> {
        let mut source = std::borrow::Cow::Borrowed(self.source.as_str());
        for (text, replacement) in &self.template {
            source = std::borrow::Cow::Owned(source.replace(text, &replacement.text(values)?));
        }
        Ok(source)
    }

    /// The values of the first combination the restrictions admit, at the first size: where a template's
    /// WGSL is compiled to be checked.
    pub fn first_admitted(&self, largest: u32) -> Option<Values> {
        let workgroups = self.workgroup_shapes(largest);
        let mut all = (0..self.combinations()).flat_map(|i| workgroups.iter().map(move |&w| self.values(i, w)));
        all.find(|values| matches!(self.excluded_by(values), Ok(None)))
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

    /// The combination and workgroup shape the kernel runs at untuned, at size `size_index`: each tunable at
    /// the default its WGSL declaration gives it where that is among its values, else its first (a WG_X
    /// swept over powers of two: its default where the device allows it, else 64). `largest`: the device's
    /// largest workgroup.
    pub fn default_at(&self, size_index: usize, largest: u32) -> Option<(usize, [u32; 3])> {
        let default = |name: &str| self.defaults.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
        let chosen =
            |name: &str, values: &[u32]| values.iter().position(|&v| Some(v as u64) == default(name)).unwrap_or(0);
        let mut at = vec![size_index];
        at.extend(self.tunables.iter().map(|(name, values)| chosen(name, values)));
        let index = at.iter().zip(self.lengths()).fold(0, |index, (&i, length)| index * length + i);
        let shape_values: Values = self
            .shape_tunables
            .iter()
            .map(|(name, values)| {
                let value = match values.is_empty() {
                    true => default(name).filter(|v| v.is_power_of_two() && *v <= largest as u64).unwrap_or(64),
                    false => values[chosen(name, values)] as u64,
                };
                (name.clone(), value as i64)
            })
            .collect();
        Some((index, self.shape_of(&shape_values).ok()?))
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
        let of_shape = match workgroup[0] <= 1024 {
            true => self.shape_table.iter().find(|(shape, _)| *shape == workgroup).map(|(_, v)| v.clone()),
            false => self.shapes(workgroup[0]).into_iter().find(|(shape, _)| *shape == workgroup).map(|(_, v)| v),
        };
        values.extend(of_shape.unwrap_or_default());
        values
    }

    /// How many workgroup shapes the shape's tunables make (`shape_values`), without making them; `None`
    /// past `usize`.
    pub fn shape_count(&self, largest: u32) -> Option<usize> {
        let powers_of_two = (largest.max(1).ilog2() + 1) as usize;
        let mut lengths = self.shape_tunables.iter().map(|(_, values)| match values.is_empty() {
            true => powers_of_two,
            false => values.len(),
        });
        lengths.try_fold(1usize, |product, length| product.checked_mul(length))
    }

    /// Every combination of the values of the tunables that make the workgroup's shape; a WG_X the
    /// specification does not list takes every power of two up to `largest`.
    pub(super) fn shape_values(&self, largest: u32) -> Vec<Values> {
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
    pub(super) fn shape_of(&self, values: &Values) -> Result<[u32; 3], Problem> {
        let mut shape = [1u32; 3];
        for (axis, expression) in self.workgroup.iter().enumerate() {
            let size = expression.count(values)?;
            shape[axis] = u32::try_from(size).map_err(|_| expression.failed(values, "over 2^32 invocations"))?;
        }
        Ok(shape)
    }

    /// The workgroup shapes the kernel is swept over, each with the values of the tunables that make it.
    pub(super) fn shapes(&self, largest: u32) -> Vec<([u32; 3], Values)> {
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

    /// The override constants a pass's pipeline sets at a configuration (`values`): the tunables (the
    /// workgroup's shape among them) and the specification's constants, and the pass's own over them. Its
    /// own are evaluated at the configuration's values, as every expression is: a pass that sets `WG` to
    /// 256 leaves `WG` the tunable's value in the expressions.
    pub fn overrides(&self, pass: &Pass, values: &Values) -> Result<Vec<(String, f64)>, Problem> {
        let all = self.variables(values)?;
        let set = all[self.size_names.len()..].iter().filter(|(n, _)| !self.templated.contains(n));
        let mut overrides: Vec<(String, f64)> = set.map(|(n, v)| (n.clone(), *v as f64)).collect();
        for (name, expression) in &pass.constants {
            let value = expression.count(&all)? as f64;
            match overrides.iter_mut().find(|(n, _)| n == name) {
                Some(slot) => slot.1 = value,
                None => overrides.push((name.clone(), value)),
            }
        }
        Ok(overrides)
    }

    /// The dispatches whose pipelines a run makes: the passes, the reference's, then the setup passes
    /// (`setup_passes` says where they are).
    pub fn every_pass(&self) -> impl Iterator<Item = &Pass> {
        self.passes.iter().chain(&self.reference).chain(&self.setup)
    }

    /// Where the setup passes are among `every_pass`.
    pub fn setup_passes(&self) -> std::ops::Range<usize> {
        let start = self.passes.len() + usize::from(self.reference.is_some());
        start..start + self.setup.len()
    }

    /// The entry points one sample runs, as a kernel's name shows them: `main`, or `scan×3+fix×2` for five
    /// passes (a run of one entry point counted).
    pub fn entry_points(&self) -> String {
        let mut runs: Vec<(&str, usize)> = Vec::new();
        for pass in &self.passes {
            match runs.last_mut() {
                Some((entry_point, count)) if *entry_point == pass.entry_point => *count += 1,
                _ => runs.push((&pass.entry_point, 1)),
            }
        }
        let shown = runs.iter().map(|&(entry_point, count)| match count {
            1 => entry_point.to_string(),
            _ => format!("{entry_point}×{count}"),
        });
        shown.collect::<Vec<_>>().join("+")
    }

    /// The variables a uniform's values, a pass's grid and its constants see at a configuration: `values`
    /// and the constants.
    pub fn variables(&self, values: &Values) -> Result<Values, Problem> {
        let mut all = values.clone();
        for (name, expression) in &self.constants {
            all.push((name.clone(), expression.count(values)? as i64));
        }
        Ok(all)
    }

    /// A pass's dispatch grid at a configuration.
    pub fn grid(&self, pass: &Pass, values: &Values) -> Result<[u64; 3], Problem> {
        let values = self.variables(values)?;
        let mut grid = [1; 3];
        for (axis, expression) in pass.grid.iter().enumerate() {
            grid[axis] = expression.count(&values)?;
        }
        Ok(grid)
    }

    /// Bytes a sample moves at a configuration: the specification's count, or every buffer and texture once.
    pub fn bytes(&self, values: &Values) -> Result<u64, Problem> {
        let texture = |t: &Texture| t.extent(values).map(|[width, height]| width * height * t.format.bytes());
        match &self.bytes {
            Some(bytes) => bytes.count(values),
            None => self.buffers.iter().map(|b| b.bytes(values)).chain(self.textures.iter().map(texture)).sum(),
        }
    }

    /// The output buffer, where the output is a buffer.
    pub fn output(&self) -> Option<&Buffer> {
        self.buffers.iter().find(|b| b.output)
    }

    /// The output texture, where the output is a texture.
    pub fn output_texture(&self) -> Option<&Texture> {
        self.textures.iter().find(|t| t.output)
    }
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
