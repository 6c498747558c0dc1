//! What the server's tests share: a gallery over a fresh database, requests to it, recorded results, and a
//! throwaway PostgreSQL cluster.

#![allow(dead_code)] // each test file uses its own part

use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::process::Command;

use axum::Router;
use axum::body::Body;
use axum::extract::connect_info::MockConnectInfo;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;
use wgsweep_server::api::Settings;
use wgsweep_server::store::Store;

/// A gallery over the database at `url`, serving a page of one file, every request from `client(1)`.
pub async fn gallery(url: &str, publishes_per_minute: u32) -> (Router, tempfile::TempDir) {
    let settings =
        Settings { publishes_per_minute: NonZeroU32::new(publishes_per_minute).unwrap(), ..Settings::default() };
    gallery_with(url, settings, client(1)).await
}

/// A gallery over the database at `url` with these settings, every request from `from`.
pub async fn gallery_with(url: &str, settings: Settings, from: SocketAddr) -> (Router, tempfile::TempDir) {
    gallery_of(Store::open(url).await.unwrap(), settings, from)
}

/// A gallery over `store` with these settings, every request from `from`.
pub fn gallery_of(store: Store, settings: Settings, from: SocketAddr) -> (Router, tempfile::TempDir) {
    let dist = tempfile::tempdir().unwrap();
    std::fs::write(dist.path().join("index.html"), "<!doctype html><title>wgsweep</title>").unwrap();
    let app = wgsweep_server::app(store, dist.path(), settings).layer(MockConnectInfo(from));
    (app, dist)
}

pub fn client(n: u8) -> SocketAddr {
    SocketAddr::from(([127, 0, 0, n], 40000))
}

/// An SQLite database in a file of its own.
pub fn sqlite_url(dir: &Path) -> String {
    format!("sqlite://{}?mode=rwc", dir.join("gallery.db").display())
}

pub struct Answer {
    pub status: StatusCode,
    pub headers: axum::http::HeaderMap,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&self.body)))
    }

    pub fn error(&self) -> String {
        self.json()["error"].as_str().unwrap_or_default().to_string()
    }
}

pub async fn request(app: &Router, method: &str, uri: &str, body: Vec<u8>, headers: &[(&str, &str)]) -> Answer {
    let mut builder = Request::builder().method(method).uri(uri);
    for (name, value) in headers {
        builder = builder.header(*name, *value);
    }
    let answer = app.clone().oneshot(builder.body(Body::from(body)).unwrap()).await.unwrap();
    let status = answer.status();
    let headers = answer.headers().clone();
    let body = answer.into_body().collect().await.unwrap().to_bytes().to_vec();
    Answer { status, headers, body }
}

pub async fn get(app: &Router, uri: &str) -> Answer {
    request(app, "GET", uri, Vec::new(), &[]).await
}

pub async fn publish(app: &Router, body: &str) -> Answer {
    request(app, "POST", "/api/results", body.as_bytes().to_vec(), &[("content-type", "application/json")]).await
}

/// A device class's key as a query value.
pub fn key_query(key: &str) -> String {
    let mut encoded = String::new();
    for byte in key.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => encoded.push(byte as char),
            _ => encoded.push_str(&format!("%{byte:02X}")),
        }
    }
    format!("key={encoded}")
}

/// The results recorded on the H100 under docs/results (natively and in Chromium), as files hold them.
pub fn recorded_h100() -> Vec<(PathBuf, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/results");
    let mut found = Vec::new();
    for dir in [dir.clone(), dir.join("pace"), dir.join("tune")] {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if !name.starts_with("h100") || !name.ends_with(".json") {
                continue;
            }
            let value: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let result = if value.get("result").is_some() { &value["result"] } else { &value };
            if result.get("schema_version").is_some() {
                found.push((path, result.to_string()));
            }
        }
    }
    found.sort();
    found
}

/// A PostgreSQL cluster of its own in a temporary directory, listening on a Unix socket there; stopped
/// when dropped.
pub struct Postgres {
    dir: tempfile::TempDir,
    bin: PathBuf,
}

impl Postgres {
    /// Starts a cluster with Debian's `postgresql` package.
    pub fn start() -> Self {
        let bin = std::fs::read_dir("/usr/lib/postgresql")
            .ok()
            .and_then(|versions| versions.filter_map(|v| Some(v.ok()?.path().join("bin"))).max())
            .filter(|bin| bin.join("initdb").is_file())
            .expect("PostgreSQL's initdb is missing: `cargo xtask test` installs Debian's postgresql package");
        let dir = tempfile::tempdir().unwrap();
        if as_root() {
            let status = Command::new("chown").args(["-R", "postgres:postgres"]).arg(dir.path()).status().unwrap();
            assert!(status.success());
        }
        let cluster = Postgres { dir, bin };
        let data = cluster.path("data");
        cluster.run("initdb", &["-D", &data, "-U", "postgres", "--auth=trust", "-E", "UTF8"]);
        let options = format!("-k {} -c listen_addresses=''", cluster.path(""));
        cluster.run("pg_ctl", &["-D", &data, "-l", &cluster.path("log"), "-o", &options, "-w", "start"]);
        cluster
    }

    /// A hot standby of this cluster (streaming replication from a base backup), listening in a directory
    /// of its own: a read replica, as a gallery that grows past one machine has.
    pub fn replica(&self) -> Self {
        let dir = tempfile::tempdir().unwrap();
        if as_root() {
            let status = Command::new("chown").args(["-R", "postgres:postgres"]).arg(dir.path()).status().unwrap();
            assert!(status.success());
        }
        let replica = Postgres { dir, bin: self.bin.clone() };
        let data = replica.path("data");
        self.run(
            "pg_basebackup",
            &["-h", &self.path(""), "-U", "postgres", "-D", &data, "-R", "-X", "stream", "-c", "fast"],
        );
        let options = format!("-k {} -c listen_addresses=''", replica.path(""));
        replica.run("pg_ctl", &["-D", &data, "-l", &replica.path("log"), "-o", &options, "-w", "start"]);
        replica
    }

    /// The URL of a database that is in the cluster already (made on a primary, replayed on a replica).
    pub fn url(&self, name: &str) -> String {
        format!("postgres://postgres@localhost/{name}?host={}", self.path(""))
    }

    fn path(&self, name: &str) -> String {
        self.dir.path().join(name).display().to_string().trim_end_matches('/').to_string()
    }

    /// A command that runs one of the cluster's programs, as the `postgres` user where the tests run as
    /// root (PostgreSQL refuses to run as root).
    fn command(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        if as_root() {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(path);
            command
        } else {
            Command::new(path)
        }
    }

    fn run(&self, program: &str, args: &[&str]) {
        let output = self.command(program).args(args).output().unwrap();
        assert!(output.status.success(), "{program}: {}", String::from_utf8_lossy(&output.stderr));
    }

    /// A new database in the cluster, and its URL.
    pub fn database(&self, name: &str) -> String {
        self.run("createdb", &["-h", &self.path(""), "-U", "postgres", name]);
        self.url(name)
    }
}

fn as_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.starts_with(b"0\n"))
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let _ = self.command("pg_ctl").args(["-D", &self.path("data"), "-m", "immediate", "stop"]).output();
    }
}
