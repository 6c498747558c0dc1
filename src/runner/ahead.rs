//! Page only: the next reference built while the GPU measures.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::task::Poll;

use futures_util::future::LocalBoxFuture;

use web_time::Instant;

use crate::gpu::Gpu;
use crate::kernel::{Configuration, Workload};
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
}

impl<'a> Ahead<'a> {
    /// In the page, where `workload` builds references ahead: asks for the references of the family's
    /// configurations after `configurations[index]`, in turn, until one is built rather than kept; unless a
    /// build is under way, or asked for past `index` already. A reference or sum is built (`references_built`)
    /// in the workers; one made on the page's thread otherwise (counts) is left for its configuration: it
    /// would not overlap the GPU's work, only lengthen the gaps between measurements.
    pub(super) fn start(&self, gpu: &'a Gpu, workload: &Rc<dyn Workload>, configurations: &[Planned], index: usize) {
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

    /// Runs `work`, going on with the build meanwhile (it may start during `work`).
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

    /// Finishes the build under way, if any.
    pub(super) async fn settle(&self) {
        let building = self.building.borrow_mut().take();
        if let Some(build) = building {
            build.await;
        }
    }
}
