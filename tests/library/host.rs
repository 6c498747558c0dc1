//! Long host work in chunks.

use wgpu::WriteOnly;
use wgsweep::host;

#[test]
fn host_fill_and_sum_cover_every_item_once_in_order() {
    // Longer than several of the pieces threads take, and not a multiple of one.
    let count = 100_003;
    let mut items = vec![u64::MAX; count];
    pollster::block_on(host::fill(WriteOnly::from_mut(items.as_mut_slice()), |range, out| out.write_iter(range)));
    assert!(items.iter().enumerate().all(|(i, &item)| item == i as u64));
    let sum = pollster::block_on(host::sum(count as u64, 0, |range| range.sum::<u64>(), |a, b| a + b));
    assert_eq!(sum, (count as u64 - 1) * count as u64 / 2);
}

/// A family's block sums as the page's workers compute them (`Family::block_sums`), over `requests`, each
/// block's sums read back as f64s.
fn block_sums(family: &str, recipe: &str, requests: impl IntoIterator<Item = std::ops::Range<u64>>) -> Vec<f64> {
    let family = wgsweep::kernels::family(family).expect("a built-in family");
    let bytes = requests.into_iter().flat_map(|range| family.block_sums(recipe, range).expect("a sum recipe"));
    let bytes: Vec<u8> = bytes.collect();
    bytes.as_chunks::<8>().0.iter().map(|word| f64::from_le_bytes(*word)).collect()
}

#[test]
fn workers_block_sums_cover_each_block_once_whatever_the_requests() {
    // Not a multiple of a block: the last one is short.
    let count = 100_003;
    let seed = 7;
    let block = host::SUM_BLOCK;
    let whole = block_sums("reduce", &format!(r#"{{"seed":{seed}}}"#), std::iter::once(0..count));
    let requests = [0..block, block..4 * block, 4 * block..count];
    assert_eq!(block_sums("reduce", &format!(r#"{{"seed":{seed}}}"#), requests.clone()), whole);
    assert_eq!(whole.len() as u64, 3 * count.div_ceil(block), "the u32 sum, the f32 sum and Σ|x| a block");
    // The blocks' u32 sums, wrapped once more, are the input's bits added up.
    let bits = (0..count).fold(0u32, |sum, i| sum.wrapping_add(wgsweep::fill::random_f32(i as u32, seed).to_bits()));
    let blocks = whole.iter().step_by(3).fold(0u64, |sum, &block| sum + block as u64);
    assert_eq!(blocks as u32, bits);
    let magnitude: f64 = (0..count).map(|i| wgsweep::fill::random_f32(i as u32, seed).abs() as f64).sum();
    let blocks: f64 = whole.iter().skip(2).step_by(3).sum();
    assert!((blocks - magnitude).abs() <= 1e-9 * magnitude, "{blocks} against {magnitude}");
    // Dot's: Σ a·b and Σ |a·b|, two a block.
    let dot = block_sums("stream", &format!(r#"{{"inputs":{{"seed":{seed}}},"half":false}}"#), requests);
    assert_eq!(dot.len() as u64, 2 * count.div_ceil(block));
    let product = |i: u64| {
        let [a, b] = [seed, seed + 1].map(|seed| wgsweep::fill::random_f32(i as u32, seed) as f64);
        a * b
    };
    let (want, magnitude): (f64, f64) = ((0..count).map(product).sum(), (0..count).map(|i| product(i).abs()).sum());
    let got: f64 = dot.iter().step_by(2).sum();
    assert!((got - want).abs() <= 1e-9 * magnitude, "{got} against {want}");
    let stream = wgsweep::kernels::family("stream").unwrap();
    let refused = stream.block_sums("{}", 0..block).unwrap_err();
    assert!(refused.starts_with("not a stream sum"), "{refused}");
    let refused = wgsweep::kernels::family("transpose").unwrap().block_sums("{}", 0..block).unwrap_err();
    assert_eq!(refused, "the transpose family adds up no sum");
}

#[test]
fn work_waiting_for_queued_samples_goes_on_once_a_measurement_has_queued_them() {
    use futures_util::FutureExt;
    host::samples_queued(); // one before the wait began does not count
    let mut waiting = Box::pin(host::queued());
    assert!(waiting.as_mut().now_or_never().is_none());
    host::samples_queued();
    assert!(waiting.now_or_never().is_some());
}

#[test]
fn work_started_while_the_gpu_is_measured_waits_for_the_measurement_to_end() {
    use futures_util::FutureExt;
    let measuring = host::measuring();
    let mut quiet = Box::pin(host::quiet());
    assert!(quiet.as_mut().now_or_never().is_none(), "the GPU is being measured");
    let covered = std::cell::Cell::new(0);
    let mut chunks = Box::pin(host::for_chunks(1000, |range| covered.set(covered.get() + range.end - range.start)));
    assert!(chunks.as_mut().now_or_never().is_none());
    assert_eq!(covered.get(), 0, "no chunk is done while the GPU is measured");
    drop(measuring);
    assert!(quiet.now_or_never().is_some());
    pollster::block_on(chunks);
    assert_eq!(covered.get(), 1000);
    assert!(host::is_quiet());
}

#[test]
fn work_under_way_when_a_measurement_begins_waits_for_its_end() {
    use futures_util::FutureExt;
    let (covered, measuring) = (std::cell::Cell::new(0), std::cell::RefCell::new(None));
    let mut chunks = Box::pin(host::for_chunks(1 << 20, |range| {
        if range.start == 0 {
            *measuring.borrow_mut() = Some(host::measuring());
        }
        covered.set(covered.get() + range.end - range.start);
    }));
    assert!(chunks.as_mut().now_or_never().is_none(), "the measurement began after the first chunk");
    assert!(covered.get() < 1 << 20);
    drop(measuring.take());
    pollster::block_on(chunks);
    assert_eq!(covered.get(), 1 << 20);
}
