//! [`RedisEventStore`]: the events of 2026-07-28 response streams in Redis, so that a client
//! whose stream broke resumes it (`Last-Event-ID`) on any replica.

use core::time::Duration;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use redis::aio::ConnectionManager;
use rmcp::model::ServerJsonRpcMessage;
use rmcp::transport::streamable_http_server::session::{
    EventId, EventStore, EventStoreError, EventStream, ServerSseMessage,
};

/// rmcp's [`EventStore`] in Redis (feature `redis`): each event of a response stream is
/// appended to a Redis stream (`{prefix}events:{stream}`, trimmed to about 1,000 events and
/// kept an hour after its last event), and its id names both, so a client that lost the
/// connection mid-call sends `Last-Event-ID` to whichever replica the balancer picks and gets
/// what it missed, the call's result too once the replica running it has written it. Give it
/// to every replica with [`HttpOptions::event_store`](crate::mcp::HttpOptions::event_store).
///
/// While Redis is away, events are still sent, under ids that resume nothing (rmcp would
/// otherwise end the stream at the first event it could not store, and the client would get
/// no answer at all): an outage costs resumability, never a response.
#[derive(Clone)]
pub struct RedisEventStore {
    connection: ConnectionManager,
    prefix: String,
    ttl: Duration,
    /// Numbers the events sent while Redis was away.
    unstored: Arc<AtomicU64>,
}

impl core::fmt::Debug for RedisEventStore {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("RedisEventStore").field("prefix", &self.prefix).field("ttl", &self.ttl).finish_non_exhaustive()
    }
}

impl RedisEventStore {
    /// Events on `connection`, each stream kept an hour after its last event.
    #[must_use]
    pub fn new(connection: ConnectionManager) -> Self {
        RedisEventStore {
            connection,
            prefix: "tool-core:".to_owned(),
            ttl: Duration::from_hours(1),
            unstored: Arc::default(),
        }
    }

    /// Names its keys `{prefix}events:{stream}` (`tool-core:` by default).
    #[must_use]
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// Keeps a stream `ttl` after its last event.
    #[must_use]
    pub fn with_ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    fn key(&self, stream: &str) -> String {
        format!("{}events:{stream}", self.prefix)
    }
}

/// An event's id: its stream and its Redis entry, `{stream}/{entry}`.
fn split(event_id: &str) -> Result<(&str, &str), EventStoreError> {
    event_id.split_once('/').ok_or_else(|| format!("`{event_id}` is not an event id of this server").into())
}

#[async_trait::async_trait]
impl EventStore for RedisEventStore {
    async fn store_event(&self, stream_id: &str, event: &ServerSseMessage) -> Result<EventId, EventStoreError> {
        match self.append(stream_id, event).await {
            Ok(id) => Ok(id),
            Err(error) => {
                tracing::warn!(stream = stream_id, %error, "an event was sent without being stored: it cannot be resumed");
                let unstored = self.unstored.fetch_add(1, Ordering::Relaxed);
                Ok(format!("{stream_id}/unstored-{unstored}"))
            }
        }
    }

    async fn replay_events_after(&self, last_event_id: &str) -> Result<EventStream, EventStoreError> {
        self.replay(last_event_id).await
    }
}

impl RedisEventStore {
    /// Appends `event` to its stream; its id.
    async fn append(&self, stream_id: &str, event: &ServerSseMessage) -> Result<EventId, EventStoreError> {
        let message = match &event.message {
            Some(message) => serde_json::to_string(message.as_ref())?,
            None => String::new(),
        };
        let retry = event.retry.map(|retry| retry.as_millis().to_string()).unwrap_or_default();
        let key = self.key(stream_id);
        let ttl = i64::try_from(self.ttl.as_millis()).unwrap_or(i64::MAX);
        let mut connection = self.connection.clone();
        let (entry,): (String,) = redis::pipe()
            .atomic()
            .cmd("XADD")
            .arg(&key)
            .arg("MAXLEN")
            .arg("~")
            .arg(1000)
            .arg("*")
            .arg("m")
            .arg(message)
            .arg("r")
            .arg(retry)
            .pexpire(&key, ttl)
            .ignore()
            .query_async(&mut connection)
            .await?;
        Ok(format!("{stream_id}/{entry}"))
    }

    /// The events of `last_event_id`'s stream after it.
    async fn replay(&self, last_event_id: &str) -> Result<EventStream, EventStoreError> {
        let (stream_id, after) = split(last_event_id)?;
        let mut connection = self.connection.clone();
        let entries: Vec<(String, Vec<(String, String)>)> = redis::cmd("XRANGE")
            .arg(self.key(stream_id))
            .arg(format!("({after}"))
            .arg("+")
            .query_async(&mut connection)
            .await?;
        let mut events = Vec::with_capacity(entries.len());
        for (entry, fields) in entries {
            let field = |name: &str| fields.iter().find(|(key, _)| key == name).map_or("", |(_, value)| value.as_str());
            let mut event = ServerSseMessage::default();
            event.event_id = Some(format!("{stream_id}/{entry}"));
            if !field("m").is_empty() {
                event.message = Some(Arc::new(serde_json::from_str::<ServerJsonRpcMessage>(field("m"))?));
            }
            event.retry = field("r").parse().ok().map(Duration::from_millis);
            events.push(event);
        }
        Ok(Box::pin(futures_util::stream::iter(events)))
    }
}
