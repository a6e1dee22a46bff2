//! [`RedisSessionStore`]: the sessions of 2025-era clients in Redis, so that any replica
//! serves a session another one opened.

use core::time::Duration;

use redis::aio::ConnectionManager;
use rmcp::transport::streamable_http_server::session::{SessionState, SessionStore, SessionStoreError};

/// rmcp's [`SessionStore`] in Redis (feature `redis`): a replica that gets a request for a
/// session it does not hold loads the client's `initialize` from here and replays it, so a
/// 2025-06-18 or 2025-11-25 client needs no sticky sessions. Give it to every replica with
/// [`HttpOptions::session_store`](crate::mcp::HttpOptions::session_store).
///
/// What a session held in one replica's memory does not travel: its `logging/setLevel`
/// (the new replica sends every level until the client sets one again) and requests in
/// flight on the replica that died. Clients of 2026-07-28 hold no session and need none of
/// this.
#[derive(Clone)]
pub struct RedisSessionStore {
    connection: ConnectionManager,
    prefix: String,
    ttl: Duration,
}

impl core::fmt::Debug for RedisSessionStore {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("RedisSessionStore")
            .field("prefix", &self.prefix)
            .field("ttl", &self.ttl)
            .finish_non_exhaustive()
    }
}

impl RedisSessionStore {
    /// Sessions on `connection` (see [`RedisTaskStore::connect`](crate::tasks::RedisTaskStore::connect)
    /// for one with sensible timeouts), each kept a day after it was opened or last stored.
    #[must_use]
    pub fn new(connection: ConnectionManager) -> Self {
        RedisSessionStore { connection, prefix: "tool-core:".to_owned(), ttl: Duration::from_hours(24) }
    }

    /// Names its keys `{prefix}session:{id}` (`tool-core:` by default).
    #[must_use]
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// Keeps a session `ttl` after it was stored.
    #[must_use]
    pub fn with_ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    fn key(&self, id: &str) -> String {
        format!("{}session:{id}", self.prefix)
    }
}

#[async_trait::async_trait]
impl SessionStore for RedisSessionStore {
    async fn load(&self, session_id: &str) -> Result<Option<SessionState>, SessionStoreError> {
        let mut connection = self.connection.clone();
        let text: Option<String> = redis::cmd("GET").arg(self.key(session_id)).query_async(&mut connection).await?;
        Ok(match text {
            Some(text) => Some(serde_json::from_str(&text)?),
            None => None,
        })
    }

    async fn store(&self, session_id: &str, state: &SessionState) -> Result<(), SessionStoreError> {
        let text = serde_json::to_string(state)?;
        let mut connection = self.connection.clone();
        let ttl = u64::try_from(self.ttl.as_millis()).unwrap_or(u64::MAX);
        redis::cmd("SET")
            .arg(self.key(session_id))
            .arg(text)
            .arg("PX")
            .arg(ttl)
            .query_async::<()>(&mut connection)
            .await?;
        Ok(())
    }

    async fn delete(&self, session_id: &str) -> Result<(), SessionStoreError> {
        let mut connection = self.connection.clone();
        redis::cmd("DEL").arg(self.key(session_id)).query_async::<()>(&mut connection).await?;
        Ok(())
    }
}
