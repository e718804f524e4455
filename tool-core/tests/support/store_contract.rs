//! What every [`Store`] must do, checked on two handles of one store (two
//! processes sharing it, or two clones): written by one, read and heard
//! by the other; claims won once; records gone when their time is up.

use std::time::Duration;

use tool_core::store::{Store, When};

const MINUTE: Duration = Duration::from_secs(60);

/// Long enough for a notice to cross a loopback connection on a busy
/// machine; a notice that takes longer fails the test.
const HEARD_WITHIN: Duration = Duration::from_secs(5);

/// Runs every check; `tag` keeps the keys of concurrent runs apart.
pub(crate) async fn holds_the_contract<S: Store + Clone>(a: S, b: S, tag: &str) {
    reads_what_the_other_wrote(&a, &b, tag).await;
    a_claim_is_won_once(&a, &b, tag).await;
    a_change_from_what_was_read_is_made_once(&a, &b, tag).await;
    records_expire(&a, &b, tag).await;
    writes_are_heard_by_the_other(&a, &b, tag).await;
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
