//! The tracing recipe of `tool-core/docs/serving.md`, installed exactly as written (the
//! file the docs show is included here), exports no request content: a call's arguments and
//! result appear in no exported span, attribute or event. Without its filter they do: rmcp's
//! own `debug` events carry every request and result into the spans around them.

use opentelemetry_sdk::trace::InMemorySpanExporter;
use serde_json::json;

use crate::exported::Exported;
use crate::fixture::{Client, call, connect_pipe};

#[allow(dead_code, unreachable_pub)] // `install` sets the global subscriber: a program's, not a test's
mod documented {
    include!("../../../tool-core/docs/otel-recipe.rs");
}

const SECRET: &str = "zebra-secret-4d1f7a";

/// A session that calls `echo` with the secret (echoed back in the result), and one whose
/// arguments break the schema (echoed in the error).
async fn calls() {
    let connection = connect_pipe(Client::default()).await;
    let result = call(&connection, "echo", json!({"zebra": SECRET, "apple": 1})).await.unwrap();
    assert!(crate::fixture::text(&result).contains(SECRET));
    call(&connection, "echo", json!({"zebra": SECRET, "apple": "x"})).await.unwrap();
    connection.cancel().await.unwrap();
}

#[tokio::test]
async fn the_documented_recipe_exports_no_argument() {
    // SAFETY of the premise: without the filter, the content does reach the exported spans.
    let bare = Exported::start();
    calls().await;
    let leaked = format!("{:?}", bare.spans());
    drop(bare);
    assert!(leaked.contains(SECRET), "rmcp's debug events no longer carry requests; the recipe's filter may go");

    let exporter = InMemorySpanExporter::default();
    let (subscriber, provider) = documented::subscriber(exporter.clone());
    let guard = tracing::subscriber::set_default(subscriber);
    calls().await;
    drop(guard);
    provider.force_flush().unwrap();
    let spans = exporter.get_finished_spans().unwrap();
    let names: Vec<&str> = spans.iter().map(|span| span.name.as_ref()).collect();
    assert!(names.contains(&"tools/call echo") && names.contains(&"initialize"), "{names:?}");
    let text = format!("{spans:?}");
    assert!(!text.contains(SECRET), "an argument was exported: {text}");
}
