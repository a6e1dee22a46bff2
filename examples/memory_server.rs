//! The official reference server `memory` (npm `@modelcontextprotocol/server-memory`) written
//! the way the README recommends: a knowledge graph of entities, relations and observations
//! kept in a JSONL file, its nine tools, and the `memory://knowledge-graph` resource that
//! subscribed clients hear about after every write. No hand-written rmcp handler.
//!
//! `MEMORY_FILE_PATH=/tmp/memory.jsonl cargo run -p tool-examples --bin memory_server`
//! (stdio; `-- --http 127.0.0.1:8080` for streamable HTTP). `bash tests/memory/run.sh` drives
//! it with the official Python client through the reference's call sequence.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};
use tokio::sync::Mutex;
use tool_core::mcp::{McpServer, Resources, ResourcesHandle, resource, serve};
use tool_core::{
    Registry, Structured, StructuredText, ToolArgs, ToolContext, ToolError, ToolSchema, Violations, tool, tools,
};

const GRAPH_URI: &str = "memory://knowledge-graph";

#[derive(Clone, Serialize, ToolArgs)]
#[serde(rename_all = "camelCase")]
#[tool_args(open)]
struct Entity {
    /// The name of the entity
    name: String,
    /// The type of the entity
    #[serde(rename = "entityType")]
    kind: String,
    /// An array of observation contents associated with the entity
    observations: Vec<String>,
}

#[derive(Clone, PartialEq, Serialize, ToolArgs)]
#[serde(rename_all = "camelCase")]
#[tool_args(open)]
struct Relation {
    /// The name of the entity where the relation starts
    from: String,
    /// The name of the entity where the relation ends
    to: String,
    /// The type of the relation
    #[serde(rename = "relationType")]
    kind: String,
}

#[derive(ToolArgs)]
#[serde(rename_all = "camelCase")]
#[tool_args(open)]
struct NewObservations {
    /// The name of the entity to add the observations to
    entity_name: String,
    /// An array of observation contents to add
    contents: Vec<String>,
}

#[derive(ToolArgs)]
#[serde(rename_all = "camelCase")]
#[tool_args(open)]
struct Deletion {
    /// The name of the entity containing the observations
    entity_name: String,
    /// An array of observations to delete
    observations: Vec<String>,
}

#[derive(Default, Serialize, ToolSchema)]
struct Graph {
    entities: Vec<Entity>,
    relations: Vec<Relation>,
}

#[derive(Serialize, ToolSchema)]
struct Entities {
    entities: Vec<Entity>,
}

#[derive(Serialize, ToolSchema)]
struct Relations {
    relations: Vec<Relation>,
}

#[derive(Serialize, ToolSchema)]
#[serde(rename_all = "camelCase")]
struct Added {
    entity_name: String,
    added_observations: Vec<String>,
}

#[derive(Serialize, ToolSchema)]
struct AddedAll {
    results: Vec<Added>,
}

#[derive(Serialize, ToolSchema)]
struct Done {
    success: bool,
    message: String,
}

/// One line of the file: an entity or a relation, tagged by `type`.
#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Line {
    Entity(Entity),
    Relation(Relation),
}

/// The graph's file, read and rewritten whole under one lock per change, as the reference
/// does (it holds none: two of its writes at once can interleave).
struct Memory {
    path: PathBuf,
    lock: Mutex<()>,
    resources: OnceLock<ResourcesHandle>,
}

impl Memory {
    fn load(&self) -> Result<Graph, String> {
        let text = match std::fs::read_to_string(&self.path) {
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Graph::default()),
            other => other.map_err(failed)?,
        };
        let mut graph = Graph::default();
        for line in text.lines().filter(|line| !line.trim().is_empty()) {
            let value: serde_json::Value = serde_json::from_str(line).map_err(failed)?;
            match serde_json::from_value(value) {
                Ok(Line::Entity(entity)) => graph.entities.push(entity),
                Ok(Line::Relation(relation)) => graph.relations.push(relation),
                Err(_) => {} // a line of another type, as the reference skips it
            }
        }
        Ok(graph)
    }

    async fn save(&self, graph: Graph) -> Result<(), String> {
        let lines = graph.entities.into_iter().map(Line::Entity).chain(graph.relations.into_iter().map(Line::Relation));
        let lines: Vec<String> =
            lines.map(|line| serde_json::to_string(&line)).collect::<Result<_, _>>().map_err(failed)?;
        let temporary = self.path.with_extension(format!("{}.tmp", std::process::id()));
        std::fs::write(&temporary, lines.join("\n")).map_err(failed)?;
        std::fs::rename(&temporary, &self.path).map_err(failed)?;
        if let Some(resources) = self.resources.get() {
            resources.updated(GRAPH_URI).await;
        }
        Ok(())
    }

    /// Loads the graph, lets `change` edit it, saves it.
    async fn change<T>(&self, change: impl FnOnce(&mut Graph) -> Result<T, String>) -> Result<T, String> {
        let _held = self.lock.lock().await;
        let mut graph = self.load()?;
        let answer = change(&mut graph)?;
        self.save(graph).await?;
        Ok(answer)
    }

    /// The entities `keep` keeps, and the relations between them.
    fn subgraph(&self, keep: impl Fn(&Entity) -> bool) -> Result<StructuredText<Graph>, String> {
        let graph = self.load()?;
        let entities: Vec<Entity> = graph.entities.into_iter().filter(|entity| keep(entity)).collect();
        let kept = |name: &String| entities.iter().any(|entity| entity.name == *name);
        let relations = graph.relations.into_iter().filter(|r| kept(&r.from) && kept(&r.to)).collect();
        Ok(Structured(Graph { entities, relations }).pretty())
    }
}

