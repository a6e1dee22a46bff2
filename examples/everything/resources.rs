//! Resources: two templates made up from their id, the documents of a directory found at
//! start-up, and what `gzip-file-as-resource` keeps for the session.

use std::io::Write as _;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use tool_core::content::ResourceLink;
use tool_core::mcp::{DynamicResource, Resources, ResourcesHandle, resource};
use tool_core::{Content, ToolArgs};

const TEXT_TEMPLATE: &str = "demo://resource/dynamic/text/{resourceId}";
const BLOB_TEMPLATE: &str = "demo://resource/dynamic/blob/{resourceId}";
/// At most this much is fetched for `gzip-file-as-resource` (the reference's default).
const FETCH_LIMIT: usize = 10 * 1024 * 1024;

// The two kinds of made-up resource (no doc comment: it would describe `resourceType`).
#[derive(Clone, Copy, ToolArgs)]
pub enum Kind {
    Text,
    Blob,
}

impl Kind {
    pub fn uri(self, id: u64) -> String {
        match self {
            Kind::Text => format!("demo://resource/dynamic/text/{id}"),
            Kind::Blob => format!("demo://resource/dynamic/blob/{id}"),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Text => "Text",
            Kind::Blob => "Blob",
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Kind::Text => "plaintext resource",
            Kind::Blob => "binary blob resource",
        }
    }
}

/// Resource `id` of `kind`, embedded, made up now.
pub fn dynamic(kind: Kind, id: u64) -> Content {
    let at = time_of_day();
    match kind {
        Kind::Text => Content::resource_text(
            kind.uri(id),
            "text/plain",
            format!("Resource {id}: This is a plaintext resource created at {at}"),
        ),
        Kind::Blob => Content::resource_blob(
            kind.uri(id),
            "text/plain",
            format!("Resource {id}: This is a base64 blob created at {at}").as_bytes(),
        ),
    }
}

/// Plaintext dynamic resource fabricated from the {resourceId} variable, which must be an integer.
#[resource(name = "Dynamic Text Resource", uri = "demo://resource/dynamic/text/{resourceId}", mime_type = "text/plain")]
fn dynamic_text(#[serde(rename = "resourceId")] resource_id: u64) -> Result<Content, String> {
    positive(resource_id, TEXT_TEMPLATE)?;
    Ok(dynamic(Kind::Text, resource_id))
}

/// Binary (base64) dynamic resource fabricated from the {resourceId} variable, which must be an integer.
#[resource(
    name = "Dynamic Blob Resource",
    uri = "demo://resource/dynamic/blob/{resourceId}",
    mime_type = "application/octet-stream"
)]
fn dynamic_blob(#[serde(rename = "resourceId")] resource_id: u64) -> Result<Content, String> {
    positive(resource_id, BLOB_TEMPLATE)?;
    Ok(dynamic(Kind::Blob, resource_id))
}

fn positive(id: u64, template: &str) -> Result<(), String> {
    if id == 0 { Err(format!("Unknown resource: {}", template.replace("{resourceId}", "0"))) } else { Ok(()) }
}

/// The templates, with their ids completed, then each file of `docs`.
pub fn resources(docs: &Path) -> Resources {
    let mut resources = Resources::new();
    resources.add(DynamicTextResource).expect("one template").add(DynamicBlobResource).expect("one template");
    for template in [TEXT_TEMPLATE, BLOB_TEMPLATE] {
        resources.complete(template, "resourceId", |typed, _| positive_integer(typed));
    }
    let mut files: Vec<_> = std::fs::read_dir(docs).into_iter().flatten().flatten().map(|entry| entry.path()).collect();
    files.sort();
    for path in files.into_iter().filter(|path| path.is_file()) {
        let name = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
        let uri = format!("demo://resource/static/document/{}", encode_component(&name));
        let mime = match path.extension().and_then(|extension| extension.to_str()).map(str::to_lowercase).as_deref() {
            Some("md" | "markdown") => "text/markdown",
            Some("json") => "application/json",
            _ => "text/plain",
        };
        let read = move |_| {
            let path = path.clone();
            async move {
                std::fs::read_to_string(&path)
                    .unwrap_or_else(|error| format!("Error reading file: {}. {error}", path.display()))
            }
        };
        let file = DynamicResource::new(uri, name.clone(), read)
            .with_mime_type(mime)
            .with_description(format!("Static document file exposed from /docs: {name}"));
        resources.add_dynamic(file).expect("file names are unique");
    }
    resources
}

