//! A gallery whose reads go to a PostgreSQL read replica (a hot standby of a throwaway cluster, fed by
//! streaming replication): the read paths answer from the replica, a result just published is read from
//! the primary until the replica has replayed it, and publishes and deletes go to the primary.

mod support;

use std::time::{Duration, Instant};

use axum::Router;
use axum::http::StatusCode;
use support::{Postgres, client, gallery_of, get, key_query, publish, request, sqlite_url};
use wgsweep::RunResult;
use wgsweep::gallery::DeviceClass;
use wgsweep_server::api::Settings;
use wgsweep_server::store::Store;

/// How many results the device list counts for `key` (0 where it lists no such class).
async fn listed_count(app: &Router, key: &str) -> u64 {
    let devices = get(app, "/api/devices").await.json();
    let device = devices["devices"].as_array().unwrap().iter().find(|d| d["key"] == key).cloned();
    device.map_or(0, |d| d["results"].as_u64().unwrap())
}

/// Waits (up to 30 s) until the device list, as the replica answers it, counts `count` results for `key`.
async fn until_listed(app: &Router, key: &str, count: u64) {
    let started = Instant::now();
    while listed_count(app, key).await != count {
        assert!(started.elapsed() < Duration::from_secs(30), "the replica never counted {count} results");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn on_postgresql_reads_come_from_a_read_replica() {
    let primary = Postgres::start();
    let url = primary.database("gallery");
    let store = Store::open(&url).await.unwrap(); // migrated on the primary, before the replica is made
    let replica = primary.replica();
    let store = store.with_replica(&replica.url("gallery")).await.unwrap();
    let (app, _dist) = gallery_of(store, Settings::default(), client(1));
    assert_eq!(get(&app, "/api/health").await.json()["read_replica"], true);

    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/results/pace/h100-native-suite-5.json");
    let recorded = RunResult::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
    let key = DeviceClass::of(&recorded).key();
    let labelled = |label: &str| RunResult { label: label.into(), ..recorded.clone() }.to_json();
    let first = publish(&app, &labelled("first")).await;
    assert_eq!(first.status, StatusCode::CREATED);
    until_listed(&app, &key, 1).await;

    // The replica stops replaying: what is published now is on the primary only.
    let standby = sqlx::PgPool::connect(&replica.url("gallery")).await.unwrap();
    sqlx::query("SELECT pg_wal_replay_pause()").execute(&standby).await.unwrap();
    while sqlx::query_scalar::<_, String>("SELECT pg_get_wal_replay_pause_state()").fetch_one(&standby).await.unwrap()
        != "paused"
    {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let second = publish(&app, &labelled("second")).await.json();
    let second_id = second["id"].as_str().unwrap();
    let read = get(&app, &format!("/api/results/{second_id}")).await;
    assert_eq!(read.status, StatusCode::OK, "a result just published is read from the primary");
    assert_eq!(RunResult::from_json(std::str::from_utf8(&read.body).unwrap()).unwrap().label, "second");
    assert_eq!(listed_count(&app, &key).await, 1, "the device list is the replica's");
    let median = get(&app, &format!("/api/device/median?{}", key_query(&key))).await;
    let median = RunResult::from_json(std::str::from_utf8(&median.body).unwrap()).unwrap();
    assert_eq!(median.label, format!("{key}: median of 1 result"), "so is the median");
    let listed = get(&app, &format!("/api/device/results?{}", key_query(&key))).await.json();
    assert_eq!(listed["results"].as_array().unwrap().len(), 1, "and the device's results");

    // Deleting goes to the primary; the replica, replaying again, catches up with both.
    let bearer = format!("Bearer {}", second["token"].as_str().unwrap());
    let uri = format!("/api/results/{second_id}");
    let deleted = request(&app, "DELETE", &uri, Vec::new(), &[("authorization", &bearer)]).await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    sqlx::query("SELECT pg_wal_replay_resume()").execute(&standby).await.unwrap();
    let third = publish(&app, &labelled("third")).await;
    assert_eq!(third.status, StatusCode::CREATED);
    until_listed(&app, &key, 2).await;
    let listed = get(&app, &format!("/api/device/results?{}", key_query(&key))).await.json();
    let labels: Vec<&str> =
        listed["results"].as_array().unwrap().iter().map(|r| r["label"].as_str().unwrap()).collect();
    assert_eq!(labels, ["third", "first"]);
}

#[tokio::test]
async fn a_read_replica_is_postgresql_s() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&sqlite_url(dir.path())).await.unwrap();
    let refused = store.with_replica("postgres://postgres@localhost/gallery").await.err().unwrap();
    assert!(refused.contains("a read replica is PostgreSQL's"), "{refused}");
}
