//! [`PushSettings`]: how a server takes and delivers push notifications.

use core::time::Duration;

/// How a server delivers push notifications ([`A2aServer::with_push`](super::A2aServer::with_push)).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct PushSettings {
    /// Whether the agent takes push notification configs (and says so on its card).
    pub enabled: bool,
    /// Whether a webhook may be on a loopback, private or link-local address (an intranet, a
    /// test); refused by default, against server-side request forgery.
    pub allow_private_addresses: bool,
    /// Tries of one notification before it is given up (at least 1).
    pub attempts: u32,
    /// The wait after the first failed try; it doubles after each.
    pub backoff: Duration,
    /// How long one try may take, connection included.
    pub timeout: Duration,
}

impl Default for PushSettings {
    fn default() -> Self {
        PushSettings {
            enabled: true,
            allow_private_addresses: false,
            attempts: 3,
            backoff: Duration::from_millis(500),
            timeout: Duration::from_secs(10),
        }
    }
}

impl PushSettings {
    /// Push notifications on: 3 tries, 500 ms then 1 s apart, 10 s each; public addresses only.
    #[must_use]
    pub fn new() -> Self {
        PushSettings::default()
    }

    /// No push notifications: their methods answer `-32003`, and the card says so.
    #[must_use]
    pub fn disabled() -> Self {
        PushSettings { enabled: false, ..PushSettings::default() }
    }

    /// Allows webhooks on loopback, private and link-local addresses.
    #[must_use]
    pub fn allow_private_addresses(mut self) -> Self {
        self.allow_private_addresses = true;
        self
    }

    /// `attempts` tries of each notification, the first retry after `backoff`.
    #[must_use]
    pub fn retries(mut self, attempts: u32, backoff: Duration) -> Self {
        self.attempts = attempts.max(1);
        self.backoff = backoff;
        self
    }

    /// How long one try may take.
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }
}
