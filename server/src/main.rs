//! `wgsweep-server`: the page and the results gallery on one address.

use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::path::PathBuf;

use clap::Parser;

#[derive(Parser)]
#[command(version, about = "The wgsweep page and its results gallery, over SQLite or PostgreSQL")]
struct Args {
    /// Where to listen.
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// The built page (`cargo xtask dist`).
    #[arg(long, default_value = "dist")]
    dist: PathBuf,
    /// The database: an SQLite file (created where missing) or a PostgreSQL URL.
    #[arg(long, env = "WGSWEEP_DATABASE", default_value = "sqlite://wgsweep-gallery.db?mode=rwc")]
    database: String,
    /// A PostgreSQL read replica of --database (streaming replication), which then answers the device list,
    /// a device's results, median and presets, and stored results; what it has not replayed yet is read
    /// from --database. Publishes and deletes go to --database.
    #[arg(long, env = "WGSWEEP_READ_DATABASE", value_name = "URL")]
    read_database: Option<String>,
    /// Publishes each client address may make a minute.
    #[arg(long, default_value = "10")]
    publishes_per_minute: NonZeroU32,
    /// Reads of stored results (a result, a device's list, median or presets) each client address may make
    /// a minute, in bursts of a tenth of that.
    #[arg(long, default_value = "600")]
    reads_per_minute: NonZeroU32,
    /// A reverse proxy in front of this server (repeat for several): requests from it are counted against
    /// the client address it appends to X-Forwarded-For. Without one, the socket's address counts.
    #[arg(long = "trusted-proxy", value_name = "IP")]
    trusted_proxies: Vec<IpAddr>,
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let args = Args::parse();
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
    let mut store = wgsweep_server::store::Store::open(&args.database).await?;
    if let Some(replica) = &args.read_database {
        store = store.with_replica(replica).await?;
    }
    let settings = wgsweep_server::api::Settings {
        publishes_per_minute: args.publishes_per_minute,
        reads_per_minute: args.reads_per_minute,
        trusted_proxies: args.trusted_proxies,
    };
    let app = wgsweep_server::app(store.clone(), &args.dist, settings);
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", args.listen))?;
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    // One line that scripts (and the tests) wait for.
    let replica = if store.has_replica() { ", reads from its replica" } else { "" };
    println!("wgsweep-server: http://{address}/ (the page and its gallery, on {}{replica})", store.kind.name());
    axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>())
        .with_graceful_shutdown(async {
            tokio::signal::ctrl_c().await.ok();
        })
        .await
        .map_err(|e| e.to_string())
}
