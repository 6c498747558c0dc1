//! What one word of an output must hold (`Expected`), the rule it is held to on the CPU and on the GPU
//! (`passes`, shaders/compare.wgsl), how a reference stores it for the GPU, and the mismatch a word that
//! breaks it shows.

use half::f16;
use serde::Serialize;

/// One wrong element: where, what the GPU wrote, what the reference says, and the bound it broke.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    pub index: u64,
    pub got: f64,
    pub want: f64,
    pub tolerance: f64,
}

/// The rule every element is held to, on the CPU and (shaders/compare.wgsl) on the GPU: NaN never passes;
/// the very bits pass, and +0 against -0; with a tolerance of 0 nothing else does; otherwise
/// |found - want| <= tolerance.
pub fn passes(found: f32, want: f32, tolerance: f32) -> bool {
    if found.is_nan() {
        return false;
    }
    let (found_bits, want_bits) = (found.to_bits(), want.to_bits());
    if found_bits == want_bits || (found_bits | want_bits) & 0x7fff_ffff == 0 {
        return true;
    }
    tolerance > 0.0 && (found - want).abs() <= tolerance
}

/// What one word of an output must hold.
#[derive(Clone, Copy, Debug, PartialEq, serde::Deserialize, Serialize)]
pub enum Expected {
    /// An f32 held to `passes`: within `tolerance` of `value`, or its very bits where the tolerance is 0.
    Float { value: f32, tolerance: f32 },
    /// Two f16 elements (the low half first), each held to `passes` as f16 against its value, with one
    /// tolerance (0: the very bits).
    Halves { values: [f16; 2], tolerance: f16 },
    /// Four 8-bit channels of a texel (`rgba8unorm`, the first in the low byte), each within `tolerance` of its
    /// value, both in 255ths.
    Bytes { values: [u8; 4], tolerance: u8 },
    /// These very bits: an integer, or a float copied unchanged.
    Word(u32),
    /// Anything: a word no kernel writes (a struct's padding, a row's pitch past its end).
    Any,
    /// Any word but the poison (`fill::POISON`): an element of an integer output that must be written but is
    /// not checked value by value (every bit pattern is some integer; where the poison is one the kernel can
    /// write, this cannot tell it from an unwritten one).
    Unpoisoned,
}

/// How `Expected` is stored, in the tolerance word: a tolerance is never negative.
const WORD_TAG: u32 = (-1.0f32).to_bits();
const ANY_TAG: u32 = (-2.0f32).to_bits();
const UNPOISONED_TAG: u32 = (-3.0f32).to_bits();
/// Halves: the top 16 bits of the tolerance word (an f32 NaN, never a tolerance), the f16 tolerance below.
const HALVES_TAG: u32 = 0xffff_0000;
/// Bytes: the top 16 bits of the tolerance word (another NaN), the tolerance in 255ths below.
const BYTES_TAG: u32 = 0xfffe_0000;

impl Expected {
    /// Any number the kernel wrote: anything but the poison (a NaN) passes.
    pub const WRITTEN: Expected = Expected::Float { value: 0.0, tolerance: f32::INFINITY };

    pub fn exact(value: f32) -> Self {
        Expected::Float { value, tolerance: 0.0 }
    }

    /// Two f16 elements, each within `tolerance` of its value (rounded up to an f16, so that it never
    /// shrinks), as f16 holds them.
    pub fn halves(values: [f32; 2], tolerance: f32) -> Self {
        let mut bound = f16::from_f32(tolerance);
        if bound.to_f32() < tolerance {
            bound = f16::from_bits(bound.to_bits() + 1);
        }
        Expected::Halves { values: values.map(f16::from_f32), tolerance: bound }
    }

    /// Whether a word of output with these bits passes (shaders/compare.wgsl holds it to the same rule).
    pub fn admits(self, found: u32) -> bool {
        match self {
            Expected::Float { value, tolerance } => passes(f32::from_bits(found), value, tolerance),
            Expected::Halves { .. } => self.wrong_half(found).is_none(),
            Expected::Bytes { .. } => self.wrong_byte(found).is_none(),
            Expected::Word(word) => found == word,
            Expected::Any => true,
            Expected::Unpoisoned => found != crate::fill::POISON,
        }
    }

