//! The wgsweep results gallery: the built page (cross-origin isolated, as the page wants for its timers,
//! and locked down by a Content-Security-Policy) and the JSON API (`api`) over a database (`store`).

pub mod api;
pub mod bounds;
pub mod doors;
pub mod store;

use std::path::Path;

use axum::Router;
use axum::http::{HeaderName, HeaderValue};
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;

/// What the page may load and run: its own scripts, styles and workers, WebAssembly compiled from its own
/// module, requests to its own origin, images it draws (charts saved as PNG: `data:` and `blob:`); nothing
/// inline, no plug-ins, no other site, and no site may frame it. The README's "Serving the page elsewhere"
/// gives the same headers to other hosts.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
    worker-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; \
    base-uri 'self'; form-action 'none'; frame-ancestors 'none'";

/// The whole server: the API, then the files of `dist` (the page) for every other path; every answer with
/// the page's security headers.
pub fn app(store: store::Store, dist: &Path, settings: api::Settings) -> Router {
    let header = |name: &'static str, value: &'static str| {
        SetResponseHeaderLayer::overriding(HeaderName::from_static(name), HeaderValue::from_static(value))
    };
    api::routes(api::Api::new(store, settings))
        .fallback_service(ServeDir::new(dist))
        .layer(header("cross-origin-opener-policy", "same-origin"))
        .layer(header("cross-origin-embedder-policy", "require-corp"))
        .layer(header("x-content-type-options", "nosniff"))
        .layer(header("content-security-policy", CONTENT_SECURITY_POLICY))
        .layer(header("referrer-policy", "no-referrer"))
}
