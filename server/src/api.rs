//! The JSON API under `/api`: publish, read and delete a result; browse device classes, a class's results,
//! its median per configuration and its learned workgroup-size presets. Every answer is JSON; every error
//! is `{"error": "..."}` with a 4xx status that says what to change (a 5xx only when the database fails).

use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use serde::Deserialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::store::{Inserted, Store, Stored};
use wgsweep::gallery::{self, DeviceClass};
use wgsweep::{RunResult, analysis, stats};

/// The largest result accepted: a whole default suite without raw samples is about 200 KB.
pub const MAX_BODY_BYTES: usize = 4 << 20;
/// A device's results read for its median and presets: the latest this many.
const CLASS_RESULTS: i64 = 200;

/// How long a device list is served from memory. Lists are most of the gallery's reads, and each reads a
/// row per result; a publish or delete through this server makes the next list afresh, one through another
/// server behind the same database shows here within this time.
const DEVICES_KEPT: Duration = Duration::from_secs(10);

pub struct Api {
    pub store: Store,
    publishes: DefaultKeyedRateLimiter<IpAddr>,
    /// Every device class, as last listed, and when.
    devices: Mutex<Option<(Instant, Arc<Vec<Value>>)>>,
}

impl Api {
    /// The API over `store`, each client allowed `per_minute` publishes a minute (in bursts of as many).
    pub fn new(store: Store, per_minute: NonZeroU32) -> Arc<Self> {
        Arc::new(Api { store, publishes: RateLimiter::keyed(Quota::per_minute(per_minute)), devices: Mutex::new(None) })
    }

    /// Every device class with how many results it has and their median figures, from memory where the
    /// list is recent.
    async fn all_devices(&self) -> Result<Arc<Vec<Value>>, Refusal> {
        if let Some((made, devices)) = self.devices.lock().expect("not poisoned").as_ref()
            && made.elapsed() < DEVICES_KEPT
        {
            return Ok(devices.clone());
        }
        let rows = self.store.class_figures().await?;
        // Rows come ordered by class: one device per run of rows.
        let devices: Vec<Value> = rows
            .chunk_by(|a, b| a.class_key == b.class_key)
            .map(|of_class| {
                let median = |figure: fn(&crate::store::ClassFigures) -> Option<f64>| {
                    let figures: Vec<f64> = of_class.iter().filter_map(figure).collect();
                    stats::summarize(&figures).map(|s| s.median)
                };
                let row = &of_class[0];
                json!({
                    "key": row.class_key, "adapter": row.adapter, "vendor": row.vendor, "backend": row.backend,
                    "runtime": row.runtime, "results": of_class.len(),
                    "copy_gbps": median(|r| r.copy_gbps), "fma_gflops": median(|r| r.fma_gflops),
                })
            })
            .collect();
        let devices = Arc::new(devices);
        *self.devices.lock().expect("not poisoned") = Some((Instant::now(), devices.clone()));
        Ok(devices)
    }

    /// The results changed: the next device list is made afresh.
    fn forget_devices(&self) {
        *self.devices.lock().expect("not poisoned") = None;
    }
}

pub fn routes(api: Arc<Api>) -> Router {
    Router::new()
        .route("/api/health", get(health))
        .route("/api/results", axum::routing::post(publish))
        .route("/api/results/{id}", get(result).delete(delete))
        .route("/api/devices", get(devices))
        .route("/api/device/results", get(device_results))
        .route("/api/device/median", get(device_median))
        .route("/api/device/presets", get(device_presets))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(api)
}

/// An answer that is not a success: its status and what to do.
pub struct Refusal(StatusCode, String);

impl Refusal {
    pub fn status(&self) -> StatusCode {
        self.0
    }

