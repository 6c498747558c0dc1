//! A kernel a person brings: WGSL and the specification that says how to run it (docs/your-kernel.md).
//!
//! The specification is JSON, in a file of its own or in a `/* wgsweep … */` comment that opens the WGSL.
//! It names the buffers (binding, element type, length, initial contents), the problem sizes, the
//! tunables (override constants, each with its values, and restrictions between them), the dispatch grid,
//! the bytes and flops a dispatch counts, and how the output is validated. Lengths, the grid, the counts
//! and restrictions are expressions of the size's variables and the tunables, evaluated by `nanoexpr` in
//! 64-bit integers: an overflow or a division by zero is an error, never a wrapped number. Everything is
//! checked when the kernel is read, at every combination, so that a run never meets a bad expression.
//!
//! One job a file: `schema` (the JSON as written), `expression` (its expressions and the problems they
//! raise), `wgsl` (what the WGSL declares, read from its text), `check` (one check a section of the
//! specification, each returning what it read) and `kernel` (the kernel as checked, and what it says at each
//! configuration).

use serde::{Deserialize, Serialize};

mod check;
mod expression;
mod kernel;
mod layout;
mod schema;
mod wgsl;

pub use expression::{Expression, Problem, Values};
pub use kernel::{
    AddressMode, Axis, Bound, Buffer, Check, Filling, GUARD_WORDS, Pass, Sampler, TexelFormat, Texture, TextureAccess,
    Uniform, UniformValue, UserKernel, Value, position,
};
pub use layout::{Layout, Leaf, layout, leaves};
pub use schema::{
    BufferSpec, Dimension, Element, FieldValue, Fill, Number, Ordered, PassSpec, Replacement, SamplerSpec, Scalar,
    Size, Spec, TextureFill, TextureSpec, UniformSpec, ValidationSpec, expressions,
};
pub use wgsl::{Binding, Declarations, Member, Space, Type};

/// The most WGSL and specification a kernel may have together, in bytes: a share link carries both.
pub const MAX_SOURCE_BYTES: usize = 48 << 10;

/// A user's kernel as written: the WGSL and the specification, as the page's two fields hold them. What a
/// kernel's link carries, and a result of the kernel (so that a reader can check its digest and run it again).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct KernelText {
    pub source: String,
    pub spec: String,
}

impl KernelText {
    /// Its bytes, WGSL and specification together (at most `MAX_SOURCE_BYTES`).
    pub fn len(&self) -> usize {
        self.source.len() + self.spec.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
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

/// 16 hex digits of the SHA-256 of the WGSL and the specification, as written.
fn digest(source: &str, spec: &str) -> String {
    use sha2::Digest;
    let hash = sha2::Sha256::new().chain_update(source).chain_update([0]).chain_update(spec).finalize();
    hash[..8].iter().map(|b| format!("{b:02x}")).collect()
}
