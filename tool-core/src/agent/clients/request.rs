//! What each API is sent: the URL, the authentication headers and the body, from a
//! [`ModelRequest`]. The history is already in the API's shape; only the envelope differs.

use serde_json::{Map, Value, json};

use super::super::model::{Api, ModelRequest};
use super::HttpModel;

impl HttpModel {
    /// The URL of one request.
    pub(super) fn url(&self, stream: bool) -> String {
        let base = self.base_url.trim_end_matches('/');
        match self.api {
            Api::OpenAiChat => format!("{base}/chat/completions"),
            Api::OpenAiResponses => format!("{base}/responses"),
            Api::Anthropic => format!("{base}/v1/messages"),
            Api::Gemini if stream => format!("{base}/models/{}:streamGenerateContent?alt=sse", self.model),
            Api::Gemini => format!("{base}/models/{}:generateContent", self.model),
        }
    }

    /// The authentication headers.
    pub(super) fn headers(&self) -> Vec<(&'static str, String)> {
        let Some(key) = &self.api_key else {
            return match self.api {
                Api::Anthropic => vec![("anthropic-version", "2023-06-01".to_owned())],
                _ => Vec::new(),
            };
        };
        match self.api {
            Api::OpenAiChat | Api::OpenAiResponses => vec![("authorization", format!("Bearer {key}"))],
            Api::Anthropic => vec![("x-api-key", key.clone()), ("anthropic-version", "2023-06-01".to_owned())],
            Api::Gemini => vec![("x-goog-api-key", key.clone())],
        }
    }

    /// The body of one request.
    pub(super) fn body(&self, request: &ModelRequest<'_>, stream: bool) -> Value {
        let mut body = Map::new();
        let history = Value::Array(request.history.to_vec());
        match self.api {
            Api::OpenAiChat => {
                body.insert("model".to_owned(), json!(self.model));
                let mut messages = Vec::with_capacity(request.history.len() + 1);
                if let Some(system) = request.system {
                    messages.push(json!({"role": "system", "content": system}));
                }
                messages.extend(request.history.iter().cloned());
                body.insert("messages".to_owned(), Value::Array(messages));
                if let Some(max_tokens) = self.max_tokens {
                    body.insert("max_completion_tokens".to_owned(), json!(max_tokens));
                }
                put_tools(&mut body, "tools", request);
                if stream {
                    body.insert("stream".to_owned(), json!(true));
                    body.insert("stream_options".to_owned(), json!({"include_usage": true}));
                }
            }
            Api::OpenAiResponses => {
                body.insert("model".to_owned(), json!(self.model));
                if let Some(system) = request.system {
                    body.insert("instructions".to_owned(), json!(system));
                }
                body.insert("input".to_owned(), history);
                if let Some(max_tokens) = self.max_tokens {
                    body.insert("max_output_tokens".to_owned(), json!(max_tokens));
                }
                put_tools(&mut body, "tools", request);
                if stream {
                    body.insert("stream".to_owned(), json!(true));
                }
            }
            Api::Anthropic => {
                body.insert("model".to_owned(), json!(self.model));
                body.insert("max_tokens".to_owned(), json!(self.max_tokens.unwrap_or(4096)));
                if let Some(system) = request.system {
                    body.insert("system".to_owned(), json!(system));
                }
                body.insert("messages".to_owned(), history);
                put_tools(&mut body, "tools", request);
                if stream {
                    body.insert("stream".to_owned(), json!(true));
                }
            }
            Api::Gemini => {
                body.insert("contents".to_owned(), history);
                if let Some(system) = request.system {
                    body.insert("systemInstruction".to_owned(), json!({"parts": [{"text": system}]}));
                }
                if let Some(tools) = request.tools {
                    body.insert("tools".to_owned(), tools.clone());
                }
                if let Some(choice) = request.tool_choice {
                    body.insert("toolConfig".to_owned(), choice.clone());
                }
                if let Some(max_tokens) = self.max_tokens {
                    body.insert("generationConfig".to_owned(), json!({"maxOutputTokens": max_tokens}));
                }
            }
        }
        if let Some(Value::Object(output)) = request.output {
            merge(&mut body, output);
        }
        Value::Object(body)
    }
}

/// Puts `fields` into `body`, merging an object both have (Gemini's `generationConfig`, which
/// may already hold `maxOutputTokens`).
fn merge(body: &mut Map<String, Value>, fields: &Map<String, Value>) {
    for (key, value) in fields {
        match (body.get_mut(key), value) {
            (Some(Value::Object(existing)), Value::Object(more)) => {
                existing.extend(more.iter().map(|(k, v)| (k.clone(), v.clone())));
            }
            _ => {
                body.insert(key.clone(), value.clone());
            }
        }
    }
}

fn put_tools(body: &mut Map<String, Value>, key: &str, request: &ModelRequest<'_>) {
    if let Some(tools) = request.tools {
        body.insert(key.to_owned(), tools.clone());
        if let Some(choice) = request.tool_choice {
            body.insert("tool_choice".to_owned(), choice.clone());
        }
    }
}
