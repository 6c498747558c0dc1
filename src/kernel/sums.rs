//! Sums over a problem's inputs, which the outputs that are sums (a dot product, a reduction) are checked
//! against: from plain data alone (`SumRecipe`), a block of items at a time (`host::SUM_BLOCK`), natively on
//! every core and in the page in Web Workers; the blocks' sums added up in order either way, so that both
//! give the same figures.

use std::ops::Range;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::host::{self, SUM_BLOCK};

/// What `K` sums over a problem's items are (a value and the magnitude its tolerance scales with), from
/// plain data alone: natively computed on every core; in the page in Web Workers, which get the recipe as
/// JSON and find the code that reads it through its family (`Family::block_sums`).
pub trait SumRecipe<const K: usize>: Serialize + DeserializeOwned + Sync {
    /// The family whose `block_sums` reads this recipe.
    const FAMILY: &'static str;

    /// The `K` sums of the items in `range`. A sum of integers that wraps is given wrapped: exact in f64
    /// however many blocks are added, and wrapped again by the caller.
    fn block(&self, range: Range<u64>) -> [f64; K];
}

/// The `K` sums of `recipe` over items `0..count`: natively on every core, in the page in its workers (on
/// its thread where they cannot, or where the sum is short). Counts as a reference built
/// (`references_built`).
pub async fn sum<const K: usize, R: SumRecipe<K>>(recipe: &R, count: u64) -> [f64; K] {
    super::check::count_built();
    #[cfg(target_arch = "wasm32")]
    {
        // Pretty, as every JSON the page writes: one JSON writer in the page's download, not two.
        let json = serde_json::to_string_pretty(recipe).expect("a recipe is plain data");
        let block = |range, sums: &mut Vec<f64>| sums.extend(recipe.block(range));
        let blocks = page_block_sums(R::FAMILY, &json, count, K, &block).await;
        blocks.as_chunks::<K>().0.iter().fold([0.0; K], |sum, block| add(sum, *block))
    }
    #[cfg(not(target_arch = "wasm32"))]
    host::sum(count, [0.0; K], |range| recipe.block(range), add).await
}

fn add<const K: usize>(a: [f64; K], b: [f64; K]) -> [f64; K] {
    std::array::from_fn(|i| a[i] + b[i])
}

/// One block's sums, appended to the blocks' before it: a recipe's `block` behind a reference, so that the
/// page's download holds the code around it once.
type Block<'a> = &'a (dyn Fn(Range<u64>, &mut Vec<f64>) + Sync);

/// The sums of each block of items (`host::SUM_BLOCK`) that `range` covers, of a recipe given as JSON, as
/// little-endian f64s, `K` a block: a Web Worker's work. `range` starts at a block's start.
pub fn block_sums_bytes<const K: usize, R: SumRecipe<K>>(recipe: &str, range: Range<u64>) -> Result<Vec<u8>, String> {
    let recipe: R = serde_json::from_str(recipe).map_err(|e| format!("not a {} sum: {e}", R::FAMILY))?;
    let sums = block_sums(range, &|range, sums: &mut Vec<f64>| sums.extend(recipe.block(range)));
    Ok(sums.iter().flat_map(|sum| sum.to_le_bytes()).collect())
}

/// Each block's sums over `range`, which starts at a block's start, in order.
fn block_sums(range: Range<u64>, block: Block) -> Vec<f64> {
    let mut sums = Vec::new();
    for start in (range.start..range.end).step_by(SUM_BLOCK as usize) {
        block(start..range.end.min(start + SUM_BLOCK), &mut sums);
    }
    sums
}

/// Sums of fewer items are added where they are needed: a few hundred microseconds of work, less than a
/// worker's round trip.
#[cfg(target_arch = "wasm32")]
const WORKER_MIN_ITEMS: u64 = 1 << 14;

/// Page only: each block's `k` sums over items `0..count`, in order: in the page's workers, of the recipe
/// `json`; or on the page's thread (`block`, in chunks that give the page a turn) where they cannot.
#[cfg(target_arch = "wasm32")]
async fn page_block_sums(family: &str, json: &str, count: u64, k: usize, block: Block<'_>) -> Vec<f64> {
    if count >= WORKER_MIN_ITEMS {
        match sum_in_workers(family, json, count, k).await {
            Ok(sums) => return sums,
            Err(why) => log::debug!("{family} sums added on the page's thread: {why}"),
        }
    }
    let mut sums = Vec::new();
    host::for_chunks(count.div_ceil(SUM_BLOCK), |blocks| {
        sums.extend(block_sums(blocks.start * SUM_BLOCK..count.min(blocks.end * SUM_BLOCK), block));
    })
    .await;
    sums
}

/// Page only: each block's `k` sums of the recipe `json` over items `0..count`, in order, computed in the
/// page's workers; an error where they cannot (none could start, one failed, or they are busy).
#[cfg(target_arch = "wasm32")]
pub async fn sum_in_workers(family: &str, json: &str, count: u64, k: usize) -> Result<Vec<f64>, String> {
    use host::workers::{Work, compute};

    let sums = std::cell::RefCell::new(vec![0.0; count.div_ceil(SUM_BLOCK) as usize * k]);
    let take = |start: u64, bytes: js_sys::Uint8Array| {
        let at = (start / SUM_BLOCK) as usize * k;
        let (bytes, mut sums) = (bytes.to_vec(), sums.borrow_mut());
        for (sum, word) in sums[at..].iter_mut().zip(bytes.as_chunks::<8>().0) {
            *sum = f64::from_le_bytes(*word);
        }
        Box::pin(std::future::ready(Ok(()))) as host::workers::Taken
    };
    compute(Work::Sums, family, json, 0..count, SUMS_CHUNK, &take).await?;
    Ok(sums.into_inner())
}

/// Items a worker sums at most a request: tens of milliseconds of work.
#[cfg(target_arch = "wasm32")]
const SUMS_CHUNK: u64 = 1 << 20;
