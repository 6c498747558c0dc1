//! The gallery's database: SQLite (one file, the default) or PostgreSQL, chosen by the URL, through the same
//! queries and migrations (sqlx's `Any` driver). A publish returns only after its transaction commits, and
//! that transaction also makes the class's figures (median, presets, headline figures) afresh. Publishes
//! that arrive together are stored together (`Writer`): one transaction, one sync to disk and one making of
//! each class's figures for all of them.
//! Bodies are stored deflated (a default suite's 187 KB of JSON in about 19 KB of text); bodies stored
//! before, as plain JSON, read as they are.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use sqlx::any::AnyPoolOptions;
use sqlx::{AnyPool, Executor, Row};
use tokio::sync::{mpsc, oneshot};
use wgsweep::{gallery, share};

use crate::bounds::MAX_BODY_BYTES;

/// The migrations under `server/migrations`, applied at start.
mod writer;
use writer::{Writer, count_in_classes, insert_rows, stored_once};

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// Which database a URL names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Sqlite,
    Postgres,
}

impl Kind {
    pub fn of(url: &str) -> Result<Self, String> {
        match url.split(':').next() {
            Some("sqlite") => Ok(Kind::Sqlite),
            Some("postgres" | "postgresql") => Ok(Kind::Postgres),
            _ => Err(format!("{url}: the database URL starts with sqlite: or postgres:")),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Sqlite => "sqlite",
            Kind::Postgres => "postgresql",
        }
    }
}

#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    /// A read replica of the database (`with_replica`), which the read paths ask first.
    replica: Option<AnyPool>,
    pub kind: Kind,
    windows: Arc<Mutex<Windows>>,
    /// Publishes on their way to the `Writer`.
    publishes: mpsc::Sender<Waiting>,
}

/// A publish waiting for the writer, with where to say what became of it.
type Waiting = (Stored, oneshot::Sender<Result<Inserted, sqlx::Error>>);

/// The most publishes stored in one transaction, and the most that wait for one (a publish past that waits
/// to be queued: some 30 KB each).
const GROUP_MOST: usize = 64;
const WAITING_MOST: usize = 256;

/// How many classes' latest results `Windows` keeps decoded.
const WINDOWS_KEPT: usize = 8;

/// The latest results of the classes published to most recently, decoded (some 20 MB a class of 200
/// default suites): a publish then decodes only its own result instead of 200. Every refresh checks them
/// against the ids its transaction reads, so a result published or deleted through another server behind
/// the same database is never missed, and one left here by a transaction that did not commit is never used.
#[derive(Default)]
struct Windows {
    /// The most recently refreshed class last.
    classes: VecDeque<(String, Window)>,
}

/// A class's latest results, decoded, the newest first, each with its id.
type Window = Vec<(String, Arc<gallery::Member>)>;

impl Windows {
    /// The decoded results kept for `class_key`, by id.
    fn take(&mut self, class_key: &str) -> HashMap<String, Arc<gallery::Member>> {
        match self.classes.iter().position(|(key, _)| key == class_key) {
            Some(at) => self.classes.remove(at).map(|(_, members)| members.into_iter().collect()).unwrap_or_default(),
            None => HashMap::new(),
        }
    }

    fn keep(&mut self, class_key: &str, members: Window) {
        self.classes.retain(|(key, _)| key != class_key);
        self.classes.push_back((class_key.to_string(), members));
        while self.classes.len() > WINDOWS_KEPT {
            self.classes.pop_front();
        }
    }
}

/// A result as stored, with the columns the gallery lists and searches by.
#[derive(Clone, Debug)]
pub struct Stored {
    pub id: String,
    pub digest: String,
    pub class_key: String,
    pub adapter: String,
    pub vendor: String,
    pub backend: String,
    pub runtime: String,
    pub label: String,
    pub created: String,
    pub published: String,
    pub copy_gbps: Option<f64>,
    pub fma_gflops: Option<f64>,
    pub configurations: i64,
    pub token_digest: String,
    /// The body as stored (`pack`).
    pub packed_body: String,
    /// The result as a share link's payload, which the class's figures are made from.
    pub compact: String,
    /// The compact form decoded, as the class's figures use it: made with the rest of a publish's work,
    /// before it waits for the writer.
    pub member: Arc<gallery::Member>,
}

