//! Context loaded before a run (`Agent::preload`) and the retrieval and memory modes built on
//! it (`retrieve::Mode`): which tools join, what the model reads with the user's message,
//! and that nothing of it is kept in the conversation.

use std::sync::{Arc, Mutex};

use tool_core::agent::{Agent, Api, Conversation, Event, Preload, PreloadFuture, ScriptedModel};
use tool_core::retrieve::memory::{FileMemory, Memory, MemoryStore};
use tool_core::retrieve::{Bm25Index, Memories, Mode, Retrieval};
use tool_core::{Registry, ToolContext};

use crate::fixture::answer;
use crate::loop_semantics::SharedModel;

fn guides() -> Bm25Index {
    let index = Bm25Index::new();
    index.add("guide/returns.md", "Items can be returned within 30 days with the receipt.").unwrap();
    index.add("guide/shipping.md", "Shipping to Norway takes five working days.").unwrap();
    index
}

fn names(registry: &Registry) -> Vec<&str> {
    registry.iter().map(tool_core::registry::Entry::name).collect()
}

#[tokio::test]
async fn each_mode_offers_its_tools_and_loads_what_it_says() {
    let on_demand = Retrieval::new("search_guides", "Searches the guides", guides(), Mode::OnDemand).unwrap();
    let injected = Retrieval::new("search_guides", "Searches the guides", guides(), Mode::Injected).unwrap();
    let hybrid = Retrieval::new("search_guides", "Searches the guides", guides(), Mode::Hybrid).unwrap();
    assert_eq!(names(on_demand.tools()), ["search_guides"]);
    assert!(names(injected.tools()).is_empty(), "injected: no search tool");
    assert_eq!(names(hybrid.tools()), ["search_guides"]);

    let context = ToolContext::new();
    let message = "How long is shipping to Norway?";
    assert_eq!(on_demand.preload(&context, message).await.unwrap(), None, "on demand loads nothing");
    for loading in [&injected, &hybrid] {
        let text = loading.preload(&context, message).await.unwrap().unwrap();
        let first_line = text.lines().nth(1).unwrap();
        let passage: serde_json::Value = serde_json::from_str(first_line).unwrap();
        assert_eq!(passage["source"], "guide/shipping.md", "{text}");
    }
}

#[tokio::test]
async fn loaded_context_joins_every_round_of_its_run_and_is_not_kept() {
    let retrieval = Retrieval::new("search_guides", "Searches the guides", guides(), Mode::Hybrid).unwrap();
    let mut tools = Registry::new();
    tools.merge_prefixed("", retrieval.tools()).unwrap();
    let script = [answer("Five working days."), answer("30 days.")];
    let model = Arc::new(ScriptedModel::new(Api::OpenAiChat, script));
    let agent =
        Agent::new(SharedModel(Arc::clone(&model)), tools).system("You answer for the shop.").preload(retrieval);
    let mut conversation = Conversation::new(Api::OpenAiChat);
    agent.run(&mut conversation, "How long is shipping to Norway?").await.unwrap();
    agent.run(&mut conversation, "And returns?").await.unwrap();
    let seen = model.seen();
    let first = seen[0].system.as_deref().unwrap();
    assert!(first.starts_with("You answer for the shop.\n\nPassages found for the user's message"), "{first}");
    assert!(first.contains("guide/shipping.md"), "{first}");
    let second = seen[1].system.as_deref().unwrap();
    assert!(second.contains("guide/returns.md") && !second.contains("Norway"), "each run loads its own: {second}");
    assert!(seen[0].tools.as_ref().unwrap().to_string().contains("search_guides"), "hybrid offers the tool too");
    let kept = serde_json::to_string(&conversation).unwrap();
    assert!(!kept.contains("guide/"), "nothing loaded is kept in the conversation: {kept}");
}

#[tokio::test]
async fn memories_of_the_user_are_loaded_and_saving_stays_a_tool() {
    let dir = std::env::temp_dir().join(format!("tool-core-preload-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = FileMemory::open(&dir).unwrap();
    let fact = Memory { text: "Ada prefers deliveries on Saturdays.".into(), saved_at: 1 };
    store.save("ada", fact).await.unwrap();
    let scope = Arc::new(|_: &ToolContext| Ok::<_, String>("ada".to_owned()));
    let memories = Memories::new(store, scope, Mode::Injected).unwrap();
    assert_eq!(names(memories.tools()), ["save_memory"], "injected memories keep only the save tool");
    let model = Arc::new(ScriptedModel::new(Api::OpenAiChat, [answer("Saturday it is.")]));
    let agent = Agent::new(SharedModel(Arc::clone(&model)), Registry::new()).preload(memories);
    agent.run(&mut Conversation::new(Api::OpenAiChat), "When should the deliveries come?").await.unwrap();
    let system = model.seen()[0].system.clone().unwrap();
    assert!(system.starts_with("Facts saved in earlier conversations"), "{system}");
    assert!(system.contains("Ada prefers deliveries on Saturdays."), "{system}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A source whose backend is down.
struct Down;

impl Preload for Down {
    fn preload<'a>(&'a self, _: &'a ToolContext, _: &'a str) -> PreloadFuture<'a> {
        Box::pin(async { Err("the index is down".to_owned()) })
    }
}

#[tokio::test]
async fn a_source_that_fails_is_left_out_and_said() {
    let events: Arc<Mutex<Vec<Event>>> = Arc::default();
    let heard = Arc::clone(&events);
    let model = Arc::new(ScriptedModel::new(Api::OpenAiChat, [answer("ok")]));
    let agent = Agent::new(SharedModel(Arc::clone(&model)), Registry::new())
        .preload(Down)
        .on_event(move |event| heard.lock().unwrap().push(event.clone()));
    agent.run(&mut Conversation::new(Api::OpenAiChat), "hi").await.unwrap();
    assert_eq!(model.seen()[0].system, None, "no text, no system prompt");
    assert!(events.lock().unwrap().contains(&Event::PreloadFailed { problem: "the index is down".into() }));
}