/// `typed` when it is a positive integer: the only completion of an id.
pub fn positive_integer(typed: &str) -> Vec<String> {
    typed.parse::<u64>().ok().filter(|id| *id > 0).map(|_| vec![typed.to_owned()]).unwrap_or_default()
}

/// Keeps `gzipped` as the resource `demo://resource/session/{name}` (replacing one of that
/// name): a link to it, and the resource embedded.
pub async fn keep_for_session(
    handle: &ResourcesHandle,
    name: &str,
    gzipped: Vec<u8>,
) -> Result<(Content, Content), String> {
    let uri = format!("demo://resource/session/{name}");
    let embedded = Content::resource_blob(&uri, "application/gzip", &gzipped);
    let read = {
        let embedded = embedded.clone();
        move |_| {
            let embedded = embedded.clone();
            async move { embedded }
        }
    };
    let kept = DynamicResource::new(&uri, name, read).with_mime_type("application/gzip");
    handle
        .update(|resources| {
            resources.remove(&uri);
            resources.add_dynamic(kept).map(|_| ())
        })
        .await
        .map_err(|error| error.to_string())?;
    let link = ResourceLink::new(&uri, name).with_mime_type("application/gzip");
    Ok((Content::ResourceLink(link), embedded))
}

/// The bytes at `url`: a `data:` URI's, or an HTTP(S) GET's, at most [`FETCH_LIMIT`].
pub async fn fetch(url: &str) -> Result<Vec<u8>, String> {
    if let Some(data) = url.strip_prefix("data:") {
        let (header, payload) = data.split_once(',').ok_or("a data URI needs a comma")?;
        return if header.ends_with(";base64") {
            use base64::Engine as _;
            base64::engine::general_purpose::STANDARD.decode(payload).map_err(|error| error.to_string())
        } else {
            Ok(percent_encoding::percent_decode_str(payload).collect())
        };
    }
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(format!("Unsupported URL protocol for {url}. Only http, https, and data URLs are supported."));
    }
    let client =
        reqwest::Client::builder().timeout(std::time::Duration::from_secs(30)).build().map_err(|e| e.to_string())?;
    let mut response = client.get(url).send().await.map_err(|error| error.to_string())?;
    let mut bytes = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|error| error.to_string())? {
        bytes.extend_from_slice(&chunk);
        if bytes.len() > FETCH_LIMIT {
            return Err(format!("Response from {url} exceeds {FETCH_LIMIT} bytes"));
        }
    }
    Ok(bytes)
}

pub fn gzip(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes)?;
    encoder.finish()
}

/// `name` as JavaScript's `encodeURIComponent` writes it.
fn encode_component(name: &str) -> String {
    const KEEP: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
        .remove(b'-')
        .remove(b'_')
        .remove(b'.')
        .remove(b'!')
        .remove(b'~')
        .remove(b'*')
        .remove(b'\'')
        .remove(b'(')
        .remove(b')');
    percent_encoding::utf8_percent_encode(name, KEEP).to_string()
}

/// The time of day (UTC), as the reference's `toLocaleTimeString()` writes it (`3:04:16 PM`).
fn time_of_day() -> String {
    let seconds = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default().as_secs() % 86_400;
    let (hour, minute, second) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    let half = if hour < 12 { "AM" } else { "PM" };
    format!("{}:{minute:02}:{second:02} {half}", (hour + 11) % 12 + 1)
}
