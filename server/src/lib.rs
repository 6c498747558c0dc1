//! The wgsweep results gallery: the built page (cross-origin isolated, as the page wants for its timers)
//! and the JSON API (`api`) over a database (`store`).

pub mod api;
pub mod store;

use std::num::NonZeroU32;
use std::path::Path;

use axum::Router;
use axum::http::{HeaderName, HeaderValue};
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;

/// The whole server: the API, then the files of `dist` (the page) for every other path.
pub fn app(store: store::Store, dist: &Path, publishes_per_minute: NonZeroU32) -> Router {
    let header = |name: &'static str, value: &'static str| {
        SetResponseHeaderLayer::overriding(HeaderName::from_static(name), HeaderValue::from_static(value))
    };
    api::routes(api::Api::new(store, publishes_per_minute))
        .fallback_service(ServeDir::new(dist))
        .layer(header("cross-origin-opener-policy", "same-origin"))
        .layer(header("cross-origin-embedder-policy", "require-corp"))
        .layer(header("x-content-type-options", "nosniff"))
}
