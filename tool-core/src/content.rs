//! [`Content`]: the blocks a tool's result is made of (text, images, audio, embedded
//! resources, resource links), one model for every provider. MCP carries each block as it
//! is; each provider dialect renders what it supports and describes the rest in text
//! ([`Content::describe`]), so nothing a tool returns is silently lost.

mod annotated;

use core::fmt;

use base64::Engine as _;

pub use annotated::{Annotated, Audience};

/// One block of a tool's result.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Content {
    /// Text the model reads.
    Text(String),
    /// An image, base64-encoded (MCP `image`).
    Image(Media),
    /// An audio clip, base64-encoded (MCP `audio`).
    Audio(Media),
    /// A resource's contents, embedded in the result (MCP `resource`).
    Resource(Resource),
    /// A pointer to a resource the client can fetch (MCP `resource_link`).
    ResourceLink(ResourceLink),
    /// A block with annotations (who it is for, how much it matters, when it changed) or
    /// metadata, which MCP carries (`annotations`, `_meta`) and other dialects leave out.
    Annotated(Box<Annotated>),
}

/// Binary media: base64 text and its MIME type.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct Media {
    /// The bytes, base64-encoded (standard alphabet, padded).
    pub data: String,
    /// The MIME type (`image/png`, `audio/wav`).
    pub mime_type: String,
}

impl Media {
    /// Media from its base64 text and its MIME type.
    #[must_use]
    pub fn new(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Media { data: data.into(), mime_type: mime_type.into() }
    }

    /// How many bytes the base64 text stands for.
    #[must_use]
    pub fn byte_len(&self) -> usize {
        decoded_len(&self.data)
    }
}

/// A resource embedded in a result: its URI and its contents.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct Resource {
    /// The resource's URI (`file:///report.md`, `test://static-resource`).
    pub uri: String,
    /// Its MIME type, when known.
    pub mime_type: Option<String>,
    /// Its contents.
    pub contents: ResourceContents,
}

impl Resource {
    /// A resource at `uri` holding `contents`, its MIME type unknown.
    #[must_use]
    pub fn new(uri: impl Into<String>, contents: ResourceContents) -> Self {
        Resource { uri: uri.into(), mime_type: None, contents }
    }

    /// The same resource, of MIME type `mime_type`.
    #[must_use]
    pub fn with_mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }
}

/// The contents of an embedded [`Resource`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ResourceContents {
    /// Text.
    Text(String),
    /// Binary data, base64-encoded.
    Blob(String),
}

/// A link to a resource the client may read or subscribe to (MCP `resource_link`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct ResourceLink {
    /// The resource's URI.
    pub uri: String,
    /// Its name (an identifier).
    pub name: String,
    /// A human-readable title.
    pub title: Option<String>,
    /// What it holds.
    pub description: Option<String>,
    /// Its MIME type.
    pub mime_type: Option<String>,
    /// Its size in bytes.
    pub size: Option<u64>,
}

impl ResourceLink {
    /// A link with only a URI and a name.
    #[must_use]
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        ResourceLink { uri: uri.into(), name: name.into(), title: None, description: None, mime_type: None, size: None }
    }

    /// The same link, with a human-readable title.
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// The same link, saying what the resource holds.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// The same link, with the resource's MIME type.
    #[must_use]
    pub fn with_mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// The same link, with the resource's size in bytes.
    #[must_use]
    pub fn with_size(mut self, size: u64) -> Self {
        self.size = Some(size);
        self
    }
}

/// The length of what base64 `data` decodes to, without decoding it.
fn decoded_len(data: &str) -> usize {
    let padding = data.bytes().rev().take_while(|&b| b == b'=').count();
    (data.len() / 4 * 3).saturating_sub(padding)
}

fn encode(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

impl Content {
    /// A text block.
    #[must_use]
    pub fn text(text: impl Into<String>) -> Self {
        Content::Text(text.into())
    }

    /// An image from its bytes (encoded here).
    #[must_use]
    pub fn image(bytes: &[u8], mime_type: impl Into<String>) -> Self {
        Content::Image(Media { data: encode(bytes), mime_type: mime_type.into() })
    }

    /// An image from base64 text already encoded (as received from another server).
    #[must_use]
    pub fn image_base64(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Content::Image(Media { data: data.into(), mime_type: mime_type.into() })
    }

    /// An audio clip from its bytes (encoded here).
    #[must_use]
    pub fn audio(bytes: &[u8], mime_type: impl Into<String>) -> Self {
        Content::Audio(Media { data: encode(bytes), mime_type: mime_type.into() })
    }

    /// An audio clip from base64 text already encoded.
    #[must_use]
    pub fn audio_base64(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Content::Audio(Media { data: data.into(), mime_type: mime_type.into() })
    }

    /// An embedded text resource.
    #[must_use]
    pub fn resource_text(uri: impl Into<String>, mime_type: impl Into<String>, text: impl Into<String>) -> Self {
        Content::Resource(Resource {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            contents: ResourceContents::Text(text.into()),
        })
    }

    /// An embedded binary resource, from its bytes (encoded here).
    #[must_use]
    pub fn resource_blob(uri: impl Into<String>, mime_type: impl Into<String>, bytes: &[u8]) -> Self {
        Content::Resource(Resource {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            contents: ResourceContents::Blob(encode(bytes)),
        })
    }

    /// A link to a resource.
    #[must_use]
    pub fn resource_link(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Content::ResourceLink(ResourceLink::new(uri, name))
    }

    /// The text of a text block.
    #[must_use]
    pub fn as_text(&self) -> Option<&str> {
        match self.plain() {
            Content::Text(text) => Some(text),
            _ => None,
        }
    }

    /// The block in words, for a provider that takes only text: a text block is itself, an
    /// embedded text resource is its text under a header, and anything binary is named
    /// with its type and size, saying it was not shown.
    #[must_use]
    pub fn describe(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Content {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Content::Annotated(annotated) => annotated.content.fmt(f),
            Content::Text(text) => f.write_str(text),
            Content::Image(media) => {
                write!(
                    f,
                    "[{} image, {} bytes, not shown: this channel carries text only]",
                    media.mime_type,
                    media.byte_len()
                )
            }
            Content::Audio(media) => {
                write!(
                    f,
                    "[{} audio, {} bytes, not played: this channel carries text only]",
                    media.mime_type,
                    media.byte_len()
                )
            }
            Content::Resource(resource) => {
                let mime = resource.mime_type.as_deref().unwrap_or("unknown type");
                match &resource.contents {
                    ResourceContents::Text(text) => write!(f, "[resource {} ({mime})]\n{text}", resource.uri),
                    ResourceContents::Blob(data) => {
                        let bytes = decoded_len(data);
                        write!(
                            f,
                            "[resource {} ({mime}, {bytes} bytes), not shown: this channel carries text only]",
                            resource.uri
                        )
                    }
                }
            }
            Content::ResourceLink(link) => {
                write!(f, "[resource link: {} <{}>", link.title.as_deref().unwrap_or(&link.name), link.uri)?;
                if let Some(description) = &link.description {
                    write!(f, ": {description}")?;
                }
                f.write_str("]")
            }
        }
    }
}

impl From<String> for Content {
    fn from(text: String) -> Self {
        Content::Text(text)
    }
}

impl From<&str> for Content {
    fn from(text: &str) -> Self {
        Content::Text(text.to_owned())
    }
}
