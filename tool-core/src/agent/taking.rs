//! Taking a model's turn into the run ([`Settings::take_turn`]), and what of it is not sent
//! back as it came. A turn cut off at the output limit
//! runs none of its calls, is not kept, and the model is told why. A call whose arguments
//! are not JSON still gets its error result, but the history keeps the arguments that ran
//! (repaired, or an empty object): a server that renders the history as a prompt cannot
//! render broken arguments (`llama.cpp` answers 500 to every later request).

use super::Conversation;
use super::Settings;
use super::events::Event;
use super::model::{Api, ModelTurn, StopReason};
use super::rounds::Progress;
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

impl Settings {
    /// Takes a model's turn into the run: its event, its items into the history, its text
    /// and stop reason as the run's last. Returns the calls to run; `None` for a turn the loop
    /// cannot act on (see above), which is not kept: the model is told why instead. In
    /// the last round the model was offered no tools; any calls it made anyway each get a
    /// denial as their result and none is returned.
    pub(super) fn take_turn<R>(
        &self,
        api: Api,
        conversation: &mut Conversation,
        progress: &mut Progress<R>,
        round: usize,
        turn: ModelTurn,
        last_answer: bool,
    ) -> Option<Vec<ToolCall>> {
        self.emit(Event::ModelResponse { round, stop: turn.stop.clone(), usage: turn.usage, calls: turn.calls.len() });
        progress.stop = turn.stop.clone();
        let mut turn = turn;
        let note = note(&turn);
        mend(api, &mut turn);
        progress.text = turn.text;
        if let Some(note) = note {
            conversation.items.push(api.user(&note));
            return None;
        }
        conversation.items.extend(turn.items);
        if !last_answer {
            return Some(turn.calls);
        }
        if !turn.calls.is_empty() {
            let denied: Vec<_> = turn.calls.iter().map(round_limit_denial).collect();
            conversation.items.extend(api.results(&denied));
        }
        Some(Vec::new())
    }
}

/// The result of a call made after the round limit, when the model was offered no tools:
/// every call still gets one result.
fn round_limit_denial(call: &ToolCall) -> CallResult {
    let reason = "the round limit was reached; answer without tools".to_owned();
    let outcome = Err(crate::ToolError::Denied { tool: call.name.clone(), reason });
    CallResult { id: call.id.clone(), name: call.name.clone(), outcome }
}
