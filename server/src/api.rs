//! The JSON API under `/api`: publish, read and delete a result; browse device classes, a class's results,
//! its median per configuration and its learned workgroup-size presets. Every answer is JSON; every error
//! is `{"error": "..."}` with a 4xx status that says what to change (a 5xx only when the database fails).

use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;

use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRequestParts, Path, Query, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use serde::Deserialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::bounds::MAX_BODY_BYTES;
use crate::store::{self, Inserted, Store, Stored};
use wgsweep::gallery::{self, DeviceClass};
use wgsweep::{analysis, share};

/// How many results a device's list shows.
const LISTED_RESULTS: i64 = 1000;

/// What each client may ask, and whom to believe about who the client is.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Publishes each client may make a minute (in bursts of as many).
    pub publishes_per_minute: NonZeroU32,
    /// Reads of stored results (a result, a device's list, its median or presets) each client may make a
    /// minute, in bursts of a tenth of that.
    pub reads_per_minute: NonZeroU32,
    /// Reverse proxies in front of the server: a request from one of them is counted against the address
    /// its `X-Forwarded-For` header names, not against the proxy's.
    pub trusted_proxies: Vec<IpAddr>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            publishes_per_minute: NonZeroU32::new(10).expect("not zero"),
            reads_per_minute: NonZeroU32::new(600).expect("not zero"),
            trusted_proxies: Vec::new(),
        }
    }
}

pub struct Api {
    pub store: Store,
    publishes: DefaultKeyedRateLimiter<IpAddr>,
    reads: DefaultKeyedRateLimiter<IpAddr>,
    trusted_proxies: Vec<IpAddr>,
}

impl Api {
    pub fn new(store: Store, settings: Settings) -> Arc<Self> {
        let read_burst = NonZeroU32::new(settings.reads_per_minute.get().div_ceil(10)).expect("not zero");
        Arc::new(Api {
            store,
            publishes: RateLimiter::keyed(Quota::per_minute(settings.publishes_per_minute)),
            reads: RateLimiter::keyed(Quota::per_minute(settings.reads_per_minute).allow_burst(read_burst)),
            trusted_proxies: settings.trusted_proxies,
        })
    }

    /// Who sent a request: the socket's address, or, where that is a trusted proxy, the address the proxy
    /// got it from. Proxies append to `X-Forwarded-For`, so it is read from the right, past trusted proxies;
    /// what stands further left was written by the client and proves nothing.
    pub fn client(&self, socket: SocketAddr, headers: &HeaderMap) -> IpAddr {
        let peer = socket.ip();
        if !self.trusted_proxies.contains(&peer) {
            return peer;
        }
        let forwarded: Vec<&str> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .collect();
        for address in forwarded.iter().rev() {
            match address.trim().parse::<IpAddr>() {
                Ok(address) if self.trusted_proxies.contains(&address) => continue,
                Ok(address) => return address,
                // Not what a proxy writes: count the request against the proxy rather than guess.
                Err(_) => return peer,
            }
        }
        peer
    }
}

/// A read of stored results (a result, a device's list, its median or presets) from a client within its
/// share of `Settings::reads_per_minute`; refused with 429 past it.
struct Read;

impl FromRequestParts<Arc<Api>> for Read {
    type Rejection = Refusal;

