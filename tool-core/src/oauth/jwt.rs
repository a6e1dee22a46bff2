//! [`JwtVerifier`]: JWT access tokens (RFC 9068) checked against the issuer's published key
//! set (JWKS). The set is fetched on first use and cached; a token naming a key id the
//! cache lacks (the issuer rotated its keys) fetches it again, at most once per
//! [`JwtVerifier::refetch_interval`], so a flood of made-up key ids cannot turn into a
//! flood of requests to the issuer.

use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::jwk::{Jwk, KeyAlgorithm};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::{Map, Value};

use crate::auth::Claims;
use crate::oauth::verify::{TokenError, TokenVerifier, VerifyFuture, fetch};

/// The largest key set read, in bytes; real ones are a few kilobytes.
const MAX_JWKS_BYTES: usize = 1 << 20;

/// Verifies JWT access tokens: the signature with the issuer's key named by `kid`, the
/// algorithm against an allow-list (asymmetric ones only by default), `iss`, `aud` equal to
/// this server's canonical URI, and `exp`/`nbf` with a small leeway (60 s by default).
///
/// ```
/// # #[cfg(feature = "oauth")] {
/// use tool_core::oauth::JwtVerifier;
/// let verifier = JwtVerifier::new(
///     "https://auth.example.com",
///     "https://mcp.example.com/mcp",
///     "https://auth.example.com/.well-known/jwks.json",
/// );
/// # }
/// ```
#[derive(Clone)]
pub struct JwtVerifier {
    issuer: String,
    audience: String,
    jwks_uri: String,
    leeway: Duration,
    algorithms: Vec<Algorithm>,
    refetch_interval: Duration,
    client: reqwest::Client,
    // Shared by clones: one key set per verifier, however many servers hold it.
    cache: Arc<Cache>,
}

#[derive(Default)]
struct Cache {
    keys: RwLock<Arc<[Jwk]>>,
    // Held while fetching, so concurrent misses fetch once.
    fetching: tokio::sync::Mutex<Fetches>,
}

/// When the set was fetched: the first load is free; refetches for unknown key ids are
/// spaced by the interval.
#[derive(Default)]
struct Fetches {
    loaded: bool,
    last_refetch: Option<Instant>,
}

impl core::fmt::Debug for JwtVerifier {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("JwtVerifier")
            .field("issuer", &self.issuer)
            .field("audience", &self.audience)
            .field("jwks_uri", &self.jwks_uri)
            .field("algorithms", &self.algorithms)
            .finish_non_exhaustive()
    }
}

impl JwtVerifier {
    /// Accepts tokens `issuer` signed for `audience` (this server's canonical URI, as its
    /// [`ResourceServer`](crate::oauth::ResourceServer) names it), with a key of the set at
    /// `jwks_uri`.
    #[must_use]
    pub fn new(issuer: impl Into<String>, audience: impl Into<String>, jwks_uri: impl Into<String>) -> Self {
        // jsonwebtoken picks its crypto from its features and refuses to choose when a build
        // turns on both; ours is aws-lc-rs, which rustls already brings. An application
        // that installed another provider keeps it.
        let _ = jsonwebtoken::crypto::aws_lc::DEFAULT_PROVIDER.install_default();
        JwtVerifier {
            issuer: issuer.into(),
            audience: audience.into(),
            jwks_uri: jwks_uri.into(),
            leeway: Duration::from_mins(1),
            algorithms: vec![
                Algorithm::RS256,
                Algorithm::RS384,
                Algorithm::RS512,
                Algorithm::PS256,
                Algorithm::PS384,
                Algorithm::PS512,
                Algorithm::ES256,
                Algorithm::ES384,
                Algorithm::EdDSA,
            ],
            refetch_interval: Duration::from_secs(30),
            client: reqwest::Client::new(),
            cache: Arc::default(),
        }
    }

    /// How far `exp` and `nbf` may be off, for clocks that disagree (60 s by default).
    #[must_use]
    pub fn leeway(mut self, leeway: Duration) -> Self {
        self.leeway = leeway;
        self
    }

    /// The signing algorithms accepted (`RS*`, `PS*`, `ES256`, `ES384` and `EdDSA` by default). HMAC ones
    /// need a shared secret no JWKS publishes, and `none` is never accepted.
    #[must_use]
    pub fn algorithms(mut self, algorithms: impl IntoIterator<Item = Algorithm>) -> Self {
        self.algorithms = algorithms.into_iter().collect();
        self
    }

    /// The shortest time between two fetches of the key set caused by unknown key ids (30 s
    /// by default); the first fetch is immediate.
    #[must_use]
    pub fn refetch_interval(mut self, interval: Duration) -> Self {
        self.refetch_interval = interval;
        self
    }

