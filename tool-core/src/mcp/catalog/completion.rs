//! `completion/complete`: the values offered for a prompt's argument or a resource
//! template's variable, from the completer the server's author gave, else from the
//! argument's schema (an enum's values, `true`/`false` for a boolean) that start with what
//! was typed.

use std::collections::HashMap;
use std::sync::Arc;

use rmcp::model::CompletionInfo;
use serde_json::{Map, Value};

/// Offers values for the text typed so far, given the arguments already chosen.
pub(in crate::mcp) type Completer = Arc<dyn Fn(&str, &Map<String, Value>) -> Vec<String> + Send + Sync>;

/// The completers of one collection, by (prompt or template, argument).
#[derive(Clone, Default)]
pub(in crate::mcp) struct Completers(HashMap<(String, String), Completer>);

impl Completers {
    pub(in crate::mcp) fn insert(&mut self, owner: &str, argument: &str, completer: Completer) {
        self.0.insert((owner.to_owned(), argument.to_owned()), completer);
    }

    pub(in crate::mcp) fn get(&self, owner: &str, argument: &str) -> Option<&Completer> {
        self.0.get(&(owner.to_owned(), argument.to_owned()))
    }
}

/// The completion of `argument` typed as `value`: the completer's values, else those of the
/// argument's schema in `parameters` that start with `value`; at most the 100 the protocol
/// allows, with the total and whether more were left out.
pub(in crate::mcp) fn complete(
    completer: Option<&Completer>,
    parameters: &str,
    argument: &str,
    value: &str,
    context: &Map<String, Value>,
) -> CompletionInfo {
    let values = match completer {
        Some(completer) => completer(value, context),
        None => schema_values(parameters, argument).into_iter().filter(|offered| offered.starts_with(value)).collect(),
    };
    bounded(values)
}

/// What the schema of `argument` allows, when it lists it: an enum's string values, or
/// `true` and `false`.
fn schema_values(parameters: &str, argument: &str) -> Vec<String> {
    let Ok(schema) = serde_json::from_str::<Value>(parameters) else { return Vec::new() };
    let property = &schema["properties"][argument];
    if let Some(values) = property["enum"].as_array() {
        return values.iter().filter_map(Value::as_str).map(ToOwned::to_owned).collect();
    }
    if property["type"] == "boolean" {
        return vec!["true".to_owned(), "false".to_owned()];
    }
    Vec::new()
}

fn bounded(values: Vec<String>) -> CompletionInfo {
    let total = values.len();
    let mut values = values;
    values.truncate(CompletionInfo::MAX_VALUES);
    let mut info = CompletionInfo::default();
    info.has_more = Some(total > values.len());
    info.total = u32::try_from(total).ok();
    info.values = values;
    info
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_enum_is_completed_from_its_values_and_a_list_is_bounded() {
        let parameters = r#"{"type":"object","properties":{"language":{"type":"string","enum":["rust","ruby","go"]},"strict":{"type":"boolean"}}}"#;
        let none = Map::new();
        let info = complete(None, parameters, "language", "ru", &none);
        assert_eq!(info.values, ["rust", "ruby"]);
        assert_eq!((info.total, info.has_more), (Some(2), Some(false)));
        assert_eq!(complete(None, parameters, "strict", "", &none).values, ["true", "false"]);
        assert!(complete(None, parameters, "missing", "", &none).values.is_empty());
        let many: Completer = Arc::new(|typed, _| (0..250).map(|n| format!("{typed}{n}")).collect());
        let info = complete(Some(&many), parameters, "language", "x", &none);
        assert_eq!((info.values.len(), info.total, info.has_more), (100, Some(250), Some(true)));
        assert_eq!(info.values[0], "x0");
    }
}
