//! What of a model's turn is not sent back as it came. A turn cut off at the output limit
//! runs none of its calls, is not kept, and the model is told why. A call whose arguments
//! are not JSON still gets its error result, but the history keeps the arguments that ran
//! (repaired, or an empty object): a server that renders the history as a prompt cannot
//! render broken arguments (`llama.cpp` answers 500 to every later request).

use super::model::{Api, ModelTurn, StopReason};
use crate::provider::{Arguments, ArgumentsMode, parse_arguments};

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
