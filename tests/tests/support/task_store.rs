//! What every `TaskStore` must do, checked the same way for each (in memory in the MCP
//! tests, on a real Redis in the scale tests).

use std::time::Duration;

use tool_core::tasks::{TaskRecord, TaskStore};

/// Writes land on a live task and are read back; a terminal state is final; once its `ttl`
/// ran out, no write brings it back and it reads as absent.
pub async fn holds_its_contract(store: &impl TaskStore, ttl: Duration) {
    store.create("t", TaskRecord::new("{}".to_owned(), 1), Some(ttl)).await.unwrap();
    assert!(store.save("t", "{\"a\":1}", false, 2).await.unwrap());
    assert!(store.respond("t", &[("input-0".to_owned(), "true".to_owned())]).await.unwrap());
    assert!(store.request_cancel("t").await.unwrap());
    let record = store.load("t").await.unwrap().unwrap();
    assert_eq!((record.state.as_str(), record.lease_until_ms, record.cancel_requested), ("{\"a\":1}", 2, true));
    assert_eq!(record.responses.get("input-0").map(String::as_str), Some("true"));
    assert!(!record.ended);

    // A terminal state is final: a later save (a replica that stalled past its lease) is refused.
    assert!(store.save("t", "{\"failed\":1}", true, 2).await.unwrap());
    assert!(!store.save("t", "{\"completed\":1}", true, 3).await.unwrap());
    assert!(!store.save("t", "{\"working\":1}", false, 3).await.unwrap());
    let record = store.load("t").await.unwrap().unwrap();
    assert_eq!((record.state.as_str(), record.ended), ("{\"failed\":1}", true));

    // Listed by prefix, taken literally (a `*` in it is no wildcard).
    for id in ["a2a:1", "a2a:2", "a2b:3", "glob*x", "globZx"] {
        store.create(id, TaskRecord::new("{}".to_owned(), 1), Some(ttl)).await.unwrap();
    }
    let mut ids = store.ids("a2a:").await.unwrap();
    ids.sort();
    assert_eq!(ids, ["a2a:1", "a2a:2"]);
    assert_eq!(store.ids("glob*").await.unwrap(), ["glob*x"]);

    tokio::time::sleep(ttl + Duration::from_millis(100)).await;
    assert_eq!(store.ids("a2a:").await.unwrap(), Vec::<String>::new(), "expired tasks are not listed");
    assert!(!store.save("t", "{}", false, 3).await.unwrap());
    assert!(!store.renew("t", 3).await.unwrap());
    assert!(!store.request_cancel("t").await.unwrap());
    assert!(!store.respond("t", &[("input-1".to_owned(), "1".to_owned())]).await.unwrap());
    assert_eq!(store.load("t").await.unwrap(), None);
}
