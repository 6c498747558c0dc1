//! The runs this browser has made, kept in localStorage so that they survive reloads and closed tabs (the
//! history view lists them).
//!
//! Each run is stored as a share-link payload (`share::encode`: compact, no raw samples), so a few hundred
//! runs fit in the few MiB a browser allows a site. A run is saved while it goes and again when it ends, so
//! a closed tab or a lost device keeps what finished.

use std::cell::{Cell, RefCell};

use serde::{Deserialize, Serialize};

use crate::result::RunResult;
use crate::share;

const KEY: &str = "wgsweep.history";

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Entry {
    /// Names the run in the history (`id`: when it started, on which device).
    pub id: String,
    pub created: String,
    pub device: String,
    pub label: String,
    pub configurations: usize,
    pub complete: bool,
    /// How long the run took, once complete (absent in entries kept before it was recorded): the next run's
    /// expected duration on this device comes from it.
    #[serde(default)]
    pub wall_s: Option<f64>,
    /// The run, as a share link's fragment value.
    pub payload: String,
    /// Where the run was published, and the token that deletes it there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub published: Option<Published>,
}

/// A run published to a results gallery: its address there and its deletion token.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Published {
    pub address: String,
    pub token: Option<String>,
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// Every kept run, oldest first; an unreadable store reads as empty (and is left as it is).
pub fn load() -> Vec<Entry> {
    let text = storage().and_then(|s| s.get_item(KEY).ok().flatten());
    text.and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default()
}

fn store(entries: &[Entry]) -> Result<(), String> {
    let storage = storage().ok_or("this browser keeps no local storage for the page")?;
    // Pretty, as every JSON the page writes: one JSON writer in its download, not two (a few bytes an entry).
    let text = serde_json::to_string_pretty(entries).expect("entries always serialize");
    storage.set_item(KEY, &text).map_err(|_| "the browser's storage for this page is full".to_string())
}

/// The page's key for the person's name for a device whose browser withholds its name, by its signature.
fn device_name_key(signature: &str) -> String {
    format!("wgsweep-device-name-{signature}")
}

/// What the person named the device of this signature (`DeviceInfo::signature`), where they did.
pub fn device_name(signature: &str) -> Option<String> {
    storage()?.get_item(&device_name_key(signature)).ok().flatten().filter(|n| !n.is_empty())
}

/// Keeps (or, empty, forgets) the person's name for the device of this signature.
pub fn keep_device_name(signature: &str, name: &str) -> Result<(), String> {
    let storage = storage().ok_or("this browser keeps no local storage for the page")?;
    let kept = match name.trim() {
        "" => storage.remove_item(&device_name_key(signature)),
        name => storage.set_item(&device_name_key(signature), name),
    };
    kept.map_err(|_| "the browser's storage for this page is full".to_string())
}

/// Seconds per configuration of the latest complete run kept for `device` (`DeviceInfo::name`).
pub fn pace_on(device: &str) -> Option<f64> {
    let latest = load().into_iter().rev().find(|e| e.device == device && e.complete && e.configurations > 0)?;
    Some(latest.wall_s? / latest.configurations as f64)
}

/// The id a result is kept under: when it started, on which device.
pub fn id(result: &RunResult) -> String {
    format!("{} {}", result.created, result.device.name())
}

thread_local! {
    /// Each run's latest keep asked for: its id, and the keep's place in the order asked.
    static LATEST: RefCell<Vec<(String, u64)>> = const { RefCell::new(Vec::new()) };
    static ASKED: Cell<u64> = const { Cell::new(0) };
    /// The keeps still compressing their run.
    static UNDER_WAY: Cell<usize> = const { Cell::new(0) };
}

/// Waits until every keep asked for is stored (or has given way to a later one); a keep just dispatched
/// starts within the first turn.
pub async fn settled() {
    loop {
        crate::host::yield_now().await;
        if UNDER_WAY.get() == 0 {
            return;
        }
    }
}

/// Keeps `result` as the run `id`, replacing what was kept under that id. A keep of the same run asked
/// for later wins, whichever finishes compressing first (it may have finished already). A result opened
/// from a link is kept as the link's `payload`, not encoded again.
pub async fn keep(id: &str, result: &RunResult, payload: Option<String>) -> Result<(), String> {
    let turn = ASKED.replace(ASKED.get() + 1);
    LATEST.with_borrow_mut(|latest| match latest.iter_mut().find(|(run, _)| run == id) {
        Some(asked) => asked.1 = turn,
        None => latest.push((id.to_string(), turn)),
    });
    UNDER_WAY.set(UNDER_WAY.get() + 1);
    let payload = match payload {
        Some(payload) => payload,
        None => share::encode(result).await,
    };
    UNDER_WAY.set(UNDER_WAY.get() - 1);
    if LATEST.with_borrow(|latest| latest.iter().any(|(run, newest)| run == id && *newest > turn)) {
        return Ok(());
    }
    let entry = Entry {
        id: id.to_string(),
        created: result.created.clone(),
        device: result.device.name(),
        label: result.label.clone(),
        configurations: result.results.len(),
        complete: result.complete,
        wall_s: result.pace.as_ref().filter(|_| result.complete).map(|pace| pace.wall_s),
        payload,
        published: None,
    };
    let mut entries = load();
    match entries.iter_mut().find(|e| e.id == id) {
        Some(kept) => {
            // A label edited while the run went on wins; a publication stays.
            let label = std::mem::take(&mut kept.label);
            let published = kept.published.take();
            *kept = Entry { label: if label.is_empty() { entry.label } else { label }, published, ..entry };
        }
        None => entries.push(entry),
    }
    store(&entries)
}

pub fn relabel(id: &str, label: &str) -> Result<(), String> {
    let mut entries = load();
    if let Some(entry) = entries.iter_mut().find(|e| e.id == id) {
        entry.label = label.to_string();
    }
    store(&entries)
}

/// Records that the run `id` was published (keeping it first where it is not kept yet).
pub async fn mark_published(id: &str, result: &RunResult, published: Published) -> Result<(), String> {
    if !load().iter().any(|e| e.id == id) {
        keep(id, result, None).await?;
    }
    let mut entries = load();
    if let Some(entry) = entries.iter_mut().find(|e| e.id == id) {
        entry.published = Some(published);
    }
    store(&entries)
}

pub fn remove(id: &str) -> Result<(), String> {
    let mut entries = load();
    entries.retain(|e| e.id != id);
    store(&entries)
}

/// The kept run `id`, with its current label.
pub async fn open(id: &str) -> Result<RunResult, String> {
    let entry = load().into_iter().find(|e| e.id == id).ok_or("that run is no longer in the history")?;
    let mut result = share::decode(&entry.payload).await.map_err(|e| e.to_string())?;
    result.label = entry.label;
    Ok(result)
}
