//! What the tests share: a real `restate-server`.
#![allow(dead_code, unreachable_pub)]

pub mod cluster;
pub mod counter;
pub mod load;
pub mod proxy;
pub mod server;
