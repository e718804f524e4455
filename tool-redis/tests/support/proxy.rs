//! A TCP relay to a test's `redis-server`, which the test can cut: the
//! connection of one process to Redis lost, and kept lost, while the
//! others' come back.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// A relay on a loopback port of its own.
pub(crate) struct Proxy {
    port: u16,
    /// Whether connections are relayed; a connection made while cut is
    /// closed at once.
    open: Arc<AtomicBool>,
    /// Both ends of every connection relayed, to close when cut.
    streams: Arc<Mutex<Vec<TcpStream>>>,
}

impl Proxy {
    /// Relays to `url`, `redis://127.0.0.1:<port>`, as a test's server
    /// gives it.
    pub(crate) fn to(url: &str) -> Self {
        let target: u16 = url
            .rsplit_once(':')
            .and_then(|(_, port)| port.parse().ok())
            .unwrap_or_else(|| panic!("not a loopback Redis URL: {url}"));
        let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
        let port = listener.local_addr().expect("its address").port();
        let open = Arc::new(AtomicBool::new(true));
        let streams = Arc::new(Mutex::new(Vec::new()));
        std::thread::spawn({
            let open = Arc::clone(&open);
            let streams = Arc::clone(&streams);
            move || {
                for client in listener.incoming().map_while(Result::ok) {
                    if !open.load(Ordering::SeqCst) {
                        continue;
                    }
                    let Ok(server) = TcpStream::connect(("127.0.0.1", target)) else {
                        continue;
                    };
                    relay(&client, &server, &streams);
                }
            }
        });
        Proxy {
            port,
            open,
            streams,
        }
    }

    /// Where it listens.
    pub(crate) fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Closes every connection relayed, and each made until [`mend`](Proxy::mend).
    pub(crate) fn cut(&self) {
        self.open.store(false, Ordering::SeqCst);
        let mut streams = self.streams.lock().unwrap_or_else(PoisonError::into_inner);
        for stream in streams.drain(..) {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }

    /// Relays new connections again.
    pub(crate) fn mend(&self) {
        self.open.store(true, Ordering::SeqCst);
    }
}

/// Copies each way between `client` and `server` in a thread of its own,
/// until either closes.
fn relay(client: &TcpStream, server: &TcpStream, streams: &Mutex<Vec<TcpStream>>) {
    let (Ok(client_in), Ok(server_in), Ok(client_kept), Ok(server_kept)) = (
        client.try_clone(),
        server.try_clone(),
        client.try_clone(),
        server.try_clone(),
    ) else {
        return;
    };
    streams
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .extend([client_kept, server_kept]);
    for (from, to) in [
        (client_in, server.try_clone()),
        (server_in, client.try_clone()),
    ] {
        let Ok(to) = to else { return };
        std::thread::spawn(move || copy(from, to));
    }
}

fn copy(mut from: TcpStream, mut to: TcpStream) {
    let mut buffer = [0; 16 * 1024];
    while let Ok(read) = from.read(&mut buffer) {
        if read == 0 || to.write_all(&buffer[..read]).is_err() {
            break;
        }
    }
    let _ = to.shutdown(Shutdown::Both);
    let _ = from.shutdown(Shutdown::Both);
}
