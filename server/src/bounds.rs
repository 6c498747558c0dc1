//! The bounds the API and the store both keep, in one home below both.

/// The largest result accepted, and the most a stored body may inflate to: a whole default suite without
/// raw samples is about 200 KB.
pub const MAX_BODY_BYTES: usize = 4 << 20;