/// A device class as the device list shows it: its parts, how many results it has, and the median of its
/// latest results' headline figures.
#[derive(Clone, Debug, serde::Serialize, sqlx::FromRow)]
pub struct Class {
    #[serde(rename = "key")]
    pub class_key: String,
    pub adapter: String,
    pub vendor: String,
    pub backend: String,
    pub runtime: String,
    pub results: i64,
    pub copy_gbps: Option<f64>,
    pub fma_gflops: Option<f64>,
}

/// A class's presets as kept: JSON, and how many results they were learned from.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ClassPresets {
    pub window_results: i64,
    pub presets: String,
}

/// What became of a publish.
#[derive(Debug, PartialEq, Eq)]
pub enum Inserted {
    New,
    /// The same result was published before, under this id.
    Existing(String),
}

type Transaction = sqlx::Transaction<'static, sqlx::Any>;

impl Store {
    /// Opens (creating an SQLite file where needed) and migrates the database at `url`, then makes what
    /// results stored by an earlier version lack: their compact form and their classes' figures.
    pub async fn open(url: &str) -> Result<Self, String> {
        sqlx::any::install_default_drivers();
        let kind = Kind::of(url)?;
        let pool = AnyPoolOptions::new()
            .max_connections(if kind == Kind::Sqlite { 4 } else { 16 })
            .after_connect(move |connection, _| {
                Box::pin(async move {
                    if kind == Kind::Sqlite {
                        // Durable once acknowledged, even if the process is killed; writers wait for each
                        // other instead of failing.
                        connection.execute("PRAGMA journal_mode = WAL").await?;
                        connection.execute("PRAGMA synchronous = FULL").await?;
                        connection.execute("PRAGMA busy_timeout = 10000").await?;
                        // Checkpoints are `checkpoint_now_and_then`'s: none in a publish's commit.
                        connection.execute("PRAGMA wal_autocheckpoint = 0").await?;
                        // A log reset by a checkpoint is cut back to this size, not kept at its largest.
                        connection.execute("PRAGMA journal_size_limit = 16777216").await?;
                    }
                    Ok(())
                })
            })
            .connect(url)
            .await
            .map_err(|e| format!("cannot open the database {url}: {e}"))?;
        MIGRATOR.run(&pool).await.map_err(|e| format!("cannot migrate the database {url}: {e}"))?;
        let windows = Arc::default();
        let (publishes, waiting) = mpsc::channel(WAITING_MOST);
        tokio::spawn(Writer { pool: pool.clone(), windows: Arc::clone(&windows) }.run(waiting));
        if kind == Kind::Sqlite {
            tokio::spawn(checkpoint_now_and_then(pool.clone()));
        }
        let store = Store { pool, replica: None, kind, windows, publishes };
        store.complete().await.map_err(|e| format!("cannot bring the database {url} up to date: {e}"))?;
        Ok(store)
    }

    /// Sends the read paths (the device list, a device's results, median and presets, a result) to a
    /// PostgreSQL read replica of this database: they touch no row a request writes. Publishes and deletes,
    /// whose one transaction writes a result and its class's figures, stay on the primary, and so does a
    /// read the replica cannot answer yet (it lags: a result just published is on the primary first).
    pub async fn with_replica(mut self, url: &str) -> Result<Self, String> {
        if self.kind != Kind::Postgres || Kind::of(url)? != Kind::Postgres {
            return Err(format!("{url}: a read replica is PostgreSQL's, of a PostgreSQL database"));
        }
        let replica = AnyPoolOptions::new()
            .max_connections(16)
            .connect(url)
            .await
            .map_err(|e| format!("cannot open the read replica {url}: {e}"))?;
        // A replica has the primary's schema; migrations run on the primary only.
        sqlx::query("SELECT class_key FROM classes LIMIT 1")
            .fetch_optional(&replica)
            .await
            .map_err(|e| format!("{url} is not a replica of the gallery's database: {e}"))?;
        self.replica = Some(replica);
        Ok(self)
    }

    pub fn has_replica(&self) -> bool {
        self.replica.is_some()
    }