    pub fn message(&self) -> &str {
        &self.1
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

impl From<sqlx::Error> for Refusal {
    fn from(e: sqlx::Error) -> Self {
        eprintln!("wgsweep-server: database: {e}");
        Refusal(StatusCode::SERVICE_UNAVAILABLE, "the gallery's database failed; try again later".into())
    }
}

fn refuse(status: StatusCode, why: impl Into<String>) -> Refusal {
    Refusal(status, why.into())
}

async fn health(State(api): State<Arc<Api>>) -> Json<Value> {
    Json(json!({ "gallery": "wgsweep", "version": env!("CARGO_PKG_VERSION"), "database": api.store.kind.name() }))
}

/// What a publish stores, made from the body a client sent: refused unless it is a believable result.
pub fn prepare(body: &[u8], published: String) -> Result<(Stored, String), Refusal> {
    let text = std::str::from_utf8(body).map_err(|_| refuse(StatusCode::BAD_REQUEST, "the body is not UTF-8 text"))?;
    let result = analysis::read_json(text).map_err(|e| refuse(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
    if result.results.is_empty() {
        return Err(refuse(StatusCode::UNPROCESSABLE_ENTITY, "the result has no configurations"));
    }
    let result = gallery::for_publishing(&result);
    let body = result.to_json();
    let digest = hex(&Sha256::digest(body.as_bytes()));
    let token = new_token();
    let class = DeviceClass::of(&result);
    let stored = Stored {
        id: digest[..16].to_string(),
        class_key: class.key(),
        adapter: class.adapter,
        vendor: class.vendor,
        backend: class.backend,
        runtime: class.runtime,
        label: result.label.clone(),
        created: result.created.clone(),
        published,
        copy_gbps: result.peaks.copy_gbps,
        fma_gflops: result.peaks.fma_gflops,
        configurations: result.results.len() as i64,
        token_digest: hex(&Sha256::digest(token.as_bytes())),
        digest,
        body,
    };
    Ok((stored, token))
}

async fn publish(
    State(api): State<Arc<Api>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    body: axum::body::Bytes,
) -> Result<Response, Refusal> {
    if api.publishes.check_key(&client.ip()).is_err() {
        let mut answer = refuse(StatusCode::TOO_MANY_REQUESTS, "too many publishes from this address: wait a minute")
            .into_response();
        answer.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("60"));
        return Ok(answer);
    }
    let (stored, token) = prepare(&body, wgsweep::result::now_rfc3339())?;
    let id = stored.id.clone();
    Ok(match api.store.insert(&stored).await? {
        Inserted::New => {
            api.forget_devices();
            (StatusCode::CREATED, Json(json!({ "id": id, "address": address(&id), "token": token }))).into_response()
        }
        Inserted::Existing(id) => {
            (StatusCode::OK, Json(json!({ "id": id, "address": address(&id), "duplicate": true }))).into_response()
        }
    })
}

/// Where the page opens a published result.
fn address(id: &str) -> String {
    format!("/#published={id}")
}

async fn result(State(api): State<Arc<Api>>, Path(id): Path<String>) -> Result<Response, Refusal> {
    let Some(body) = api.store.body(&id).await? else {
        return Err(refuse(StatusCode::NOT_FOUND, format!("no published result {id}")));
    };
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

async fn delete(State(api): State<Arc<Api>>, Path(id): Path<String>, headers: HeaderMap) -> Result<Response, Refusal> {
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .ok_or_else(|| refuse(StatusCode::UNAUTHORIZED, "send the deletion token as 'Authorization: Bearer TOKEN'"))?;
    let Some(token_digest) = api.store.token_digest(&id).await? else {
        return Err(refuse(StatusCode::NOT_FOUND, format!("no published result {id}")));
    };
    if hex(&Sha256::digest(token.as_bytes())) != token_digest {
        return Err(refuse(StatusCode::FORBIDDEN, "this token does not delete this result"));
    }
    api.store.delete(&id).await?;
    api.forget_devices();
    Ok(StatusCode::NO_CONTENT.into_response())
}

#[derive(Deserialize)]
struct Search {
    #[serde(default)]
    search: String,
}

/// Device classes whose key contains `search` (in any case), each with how many results it has and their
/// medians.
async fn devices(State(api): State<Arc<Api>>, Query(query): Query<Search>) -> Result<Json<Value>, Refusal> {
    let search = query.search.to_lowercase();
    let all = api.all_devices().await?;
    let devices: Vec<&Value> =
        all.iter().filter(|d| d["key"].as_str().is_some_and(|key| key.to_lowercase().contains(&search))).collect();
    Ok(Json(json!({ "devices": devices })))
}

#[derive(Deserialize)]
struct Device {
    key: String,
}

async fn device_results(State(api): State<Arc<Api>>, Query(device): Query<Device>) -> Result<Json<Value>, Refusal> {
    let listed = api.store.listed(&device.key, 1000).await?;
    if listed.is_empty() {
        return Err(refuse(StatusCode::NOT_FOUND, format!("no results for the device {}", device.key)));
    }
    Ok(Json(json!({ "key": device.key, "results": listed })))
}

/// The device class's latest results, read back.
async fn class_results(api: &Api, key: &str) -> Result<Vec<RunResult>, Refusal> {
    let bodies = api.store.bodies(key, CLASS_RESULTS).await?;
    if bodies.is_empty() {
        return Err(refuse(StatusCode::NOT_FOUND, format!("no results for the device {key}")));
    }
    // Bodies were checked when published; one a later wgsweep cannot read is left out.
    Ok(bodies.iter().filter_map(|body| analysis::read_json(body).ok()).collect())
}

async fn device_median(State(api): State<Arc<Api>>, Query(device): Query<Device>) -> Result<Response, Refusal> {
    let results = class_results(&api, &device.key).await?;
    let median = gallery::median_result(&results)
        .ok_or_else(|| refuse(StatusCode::NOT_FOUND, format!("no readable results for {}", device.key)))?;
    Ok(([(header::CONTENT_TYPE, "application/json")], median.to_json()).into_response())
}

async fn device_presets(State(api): State<Arc<Api>>, Query(device): Query<Device>) -> Result<Json<Value>, Refusal> {
    let results = class_results(&api, &device.key).await?;
    let presets = gallery::presets(&results);
    Ok(Json(json!({ "key": device.key, "results": results.len(), "presets": presets })))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// 128 random bits, as hex.
fn new_token() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the system's random source");
    hex(&bytes)
}
