//! Model clients over HTTP (feature `clients`, on `reqwest`): `OpenAI` Chat Completions (and
//! every compatible server), `OpenAI` Responses, Anthropic Messages and Gemini
//! `generateContent`, each streamed (server-sent events) or whole.
//!
//! Failures are typed ([`ModelError`]): an HTTP error with its status and body, a rate limit
//! with the `retry-after` the provider asked for, a response that is not the documented
//! shape, a stream cut off before its last event. Only what may pass is retried, a bounded
//! number of times, waiting what the provider asks (or backing off): rate limits (429),
//! timeouts, gateways and overloads (408, 502, 503, 504, 529) and failed connections; never a
//! refusal of the request itself (4xx, 500). Once text has streamed, nothing is retried, so
//! nothing is said twice.

use core::time::Duration;

use eventsource_stream::Eventsource as _;
use futures_util::StreamExt as _;
use serde_json::Value;

use super::model::{Api, DeltaSink, Model, ModelError, ModelFuture, ModelRequest, ModelTurn};
use crate::provider::{Envelope, merge_fields};

/// A model reached over HTTP.
#[derive(Debug, Clone)]
pub struct HttpModel {
    api: Api,
    base_url: String,
    api_key: Option<String>,
    model: String,
    max_tokens: Option<u32>,
    stream: bool,
    max_retries: u32,
    max_wait: Duration,
    client: reqwest::Client,
}

impl HttpModel {
    /// A client of `api` at `base_url` (`https://api.openai.com/v1`, `http://localhost:11434/v1`
    /// for Ollama, `https://api.anthropic.com`, `https://generativelanguage.googleapis.com/v1beta`)
    /// for `model`; streams by default and retries twice.
    #[must_use]
    pub fn new(api: Api, base_url: impl Into<String>, model: impl Into<String>) -> Self {
        HttpModel {
            api,
            base_url: base_url.into(),
            api_key: None,
            model: model.into(),
            max_tokens: None,
            stream: true,
            max_retries: 2,
            max_wait: Duration::from_secs(30),
            client: reqwest::Client::new(),
        }
    }

    /// A client configured from the environment, with the provider's defaults for what is
    /// not set: `OPENAI_BASE_URL`, `OPENAI_API_KEY`, `OPENAI_MODEL` for both `OpenAI` APIs;
    /// `ANTHROPIC_BASE_URL`, `ANTHROPIC_API_KEY`, `ANTHROPIC_MODEL`; `GEMINI_BASE_URL`,
    /// `GEMINI_API_KEY`, `GEMINI_MODEL`.
    #[must_use]
    pub fn from_env(api: Api) -> Self {
        let var = |name: &str| std::env::var(name).ok().filter(|value| !value.is_empty());
        let (prefix, base, model) = api.wire().defaults();
        let mut client = HttpModel::new(
            api,
            var(&format!("{prefix}_BASE_URL")).unwrap_or_else(|| base.to_owned()),
            var(&format!("{prefix}_MODEL")).unwrap_or_else(|| model.to_owned()),
        );
        client.api_key = var(&format!("{prefix}_API_KEY"));
        client
    }

    /// The API key (sent as each provider expects: a bearer token, `x-api-key`, `x-goog-api-key`).
    #[must_use]
    pub fn api_key(mut self, key: impl Into<String>) -> Self {
        self.api_key = Some(key.into());
        self
    }

    /// The most tokens per turn (Anthropic requires one: 4096 unless set).
    #[must_use]
    pub fn max_tokens(mut self, tokens: u32) -> Self {
        self.max_tokens = Some(tokens);
        self
    }

    /// Whether to stream (text reaches the agent's events as it is written).
    #[must_use]
    pub fn stream(mut self, stream: bool) -> Self {
        self.stream = stream;
        self
    }

    /// How many times a rate limit, a timeout, an overloaded server or a failed connection is
    /// retried, and the longest wait between tries.
    #[must_use]
    pub fn retries(mut self, retries: u32, max_wait: Duration) -> Self {
        self.max_retries = retries;
        self.max_wait = max_wait;
        self
    }

    /// The model's name.
    #[must_use]
    pub fn model(&self) -> &str {
        &self.model
    }