    /// What `read` finds on the read replica, or on the primary where there is no replica or it found
    /// nothing.
    async fn read_through<'a, T, Found>(&'a self, read: impl Fn(&'a AnyPool) -> Found) -> Result<Option<T>, sqlx::Error>
    where
        Found: Future<Output = Result<Option<T>, sqlx::Error>> + 'a,
    {
        if let Some(replica) = &self.replica
            && let Some(found) = read(replica).await?
        {
            return Ok(Some(found));
        }
        read(&self.pool).await
    }

    /// Gives every result its compact form and every class its figures where they are missing.
    async fn complete(&self) -> Result<(), sqlx::Error> {
        loop {
            let rows = sqlx::query("SELECT id, body FROM results WHERE compact IS NULL LIMIT 100")
                .fetch_all(&self.pool)
                .await?;
            if rows.is_empty() {
                break;
            }
            for row in rows {
                let (id, body): (String, String) = (row.try_get("id")?, row.try_get("body")?);
                let compact = off_runtime(move || {
                    let json = unpack(&body)?;
                    let result = wgsweep::analysis::read_json(&json).map_err(|e| damaged(e.to_string()))?;
                    Ok(share::blocking::encode(&result))
                })
                .await?;
                sqlx::query("UPDATE results SET compact = $1 WHERE id = $2")
                    .bind(compact)
                    .bind(id)
                    .execute(&self.pool)
                    .await?;
            }
        }
        let missing: Vec<String> = sqlx::query_scalar(
            "SELECT DISTINCT class_key FROM results WHERE class_key NOT IN (SELECT class_key FROM classes)",
        )
        .fetch_all(&self.pool)
        .await?;
        // Classes counted by a seeding that stopped before it made their figures, and classes whose figures
        // were made before each kernel's preset was kept on its own.
        let unmade: Vec<String> = sqlx::query_scalar(
            "SELECT class_key FROM classes WHERE (window_results = 0 AND results > 0) OR (window_results > 0 \
             AND presets <> '[]' AND class_key NOT IN (SELECT class_key FROM kernel_presets))",
        )
        .fetch_all(&self.pool)
        .await?;
        for class_key in unmade {
            let mut tx = self.pool.begin().await?;
            refresh_class(&self.windows, &mut tx, &class_key, &[]).await?;
            tx.commit().await?;
        }
        for class_key in missing {
            let mut tx = self.pool.begin().await?;
            let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM results WHERE class_key = $1")
                .bind(&class_key)
                .fetch_one(&mut *tx)
                .await?;
            let parts =
                sqlx::query("SELECT adapter, vendor, backend, runtime FROM results WHERE class_key = $1 LIMIT 1")
                    .bind(&class_key)
                    .fetch_one(&mut *tx)
                    .await?;
            sqlx::query(
                "INSERT INTO classes (class_key, adapter, vendor, backend, runtime, results, window_results, median, \
                 presets) VALUES ($1, $2, $3, $4, $5, $6, 0, '', '[]')",
            )
            .bind(&class_key)
            .bind(parts.try_get::<String, _>("adapter")?)
            .bind(parts.try_get::<String, _>("vendor")?)
            .bind(parts.try_get::<String, _>("backend")?)
            .bind(parts.try_get::<String, _>("runtime")?)
            .bind(count)
            .execute(&mut *tx)
            .await?;
            refresh_class(&self.windows, &mut tx, &class_key, &[]).await?;
            tx.commit().await?;
        }
        Ok(())
    }

    /// Stores a result unless one with the same digest is there already, with its class's figures made
    /// afresh in the same transaction (`Writer`): a publish is acknowledged with both or neither.
    pub async fn insert(&self, r: Stored) -> Result<Inserted, sqlx::Error> {
        if let Some(id) = id_of_digest(&self.pool, &r.digest).await? {
            return Ok(Inserted::Existing(id));
        }
        let (answer, answered) = oneshot::channel();
        self.publishes.send((r, answer)).await.map_err(|_| writer_gone())?;
        answered.await.map_err(|_| writer_gone())?
    }

    /// Stores many results in one transaction, counting each in its class, without making the classes'
    /// figures (`refresh_every_class` does, once): the gallery's load is measured on databases filled this
    /// way (`wgsweep-seed`). Results stored before are left as they are.
    pub async fn insert_batch(&self, batch: &[Stored]) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        for rows in batch.chunks(GROUP_MOST) {
            let rows: Vec<&Stored> = rows.iter().collect();
            let stored = insert_rows(&mut tx, &rows).await?;
            count_in_classes(&mut tx, &stored_once(&rows, &stored)).await?;
        }
        tx.commit().await
    }

