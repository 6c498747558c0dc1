//! Connections as a stranger holds them: many left open from one address, a header never finished. Each
//! is capped or closed in time, and everyone else is still served at once.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use axum::Router;
use axum::routing::get;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use wgsweep_server::doors::{Doors, serve};

/// `stream` if the server has not closed it within `wait` (a read then ends, or fails, instead of waiting).
async fn open_after(mut stream: TcpStream, wait: Duration) -> Option<TcpStream> {
    let mut byte = [0u8; 1];
    let closed = matches!(tokio::time::timeout(wait, stream.read(&mut byte)).await, Ok(Ok(0) | Err(_)));
    (!closed).then_some(stream)
}

#[tokio::test(flavor = "multi_thread")]
async fn idle_connections_are_capped_per_address_and_closed_after_the_header_timeout() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let app = Router::new().route("/api/health", get(|| async { "ok" }));
    let doors = Doors { header_read_timeout: Duration::from_secs(2), most_per_client: 16, uncounted: Vec::new() };
    tokio::spawn(serve(listener, app, doors, std::future::pending()));

    // A stranger opens 100 connections and sends nothing; one starts a header and never finishes it.
    let mut idle = Vec::new();
    for _ in 0..100 {
        idle.push(TcpStream::connect(address).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(200)).await;

    // Someone else, from another address, is answered at once.
    let started = Instant::now();
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind("127.0.0.2:0".parse::<SocketAddr>().unwrap()).unwrap();
    let mut other = socket.connect(address).await.unwrap();
    other.write_all(b"GET /api/health HTTP/1.1\r\nhost: gallery\r\nconnection: close\r\n\r\n").await.unwrap();
    let mut answer = String::new();
    other.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 200 OK") && answer.ends_with("ok"), "{answer}");
    assert!(started.elapsed() < Duration::from_secs(1), "answered in {:?}", started.elapsed());

    // 16 of the stranger's connections are held, the other 84 were closed as they came.
    let checks: Vec<_> = idle.into_iter().map(|s| tokio::spawn(open_after(s, Duration::from_millis(500)))).collect();
    let mut held = Vec::new();
    for check in checks {
        held.extend(check.await.unwrap());
    }
    assert_eq!(held.len(), 16, "of 100");

    // The held ones, and a header sent in part, are closed once the header timeout passes.
    let mut slow = TcpStream::connect(address).await.unwrap();
    slow.write_all(b"GET /api/health HT").await.unwrap();
    let later = held.into_iter().chain([slow]).map(|s| tokio::spawn(open_after(s, Duration::from_secs(4))));
    for check in later.collect::<Vec<_>>() {
        assert!(check.await.unwrap().is_none(), "a connection outlived the header timeout");
    }
}
