//! Memory tools, as the seeds name them: `save_memory` keeps a fact for later, and
//! `recall_memories` finds the saved facts relevant to a query (BM25 over the scope's
//! memories). Every memory belongs to a scope (a user, a conversation) that the program
//! derives from the call's context, never from the model's arguments, so one user's model
//! cannot read or write another's memories.
//!
//! The store is a [`MemoryStore`]: [`FileMemory`] (one append-only JSON-lines file per scope)
//! by default, `RedisMemory` (feature `redis`) for replicas.

use core::future::Future;
use core::pin::Pin;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use bm25::{Language, SearchEngineBuilder};

use super::{Passage, Passages, RetrieveError};
use crate::context::ToolContext;
use crate::error::RegistryError;
use crate::output::Structured;
use crate::registry::Registry;
use crate::tool::dynamic::DynamicTool;

/// One saved fact.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(crate = "serde")]
pub struct Memory {
    /// The fact, as the model worded it.
    pub text: String,
    /// When it was saved, in seconds since the Unix epoch.
    pub saved_at: u64,
}

/// What a [`MemoryStore`] gives.
pub type MemoryFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, RetrieveError>> + Send + 'a>>;

/// Where memories are kept.
pub trait MemoryStore: Send + Sync + 'static {
    /// Keeps `memory` in `scope`; once this returns, it is durable.
    fn save<'a>(&'a self, scope: &'a str, memory: Memory) -> MemoryFuture<'a, ()>;
    /// Every memory of `scope`, oldest first.
    fn all<'a>(&'a self, scope: &'a str) -> MemoryFuture<'a, Vec<Memory>>;
}

/// Memories in files: one append-only JSON-lines file per scope, under a directory. Each
/// memory is one line written with one `write` on a file opened for appending, so that
/// concurrent writers (tasks of this process, other processes) never interleave or overwrite
/// each other's lines.
#[derive(Debug, Clone)]
pub struct FileMemory {
    directory: PathBuf,
}

impl FileMemory {
    /// Memories under `directory` (made if missing).
    ///
    /// # Errors
    /// When the directory cannot be made.
    pub fn open(directory: impl Into<PathBuf>) -> Result<Self, RetrieveError> {
        let directory = directory.into();
        std::fs::create_dir_all(&directory)
            .map_err(|e| RetrieveError::new(format!("cannot use {} for memories: {e}", directory.display())))?;
        Ok(FileMemory { directory })
    }

    /// A scope's file: its name hex-encoded, so that no scope names a path.
    fn file(&self, scope: &str) -> PathBuf {
        let name = scope.bytes().fold(String::new(), |mut name, b| {
            use core::fmt::Write as _;
            let _ = write!(name, "{b:02x}");
            name
        });
        self.directory.join(format!("{name}.jsonl"))
    }
}

impl MemoryStore for FileMemory {
    fn save<'a>(&'a self, scope: &'a str, memory: Memory) -> MemoryFuture<'a, ()> {
        Box::pin(async move {
            use std::io::Write as _;
            let mut line = serde_json::to_string(&memory).map_err(|e| RetrieveError::new(e.to_string()))?;
            line.push('\n');
            let path = self.file(scope);
            let failed = |e: &dyn core::fmt::Display| {
                RetrieveError::new(format!("cannot save the memory to {}: {e}", path.display()))
            };
            // A file's write and its flush to the disk block: off the async threads.
            let target = path.clone();
            let written = tokio::task::spawn_blocking(move || {
                let mut file = std::fs::OpenOptions::new().create(true).append(true).open(target)?;
                file.write_all(line.as_bytes())?;
                file.sync_data()
            });
            written.await.map_err(|e| failed(&e))?.map_err(|e| failed(&e))
        })
    }

    fn all<'a>(&'a self, scope: &'a str) -> MemoryFuture<'a, Vec<Memory>> {
        Box::pin(async move {
            let path = self.file(scope);
            let target = path.clone();
            let read = tokio::task::spawn_blocking(move || std::fs::read_to_string(target));
            let read = read.await.map_err(|e| RetrieveError::new(e.to_string()))?;
            let text = match read {
                Ok(text) => text,
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
                Err(error) => {
                    return Err(RetrieveError::new(format!("cannot read the memories in {}: {error}", path.display())));
                }
            };
            // A line cut short by a crash mid-write is the only one that can fail to parse.
            Ok(text.lines().filter_map(|line| serde_json::from_str(line).ok()).collect())
        })
    }
}

/// Memories in Redis (feature `redis`), one list per scope (`{prefix}memory:{scope}`), so
/// that every replica of a server reads and writes the same ones.
#[cfg(feature = "redis")]
#[derive(Clone)]
pub struct RedisMemory {
    connection: redis::aio::ConnectionManager,
    prefix: String,
}

#[cfg(feature = "redis")]
impl RedisMemory {
    /// Memories on `connection` (see `RedisTaskStore::connection`), keys prefixed
    /// `tool-core:`.
    #[must_use]
    pub fn new(connection: redis::aio::ConnectionManager) -> Self {
        RedisMemory { connection, prefix: "tool-core:".to_owned() }
    }

    /// Names its keys `{prefix}memory:{scope}`.
    #[must_use]
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }
}

#[cfg(feature = "redis")]
impl core::fmt::Debug for RedisMemory {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("RedisMemory").field("prefix", &self.prefix).finish_non_exhaustive()
    }
}