    /// Of two halves, the first that fails, with what it holds: (lane, found, want, tolerance).
    fn wrong_half(self, found: u32) -> Option<(u64, f64, f64, f64)> {
        let Expected::Halves { values, tolerance } = self else { return None };
        let found = [found as u16, (found >> 16) as u16].map(f16::from_bits);
        (0..2).find_map(|lane| {
            let (got, want) = (found[lane], values[lane]);
            let same = got.to_bits() == want.to_bits() || (got.to_bits() | want.to_bits()) & 0x7fff == 0;
            let within = tolerance.to_f32() > 0.0 && (got.to_f32() - want.to_f32()).abs() <= tolerance.to_f32();
            (got.is_nan() || !(same || within)).then(|| (lane as u64, got.to_f64(), want.to_f64(), tolerance.to_f64()))
        })
    }

    /// Of four bytes, the first that is further from its value than the tolerance: (lane, found, want,
    /// tolerance), in 255ths.
    fn wrong_byte(self, found: u32) -> Option<(u64, f64, f64, f64)> {
        let Expected::Bytes { values, tolerance } = self else { return None };
        let found = found.to_le_bytes();
        (0..4).find(|&lane| found[lane].abs_diff(values[lane]) > tolerance).map(|lane| {
            (lane as u64, found[lane] as f64 / 255.0, values[lane] as f64 / 255.0, tolerance as f64 / 255.0)
        })
    }

    /// The mismatch a failed word at `index` shows: for halves and bytes, the first wrong one, at its own
    /// index.
    pub(super) fn mismatch(self, index: u64, found: u32) -> Mismatch {
        match self {
            Expected::Float { value, tolerance } => {
                Mismatch { index, got: f32::from_bits(found) as f64, want: value as f64, tolerance: tolerance as f64 }
            }
            Expected::Halves { .. } => {
                let (lane, got, want, tolerance) = self.wrong_half(found).unwrap_or((0, f64::NAN, f64::NAN, 0.0));
                Mismatch { index: 2 * index + lane, got, want, tolerance }
            }
            Expected::Bytes { .. } => {
                let (lane, got, want, tolerance) = self.wrong_byte(found).unwrap_or((0, f64::NAN, f64::NAN, 0.0));
                Mismatch { index: 4 * index + lane, got, want, tolerance }
            }
            Expected::Word(word) => Mismatch { index, got: found as f64, want: word as f64, tolerance: 0.0 },
            Expected::Any | Expected::Unpoisoned => {
                Mismatch { index, got: found as f64, want: f64::NAN, tolerance: f64::INFINITY }
            }
        }
    }

    /// The 8 bytes the GPU reads: `encode`'s words, little-endian.
    #[inline(always)]
    pub(super) fn encoded(self) -> [u8; 8] {
        let [value, tag] = self.encode();
        (u64::from(tag) << 32 | u64::from(value)).to_le_bytes()
    }

    /// The two words the GPU reads: the value's bits, and the tolerance's or a tag.
    #[inline(always)] // a reference's every word: 1.4 times as fast in a worker for STREAM's references
    pub(super) fn encode(self) -> [u32; 2] {
        match self {
            Expected::Float { value, tolerance } => [value.to_bits(), tolerance.to_bits()],
            Expected::Halves { values: [low, high], tolerance } => [
                u32::from(low.to_bits()) | u32::from(high.to_bits()) << 16,
                HALVES_TAG | u32::from(tolerance.to_bits()),
            ],
            Expected::Bytes { values, tolerance } => [u32::from_le_bytes(values), BYTES_TAG | u32::from(tolerance)],
            Expected::Word(word) => [word, WORD_TAG],
            Expected::Any => [0, ANY_TAG],
            Expected::Unpoisoned => [crate::fill::POISON, UNPOISONED_TAG],
        }
    }

    pub(super) fn decode([value, tag]: [u32; 2]) -> Self {
        match tag {
            WORD_TAG => Expected::Word(value),
            ANY_TAG => Expected::Any,
            UNPOISONED_TAG => Expected::Unpoisoned,
            _ if tag & HALVES_TAG == BYTES_TAG => Expected::Bytes { values: value.to_le_bytes(), tolerance: tag as u8 },
            _ if tag & HALVES_TAG == HALVES_TAG => Expected::Halves {
                values: [f16::from_bits(value as u16), f16::from_bits((value >> 16) as u16)],
                tolerance: f16::from_bits(tag as u16),
            },
            _ => Expected::Float { value: f32::from_bits(value), tolerance: f32::from_bits(tag) },
        }
    }
}