    /// Fetches the key set with `client` (its proxy, timeouts, root certificates).
    #[must_use]
    pub fn with_client(mut self, client: reqwest::Client) -> Self {
        self.client = client;
        self
    }

    async fn check(&self, token: &str) -> Result<Claims, TokenError> {
        let header = jsonwebtoken::decode_header(token).map_err(|error| TokenError::Malformed(error.to_string()))?;
        if !self.algorithms.contains(&header.alg) {
            return Err(TokenError::Algorithm(format!("{:?}", header.alg)));
        }
        let key = match find(&self.cached(), header.kid.as_deref(), header.alg) {
            Some(key) => key,
            None => self.refetch_for(header.kid.as_deref(), header.alg).await?,
        };
        let mut validation = Validation::new(header.alg);
        validation.leeway = self.leeway.as_secs();
        validation.validate_nbf = true;
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[&self.audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud"]);
        let data = jsonwebtoken::decode::<Map<String, Value>>(token, &key, &validation).map_err(refusal)?;
        Ok(Claims::from_json(data.claims))
    }
}

impl JwtVerifier {
    fn cached(&self) -> Arc<[Jwk]> {
        Arc::clone(&self.cache.keys.read().unwrap_or_else(std::sync::PoisonError::into_inner))
    }

    /// Fetches the key set again for a key the cache lacks, unless it was fetched within the
    /// refetch interval; concurrent callers wait for one fetch.
    async fn refetch_for(&self, kid: Option<&str>, alg: Algorithm) -> Result<DecodingKey, TokenError> {
        let mut fetches = self.cache.fetching.lock().await;
        // Another caller may have fetched while this one waited.
        if let Some(key) = find(&self.cached(), kid, alg) {
            return Ok(key);
        }
        if fetches.loaded {
            if fetches.last_refetch.is_some_and(|at| at.elapsed() < self.refetch_interval) {
                return Err(TokenError::UnknownKey(kid.map(str::to_owned)));
            }
            fetches.last_refetch = Some(Instant::now());
        }
        let keys = self.fetch().await?;
        fetches.loaded = true;
        *self.cache.keys.write().unwrap_or_else(std::sync::PoisonError::into_inner) = Arc::clone(&keys);
        find(&keys, kid, alg).ok_or_else(|| TokenError::UnknownKey(kid.map(str::to_owned)))
    }

    async fn fetch(&self) -> Result<Arc<[Jwk]>, TokenError> {
        let what = format!("key set {}", self.jwks_uri);
        let body = fetch(self.client.get(&self.jwks_uri), MAX_JWKS_BYTES, &what).await?;
        let set: KeySet = serde_json::from_slice(&body)
            .map_err(|error| TokenError::Unavailable(format!("{what}: not a JWK set: {error}")))?;
        // A key of a type this build cannot read (a new `kty`) is skipped, not fatal: the
        // issuer's other keys still verify.
        Ok(set.keys.into_iter().filter_map(|key| serde_json::from_value::<Jwk>(key).ok()).collect())
    }
}

/// A JWK set, each key read on its own.
#[derive(serde::Deserialize)]
struct KeySet {
    keys: Vec<Value>,
}

/// The key for a token: the one its `kid` names, or the only key when it names none.
fn find(keys: &[Jwk], kid: Option<&str>, alg: Algorithm) -> Option<DecodingKey> {
    // A key that states its algorithm serves that one only (no RSA key used for another).
    let usable = |key: &&Jwk| key.common.key_algorithm.is_none_or(|stated| stated == KeyAlgorithm::from(alg));
    let key = if let Some(kid) = kid {
        keys.iter().filter(usable).find(|key| key.common.key_id.as_deref() == Some(kid))?
    } else {
        let mut candidates = keys.iter().filter(usable);
        let only = candidates.next()?;
        if candidates.next().is_some() {
            return None;
        }
        only
    };
    DecodingKey::from_jwk(key).ok()
}

fn refusal(error: jsonwebtoken::errors::Error) -> TokenError {
    match error.kind() {
        ErrorKind::ExpiredSignature => TokenError::Expired,
        ErrorKind::ImmatureSignature => TokenError::NotYetValid,
        ErrorKind::InvalidIssuer => TokenError::WrongIssuer,
        ErrorKind::InvalidAudience => TokenError::WrongAudience,
        ErrorKind::MissingRequiredClaim(claim) => TokenError::MissingClaim(claim.clone()),
        ErrorKind::InvalidSignature | ErrorKind::InvalidAlgorithm => TokenError::BadSignature,
        _ => TokenError::Malformed(error.to_string()),
    }
}

impl TokenVerifier for JwtVerifier {
    fn verify<'a>(&'a self, token: &'a str) -> VerifyFuture<'a> {
        Box::pin(self.check(token))
    }
}
