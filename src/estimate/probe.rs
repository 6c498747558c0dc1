//! The host's speed, for the estimate: a fixed piece of the CPU work a run does on its host, timed where
//! the run's host work runs (the page's thread in the browser, the CLI's natively). On the same GPU the
//! page's first run took 29 to 46 s on different hosts (docs/results/estimates.md): the references, the
//! checks and the driver's pipeline builds are host work, and other work holding the host's cores slows
//! them too.

use web_time::Instant;

/// Rounds timed; the median counts, so that the time the host's other work takes from the run counts
/// too, while a round that the browser's first, unoptimised tier of WebAssembly ran does not.
const ROUNDS: usize = 10;
/// The product's side: in the page about 17 million multiply-adds, 10.8–11.6 ms on idle H200 hosts;
/// natively eight times the work (16.2–16.5 ms there), since 256 took 2.9 ms, within an operating system's
/// time slice, and other work holding the cores was seen only now and then.
const SIDE: usize = if cfg!(target_arch = "wasm32") { 256 } else { 512 };

/// Rows of the product timed at a time: an eighth of it (about 1.4 ms in the page on an H200's host, 14
/// ticks of its coarsest clock), so that on a host many times slower, or in the browser's first tier, the
/// page still gets a turn well within 50 ms.
const BLOCK_ROWS: usize = SIDE / 8;

/// Milliseconds one round took: a `SIDE` × `SIDE` matrix product in f32, row by row as a CPU reference
/// computes its sums, timed a block of rows at a time with a turn for the page between blocks where one is
/// due (the turns untimed).
async fn round() -> f64 {
    let a: Vec<f32> = (0..SIDE * SIDE).map(|i| (i % 13) as f32 * 0.25).collect();
    let b: Vec<f32> = (0..SIDE * SIDE).map(|i| (i % 7) as f32 * 0.5).collect();
    let mut c = vec![0.0f32; SIDE * SIDE];
    let mut ms = 0.0;
    for (a_rows, c_rows) in a.chunks_exact(BLOCK_ROWS * SIDE).zip(c.chunks_exact_mut(BLOCK_ROWS * SIDE)) {
        let began = Instant::now();
        product_rows(a_rows, &b, c_rows);
        ms += began.elapsed().as_secs_f64() * 1e3;
        crate::host::pause_if_due().await;
    }
    std::hint::black_box(&c);
    ms
}

/// `c_rows` += `a_rows` · `b`. A function of its own, so that the browser optimises it alone and soon.
#[inline(never)]
fn product_rows(a_rows: &[f32], b: &[f32], c_rows: &mut [f32]) {
    for (a_row, c_row) in a_rows.chunks_exact(SIDE).zip(c_rows.chunks_exact_mut(SIDE)) {
        for (&a_ik, b_row) in a_row.iter().zip(b.chunks_exact(SIDE)) {
            for (c_ij, &b_kj) in c_row.iter_mut().zip(b_row) {
                *c_ij += a_ik * b_kj;
            }
        }
    }
}

/// The host's probe, ms: the median of `ROUNDS` rounds. In the page the rounds are 10 ms apart: a turn for
/// the page between them, and time for the browser to optimise the round apart from it (five rounds of an
/// eighth of the work one after another, the quickest counted, found 2.5 ms on an idle H200 host and 1.4 ms
/// on the same host with every core busy, where the rounds came later: its first tier, then its optimised one).
pub async fn host_ms() -> f64 {
    let mut rounds = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        crate::host::quiet().await; // not while a measurement is under way: it would slow both
        rounds.push(round().await);
        #[cfg(target_arch = "wasm32")]
        crate::host::sleep(std::time::Duration::from_millis(10)).await;
    }
    crate::stats::summarize(&rounds).map_or(f64::NAN, |s| s.median)
}
