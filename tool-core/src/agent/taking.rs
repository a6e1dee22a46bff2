//! Taking a model's turn into the run ([`Settings::take_turn`]), and what of it is not sent
//! back as it came. A turn refused or stopped by a content filter runs none of its calls
//! (but those started early) and ends the run. A turn cut off at the output limit
//! runs none of its calls, is not kept, and the model is told why; but when some of its calls
//! started while the model wrote (`driver.rs`), it is kept: those run to their end, and each
//! call that had not started is answered with an error saying it was cut off. A call whose arguments
//! are not JSON still gets its error result, but the history keeps the arguments that ran
//! (repaired, or an empty object): a server that renders the history as a prompt cannot
//! render broken arguments (`llama.cpp` answers 500 to every later request).

use super::Conversation;
use super::Settings;
use super::events::Event;
use super::model::{Api, ModelTurn, StopReason};
use super::steps::Progress;
use crate::provider::{Arguments, ArgumentsMode, CallResult, ToolCall, parse_arguments};

/// What the model is told in place of `turn`, when the loop cannot act on it: calls cut off
/// at the output limit.
pub(super) fn note(turn: &ModelTurn) -> Option<String> {
    if turn.calls.is_empty() || turn.stop != StopReason::MaxTokens {
        return None;
    }
    let names: Vec<String> = turn.calls.iter().map(|call| format!("`{}`", call.name)).collect();
    Some(format!(
        "Your last reply was cut off at the output limit while you were writing tool calls ({}), so none \
         of them ran. Make the calls again with shorter arguments, or fewer at a time.",
        names.join(", ")
    ))
}

/// Puts into `turn`'s history items, for each call whose argument text is not JSON as it
/// stands, the arguments it runs with: the repaired text, or `{}` for text past repair.
pub(super) fn mend(api: Api, turn: &mut ModelTurn) {
    for call in &turn.calls {
        let Arguments::Text(text) = &call.arguments else { continue };
        let parsed = parse_arguments(text);
        let mended = match (parsed.mode, parsed.value) {
            (ArgumentsMode::Strict, _) => continue,
            (ArgumentsMode::Repaired, Some(value)) => value.to_string(),
            _ => "{}".to_owned(),
        };
        api.mend_arguments(&mut turn.items, &call.id, &mended);
    }
}

/// The calls of a turn the loop acts on.
pub(super) struct Taken {
    /// The calls to run, in order.
    pub(super) calls: Vec<ToolCall>,
    /// The history items that answer the turn's other calls (cut off after them), to follow
    /// their results.
    pub(super) cut_off: Vec<serde_json::Value>,
    /// The turn was refused or stopped by a filter: the run ends once the calls that had
    /// started are answered.
    pub(super) refused: bool,
}

impl Settings {
    /// Takes a model's turn into the run: its event, its items into the history, its text
    /// and stop reason as the run's last. Returns the calls to run; `None` for a turn the loop
    /// cannot act on (see above), which is not kept: the model is told why instead. The
    /// first `started` calls started while the model wrote. In
    /// the last round the model was offered no tools; any calls it made anyway each get a
    /// denial as their result and none is returned.
    #[expect(clippy::too_many_arguments, reason = "the run's parts, each borrowed on its own")]
    pub(super) fn take_turn<R>(
        &self,
        api: Api,
        conversation: &mut Conversation,
        progress: &mut Progress<R>,
        round: usize,
        turn: ModelTurn,
        last_answer: bool,
        started: usize,
    ) -> Option<Taken> {
        if !turn.reasoning.is_empty() {
            self.emit(Event::Reasoning { round, text: turn.reasoning.clone() });
        }
        self.emit(Event::ModelResponse { round, stop: turn.stop.clone(), usage: turn.usage, calls: turn.calls.len() });
        progress.stop = turn.stop.clone();
        let mut turn = turn;
        let note = note(&turn);
        mend(api, &mut turn);
        progress.text = turn.text;
        if let Some(note) = note
            && started == 0
        {
            conversation.items.push(api.user(&note));
            return None;
        }
        conversation.items.extend(turn.items);
        let mut calls = turn.calls;
        if turn.stop == StopReason::Refusal {
            // A refused or filtered turn's calls never run (those started early, which say
            // they are safe to, have): each is answered, and the run ends.
            let refused: Vec<_> = calls.split_off(started.min(calls.len())).iter().map(not_run).collect();
            let mut cut_off = if refused.is_empty() { Vec::new() } else { api.results(&refused) };
            if calls.is_empty() {
                // No batch follows to carry them.
                conversation.items.append(&mut cut_off);
            }
            return Some(Taken { calls, cut_off, refused: true });
        }
        if turn.stop == StopReason::MaxTokens {
            let cut: Vec<_> = calls.split_off(started.min(calls.len())).iter().map(cut_off).collect();
            return Some(Taken {
                calls,
                cut_off: if cut.is_empty() { Vec::new() } else { api.results(&cut) },
                refused: false,
            });
        }
        if !last_answer {
            return Some(Taken { calls, cut_off: Vec::new(), refused: false });
        }
        if !calls.is_empty() {
            let denied: Vec<_> = calls.iter().map(round_limit_denial).collect();
            conversation.items.extend(api.results(&denied));
        }
        Some(Taken { calls: Vec::new(), cut_off: Vec::new(), refused: false })
    }
}

/// The result of a call the model was still writing when its turn was cut off at the output
/// limit, after other calls of the turn had started.
fn cut_off(call: &ToolCall) -> CallResult {
    let reason = "your reply was cut off at the output limit while you were writing this call, so it did not \
                  run; make it again with shorter arguments"
        .to_owned();
    let outcome = Err(crate::ToolError::Denied { tool: call.name.clone(), reason });
    CallResult { id: call.id.clone(), name: call.name.clone(), outcome }
}

/// The result of a call of a turn the provider marked refused or stopped by a content filter.
fn not_run(call: &ToolCall) -> CallResult {
    let reason = "not run: the turn that made this call was refused or stopped by a content filter".to_owned();
    let outcome = Err(crate::ToolError::Denied { tool: call.name.clone(), reason });
    CallResult { id: call.id.clone(), name: call.name.clone(), outcome }
}

/// The result of a call made after the round limit, when the model was offered no tools:
/// every call still gets one result.
fn round_limit_denial(call: &ToolCall) -> CallResult {
    let reason = "the round limit was reached; answer without tools".to_owned();
    let outcome = Err(crate::ToolError::Denied { tool: call.name.clone(), reason });
    CallResult { id: call.id.clone(), name: call.name.clone(), outcome }
}
