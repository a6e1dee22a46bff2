//! [`Sampling`]: how a model writes its turn (temperature, nucleus, seed, output limit, stop
//! sequences, and members only one server knows), and where each API puts each setting.

use serde_json::{Map, Value, json};

/// How a model samples its turns: [`Sampling::new`], then the setters. A setting the API has
/// no member for is left out of its request (a seed for Anthropic and the Responses API, stop
/// sequences for the Responses API); [`Sampling::extra`] reaches any member by name.
///
/// ```
/// use tool_core::provider::Sampling;
/// let sampling = Sampling::new().temperature(0.0).seed(42).max_tokens(512);
/// assert_eq!(sampling.max_tokens, Some(512));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct Sampling {
    /// Randomness, usually 0 to 2; 0 picks the likeliest token.
    pub temperature: Option<f64>,
    /// Nucleus sampling: only the tokens within this share of the probability mass.
    pub top_p: Option<f64>,
    /// A seed, for servers that can repeat a sample.
    pub seed: Option<u64>,
    /// The most tokens the model may write in one turn (over the client's own limit).
    pub max_tokens: Option<u32>,
    /// Text that ends the turn where the model writes it.
    pub stop: Vec<String>,
    /// Whether the model may call several tools in one turn, sent only with tools: Chat
    /// Completions' and the Responses API's `parallel_tool_calls` (which `llama.cpp`'s server
    /// needs for more than one call a turn, and which vLLM and Ollama's OpenAI-compatible
    /// endpoints read), Anthropic's `disable_parallel_tool_use` in the tool choice when
    /// `false`; Gemini has no such member. `None` (the default) sends nothing.
    pub parallel_tool_calls: Option<bool>,
    /// Members put into the request body as they are (`"cache_prompt": false` for
    /// `llama.cpp`, `"service_tier"` for `OpenAI`); an object merges into an object the body
    /// already has.
    pub extra: Map<String, Value>,
}

impl Sampling {
    /// No setting: the provider's defaults.
    #[must_use]
    pub fn new() -> Self {
        Sampling::default()
    }

    /// Sets [`Sampling::temperature`].
    #[must_use]
    pub fn temperature(mut self, temperature: f64) -> Self {
        self.temperature = Some(temperature);
        self
    }

    /// Sets [`Sampling::top_p`].
    #[must_use]
    pub fn top_p(mut self, top_p: f64) -> Self {
        self.top_p = Some(top_p);
        self
    }

    /// Sets [`Sampling::seed`].
    #[must_use]
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = Some(seed);
        self
    }

    /// Sets [`Sampling::max_tokens`].
    #[must_use]
    pub fn max_tokens(mut self, tokens: u32) -> Self {
        self.max_tokens = Some(tokens);
        self
    }

    /// Sets [`Sampling::stop`].
    #[must_use]
    pub fn stop<S: Into<String>>(mut self, sequences: impl IntoIterator<Item = S>) -> Self {
        self.stop = sequences.into_iter().map(Into::into).collect();
        self
    }

    /// Sets [`Sampling::parallel_tool_calls`].
    #[must_use]
    pub fn parallel_tool_calls(mut self, parallel: bool) -> Self {
        self.parallel_tool_calls = Some(parallel);
        self
    }

    /// Adds a member of [`Sampling::extra`].
    #[must_use]
    pub fn extra(mut self, member: impl Into<String>, value: impl Into<Value>) -> Self {
        self.extra.insert(member.into(), value.into());
        self
    }
}

/// The names one API gives the settings; `None` where it has no such member.
pub(crate) struct SamplingMembers {
    pub(crate) temperature: &'static str,
    pub(crate) top_p: &'static str,
    pub(crate) seed: Option<&'static str>,
    pub(crate) max_tokens: &'static str,
    pub(crate) stop: Option<&'static str>,
}

impl SamplingMembers {
    /// Writes `sampling` into `target` under these names, the output limit being
    /// `sampling`'s, else `max_tokens`; [`Sampling::extra`] is the caller's to merge.
    pub(crate) fn put(&self, target: &mut Map<String, Value>, sampling: Option<&Sampling>, max_tokens: Option<u32>) {
        let default = Sampling::default();
        let sampling = sampling.unwrap_or(&default);
        if let Some(tokens) = sampling.max_tokens.or(max_tokens) {
            target.insert(self.max_tokens.to_owned(), json!(tokens));
        }
        if let Some(temperature) = sampling.temperature {
            target.insert(self.temperature.to_owned(), json!(temperature));
        }
        if let Some(top_p) = sampling.top_p {
            target.insert(self.top_p.to_owned(), json!(top_p));
        }
        if let (Some(member), Some(seed)) = (self.seed, sampling.seed) {
            target.insert(member.to_owned(), json!(seed));
        }
        if let Some(member) = self.stop
            && !sampling.stop.is_empty()
        {
            target.insert(member.to_owned(), json!(sampling.stop));
        }
    }
}
