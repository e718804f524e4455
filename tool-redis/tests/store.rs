//! The Redis store against a real redis-server: the contract every store
//! holds, shared by two connections as two replicas share it; a clear
//! error at start when Redis is not there; errors, not hangs or panics,
//! while it is down; work again once it is back; nothing left behind.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tool_core::store::testing::holds_the_contract;
use tool_core::store::{Store, StoreError, When};
use tool_redis::RedisStore;

// Each test binary uses its own part of the server's controls.
#[allow(dead_code)]
#[path = "support/server.rs"]
mod server;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_sharing_redis_hold_the_contract() {
    let server = server::Server::start();
    let a = RedisStore::connect(&server.url()).await.expect("connect");
    let b = RedisStore::connect(&server.url()).await.expect("connect");
    holds_the_contract(a, b, "redis").await;
}

#[tokio::test]
async fn redis_unreachable_at_start_is_an_error_at_start() {
    let mut server = server::Server::start();
    let url = server.url();
    server.kill();
    let error = RedisStore::connect(&url)
        .await
        .expect_err("nothing listens");
    let StoreError::Unreachable { store, message } = &error else {
        panic!("{error:?}");
    };
    assert_eq!(store, "redis");
    assert!(message.starts_with(&format!("{url}: ")), "{message}");
    assert!(
        error
            .to_string()
            .starts_with(&format!("the redis store is unreachable: {url}: ")),
        "{error}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_redis_is_an_error_while_down_and_works_again_after() {
    let mut server = server::Server::start();
    let store = RedisStore::options(&server.url())
        .timeout(Duration::from_secs(1))
        .connect()
        .await
        .expect("connect");
    let minute = Duration::from_secs(60);
    assert!(
        store
            .put("call:1", b"x".to_vec(), minute, When::Always)
            .await
            .expect("put")
    );
    let mut watch = store.watch("call:1");

    server.kill();
    let error = store.get("call:1").await.expect_err("Redis is down");
    assert!(
        matches!(error, StoreError::Unreachable { .. }),
        "a lost server is unreachable: {error:?}"
    );

    server.start_again();
    // The connection is made again on its own; what Redis held is gone.
    let mut answer = store.get("call:1").await;
    for _ in 0..50 {
        if answer.is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        answer = store.get("call:1").await;
    }
    assert_eq!(
        answer.expect("Redis is back"),
        None,
        "nothing survived the restart"
    );
    // Watches hear writes again once the subscription is made again.
    let other = RedisStore::connect(&server.url()).await.expect("connect");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        // Writes made before the subscription stands again are heard
        // through the watch's poll; either way, it must wake.
        assert!(
            other
                .put("call:1", b"y".to_vec(), minute, When::Always)
                .await
                .expect("put")
        );
        if tokio::time::timeout(Duration::from_secs(3), watch.changed())
            .await
            .is_ok()
            && store.get("call:1").await.expect("get").as_deref() == Some(&b"y"[..])
        {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the write was never heard"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_record_expires_and_redis_goes_back_to_empty() {
    let server = server::Server::start();
    let store = RedisStore::connect(&server.url()).await.expect("connect");
    let brief = Duration::from_millis(300);
    for call in 0..500 {
        let key = format!("call:{call}");
        store
            .put(&key, vec![7; 128], brief, When::Always)
            .await
            .expect("put");
    }
    assert_eq!(server.keys(), 500);
    tokio::time::sleep(brief + Duration::from_millis(700)).await;
    // Redis drops expired keys as they are read, and a sample of the rest
    // ten times a second: within a few seconds, all.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while server.keys() > 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "{} keys left",
            server.keys()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_set_expires_with_its_members_and_redis_goes_back_to_empty() {
    let server = server::Server::start();
    let store = RedisStore::connect(&server.url()).await.expect("connect");
    let brief = Duration::from_millis(300);
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970");
    for caller in 0..50u64 {
        let key = format!("tasks:{caller}");
        for task in 0..10u64 {
            // The members' times differ: the set lasts as long as its
            // last one.
            let until = now + brief + Duration::from_millis(caller + task);
            let until = u64::try_from(until.as_millis()).expect("ms fit");
            store
                .add_member(&key, &format!("{task:016x}:{caller}"), until)
                .await
                .expect("add_member");
        }
    }
    assert_eq!(server.keys(), 50);
    tokio::time::sleep(brief + Duration::from_millis(700)).await;
    // Nothing reads the sets again: they expire on their own.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while server.keys() > 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "{} keys left",
            server.keys()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn keys_are_prefixed_so_applications_sharing_redis_keep_apart() {
    let server = server::Server::start();
    let one = RedisStore::options(&server.url())
        .prefix("one:")
        .connect()
        .await
        .expect("connect");
    let two = RedisStore::options(&server.url())
        .prefix("two:")
        .connect()
        .await
        .expect("connect");
    let minute = Duration::from_secs(60);
    assert!(
        one.put("call:1", b"one".to_vec(), minute, When::Always)
            .await
            .expect("put")
    );
    assert_eq!(two.get("call:1").await.expect("get"), None);
    let mut watch = two.watch("call:1");
    assert!(
        one.put("call:1", b"again".to_vec(), minute, When::Always)
            .await
            .expect("put")
    );
    assert!(
        tokio::time::timeout(Duration::from_millis(300), watch.changed())
            .await
            .is_err(),
        "another prefix's writes are not heard"
    );
}
