//! What lives past a call: the caller's session, and the loops a toggle starts in it.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use tool_core::ToolContext;
use tool_core::context::CancellationToken;

/// The caller's session: its `Mcp-Session-Id` over HTTP, `stdio` for the one stdio client.
pub fn session_of(ctx: &ToolContext) -> String {
    ctx.http_request()
        .and_then(|request| request.headers.get("mcp-session-id"))
        .and_then(|id| id.to_str().ok())
        .map_or_else(|| "stdio".to_owned(), ToOwned::to_owned)
}

/// `from session <id>` over HTTP, nothing on stdio, as the reference ends its acknowledgements.
pub fn session_suffix(ctx: &ToolContext) -> String {
    match session_of(ctx).as_str() {
        "stdio" => String::new(),
        session => format!("from session {session}"),
    }
}

/// Stops `session`'s loop in `loops`; whether there was one.
pub fn stop(loops: &Mutex<HashMap<String, CancellationToken>>, session: &str) -> bool {
    let stopped = loops.lock().unwrap_or_else(PoisonError::into_inner).remove(session);
    stopped.inspect(CancellationToken::cancel).is_some()
}

/// Runs `tick` now and every five seconds with a clone of `ctx`, until the toggle stops it
/// or the session ends.
pub fn every_five_seconds<F, Fut>(
    loops: &Mutex<HashMap<String, CancellationToken>>,
    session: &str,
    ctx: &ToolContext,
    tick: F,
) where
    F: Fn(&ToolContext) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send,
{
    let token = CancellationToken::new();
    loops.lock().unwrap_or_else(PoisonError::into_inner).insert(session.to_owned(), token.clone());
    let ctx = ctx.clone();
    tokio::spawn(async move {
        while !token.is_cancelled() && !ctx.connection_closed() {
            tick(&ctx).await;
            tokio::select! {
                () = token.cancelled() => break,
                () = tokio::time::sleep(Duration::from_secs(5)) => {}
            }
        }
    });
}

/// A number below `n`, from the standard library's randomly seeded hasher.
pub fn random_below(n: usize) -> usize {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher
        .write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_nanos());
    usize::try_from(hasher.finish() % n as u64).unwrap_or(0)
}
