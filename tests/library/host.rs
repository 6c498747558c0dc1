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
