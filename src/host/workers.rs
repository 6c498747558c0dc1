//! Page only: long host work off the page's thread, in Web Workers that each run this same module
//! (www/reference-worker.js, started with the page's compiled module). A job is a kind of work (`Work`), a
//! family and its input as JSON; a worker computes one range of it at a time and hands back bytes whose
//! memory is transferred to the page, not copied.

use std::cell::{Cell, OnceCell, RefCell};
use std::ops::Range;
use std::rc::Rc;

use js_sys::{Object, Reflect, Uint8Array};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// The workers' script, beside the page (index.html has trunk copy it into dist/).
const SCRIPT: &str = "reference-worker.js";
/// Workers at most: one per core, up to as many as a large desktop has.
const MAX_WORKERS: usize = 16;
/// Items a request asks for at least, and what every request's size is a multiple of: a round trip to a
/// worker costs about a millisecond; and a sum's block, so that each request starts at a block's start.
const MIN_CHUNK: u64 = super::SUM_BLOCK;
/// Items a worker's first request of a job new to the workers asks for, doubled each request after: in
/// Chromium on an H200 a worker's first call of a family's reference code took 430–740 ms for 2^20 words,
/// where its median call took 22–43 ms (docs/results/page-pace-h200.md).
const FIRST_REQUEST: u64 = 1 << 14;

/// What a worker computes of a family's recipe (www/reference-worker.js calls the module's function of
/// that name).
#[derive(Clone, Copy)]
pub enum Work {
    /// A reference's encoded words (`reference_words`).
    Words,
    /// The sums of each block of items (`block_sums`).
    Sums,
    /// The digest of a reference's words (`reference_digest`).
    Digest,
}

impl Work {
    fn name(self) -> &'static str {
        match self {
            Work::Words => "words",
            Work::Sums => "sums",
            Work::Digest => "digest",
        }
    }
}

