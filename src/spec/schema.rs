//! The specification as written: the JSON a person gives, read by serde, names kept in their order.

use std::fmt;

use super::LEADING_COMMENT;

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A list of names with a value each, kept in the order written (a JSON object).
#[derive(Clone, Debug, PartialEq)]
pub struct Ordered<T>(pub Vec<(String, T)>);

impl<T> Default for Ordered<T> {
    fn default() -> Self {
        Ordered(Vec::new())
    }
}

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
    /// The uniform buffers, each field's value given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uniforms: Vec<UniformSpec>,
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
    /// The 2-D textures: sampled (`texture_2d<f32>`) or storage (`texture_storage_2d`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub textures: Vec<TextureSpec>,
    /// The samplers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub samplers: Vec<SamplerSpec>,
    /// The dispatches one sample runs, in order, where one is not the whole kernel (a reduction's passes,
    /// a scan and its fix-up), in place of `entry_point` and `grid`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub passes: Vec<PassSpec>,
    /// Dispatches that make the inputs, where a fill cannot (a permutation, a skewed input, a simulation's
    /// first state): run untimed after the fills, before each configuration is measured, and before each
    /// validated run where one writes the output (a kernel that updates its state in place). Each binds
    /// only what its entry point uses, and may write any buffer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub setup: Vec<PassSpec>,
    /// Text the WGSL holds where a template puts a value (`{{ b_m }}`, `{{ elem }}`), and what fills it at
    /// each configuration: a number, an expression of the size and the tunables, or `{"text": "f32"}`.
    #[serde(default, skip_serializing_if = "Ordered::is_empty")]
    pub template: Ordered<Replacement>,
}

impl Spec {
    /// A specification of `name` that measures `entry_point` of WGSL holding `buffers`, the rest left to
    /// its defaults: what a built-in family fills in to open one of its kernels as a user's.
    pub fn new(name: impl Into<String>, entry_point: impl Into<String>, buffers: Vec<BufferSpec>) -> Spec {
        Spec { name: name.into(), entry_point: entry_point.into(), buffers, ..Spec::default() }
    }

    /// Each pass's and each setup pass's `bind`: (the WGSL's variable, the buffer bound there).
    pub fn binds(&self) -> impl Iterator<Item = (&String, &String)> {
        self.passes.iter().chain(&self.setup).flat_map(|p| p.bind.0.iter().map(|(variable, buffer)| (variable, buffer)))
    }

    /// `wgsl` opened by this specification in its leading comment, with `about` (comment lines) between.
    pub fn open(&self, about: &str, wgsl: &str) -> String {
        let spec = serde_json::to_string_pretty(self).expect("a specification is plain data");
        format!("/* {LEADING_COMMENT}\n{spec}\n*/\n{about}{wgsl}")
    }
}

/// One dispatch of a kernel of several passes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PassSpec {
    pub entry_point: String,
    /// Workgroups along x, y and z; by default each size dimension over the workgroup's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid: Option<Vec<String>>,
    /// Override constants this pass's pipeline sets otherwise (`{"ELEMENT_COUNT": "ceil_div(n, 512)"}`, or
    /// a tunable's override): expressions of the sizes, the tunables and the constants, as every other
    /// expression (which sees the tunable's value, not this).
    #[serde(default, skip_serializing_if = "Ordered::is_empty")]
    pub constants: Ordered<String>,
    /// Buffers this pass binds at another of the WGSL's variables than their own, by the variable's name
    /// (`{"items": "block_sums"}`): a recursion's deeper level, or one buffer read through two views.
    #[serde(default, skip_serializing_if = "Ordered::is_empty")]
    pub bind: Ordered<String>,
}

