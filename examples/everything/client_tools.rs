//! The tools offered only to clients that can use them (roots, form and URL elicitation,
//! sampling), and a task.

use std::collections::HashSet;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use serde_json::{Value, json};
use tool_core::context::{Elicitation, ElicitationAnswer, Role, SamplingRequest, UrlElicitation};
use tool_core::registry::Entry;
use tool_core::{Content, ToolArgs, ToolContext, tool, tools};

use crate::sessions::{random_below, session_of};

/// The URL-elicitation prerequisites issued and not yet satisfied, by session, URL and id.
#[derive(Default)]
pub struct ClientTools {
    issued: Mutex<HashSet<String>>,
}

/// Whether `caller` may see `tool`: each of these needs a capability the client declared.
pub fn offered(tool: &Entry, caller: &ToolContext) -> bool {
    let can = caller.client().map(tool_core::context::Client::capabilities).unwrap_or_default();
    match tool.name() {
        "get-roots-list" => can.roots,
        "trigger-elicitation-request" => can.elicitation,
        "trigger-url-elicitation" => can.url_elicitation,
        "trigger-sampling-request" => can.sampling,
        _ => true,
    }
}

#[derive(ToolArgs)]
#[serde(rename_all = "camelCase")]
pub struct UrlArgs {
    /// The URL the user should open
    #[param(format = "uri")]
    url: String,
    /// Message shown to the user before opening the URL
    #[param(default = "Please open the link to complete this action.")]
    message: String,
    /// Optional explicit elicitation ID. Defaults to a random UUID.
    elicitation_id: Option<String>,
    /// Controls which elicitation mechanism is used. When false (default), sends an elicitation/create request (request path). When true, throws a UrlElicitationRequiredError (MCP error code -32042) so the client handles the URL elicitation via the error path rather than waiting for a response. To clear the error, satisfy the prerequisite and retry this call with the same arguments; the retry ignores errorPath and proceeds, so the client does not loop on the same error.
    #[param(default = false)]
    error_path: bool,
}

