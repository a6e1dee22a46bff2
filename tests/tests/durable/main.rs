//! Durable runs on a real Restate server (`examples/durable.rs`, the order desk): a run
//! whose second tool call dies with its process completes after a restart without calling
//! the first again; a batch's calls run together and `after_call` waits for all of them,
//! once; a call that ended unjournaled while an earlier one ran runs again after a restart;
//! an approval given after a restart is honoured; a denial is enforced;
//! Restate's cancellation ends a run waiting for approval; a deferred call waits for the
//! application's answer across a restart.
//!
//! `#[ignore]`d under plain `cargo test`: they need `restate-server` and the example's
//! binary. `bash tests/durable/run.sh` installs Restate from npm and runs them.

#[path = "../support/processes.rs"]
mod processes;
mod restate;

use serde_json::{Value, json};

use restate::Restate;

/// The ids of a run's calls, in order.
fn call_ids(outcome: &Value) -> Vec<&str> {
    outcome["calls"].as_array().expect("calls").iter().map(|call| call["id"].as_str().unwrap()).collect()
}

#[tokio::test]
#[ignore = "needs restate-server: bash tests/durable/run.sh"]
async fn a_run_killed_in_its_second_call_completes_after_a_restart_without_calling_the_first_again() {
    let mut restate = Restate::start("crash").await;
    std::fs::write(restate.hold_path(), "").unwrap();
    restate.send("order-7", "ship order 7").await;
    // The second call (ship) is in flight, the first (charge) journaled: the process dies.
    restate.until("the ship call", |r| r.ledger_count("ship 7 started") == 1).await;
    restate.until_journaled("tool charge call_charge_7").await;
    assert_eq!(restate.ledger_count("charge 7"), 1);
    assert_eq!(restate.ledger_count("after call_charge_7"), 0, "after_call waits for the whole batch");
    restate.kill_service();
    Restate::remove(&restate.hold_path());
    restate.start_service();
    let (status, outcome) = restate.output("order-7").await;
    assert!(status.is_success(), "{status} {outcome}");
    // Exactly once: the model's first turn and the charge; at least once: the call that
    // died with its process ran again, and finished once.
    assert_eq!(restate.ledger_count("charge 7"), 1, "the finished call ran once");
    assert_eq!(restate.ledger_count("model"), 2, "each model turn was asked once");
    assert_eq!(restate.ledger_count("ship 7 started"), 2, "the call cut short ran again");
    assert_eq!(restate.ledger_count("ship 7 done"), 1);
    assert_eq!(restate.ledger_count("after call_charge_7"), 1, "after_call ran once for each call");
    assert_eq!(restate.ledger_count("after call_ship_7"), 1);
    // Every call answered once, in order: the model read one result for each.
    assert_eq!(call_ids(&outcome), ["call_charge_7", "call_ship_7"]);
    assert_eq!(outcome["text"], "order 7 charged; order 7 shipped");
    assert_eq!(outcome["rounds"], 2);
}

#[tokio::test]
#[ignore = "needs restate-server: bash tests/durable/run.sh"]
async fn a_batchs_calls_run_together_and_after_call_follows_the_whole_batch_in_call_order() {
    let restate = Restate::start("together").await;
    std::fs::write(restate.hold_path(), "").unwrap();
    // Ship, then charge: one at a time, the charge would wait for the held ship.
    restate.send("rush-9", "rush order 9").await;
    restate.until("the charge, while the ship is held", |r| r.ledger_count("charge 9") == 1).await;
    assert_eq!(restate.ledger_count("ship 9 started"), 1);
    assert_eq!(restate.ledger_count("ship 9 done"), 0, "the ship is still held");
    assert_eq!(restate.ledger_count("after call_charge_9"), 0, "after_call waits for the whole batch");
    Restate::remove(&restate.hold_path());
    let (status, outcome) = restate.output("rush-9").await;
    assert!(status.is_success(), "{status} {outcome}");
    assert_eq!(call_ids(&outcome), ["call_ship_9", "call_charge_9"], "answered in call order");
    assert_eq!(outcome["text"], "order 9 shipped; order 9 charged");
    let ledger = std::fs::read_to_string(restate.ledger_path()).unwrap();
    let at = |line: &str| ledger.lines().position(|l| l == line).unwrap_or_else(|| panic!("{line:?} in {ledger}"));
    assert!(at("charge 9") < at("ship 9 done"), "{ledger}");
    assert!(at("ship 9 done") < at("after call_ship_9"), "{ledger}");
    assert!(at("after call_ship_9") < at("after call_charge_9"), "in call order: {ledger}");
    assert_eq!(ledger.lines().filter(|l| l.starts_with("after ")).count(), 2, "once each: {ledger}");
}

