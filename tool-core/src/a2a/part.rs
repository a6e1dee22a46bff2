//! [`Part`]: one piece of a message or an artifact, read from either protocol version's shape
//! and written in 1.0's.

use serde_json::{Map, Value, json};

/// A part of a message or an artifact.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Part {
    /// Text.
    Text(String),
    /// Structured data: any JSON value.
    Data(Value),
    /// A file, by reference (bytes sent inline are not kept).
    File {
        /// Its file name.
        name: Option<String>,
        /// Its media type (`image/png`).
        media_type: Option<String>,
        /// Where it is.
        url: Option<String>,
    },
}

impl Part {
    /// A text part.
    pub fn text(text: impl Into<String>) -> Self {
        Part::Text(text.into())
    }

    /// A data part.
    pub fn data(data: impl Into<Value>) -> Self {
        Part::Data(data.into())
    }

    /// A file at `url`.
    pub fn file(url: impl Into<String>, name: Option<String>, media_type: Option<String>) -> Self {
        Part::File { name, media_type, url: Some(url.into()) }
    }

    /// The part in 1.0's shape: `{"text": ..}`, `{"data": ..}`, `{"url": .., "filename": ..}`.
    #[must_use]
    pub fn to_json(&self) -> Value {
        match self {
            Part::Text(text) => json!({"text": text, "mediaType": "text/plain"}),
            Part::Data(data) => json!({"data": data, "mediaType": "application/json"}),
            Part::File { name, media_type, url } => {
                let mut part = Map::new();
                let members = [("url", url), ("filename", name), ("mediaType", media_type)];
                for (key, value) in members {
                    if let Some(value) = value {
                        part.insert(key.to_owned(), json!(value));
                    }
                }
                Value::Object(part)
            }
        }
    }
}

/// The parts of a `parts` array, in either version's shape; parts of no known kind are left
/// out.
pub(crate) fn parts(parts: &Value) -> Vec<Part> {
    let string = |value: &Value| value.as_str().map(str::to_owned);
    parts
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|part| {
            if let Some(text) = part["text"].as_str() {
                return Some(Part::Text(text.to_owned()));
            }
            if let Some(data) = part.get("data") {
                return Some(Part::Data(data.clone()));
            }
            // 1.0: `url` or `raw` beside `filename` and `mediaType`; 0.3: a `file` object.
            let file = part.get("file").unwrap_or(part);
            let url = string(&file["url"]).or_else(|| string(&file["uri"]));
            (url.is_some() || file.get("raw").is_some() || file.get("bytes").is_some()).then(|| Part::File {
                name: string(&file["filename"]).or_else(|| string(&file["name"])),
                media_type: string(&file["mediaType"]).or_else(|| string(&file["mimeType"])),
                url,
            })
        })
        .collect()
}

/// The text parts of `parts`, joined by newlines.
pub(crate) fn text(parts: &[Part]) -> String {
    let texts: Vec<&str> = parts
        .iter()
        .filter_map(|part| match part {
            Part::Text(text) => Some(text.as_str()),
            _ => None,
        })
        .collect();
    texts.join("\n")
}
