//! The page: a thin shell over `runner::run`, started by trunk's generated loader.

pub mod adapter;
mod app;
mod chart;
mod dom;

use wasm_bindgen::prelude::*;

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
    let _ = console_log::init_with_level(log::Level::Warn);
    // The browser tests load the same module; only a page with the app's root starts the app.
    if dom::document().get_element_by_id("app").is_some() {
        wasm_bindgen_futures::spawn_local(app::main());
    }
}
