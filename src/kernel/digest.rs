//! A reference of words to match bit for bit (`Recipe::words_only`) kept as a digest of its words instead of
//! the words: the CPU adds up its words' digest (natively on every core, in the page in its workers), the GPU
//! adds up the output's (compare.wgsl's `digest_words`), and the two are compared. Nothing of the reference
//! is handed to the page or uploaded: for a large one (a strided copy's 2^26 words) that was most of its
//! cost, and the GPU's wait between two measurements. Where the digests differ, the reference is built in
//! full and compared word by word, so that a failure names its first wrong words as before.
//!
//! The digest is two sums, modulo 2^32, of a mix of each word with its index (MurmurHash3's finalizer,
//! a bijection of 32-bit words, keyed by the index once per lane): a single wrong word always changes both
//! sums; several wrong words leave both unchanged with a chance of about 2^-64.

use std::ops::Range;

use super::recipe::Encoder;
#[cfg(target_arch = "wasm32")]
use super::recipe::{REFERENCE_CHUNK, WORKER_MIN_WORDS};
use crate::host;

/// MurmurHash3's 32-bit finalizer; shaders/compare.wgsl has its twin.
fn mix(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x85eb_ca6b);
    x ^= x >> 13;
    x = x.wrapping_mul(0xc2b2_ae35);
    x ^ (x >> 16)
}

/// What each lane's index is keyed with.
const LANE_KEYS: [u32; 2] = [0x9e37_79b9, 0x7f4a_7c15];

/// The two sums of words whose indices are consecutive from `first`.
pub fn of_words(first: u64, words: impl Iterator<Item = u32>) -> [u32; 2] {
    let mut lanes = [0u32; 2];
    for (index, word) in (first..).zip(words) {
        let index = index as u32;
        for (lane, key) in lanes.iter_mut().zip(LANE_KEYS) {
            *lane = lane.wrapping_add(mix(word ^ mix(index ^ key)));
        }
    }
    lanes
}

/// Two digests of disjoint ranges as one.
pub fn add(a: [u32; 2], b: [u32; 2]) -> [u32; 2] {
    [a[0].wrapping_add(b[0]), a[1].wrapping_add(b[1])]
}

/// The digest of words `range` given as their little-endian bytes (`recipe_bytes` of a words-only recipe),
/// as the 8 bytes of its two sums: a Web Worker's work.
pub fn of_bytes(range: Range<u64>, bytes: &[u8]) -> Result<Vec<u8>, String> {
    if bytes.len() as u64 != 4 * (range.end - range.start) {
        return Err("a digest is of words alone, and this reference holds more than its words".into());
    }
    let words = bytes.as_chunks::<4>().0.iter().map(|word| u32::from_le_bytes(*word));
    Ok(of_words(range.start, words).iter().flat_map(|lane| lane.to_le_bytes()).collect())
}

/// The digest of `recipe`'s words `0..count`: natively on every core; in the page in its workers (on its
/// thread where they cannot, or where the reference is short).
pub(super) async fn of_recipe(recipe: &dyn Encoder, count: u64) -> [u32; 2] {
    #[cfg(target_arch = "wasm32")]
    if count >= WORKER_MIN_WORDS {
        match in_workers(recipe, count).await {
            Ok(lanes) => return lanes,
            Err(why) => log::debug!("{} digest computed on the page's thread: {why}", recipe.family()),
        }
    }
    host::sum(count, [0; 2], |range| of_range(recipe, range), add).await
}

/// The digest of `recipe`'s words `range`.
fn of_range(recipe: &dyn Encoder, range: Range<u64>) -> [u32; 2] {
    let mut pairs = vec![[0; 8]; (range.end - range.start) as usize];
    recipe.encode(range.clone(), (&mut pairs[..]).into());
    let words = pairs.iter().map(|pair| u32::from_le_bytes(*pair.first_chunk().expect("8 bytes hold 4")));
    of_words(range.start, words)
}

/// Page only: the digest of `recipe`'s words `0..count`, computed in the page's workers; an error where they
/// cannot (none could start, one failed, or they are busy).
#[cfg(target_arch = "wasm32")]
async fn in_workers(recipe: &dyn Encoder, count: u64) -> Result<[u32; 2], String> {
    let began = web_time::Instant::now();
    let lanes = std::cell::Cell::new([0; 2]);
    let take = |_, bytes: js_sys::Uint8Array| {
        let taken = match <[u8; 8]>::try_from(bytes.to_vec().as_slice()) {
            Ok(sums) => {
                let (low, high) = sums.split_at(4);
                let lane = |word: &[u8]| u32::from_le_bytes(word.try_into().expect("4 bytes"));
                lanes.set(add(lanes.get(), [lane(low), lane(high)]));
                Ok(())
            }
            Err(_) => Err("a worker's digest is not two words".to_string()),
        };
        Box::pin(std::future::ready(taken)) as host::workers::Taken
    };
    let (family, json) = (recipe.family(), recipe.json());
    host::workers::compute(host::workers::Work::Digest, family, &json, 0..count, REFERENCE_CHUNK * 4, &take).await?;
    log::debug!("{family} digest: {count} words in {:.3} s", began.elapsed().as_secs_f64());
    Ok(lanes.get())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One word changed anywhere, by any bits, changes both sums: each term is a bijection of its word.
    #[test]
    fn a_single_changed_word_changes_both_sums() {
        let words: Vec<u32> = (0..4096u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
        let whole = of_words(0, words.iter().copied());
        for (at, flip) in [(0, 1), (17, 0x8000_0000), (4095, 0xffff_ffff), (2048, 0x10)] {
            let mut changed = words.clone();
            changed[at] ^= flip;
            let digest = of_words(0, changed.into_iter());
            assert!(digest[0] != whole[0] && digest[1] != whole[1], "word {at} ^ {flip:#x}");
        }
    }

    /// Two words swapped are wrong words too: each is mixed with its own index.
    #[test]
    fn swapped_words_change_the_digest_and_ranges_add_up() {
        let words: Vec<u32> = (0..1000u32).map(|i| i * 7).collect();
        let whole = of_words(5, words.iter().copied());
        let mut swapped = words.clone();
        swapped.swap(3, 900);
        assert_ne!(of_words(5, swapped.into_iter()), whole);
        assert_eq!(add(of_words(5, words[..400].iter().copied()), of_words(405, words[400..].iter().copied())), whole);
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let lanes = of_bytes(5..1005, &bytes).unwrap();
        assert_eq!(lanes, whole.iter().flat_map(|lane| lane.to_le_bytes()).collect::<Vec<u8>>());
        assert!(of_bytes(5..1006, &bytes).is_err(), "bytes that are not the range's words");
    }
}