#[tools]
impl ClientTools {
    /// Lists the current MCP roots provided by the client. Demonstrates the roots protocol capability even though this server doesn't access files.
    #[tool(
        name = "get-roots-list",
        title = "Get Roots List Tool",
        read_only,
        destructive = false,
        idempotent,
        open_world = false
    )]
    async fn get_roots_list(&self, ctx: &ToolContext) -> Result<String, String> {
        let roots = ctx.roots().await.map_err(|error| error.to_string())?;
        if roots.is_empty() {
            return Ok("The client supports roots but no roots are currently configured.\n\nThis could mean:\n1. The client hasn't provided any roots yet\n2. The client provided an empty roots list\n3. The roots configuration is still being loaded".to_owned());
        }
        let listed: Vec<String> = roots
            .iter()
            .enumerate()
            .map(|(index, root)| {
                format!("{}. {}\n   URI: {}", index + 1, root.name.as_deref().unwrap_or("Unnamed Root"), root.uri)
            })
            .collect();
        Ok(format!(
            "Current MCP Roots ({} total):\n\n{}\n\nNote: This server demonstrates the roots protocol capability but doesn't actually access files. The roots are provided by the MCP client and can be used by servers that need file system access.",
            roots.len(),
            listed.join("\n\n")
        ))
    }

    /// Trigger a Request from the Server for User Elicitation
    #[tool(
        name = "trigger-elicitation-request",
        title = "Trigger Elicitation Request Tool",
        read_only = false,
        destructive = false,
        idempotent = false,
        open_world = false
    )]
    async fn trigger_elicitation_request(&self, ctx: &ToolContext) -> Result<Vec<Content>, String> {
        let answer = ctx
            .elicit_with_schema(
                "Please provide inputs for the following fields:",
                serde_json::from_str(FORM).unwrap_or_default(),
            )
            .await
            .map_err(|error| error.to_string())?;
        let mut content = vec![];
        match &answer {
            ElicitationAnswer::Accept(given) => {
                content.push(Content::text("✅ User provided the requested information!"));
                let lines: Vec<String> = [
                    ("name", "Name"),
                    ("check", "Agreed to terms"),
                    ("color", "Favorite Color"),
                    ("email", "Email"),
                    ("homepage", "Homepage"),
                    ("birthdate", "Birthdate"),
                    ("integer", "Favorite Integer"),
                    ("number", "Favorite Number"),
                    ("petType", "Pet Type"),
                ]
                .iter()
                .filter_map(|(key, label)| Some(format!("- {label}: {}", shown(given.get(*key)?)?)))
                .collect();
                content.push(Content::text(format!("User inputs:\n{}", lines.join("\n"))));
            }
            ElicitationAnswer::Decline => {
                content.push(Content::text("❌ User declined to provide the requested information."));
            }
            ElicitationAnswer::Cancel => content.push(Content::text("⚠️ User cancelled the elicitation dialog.")),
            _ => {}
        }
        content.push(Content::text(format!("\nRaw result: {}", raw(&answer))));
        Ok(content)
    }

    /// Trigger a URL elicitation so the client can direct the user to a browser flow. Supports two mechanisms: the request path (elicitation/create, default) which awaits the user's response, and the error path (UrlElicitationRequiredError, -32042) which signals the client to handle URL elicitation via the error response. Set errorPath=true to use the error path.
    #[tool(
        name = "trigger-url-elicitation",
        title = "Trigger URL Elicitation Tool",
        read_only = false,
        destructive = false,
        idempotent = false,
        open_world
    )]
    async fn trigger_url_elicitation(&self, ctx: &ToolContext, args: UrlArgs) -> Result<Vec<Content>, String> {
        let id = args.elicitation_id.clone().unwrap_or_else(random_id);
        // Keyed on what a retry resends, so the retry of a satisfied prerequisite goes on.
        let key = format!("{}\0{}\0{}", session_of(ctx), args.url, args.elicitation_id.as_deref().unwrap_or(""));
        if args.error_path && self.issued.lock().unwrap_or_else(PoisonError::into_inner).insert(key.clone()) {
            let message = "Open this link to satisfy the prerequisite, then retry the request.";
            return Err(ctx.url_elicitation_required([UrlElicitation::new(
                message,
                "https://modelcontextprotocol.io",
                random_id(),
            )]));
        }
        self.issued.lock().unwrap_or_else(PoisonError::into_inner).remove(&key);
        let answer = ctx
            .elicit_url(UrlElicitation::new(&args.message, &args.url, &id))
            .await
            .map_err(|error| error.to_string())?;
        let said = match answer {
            Elicitation::Accepted(()) => {
                format!("✅ User completed the URL elicitation flow.\nElicitation ID: {id}\nURL: {}", args.url)
            }
            Elicitation::Declined => format!("❌ User declined to open the URL (Elicitation ID: {id})."),
            Elicitation::Cancelled => format!("⚠️ User cancelled the URL elicitation (Elicitation ID: {id})."),
        };
        let action = match answer {
            Elicitation::Accepted(()) => "accept",
            Elicitation::Declined => "decline",
            Elicitation::Cancelled => "cancel",
        };
        Ok(vec![Content::text(said), Content::text(format!("\nRaw result: {}", pretty(&json!({"action": action}))))])
    }

    /// Trigger a Request from the Server for LLM Sampling
    ///
    /// # Arguments
    /// * `prompt` - The prompt to send to the LLM
    /// * `max_tokens` - Maximum number of tokens to generate
    #[tool(
        name = "trigger-sampling-request",
        title = "Trigger Sampling Request Tool",
        read_only = false,
        destructive = false,
        idempotent = false,
        open_world
    )]
    async fn trigger_sampling_request(
        &self,
        ctx: &ToolContext,
        prompt: String,
        #[serde(rename = "maxTokens")]
        #[param(minimum = 1, default = 100)]
        max_tokens: u32,
    ) -> Result<String, String> {
        let request = SamplingRequest::new(format!("Resource trigger-sampling-request context: {prompt}"), max_tokens)
            .with_system_prompt("You are a helpful test server.")
            .with_temperature(0.7);
        let answer = ctx.sample(request).await.map_err(|error| error.to_string())?;
        let role = match answer.role {
            Role::User => "user",
            Role::Assistant => "assistant",
        };
        let mut result = json!({"model": answer.model});
        if let Some(reason) = answer.stop_reason {
            result["stopReason"] = reason.into();
        }
        result["role"] = role.into();
        result["content"] = content_json(&answer.content);
        Ok(format!("LLM sampling result: \n{}", pretty(&result)))
    }

    /// Simulates a deep research operation that gathers, analyzes, and synthesizes information. Demonstrates MCP task-based operations with progress through multiple stages. If 'ambiguous' is true and client supports elicitation, sends an elicitation request for clarification.
    ///
    /// # Arguments
    /// * `topic` - The research topic to investigate
    /// * `ambiguous` - Simulate an ambiguous query that requires clarification (triggers input_required status)
    #[tool(
        name = "simulate-research-query",
        title = "Simulate Research Query",
        task = "required",
        read_only = false,
        destructive = false,
        idempotent = false,
        open_world = false
    )]
    async fn simulate_research_query(
        &self,
        ctx: &ToolContext,
        topic: String,
        #[param(default = false)] ambiguous: bool,
    ) -> String {
        const STAGES: [&str; 4] =
            ["Gathering sources", "Analyzing content", "Synthesizing findings", "Generating report"];
        let mut clarification = None;
        for (index, stage) in (0_u8..).zip(STAGES) {
            ctx.report_progress(f64::from(index), Some(4.0), Some(&format!("{stage}...")));
            let can_ask = ctx.client().is_some_and(|client| client.capabilities().elicitation);
            if index == 2 && ambiguous && can_ask {
                let message = format!(
                    "The research query \"{topic}\" could have multiple interpretations. Please clarify what you're looking for:"
                );
                let form = json!({"type": "object", "properties": {"interpretation": {
                    "type": "string", "title": "Clarification", "description": "Which interpretation of the topic do you mean?",
                    "oneOf": interpretations(&topic)}}, "required": ["interpretation"]});
                clarification = Some(match ctx.elicit_with_schema(message, form).await {
                    Ok(ElicitationAnswer::Accept(given)) => {
                        given["interpretation"].as_str().unwrap_or("User accepted without selection").to_owned()
                    }
                    Ok(ElicitationAnswer::Decline) => "User declined - using default interpretation".to_owned(),
                    Ok(_) => "User cancelled - using default interpretation".to_owned(),
                    Err(_) => "technical (default - elicitation unavailable)".to_owned(),
                });
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        report(&topic, clarification.as_deref(), &STAGES)
    }
}

fn report(topic: &str, clarification: Option<&str>, stages: &[&str]) -> String {
    let titled = clarification.map_or_else(|| topic.to_owned(), |c| format!("{topic} ({c})"));
    let stages: Vec<String> = stages.iter().enumerate().map(|(i, s)| format!("- Stage {}: {s} ✓", i + 1)).collect();
    let clarified = clarification.map(|c| format!("- **Clarification**: {c}")).unwrap_or_default();
    let asked = if clarification.is_some() { "`input_required` → `working` → " } else { "" };
    let flow = clarification.map_or_else(String::new, |c| {
        let outcome = if c.contains("unavailable") {
            "**Note:** Elicitation failed and a default interpretation was used.".to_owned()
        } else {
            format!("After receiving clarification (\"{c}\"), the task resumed processing and completed.")
        };
        format!("**Elicitation Flow:**\nWhen the query was ambiguous, the server sent an `elicitation/create` request\nto the client. The task status changed to `input_required` while awaiting user input.\n{outcome}\n")
    });
    format!(
        "# Research Report: {titled}\n\n## Research Parameters\n- **Topic**: {topic}\n{clarified}\n\n## Synthesis\nThis research query was processed through {} stages:\n{}\n\n---\n\n{ABOUT}\n\n**Task Lifecycle Demonstrated:**\n1. `tools/call` with `task` parameter → Server returns `CreateTaskResult` (not the final result)\n2. Client polls `tasks/get` → Server returns current status and `statusMessage`\n3. Status progressed: `working` → {asked}`completed`\n4. Client calls `tasks/result` → Server returns this final result\n\n{flow}\n{CONCEPTS}",
        stages.len(),
        stages.join("\n")
    )
}

const ABOUT: &str = "## About This Demo (SEP-1686: Tasks)\n\nThis tool demonstrates MCP's task-based execution pattern for long-running operations:";

const CONCEPTS: &str = "**Key Concepts:**\n- Tasks enable \"call now, fetch later\" patterns\n- `statusMessage` provides human-readable progress updates\n- Tasks have TTL (time-to-live) for automatic cleanup\n- `pollInterval` suggests how often to check status\n- Elicitation requests use `relatedTask` to queue via tasks/result (works on all transports)\n\n*This is a simulated research report from the Everything MCP Server.*\n";

fn interpretations(topic: &str) -> Value {
    if topic.to_lowercase().contains("python") {
        json!([{"const": "programming", "title": "Python programming language"}, {"const": "snake", "title": "Python snake species"}, {"const": "comedy", "title": "Monty Python comedy group"}])
    } else {
        json!([{"const": "technical", "title": "Technical/scientific perspective"}, {"const": "historical", "title": "Historical perspective"}, {"const": "current", "title": "Current events/news perspective"}])
    }
}

/// A form value as the reference prints it: strings bare, anything else as JSON; nothing for
/// an empty string or `false`-y text, as its `if (value)` skips them.
fn shown(value: &Value) -> Option<String> {
    match value {
        Value::String(text) if text.is_empty() => None,
        Value::String(text) => Some(text.clone()),
        other => Some(other.to_string()),
    }
}

fn raw(answer: &ElicitationAnswer) -> String {
    pretty(&match answer {
        ElicitationAnswer::Accept(content) => json!({"action": "accept", "content": content}),
        ElicitationAnswer::Decline => json!({"action": "decline"}),
        _ => json!({"action": "cancel"}),
    })
}

fn content_json(content: &Content) -> Value {
    match content.as_text() {
        Some(text) => json!({"type": "text", "text": text}),
        None => json!({"type": "text", "text": content.describe()}),
    }
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

fn random_id() -> String {
    format!("{:016x}{:016x}", random_below(usize::MAX), random_below(usize::MAX))
}

/// The reference's form: every kind of field MCP's forms have.
const FORM: &str = include_str!("form.json");