    /// Makes every class's figures afresh, each in a transaction of its own; how many classes there are.
    pub async fn refresh_every_class(&self) -> Result<usize, sqlx::Error> {
        let classes: Vec<String> = sqlx::query_scalar("SELECT class_key FROM classes").fetch_all(&self.pool).await?;
        for class_key in &classes {
            let mut tx = self.pool.begin().await?;
            refresh_class(&self.windows, &mut tx, class_key, &[]).await?;
            tx.commit().await?;
        }
        Ok(classes.len())
    }

    /// A result's body, as published.
    pub async fn body(&self, id: &str) -> Result<Option<String>, sqlx::Error> {
        let stored: Option<String> = self
            .read_through(|pool| {
                sqlx::query_scalar("SELECT body FROM results WHERE id = $1").bind(id).fetch_optional(pool)
            })
            .await?;
        match stored {
            Some(stored) => Ok(Some(off_runtime(move || unpack(&stored)).await?)),
            None => Ok(None),
        }
    }

    /// The digest of the token that deletes a result.
    pub async fn token_digest(&self, id: &str) -> Result<Option<String>, sqlx::Error> {
        sqlx::query_scalar("SELECT token_digest FROM results WHERE id = $1").bind(id).fetch_optional(&self.pool).await
    }

    /// Deletes a result and makes its class's figures afresh (the class goes with its last result), in one
    /// transaction; whether there was such a result.
    pub async fn delete(&self, id: &str) -> Result<bool, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        let class_key: Option<String> = sqlx::query_scalar("DELETE FROM results WHERE id = $1 RETURNING class_key")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
        let Some(class_key) = class_key else { return Ok(false) };
        sqlx::query("UPDATE classes SET results = results - 1 WHERE class_key = $1")
            .bind(&class_key)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM classes WHERE class_key = $1 AND results <= 0")
            .bind(&class_key)
            .execute(&mut *tx)
            .await?;
        refresh_class(&self.windows, &mut tx, &class_key, &[]).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Every device class, ordered by its key.
    pub async fn classes(&self) -> Result<Vec<Class>, sqlx::Error> {
        sqlx::query_as(
            "SELECT class_key, adapter, vendor, backend, runtime, results, copy_gbps, fma_gflops FROM classes \
             WHERE window_results > 0 ORDER BY class_key",
        )
        .fetch_all(self.replica.as_ref().unwrap_or(&self.pool))
        .await
    }

    /// A device class's results, the latest published first, at most `limit`, as a JSON array of what the
    /// gallery lists of each (id, label, created, published, copy_gbps, fma_gflops, configurations), or
    /// `None` where the class has none. The database writes the JSON: a list of 1 000 is then
    /// one row to fetch instead of 1 000 (on SQLite some 20 µs each under load).
    pub async fn listed(&self, class_key: &str, limit: i64) -> Result<Option<String>, sqlx::Error> {
        let latest = "SELECT id, label, created, published, copy_gbps, fma_gflops, configurations FROM results \
                      WHERE class_key = $1 ORDER BY published DESC, id LIMIT $2";
        let sql = match self.kind {
            Kind::Sqlite => format!(
                "SELECT json_group_array(json_object('id', id, 'label', label, 'created', created, \
                 'published', published, 'copy_gbps', copy_gbps, 'fma_gflops', fma_gflops, \
                 'configurations', configurations) ORDER BY published DESC, id) FROM ({latest})"
            ),
            Kind::Postgres => {
                format!("SELECT json_agg(listed ORDER BY published DESC, id)::text FROM ({latest}) AS listed")
            }
        };
        let sql = sql.as_str();
        self.read_through(|pool| async move {
            let listed: Option<String> = sqlx::query_scalar(sql).bind(class_key).bind(limit).fetch_one(pool).await?;
            Ok(listed.filter(|listed| listed != "[]"))
        })
        .await
    }

    /// A device class's median result as JSON, as kept (plain: a class's one median is read far more often
    /// than it is written, and there are few classes).
    pub async fn median(&self, class_key: &str) -> Result<Option<String>, sqlx::Error> {
        self.read_through(|pool| {
            sqlx::query_scalar("SELECT median FROM classes WHERE class_key = $1 AND window_results > 0")
                .bind(class_key)
                .fetch_optional(pool)
        })
        .await
    }