/// A failure as the text the client reads (a tool's `Err` is its `Display`).
fn failed(error: impl std::fmt::Display) -> String {
    error.to_string()
}

/// `value` as the reference words a list: its items pretty-printed, under `key` as structured content.
fn pretty<T: Serialize + tool_core::param::ToolObject>(text_of: &impl Serialize, value: T) -> StructuredText<T> {
    Structured(value).with_text(serde_json::to_string_pretty(text_of).unwrap_or_default())
}

#[tools]
impl Memory {
    /// Create multiple new entities in the knowledge graph
    #[tool(title = "Create Entities", read_only = false, destructive = false, idempotent = false, open_world = false)]
    async fn create_entities(&self, entities: Vec<Entity>) -> Result<StructuredText<Entities>, String> {
        let created = self
            .change(|graph| {
                let new: Vec<Entity> =
                    entities.into_iter().filter(|e| !graph.entities.iter().any(|old| old.name == e.name)).collect();
                graph.entities.extend(new.iter().cloned());
                Ok(new)
            })
            .await?;
        Ok(pretty(&created, Entities { entities: created.clone() }))
    }

    /// Create multiple new relations between entities in the knowledge graph. Relations should be in active voice
    #[tool(title = "Create Relations", read_only = false, destructive = false, idempotent = false, open_world = false)]
    async fn create_relations(&self, relations: Vec<Relation>) -> Result<StructuredText<Relations>, String> {
        let created = self
            .change(|graph| {
                let new: Vec<Relation> = relations.into_iter().filter(|r| !graph.relations.contains(r)).collect();
                graph.relations.extend(new.iter().cloned());
                Ok(new)
            })
            .await?;
        Ok(pretty(&created, Relations { relations: created.clone() }))
    }

    /// Add new observations to existing entities in the knowledge graph
    #[tool(title = "Add Observations", read_only = false, destructive = false, idempotent = false, open_world = false)]
    async fn add_observations(&self, observations: Vec<NewObservations>) -> Result<StructuredText<AddedAll>, String> {
        let results = self
            .change(|graph| {
                let mut results = Vec::new();
                for wanted in observations {
                    let Some(entity) = graph.entities.iter_mut().find(|e| e.name == wanted.entity_name) else {
                        return Err(failed(format!("Entity with name {} not found", wanted.entity_name)));
                    };
                    let mut added = Vec::new();
                    for content in wanted.contents {
                        if !entity.observations.contains(&content) && !added.contains(&content) {
                            added.push(content);
                        }
                    }
                    entity.observations.extend(added.iter().cloned());
                    results.push(Added { entity_name: wanted.entity_name, added_observations: added });
                }
                Ok(results)
            })
            .await?;
        let text = serde_json::to_string_pretty(&results).unwrap_or_default();
        Ok(Structured(AddedAll { results }).with_text(text))
    }

    /// Delete multiple entities and their associated relations from the knowledge graph
    ///
    /// # Arguments
    /// * `entity_names` - An array of entity names to delete
    #[tool(title = "Delete Entities", read_only = false, destructive = true, idempotent = true, open_world = false)]
    async fn delete_entities(
        &self,
        #[serde(rename = "entityNames")] entity_names: Vec<String>,
    ) -> Result<StructuredText<Done>, String> {
        self.change(|graph| {
            graph.entities.retain(|e| !entity_names.contains(&e.name));
            graph.relations.retain(|r| !entity_names.contains(&r.from) && !entity_names.contains(&r.to));
            Ok(())
        })
        .await?;
        Ok(done("Entities deleted successfully"))
    }

    /// Delete specific observations from entities in the knowledge graph
    #[tool(title = "Delete Observations", read_only = false, destructive = true, idempotent = true, open_world = false)]
    async fn delete_observations(&self, deletions: Vec<Deletion>) -> Result<StructuredText<Done>, String> {
        self.change(|graph| {
            for deletion in deletions {
                if let Some(entity) = graph.entities.iter_mut().find(|e| e.name == deletion.entity_name) {
                    entity.observations.retain(|o| !deletion.observations.contains(o));
                }
            }
            Ok(())
        })
        .await?;
        Ok(done("Observations deleted successfully"))
    }

