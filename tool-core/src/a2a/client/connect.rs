//! Reaching a remote agent through its card: [`RemoteAgent::connect`] and
//! [`RemoteAgent::refresh`], each bounded in time, and the HTTP client every request of the
//! agent then goes through.

use core::time::Duration;

use super::{AgentCard, RemoteAgent, origin};
use crate::a2a::A2aError;
use crate::a2a::fetch::{Fetched, Source, fetch};

/// How long opening a connection to an agent may take, for every request.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The HTTP client of a remote agent: every connection it opens is bounded.
pub(super) fn client() -> reqwest::Client {
    reqwest::Client::builder().connect_timeout(CONNECT_TIMEOUT).build().unwrap_or_else(|_| reqwest::Client::new())
}

impl RemoteAgent {
    /// How long fetching an agent card may take, unless set ([`RemoteAgent::connect_within`],
    /// [`RemoteAgent::card_timeout`]).
    pub const CARD_TIMEOUT: Duration = Duration::from_secs(10);

    /// Fetches the card at `url` (the agent's base URL, to which
    /// `/.well-known/agent-card.json` is added, or the card's own URL) and picks the first
    /// interface this client speaks, which must be on the card's own origin: credentials go
    /// nowhere else.
    ///
    /// The card must come within [`RemoteAgent::CARD_TIMEOUT`] ([`RemoteAgent::connect_within`] sets
    /// another bound); every connection to the agent must open within 10 s.
    ///
    /// # Errors
    /// [`A2aError`]: the card could not be fetched in time, is not JSON or not a card, offers
    /// no supported interface, or names one on another origin.
    pub async fn connect(url: &str) -> Result<Self, A2aError> {
        Self::connect_within(url, Self::CARD_TIMEOUT).await
    }

    /// [`RemoteAgent::connect`], the card to come within `card_timeout` (which
    /// [`RemoteAgent::refresh`] keeps).
    ///
    /// # Errors
    /// As [`RemoteAgent::connect`].
    pub async fn connect_within(url: &str, card_timeout: Duration) -> Result<Self, A2aError> {
        let card_url = if url.to_ascii_lowercase().ends_with(".json") {
            url.to_owned()
        } else {
            format!("{}/.well-known/agent-card.json", url.trim_end_matches('/'))
        };
        let http = client();
        match fetch(&http, &card_url, None, card_timeout).await? {
            Fetched::Card(card, source) => {
                let mut agent = Self::trusted(card, source, http)?;
                agent.inner_mut().card_timeout = card_timeout;
                Ok(agent)
            }
            // Nothing was held, so nothing can be unchanged: a server that says so is wrong.
            Fetched::Unchanged(_) => Err(A2aError::Malformed { message: format!("{card_url} answered 304 unasked") }),
        }
    }

    /// The agent with its card as it is now: the one held while HTTP caching says it is
    /// fresh, else asked for again with its validators (a `304` keeps it); a card that
    /// changed brings its new skills and interface, the credentials, key and timeout kept.
    /// A card the program gave ([`RemoteAgent::from_card`]) is kept as it is.
    ///
    /// # Errors
    /// As [`RemoteAgent::connect`].
    pub async fn refresh(&self) -> Result<Self, A2aError> {
        let Some(held) = self.inner.source.as_ref().filter(|held| !held.is_fresh()) else { return Ok(self.clone()) };
        let mut agent = match fetch(&self.inner.http, &held.url, Some(held), self.inner.card_timeout).await? {
            Fetched::Unchanged(source) => {
                let mut agent = self.clone();
                agent.inner_mut().source = Some(source);
                return Ok(agent);
            }
            Fetched::Card(card, source) => Self::trusted(card, source, self.inner.http.clone())?,
        };
        let inner = agent.inner_mut();
        inner.headers.clone_from(&self.inner.headers);
        inner.timeout = self.inner.timeout;
        inner.card_timeout = self.inner.card_timeout;
        inner.key.clone_from(&self.inner.key);
        inner.credentials.clone_from(&self.inner.credentials);
        Ok(agent)
    }

    /// An agent of a fetched card, whose interface must be on the card's own origin.
    fn trusted(card: AgentCard, source: Source, http: reqwest::Client) -> Result<Self, A2aError> {
        let interface = card.interface()?.clone();
        if origin(&interface.url)? != origin(&source.url)? {
            return Err(A2aError::UntrustedInterface { card: source.url, interface: interface.url });
        }
        let mut agent = Self::with(card, interface, http);
        agent.inner_mut().source = Some(source);
        Ok(agent)
    }
}
