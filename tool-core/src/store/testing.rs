//! The contract every [`Store`] holds, as a test a store of one's own
//! runs ([`holds_the_contract`]): the suite `MemoryStore` and
//! `tool_redis::RedisStore` pass, for a store on Postgres, SQLite,
//! DynamoDB or anything else. Behind the feature `testing`.
//!
//! ```toml
//! [dev-dependencies]
//! tool-core = { version = "0.1", features = ["testing"] }
//! ```

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::store::{Store, When};

const MINUTE: Duration = Duration::from_secs(60);

/// Long enough for a notice to cross a loopback connection on a busy
/// machine; a notice that takes longer fails the test.
const HEARD_WITHIN: Duration = Duration::from_secs(5);

/// Checks that `a` and `b`, two handles of one store (two connections,
/// as two processes would hold it, or two clones), do what every
/// [`Store`] must: what one writes the other reads, byte for byte; a claim
/// ([`When::Absent`]) is won once, and a change from what was read
/// ([`When::Equals`]) made once, however many try at once; records are gone
/// when their time is up; the other's writes and deletes wake a
/// [`watch`](Store::watch); members added to a set by either are all kept,
/// each until its own time, and the set goes with its last member.
///
/// `tag` begins every key the checks write, so that runs sharing a server
/// keep apart. The checks take a few seconds (records are left to
/// expire). Needs a Tokio runtime with more than one thread, as its
/// claims race from tasks of their own.
///
/// # Panics
///
/// At the first check the store fails, saying which and what it got, as a
/// test's assertion does: call it from a test.
///
/// ```
/// # tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap().block_on(async {
/// use tool_core::store::MemoryStore;
/// use tool_core::store::testing::holds_the_contract;
///
/// // A test of a store of your own: two handles of one store.
/// let store = MemoryStore::new();
/// holds_the_contract(store.clone(), store, "memory").await;
/// # });
/// ```
pub async fn holds_the_contract<S: Store + Clone>(a: S, b: S, tag: &str) {
    reads_what_the_other_wrote(&a, &b, tag).await;
    a_claim_is_won_once(&a, &b, tag).await;
    a_change_from_what_was_read_is_made_once(&a, &b, tag).await;
    records_expire(&a, &b, tag).await;
    writes_are_heard_by_the_other(&a, &b, tag).await;
    sets_keep_each_member_until_its_time(&a, &b, tag).await;
    a_set_is_gone_with_its_last_member(&a, &b, tag).await;
    members_added_at_once_are_all_kept(&a, &b, tag).await;
}

async fn reads_what_the_other_wrote<S: Store>(a: &S, b: &S, tag: &str) {
    let key = format!("{tag}:plain");
    assert_eq!(b.get(&key).await.expect("get"), None, "nothing at first");
    assert!(
        a.put(&key, b"one".to_vec(), MINUTE, When::Always)
            .await
            .expect("put")
    );
    assert_eq!(
        b.get(&key).await.expect("get").as_deref(),
        Some(&b"one"[..])
    );
    assert!(
        b.put(&key, b"two".to_vec(), MINUTE, When::Always)
            .await
            .expect("put")
    );
    assert_eq!(
        a.get(&key).await.expect("get").as_deref(),
        Some(&b"two"[..])
    );
    // Bytes as they are, not text.
    let binary = vec![0, 255, 10, 13, 0];
    assert!(
        a.put(&key, binary.clone(), MINUTE, When::Always)
            .await
            .expect("put")
    );
    assert_eq!(b.get(&key).await.expect("get"), Some(binary));
    assert!(b.delete(&key).await.expect("delete"), "there was a record");
    assert!(!a.delete(&key).await.expect("delete"), "deleted already");
    assert_eq!(a.get(&key).await.expect("get"), None);
}

async fn a_claim_is_won_once<S: Store + Clone>(a: &S, b: &S, tag: &str) {
    let key = format!("{tag}:claim");
    let mut claims = Vec::new();
    for claimant in 0..16u8 {
        let store = if claimant % 2 == 0 {
            a.clone()
        } else {
            b.clone()
        };
        let key = key.clone();
        claims.push(tokio::spawn(async move {
            let won = store
                .put(&key, vec![claimant], MINUTE, When::Absent)
                .await
                .expect("put");
            (claimant, won)
        }));
    }
    let mut winners = Vec::new();
    for claim in claims {
        let (claimant, won) = claim.await.expect("no claim panics");
        if won {
            winners.push(claimant);
        }
    }
    assert_eq!(winners.len(), 1, "one claim wins: {winners:?}");
    assert_eq!(
        a.get(&key).await.expect("get"),
        Some(vec![winners[0]]),
        "the winner's record stands"
    );
}

async fn a_change_from_what_was_read_is_made_once<S: Store>(a: &S, b: &S, tag: &str) {
    let key = format!("{tag}:state");
    let equals = |state: &'static [u8]| When::Equals(state);
    assert!(
        !a.put(&key, b"done".to_vec(), MINUTE, equals(b"working"))
            .await
            .expect("put"),
        "no record: nothing to change from"
    );
    assert!(
        a.put(&key, b"working".to_vec(), MINUTE, When::Absent)
            .await
            .expect("put")
    );
    assert!(
        b.put(&key, b"done".to_vec(), MINUTE, equals(b"working"))
            .await
            .expect("put")
    );
    assert!(
        !a.put(&key, b"failed".to_vec(), MINUTE, equals(b"working"))
            .await
            .expect("put"),
        "changed meanwhile: refused"
    );
    assert_eq!(
        a.get(&key).await.expect("get").as_deref(),
        Some(&b"done"[..])
    );
}

