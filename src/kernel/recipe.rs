//! What a reference's words are (`Recipe`), as plain data that natively every core and in the page every Web
//! Worker computes them from: the reference builder's view of it (`Encoder`), and a worker's work on it.

use std::ops::Range;

use serde::Serialize;
use serde::de::DeserializeOwned;
use wgpu::WriteOnly;

use super::expected::Expected;

/// What a reference's words are, from plain data alone (seeds, sizes, a kernel's name): natively they are
/// computed on every core; in the page in Web Workers, which get the recipe as JSON and find the code that
/// reads it through its family (`Family::reference_words`).
pub trait Recipe: Serialize + DeserializeOwned + Sync {
    /// The family whose `reference_words` reads this recipe.
    const FAMILY: &'static str;

    /// What the words in `range` must hold, in order. Called on ranges that cover every word, on several
    /// threads or workers at once.
    fn words(&self, range: Range<u64>) -> impl Iterator<Item = Expected>;

    /// Whether every word is an `Expected::Word`: the reference is then kept as a digest of its words, none
    /// of them handed over or uploaded (`Reference::build`), or where the output repeats, holds the words
    /// alone, half the bytes of their pairs.
    fn words_only(&self) -> bool {
        false
    }
}

/// A recipe as the reference builder uses it, through a reference: its words encoded, and what a Web Worker
/// needs to compute them.
pub(super) trait Encoder: Sync {
    fn encode(&self, range: Range<u64>, out: WriteOnly<'_, [[u8; 8]]>);
    fn words_only(&self) -> bool;
    #[cfg_attr(not(target_arch = "wasm32"), expect(dead_code, reason = "natively the host's threads compute it"))]
    fn family(&self) -> &'static str;
    #[cfg_attr(not(target_arch = "wasm32"), expect(dead_code, reason = "natively the host's threads compute it"))]
    fn json(&self) -> String;
}

impl<R: Recipe> Encoder for R {
    fn encode(&self, range: Range<u64>, out: WriteOnly<'_, [[u8; 8]]>) {
        out.write_iter(self.words(range).map(Expected::encoded));
    }

    fn words_only(&self) -> bool {
        Recipe::words_only(self)
    }

    fn family(&self) -> &'static str {
        R::FAMILY
    }

    fn json(&self) -> String {
        // Pretty, as every JSON the page writes: one JSON writer in the page's download, not two.
        serde_json::to_string_pretty(self).expect("a recipe is plain data")
    }
}

/// The words of `range` of a recipe given as JSON, encoded as the GPU reads them (the words alone where
/// the recipe is `words_only`): a Web Worker's work.
pub fn recipe_bytes<R: Recipe>(recipe: &str, range: Range<u64>) -> Result<Vec<u8>, String> {
    let recipe: R = serde_json::from_str(recipe).map_err(|e| format!("not a {} reference: {e}", R::FAMILY))?;
    // Each word stored in its place, as one 8-byte store: the page's size-optimized build runs
    // `flat_map(Expected::encoded)` a byte at a time, and `extend_from_slice` or `copy_from_slice` through calls
    // of their own (`extend_from_slice` took half of a reference's time in a worker).
    let mut bytes = vec![0; 8 * (range.end - range.start) as usize];
    for (slot, word) in bytes.as_chunks_mut::<8>().0.iter_mut().zip(recipe.words(range)) {
        *slot = word.encoded();
    }
    Ok(if recipe.words_only() { words_alone(&bytes) } else { bytes })
}

/// Of encoded words (`Expected::encoded`), the words alone: each pair's first 4 bytes. Once for every
/// recipe, not once per recipe type: the page's download holds it once.
pub(super) fn words_alone(pairs: &[u8]) -> Vec<u8> {
    let pairs = pairs.as_chunks::<8>().0;
    let mut words = vec![0; 4 * pairs.len()];
    for (word, pair) in words.as_chunks_mut::<4>().0.iter_mut().zip(pairs) {
        *word = *pair.first_chunk().expect("8 bytes hold 4");
    }
    words
}

/// Elements of a reference uploaded at a time: the host never holds the whole of it. Natively each chunk is
/// computed on every core, and larger chunks keep the threads busy; in the page each is a few tasks' work,
/// in a worker or on the page's thread.
pub(super) const REFERENCE_CHUNK: u64 = if cfg!(target_arch = "wasm32") { 1 << 18 } else { 1 << 22 };

/// References shorter than this are computed where they are needed: a worker's round trip would cost more.
#[cfg(target_arch = "wasm32")]
pub(super) const WORKER_MIN_WORDS: u64 = 1 << 10;
