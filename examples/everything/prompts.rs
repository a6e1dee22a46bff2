//! The prompts: none, one and two arguments, arguments completed (the second from the first),
//! and an embedded resource.

use tool_core::Content;
use tool_core::mcp::{PromptMessage, Prompts, prompt};

use crate::resources::{self, Kind};

/// A prompt with no arguments
#[prompt(name = "simple-prompt", title = "Simple Prompt")]
fn simple() -> &'static str {
    "This is a simple prompt without arguments."
}

/// A prompt with two arguments, one required and one optional
///
/// # Arguments
/// * `city` - Name of the city
/// * `state` - Name of the state
#[prompt(name = "args-prompt", title = "Arguments Prompt")]
fn args(city: String, state: Option<String>) -> String {
    match state {
        Some(state) => format!("What's weather in {city}, {state}?"),
        None => format!("What's weather in {city}?"),
    }
}

/// First argument choice narrows values for second argument.
///
/// # Arguments
/// * `department` - Choose the department.
/// * `name` - Choose a team member to lead the selected department.
#[prompt(name = "completable-prompt", title = "Team Management")]
fn completable(department: String, name: String) -> String {
    format!("Please promote {name} to the head of the {department} team.")
}

/// A prompt that includes an embedded resource reference
///
/// # Arguments
/// * `resource_type` - Type of resource to fetch
/// * `resource_id` - ID of the text resource to fetch
#[prompt(name = "resource-prompt", title = "Resource Prompt")]
fn resource(
    #[serde(rename = "resourceType")] resource_type: String,
    #[serde(rename = "resourceId")] resource_id: String,
) -> Result<Vec<PromptMessage>, String> {
    let kind = match resource_type.as_str() {
        "Text" => Kind::Text,
        "Blob" => Kind::Blob,
        other => return Err(format!("Invalid resourceType: {other}. Must be Text or Blob.")),
    };
    let id = resource_id.parse::<u64>().ok().filter(|id| *id > 0);
    let id = id.ok_or_else(|| format!("Invalid resourceId: {resource_id}. Must be a finite positive integer."))?;
    Ok(vec![
        PromptMessage::user(Content::text(format!(
            "This prompt includes the {resource_type} resource with id: {id}. Please analyze the following resource:"
        ))),
        PromptMessage::user(resources::dynamic(kind, id)),
    ])
}

pub fn prompts() -> Prompts {
    let mut prompts = Prompts::new();
    prompts
        .add(SimplePrompt)
        .and_then(|p| p.add(ArgsPrompt))
        .and_then(|p| p.add(CompletablePrompt))
        .and_then(|p| p.add(ResourcePrompt))
        .expect("names are unique");
    prompts.complete("completable-prompt", "department", |typed, _| {
        starting(&["Engineering", "Sales", "Marketing", "Support"], typed)
    });
    prompts.complete("completable-prompt", "name", |typed, given| {
        let team: &[&str] = match given.get("department").and_then(|department| department.as_str()) {
            Some("Engineering") => &["Alice", "Bob", "Charlie"],
            Some("Sales") => &["David", "Eve", "Frank"],
            Some("Marketing") => &["Grace", "Henry", "Iris"],
            Some("Support") => &["John", "Kim", "Lee"],
            _ => &[],
        };
        starting(team, typed)
    });
    prompts.complete("resource-prompt", "resourceType", |typed, _| starting(&["Text", "Blob"], typed));
    prompts.complete("resource-prompt", "resourceId", |typed, _| resources::positive_integer(typed));
    prompts
}

fn starting(values: &[&str], typed: &str) -> Vec<String> {
    values.iter().filter(|value| value.starts_with(typed)).map(|value| (*value).to_owned()).collect()
}
