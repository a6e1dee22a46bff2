//! [`Bm25Index`]: a full-text index that needs no server, ranked by BM25 (the `bm25` crate:
//! its tokenizer folds case and accents, drops English stop words and stems). Documents are
//! held in memory; [`Bm25Index::save`] writes them to a file (a new file renamed over the old,
//! so a crash mid-write leaves the old one) and [`Bm25Index::open`] reads them back. The
//! ranking is rebuilt on the first search after a change, so that the average document
//! length it scores with is the true one.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{PoisonError, RwLock};

use bm25::{Language, SearchEngine, SearchEngineBuilder};

use super::{Passage, RetrieveError, RetrieveFuture, Retriever, Search};

/// The largest document accepted, in bytes (1 MiB unless set): a bigger one is an error,
/// never silently cut.
const DEFAULT_MAX_DOCUMENT_BYTES: usize = 1 << 20;

/// A BM25 full-text index of documents, each named by its source.
pub struct Bm25Index {
    max_document_bytes: usize,
    inner: RwLock<Inner>,
}

#[derive(Default)]
struct Inner {
    /// Source → text, in source order (ids into the engine are positions here).
    documents: BTreeMap<String, String>,
    /// The ranking over `documents`, dropped on every change.
    engine: Option<(SearchEngine<u32>, Vec<String>)>,
}

impl Default for Bm25Index {
    fn default() -> Self {
        Self::new()
    }
}

impl Bm25Index {
    /// An empty index.
    #[must_use]
    pub fn new() -> Self {
        Bm25Index { max_document_bytes: DEFAULT_MAX_DOCUMENT_BYTES, inner: RwLock::new(Inner::default()) }
    }

    /// Refuses documents longer than `bytes`.
    #[must_use]
    pub fn max_document_bytes(mut self, bytes: usize) -> Self {
        self.max_document_bytes = bytes;
        self
    }

    /// Adds (or replaces) the document of `source`.
    ///
    /// # Errors
    /// An empty source or text, or a text longer than the limit.
    pub fn add(&self, source: impl Into<String>, text: impl Into<String>) -> Result<(), RetrieveError> {
        let (source, text) = (source.into(), text.into());
        if source.trim().is_empty() {
            return Err(RetrieveError::new("a document needs a source (its name)"));
        }
        if text.trim().is_empty() {
            return Err(RetrieveError::new(format!("the document {source:?} is empty")));
        }
        if text.len() > self.max_document_bytes {
            return Err(RetrieveError::new(format!(
                "the document {source:?} is {} bytes, more than the {} this index takes; split it",
                text.len(),
                self.max_document_bytes
            )));
        }
        let mut inner = self.inner.write().unwrap_or_else(PoisonError::into_inner);
        inner.documents.insert(source, text);
        inner.engine = None;
        Ok(())
    }

    /// Removes the document of `source`; whether it was there.
    pub fn remove(&self, source: &str) -> bool {
        let mut inner = self.inner.write().unwrap_or_else(PoisonError::into_inner);
        inner.engine = None;
        inner.documents.remove(source).is_some()
    }

    /// How many documents it holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.inner.read().unwrap_or_else(PoisonError::into_inner).documents.len()
    }

    /// Whether it holds none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Writes every document to `path` (JSON), replacing the file whole.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), RetrieveError> {
        let path = path.as_ref();
        let text = {
            let inner = self.inner.read().unwrap_or_else(PoisonError::into_inner);
            serde_json::to_string(&inner.documents).map_err(|e| RetrieveError::new(e.to_string()))?
        };
        let partial = path.with_extension("partial");
        let written = std::fs::write(&partial, text).and_then(|()| std::fs::rename(&partial, path));
        written.map_err(|error| RetrieveError::new(format!("cannot save the index to {}: {error}", path.display())))
    }

    /// Reads the documents [`Bm25Index::save`] wrote to `path`.
    ///
    /// # Errors
    /// When the file cannot be read or is not such a file.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, RetrieveError> {
        let path = path.as_ref();
        let unreadable = |error: &dyn std::fmt::Display| {
            RetrieveError::new(format!("cannot open the index {}: {error}", path.display()))
        };
        let text = std::fs::read_to_string(path).map_err(|e| unreadable(&e))?;
        let documents: BTreeMap<String, String> = serde_json::from_str(&text).map_err(|e| unreadable(&e))?;
        let index = Bm25Index::new();
        index.inner.write().unwrap_or_else(PoisonError::into_inner).documents = documents;
        Ok(index)
    }

    /// The passages for `search`, the ranking rebuilt first if the documents changed.
    fn search(&self, search: &Search) -> Vec<Passage> {
        let wanted = usize::from(search.limit);
        {
            let inner = self.inner.read().unwrap_or_else(PoisonError::into_inner);
            if let Some((engine, sources)) = &inner.engine {
                return ranked(engine, sources, &inner.documents, search, wanted);
            }
        }
        let mut inner = self.inner.write().unwrap_or_else(PoisonError::into_inner);
        if inner.documents.is_empty() {
            return Vec::new();
        }
        if inner.engine.is_none() {
            let sources: Vec<String> = inner.documents.keys().cloned().collect();
            let texts: Vec<&str> = inner.documents.values().map(String::as_str).collect();
            let engine = SearchEngineBuilder::<u32>::with_corpus(Language::English, texts).build();
            inner.engine = Some((engine, sources));
        }
        let Some((engine, sources)) = &inner.engine else { return Vec::new() };
        ranked(engine, sources, &inner.documents, search, wanted)
    }
}

/// The best `wanted` passages of `engine`, within `search.source` when it is given.
fn ranked(
    engine: &SearchEngine<u32>,
    sources: &[String],
    documents: &BTreeMap<String, String>,
    search: &Search,
    wanted: usize,
) -> Vec<Passage> {
    // Within one source, rank them all and keep that source's: the engine has no filter.
    let limit = if search.source.is_some() { documents.len() } else { wanted };
    engine
        .search(&search.query, limit)
        .into_iter()
        .filter_map(|found| {
            let source = sources.get(usize::try_from(found.document.id).ok()?)?;
            let within = search.source.as_ref().is_none_or(|only| only == source);
            within.then(|| Passage {
                source: source.clone(),
                score: f64::from(found.score),
                text: found.document.contents,
            })
        })
        .take(wanted)
        .collect()
}

impl Retriever for Bm25Index {
    fn retrieve<'a>(&'a self, search: &'a Search) -> RetrieveFuture<'a> {
        Box::pin(core::future::ready(Ok(self.search(search))))
    }
}

impl std::fmt::Debug for Bm25Index {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bm25Index").field("documents", &self.len()).finish_non_exhaustive()
    }
}
