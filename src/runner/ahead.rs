//! Page only: the next reference built, and the next configuration's pipelines made, while the GPU measures.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::task::Poll;

use futures_util::future::LocalBoxFuture;

use web_time::Instant;

use crate::gpu::Gpu;
use crate::kernel::{Configuration, Prepared, Workload};
use crate::plan::Planned;
use crate::result::Pace;

/// Page only: the reference of the family's next configuration that needs one it does not keep, built in
/// the workers while the GPU measures the configurations checked with the one before (the workload keeps
/// both, `KeptReference`), so that the GPU does not wait for it between kernels.
#[derive(Default)]
pub(super) struct Ahead<'a> {
    /// The configuration (its place in the run) whose reference is asked for, or was last.
    at: Rc<Cell<Option<usize>>>,
    building: RefCell<Option<LocalBoxFuture<'a, ()>>>,
    /// The next configuration prepared while this one's samples are queued (`prepare_next`), and kept
    /// until it is prepared for its own run: the GPU's process then finds its pipelines made (it keeps a
    /// pipeline while one like it lives) instead of compiling them between two measurements.
    preparing: RefCell<Option<LocalBoxFuture<'a, Option<Prepared>>>>,
    prepared: RefCell<Option<Prepared>>,
}

impl<'a> Ahead<'a> {
    /// In the page, where `workload` builds references ahead: asks for the references of the family's
    /// configurations after `configurations[index]`, in turn, until one is built rather than kept; unless a
    /// build is under way, or asked for past `index` already. A reference or sum is built (`references_built`)
    /// in the workers; one made on the page's thread otherwise (counts) is left for its configuration: it
    /// would not overlap the GPU's work, only lengthen the gaps between measurements.
    pub(super) fn start(&self, gpu: &'a Gpu, workload: &Rc<dyn Workload>, configurations: &[Planned], index: usize) {
        self.prepare_next(gpu, workload, configurations, index);
        let busy = self.building.borrow().is_some() || self.at.get().is_some_and(|at| at > index);
        if busy || !cfg!(target_arch = "wasm32") || !workload.reference_ahead() {
            return;
        }
        let family = configurations[index].family.name();
        let rest = configurations[index + 1..].iter().take_while(|next| next.family.name() == family);
        let rest: Vec<Configuration> = rest.map(|next| next.configuration).collect();
        let workload = workload.clone();
        let at = self.at.clone();
        let build = async move {
            for (next, configuration) in (index + 1..).zip(&rest) {
                at.set(Some(next));
                let built = crate::kernel::references_built();
                let mut asked = workload.reference(gpu, configuration);
                let first = std::future::poll_fn(|context| Poll::Ready(asked.as_mut().poll(context))).await;
                if first.is_ready() {
                    continue; // kept already
                }
                if crate::kernel::references_built() != built {
                    // An error is that configuration's, said when it is checked.
                    asked.await.ok();
                }
                return;
            }
        };
        *self.building.borrow_mut() = Some(Box::pin(build));
    }

    /// In the page, where the family's next configuration is `configurations[index + 1]`: prepares it once
    /// this one's samples are queued (`host::queued`), inside an error scope of its own (its errors are
    /// said when it is prepared for its run), and keeps it. Lets go of the one prepared before.
    fn prepare_next(&self, gpu: &'a Gpu, workload: &Rc<dyn Workload>, configurations: &[Planned], index: usize) {
        self.prepared.take();
        self.preparing.take();
        let Some(next) = configurations.get(index + 1) else { return };
        if !cfg!(target_arch = "wasm32") || next.family.name() != configurations[index].family.name() {
            return;
        }
        let (workload, configuration) = (workload.clone(), next.configuration);
        *self.preparing.borrow_mut() = Some(Box::pin(async move {
            crate::host::queued().await;
            let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
            let prepared = workload.prepare(gpu, &configuration).ok();
            drop(scope.pop());
            log::trace!("{}: prepared ahead", crate::kernels::describe(&configuration));
            prepared
        }));
    }

    /// Runs `work`, going on with the build and the preparing meanwhile (they may start during `work`).
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
            let mut preparing = self.preparing.borrow_mut();
            if let Some(Poll::Ready(prepared)) = preparing.as_mut().map(|prepare| prepare.as_mut().poll(context)) {
                *preparing = None;
                *self.prepared.borrow_mut() = prepared;
            }
            Poll::Pending
        })
        .await
    }

    /// Finishes the build, where configuration `index` is the one it asked for: its reference is ready
    /// before it is checked. Adds the wait to `pace`.
    pub(super) async fn wait_for(&self, index: usize, pace: &mut Pace) {
        if self.at.get() == Some(index) {
            let waiting = Instant::now();
            self.settle().await;
            pace.references_s += waiting.elapsed().as_secs_f64();
        }
    }

    /// Finishes the build under way, if any, and lets go of a configuration prepared ahead.
    pub(super) async fn settle(&self) {
        self.preparing.take();
        self.prepared.take();
        let building = self.building.borrow_mut().take();
        if let Some(build) = building {
            build.await;
        }
    }
}
