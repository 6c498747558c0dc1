//! How connections come in: each served over HTTP/1.1 by hyper, closed when it sends no whole request header
//! within `Doors::header_read_timeout` (hyper's own timer, which also runs while a connection idles between
//! requests), and at most `Doors::most_per_client` open at once from one address, reverse proxies excepted:
//! a stranger who holds connections open, or sends a header a byte at a time, cannot take the server's
//! descriptors from everyone else.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tower::ServiceExt;

/// How long a connection may take to send a request's header, or idle before sending the next one.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// Connections one address may hold open at once; one more is closed as soon as it is accepted.
pub const MOST_CONNECTIONS_PER_CLIENT: usize = 64;

/// The rules every connection meets.
#[derive(Clone, Debug)]
pub struct Doors {
    pub header_read_timeout: Duration,
    pub most_per_client: usize,
    /// Addresses whose connections are not counted: reverse proxies, whose connections carry many clients.
    pub uncounted: Vec<IpAddr>,
}

impl Default for Doors {
    fn default() -> Self {
        Doors {
            header_read_timeout: HEADER_READ_TIMEOUT,
            most_per_client: MOST_CONNECTIONS_PER_CLIENT,
            uncounted: Vec::new(),
        }
    }
}

/// The connections open, by client address.
#[derive(Default)]
struct Open(Mutex<HashMap<IpAddr, usize>>);

/// One open connection, counted until it closes.
struct Held {
    open: Arc<Open>,
    client: IpAddr,
}

impl Open {
    /// A place for one more connection from `client`, if it holds fewer than `most`.
    fn admit(self: &Arc<Self>, client: IpAddr, most: usize) -> Option<Held> {
        let mut open = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let count = open.entry(client).or_default();
        (*count < most).then(|| {
            *count += 1;
            Held { open: self.clone(), client }
        })
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut open = self.open.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(count) = open.get_mut(&self.client) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.client);
            }
        }
    }
}

/// Serves `app` on `listener` through `doors` until `shutdown` resolves, then lets the requests under way
/// finish. Each request carries its connection's address (`ConnectInfo<SocketAddr>`).
pub async fn serve(listener: TcpListener, app: Router, doors: Doors, shutdown: impl Future<Output = ()>) {
    let open = Arc::new(Open::default());
    let graceful = GracefulShutdown::new();
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder.timer(TokioTimer::new()).header_read_timeout(doors.header_read_timeout);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, address) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // Out of descriptors, most likely: those in use close in time.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let held = match doors.uncounted.contains(&address.ip()) {
            true => None,
            false => match open.admit(address.ip(), doors.most_per_client) {
                Some(held) => Some(held),
                None => continue, // dropped: closed
            },
        };
        let app = app.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<hyper::body::Incoming>| {
            request.extensions_mut().insert(ConnectInfo::<SocketAddr>(address));
            app.clone().oneshot(request.map(axum::body::Body::new))
        });
        let connection = graceful.watch(builder.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            let _ = connection.await; // a client that went away, or took too long
            drop(held);
        });
    }
    graceful.shutdown().await;
}
