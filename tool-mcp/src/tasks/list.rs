//! Each caller's tasks, for `tasks/list`: a set in the store of the
//! caller's task ids, each kept as long as its task's record can be, and
//! named by its creation time so that the set's order is the tasks'.

use tool_core::store::StoreError;

use super::record::{SETTLE, TaskRecord, key};
use super::{TaskOwner, Tasks};

/// The most tasks one `tasks/list` answer holds.
const PAGE: usize = 100;

fn index(caller: &TaskOwner) -> String {
    format!("tasks-of:{}", caller.key())
}

/// Adds the new task `task_id` to its caller's.
pub(super) async fn add(
    tasks: &Tasks,
    caller: &TaskOwner,
    task_id: &str,
    record: &TaskRecord,
) -> Result<(), StoreError> {
    // The latest a record is kept: its end at its deadline and the time
    // to record it, then its time to live.
    let until = record
        .deadline_ms()
        .saturating_add(u64::try_from(SETTLE.as_millis()).unwrap_or(u64::MAX))
        .saturating_add(record.ttl_ms);
    let member = format!("{:016x}:{task_id}", record.created_ms);
    tasks.store.add_member(&index(caller), &member, until).await
}

/// The caller's tasks after `cursor`, oldest first, and the cursor of the
/// rest when a page does not hold them all.
pub(super) async fn page(
    tasks: &Tasks,
    caller: &TaskOwner,
    cursor: Option<&str>,
) -> Result<(Vec<(String, TaskRecord)>, Option<String>), StoreError> {
    let members = tasks.store.members(&index(caller)).await?;
    let from = cursor.map_or(0, |cursor| {
        members.partition_point(|member| member.as_str() <= cursor)
    });
    let caller = caller.key();
    let mut page = Vec::new();
    for (at, member) in members.iter().enumerate().skip(from) {
        let Some((_, task_id)) = member.split_once(':') else {
            continue;
        };
        let Some(bytes) = tasks.store.get(&key(task_id)).await? else {
            continue;
        };
        match TaskRecord::from_bytes(&bytes) {
            Some(record) if record.caller == caller => page.push((task_id.to_owned(), record)),
            _ => continue,
        }
        if page.len() == PAGE && at + 1 < members.len() {
            return Ok((page, Some(member.clone())));
        }
    }
    Ok((page, None))
}
