//! Long computations on the host that leave the page responsive: work done a chunk at a time, handing the
//! browser's event loop a turn whenever a slice of time is used up, so that no task on the page's main
//! thread runs long (natively there is nothing to hand over and the work goes straight on, on every core
//! where it splits). In the page, work that can be described as data goes to Web Workers (`workers`).

#[cfg(target_arch = "wasm32")]
pub mod workers;
pub mod zlib;

use std::cell::{Cell, OnceCell, RefCell};
use std::ops::Range;
use std::thread::LocalKey;

use futures_channel::oneshot;

use web_time::Instant;
use wgpu::WriteOnly;

/// Host time a computation holds the thread before it gives the page a turn: well under the 50 ms after
/// which a browser counts a task as long.
pub const SLICE_MS: f64 = 16.0;
/// Items in the first chunk; chunks double while one takes under a millisecond, so that the clock is read
/// rarely whether an item costs a nanosecond or a thousand.
const FIRST_CHUNK: u64 = 256;

/// Calls `work` on consecutive ranges that cover `0..count`, in order, giving the page a turn between
/// ranges whenever the slice since its last turn is used up (time spent between calls counts too). Each
/// range waits while a measurement is under way (`quiet`): the page's thread is the timer's meanwhile.
pub async fn for_chunks(count: u64, mut work: impl FnMut(Range<u64>)) {
    let mut chunk = FIRST_CHUNK;
    let mut start = 0;
    while start < count {
        quiet().await;
        let end = count.min(start + chunk);
        let began = Instant::now();
        work(start..end);
        if began.elapsed().as_secs_f64() < 1e-3 {
            chunk *= 2;
        }
        start = end;
        pause_if_due().await;
    }
}

/// Fills `out` by calling `work` on ranges of its items that cover them all, with the part of `out` they
/// fill: natively on every core at once (the GPU waits for this work), in the page a chunk at a time with
/// turns between, as `for_chunks`. `out` may be memory a GPU upload is staged in, which is only written.
pub async fn fill<T: Copy + Send>(mut out: WriteOnly<'_, [T]>, work: impl Fn(Range<u64>, WriteOnly<'_, [T]>) + Sync) {
    if cfg!(target_arch = "wasm32") {
        let items = out.len() as u64;
        return for_chunks(items, |range| work(range.clone(), out.slice(range.start as usize..range.end as usize)))
            .await;
    }
    // Only whole pieces may go to other threads (a write-only slice may not); the rest stays on this one.
    let (pieces, rest) = out.into_chunks::<PIECE>();
    let count = pieces.len();
    let cores = std::thread::available_parallelism().map_or(1, |cores| cores.get());
    let mut pieces = pieces.into_iter().enumerate();
    std::thread::scope(|scope| {
        loop {
            let mine: Vec<_> = pieces.by_ref().take(count.div_ceil(cores)).collect();
            if mine.is_empty() {
                break;
            }
            let work = &work;
            scope.spawn(move || {
                for (index, piece) in mine {
                    let start = (index * PIECE) as u64;
                    work(start..start + PIECE as u64, piece.into());
                }
            });
        }
        let start = (count * PIECE) as u64;
        work(start..start + rest.len() as u64, rest);
    });
}

/// Items a thread fills at a time: few enough that a matmul's sampled elements (16 Ki dot products of 4096
/// terms) or a sum's blocks still spread over every core.
const PIECE: usize = 1 << 10;

/// The sum of items `0..count`: `block(range)` sums the items of one block, on every core natively and in
/// chunks in the page, as `fill`; `merge` adds up the blocks' sums, in order, to `zero`.
pub async fn sum<S: Copy + Send>(
    count: u64,
    zero: S,
    block: impl Fn(Range<u64>) -> S + Sync,
    merge: impl Fn(S, S) -> S,
) -> S {
    let mut sums = vec![zero; count.div_ceil(SUM_BLOCK) as usize];
    fill(WriteOnly::from_mut(sums.as_mut_slice()), |blocks, out| {
        out.write_iter(blocks.map(|b| block(b * SUM_BLOCK..count.min((b + 1) * SUM_BLOCK))));
    })
    .await;
    sums.into_iter().fold(zero, merge)
}

