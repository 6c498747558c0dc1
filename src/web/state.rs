//! The page's state, in one place, and the actions one view asks of another. Views read and change the
//! state here and `dispatch` actions; `app` (above every view) decides what each action does, so no view
//! imports another.

use std::cell::RefCell;
use std::rc::Rc;

use super::chart::Charts;
use super::family_results::FamilyResults;
use crate::gpu::Gpu;
use crate::result::RunResult;

#[derive(Default)]
pub struct App {
    /// The open device, once WebGPU gave one.
    pub gpu: Option<Rc<Gpu>>,
    /// The browser's own feature names for the adapter (wgpu drops some, e.g. subgroups).
    pub browser_features: Vec<String>,
    /// How quick this host is (`estimate::probe`), once measured: the estimates scale by it.
    pub host_probe_ms: Option<f64>,
    /// A run or a tuning is going on.
    pub busy: bool,
    /// The person asked to stop what is going on after the configuration in progress.
    pub cancel: bool,
    /// The last finished run.
    pub last: Option<RunResult>,
    /// A run whose device was lost, and its plan: what going on with it takes.
    pub resumable: Option<(crate::plan::Plan, RunResult)>,
    /// The result opened from a link, a file or the history.
    pub opened: Option<Rc<RunResult>>,
    /// The results being compared, the first the baseline: shared with the turns that show them.
    pub compared: Rc<Vec<RunResult>>,
    /// The page is served by a results gallery (`server/`).
    pub gallery: bool,
    /// The gallery's device class shown (its key).
    pub gallery_device: Option<String>,
    /// The result whose publishing waits for the person's yes.
    pub publishing: Option<RunResult>,
    pub run_results: Option<FamilyResults>,
    pub opened_results: Option<FamilyResults>,
    pub compare_charts: Option<Charts>,
}

/// What a view asks of the page beyond itself.
pub enum Action {
    /// Show a result that was not run here (a link, a file, the history) under this title.
    Open { result: RunResult, title: String },
    /// Add a result to the comparison and show it.
    Compare(RunResult),
    /// Keep a result in the history under `id` (a run as it goes, an opened result once), as `payload`
    /// where it came as one (a link's), else encoded.
    Keep { id: String, result: RunResult, payload: Option<String> },
    /// Run the picked kernels with the controls' settings.
    Run,
    /// Auto-tune the picked kernels.
    Tune,
    /// Go on with the run whose device was lost, from the configuration after its last, on a fresh device.
    GoOn,
    /// Run this plan (a user's kernel) rather than the controls'.
    RunPlan(crate::plan::Plan),
    /// Auto-tune this plan's kernels.
    TunePlan(crate::plan::Plan),
    /// A run measured the device's peaks: show them, in words, on the device card.
    Peaks(String),
    /// Show what a run (finished or going) says at a glance.
    Summary(RunResult),
    /// Offer to publish a result to the gallery, showing what would be sent.
    Publish(RunResult),
    /// The kept runs changed (a run was published): list them again.
    HistoryChanged,
}

type Handler = Rc<dyn Fn(Action)>;

thread_local! {
    static APP: RefCell<App> = RefCell::new(App::default());
    static HANDLER: RefCell<Option<Handler>> = const { RefCell::new(None) };
}

/// Reads or changes the state. Do not dispatch or await inside: the state is borrowed meanwhile.
pub fn with<R>(f: impl FnOnce(&mut App) -> R) -> R {
    APP.with(|app| f(&mut app.borrow_mut()))
}

/// Sets what the page does with each action (once, in `app`).
pub fn handle_with(handler: impl Fn(Action) + 'static) {
    HANDLER.with(|h| *h.borrow_mut() = Some(Rc::new(handler)));
}

/// Asks the page to do `action`.
pub fn dispatch(action: Action) {
    if let Some(handler) = HANDLER.with(|h| h.borrow().clone()) {
        handler(action);
    }
}