#[tokio::test]
#[ignore = "needs restate-server: bash tests/durable/run.sh"]
async fn a_call_that_ended_while_an_earlier_one_ran_runs_again_after_a_restart() {
    let mut restate = Restate::start("rush-crash").await;
    std::fs::write(restate.hold_path(), "").unwrap();
    restate.send("rush-12", "rush order 12").await;
    // The charge has ended; its result waits for the held ship's to be journaled first.
    restate.until("the charge, while the ship is held", |r| r.ledger_count("charge 12") == 1).await;
    assert!(!restate.journaled("tool charge call_charge_12").await, "results are journaled in call order");
    restate.kill_service();
    Restate::remove(&restate.hold_path());
    restate.start_service();
    let (status, outcome) = restate.output("rush-12").await;
    assert!(status.is_success(), "{status} {outcome}");
    // At least once: neither result was journaled, so both calls ran again, once each.
    assert_eq!(restate.ledger_count("ship 12 started"), 2);
    assert_eq!(restate.ledger_count("ship 12 done"), 1);
    assert_eq!(restate.ledger_count("charge 12"), 2);
    assert_eq!(restate.ledger_count("model"), 2, "each model turn was asked once");
    assert_eq!(restate.ledger_count("after call_ship_12"), 1, "after_call once for each call");
    assert_eq!(restate.ledger_count("after call_charge_12"), 1);
    assert_eq!(call_ids(&outcome), ["call_ship_12", "call_charge_12"]);
    assert_eq!(outcome["text"], "order 12 shipped; order 12 charged");
}

#[tokio::test]
#[ignore = "needs restate-server: bash tests/durable/run.sh"]
async fn an_approval_given_after_a_restart_is_honoured() {
    let mut restate = Restate::start("approve").await;
    restate.send("refund-8", "refund order 8").await;
    let waiting = restate.pending("refund-8").await;
    assert_eq!(waiting["call_id"], "call_refund_8");
    assert_eq!(waiting["tool"], "refund");
    assert_eq!(waiting["arguments"], json!({"order": 8}));
    assert!(waiting["awakeable"].as_str().is_some_and(|id| !id.is_empty()), "{waiting}");
    // The process that asked is gone by the time the person answers.
    restate.kill_service();
    restate.start_service();
    // A decision on another call is refused, and the run waits on.
    let (status, body) = restate.decide("refund-8", &json!({"call_id": "call_other", "verdict": "approve"})).await;
    assert_eq!(status.as_u16(), 404, "{body}");
    let (status, body) = restate.decide("refund-8", &json!({"call_id": "call_refund_8", "verdict": "approve"})).await;
    assert!(status.is_success(), "{status} {body}");
    let (status, outcome) = restate.output("refund-8").await;
    assert!(status.is_success(), "{status} {outcome}");
    assert_eq!(restate.ledger_count("refund 8"), 1);
    assert_eq!(restate.ledger_count("model"), 2, "the first turn was not asked again");
    assert_eq!(outcome["calls"][0]["is_error"], false);
    assert_eq!(outcome["text"], "order 8 refunded");
    // Nothing waits any more.
    let (_, after) = restate.post(&format!("{}/OrderDesk/refund-8/pending", restate.ingress), &Value::Null).await;
    assert_eq!(after, Value::Null);
}

#[tokio::test]
#[ignore = "needs restate-server: bash tests/durable/run.sh"]
async fn a_deferred_call_waits_for_the_applications_answer_across_a_restart() {
    let mut restate = Restate::start("deferred").await;
    restate.send("deliver-13", "deliver order 13").await;
    let waiting = restate.waiting("deliver-13", "deferred").await;
    assert_eq!(waiting["call_id"], "call_confirm_address_13");
    assert_eq!(waiting["tool"], "confirm_address");
    assert_eq!(waiting["arguments"], json!({"order": 13}));
    assert_eq!(restate.ledger_count("ship 13 done"), 0, "the turn's other calls wait with it");
    restate.kill_service();
    restate.start_service();
    let url = format!("{}/OrderDesk/deliver-13/answer", restate.ingress);
    let (status, body) = restate.post(&url, &json!({"call_id": "call_other", "output": "x"})).await;
    assert_eq!(status.as_u16(), 404, "{body}");
    let (status, body) =
        restate.post(&url, &json!({"call_id": "call_confirm_address_13", "output": "12 Rue Bleue"})).await;
    assert!(status.is_success(), "{status} {body}");
    let (status, outcome) = restate.output("deliver-13").await;
    assert!(status.is_success(), "{status} {outcome}");
    assert_eq!(restate.ledger_count("ship 13 done"), 1);
    assert_eq!(restate.ledger_count("model"), 2, "the first turn was not asked again");
    assert_eq!(call_ids(&outcome), ["call_confirm_address_13", "call_ship_13"]);
    assert_eq!(outcome["text"], "12 Rue Bleue; order 13 shipped", "the model read the answer in its place");
    let (_, after) = restate.post(&format!("{}/OrderDesk/deliver-13/deferred", restate.ingress), &Value::Null).await;
    assert_eq!(after, Value::Null);
}