impl PassSpec {
    /// A pass of `entry_point` at `grid`, binding every buffer at its own binding.
    pub fn new(entry_point: String, grid: Vec<String>) -> PassSpec {
        PassSpec { entry_point, grid: Some(grid), constants: Ordered::default(), bind: Ordered::default() }
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
    pub(super) fn text(&self) -> String {
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

/// One storage buffer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BufferSpec {
    /// Its `@group`: 0 unless given.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub group: u32,
    /// Its `@binding` in its group; none for a buffer that passes bind by name alone (`"bind"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub binding: Option<u32>,
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
        BufferSpec {
            group: 0,
            binding: Some(binding),
            name,
            element,
            length,
            fill: None,
            output: false,
            written: false,
        }
    }

    pub fn filled(self, fill: Fill) -> BufferSpec {
        BufferSpec { fill: Some(fill), ..self }
    }

    /// The buffer validation compares.
    pub fn output(self) -> BufferSpec {
        BufferSpec { output: true, ..self }
    }

    /// A buffer the kernel writes that validation does not compare.
    pub fn written(self) -> BufferSpec {
        BufferSpec { written: true, ..self }
    }
}

/// One uniform buffer: the value of every field of its struct (or of the variable itself where
/// it is a number, a vector or an array), its layout taken from the WGSL.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UniformSpec {
    /// Its `@group`: 0 unless given.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub group: u32,
    pub binding: u32,
    /// Each field by its path (`scale`, `light.color`, `lights[1].color`): a number, an expression of the
    /// size's dimensions, the tunables and the constants, or a list of them for a vector, matrix or array.
    pub fields: Ordered<FieldValue>,
}

/// One 2-D texture of group 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TextureSpec {
    /// Its `@group`: 0 unless given.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub group: u32,
    pub binding: u32,
    pub name: String,
    /// Its texel format: `rgba8unorm`, `rgba8uint`, `rgba16float`, `rgba32float`, `r32float` or `r32uint`.
    pub format: String,
    /// Texels across and down, as expressions of the size's dimensions.
    pub width: String,
    pub height: String,
    /// What it holds before the kernel runs: a random image unless it is the output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fill: Option<TextureFill>,
    /// The texture validation compares (the one output, of buffers and textures); the kernel writes it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub output: bool,
}

/// A texture's initial contents.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TextureFill {
    Zeros,
    /// Every channel uniformly random over its range ([0, 1) for floats).
    Random,
    /// Red rising across, green rising down, blue falling across, alpha 1 (integers: the texel's x and y).
    Gradient,
}

/// One sampler of group 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SamplerSpec {
    /// Its `@group`: 0 unless given.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub group: u32,
    pub binding: u32,
    /// `linear` or `nearest`, for magnifying and minifying alike.
    #[serde(default = "linear")]
    pub filter: String,
    /// `clamp-to-edge`, `repeat` or `mirror-repeat`, along both axes.
    #[serde(default = "clamp_to_edge")]
    pub address_mode: String,
}

fn is_zero(group: &u32) -> bool {
    *group == 0
}

fn linear() -> String {
    "linear".into()
}

fn clamp_to_edge() -> String {
    "clamp-to-edge".into()
}

/// A uniform field's value as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FieldValue {
    One(Number),
    List(Vec<Number>),
}

/// A number as written: a literal (floats allowed where the field is a float) or an integer expression.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Number {
    Literal(f64),
    Expression(String),
}

/// A buffer's initial contents.
#[derive(Clone, Debug, PartialEq)]
pub enum Fill {
    Zeros,
    /// Element i holds i, or i modulo a number or an expression of the size's dimensions (`{"iota": "m"}`:
    /// indices into an array of m elements).
    Iota(Option<Number>),
    /// Uniformly random in [low, high) (floats) or [low, high] (integers).
    Random([f64; 2]),
    /// Every element the same: a number, or an expression of the size's dimensions (`"n"`: a kernel that
    /// keeps its size in a buffer).
    Constant(Number),
    /// Each element its own: numbers or expressions of the size's dimensions, one an element (a kernel's
    /// shapes and strides, as a framework hands them over in a buffer).
    Values(Vec<Number>),
}

/// The forms a fill takes, for the message where one is written otherwise.
const FILL_FORMS: &str = "a fill is \"zeros\", \"iota\", {\"iota\": m}, {\"random\": [low, high]}, {\"constant\": v} or {\"values\": [v, …]}";

impl Serialize for Fill {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = match self {
            Fill::Zeros => return serializer.serialize_str("zeros"),
            Fill::Iota(None) => return serializer.serialize_str("iota"),
            _ => serializer.serialize_map(Some(1))?,
        };
        match self {
            Fill::Iota(Some(modulus)) => map.serialize_entry("iota", modulus)?,
            Fill::Random(range) => map.serialize_entry("random", range)?,
            Fill::Constant(value) => map.serialize_entry("constant", value)?,
            Fill::Values(values) => map.serialize_entry("values", values)?,
            Fill::Zeros | Fill::Iota(None) => unreachable!("written as a word above"),
        }
        map.end()
    }
}