/// One worker, and the answer the page waits for from it.
struct Worker {
    worker: web_sys::Worker,
    /// (resolve, reject) of the request in flight.
    waiting: Rc<RefCell<Option<(js_sys::Function, js_sys::Function)>>>,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

impl Worker {
    fn start() -> Result<Self, String> {
        let options = web_sys::WorkerOptions::new();
        options.set_type(web_sys::WorkerType::Module);
        let worker =
            web_sys::Worker::new_with_options(SCRIPT, &options).map_err(|e| format!("no worker could start: {e:?}"))?;
        let waiting: Rc<RefCell<Option<(js_sys::Function, js_sys::Function)>>> = Rc::default();
        let answered = waiting.clone();
        let on_message = Closure::<dyn FnMut(_)>::new(move |event: web_sys::MessageEvent| {
            let Some((resolve, reject)) = answered.borrow_mut().take() else { return };
            let data = event.data();
            let error = Reflect::get(&data, &"error".into()).ok().filter(|e| !e.is_undefined());
            match error {
                Some(error) => reject.call1(&JsValue::NULL, &error),
                None => resolve.call1(&JsValue::NULL, &data),
            }
            .ok();
        });
        let failed = waiting.clone();
        // A script that does not load, or an exception the worker did not catch.
        let on_error = Closure::<dyn FnMut(_)>::new(move |event: web_sys::Event| {
            event.prevent_default();
            let message = event.dyn_ref::<web_sys::ErrorEvent>().map(|e| e.message()).unwrap_or_default();
            if let Some((_, reject)) = failed.borrow_mut().take() {
                reject.call1(&JsValue::NULL, &format!("the worker failed: {message}").into()).ok();
            }
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(Worker { worker, waiting, _on_message: on_message, _on_error: on_error })
    }

    /// Posts `message` and waits for the worker's answer.
    async fn ask(&self, message: &JsValue) -> Result<JsValue, String> {
        let answer = js_sys::Promise::new(&mut |resolve, reject| {
            *self.waiting.borrow_mut() = Some((resolve, reject));
        });
        self.worker.post_message(message).map_err(|e| format!("a worker took no message: {e:?}"))?;
        wasm_bindgen_futures::JsFuture::from(answer)
            .await
            .map_err(|e| e.as_string().unwrap_or_else(|| format!("{e:?}")))
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

/// The page's workers, started on first use; `None` where they could not start.
struct Pool {
    workers: Option<Vec<Worker>>,
    /// Whether a job failed in them since: the page's thread does the work from then on.
    failed: Cell<bool>,
    /// Whether a job is under way: each worker takes one request at a time.
    busy: Cell<bool>,
    /// The jobs the workers have done (work and family): a new one's first requests are small
    /// (`FIRST_REQUEST`).
    done_jobs: RefCell<Vec<(&'static str, String)>>,
}

thread_local! {
    static POOL: Rc<OnceCell<Pool>> = Rc::default();
}

/// Starts the workers, each with the page's compiled module, and waits until every one is ready.
async fn start_pool() -> Pool {
    let began = web_time::Instant::now();
    let cores = web_sys::window().map_or(1.0, |w| w.navigator().hardware_concurrency()) as usize;
    let module = Object::new();
    Reflect::set(&module, &"module".into(), &wasm_bindgen::module()).expect("an object takes a field");
    let started: Result<Vec<Worker>, String> = (0..cores.clamp(1, MAX_WORKERS)).map(|_| Worker::start()).collect();
    let ready = match started {
        Ok(workers) => {
            let answers = futures_util::future::join_all(workers.iter().map(|worker| worker.ask(&module))).await;
            answers.into_iter().collect::<Result<Vec<_>, String>>().map(|_| workers)
        }
        Err(why) => Err(why),
    };
    match ready {
        Ok(workers) => {
            log::debug!("{} workers ready in {:.3} s", workers.len(), began.elapsed().as_secs_f64());
            Pool {
                workers: Some(workers),
                failed: Cell::default(),
                busy: Cell::default(),
                done_jobs: RefCell::default(),
            }
        }
        Err(why) => {
            log::warn!("host work stays on the page's thread: {why}");
            Pool { workers: None, failed: Cell::default(), busy: Cell::default(), done_jobs: RefCell::default() }
        }
    }
}

/// How many workers do the page's host work: 0 where none could start or one failed.
pub fn count() -> usize {
    POOL.with(|pool| pool.get().filter(|p| !p.failed.get()).and_then(|p| p.workers.as_ref()).map_or(0, Vec::len))
}

/// The items each request of a worker asks for, in turn, for a job with requests of at most `chunk`: where the
/// job is new to the workers, `FIRST_REQUEST`, then twice the last up to `chunk`; otherwise `chunk` from the
/// first.
pub fn request_sizes(new_job: bool, chunk: u64) -> impl Iterator<Item = u64> {
    let first = if new_job { FIRST_REQUEST.min(chunk) } else { chunk };
    std::iter::successors(Some(first), move |&size| Some((2 * size).min(chunk)))
}

/// What `compute` hands a chunk to: done once the chunk is where it goes. Behind a reference, so that the
/// page's download holds `compute` once for every caller.
pub type Taken<'a> = futures_util::future::LocalBoxFuture<'a, Result<(), String>>;

/// Computes `work` of `family`'s recipe `input` (JSON) over `range` in the workers, at most `chunk` items a
/// request (fewer where that leaves each worker several requests, and fewer again at first for a job new to
/// them; every request a multiple of `MIN_CHUNK` after `range.start` but the last), and hands each
/// chunk's bytes to `take(start of its range, bytes)` as they come, in any order, giving the page a turn
/// between them; a worker asks for its next chunk once `take` has finished with its last. An error where the
/// workers cannot do it (none could start, one failed, or they are busy with another job): the caller then
/// does the work itself; or where `take` failed, which leaves the workers ready for the next job.
pub async fn compute<'a>(
    work: Work,
    family: &str,
    input: &str,
    range: Range<u64>,
    chunk: u64,
    take: &(dyn Fn(u64, Uint8Array) -> Taken<'a> + 'a),
) -> Result<(), String> {
    let pool = POOL.with(Rc::clone);
    let pool = super::once(&pool, start_pool()).await;
    let workers = match (&pool.workers, pool.failed.get(), pool.busy.replace(true)) {
        (_, _, true) => return Err("the workers are busy".into()),
        (Some(workers), false, false) => workers,
        _ => {
            pool.busy.set(false);
            return Err("no workers".into());
        }
    };
    let spread = (range.end - range.start) / (4 * workers.len() as u64);
    let chunk = chunk.min(spread).max(MIN_CHUNK) / MIN_CHUNK * MIN_CHUNK;
    let job = (work.name(), family.to_string());
    let new_job = !pool.done_jobs.borrow().contains(&job);
    let (next, refused) = (Cell::new(range.start), RefCell::new(None));
    let began = web_time::Instant::now();
    let ms = move || began.elapsed().as_secs_f64() * 1e3;
    let each_worker = workers.iter().enumerate().map(|(index, worker)| {
        let (next, take, refused, range) = (&next, &take, &refused, range.clone());
        async move {
            let mut sizes = request_sizes(new_job, chunk);
            loop {
                let start = next.get();
                if start >= range.end {
                    return Ok(());
                }
                let end = range.end.min(start + sizes.next().expect("sizes without end"));
                next.set(end);
                let request = Object::new();
                for (key, value) in [
                    ("work", JsValue::from(work.name())),
                    ("family", family.into()),
                    ("input", input.into()),
                    ("start", (start as f64).into()),
                    ("end", (end as f64).into()),
                ] {
                    Reflect::set(&request, &key.into(), &value).expect("an object takes a field");
                }
                let asked = ms();
                let answer = worker.ask(&request).await?;
                let answered = ms();
                let bytes = Reflect::get(&answer, &"bytes".into())
                    .ok()
                    .and_then(|bytes| bytes.dyn_into::<Uint8Array>().ok())
                    .ok_or("a worker answered without bytes")?;
                if let Err(why) = take(start, bytes).await {
                    *refused.borrow_mut() = Some(why);
                    return Ok(());
                }
                // Where a reference's time goes, chunk by chunk: `?log=trace` in a page built without `--release`
                // (the released page compiles this out).
                if log::log_enabled!(log::Level::Trace) {
                    let computing = Reflect::get(&answer, &"ms".into()).ok().and_then(|ms| ms.as_f64());
                    log::trace!(
                        "{family} {} chunk at {start}: worker {index} asked at {asked:.1} ms, computed in {:.1}, \
                         answered at {answered:.1}, taken at {:.1}",
                        work.name(),
                        computing.unwrap_or(f64::NAN),
                        ms()
                    );
                }
                super::pause_if_due().await;
            }
        }
    });
    let done: Result<Vec<()>, String> = futures_util::future::join_all(each_worker).await.into_iter().collect();
    pool.busy.set(false);
    if let Some(why) = refused.take() {
        return Err(why);
    }
    if let Err(why) = &done {
        log::warn!("host work goes back to the page's thread: {why}");
        pool.failed.set(true);
    } else if new_job {
        pool.done_jobs.borrow_mut().push(job);
    }
    done.map(drop)
}
