#![doc = include_str!("../../docs/retrieve.md")]

mod bm25_index;
pub mod memory;
#[cfg(feature = "agent")]
mod modes;

use core::fmt;
use core::future::Future;
use core::pin::Pin;
use std::sync::Arc;

pub use bm25_index::Bm25Index;
#[cfg(feature = "agent")]
pub use modes::{Memories, Mode, Retrieval};

use crate::context::ToolContext;
use crate::error::RegistryError;
use crate::output::Structured;
use crate::tool::dynamic::DynamicTool;

/// What a retrieval tool takes.
#[derive(Debug, Clone, crate::ToolArgs)]
#[serde(crate = "serde")]
pub struct Search {
    /// What to look for, in plain words
    #[param(min_length = 1, max_length = 2000)]
    pub query: String,
    /// How many passages to return, the most relevant first
    #[serde(default = "default_limit")]
    #[param(minimum = 1, maximum = 50, default = 5)]
    pub limit: u8,
    /// Search only the passages of this source (a document's name, a URL)
    pub source: Option<String>,
}

fn default_limit() -> u8 {
    5
}

/// One passage found.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, crate::ToolSchema)]
#[serde(crate = "serde")]
pub struct Passage {
    /// Where it comes from: a document's name, a URL
    pub source: String,
    /// How relevant it is to the query; higher is more relevant
    pub score: f64,
    /// The passage
    pub text: String,
}

/// What a retrieval tool answers.
#[derive(Debug, Clone, PartialEq, serde::Serialize, crate::ToolSchema)]
#[serde(crate = "serde")]
pub struct Passages {
    /// The passages found, the most relevant first (none when nothing matched)
    pub passages: Vec<Passage>,
}

/// Why a retriever could not answer (or a document could not be added).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetrieveError {
    message: String,
}

impl RetrieveError {
    /// An error saying `message`.
    #[must_use]
    pub fn new(message: impl Into<String>) -> Self {
        RetrieveError { message: message.into() }
    }
}

impl fmt::Display for RetrieveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RetrieveError {}

/// What a [`Retriever`] gives.
pub type RetrieveFuture<'a> = Pin<Box<dyn Future<Output = Result<Vec<Passage>, RetrieveError>> + Send + 'a>>;

/// Answers a search with passages: a full-text index, a vector store, a search API.
pub trait Retriever: Send + Sync + 'static {
    /// At most `search.limit` passages for `search.query` (within `search.source` when it is
    /// given), the most relevant first.
    fn retrieve<'a>(&'a self, search: &'a Search) -> RetrieveFuture<'a>;
}

impl<R: Retriever + ?Sized> Retriever for Arc<R> {
    fn retrieve<'a>(&'a self, search: &'a Search) -> RetrieveFuture<'a> {
        (**self).retrieve(search)
    }
}

/// `retriever` as a tool named `name`: it takes a [`Search`] and answers [`Passages`] (the
/// passages as structured output, their text for a model that reads text).
///
/// # Errors
/// [`RegistryError::InvalidName`] for a name some provider refuses.
pub fn tool(
    name: impl Into<String>,
    description: impl Into<String>,
    retriever: impl Retriever,
) -> Result<DynamicTool, RegistryError> {
    let retriever = Arc::new(retriever);
    DynamicTool::typed(name, description, move |_: ToolContext, search: Search| {
        let retriever = Arc::clone(&retriever);
        async move {
            let mut passages = retriever.retrieve(&search).await.map_err(|error| error.to_string())?;
            passages.truncate(usize::from(search.limit));
            Ok::<_, String>(Structured(Passages { passages }))
        }
    })
}
