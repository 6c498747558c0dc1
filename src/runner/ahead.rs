//! Page only: the next reference built, and the next configuration prepared, run once and checked, while the
//! GPU measures.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::task::Poll;

use futures_util::future::LocalBoxFuture;

use web_time::Instant;

use super::one::{Bench, Harness, Readied, ready_ahead};
use crate::gpu::Gpu;
use crate::kernel::{Configuration, Reference, Workload};
use crate::plan::Planned;
use crate::result::Pace;

/// Page only: the reference of the family's next configuration that needs one it does not keep, built in
/// the workers while the GPU measures the configurations checked with the one before (the workload keeps
/// both, `KeptReference`), so that the GPU does not wait for it between kernels; and the family's next
/// configuration readied while this one's samples are queued (`ready_ahead`), so that the GPU does not
/// wait for its pipelines, its first run or its check between two measurements.
pub(super) struct Ahead<'a> {
    gpu: &'a Gpu,
    pub(super) harness: &'a Harness,
    max_dispatch_ns: f64,
    /// The configuration (its place in the run) whose reference is asked for, or was last.
    at: Rc<Cell<Option<usize>>>,
    building: RefCell<Option<LocalBoxFuture<'a, ()>>>,
    /// The references the build found kept, or built, for configurations after the one asking, by their
    /// place in the run: the next configuration is checked with its own while this one is measured.
    found: Rc<RefCell<Vec<Found>>>,
    /// The next configuration readied while this one's samples are queued (`ready_next`), whether that has
    /// begun (its work is then on the GPU, and its turn waits for it), and what it made.
    readying: RefCell<Option<LocalBoxFuture<'a, Option<Readied>>>>,
    begun: Rc<Cell<bool>>,
    readied: RefCell<Option<Readied>>,
}

/// A configuration's place in the run, and its reference.
type Found = (usize, Rc<Reference>);

impl<'a> Ahead<'a> {
    pub(super) fn new(gpu: &'a Gpu, harness: &'a Harness, max_dispatch_ns: f64) -> Self {
        Ahead {
            gpu,
            harness,
            max_dispatch_ns,
            at: Rc::default(),
            building: RefCell::default(),
            found: Rc::default(),
            readying: RefCell::default(),
            begun: Rc::default(),
            readied: RefCell::default(),
        }
    }

    /// In the page, where `workload` builds references ahead: asks for the references of the family's
    /// configurations after `configurations[index]`, in turn, until one is built rather than kept; unless a
    /// build is under way, or asked for past `index` already. A reference or sum is built (`references_built`)
    /// in the workers; one made on the page's thread otherwise (counts) is left for its configuration: it
    /// would not overlap the GPU's work, only lengthen the gaps between measurements.
    pub(super) fn start(&self, workload: &Rc<dyn Workload>, configurations: &[Planned], index: usize) {
        self.found.borrow_mut().retain(|(at, _)| *at > index);
        self.ready_next(workload, configurations, index);
        let busy = self.building.borrow().is_some() || self.at.get().is_some_and(|at| at > index);
        if busy || !cfg!(target_arch = "wasm32") || !workload.reference_ahead() {
            return;
        }
        let family = configurations[index].family.name();
        let rest = configurations[index + 1..].iter().take_while(|next| next.family.name() == family);
        let rest: Vec<Configuration> = rest.map(|next| next.configuration).collect();
        let (gpu, workload) = (self.gpu, workload.clone());
        let (at, found) = (self.at.clone(), self.found.clone());
        let build = async move {
            for (next, configuration) in (index + 1..).zip(&rest) {
                at.set(Some(next));
                let built = crate::kernel::references_built();
                let mut asked = workload.reference(gpu, configuration);
                let first = std::future::poll_fn(|context| Poll::Ready(asked.as_mut().poll(context))).await;
                let (reference, kept) = match first {
                    Poll::Ready(kept) => (kept, true),
                    _ if crate::kernel::references_built() != built => (asked.await, false),
                    _ => return,
                };
                // An error is that configuration's, said when it is checked.
                if let Ok(Some(reference)) = reference {
                    found.borrow_mut().push((next, reference));
                }
                if !kept {
                    return;
                }
            }
        };
        *self.building.borrow_mut() = Some(Box::pin(build));
    }

    /// In the page, where the family's next configuration is `configurations[index + 1]`: readies it once
    /// this one's samples are queued (`host::queued`; `ready_ahead`), with the reference the build found
    /// for it, if any. Lets go of the one readied before.
    fn ready_next(&self, workload: &Rc<dyn Workload>, configurations: &[Planned], index: usize) {
        self.readying.take();
        self.readied.take();
        self.begun.set(false);
        let Some(next) = configurations.get(index + 1) else { return };
        if !cfg!(target_arch = "wasm32") || next.family.name() != configurations[index].family.name() {
            return;
        }
        let (gpu, harness, max_dispatch_ns) = (self.gpu, self.harness, self.max_dispatch_ns);
        let (found, begun, workload) = (self.found.clone(), self.begun.clone(), workload.clone());
        let (next, measured) = (*next, configurations[index].configuration);
        let queued = crate::host::queued();
        *self.readying.borrow_mut() = Some(Box::pin(async move {
            queued.await;
            begun.set(true);
            let reference = found.borrow().iter().find(|(at, _)| *at == index + 1).map(|(_, found)| found.clone());
            let bench = Bench { gpu, harness, family: next.family, workload: workload.as_ref() };
            ready_ahead(bench, (index + 1, &next.configuration), &measured, reference, max_dispatch_ns).await
        }));
    }

    /// Runs `work`, going on with the build and the readying meanwhile (they may start during `work`).
    pub(super) async fn beside<T>(&self, work: impl Future<Output = T>) -> T {
        let mut work = std::pin::pin!(work);
        std::future::poll_fn(|context| {
            if let Poll::Ready(value) = work.as_mut().poll(context) {
                return Poll::Ready(value);
            }
            let mut building = self.building.borrow_mut();
            if building.as_mut().is_some_and(|build| build.as_mut().poll(context).is_ready()) {
                *building = None;
            }
            let mut readying = self.readying.borrow_mut();
            if let Some(Poll::Ready(readied)) = readying.as_mut().map(|ready| ready.as_mut().poll(context)) {
                *readying = None;
                *self.readied.borrow_mut() = readied;
            }
            Poll::Pending
        })
        .await
    }

    /// Makes ready for configuration `index`: finishes the build where `index` is the configuration it
    /// asked for (its reference is ready before it is checked; the wait added to `pace` as references),
    /// and returns what was readied for it while the one before it was measured, once the GPU has answered
    /// (the wait added as validation).
    pub(super) async fn ready_for(&self, index: usize, pace: &mut Pace) -> Option<Readied> {
        if self.at.get() == Some(index) {
            let waiting = Instant::now();
            self.finish_build().await;
            pace.references_s += waiting.elapsed().as_secs_f64();
        }
        let readied = match self.readying.take() {
            Some(readying) if self.begun.get() => {
                let waiting = Instant::now();
                let readied = readying.await;
                pace.validation_s += waiting.elapsed().as_secs_f64();
                readied
            }
            _ => self.readied.take(),
        };
        readied.filter(|readied| readied.index == index)
    }

    /// Finishes the build under way, if any, and lets go of what it found and of a configuration readied.
    pub(super) async fn settle(&self) {
        self.readying.take();
        self.readied.take();
        self.found.borrow_mut().clear();
        self.finish_build().await;
    }

    async fn finish_build(&self) {
        let building = self.building.borrow_mut().take();
        if let Some(build) = building {
            build.await;
        }
    }
}