    /// The body of one request: the API's envelope around the history, with the answer's
    /// form merged in.
    fn body(&self, request: &ModelRequest<'_>) -> Value {
        let envelope = Envelope { model: &self.model, max_tokens: self.max_tokens, stream: self.stream };
        let mut body = self.api.wire().body(request, envelope);
        if let Some(Value::Object(output)) = request.output {
            merge_fields(&mut body, output);
        }
        if let Some(sampling) = request.sampling {
            merge_fields(&mut body, &sampling.extra);
        }
        Value::Object(body)
    }

    /// One attempt: `Err((error, retryable))`.
    async fn attempt(
        &self,
        request: &ModelRequest<'_>,
        on_delta: DeltaSink<'_>,
        wrote: &mut bool,
    ) -> Result<ModelTurn, (ModelError, Option<Duration>)> {
        let wire = self.api.wire();
        let mut builder = self
            .client
            .post(wire.url(self.base_url.trim_end_matches('/'), &self.model, self.stream))
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(self.body(request).to_string());
        for (name, value) in wire.headers(self.api_key.as_deref()) {
            builder = builder.header(name, value);
        }
        let response = builder.send().await.map_err(|e| (http(None, &e), Some(Duration::ZERO)))?;
        let status = response.status();
        if !status.is_success() {
            let retry_after = response
                .headers()
                .get(reqwest::header::RETRY_AFTER)
                .and_then(|value| value.to_str().ok())
                .and_then(|value| value.trim().parse::<f64>().ok());
            let body = response.text().await.unwrap_or_default();
            return Err(if status.as_u16() == 429 {
                (ModelError::RateLimited { retry_after, message: body }, Some(seconds(retry_after.unwrap_or(1.0))))
            } else {
                let retry = transient(status.as_u16()).then_some(Duration::ZERO);
                (ModelError::Http { status: Some(status.as_u16()), message: body }, retry)
            });
        }
        if !self.stream {
            let text = response.text().await.map_err(|e| (http(None, &e), None))?;
            let value: Value = serde_json::from_str(&text)
                .map_err(|e| (malformed(format!("the response is not JSON ({e})")), None))?;
            return wire.turn(&value).map_err(|error| (ModelError::Malformed(error), None));
        }
        let mut reader = wire.stream();
        let mut events = response.bytes_stream().eventsource();
        while let Some(event) = events.next().await {
            let event = event.map_err(|e| (ModelError::Http { status: None, message: e.to_string() }, None))?;
            reader
                .push(&event.data, &mut |delta| {
                    *wrote = true;
                    on_delta(delta);
                })
                .map_err(|error| (ModelError::Malformed(error), None))?;
        }
        reader.finish().map_err(|error| (ModelError::Malformed(error), None))
    }
}

/// Whether a status says the server could not answer now but may soon: a timeout, a gateway
/// or an overload. Not a 500: servers answer it for a request they cannot handle (`llama.cpp`
/// when it cannot render the prompt), and the same request would get the same answer.
fn transient(status: u16) -> bool {
    matches!(status, 408 | 502 | 503 | 504 | 529)
}

fn http(status: Option<u16>, error: &reqwest::Error) -> ModelError {
    ModelError::Http { status, message: error.to_string() }
}

fn malformed(message: String) -> ModelError {
    ModelError::Malformed(crate::provider::ResponseError { message })
}

fn seconds(value: f64) -> Duration {
    Duration::try_from_secs_f64(value.max(0.0)).unwrap_or(Duration::MAX)
}

impl Model for HttpModel {
    fn api(&self) -> Api {
        self.api
    }

    fn respond<'a>(&'a self, request: ModelRequest<'a>, on_delta: DeltaSink<'a>) -> ModelFuture<'a> {
        Box::pin(async move {
            let mut tries = 0;
            loop {
                let mut wrote = false;
                match self.attempt(&request, on_delta, &mut wrote).await {
                    Ok(turn) => return Ok(turn),
                    Err((error, Some(wait))) if tries < self.max_retries && !wrote => {
                        tries += 1;
                        // No wait asked: back off, 250 ms then 500 ms then 1 s...
                        let backoff = Duration::from_millis(250 << (tries - 1).min(6));
                        tokio::time::sleep(if wait.is_zero() { backoff } else { wait }.min(self.max_wait)).await;
                        let _ = error;
                    }
                    Err((error, _)) => return Err(error),
                }
            }
        })
    }
}
