//! [`Annotated`]: a content block with what MCP lets a server say about it beside the block
//! itself: who it is for, how much it matters, when it last changed (`annotations`), and
//! free metadata (`_meta`). MCP carries both; every other dialect renders the block alone.

use serde_json::{Map, Value};

use super::Content;

/// A block with its annotations and metadata. Made with [`Content::with_audience`],
/// [`Content::with_priority`], [`Content::with_last_modified`] and [`Content::with_meta`].
///
/// ```
/// use tool_core::Content;
/// use tool_core::content::Audience;
/// let block = Content::text("for the user's eyes").with_audience([Audience::User]).with_priority(0.9);
/// assert_eq!(block.as_text(), Some("for the user's eyes"));
/// ```
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct Annotated {
    /// The block.
    pub content: Content,
    /// Who it is for; empty when the server does not say.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub audience: Vec<Audience>,
    /// How much it matters, from 0 (least) to 1 (most).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<f64>,
    /// When it last changed, an ISO 8601 timestamp (`2026-11-29T10:00:00Z`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
    /// Free metadata for the client (`_meta`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

// A priority is never NaN: the builder checks its range, and JSON has no NaN.
impl Eq for Annotated {}

/// Who a block is for (MCP's `Role` in `annotations.audience`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Audience {
    /// The person using the client.
    User,
    /// The model.
    Assistant,
}

impl Audience {
    /// Its name on the wire.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Audience::User => "user",
            Audience::Assistant => "assistant",
        }
    }
}

impl Content {
    /// The block itself, without annotations or metadata.
    #[must_use]
    pub fn plain(&self) -> &Content {
        match self {
            Content::Annotated(annotated) => annotated.content.plain(),
            other => other,
        }
    }

    /// Its annotations and metadata, when it has any.
    #[must_use]
    pub fn annotated(&self) -> Option<&Annotated> {
        match self {
            Content::Annotated(annotated) => Some(annotated),
            _ => None,
        }
    }

    /// Says who the block is for.
    #[must_use]
    pub fn with_audience(self, audience: impl IntoIterator<Item = Audience>) -> Self {
        self.annotate(|annotated| annotated.audience = audience.into_iter().collect())
    }

    /// Says how much the block matters, from 0 (least) to 1 (most).
    ///
    /// # Panics
    /// When `priority` is not within 0 to 1: MCP allows nothing else.
    #[must_use]
    #[track_caller]
    pub fn with_priority(self, priority: f64) -> Self {
        assert!((0.0..=1.0).contains(&priority), "a priority is from 0 to 1, not {priority}");
        self.annotate(|annotated| annotated.priority = Some(priority))
    }

    /// Says when the block's source last changed (ISO 8601: `2026-11-29T10:00:00Z`).
    #[must_use]
    pub fn with_last_modified(self, timestamp: impl Into<String>) -> Self {
        self.annotate(|annotated| annotated.last_modified = Some(timestamp.into()))
    }

    /// Attaches free metadata for the client (MCP `_meta`).
    #[must_use]
    pub fn with_meta(self, meta: Map<String, Value>) -> Self {
        self.annotate(|annotated| annotated.meta = Some(meta))
    }

    fn annotate(self, change: impl FnOnce(&mut Annotated)) -> Self {
        let mut annotated = match self {
            Content::Annotated(annotated) => annotated,
            content => {
                Box::new(Annotated { content, audience: Vec::new(), priority: None, last_modified: None, meta: None })
            }
        };
        change(&mut annotated);
        Content::Annotated(annotated)
    }
}
