//! What the tests share: a real `restate-server`.
#![allow(dead_code, unreachable_pub)]

pub mod counter;
pub mod server;