    async fn from_request_parts(parts: &mut Parts, api: &Arc<Api>) -> Result<Self, Refusal> {
        let ConnectInfo(socket) = ConnectInfo::<SocketAddr>::from_request_parts(parts, api)
            .await
            .map_err(|e| refuse(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
        limit(&api.reads, api.client(socket, &parts.headers), "too many reads of stored results from this address")?;
        Ok(Read)
    }
}

/// Refuses a request past `client`'s share of `limiter`, saying when to come back (also as `Retry-After`).
fn limit(limiter: &DefaultKeyedRateLimiter<IpAddr>, client: IpAddr, what: &str) -> Result<(), Refusal> {
    limiter.check_key(&client).map_err(|not_until| {
        let wait = not_until.wait_time_from(DefaultClock::default().now()).as_secs() + 1;
        Refusal(StatusCode::TOO_MANY_REQUESTS, format!("{what}: wait {wait} s"), Some(wait))
    })
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
        .route("/api/kernel/presets", get(kernel_presets))
        .route("/api/{*rest}", axum::routing::any(no_such_address))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(axum::middleware::map_response(errors_as_json))
        .with_state(api)
}

async fn no_such_address(uri: axum::http::Uri) -> Refusal {
    refuse(StatusCode::NOT_FOUND, format!("the gallery has no {}: its API is listed in the README", uri.path()))
}

/// The longest refusal text axum's own extractors write that is kept (they write a line or two).
const MOST_REFUSAL_BYTES: usize = 4096;

/// Every refusal under `/api` as JSON (`{"error": …}`), also those that axum's routing and extractors
/// write as plain text or leave empty: a malformed or missing query, a body over the limit, a method the
/// address does not take. Its status and headers (`Retry-After`) stay.
async fn errors_as_json(method: axum::http::Method, response: Response) -> Response {
    let refused = response.status().is_client_error() || response.status().is_server_error();
    let json =
        response.headers().get(header::CONTENT_TYPE).is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    if !refused || json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, MOST_REFUSAL_BYTES).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&text).trim().to_string();
    let error = match parts.status {
        StatusCode::PAYLOAD_TOO_LARGE => {
            format!("the request is too large: the gallery takes at most {MAX_BODY_BYTES} bytes")
        }
        StatusCode::METHOD_NOT_ALLOWED => format!("this address does not take {method}: see the README's API"),
        status if text.is_empty() => status.canonical_reason().unwrap_or("refused").to_string(),
        _ => text,
    };
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    Response::from_parts(parts, axum::body::Body::from(json!({ "error": error }).to_string()))
}

/// An answer that is not a success: its status, what to do, and in how many seconds to try again where
/// the client asked too often.
pub struct Refusal(StatusCode, String, Option<u64>);

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
        let mut answer = (self.0, Json(json!({ "error": self.1 }))).into_response();
        if let Some(seconds) = self.2 {
            answer.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        answer
    }
}

impl From<sqlx::Error> for Refusal {
    fn from(e: sqlx::Error) -> Self {
        eprintln!("wgsweep-server: database: {e}");
        Refusal(StatusCode::SERVICE_UNAVAILABLE, "the gallery's database failed; try again later".into(), None)
    }
}

fn refuse(status: StatusCode, why: impl Into<String>) -> Refusal {
    Refusal(status, why.into(), None)
}

async fn health(State(api): State<Arc<Api>>) -> Json<Value> {
    Json(json!({
        "gallery": "wgsweep",
        "version": env!("CARGO_PKG_VERSION"),
        "database": api.store.kind.name(),
        "read_replica": api.store.has_replica(),
    }))
}

