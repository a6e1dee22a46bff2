//! [`DynamicResource`]: a resource made at run time (a file found in a directory, a result a
//! tool keeps for the session), where `#[resource]` needs its URI and name when the program
//! is built.

use core::fmt;
use core::future::Future;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::context::ToolContext;
use crate::dispatch::{DecodeOptions, ToolFuture};
use crate::output::IntoToolOutput;
use crate::tool::dynamic::{DynamicTool, output_of};

/// A resource at a fixed URI, named, described and read at run time; add it with
/// [`Resources::add_dynamic`](crate::mcp::Resources::add_dynamic), to a running server
/// through [`ResourcesHandle::update`](crate::mcp::ResourcesHandle::update).
///
/// ```
/// use tool_core::mcp::{DynamicResource, Resources};
///
/// let mut resources = Resources::new();
/// for name in ["architecture.md", "features.md"] {
///     let uri = format!("docs://{name}");
///     let read = DynamicResource::new(uri, name, move |_ctx| async move { format!("# {name}") })
///         .with_description(format!("The document {name}"))
///         .with_mime_type("text/markdown");
///     resources.add_dynamic(read)?;
/// }
/// resources.add_dynamic(DynamicResource::text("docs://notes", "Notes", "nothing yet"))?;
/// assert_eq!(resources.len(), 3);
/// # Ok::<(), tool_core::RegistryError>(())
/// ```
#[derive(Clone)]
pub struct DynamicResource {
    pub(in crate::mcp) uri: String,
    pub(in crate::mcp) name: String,
    pub(in crate::mcp) title: Option<String>,
    pub(in crate::mcp) description: String,
    pub(in crate::mcp) mime_type: Option<String>,
    read: Arc<dyn Fn(ToolContext) -> ToolFuture<'static> + Send + Sync>,
}

impl DynamicResource {
    /// The resource at `uri` called `name` (free text: MCP restricts neither), whose
    /// `read` gives what a `#[resource]` fn may return: text (of the resource's MIME type),
    /// [`Content`](crate::Content) blocks (an embedded blob keeps its own URI and type), or a
    /// `Result` of these, whose `Err` is the read's error.
    pub fn new<F, Fut, O>(uri: impl Into<String>, name: impl Into<String>, read: F) -> Self
    where
        F: Fn(ToolContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = O> + Send + 'static,
        O: IntoToolOutput + 'static,
    {
        let name = name.into();
        let label: Arc<str> = Arc::from(name.as_str());
        let read = move |context: ToolContext| -> ToolFuture<'static> { output_of(Arc::clone(&label), read(context)) };
        DynamicResource {
            uri: uri.into(),
            name,
            title: None,
            description: String::new(),
            mime_type: None,
            read: Arc::new(read),
        }
    }

    /// A resource whose text is always `text`.
    pub fn text(uri: impl Into<String>, name: impl Into<String>, text: impl Into<String>) -> Self {
        let text: Arc<str> = Arc::from(text.into());
        DynamicResource::new(uri, name, move |_| {
            let text = Arc::clone(&text);
            async move { text.to_string() }
        })
    }

    /// The same resource with a title for people.
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// The same resource, saying what it holds.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = description.into();
        self
    }

    /// The same resource, its text of `mime_type` (`text/plain` when not given).
    #[must_use]
    pub fn with_mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// Its URI.
    #[must_use]
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// The entry the resources' registry keeps for it, under its URI (names may repeat).
    pub(in crate::mcp) fn entry(&self) -> DynamicTool {
        const NO_ARGUMENTS: &str = r#"{"type":"object","properties":{}}"#;
        let read = Arc::clone(&self.read);
        let handler = Arc::new(move |context, _: Map<String, Value>, _: &DecodeOptions| read(context));
        let parameters = serde_json::from_str(NO_ARGUMENTS).unwrap_or_default();
        let mut tool = DynamicTool::with_parts(
            Arc::from(self.uri.as_str()),
            self.description.clone(),
            NO_ARGUMENTS.to_owned(),
            parameters,
            handler,
        );
        tool.title.clone_from(&self.title);
        tool
    }
}

impl fmt::Debug for DynamicResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DynamicResource").field("uri", &self.uri).field("name", &self.name).finish_non_exhaustive()
    }
}
