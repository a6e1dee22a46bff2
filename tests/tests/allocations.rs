//! Dispatch allocates no more than hand-written code: counted by dhat's heap profiler as
//! the global allocator (its own binary, since the allocator is process-wide).

use tool_core::Registry;
use tool_core::dispatch::DecodeOptions;
use tool_tests::{CALL, WeatherArgs, get_weather, hand_written};

#[global_allocator]
static ALLOCATOR: dhat::Alloc = dhat::Alloc;

/// Heap blocks allocated by `calls` runs of `f`: the fewest of five samples, since dhat
/// counts the whole process and another thread (the test harness's, under load) can only
/// add blocks to a sample, never take them away.
fn blocks(calls: u64, mut f: impl FnMut()) -> u64 {
    f(); // first use: compiled patterns, lazily built sets
    (0..5)
        .map(|_| {
            let before = dhat::HeapStats::get().total_blocks;
            for _ in 0..calls {
                f();
            }
            dhat::HeapStats::get().total_blocks - before
        })
        .min()
        .unwrap_or(u64::MAX)
}

#[test]
fn dispatch_allocates_what_hand_written_code_does() {
    let _profiler = dhat::Profiler::builder().testing().build();
    let registry = Registry::collect().expect("unique names");
    let options = DecodeOptions::default();
    let hand = blocks(100, || drop(hand_written(CALL)));
    let decode = blocks(100, || drop(tool_core::dispatch::decode::<WeatherArgs>(CALL, &options).map(get_weather)));
    let call = blocks(100, || drop(registry.call("weather_forecast", CALL)));
    // One `String` for the city, one for the result: per call, on every side.
    assert_eq!(hand, 200);
    assert_eq!(decode, hand);
    assert_eq!(call, hand);
}