    /// A device class's presets, as kept.
    /// A kernel's presets in every device class that ran it (at most `limit`), as (class key, preset JSON).
    pub async fn kernel_presets(&self, kernel: &str, limit: i64) -> Result<Vec<(String, String)>, sqlx::Error> {
        let read = |pool| async move {
            let rows: Vec<(String, String)> = sqlx::query_as(
                "SELECT class_key, preset FROM kernel_presets WHERE kernel = $1 ORDER BY class_key, parameter LIMIT $2",
            )
            .bind(kernel)
            .bind(limit)
            .fetch_all(pool)
            .await?;
            Ok((!rows.is_empty()).then_some(rows))
        };
        Ok(self.read_through(read).await?.unwrap_or_default())
    }

    pub async fn presets(&self, class_key: &str) -> Result<Option<ClassPresets>, sqlx::Error> {
        self.read_through(|pool| {
            sqlx::query_as("SELECT window_results, presets FROM classes WHERE class_key = $1 AND window_results > 0")
                .bind(class_key)
                .fetch_optional(pool)
        })
        .await
    }
}

/// Makes a class's figures afresh from its latest results, inside the transaction that changed them;
/// the CPU's part (decoding the results not kept decoded, their median and presets) runs off the async
/// runtime.
/// `fresh` are results of the class this transaction stored, decoded already.
async fn refresh_class(
    windows: &Mutex<Windows>,
    tx: &mut Transaction,
    class_key: &str,
    fresh: &[&Stored],
) -> Result<(), sqlx::Error> {
    let ids: Vec<String> =
        sqlx::query_scalar("SELECT id FROM results WHERE class_key = $1 ORDER BY published DESC, id LIMIT $2")
            .bind(class_key)
            .bind(gallery::CLASS_WINDOW as i64)
            .fetch_all(&mut **tx)
            .await?;
    let mut known = windows.lock().expect("not poisoned").take(class_key);
    known.extend(fresh.iter().map(|r| (r.id.clone(), Arc::clone(&r.member))));
    let missing: Vec<&String> = ids.iter().filter(|id| !known.contains_key(*id)).collect();
    let mut compacts: Vec<(String, String)> = Vec::new();
    for id in missing {
        let compact: String =
            sqlx::query_scalar("SELECT compact FROM results WHERE id = $1").bind(id).fetch_one(&mut **tx).await?;
        compacts.push((id.clone(), compact));
    }
    let computed = off_runtime(move || {
        // Compact forms were made from checked results; one a later wgsweep cannot read is left out.
        for (id, compact) in compacts {
            if let Ok(result) = share::blocking::decode(&compact) {
                known.insert(id, Arc::new(gallery::Member::new(result)));
            }
        }
        let members: Window = ids.into_iter().filter_map(|id| Some((id.clone(), known.get(&id)?.clone()))).collect();
        let latest: Vec<&gallery::Member> = members.iter().map(|(_, m)| m.as_ref()).collect();
        let Some(figures) = gallery::ClassFigures::of(&latest) else { return Ok((members, None)) };
        let presets = serde_json::to_string(&figures.presets).map_err(|e| damaged(e.to_string()))?;
        let each: Vec<(String, String, String)> = figures
            .presets
            .iter()
            .map(|p| Ok((p.kernel.clone(), p.parameter.clone(), serde_json::to_string(p)?)))
            .collect::<Result<_, serde_json::Error>>()
            .map_err(|e| damaged(e.to_string()))?;
        let row = (figures.results as i64, figures.copy_gbps, figures.fma_gflops, figures.median.to_json(), presets);
        Ok((members, Some((row, each))))
    })
    .await?;
    let (members, figures) = computed;
    windows.lock().expect("not poisoned").keep(class_key, members);
    sqlx::query("DELETE FROM kernel_presets WHERE class_key = $1").bind(class_key).execute(&mut **tx).await?;
    let Some(((window, copy_gbps, fma_gflops, median, presets), each)) = figures else {
        sqlx::query("UPDATE classes SET window_results = 0, median = '', presets = '[]' WHERE class_key = $1")
            .bind(class_key)
            .execute(&mut **tx)
            .await?;
        return Ok(());
    };
    sqlx::query(
        "UPDATE classes SET window_results = $1, copy_gbps = $2, fma_gflops = $3, median = $4, presets = $5 \
         WHERE class_key = $6",
    )
    .bind(window)
    .bind(copy_gbps)
    .bind(fma_gflops)
    .bind(median)
    .bind(presets)
    .bind(class_key)
    .persistent(false) // as for publishes: NULL figures are typed as the driver likes
    .execute(&mut **tx)
    .await?;
    // Each kernel's preset, in statements of at most 200 rows (a class has one per kernel and parameter).
    for rows in each.chunks(200) {
        let places: Vec<String> = (0..rows.len())
            .map(|i| format!("(${}, ${}, ${}, ${})", 4 * i + 1, 4 * i + 2, 4 * i + 3, 4 * i + 4))
            .collect();
        let sql =
            format!("INSERT INTO kernel_presets (kernel, parameter, class_key, preset) VALUES {}", places.join(", "));
        let mut query = sqlx::query(&sql);
        for (kernel, parameter, preset) in rows {
            query = query.bind(kernel).bind(parameter).bind(class_key).bind(preset);
        }
        query.persistent(false).execute(&mut **tx).await?;
    }
    Ok(())
}

