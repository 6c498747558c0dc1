//! One sort for the whole crate. The standard library's sort is generic over the element and the
//! comparison, so each call sorting another type, or by another closure, adds a copy of it: twelve
//! of them took 45 KB of the page's wasm. Here every sort orders indices through a comparison
//! behind a reference (one copy), then puts the items in that order.

use std::cmp::Ordering;

/// The indices `0..len` in the order `compare` puts the items they stand for, ties in their order.
pub fn order(len: usize, compare: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

/// Sorts `items` by `compare`, ties in their order, as `slice::sort_by` does.
pub fn by<T>(items: &mut [T], compare: impl Fn(&T, &T) -> Ordering) {
    let mut order = order(items.len(), &|a, b| compare(&items[a], &items[b]));
    // Each place takes the item its index names, cycle by cycle; a place done names itself.
    for start in 0..order.len() {
        let mut place = start;
        while order[place] != place {
            let from = order[place];
            order[place] = place;
            if from == start {
                break;
            }
            items.swap(place, from);
            place = from;
        }
    }
}

/// Sorts `items` by the key `key` gives each, ties in their order, as `slice::sort_by_key` does.
pub fn by_key<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` in their own order, as `slice::sort` does.
pub fn ascending<T: Ord>(items: &mut [T]) {
    by(items, T::cmp);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_as_the_standard_library_does_ties_in_their_order() {
        let mut state = 7u32;
        for len in [0, 1, 2, 3, 5, 8, 33, 100, 1000] {
            let items: Vec<(u32, usize)> = (0..len)
                .map(|i| {
                    state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                    (state >> 28, i)
                })
                .collect();
            let mut ours = items.clone();
            by_key(&mut ours, |&(key, _)| key);
            let mut standard = items.clone();
            standard.sort_by_key(|&(key, _)| key);
            assert_eq!(ours, standard, "{len} items");
            let mut whole = items;
            ascending(&mut whole);
            assert!(whole.windows(2).all(|pair| pair[0] <= pair[1]));
        }
    }
}