/// What a publish stores, made from the body a client sent: refused unless it is a believable result.
/// Parses, checks, hashes and deflates: call it off the async runtime.
pub fn prepare(body: &[u8], published: String) -> Result<(Stored, String), Refusal> {
    let text = std::str::from_utf8(body).map_err(|_| refuse(StatusCode::BAD_REQUEST, "the body is not UTF-8 text"))?;
    let result = analysis::read_json(text).map_err(|e| refuse(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
    if result.results.is_empty() {
        return Err(refuse(StatusCode::UNPROCESSABLE_ENTITY, "the result has no configurations"));
    }
    gallery::check_kernels(&result).map_err(|why| refuse(StatusCode::UNPROCESSABLE_ENTITY, why))?;
    let label_chars = result.label.chars().count();
    if label_chars > gallery::MAX_LABEL_CHARS {
        let most = gallery::MAX_LABEL_CHARS;
        return Err(refuse(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("the label is {label_chars} characters long; the gallery keeps labels of at most {most}"),
        ));
    }
    let result = gallery::for_publishing(&result);
    let body = result.to_json();
    let digest = hex(&Sha256::digest(body.as_bytes()));
    let token = new_token();
    let class = DeviceClass::of(&result);
    let compact = share::blocking::encode(&result);
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
        packed_body: store::pack(&body),
        member: Arc::new(gallery::Member::new(as_kept(&compact)?)),
        compact,
    };
    Ok((stored, token))
}

/// A result as the gallery keeps it for its figures: decoded from its compact form (times as f32), as every
/// result of a class's window is.
fn as_kept(compact: &str) -> Result<wgsweep::RunResult, Refusal> {
    share::blocking::decode(compact)
        .map_err(|e| refuse(StatusCode::UNPROCESSABLE_ENTITY, format!("the result cannot be kept: {e}")))
}

async fn publish(
    State(api): State<Arc<Api>>,
    ConnectInfo(socket): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Response, Refusal> {
    limit(&api.publishes, api.client(socket, &headers), "too many publishes from this address")?;
    let published = wgsweep::result::now_rfc3339();
    let (stored, token) = store::off_runtime(move || Ok(prepare(&body, published))).await.map_err(Refusal::from)??;
    let id = stored.id.clone();
    Ok(match api.store.insert(stored).await? {
        Inserted::New => {
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

async fn result(State(api): State<Arc<Api>>, _: Read, Path(id): Path<String>) -> Result<Response, Refusal> {
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
    Ok(StatusCode::NO_CONTENT.into_response())
}

#[derive(Deserialize)]
struct Search {
    #[serde(default)]
    search: String,
}

/// Device classes whose key contains `search` (in any case), each with how many results it has and the
/// median of its latest results' headline figures.
async fn devices(State(api): State<Arc<Api>>, Query(query): Query<Search>) -> Result<Json<Value>, Refusal> {
    let search = query.search.to_lowercase();
    let mut devices = api.store.classes().await?;
    devices.retain(|d| d.class_key.to_lowercase().contains(&search));
    Ok(Json(json!({ "devices": devices })))
}

#[derive(Deserialize)]
struct Device {
    key: String,
}

fn no_results(key: &str) -> Refusal {
    refuse(StatusCode::NOT_FOUND, format!("no results for the device {key}"))
}

async fn device_results(
    State(api): State<Arc<Api>>,
    _: Read,
    Query(device): Query<Device>,
) -> Result<Response, Refusal> {
    let listed = api.store.listed(&device.key, LISTED_RESULTS).await?.ok_or_else(|| no_results(&device.key))?;
    let key =
        serde_json::to_string(&device.key).map_err(|e| refuse(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    let body = format!(r#"{{"key":{key},"results":{listed}}}"#);
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

/// The class's median result, as kept since its last publish or delete.
async fn device_median(
    State(api): State<Arc<Api>>,
    _: Read,
    Query(device): Query<Device>,
) -> Result<Response, Refusal> {
    let median = api.store.median(&device.key).await?.ok_or_else(|| no_results(&device.key))?;
    Ok(([(header::CONTENT_TYPE, "application/json")], median).into_response())
}

async fn device_presets(
    State(api): State<Arc<Api>>,
    _: Read,
    Query(device): Query<Device>,
) -> Result<Json<Value>, Refusal> {
    let kept = api.store.presets(&device.key).await?.ok_or_else(|| no_results(&device.key))?;
    let presets: Value = serde_json::from_str(&kept.presets)
        .map_err(|e| refuse(StatusCode::INTERNAL_SERVER_ERROR, format!("the kept presets are damaged: {e}")))?;
    Ok(Json(json!({ "key": device.key, "results": kept.window_results, "presets": presets })))
}

#[derive(Deserialize)]
struct Kernel {
    kernel: String,
}

/// The most device classes a kernel's answer lists.
const KERNEL_CLASSES: i64 = 1000;

/// A kernel's preset (its best workgroup shape, and a user's kernel's tunables with it) in every device
/// class that ran it: the answer, from many devices, to the link that a kernel's author sent.
async fn kernel_presets(
    State(api): State<Arc<Api>>,
    _: Read,
    Query(asked): Query<Kernel>,
) -> Result<Json<Value>, Refusal> {
    if asked.kernel.is_empty() || asked.kernel.len() > 200 {
        return Err(refuse(StatusCode::BAD_REQUEST, "name a kernel as kernel/variant, e.g. triad/scalar"));
    }
    let rows = api.store.kernel_presets(&asked.kernel, KERNEL_CLASSES + 1).await?;
    if rows.is_empty() {
        return Err(refuse(StatusCode::NOT_FOUND, format!("no device's results hold the kernel {}", asked.kernel)));
    }
    let truncated = rows.len() as i64 > KERNEL_CLASSES;
    let classes: Vec<Value> = rows
        .into_iter()
        .take(KERNEL_CLASSES as usize)
        .map(|(key, preset)| Ok(json!({ "key": key, "preset": serde_json::from_str::<Value>(&preset)? })))
        .collect::<Result<_, serde_json::Error>>()
        .map_err(|e| refuse(StatusCode::INTERNAL_SERVER_ERROR, format!("a kept preset is damaged: {e}")))?;
    Ok(Json(json!({ "kernel": asked.kernel, "classes": classes, "truncated": truncated })))
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
