//! Comparing a configuration's output with the CPU reference, and the failure it reports.

use std::fmt;

/// One wrong element: where, what the GPU wrote, what the reference says, and the bound it broke.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    pub index: u64,
    pub got: f64,
    pub want: f64,
    pub tolerance: f64,
}

/// A failed comparison: the first mismatches (as BabelStream prints them) and how many there were.
#[derive(Clone, Debug, PartialEq)]
pub struct ValidationError {
    pub what: &'static str,
    pub first: Vec<Mismatch>,
    pub wrong: u64,
    pub checked: u64,
}

/// How many mismatches a validation error lists before it only counts.
const LISTED_MISMATCHES: usize = 10;

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, m) in self.first.iter().enumerate() {
            if n > 0 {
                f.write_str("; ")?;
            }
            write!(
                f,
                "{}[{}]: {:e} (is) != {:e} (should), diff {:e} > tol {:e}",
                self.what,
                m.index,
                m.got,
                m.want,
                (m.got - m.want).abs(),
                m.tolerance
            )?;
        }
        write!(f, "; {} of {} wrong", self.wrong, self.checked)
    }
}

/// Collects mismatches while an output is compared element by element.
pub struct Comparison {
    error: ValidationError,
}

impl Comparison {
    pub fn new(what: &'static str) -> Self {
        Self { error: ValidationError { what, first: Vec::new(), wrong: 0, checked: 0 } }
    }

    /// Checks one value; NaN never passes.
    pub fn check(&mut self, index: u64, got: f64, want: f64, tolerance: f64) {
        self.error.checked += 1;
        if (got - want).abs() <= tolerance {
            return;
        }
        self.error.wrong += 1;
        if self.error.first.len() < LISTED_MISMATCHES {
            self.error.first.push(Mismatch { index, got, want, tolerance });
        }
    }

    pub fn finish(self) -> Result<(), ValidationError> {
        if self.error.wrong == 0 { Ok(()) } else { Err(self.error) }
    }
}

/// Reads little-endian f32 values out of a mapped buffer.
pub fn f32s(bytes: &[u8]) -> impl Iterator<Item = f32> + '_ {
    bytes.chunks_exact(4).map(|w| f32::from_le_bytes([w[0], w[1], w[2], w[3]]))
}
