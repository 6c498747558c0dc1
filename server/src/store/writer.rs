//! The writer of publishes: every result waiting stored in one transaction, with its class's figures.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use sqlx::AnyPool;
use tokio::sync::mpsc;

use super::{GROUP_MOST, Inserted, Stored, Transaction, Waiting, Windows, id_of_digest, refresh_class};

/// Stores publishes as they come, all those waiting in one transaction: a sync to disk and each class's
/// figures made once for the group instead of once a publish, and, on PostgreSQL, a class's row locked once.
/// Under a steady stream of publishes to one class this is what keeps each one's wait short.
pub(super) struct Writer {
    pub(super) pool: AnyPool,
    pub(super) windows: Arc<Mutex<Windows>>,
}

impl Writer {
    pub(super) async fn run(self, mut waiting: mpsc::Receiver<Waiting>) {
        let mut group = Vec::with_capacity(GROUP_MOST);
        while waiting.recv_many(&mut group, GROUP_MOST).await > 0 {
            let results: Vec<&Stored> = group.iter().map(|(r, _)| r).collect();
            match self.store(&results).await {
                Ok(outcomes) => {
                    for ((_, answer), outcome) in group.drain(..).zip(outcomes) {
                        let _ = answer.send(Ok(outcome)); // the client may have gone
                    }
                }
                // One result that cannot be stored must not fail the others: each on its own.
                Err(_) if group.len() > 1 => {
                    for (r, answer) in group.drain(..) {
                        let outcome = self.store(&[&r]).await.map(|mut outcomes| outcomes.remove(0));
                        let _ = answer.send(outcome);
                    }
                }
                Err(e) => {
                    if let Some((_, answer)) = group.pop() {
                        let _ = answer.send(Err(e));
                    }
                }
            }
        }
    }

    /// Stores a group of results in one transaction, counting each in its class and making every class
    /// they are in afresh once; what became of each, in order.
    async fn store(&self, group: &[&Stored]) -> Result<Vec<Inserted>, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        // The write comes first: SQLite then holds its one writer's lock for the whole transaction.
        let stored = insert_rows(&mut tx, group).await?;
        let new = stored_once(group, &stored);
        // Counting results in their classes also locks the classes' rows (PostgreSQL): groups that publish to
        // one class make its figures one after another, each from a window with the other's results.
        count_in_classes(&mut tx, &new).await?;
        for of_class in new.chunk_by(|a, b| a.class_key == b.class_key) {
            refresh_class(&self.windows, &mut tx, &of_class[0].class_key, of_class).await?;
        }
        tx.commit().await?;
        let mut outcomes = Vec::with_capacity(group.len());
        for r in group {
            outcomes.push(if new.iter().any(|n| std::ptr::eq(*n, *r)) {
                Inserted::New
            } else {
                // Published twice at once: the other one won.
                Inserted::Existing(id_of_digest(&self.pool, &r.digest).await?.ok_or(sqlx::Error::RowNotFound)?)
            });
        }
        Ok(outcomes)
    }
}

/// The columns of a stored result, in the order `insert_rows` binds them.
const RESULT_COLUMNS: [&str; 16] = [
    "id",
    "digest",
    "class_key",
    "adapter",
    "vendor",
    "backend",
    "runtime",
    "label",
    "created",
    "published",
    "copy_gbps",
    "fma_gflops",
    "configurations",
    "token_digest",
    "body",
    "compact",
];

/// Stores results, in one statement, except those whose digest is stored already (or comes earlier in
/// `rows`); the ids of those stored.
pub(super) async fn insert_rows(tx: &mut Transaction, rows: &[&Stored]) -> Result<HashSet<String>, sqlx::Error> {
    if rows.is_empty() {
        return Ok(HashSet::new());
    }
    let width = RESULT_COLUMNS.len();
    let values: Vec<String> = (0..rows.len())
        .map(|row| {
            let places: Vec<String> = (1..=width).map(|column| format!("${}", row * width + column)).collect();
            format!("({})", places.join(", "))
        })
        .collect();
    let sql = format!(
        "INSERT INTO results ({}) VALUES {} ON CONFLICT (digest) DO NOTHING RETURNING id",
        RESULT_COLUMNS.join(", "),
        values.join(", ")
    );
    let mut query = sqlx::query_scalar::<_, String>(&sql);
    for r in rows {
        query = query
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
            .bind(&r.packed_body)
            .bind(&r.compact);
    }
    // Prepared afresh each time: the Any driver types a NULL figure as it likes, and a statement kept from a
    // publish without an FMA figure would refuse one with it (PostgreSQL).
    let stored = query.persistent(false).fetch_all(&mut **tx).await?;
    Ok(stored.into_iter().collect())
}

/// The rows `insert_rows` stored: each stored id's first row (the same result twice in `rows` is stored once),
/// sorted by class: the order in which every server locks classes, so that two groups never wait for each
/// other.
pub(super) fn stored_once<'a>(rows: &[&'a Stored], stored: &HashSet<String>) -> Vec<&'a Stored> {
    let mut seen: HashSet<&str> = HashSet::new();
    let mut once: Vec<&Stored> =
        rows.iter().copied().filter(|r| stored.contains(&r.id) && seen.insert(&r.id)).collect();
    once.sort_by(|a, b| a.class_key.cmp(&b.class_key));
    once
}

/// Counts stored results (sorted by class, as `stored_once` gives them) in their classes, making a class's
/// row where it is the first.
pub(super) async fn count_in_classes(tx: &mut Transaction, stored: &[&Stored]) -> Result<(), sqlx::Error> {
    for of_class in stored.chunk_by(|a, b| a.class_key == b.class_key) {
        let r = of_class[0];
        sqlx::query(
            "INSERT INTO classes (class_key, adapter, vendor, backend, runtime, results, window_results, median, \
             presets) VALUES ($1, $2, $3, $4, $5, 0, 0, '', '[]') ON CONFLICT (class_key) DO NOTHING",
        )
        .bind(&r.class_key)
        .bind(&r.adapter)
        .bind(&r.vendor)
        .bind(&r.backend)
        .bind(&r.runtime)
        .execute(&mut **tx)
        .await?;
        sqlx::query("UPDATE classes SET results = results + $1 WHERE class_key = $2")
            .bind(of_class.len() as i64)
            .bind(&r.class_key)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}
