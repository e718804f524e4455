//! Sets whose members expire, for any [`Store`]: one record holding the
//! JSON object `{member: until_ms}`, changed from what was read (a write
//! [`When::Equals`] the record, or [`When::Absent`] with none), so that
//! members added at once by many processes are all kept.

use std::collections::BTreeMap;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::store::{Store, StoreError, When};

/// A set as it is kept: each member and when it expires, in ms since the
/// Unix epoch. Members are in text order.
type Members = BTreeMap<String, u64>;

/// The wall-clock time, in ms since the Unix epoch, as members' times are
/// given.
pub(super) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| {
            u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
        })
}

/// [`Store::add_member`] by reading the set and writing it back changed,
/// again from a fresh read for as long as another write came between.
pub(super) async fn add_member<S: Store + ?Sized>(
    store: &S,
    key: &str,
    member: &str,
    until_ms: u64,
) -> Result<(), StoreError> {
    loop {
        let old = store.get(key).await?;
        let now = now_ms();
        let mut members = match &old {
            Some(bytes) => parse(store, key, bytes)?,
            None => Members::new(),
        };
        let until = members.entry(member.to_owned()).or_insert(until_ms);
        *until = (*until).max(until_ms);
        members.retain(|_, until| *until > now);
        let Some(last) = members.values().copied().max() else {
            // Every member's time has passed, the new one's too: the
            // record, if any, expires with them.
            return Ok(());
        };
        let value = serde_json::to_vec(&members).map_err(|error| refused(store, key, &error))?;
        let when = match &old {
            Some(bytes) => When::Equals(bytes),
            None => When::Absent,
        };
        let ttl = Duration::from_millis(last - now);
        if store.put(key, value, ttl, when).await? {
            return Ok(());
        }
    }
}

/// [`Store::members`] by reading the set.
pub(super) async fn members<S: Store + ?Sized>(
    store: &S,
    key: &str,
) -> Result<Vec<String>, StoreError> {
    let Some(bytes) = store.get(key).await? else {
        return Ok(Vec::new());
    };
    let now = now_ms();
    Ok(parse(store, key, &bytes)?
        .into_iter()
        .filter(|(_, until)| *until > now)
        .map(|(member, _)| member)
        .collect())
}

fn parse<S: Store + ?Sized>(store: &S, key: &str, bytes: &[u8]) -> Result<Members, StoreError> {
    serde_json::from_slice(bytes).map_err(|error| refused(store, key, &error))
}

fn refused<S: Store + ?Sized>(store: &S, key: &str, error: &serde_json::Error) -> StoreError {
    StoreError::Refused {
        store: store.kind().to_owned(),
        key: key.to_owned(),
        message: format!("not a set of expiring members: {error}"),
    }
}
