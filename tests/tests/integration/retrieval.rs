//! Retriever and memory tools: a BM25 index searched through a typed, validated tool, saved
//! and opened; memories saved and recalled per user, in files and in Redis-free replicas of
//! the file store, with concurrent writers losing nothing.

use std::sync::Arc;

use serde_json::json;
use tool_core::retrieve::memory::{self, FileMemory, MemoryStore};
use tool_core::retrieve::{self, Bm25Index};
use tool_core::{Registry, ToolError};

fn index() -> Bm25Index {
    let index = Bm25Index::new().max_document_bytes(200);
    index.add("guide/returns.md", "Items can be returned within 30 days with the receipt.").unwrap();
    index.add("guide/shipping.md", "Shipping to Norway takes five working days.").unwrap();
    index.add("guide/warranty.md", "The warranty covers defects for two years, not accidental damage.").unwrap();
    index
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tool-core-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[tokio::test]
async fn a_bm25_index_answers_through_a_typed_tool() {
    let mut registry = Registry::new();
    registry.add_dynamic(retrieve::tool("search_docs", "Searches the shop's guides", index()).unwrap()).unwrap();
    let context = registry.context();
    let found = registry
        .call_async(&context, "search_docs", json!({"query": "how long does shipping to Norway take", "limit": 2}))
        .await
        .unwrap();
    let passages = found.structured().unwrap()["passages"].as_array().unwrap().clone();
    assert_eq!(passages[0]["source"], "guide/shipping.md");
    assert!(passages.len() <= 2 && passages[0]["score"].as_f64().unwrap() > 0.0, "{passages:?}");
    let within = registry
        .call_async(&context, "search_docs", json!({"query": "days", "source": "guide/returns.md"}))
        .await
        .unwrap();
    let within = within.structured().unwrap()["passages"].as_array().unwrap().clone();
    assert!(within.iter().all(|p| p["source"] == "guide/returns.md") && within.len() == 1, "{within:?}");
    let nothing = registry.call_async(&context, "search_docs", json!({"query": "zebra"})).await.unwrap();
    assert_eq!(nothing.structured(), Some(&json!({"passages": []})));
    let empty = retrieve::tool("search_nothing", "An empty index", Bm25Index::new()).unwrap();
    registry.add_dynamic(empty).unwrap();
    let none = registry.call_async(&context, "search_nothing", json!({"query": "anything"})).await.unwrap();
    assert_eq!(none.structured(), Some(&json!({"passages": []})));

    // Bad input is a validation error naming the field, before any search.
    let empty = registry.call_async(&context, "search_docs", json!({"query": "", "limit": 99})).await.unwrap_err();
    let ToolError::InvalidArguments { violations, .. } = empty else { panic!("{empty:?}") };
    let paths: Vec<&str> = violations.iter().map(|v| v.path.as_str()).collect();
    assert_eq!(paths, ["/query", "/limit"]);
}

#[test]
fn documents_are_checked_and_the_index_survives_a_save() {
    let index = index();
    assert!(index.add("big.md", "x".repeat(201)).unwrap_err().to_string().contains("201 bytes, more than the 200"));
    assert!(index.add("blank.md", "  ").is_err() && index.add("", "text").is_err());
    let dir = scratch("index");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("index.json");
    index.save(&file).unwrap();
    let opened = Bm25Index::open(&file).unwrap();
    assert_eq!(opened.len(), 3);
    assert!(opened.remove("guide/returns.md") && opened.len() == 2);
    std::fs::write(&file, "not json").unwrap();
    assert!(Bm25Index::open(&file).unwrap_err().to_string().starts_with("cannot open the index"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memories_are_saved_and_recalled_per_user_and_concurrent_writers_lose_nothing() {
    let dir = scratch("memory");
    let store = FileMemory::open(&dir).unwrap();
    let by_tenant: Arc<memory::Scope> =
        Arc::new(|ctx: &tool_core::ToolContext| ctx.state::<String>().cloned().map_err(|e| e.to_string()));
    let tools = memory::tools(store.clone(), by_tenant).unwrap();
    assert_eq!(tools.names(), ["recall_memories", "save_memory"]);
    let for_user = |user: &str| {
        let mut registry = Registry::new().with_state(user.to_owned());
        registry.merge_prefixed("", &tools).unwrap();
        registry
    };
    let (ann, bob) = (for_user("ann"), for_user("bob"));
    ann.call_async(&ann.context(), "save_memory", json!({"text": "Ann prefers window seats on trains."}))
        .await
        .unwrap();
    ann.call_async(&ann.context(), "save_memory", json!({"text": "Ann is vegetarian."})).await.unwrap();
    bob.call_async(&bob.context(), "save_memory", json!({"text": "Bob prefers aisle seats."})).await.unwrap();
    let recalled =
        ann.call_async(&ann.context(), "recall_memories", json!({"query": "which seat does she like"})).await.unwrap();
    let passages = recalled.structured().unwrap()["passages"].as_array().unwrap().clone();
    assert_eq!(passages[0]["text"], "Ann prefers window seats on trains.");
    assert!(passages.iter().all(|p| !p["text"].as_str().unwrap().contains("Bob")), "one user never sees another's");
    let refused = ann.call_async(&ann.context(), "save_memory", json!({"text": ""})).await.unwrap_err();
    assert!(matches!(refused, ToolError::InvalidArguments { .. }));

    // 8 tasks × 25 memories at once, into one scope: every one is there, whole.
    let mut writers = Vec::new();
    for writer in 0..8 {
        let store = store.clone();
        writers.push(tokio::spawn(async move {
            for n in 0..25 {
                let memory =
                    memory::Memory { text: format!("writer {writer} fact {n} {}", "x".repeat(300)), saved_at: 0 };
                store.save("crowd", memory).await.unwrap();
            }
        }));
    }
    for writer in writers {
        writer.await.unwrap();
    }
    let all = store.all("crowd").await.unwrap();
    assert_eq!(all.len(), 200, "nothing lost");
    assert!(all.iter().all(|m| m.text.ends_with(&"x".repeat(300))), "nothing torn");

    // A scope the program cannot establish is refused, not shared.
    let lost = memory::tools(store, memory::per_user()).unwrap();
    let no_user = lost.call_async(&lost.context(), "save_memory", json!({"text": "a fact"})).await.unwrap_err();
    assert!(no_user.to_string().contains("no verified user"), "{no_user}");
    let _ = std::fs::remove_dir_all(dir);
}
