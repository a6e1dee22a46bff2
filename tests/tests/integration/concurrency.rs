//! One registry shared by 8 threads and by many tasks: thousands of calls mixing good, bad
//! and panicking ones, sync and async, each answered with its own correct result.

use std::sync::Arc;
use std::thread;

use serde_json::json;
use tool_core::{Registry, ToolError};

fn expected(i: i64) -> (String, Result<String, &'static str>) {
    match i % 4 {
        0 => (json!({"a": i * 6, "b": 3}).to_string(), Ok((i * 2).to_string())),
        1 => (json!({"a": i, "b": 0}).to_string(), Err("failed")),
        2 => (json!({"a": "x", "b": i}).to_string(), Err("invalid")),
        _ => ("{}".to_owned(), Err("panicked")),
    }
}

fn check(i: i64, result: Result<tool_core::ToolOutput, ToolError>, want: &Result<String, &'static str>) {
    match (result, want) {
        (Ok(output), Ok(text)) => assert_eq!(&output.to_text(), text, "call {i}"),
        (Err(ToolError::Failed { .. }), Err("failed"))
        | (Err(ToolError::InvalidArguments { .. }), Err("invalid"))
        | (Err(ToolError::Panicked { .. }), Err("panicked")) => {}
        (other, want) => panic!("call {i}: got {other:?}, want {want:?}"),
    }
}

#[test]
fn eight_threads_share_one_registry() {
    let registry = Arc::new(Registry::collect().expect("unique names"));
    let handles: Vec<_> = (0..8)
        .map(|t| {
            let registry = Arc::clone(&registry);
            thread::spawn(move || {
                for n in 0..500 {
                    let i = t * 1_000 + n;
                    let (arguments, want) = expected(i);
                    let tool = if i % 4 == 3 { "explode" } else { "divide" };
                    check(i, registry.call(tool, arguments.as_str()), &want);
                }
            })
        })
        .collect();
    for handle in handles {
        handle.join().expect("no thread panicked");
    }
}

#[test]
fn many_async_tasks_on_eight_threads() {
    let registry = Arc::new(Registry::collect().expect("unique names"));
    let handles: Vec<_> = (0..8_i64)
        .map(|t| {
            let registry = Arc::clone(&registry);
            thread::spawn(move || {
                let context = registry.context();
                let futures: Vec<_> = (0..250_i64)
                    .map(|n| {
                        let i = t * 1_000 + n;
                        match i % 3 {
                            0 => registry.call_async(&context, "add_async", json!({"a": i, "b": i})),
                            1 => registry.call_async(&context, "add_async", json!({"a": "x"})),
                            _ => registry.call_async(&context, "explode_async", json!({})),
                        }
                    })
                    .collect();
                for (n, result) in tool_tests::block_on(futures_util::future::join_all(futures)).into_iter().enumerate()
                {
                    let i = t * 1_000 + i64::try_from(n).expect("small");
                    match (i % 3, result) {
                        (0, Ok(output)) => assert_eq!(output.to_text(), (2 * i).to_string()),
                        (1, Err(ToolError::InvalidArguments { .. })) | (2, Err(ToolError::Panicked { .. })) => {}
                        (_, other) => panic!("task {i}: {other:?}"),
                    }
                }
            })
        })
        .collect();
    for handle in handles {
        handle.join().expect("no thread panicked");
    }
}

#[test]
fn many_async_calls_in_flight_at_once() {
    let registry = Registry::collect().expect("unique names");
    let context = registry.context();
    // 2,000 futures created before any is polled, then driven in reverse order.
    let calls: Vec<_> = (0..2_000_i64)
        .map(|i| {
            let future = registry.call_async(&context, "add_async", json!({"a": i, "b": i}));
            (i, future)
        })
        .collect();
    for (i, future) in calls.into_iter().rev() {
        let output = super::dispatch::block_on(future).expect("valid");
        assert_eq!(output.to_text(), (2 * i).to_string());
    }
}
