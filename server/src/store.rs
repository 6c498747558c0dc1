//! The gallery's database: SQLite (one file, the default) or PostgreSQL, chosen by the URL, through the same
//! queries and migrations (sqlx's `Any` driver). A publish returns only after its transaction commits.
//! Bodies are stored deflated (a default suite's 187 KB of JSON in about 19 KB of text); bodies stored
//! before, as plain JSON, read as they are.

use sqlx::any::AnyPoolOptions;
use sqlx::{AnyPool, Executor, Row};

/// The migrations under `server/migrations`, applied at start.
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
    pub kind: Kind,
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
    pub body: String,
}

/// One result in a device's list: what the gallery shows of it without its body.
#[derive(Clone, Debug, serde::Serialize, sqlx::FromRow)]
pub struct Listed {
    pub id: String,
    pub label: String,
    pub created: String,
    pub published: String,
    pub copy_gbps: Option<f64>,
    pub fma_gflops: Option<f64>,
    pub configurations: i64,
}

/// A device class's columns and one result's headline figures: rows the device list aggregates.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ClassFigures {
    pub class_key: String,
    pub adapter: String,
    pub vendor: String,
    pub backend: String,
    pub runtime: String,
    pub copy_gbps: Option<f64>,
    pub fma_gflops: Option<f64>,
}

/// What became of a publish.
#[derive(Debug, PartialEq, Eq)]
pub enum Inserted {
    New,
    /// The same result was published before, under this id.
    Existing(String),
}

impl Store {
    /// Opens (creating an SQLite file where needed) and migrates the database at `url`.
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
                    }
                    Ok(())
                })
            })
            .connect(url)
            .await
            .map_err(|e| format!("cannot open the database {url}: {e}"))?;
        MIGRATOR.run(&pool).await.map_err(|e| format!("cannot migrate the database {url}: {e}"))?;
        Ok(Store { pool, kind })
    }

    /// Stores a result unless one with the same digest is there already.
    pub async fn insert(&self, r: &Stored) -> Result<Inserted, sqlx::Error> {
        if let Some(id) = self.id_of_digest(&r.digest).await? {
            return Ok(Inserted::Existing(id));
        }
        let inserted = sqlx::query(
            "INSERT INTO results (id, digest, class_key, adapter, vendor, backend, runtime, label, created, published, \
             copy_gbps, fma_gflops, configurations, token_digest, body) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
        )
        .bind(&r.id)
        .bind(&r.digest)
        .bind(&r.class_key)
        .bind(&r.adapter)
        .bind(&r.vendor)
        .bind(&r.backend)
        .bind(&r.runtime)
        .bind(&r.label)
        .bind(&r.created)
        .bind(&r.published)
        .bind(r.copy_gbps)
        .bind(r.fma_gflops)
        .bind(r.configurations)
        .bind(&r.token_digest)
        .bind(pack(&r.body))
        // Prepared afresh each time: the Any driver types a NULL figure as it likes, and a statement kept
        // from a publish without an FMA figure would refuse one with it (PostgreSQL).
        .persistent(false)
        .execute(&self.pool)
        .await;
        match inserted {
            Ok(_) => Ok(Inserted::New),
            // Published twice at once: the other one won.
            Err(e) if is_unique_violation(&e) => match self.id_of_digest(&r.digest).await? {
                Some(id) => Ok(Inserted::Existing(id)),
                None => Err(e),
            },
            Err(e) => Err(e),
        }
    }

    async fn id_of_digest(&self, digest: &str) -> Result<Option<String>, sqlx::Error> {
        let row =
            sqlx::query("SELECT id FROM results WHERE digest = $1").bind(digest).fetch_optional(&self.pool).await?;
        row.map(|row| row.try_get("id")).transpose()
    }

    /// A result's body, as published.
    pub async fn body(&self, id: &str) -> Result<Option<String>, sqlx::Error> {
        self.text_of(id, "SELECT body AS text FROM results WHERE id = $1").await?.map(|body| unpack(&body)).transpose()
    }

    /// The digest of the token that deletes a result.
    pub async fn token_digest(&self, id: &str) -> Result<Option<String>, sqlx::Error> {
        self.text_of(id, "SELECT token_digest AS text FROM results WHERE id = $1").await
    }

    /// The one text column `select` reads of the result `id`, where there is such a result.
    async fn text_of(&self, id: &str, select: &'static str) -> Result<Option<String>, sqlx::Error> {
        let row = sqlx::query(select).bind(id).fetch_optional(&self.pool).await?;
        row.map(|row| row.try_get("text")).transpose()
    }

    /// Deletes a result; whether there was one.
    pub async fn delete(&self, id: &str) -> Result<bool, sqlx::Error> {
        let done = sqlx::query("DELETE FROM results WHERE id = $1").bind(id).execute(&self.pool).await?;
        Ok(done.rows_affected() > 0)
    }

    /// Every result's class and headline figures, ordered by class.
    pub async fn class_figures(&self) -> Result<Vec<ClassFigures>, sqlx::Error> {
        sqlx::query_as(
            "SELECT class_key, adapter, vendor, backend, runtime, copy_gbps, fma_gflops FROM results \
             ORDER BY class_key",
        )
        .fetch_all(&self.pool)
        .await
    }

    /// A device class's results, the latest published first, at most `limit`.
    pub async fn listed(&self, class_key: &str, limit: i64) -> Result<Vec<Listed>, sqlx::Error> {
        sqlx::query_as(
            "SELECT id, label, created, published, copy_gbps, fma_gflops, configurations FROM results \
             WHERE class_key = $1 ORDER BY published DESC, id LIMIT $2",
        )
        .bind(class_key)
        .bind(limit)
        .fetch_all(&self.pool)
        .await
    }

    /// The bodies of a device class's latest `limit` results.
    pub async fn bodies(&self, class_key: &str, limit: i64) -> Result<Vec<String>, sqlx::Error> {
        let rows = sqlx::query("SELECT body FROM results WHERE class_key = $1 ORDER BY published DESC, id LIMIT $2")
            .bind(class_key)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|row| unpack(&row.try_get::<String, _>("body")?)).collect()
    }
}

/// How a deflated body begins; a stored JSON body begins with `{`.
const DEFLATED: &str = "deflate:";

/// A body as stored: deflated, then base64, so that it stays text in both databases.
fn pack(json: &str) -> String {
    use base64::Engine;
    let deflated = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 6);
    format!("{DEFLATED}{}", base64::engine::general_purpose::STANDARD.encode(deflated))
}

/// A stored body as published: inflated where it was deflated.
fn unpack(stored: &str) -> Result<String, sqlx::Error> {
    use base64::Engine;
    let Some(packed) = stored.strip_prefix(DEFLATED) else { return Ok(stored.to_string()) };
    let damaged = |why: String| sqlx::Error::Decode(format!("a stored body is damaged: {why}").into());
    let deflated = base64::engine::general_purpose::STANDARD.decode(packed).map_err(|e| damaged(e.to_string()))?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&deflated, crate::api::MAX_BODY_BYTES)
        .map_err(|e| damaged(format!("{e:?}")))?;
    String::from_utf8(json).map_err(|e| damaged(e.to_string()))
}

fn is_unique_violation(e: &sqlx::Error) -> bool {
    e.as_database_error().is_some_and(|d| d.is_unique_violation())
}
