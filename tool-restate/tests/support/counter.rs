//! The outside world a tool's side effect reaches: a tiny HTTP server in
//! the test's process that counts, per key, the requests it is sent
//! (`POST /effect/<key>`), as a payment API counts the requests of an
//! `Idempotency-Key`. The side effect is done once per key, however many
//! times it is asked for.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// What is told of each request, before it is answered.
type OnHit = dyn Fn(&str) + Send + Sync;

/// A counter on a loopback port of its own.
pub struct Counter {
    url: String,
    hits: Arc<Mutex<BTreeMap<String, usize>>>,
}

impl Counter {
    /// Starts one; `on_hit` is called with each request's key once it is
    /// counted and before it is answered (to kill the process that sent
    /// it, whose tool then never hears that its side effect was done).
    pub fn start(on_hit: impl Fn(&str) + Send + Sync + 'static) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
        let url = format!("http://{}", listener.local_addr().expect("its address"));
        let hits = Arc::new(Mutex::new(BTreeMap::new()));
        let on_hit: Arc<OnHit> = Arc::new(on_hit);
        std::thread::spawn({
            let hits = Arc::clone(&hits);
            move || {
                for stream in listener.incoming().map_while(Result::ok) {
                    let hits = Arc::clone(&hits);
                    let on_hit = Arc::clone(&on_hit);
                    std::thread::spawn(move || answer(stream, &hits, &*on_hit));
                }
            }
        });
        Counter { url, hits }
    }

    /// Where it listens: `http://127.0.0.1:<port>`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Waits until it has counted `count` keys of those `counted` picks.
    pub async fn wait_for(&self, count: usize, counted: impl Fn(&str) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(120);
        let seen = || self.hits().keys().filter(|key| counted(key)).count();
        while seen() < count {
            assert!(
                Instant::now() < deadline,
                "{count} side effects not seen in 120 s"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// The requests counted so far, per key.
    pub fn hits(&self) -> BTreeMap<String, usize> {
        self.hits
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

fn answer(stream: TcpStream, hits: &Mutex<BTreeMap<String, usize>>, on_hit: &OnHit) {
    let mut reader = BufReader::new(&stream);
    let mut request = String::new();
    if reader.read_line(&mut request).is_err() {
        return;
    }
    // The headers; the request has no body.
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|read| read > 2) {
        line.clear();
    }
    let Some(key) = request
        .split_whitespace()
        .nth(1)
        .and_then(|path| path.strip_prefix("/effect/"))
    else {
        return;
    };
    *hits
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .entry(key.to_owned())
        .or_default() += 1;
    on_hit(key);
    let mut stream = &stream;
    let _ =
        stream.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok");
}
