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
    let sum = pollster::block_on(host::sum(count as u64, |range| range.sum::<u64>(), |a, b| a + b));
    assert_eq!(sum, (count as u64 - 1) * count as u64 / 2);
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
