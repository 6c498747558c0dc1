//! The results gallery (`server/`) as the page's server: the real `wgsweep-server` binary over an SQLite
//! file of its own, on a free loopback port.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

pub struct Gallery {
    child: Child,
    url: String,
    _database: tempfile::TempDir,
}

impl Gallery {
    pub fn url(&self) -> &str {
        &self.url
    }
}

impl Drop for Gallery {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Builds (where it is not built yet) and starts the gallery over the page in `dist`.
pub fn start(dist: &Path) -> Gallery {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let built = Command::new(env!("CARGO")).args(["build", "-q", "-p", "wgsweep-server"]).current_dir(root).status();
    assert!(built.is_ok_and(|s| s.success()), "the gallery's server builds");
    let database = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}?mode=rwc", database.path().join("gallery.db").display());
    let mut child = Command::new(root.join("target/debug/wgsweep-server"))
        .args(["--listen", "127.0.0.1:0", "--database", &url, "--dist"])
        .arg(dist)
        .stdout(Stdio::piped())
        .spawn()
        .expect("wgsweep-server starts");
    // Its first line says where it listens.
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("its output")).read_line(&mut line).expect("its first line");
    let url = line.split_whitespace().find(|w| w.starts_with("http://")).expect("an address").trim_end_matches('/');
    Gallery { child, url: url.to_string(), _database: database }
}
