//! Hearing other processes' writes: one subscription per store to the
//! channel its writes are published on, made again whenever it is lost.

use std::time::Duration;

use futures_util::StreamExt;
use tokio_util::sync::CancellationToken;
use tool_core::store::Watchers;

use crate::outage::Outages;

/// The first wait before subscribing again.
const FIRST_BACKOFF: Duration = Duration::from_millis(50);

/// The longest wait between two attempts to subscribe again.
const MOST_BACKOFF: Duration = Duration::from_secs(2);

/// Subscribes to `channel`, then hears it in a task of its own until
/// `stop`: each message names a key written, whose watches it wakes. An
/// error if the first subscription fails; later ones are retried, and
/// each loss, failed attempt and return is told to `outages`: the
/// subscription's connection is the first to see Redis go, and come back.
pub(crate) async fn subscribe(
    client: redis::Client,
    channel: String,
    prefix: String,
    watchers: Watchers,
    outages: Outages,
    stop: CancellationToken,
) -> Result<(), redis::RedisError> {
    let mut pubsub = client.get_async_pubsub().await?;
    pubsub.subscribe(&channel).await?;
    tokio::spawn(async move {
        let mut backoff = FIRST_BACKOFF;
        let mut subscribed = Some(pubsub);
        let mut first = true;
        loop {
            if let Some(mut pubsub) = subscribed.take() {
                // Writes made while no subscription stood went unheard.
                watchers.wake_all();
                if !std::mem::take(&mut first) {
                    // Back after an outage: the moment it ended.
                    outages.seen();
                }
                backoff = FIRST_BACKOFF;
                let mut messages = pubsub.on_message();
                loop {
                    tokio::select! {
                        () = stop.cancelled() => return,
                        message = messages.next() => match message {
                            Some(message) => {
                                if let Ok(key) = message.get_payload::<String>() {
                                    watchers.wake(&key);
                                }
                            }
                            None => break,
                        },
                    }
                }
                outages.seen();
                tracing::warn!(%prefix, "the Redis subscription was lost; subscribing again");
            }
            tokio::select! {
                () = stop.cancelled() => return,
                () = tokio::time::sleep(backoff) => {}
            }
            backoff = (backoff * 2).min(MOST_BACKOFF);
            match client.get_async_pubsub().await {
                Ok(mut pubsub) => {
                    if pubsub.subscribe(&channel).await.is_ok() {
                        subscribed = Some(pubsub);
                    } else {
                        outages.seen();
                    }
                }
                Err(error) => {
                    outages.seen();
                    tracing::debug!(%error, "subscribing to Redis again");
                }
            }
        }
    });
    Ok(())
}
