//! Fetching a card, as HTTP caching says (RFC 9111): kept while `Cache-Control: max-age`
//! says it is fresh (never with `no-store` or `no-cache`), then asked for again with its
//! validators (`If-None-Match`, `If-Modified-Since`), a `304 Not Modified` keeping it.

use core::time::Duration;
use std::time::Instant;

use serde_json::Value;

use super::A2aError;
use super::card::AgentCard;
use super::http::{http_error, preview, read};

/// Where a card came from, and what HTTP caching says of it.
#[derive(Debug, Clone)]
pub(crate) struct Source {
    /// The card's URL.
    pub(crate) url: String,
    etag: Option<String>,
    last_modified: Option<String>,
    /// Until when it may be used without asking.
    fresh_until: Instant,
}

/// What a fetch brought.
pub(crate) enum Fetched {
    /// A card (new, or changed).
    Card(AgentCard, Source),
    /// The card held is still the card; its freshness renewed.
    Unchanged(Source),
}

impl Source {
    /// Whether the card may still be used without asking.
    pub(crate) fn is_fresh(&self) -> bool {
        Instant::now() < self.fresh_until
    }
}

/// The card at `url`, whole within `timeout`; asked conditionally when `held` is what a fetch
/// of it gave before.
pub(crate) async fn fetch(
    http: &reqwest::Client,
    url: &str,
    held: Option<&Source>,
    timeout: Duration,
) -> Result<Fetched, A2aError> {
    // The request's own timeout covers the body too: a server that sends headers and then
    // nothing is bounded as well.
    let mut request = http.get(url).timeout(timeout);
    if let Some(held) = held {
        if let Some(etag) = &held.etag {
            request = request.header("if-none-match", etag);
        }
        if let Some(modified) = &held.last_modified {
            request = request.header("if-modified-since", modified);
        }
    }
    let response = request.send().await.map_err(|error| http_error(url, &error))?;
    let status = response.status();
    let header = |name: &str| response.headers().get(name).and_then(|value| value.to_str().ok()).map(str::to_owned);
    let (etag, last_modified) = (header("etag"), header("last-modified"));
    let fresh_until = Instant::now() + header("cache-control").as_deref().map_or(Duration::ZERO, max_age);
    if status == reqwest::StatusCode::NOT_MODIFIED
        && let Some(held) = held
    {
        let source = Source {
            url: url.to_owned(),
            etag: etag.or_else(|| held.etag.clone()),
            last_modified: last_modified.or_else(|| held.last_modified.clone()),
            fresh_until,
        };
        return Ok(Fetched::Unchanged(source));
    }
    let body = read(response, url).await?;
    if !status.is_success() {
        return Err(A2aError::Http { url: url.to_owned(), message: format!("{status}: {}", preview(&body)) });
    }
    let card: Value = serde_json::from_slice(&body).map_err(|error| A2aError::Malformed {
        message: format!("the agent card at {url} is not JSON ({error}): {}", preview(&body)),
    })?;
    let source = Source { url: url.to_owned(), etag, last_modified, fresh_until };
    Ok(Fetched::Card(AgentCard::from_value(card)?, source))
}

/// How long a `Cache-Control` value lets a response be used without asking.
fn max_age(cache_control: &str) -> Duration {
    let mut age = Duration::ZERO;
    for directive in cache_control.split(',').map(str::trim) {
        let directive = directive.to_ascii_lowercase();
        if directive == "no-store" || directive == "no-cache" {
            return Duration::ZERO;
        }
        if let Some(seconds) = directive.strip_prefix("max-age=").and_then(|s| s.trim_matches('"').parse().ok()) {
            age = Duration::from_secs(seconds);
        }
    }
    age
}