async fn records_expire<S: Store>(a: &S, b: &S, tag: &str) {
    let key = format!("{tag}:brief");
    let brief = Duration::from_millis(200);
    assert!(
        a.put(&key, b"x".to_vec(), brief, When::Always)
            .await
            .expect("put")
    );
    assert!(
        b.get(&key).await.expect("get").is_some(),
        "there until its time is up"
    );
    tokio::time::sleep(brief * 3).await;
    assert_eq!(
        b.get(&key).await.expect("get"),
        None,
        "gone once its time is up"
    );
    assert!(
        b.put(&key, b"y".to_vec(), MINUTE, When::Absent)
            .await
            .expect("put"),
        "an expired record is absent"
    );
}

async fn writes_are_heard_by_the_other<S: Store>(a: &S, b: &S, tag: &str) {
    let key = format!("{tag}:watched");
    let other = format!("{tag}:other");
    let mut watch = a.watch(&key);
    assert!(
        b.put(&other, b"x".to_vec(), MINUTE, When::Always)
            .await
            .expect("put")
    );
    assert!(
        tokio::time::timeout(Duration::from_millis(200), watch.changed())
            .await
            .is_err(),
        "a write of another key is not heard"
    );
    assert!(
        b.put(&key, b"x".to_vec(), MINUTE, When::Always)
            .await
            .expect("put")
    );
    tokio::time::timeout(HEARD_WITHIN, watch.changed())
        .await
        .expect("the other's write is heard");
    assert!(b.delete(&key).await.expect("delete"));
    tokio::time::timeout(HEARD_WITHIN, watch.changed())
        .await
        .expect("the other's delete is heard");
    // A refused write is no change.
    assert!(
        a.put(&key, b"y".to_vec(), MINUTE, When::Always)
            .await
            .expect("put")
    );
    tokio::time::timeout(HEARD_WITHIN, watch.changed())
        .await
        .expect("heard");
    assert!(
        !b.put(&key, b"z".to_vec(), MINUTE, When::Absent)
            .await
            .expect("put")
    );
    assert!(
        tokio::time::timeout(Duration::from_millis(200), watch.changed())
            .await
            .is_err(),
        "a refused write is not heard"
    );
}

/// The wall-clock time, as members' times are given.
fn now_ms() -> u64 {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970");
    u64::try_from(now.as_millis()).expect("ms fit")
}

async fn add<S: Store>(store: &S, key: &str, member: &str, until_ms: u64) {
    store
        .add_member(key, member, until_ms)
        .await
        .expect("add_member");
}

/// A member's brief time, in ms.
const BRIEF_MS: u64 = 300;

async fn sets_keep_each_member_until_its_time<S: Store>(a: &S, b: &S, tag: &str) {
    let key = format!("{tag}:set");
    assert!(b.members(&key).await.expect("members").is_empty());
    let now = now_ms();
    let minute = now + 60_000;
    let brief = now + BRIEF_MS;
    add(a, &key, "b", minute).await;
    add(b, &key, "a", brief).await;
    add(a, &key, "c", minute).await;
    add(b, &key, "d", brief).await;
    assert_eq!(
        b.members(&key).await.expect("members"),
        ["a", "b", "c", "d"],
        "every member, by either, in text order"
    );
    // Added again: kept until the later time, whichever came first.
    add(b, &key, "c", brief).await;
    add(a, &key, "d", minute).await;
    assert_eq!(
        a.members(&key).await.expect("members"),
        ["a", "b", "c", "d"]
    );
    tokio::time::sleep(Duration::from_millis(BRIEF_MS * 3)).await;
    assert_eq!(
        a.members(&key).await.expect("members"),
        ["b", "c", "d"],
        "a brief member is gone once its time is up, the others stay"
    );
    add(b, &key, "0", now_ms() - 1).await;
    assert_eq!(
        b.members(&key).await.expect("members"),
        ["b", "c", "d"],
        "a member added past its time is not kept"
    );
}

async fn a_set_is_gone_with_its_last_member<S: Store>(a: &S, b: &S, tag: &str) {
    let key = format!("{tag}:brief-set");
    let now = now_ms();
    a.add_member(&key, "x", now + BRIEF_MS - 100)
        .await
        .expect("add_member");
    b.add_member(&key, "y", now + BRIEF_MS)
        .await
        .expect("add_member");
    assert_eq!(a.members(&key).await.expect("members"), ["x", "y"]);
    tokio::time::sleep(Duration::from_millis(BRIEF_MS * 3)).await;
    // Read as a record before the members are: the key expired on its
    // own, not because they were read.
    assert_eq!(
        b.get(&key).await.expect("get"),
        None,
        "the key expired with its last member"
    );
    assert!(a.members(&key).await.expect("members").is_empty());
    b.add_member(&key, "z", now_ms() - 1)
        .await
        .expect("add_member");
    assert_eq!(
        b.get(&key).await.expect("get"),
        None,
        "a member past its time makes no set"
    );
}

async fn members_added_at_once_are_all_kept<S: Store + Clone>(a: &S, b: &S, tag: &str) {
    let key = format!("{tag}:crowded-set");
    let until = now_ms() + 60_000;
    let mut adds = Vec::new();
    for adder in 0..16u8 {
        let store = if adder % 2 == 0 { a.clone() } else { b.clone() };
        let key = key.clone();
        adds.push(tokio::spawn(async move {
            store
                .add_member(&key, &format!("{adder:02}"), until)
                .await
                .expect("add_member");
        }));
    }
    for add in adds {
        add.await.expect("no add panics");
    }
    let expected: Vec<String> = (0..16).map(|adder| format!("{adder:02}")).collect();
    assert_eq!(a.members(&key).await.expect("members"), expected);
}