#[tokio::test]
#[ignore = "needs restate-server: bash tests/durable/run.sh"]
async fn a_denial_is_enforced() {
    let restate = Restate::start("deny").await;
    restate.send("refund-9", "refund order 9").await;
    restate.pending("refund-9").await;
    let denial = json!({"call_id": "call_refund_9", "verdict": "deny", "reason": "order 9 was never paid"});
    let (status, body) = restate.decide("refund-9", &denial).await;
    assert!(status.is_success(), "{status} {body}");
    let (status, outcome) = restate.output("refund-9").await;
    assert!(status.is_success(), "{status} {outcome}");
    assert_eq!(restate.ledger_count("refund 9"), 0, "a denied call never runs");
    let call = &outcome["calls"][0];
    assert_eq!(call["is_error"], true);
    assert_eq!(call["error"], "denied");
    assert!(call["text"].as_str().unwrap().contains("order 9 was never paid"), "{call}");
    // The model read the denial.
    assert!(outcome["text"].as_str().unwrap().contains("not allowed: order 9 was never paid"), "{outcome}");
}

#[tokio::test]
#[ignore = "needs restate-server: bash tests/durable/run.sh"]
async fn restates_cancellation_ends_a_run_waiting_for_approval() {
    let restate = Restate::start("cancel").await;
    let invocation = restate.send("refund-10", "refund order 10").await;
    restate.pending("refund-10").await;
    restate.cancel(&invocation).await;
    let (status, outcome) = restate.output("refund-10").await;
    assert!(!status.is_success(), "a cancelled run has no output: {status} {outcome}");
    assert!(outcome.to_string().contains("cancelled"), "{status} {outcome}");
    assert_eq!(restate.ledger_count("refund 10"), 0, "the call never ran");
    assert_eq!(restate.ledger_count("model"), 1, "the model was not asked again");
}

#[tokio::test]
#[ignore = "needs restate-server: bash tests/durable/run.sh"]
async fn a_handoff_goes_on_with_the_other_agent_in_the_same_durable_run() {
    let restate = Restate::start("handoff").await;
    let url = format!("{}/OrderDesk/escalate-11/run", restate.ingress);
    let (status, outcome) = restate.post(&url, &json!("escalate order 11")).await;
    assert!(status.is_success(), "{status} {outcome}");
    assert_eq!(outcome["handoffs"], json!(["transfer_to_manager"]), "{outcome}");
    assert_eq!(outcome["text"], "the manager took over: escalate order 11");
    assert_eq!(call_ids(&outcome), ["call_transfer_to_manager_11"]);
    assert_eq!((restate.ledger_count("model"), restate.ledger_count("manager")), (1, 1));
}

/// The cost of a journaled step (`bash tests/bench/durable.sh`, not in CI): the median of 30
/// runs of the order desk's two model turns, two tool calls and the batch's `after_call`s
/// (five steps), against the median of 30 calls of its `pending` handler (a Restate
/// invocation that journals nothing), in turn on one server.
#[tokio::test]
#[ignore = "a benchmark: bash tests/bench/durable.sh"]
#[allow(clippy::print_stdout)] // a benchmark prints its figures
async fn per_step_cost() {
    const RUNS: usize = 30;
    let restate = Restate::start("bench").await;
    let mut runs = Vec::with_capacity(RUNS);
    let mut bare = Vec::with_capacity(RUNS);
    for i in 0..RUNS {
        let started = std::time::Instant::now();
        let url = format!("{}/OrderDesk/bench-{i}/run", restate.ingress);
        let (status, outcome) = restate.post(&url, &json!(format!("ship order {}", i + 1))).await;
        runs.push(started.elapsed());
        assert!(status.is_success(), "{status} {outcome}");
        assert_eq!(call_ids(&outcome).len(), 2);
        let started = std::time::Instant::now();
        let (status, _) = restate.post(&format!("{}/OrderDesk/bench-{i}/pending", restate.ingress), &Value::Null).await;
        bare.push(started.elapsed());
        assert!(status.is_success());
    }
    runs.sort();
    bare.sort();
    let (run, bare) = (runs[RUNS / 2], bare[RUNS / 2]);
    // Two model turns, two calls, the batch's `after_call`s.
    let step = run.saturating_sub(bare) / 5;
    println!(
        "durable run of 5 journaled steps: median {run:?}; an invocation with none: median {bare:?}; \
         per journaled step: {step:?}"
    );
}