/// Items summed as one block: a few tens of microseconds of work, so that a page's first chunk stays short.
/// The page's workers sum the same blocks (`kernel::sums`).
pub const SUM_BLOCK: u64 = 1 << 12;

/// What `cell` holds, made by `make` (long host work, done in chunks) the first time it is asked for.
pub async fn once<T>(cell: &OnceCell<T>, make: impl Future<Output = T>) -> &T {
    if let Some(made) = cell.get() {
        return made;
    }
    let made = make.await;
    cell.get_or_init(|| made)
}

/// Futures waiting for a moment of the page's (`wait_in`), all woken when it comes (`wake_all`).
type Waiters = RefCell<Vec<oneshot::Sender<()>>>;

/// Waits among `waiters` from the call on, not from the first poll: a moment that comes before the
/// future is first polled is not missed.
fn wait_in(waiters: &'static LocalKey<Waiters>) -> impl Future<Output = ()> {
    let (sender, receiver) = oneshot::channel();
    waiters.with_borrow_mut(|waiting| waiting.push(sender));
    async {
        let _ = receiver.await;
    }
}

fn wake_all(waiters: &'static LocalKey<Waiters>) {
    for waiting in waiters.take() {
        let _ = waiting.send(());
    }
}

thread_local! {
    /// Whether the GPU is being measured (`Measuring`), and the futures waiting for it to end (`quiet`).
    static MEASURING: Cell<bool> = const { Cell::new(false) };
    static WAITING: Waiters = const { RefCell::new(Vec::new()) };
}

/// While it lives, the GPU is being measured: work done meanwhile for what comes next (the page builds the
/// next configuration's reference in its workers) waits in `quiet` before it uploads, submits or holds the
/// page's thread, any of which would slow what is measured.
pub struct Measuring(());

/// Marks the GPU as measured until the guard is dropped.
pub fn measuring() -> Measuring {
    MEASURING.set(true);
    Measuring(())
}

impl Drop for Measuring {
    fn drop(&mut self) {
        MEASURING.set(false);
        wake_all(&WAITING);
    }
}

/// Whether no measurement is under way.
pub fn is_quiet() -> bool {
    !MEASURING.get()
}

/// Resolves once no measurement is under way.
pub async fn quiet() {
    if !is_quiet() {
        wait_in(&WAITING).await;
    }
}

thread_local! {
    /// Whether a part of the run holds the device's error scopes (`ScopeTurn`), and the futures waiting to.
    static SCOPE_HELD: Cell<bool> = const { Cell::new(false) };
    static WAITING_FOR_SCOPE: Waiters = const { RefCell::new(Vec::new()) };
}

/// While it lives, one part of the run has the device's error scopes to itself. A device's scopes are one
/// stack, and a scope held across a wait (for a pipeline made asynchronously) must neither catch another
/// task's errors nor be popped out of order by it.
pub struct ScopeTurn(());

/// Waits until no other part of the run holds the device's error scopes, then holds them.
pub async fn scope_turn() -> ScopeTurn {
    while SCOPE_HELD.get() {
        wait_in(&WAITING_FOR_SCOPE).await;
    }
    SCOPE_HELD.set(true);
    ScopeTurn(())
}

impl Drop for ScopeTurn {
    fn drop(&mut self) {
        SCOPE_HELD.set(false);
        wake_all(&WAITING_FOR_SCOPE);
    }
}

thread_local! {
    /// The futures waiting for a measurement's samples to be queued (`queued`).
    static WAITING_FOR_QUEUE: Waiters = const { RefCell::new(Vec::new()) };
}

/// Says that a measurement has queued its samples: the GPU has work ahead of it for a while, so work for
/// the GPU's process that holds up the page's submissions (a pipeline's compilation) can go now.
pub fn samples_queued() {
    wake_all(&WAITING_FOR_QUEUE);
}

