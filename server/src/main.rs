//! `wgsweep-server`: the page and the results gallery on one address.

use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::path::PathBuf;

/// The database when neither --database nor WGSWEEP_DATABASE names one.
const DEFAULT_DATABASE: &str = "sqlite://wgsweep-gallery.db?mode=rwc";

/// The wgsweep page and its results gallery, over SQLite or PostgreSQL.
#[derive(argh::FromArgs)]
struct Args {
    /// where to listen (default 127.0.0.1:8080)
    #[argh(option, default = "SocketAddr::from(([127, 0, 0, 1], 8080))")]
    listen: SocketAddr,
    /// the built page, from `cargo xtask dist` (default dist)
    #[argh(option, default = "PathBuf::from(\"dist\")")]
    dist: PathBuf,
    /// the database: an SQLite file (created where missing) or a PostgreSQL URL (default: WGSWEEP_DATABASE,
    /// else sqlite://wgsweep-gallery.db?mode=rwc)
    #[argh(option)]
    database: Option<String>,
    /// a PostgreSQL read replica of --database (streaming replication; default: WGSWEEP_READ_DATABASE), which
    /// then answers the device list, a device's results, median and presets, and stored results; what it has
    /// not replayed yet is read from --database. Publishes and deletes go to --database.
    #[argh(option)]
    read_database: Option<String>,
    /// publishes each client address may make a minute (default 10)
    #[argh(option, default = "NonZeroU32::new(10).expect(\"not zero\")")]
    publishes_per_minute: NonZeroU32,
    /// reads of stored results (a result, a device's list, median or presets) each client address may make a
    /// minute, in bursts of a tenth of that (default 600)
    #[argh(option, default = "NonZeroU32::new(600).expect(\"not zero\")")]
    reads_per_minute: NonZeroU32,
    /// a reverse proxy in front of this server (repeat for several): requests from it are counted against the
    /// client address it appends to X-Forwarded-For. Without one, the socket's address counts.
    #[argh(option, long = "trusted-proxy")]
    trusted_proxies: Vec<IpAddr>,
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let mut args: Args = argh::from_env();
    // An option given on the command line wins over its environment variable.
    args.database = args.database.or_else(|| std::env::var("WGSWEEP_DATABASE").ok());
    args.read_database = args.read_database.or_else(|| std::env::var("WGSWEEP_READ_DATABASE").ok());
    match serve(args).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("wgsweep-server: {message}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn serve(args: Args) -> Result<(), String> {
    if !args.dist.join("index.html").is_file() {
        return Err(format!("{} holds no built page: run `cargo xtask dist` first", args.dist.display()));
    }
    let mut store = wgsweep_server::store::Store::open(args.database.as_deref().unwrap_or(DEFAULT_DATABASE)).await?;
    if let Some(replica) = &args.read_database {
        store = store.with_replica(replica).await?;
    }
    let settings = wgsweep_server::api::Settings {
        publishes_per_minute: args.publishes_per_minute,
        reads_per_minute: args.reads_per_minute,
        trusted_proxies: args.trusted_proxies.clone(),
    };
    let app = wgsweep_server::app(store.clone(), &args.dist, settings);
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", args.listen))?;
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    // One line that scripts (and the tests) wait for.
    let replica = if store.has_replica() { ", reads from its replica" } else { "" };
    println!("wgsweep-server: http://{address}/ (the page and its gallery, on {}{replica})", store.kind.name());
    let doors = wgsweep_server::doors::Doors { uncounted: args.trusted_proxies, ..Default::default() };
    wgsweep_server::doors::serve(listener, app, doors, async {
        tokio::signal::ctrl_c().await.ok();
    })
    .await;
    Ok(())
}
