//! The page: a thin shell over `runner::run`, started by trunk's generated loader.
//!
//! Layers: widgets (`dom`, `chart`, `table`), the browser's storage and GPU (`storage`, `adapter`), the
//! state (`state`), the views (`device`, `controls`, `your_kernel`, `run`, `tuning`, `opened`, `history`, `compare`),
//! which import none of one another, and `app`, which wires them.

pub mod adapter;
mod app;
mod chart;
mod compare;
mod controls;
mod device;
pub mod dom;
mod family_results;
mod gallery;
mod history;
mod opened;
mod run;
mod state;
pub mod storage;
mod summary;
mod table;
mod tuning;
mod your_kernel;

use wasm_bindgen::prelude::*;

#[wasm_bindgen(start)]
pub fn start() {
    // The workers that compute references load this module too; they have no page.
    if web_sys::window().is_none() {
        return;
    }
    // A panic is a bug: log it with its stack, and tell the person instead of leaving the page frozen.
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        if let Some(message) = dom::document().get_element_by_id("message") {
            message.set_class_name("message error");
            message.set_text_content(Some(
                "wgsweep hit an internal error and stopped. The browser's developer console has the details; \
                 please report them. Reloading the page starts afresh.",
            ));
            message.remove_attribute("hidden").ok();
        }
    }));
    // `?log=debug` logs where a run's time goes, configuration by configuration, to the console (`?log=trace`
    // also each chunk a worker computes): in a page built without `--release` (the release build keeps
    // warnings and errors only, Cargo.toml).
    let level = dom::query("log").and_then(|level| level.parse().ok()).unwrap_or(log::Level::Warn);
    let _ = console_log::init_with_level(level);
    // The browser tests load the same module; only a page with the app's root starts the app.
    if dom::document().get_element_by_id("app").is_some() {
        dom::spawn(app::main());
    }
}

/// A Web Worker's work (www/reference-worker.js): the encoded words `start..end` of a family's reference,
/// from its recipe as JSON.
#[wasm_bindgen]
pub fn reference_words(family: &str, recipe: &str, start: f64, end: f64) -> Result<Vec<u8>, JsError> {
    named(family)?.reference_words(recipe, start as u64..end as u64).map_err(|why| JsError::new(&why))
}

/// A Web Worker's work (www/reference-worker.js): the digest of words `start..end` of a family's reference
/// of words alone (`kernel::digest_bytes`), from its recipe as JSON.
#[wasm_bindgen]
pub fn reference_digest(family: &str, recipe: &str, start: f64, end: f64) -> Result<Vec<u8>, JsError> {
    let range = start as u64..end as u64;
    let words = named(family)?.reference_words(recipe, range.clone()).map_err(|why| JsError::new(&why))?;
    crate::kernel::digest_bytes(range, &words).map_err(|why| JsError::new(&why))
}

/// A Web Worker's work (www/reference-worker.js): the sums of each block of items `start..end` of a family's
/// sum, from its recipe as JSON.
#[wasm_bindgen]
pub fn block_sums(family: &str, recipe: &str, start: f64, end: f64) -> Result<Vec<u8>, JsError> {
    named(family)?.block_sums(recipe, start as u64..end as u64).map_err(|why| JsError::new(&why))
}

/// The family a worker's job names.
fn named(family: &str) -> Result<&'static dyn crate::kernel::Family, JsError> {
    crate::kernels::family(family).ok_or_else(|| JsError::new(&format!("no family is called {family}")))
}