/// A fill read by hand (a word, or an object of one field), where serde's derive would bring a buffering
/// deserializer of its own for the two forms of `iota`.
impl<'de> Deserialize<'de> for Fill {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Forms;
        impl<'de> Visitor<'de> for Forms {
            type Value = Fill;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(FILL_FORMS)
            }
            fn visit_str<E: serde::de::Error>(self, word: &str) -> Result<Fill, E> {
                match word {
                    "zeros" => Ok(Fill::Zeros),
                    "iota" => Ok(Fill::Iota(None)),
                    _ => Err(E::custom(FILL_FORMS)),
                }
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fill, A::Error> {
                use serde::de::Error;
                let key: Option<String> = map.next_key()?;
                let number = |_| A::Error::custom("takes a number, or an expression of the size as a string");
                let fill = match key.as_deref() {
                    Some("iota") => Fill::Iota(Some(map.next_value().map_err(number)?)),
                    Some("random") => Fill::Random(
                        map.next_value()
                            .map_err(|_| A::Error::custom("{\"random\": [low, high]} takes two numbers"))?,
                    ),
                    Some("constant") => Fill::Constant(map.next_value().map_err(number)?),
                    Some("values") => Fill::Values(map.next_value().map_err(|_| {
                        A::Error::custom("{\"values\": [v, …]} takes numbers, or expressions of the size as strings")
                    })?),
                    _ => return Err(A::Error::custom(FILL_FORMS)),
                };
                match map.next_key::<String>()? {
                    Some(_) => Err(A::Error::custom(FILL_FORMS)),
                    None => Ok(fill),
                }
            }
        }
        deserializer.deserialize_any(Forms)
    }
}

/// What a template's text is replaced with: a number or an expression (a string), or text as it is.
#[derive(Clone, Debug, PartialEq)]
pub enum Replacement {
    Number(Number),
    Text(String),
}

const REPLACEMENT_FORMS: &str =
    "a template's text is replaced with a number, an expression (a string) or {\"text\": \"as it is\"}";

impl Serialize for Replacement {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Replacement::Number(number) => number.serialize(serializer),
            Replacement::Text(text) => {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry("text", text)?;
                map.end()
            }
        }
    }
}

/// Read by hand, as a fill is: a number, a string, or an object of one field.
impl<'de> Deserialize<'de> for Replacement {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Forms;
        impl<'de> Visitor<'de> for Forms {
            type Value = Replacement;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(REPLACEMENT_FORMS)
            }
            fn visit_f64<E: serde::de::Error>(self, number: f64) -> Result<Replacement, E> {
                Ok(Replacement::Number(Number::Literal(number)))
            }
            fn visit_u64<E: serde::de::Error>(self, number: u64) -> Result<Replacement, E> {
                self.visit_f64(number as f64)
            }
            fn visit_i64<E: serde::de::Error>(self, number: i64) -> Result<Replacement, E> {
                self.visit_f64(number as f64)
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Replacement, E> {
                Ok(Replacement::Number(Number::Expression(text.into())))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Replacement, A::Error> {
                use serde::de::Error;
                let text = match map.next_key::<String>()?.as_deref() {
                    Some("text") => map.next_value::<String>()?,
                    _ => return Err(A::Error::custom(REPLACEMENT_FORMS)),
                };
                match map.next_key::<String>()? {
                    Some(_) => Err(A::Error::custom(REPLACEMENT_FORMS)),
                    None => Ok(Replacement::Text(text)),
                }
            }
        }
        deserializer.deserialize_any(Forms)
    }
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

    /// Its name in WGSL.
    pub fn name(self) -> &'static str {
        match self {
            Scalar::F32 => "f32",
            Scalar::U32 => "u32",
            Scalar::I32 => "i32",
            Scalar::F16 => "f16",
        }
    }

    /// The least and the most a value of this type can be (a range of random integers may end one past),
    /// and what a person reads of them.
    pub fn values(self) -> (f64, f64, &'static str) {
        match self {
            Scalar::F32 => (-f32::MAX as f64, f32::MAX as f64, "f32s lie within ±3.4e38"),
            Scalar::F16 => (-65504.0, 65504.0, "f16s lie within ±65504"),
            Scalar::U32 => (0.0, 4294967296.0, "u32s lie in [0, 4294967296)"),
            Scalar::I32 => (-2147483648.0, 2147483648.0, "i32s lie in [-2147483648, 2147483648)"),
        }
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
                let mut chars = rest.chars();
                let lanes = chars.next().and_then(|c| c.to_digit(10)).unwrap_or(0) as u64;
                let inner = chars.as_str();
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
