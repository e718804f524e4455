//! What the tests share: a real `restate-server` (one node or a cluster),
//! the outside world a tool's side effect reaches, load through the
//! ingress, and the worker processes a test binary starts of itself.
#![allow(dead_code, unreachable_pub)]

pub mod cluster;
pub mod counter;
pub mod harness;
pub mod load;
pub mod proxy;
pub mod server;
pub mod worker;
