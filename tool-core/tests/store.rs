//! The store in memory holds the contract every store holds.

use tool_core::store::MemoryStore;
use tool_core::store::testing::holds_the_contract;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_memory_store_holds_the_contract() {
    let store = MemoryStore::new();
    holds_the_contract(store.clone(), store, "memory").await;
}
