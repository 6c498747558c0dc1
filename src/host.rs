//! Long computations on the host that leave the page responsive: work done a chunk at a time, handing the
//! browser's event loop a turn whenever a slice of time is used up, so that no task on the page's main
//! thread runs long (natively there is nothing to hand over and the work goes straight on).

use std::ops::Range;

use web_time::Instant;

/// Host time a computation holds the thread before it gives the page a turn: well under the 50 ms after
/// which a browser counts a task as long.
const SLICE_MS: f64 = 16.0;
/// Items in the first chunk; chunks double while one takes under a millisecond, so that the clock is read
/// rarely whether an item costs a nanosecond or a thousand.
const FIRST_CHUNK: u64 = 256;

/// Calls `work` on consecutive ranges that cover `0..count`, in order, giving the page a turn between
/// ranges whenever a slice has been used.
pub async fn for_chunks(count: u64, mut work: impl FnMut(Range<u64>)) {
    let mut slice = Instant::now();
    let mut chunk = FIRST_CHUNK;
    let mut start = 0;
    while start < count {
        let end = count.min(start + chunk);
        let began = Instant::now();
        work(start..end);
        if began.elapsed().as_secs_f64() < 1e-3 {
            chunk *= 2;
        }
        start = end;
        if slice.elapsed().as_secs_f64() * 1e3 >= SLICE_MS {
            yield_now().await;
            slice = Instant::now();
        }
    }
}

/// Lets the browser run its other tasks (input, rendering) before going on: a message to ourselves through a
/// `MessageChannel` is a new task, and unlike `setTimeout(0)` it is never held back 4 ms.
#[cfg(target_arch = "wasm32")]
pub async fn yield_now() {
    use wasm_bindgen::JsCast;
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let channel = web_sys::MessageChannel::new().expect("every browser with WebGPU has MessageChannel");
        channel.port1().set_onmessage(Some(resolve.unchecked_ref()));
        channel.port2().post_message(&wasm_bindgen::JsValue::NULL).expect("a fresh port takes a message");
    });
    // The promise never rejects; it resolves with the message event, which says nothing.
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Natively the thread is the program's own: there is no one to hand a turn to.
#[cfg(not(target_arch = "wasm32"))]
pub async fn yield_now() {}
