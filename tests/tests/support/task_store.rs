//! What every `TaskStore` must do, checked the same way for each (in memory in the MCP
//! tests, on a real Redis in the scale tests).

use std::time::Duration;

use tool_core::tasks::{ListPosition, ListQuery, Listing, TaskRecord, TaskStore};

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

/// The listing ([`TaskStore::index`], [`TaskStore::query`]): one owner's tasks, the newest
/// first and ties by id, filtered by context, state and time, each alone and together, a page
/// after a cursor with the count under the filters; a newer listing moves a task and an older
/// one is ignored; a task that does not exist is never listed, and one whose `ttl` ran out is
/// forgotten.
pub async fn lists_its_tasks(store: &impl TaskStore, ttl: Duration) {
    let listing = |at: u64, owner: &str, context: &str, state: &str| {
        Listing::new(at, (!owner.is_empty()).then(|| owner.to_owned()), context, state)
    };
    let tasks = [
        ("l:0", 1000, "c1", "W"),
        ("l:1", 1010, "c2", "W"),
        ("l:2", 1020, "c1", "D"),
        ("l:3", 1030, "c2", "D"),
        ("l:4", 1040, "c1", "W"),
        ("l:5", 1050, "c2", "D"),
        ("l:6", 1050, "c1", "W"),
    ];
    for (id, at, context, state) in tasks {
        store.create(id, TaskRecord::new("{}".to_owned(), 1), Some(ttl)).await.unwrap();
        store.index(id, &listing(at, "alice", context, state)).await.unwrap();
    }
    for (id, owner) in [("b:0", "bob"), ("n:0", "")] {
        store.create(id, TaskRecord::new("{}".to_owned(), 1), Some(ttl)).await.unwrap();
        store.index(id, &listing(2000, owner, "c1", "W")).await.unwrap();
    }
    // A task that was never created (or expired before its listing came) is not listed.
    store.index("ghost", &listing(3000, "alice", "c1", "W")).await.unwrap();

    let alice = || ListQuery::new(Some("alice".to_owned()), 3);
    let page = |query: ListQuery| async move {
        let page = store.query(&query).await.unwrap().expect("the store keeps a listing");
        let ids: Vec<String> = page.tasks.iter().map(|position| position.id.clone()).collect();
        (ids, page.total, page.more, page.tasks.last().cloned())
    };
    // Page by page, the newest first; at 1050, "l:5" before "l:6".
    let (first, total, more, last) = page(alice()).await;
    assert_eq!((first, total, more), (strings(&["l:5", "l:6", "l:4"]), 7, true));
    let (second, total, more, last) = page(alice().after(last.unwrap())).await;
    assert_eq!((second, total, more), (strings(&["l:3", "l:2", "l:1"]), 7, true));
    let (third, _, more, _) = page(alice().after(last.unwrap())).await;
    assert_eq!((third, more), (strings(&["l:0"]), false));

    // Filters, alone and together, with the count under them.
    let mut wide = alice();
    wide.limit = 10;
    assert_eq!(page(wide.clone().context("c1")).await.0, strings(&["l:6", "l:4", "l:2", "l:0"]));
    assert_eq!(page(wide.clone().state("D")).await.1, 3);
    assert_eq!(page(wide.clone().context("c2").state("D")).await.0, strings(&["l:5", "l:3"]));
    let (recent, total, ..) = page(wide.clone().updated_after(1030)).await;
    assert_eq!((recent, total), (strings(&["l:5", "l:6", "l:4"]), 3));
    let mut one = alice().updated_after(1030).after(ListPosition::new(1050, "l:5"));
    one.limit = 1;
    assert_eq!(page(one).await, (strings(&["l:6"]), 3, true, Some(ListPosition::new(1050, "l:6"))));

    // Another owner's tasks, and those started without a verified caller, are theirs alone.
    assert_eq!(page(ListQuery::new(Some("bob".to_owned()), 10)).await.0, strings(&["b:0"]));
    assert_eq!(page(ListQuery::new(None, 10)).await.0, strings(&["n:0"]));

    // A newer listing moves a task (out of the sets it left); an older one is ignored.
    store.index("l:0", &listing(2000, "alice", "c2", "D")).await.unwrap();
    store.index("l:0", &listing(500, "alice", "c1", "W")).await.unwrap();
    assert_eq!(page(alice()).await.0[0], "l:0");
    assert_eq!(page(wide.clone().context("c1")).await.0, strings(&["l:6", "l:4", "l:2"]));
    assert_eq!(page(wide.clone().context("c2").state("D")).await.0, strings(&["l:0", "l:5", "l:3"]));

    tokio::time::sleep(ttl + Duration::from_millis(100)).await;
    let (gone, total, more, _) = page(wide).await;
    assert_eq!((gone, total, more), (Vec::<String>::new(), 0, false), "expired tasks are forgotten");
}

fn strings(ids: &[&str]) -> Vec<String> {
    ids.iter().map(|id| (*id).to_owned()).collect()
}
