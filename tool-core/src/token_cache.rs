//! The one cache of OAuth 2 client-credentials tokens, for every client that gets them: the
//! A2A client (a card's token endpoint) and the remote-MCP client (`mcp-client-oauth`, after
//! discovery). A token is kept until shortly before it expires, so none expires in flight,
//! and asked again when the caller says the server refused it.

use core::future::Future;
use core::time::Duration;

use tokio::sync::Mutex;
use tokio::time::Instant;

/// How long before its expiry a token is asked again: 30 s, or half its lifetime when that
/// is shorter (a token that lives a minute is still used).
const EARLY: Duration = Duration::from_secs(30);

/// A bearer token and when to stop using it (`None`: the grant named no lifetime).
#[derive(Default)]
pub(crate) struct TokenCache {
    held: Mutex<Option<(String, Option<Instant>)>>,
}

impl TokenCache {
    /// The held token while it is fresh (and not `renew`ed), else the one `fetch` gets: its
    /// text and lifetime (`expires_in`). Callers wait for one fetch at a time.
    pub(crate) async fn token<E, F>(&self, renew: bool, fetch: impl FnOnce() -> F) -> Result<String, E>
    where
        F: Future<Output = Result<(String, Option<Duration>), E>>,
    {
        let mut held = self.held.lock().await;
        if !renew
            && let Some((token, until)) = held.as_ref()
            && until.is_none_or(|until| Instant::now() < until)
        {
            return Ok(token.clone());
        }
        *held = None;
        let (token, lifetime) = fetch().await?;
        let until = lifetime.map(|lifetime| Instant::now() + lifetime.saturating_sub(EARLY.min(lifetime / 2)));
        *held = Some((token.clone(), until));
        Ok(token)
    }
}

impl core::fmt::Debug for TokenCache {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // The token stays out of logs.
        f.debug_struct("TokenCache").finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use core::time::Duration;

    use super::TokenCache;

    #[tokio::test(start_paused = true)]
    async fn a_token_is_kept_until_shortly_before_it_expires_and_renewed_on_demand() {
        let cache = TokenCache::default();
        let fetches = core::cell::Cell::new(0);
        let fetch = |lifetime: u64| {
            fetches.set(fetches.get() + 1);
            let token = format!("t{}", fetches.get());
            async move { Ok::<_, ()>((token, Some(Duration::from_secs(lifetime)))) }
        };
        assert_eq!(cache.token(false, || fetch(3600)).await, Ok("t1".to_owned()));
        tokio::time::advance(Duration::from_secs(3600 - 31)).await;
        assert_eq!(cache.token(false, || fetch(3600)).await, Ok("t1".to_owned()), "fresh 31 s before expiry");
        tokio::time::advance(Duration::from_secs(2)).await;
        assert_eq!(cache.token(false, || fetch(20)).await, Ok("t2".to_owned()), "renewed 29 s before expiry");
        // A 20 s token is used for 10 s, half its life.
        tokio::time::advance(Duration::from_secs(9)).await;
        assert_eq!(cache.token(false, || fetch(20)).await, Ok("t2".to_owned()));
        tokio::time::advance(Duration::from_secs(2)).await;
        assert_eq!(cache.token(false, || fetch(20)).await, Ok("t3".to_owned()));
        assert_eq!(cache.token(true, || fetch(20)).await, Ok("t4".to_owned()), "a refused token is asked again");
        let failed = cache.token(true, || async { Err::<(String, Option<Duration>), _>("down") }).await;
        assert_eq!(failed, Err("down"));
        assert_eq!(cache.token(false, || fetch(20)).await, Ok("t5".to_owned()), "a failed fetch keeps nothing");
    }
}