#[cfg(feature = "redis")]
impl MemoryStore for RedisMemory {
    fn save<'a>(&'a self, scope: &'a str, memory: Memory) -> MemoryFuture<'a, ()> {
        Box::pin(async move {
            let line = serde_json::to_string(&memory).map_err(|e| RetrieveError::new(e.to_string()))?;
            let mut connection = self.connection.clone();
            redis::cmd("RPUSH")
                .arg(format!("{}memory:{scope}", self.prefix))
                .arg(line)
                .query_async::<i64>(&mut connection)
                .await
                .map(drop)
                .map_err(|e| RetrieveError::new(format!("cannot save the memory: {e}")))
        })
    }

    fn all<'a>(&'a self, scope: &'a str) -> MemoryFuture<'a, Vec<Memory>> {
        Box::pin(async move {
            let mut connection = self.connection.clone();
            let lines: Vec<String> = redis::cmd("LRANGE")
                .arg(format!("{}memory:{scope}", self.prefix))
                .arg(0)
                .arg(-1)
                .query_async(&mut connection)
                .await
                .map_err(|e| RetrieveError::new(format!("cannot read the memories: {e}")))?;
            Ok(lines.iter().filter_map(|line| serde_json::from_str(line).ok()).collect())
        })
    }
}

/// How a call's memories are scoped: the program's choice, from the call's context.
pub type Scope = dyn Fn(&ToolContext) -> Result<String, String> + Send + Sync;

/// Scopes memories by the caller's verified identity (the OAuth token's subject); a call
/// without one is refused rather than given a shared scope.
#[must_use]
pub fn per_user() -> Arc<Scope> {
    Arc::new(|context: &ToolContext| {
        context
            .claims()
            .and_then(|claims| claims.subject.clone())
            .ok_or_else(|| "memories are kept per user, and this call has no verified user".to_owned())
    })
}

/// What `save_memory` takes.
#[derive(Debug, crate::ToolArgs)]
#[serde(crate = "serde")]
pub struct SaveMemory {
    /// The fact to remember, in one or two sentences a later conversation can use on its own
    #[param(min_length = 1, max_length = 4000)]
    pub text: String,
}

/// What `recall_memories` takes.
#[derive(Debug, crate::ToolArgs)]
#[serde(crate = "serde")]
pub struct Recall {
    /// What to remember, in plain words
    #[param(min_length = 1, max_length = 2000)]
    pub query: String,
    /// How many memories to return, the most relevant first
    #[serde(default = "default_recall")]
    #[param(minimum = 1, maximum = 20, default = 5)]
    pub limit: u8,
}

fn default_recall() -> u8 {
    5
}

/// The memory tools on `store`, scoped by `scope`: `save_memory` and `recall_memories`.
///
/// # Errors
/// Never in practice (the names are fixed and valid); a [`RegistryError`] otherwise.
pub fn tools(store: impl MemoryStore, scope: Arc<Scope>) -> Result<Registry, RegistryError> {
    let store: Arc<dyn MemoryStore> = Arc::new(store);
    let mut registry = Registry::new();
    registry
        .add_dynamic(save_tool(Arc::clone(&store), Arc::clone(&scope))?)?
        .add_dynamic(recall_tool(store, scope)?)?;
    Ok(registry)
}

/// `save_memory` on `store`, scoped by `scope`.
pub(super) fn save_tool(store: Arc<dyn MemoryStore>, scope: Arc<Scope>) -> Result<DynamicTool, RegistryError> {
    DynamicTool::typed("save_memory", SAVE, move |context: ToolContext, args: SaveMemory| {
        let (store, scope) = (Arc::clone(&store), scope(&context));
        async move {
            let scope = scope?;
            let memory = Memory { text: args.text, saved_at: now() };
            store.save(&scope, memory).await.map_err(|error| error.to_string())?;
            Ok::<_, String>("Saved.".to_owned())
        }
    })
}

/// `recall_memories` on `store`, scoped by `scope`.
pub(super) fn recall_tool(store: Arc<dyn MemoryStore>, scope: Arc<Scope>) -> Result<DynamicTool, RegistryError> {
    DynamicTool::typed("recall_memories", RECALL, move |context: ToolContext, args: Recall| {
        let (store, scope) = (Arc::clone(&store), scope(&context));
        async move {
            let scope = scope?;
            Ok::<_, String>(Structured(Passages { passages: recall(&*store, &scope, &args).await? }))
        }
    })
}

/// The memories of `scope` most relevant to `recall`.
pub(super) async fn recall(store: &dyn MemoryStore, scope: &str, recall: &Recall) -> Result<Vec<Passage>, String> {
    let memories = store.all(scope).await.map_err(|error| error.to_string())?;
    Ok(relevant(&memories, recall))
}

const SAVE: &str = "Saves a fact about the user or the task for later conversations. Save only what will \
                    still matter later (preferences, decisions, names), one fact per call.";
const RECALL: &str = "Finds the saved facts relevant to a query, the most relevant first.";

/// The memories most relevant to `recall.query`.
fn relevant(memories: &[Memory], recall: &Recall) -> Vec<Passage> {
    if memories.is_empty() {
        return Vec::new();
    }
    let engine =
        SearchEngineBuilder::<u32>::with_corpus(Language::English, memories.iter().map(|m| m.text.as_str())).build();
    engine
        .search(&recall.query, usize::from(recall.limit))
        .into_iter()
        .filter_map(|found| {
            let memory = memories.get(usize::try_from(found.document.id).ok()?)?;
            let source = format!("memory saved at {}", memory.saved_at);
            Some(Passage { source, score: f64::from(found.score), text: memory.text.clone() })
        })
        .collect()
}

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |elapsed| elapsed.as_secs())
}
