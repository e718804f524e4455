//! One address for several workers: a TCP proxy on a loopback port that
//! hands each connection to the next worker in turn, passing over one
//! that does not accept it (it died). Restate sees one deployment; what
//! it spreads over its connections reaches every worker.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use tokio::net::{TcpListener, TcpStream};

/// A running proxy; it stops with the test's runtime.
pub struct Proxy {
    port: u16,
    connections: Arc<Vec<AtomicU64>>,
}

impl Proxy {
    /// Starts one before the workers on `ports`.
    pub async fn start(ports: Vec<u16>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let port = listener.local_addr().expect("its address").port();
        let connections: Arc<Vec<AtomicU64>> =
            Arc::new(ports.iter().map(|_| AtomicU64::new(0)).collect());
        let next = Arc::new(AtomicUsize::new(0));
        let counts = Arc::clone(&connections);
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                let (ports, counts, next) = (ports.clone(), Arc::clone(&counts), Arc::clone(&next));
                tokio::spawn(async move {
                    for _ in 0..ports.len() {
                        let which = next.fetch_add(1, Ordering::SeqCst) % ports.len();
                        if let Ok(mut outbound) =
                            TcpStream::connect(("127.0.0.1", ports[which])).await
                        {
                            counts[which].fetch_add(1, Ordering::SeqCst);
                            let _ =
                                tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                            return;
                        }
                    }
                });
            }
        });
        Proxy { port, connections }
    }

    /// The workers' one URI, to register.
    pub fn uri(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The connections handed to each worker so far.
    pub fn connections(&self) -> Vec<u64> {
        self.connections
            .iter()
            .map(|count| count.load(Ordering::SeqCst))
            .collect()
    }
}