/// Frames (pages) of write-ahead log past which a checkpoint waits for the readers to let it start the log
/// over: about 32 MiB.
const MOST_LOG_FRAMES: i64 = 8192;

/// Copies SQLite's write-ahead log into the database file a few times a second, beside the publishes rather
/// than in the commit of whichever publish filled the log (SQLite's own way, which made that publish and
/// every one waiting behind it wait for the copy and its sync to disk). A passive checkpoint waits for no one
/// and no one waits for it; what it cannot copy yet, the next one does. But while some reader is always
/// reading, the log never starts over and only grows (1.08 GB beside a 723 MB database in a three-minute
/// flood): past `MOST_LOG_FRAMES` the checkpoint truncates it, waiting (within the busy timeout) for the
/// readers of older pages to finish. Stops when the pool is closed.
async fn checkpoint_now_and_then(pool: AnyPool) {
    let mut every = tokio::time::interval(std::time::Duration::from_millis(250));
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    while !pool.is_closed() {
        every.tick().await;
        // Its columns: whether it was blocked, the frames in the log, the frames copied.
        let passive = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)").fetch_one(&pool).await;
        let done = match passive.and_then(|row| row.try_get::<i64, _>(1)) {
            Ok(frames) if frames > MOST_LOG_FRAMES => {
                sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)").execute(&pool).await.map(drop)
            }
            other => other.map(drop),
        };
        if let Err(e) = done
            && !pool.is_closed()
        {
            eprintln!("wgsweep-server: a checkpoint of the database failed (the next one tries again): {e}");
        }
    }
}

async fn id_of_digest(pool: &AnyPool, digest: &str) -> Result<Option<String>, sqlx::Error> {
    let row = sqlx::query("SELECT id FROM results WHERE digest = $1").bind(digest).fetch_optional(pool).await?;
    row.map(|row| row.try_get("id")).transpose()
}

fn writer_gone() -> sqlx::Error {
    eprintln!("wgsweep-server: the writer of publishes has stopped");
    sqlx::Error::WorkerCrashed
}

/// Runs CPU-heavy work (inflating, parsing, medians) on the blocking pool, so that the async runtime's few
/// threads keep answering everyone else meanwhile.
pub async fn off_runtime<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, sqlx::Error> + Send + 'static,
) -> Result<T, sqlx::Error> {
    tokio::task::spawn_blocking(work).await.map_err(|e| {
        eprintln!("wgsweep-server: work off the runtime failed: {e}");
        sqlx::Error::WorkerCrashed
    })?
}

/// How a deflated body begins; a stored JSON body begins with `{`.
const DEFLATED: &str = "deflate:";

/// A body as stored: deflated, then base64, so that it stays text in both databases.
pub fn pack(json: &str) -> String {
    use base64::Engine;
    let deflated = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 6);
    format!("{DEFLATED}{}", base64::engine::general_purpose::STANDARD.encode(deflated))
}

/// A stored body as published: inflated where it was deflated.
fn unpack(stored: &str) -> Result<String, sqlx::Error> {
    use base64::Engine;
    let Some(packed) = stored.strip_prefix(DEFLATED) else { return Ok(stored.to_string()) };
    let deflated = base64::engine::general_purpose::STANDARD.decode(packed).map_err(|e| damaged(e.to_string()))?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&deflated, MAX_BODY_BYTES)
        .map_err(|e| damaged(format!("{e:?}")))?;
    String::from_utf8(json).map_err(|e| damaged(e.to_string()))
}

fn damaged(why: String) -> sqlx::Error {
    sqlx::Error::Decode(format!("a stored result is damaged: {why}").into())
}