    /// Delete multiple relations from the knowledge graph
    ///
    /// # Arguments
    /// * `relations` - An array of relations to delete
    #[tool(title = "Delete Relations", read_only = false, destructive = true, idempotent = true, open_world = false)]
    async fn delete_relations(&self, relations: Vec<Relation>) -> Result<StructuredText<Done>, String> {
        self.change(|graph| {
            graph.relations.retain(|r| !relations.contains(r));
            Ok(())
        })
        .await?;
        Ok(done("Relations deleted successfully"))
    }

    /// Read the entire knowledge graph
    #[tool(title = "Read Graph", read_only = true, destructive = false, idempotent = true, open_world = false, open)]
    fn read_graph(&self) -> Result<StructuredText<Graph>, String> {
        self.subgraph(|_| true)
    }

    /// Search for nodes in the knowledge graph based on a query
    ///
    /// # Arguments
    /// * `query` - The search query to match against entity names, types, and observation content
    #[tool(title = "Search Nodes", read_only = true, destructive = false, idempotent = true, open_world = false)]
    fn search_nodes(&self, query: String) -> Result<StructuredText<Graph>, String> {
        let query = query.to_lowercase();
        let matches = |text: &str| text.to_lowercase().contains(&query);
        self.subgraph(|e| matches(&e.name) || matches(&e.kind) || e.observations.iter().any(|o| matches(o)))
    }

    /// Open specific nodes in the knowledge graph by their names
    ///
    /// # Arguments
    /// * `names` - An array of entity names to retrieve
    #[tool(title = "Open Nodes", read_only = true, destructive = false, idempotent = true, open_world = false)]
    fn open_nodes(&self, names: Vec<String>) -> Result<StructuredText<Graph>, String> {
        self.subgraph(|e| names.contains(&e.name))
    }
}

fn done(message: &str) -> StructuredText<Done> {
    Structured(Done { success: true, message: message.to_owned() }).with_text(message)
}

/// Refused arguments worded as the reference's SDK words zod's issues
/// (`expected array, received undefined at entities[0].observations`).
fn zod(tool: &str, violations: &Violations) -> String {
    let issues: Vec<String> = violations
        .iter()
        .map(|violation| {
            let mut path = violation.path.clone();
            if let (Some(property), "required") = (&violation.property, &*violation.keyword) {
                path = format!("{path}/{property}");
            }
            let at = path.split('/').skip(1).fold(String::new(), |at, key| match key.parse::<usize>() {
                Ok(index) => format!("{at}[{index}]"),
                Err(_) if at.is_empty() => key.to_owned(),
                Err(_) => format!("{at}.{key}"),
            });
            let received = match violation.received.as_deref() {
                Some("integer") => "number", // JavaScript has one number type
                Some(other) => other,
                None => "undefined",
            };
            format!("expected {}, received {received} at {at}", violation.expected.as_deref().unwrap_or("valid input"))
        })
        .collect();
    let issues = issues.join("; ");
    format!("MCP error -32602: Input validation error: Invalid arguments for tool {tool}: Invalid input: {issues}")
}

/// The full knowledge graph with all entities and relations
#[resource(
    uri = "memory://knowledge-graph",
    name = "knowledge-graph",
    title = "Knowledge Graph",
    mime_type = "application/json"
)]
fn knowledge_graph(ctx: &ToolContext) -> Result<String, String> {
    let memory = ctx.state::<Arc<Memory>>().map_err(failed)?;
    let graph = memory.load()?;
    serde_json::to_string_pretty(&graph).map_err(failed)
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let path = std::env::var_os("MEMORY_FILE_PATH").map_or_else(|| PathBuf::from("memory.jsonl"), PathBuf::from);
    let memory = Arc::new(Memory { path, lock: Mutex::new(()), resources: OnceLock::new() });
    let mut registry = Registry::new().with_state(Arc::clone(&memory));
    registry.add_all(Arc::clone(&memory)).expect("tool names are unique");
    let mut resources = Resources::new();
    resources.add(KnowledgeGraphResource).expect("one resource");
    let server = McpServer::new(registry)
        .with_server_info("memory-server", "0.6.3")
        .with_resources(resources)
        .unknown_tools_as_results()
        .with_error_text(|error| match error {
            ToolError::Failed { message, .. } => message.clone(),
            ToolError::UnknownTool { name, .. } => format!("MCP error -32602: Tool {name} not found"),
            ToolError::InvalidArguments { tool, violations } => zod(tool, violations),
            other => other.to_string(),
        });
    let _ = memory.resources.set(server.resources_handle());
    serve(server).await
}
