//! The auto-tuner's search, on landscapes known in advance.

use wgsweep::kernel::shapes::power_of_two_sizes;
use wgsweep::tune::Search;

use crate::limits;

/// Runs the auto-tuner's search on a landscape known in advance: the shape it ends on and how many it tried.
fn search(candidates: &[[u32; 3]], default: [u32; 3], figure: impl Fn([u32; 3]) -> Option<f64>) -> ([u32; 3], usize) {
    let mut search = Search::new(candidates, default, 0.02);
    let mut tried: Vec<([u32; 3], Option<f64>)> = Vec::new();
    while let Some(w) = search.next() {
        assert!(candidates.contains(&w), "{w:?} is not a candidate");
        assert!(!tried.iter().any(|(t, _)| *t == w), "{w:?} tried twice");
        tried.push((w, figure(w)));
        search.record(w, figure(w));
    }
    let best = tried.iter().filter_map(|&(w, f)| Some((w, f?))).max_by(|a, b| a.1.total_cmp(&b.1)).unwrap().0;
    (best, tried.len())
}

fn one_d() -> Vec<[u32; 3]> {
    power_of_two_sizes(&limits(1024, 1024, 32768)).into_iter().map(|x| [x, 1, 1]).collect()
}

/// A single peak at `peak`, falling off with the distance in log2 space.
fn peaked(peak: [u32; 3]) -> impl Fn([u32; 3]) -> Option<f64> {
    move |w| {
        let d = |a: u32, b: u32| ((a as f64).log2() - (b as f64).log2()).abs();
        Some(100.0 / (1.0 + d(w[0], peak[0]) + 0.7 * d(w[1], peak[1])))
    }
}

#[test]
fn tuner_search_finds_a_single_peak_in_one_dimension_without_trying_every_size() {
    for peak in [1, 8, 64, 256, 1024] {
        let (best, tried) = search(&one_d(), [64, 1, 1], peaked([peak, 1, 1]));
        assert_eq!(best, [peak, 1, 1]);
        assert!(tried < one_d().len(), "peak {peak}: tried {tried} of {}", one_d().len());
    }
}

#[test]
fn tuner_search_finds_a_single_peak_among_two_dimensional_shapes_in_under_a_third_of_them() {
    let shapes = wgsweep::kernel::shapes::power_of_two_shapes(&limits(1024, 1024, 32768));
    assert_eq!(shapes.len(), 66);
    for peak in [[32, 4, 1], [8, 8, 1], [1, 256, 1], [1024, 1, 1], [16, 64, 1]] {
        let (best, tried) = search(&shapes, [8, 8, 1], peaked(peak));
        assert_eq!(best, peak);
        assert!(tried <= 22, "peak {peak:?}: tried {tried} of 66");
    }
}

#[test]
fn tuner_search_stops_on_a_plateau_where_no_step_gains_two_percent() {
    let (_, tried) = search(&one_d(), [64, 1, 1], |w| Some(if w[0] >= 16 { 100.0 + w[0] as f64 / 1e4 } else { 10.0 }));
    // The start, two coarse neighbours, two fine ones.
    assert_eq!(tried, 5);
}

#[test]
fn tuner_search_leaves_a_default_that_does_not_run_and_tries_small_sets_whole() {
    let fails_below_128 = |w: [u32; 3]| (w[0] >= 128).then(|| 1000.0 - w[0] as f64);
    assert_eq!(search(&one_d(), [64, 1, 1], fails_below_128).0, [128, 1, 1]);
    let tiles = [[8, 8, 1], [16, 16, 1], [32, 32, 1], [8, 2, 1], [16, 4, 1], [32, 8, 1]];
    let (best, tried) = search(&tiles, [8, 8, 1], peaked([16, 4, 1]));
    assert_eq!((best, tried), ([16, 4, 1], 6));
}

#[test]
fn tuner_search_finds_a_single_peak_over_a_shape_and_two_tunables_in_a_fraction_of_them() {
    // 11 sizes × 5 × 4 values: a user's kernel's WG_X and two tunables, positions by index.
    let mut candidates: Vec<([u32; 3], Option<u32>)> = Vec::new();
    let mut positions = Vec::new();
    for (xi, x) in (0..11).map(|p| (p, 1u32 << p)) {
        for tile in 0..5 {
            for epi in 0..4 {
                candidates.push(([x, 1, 1], Some(tile * 4 + epi)));
                positions.push(vec![xi, 0, 0, tile as i32, epi as i32]);
            }
        }
    }
    for peak in [[8, 4, 3], [2, 0, 0], [10, 2, 1], [6, 3, 2]] {
        let figure = |at: &[i32]| {
            let d = (at[0] - peak[0]).abs() as f64
                + 1.3 * (at[3] - peak[1]).abs() as f64
                + 0.8 * (at[4] - peak[2]).abs() as f64;
            100.0 / (1.0 + d)
        };
        let mut search = Search::on_grid(&candidates, positions.clone(), ([64, 1, 1], Some(0)), 0.02);
        let mut tried = Vec::new();
        while let Some(c) = search.next() {
            assert!(!tried.contains(&c), "{c:?} tried twice");
            tried.push(c);
            let at = &positions[candidates.iter().position(|&k| k == c).unwrap()];
            search.record(c, Some(figure(at)));
        }
        let at = |c: &([u32; 3], Option<u32>)| positions[candidates.iter().position(|k| k == c).unwrap()].clone();
        let best = tried.iter().max_by(|a, b| figure(&at(a)).total_cmp(&figure(&at(b)))).unwrap();
        assert_eq!(at(best), vec![peak[0], 0, 0, peak[1], peak[2]], "peak {peak:?}");
        assert!(tried.len() * 4 <= candidates.len(), "peak {peak:?}: tried {} of {}", tried.len(), candidates.len());
    }
}

#[test]
fn tuner_search_over_many_tunables_samples_the_space_and_leaves_a_local_peak_for_a_higher_one() {
    // 8 × 8 × 8 positions: a local peak by the start, and a higher one, with a broader slope, far from it.
    let mut candidates: Vec<([u32; 3], Option<u32>)> = Vec::new();
    let mut positions = Vec::new();
    for x in 0..8 {
        for a in 0..8 {
            for b in 0..8 {
                candidates.push(([1 << x, 1, 1], Some(a * 8 + b)));
                positions.push(vec![x, 0, 0, a as i32, b as i32]);
            }
        }
    }
    let figure = |at: &[i32]| {
        let near = 100.0 / (1.0 + ((at[0] - 6).abs() + at[3].abs() + at[4].abs()) as f64);
        let far = 130.0 / (1.0 + 0.5 * ((at[0] - 2).abs() + (at[3] - 6).abs() + (at[4] - 7).abs()) as f64);
        near.max(far)
    };
    let mut search = Search::on_grid(&candidates, positions.clone(), ([64, 1, 1], Some(0)), 0.02);
    let mut tried = Vec::new();
    while let Some(c) = search.next() {
        assert!(!tried.contains(&c), "{c:?} tried twice");
        tried.push(c);
        let f = figure(&positions[candidates.iter().position(|&k| k == c).unwrap()]);
        search.record(c, Some(f));
    }
    let at = |c: &([u32; 3], Option<u32>)| positions[candidates.iter().position(|k| k == c).unwrap()].clone();
    let best = tried.iter().max_by(|a, b| figure(&at(a)).total_cmp(&figure(&at(b)))).unwrap();
    assert_eq!(at(best), vec![2, 0, 0, 6, 7], "the higher peak, found through the sample");
    assert!(tried.len() * 4 <= candidates.len(), "tried {} of {}", tried.len(), candidates.len());
}