/// Resolves once a measurement has queued its samples (`samples_queued`) after this call.
pub fn queued() -> impl Future<Output = ()> {
    wait_in(&WAITING_FOR_QUEUE)
}

thread_local! {
    /// When the page last had a turn.
    static LAST_TURN: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// Gives the page a turn if the slice since its last one is used up.
pub async fn pause_if_due() {
    let now = Instant::now();
    let last = LAST_TURN.with(|last| {
        let at = last.get().unwrap_or(now);
        last.set(Some(at));
        at
    });
    if (now - last).as_secs_f64() * 1e3 >= SLICE_MS {
        yield_now().await;
    }
}

/// `pause_if_due` at every 64th item `i` of a loop over many small ones: the clock is read rarely.
pub async fn pause_if_due_at(i: usize) {
    if i.is_multiple_of(64) {
        pause_if_due().await;
    }
}

/// A future that resolves after `duration`: the page's `setTimeout`, cleared when the future is dropped
/// first (a wait that finished in time leaves no timer behind to fire during later measurements).
#[cfg(target_arch = "wasm32")]
pub fn sleep(duration: std::time::Duration) -> Sleep {
    let window = web_sys::window().expect("the page has a window");
    let mut id = 0;
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let ms = duration.as_millis().min(i32::MAX as u128) as i32;
        id = window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms).expect("setTimeout");
    });
    Sleep { id, done: wasm_bindgen_futures::JsFuture::from(promise) }
}

#[cfg(target_arch = "wasm32")]
pub struct Sleep {
    id: i32,
    done: wasm_bindgen_futures::JsFuture,
}

#[cfg(target_arch = "wasm32")]
impl std::future::Future for Sleep {
    type Output = ();

    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<()> {
        std::pin::Pin::new(&mut self.done).poll(cx).map(|_| ())
    }
}

#[cfg(target_arch = "wasm32")]
impl Drop for Sleep {
    fn drop(&mut self) {
        if let Some(window) = web_sys::window() {
            window.clear_timeout_with_handle(self.id);
        }
    }
}

/// Lets the browser run its other tasks (input, rendering) before going on: a message to ourselves through a
/// `MessageChannel` is a new task, and unlike `setTimeout(0)` it is never held back 4 ms. One channel
/// serves the page's life: a channel dropped with a message in flight may be collected before it arrives.
#[cfg(target_arch = "wasm32")]
pub async fn yield_now() {
    use std::collections::VecDeque;
    use std::rc::Rc;

    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::Closure;

    struct Turns {
        channel: web_sys::MessageChannel,
        waiting: Rc<std::cell::RefCell<VecDeque<js_sys::Function>>>,
        _on_message: Closure<dyn FnMut()>,
    }
    thread_local! {
        static TURNS: Turns = {
            let channel = web_sys::MessageChannel::new().expect("every browser with WebGPU has MessageChannel");
            let waiting: Rc<std::cell::RefCell<VecDeque<js_sys::Function>>> = Rc::default();
            let next = waiting.clone();
            let on_message = Closure::<dyn FnMut()>::new(move || {
                if let Some(resolve) = next.borrow_mut().pop_front() {
                    resolve.call0(&wasm_bindgen::JsValue::NULL).ok();
                }
            });
            channel.port1().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            Turns { channel, waiting, _on_message: on_message }
        };
    }
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        TURNS.with(|turns| {
            turns.waiting.borrow_mut().push_back(resolve);
            turns.channel.port2().post_message(&wasm_bindgen::JsValue::NULL).expect("a port takes a message");
        })
    });
    // The promise never rejects; it resolves with nothing.
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    LAST_TURN.with(|last| last.set(Some(Instant::now())));
}

/// Natively the thread is the program's own: there is no one to hand a turn to.
#[cfg(not(target_arch = "wasm32"))]
pub async fn yield_now() {}
