//! Crash safety: the real server, killed with SIGKILL while publishes are in flight, then started again on
//! the same database, holds every publish it acknowledged. On SQLite and on PostgreSQL.

mod support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use support::{Postgres, sqlite_url};

/// The server's binary on `database`, and the address it listens on.
fn start(database: &str, dist: &std::path::Path) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wgsweep-server"))
        .args([
            "--listen",
            "127.0.0.1:0",
            "--publishes-per-minute",
            "1000000",
            "--reads-per-minute",
            "1000000",
            "--database",
            database,
            "--dist",
        ])
        .arg(dist)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    let mut out = child.stdout.take().unwrap();
    let mut byte = [0u8; 1];
    while out.read(&mut byte).unwrap() == 1 && byte[0] != b'\n' {
        line.push(byte[0] as char);
    }
    let address = line.split_whitespace().find(|w| w.starts_with("http://")).expect("an address");
    (child, address.trim_start_matches("http://").trim_end_matches('/').to_string())
}

/// One HTTP/1.1 request on its own connection: the status and the body, or None if the server is gone.
fn http(address: &str, method: &str, path: &str, body: &str) -> Option<(u16, String)> {
    let mut stream = TcpStream::connect(address).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(30))).ok()?;
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).ok()?;
    let status = answer.split_whitespace().nth(1)?.parse().ok()?;
    let body = answer.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
    Some((status, body))
}

/// Publishes distinct results from several clients until the server is killed after `kill_after`
/// acknowledgements; starts it again and counts how many acknowledged results it holds.
fn acknowledged_publishes_survive_a_kill(database: &str) {
    let dist = tempfile::tempdir().unwrap();
    std::fs::write(dist.path().join("index.html"), "<!doctype html>").unwrap();
    let recorded = support::recorded_h100();
    let template: serde_json::Value = serde_json::from_str(&recorded[0].1).unwrap();
    let (mut server, address) = start(database, dist.path());
    let acknowledged = Arc::new(Mutex::new(Vec::<String>::new()));
    let kill_after = 40;
    let clients: Vec<_> = (0..6)
        .map(|client| {
            let (address, acknowledged, template) = (address.clone(), acknowledged.clone(), template.clone());
            std::thread::spawn(move || {
                for n in 0.. {
                    let mut result = template.clone();
                    result["label"] = format!("crash test {client}.{n}").into();
                    match http(&address, "POST", "/api/results", &result.to_string()) {
                        Some((201, body)) => {
                            let answer: serde_json::Value = serde_json::from_str(&body).unwrap();
                            acknowledged.lock().unwrap().push(answer["id"].as_str().unwrap().to_string());
                        }
                        Some((status, body)) => panic!("publish answered {status}: {body}"),
                        None => return, // the server is gone
                    }
                }
            })
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(120);
    while acknowledged.lock().unwrap().len() < kill_after {
        assert!(Instant::now() < deadline, "publishes were not acknowledged in time");
        std::thread::sleep(Duration::from_millis(5));
    }
    server.kill().unwrap(); // SIGKILL, with publishes in flight
    server.wait().unwrap();
    for client in clients {
        client.join().unwrap();
    }
    let acknowledged = acknowledged.lock().unwrap().clone();

    let (mut server, address) = start(database, dist.path());
    let missing: Vec<&String> = acknowledged
        .iter()
        .filter(|id| http(&address, "GET", &format!("/api/results/{id}"), "").map(|(status, _)| status) != Some(200))
        .collect();
    eprintln!(
        "{database}: {} publishes acknowledged before the kill, {} missing after it",
        acknowledged.len(),
        missing.len()
    );
    // The class's figures were made in each publish's transaction: they count exactly the results stored.
    let (_, devices) = http(&address, "GET", "/api/devices", "").expect("the device list");
    let devices: serde_json::Value = serde_json::from_str(&devices).unwrap();
    let device = &devices["devices"][0];
    let key = device["key"].as_str().expect("one device class");
    let query: String = key
        .bytes()
        .map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") })
        .collect();
    let (_, listed) = http(&address, "GET", &format!("/api/device/results?key={query}"), "").expect("its results");
    let listed: serde_json::Value = serde_json::from_str(&listed).unwrap();
    let stored = listed["results"].as_array().unwrap().len();
    assert_eq!(device["results"].as_u64(), Some(stored as u64), "the device list counts what is stored");
    let (_, median) = http(&address, "GET", &format!("/api/device/median?key={query}"), "").expect("its median");
    let median: serde_json::Value = serde_json::from_str(&median).unwrap();
    assert_eq!(median["label"], format!("{key}: median of {} results", stored.min(200)));
    server.kill().unwrap();
    server.wait().unwrap();
    assert!(acknowledged.len() >= kill_after);
    assert!(missing.is_empty(), "acknowledged but lost: {missing:?}");
}

#[test]
fn on_sqlite_every_acknowledged_publish_survives_a_kill() {
    let dir = tempfile::tempdir().unwrap();
    acknowledged_publishes_survive_a_kill(&sqlite_url(dir.path()));
}

#[test]
fn on_postgresql_every_acknowledged_publish_survives_a_kill() {
    let cluster = Postgres::start();
    acknowledged_publishes_survive_a_kill(&cluster.database("crash"));
}
