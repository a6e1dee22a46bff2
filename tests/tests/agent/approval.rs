//! Approval fails closed, and is enforced by the runner: denied, edited, no approver, an
//! approver that fails or is too slow; authorization and `before_call` hooks block calls.

use std::time::Duration;

use tool_core::agent::{Agent, Api, ApprovalPolicy, Conversation, Hooks, ScriptedModel, Verdict};
use tool_core::provider::{Arguments, ToolCall};

use crate::fixture::{answer, calls, registry};

fn deleting() -> ScriptedModel {
    ScriptedModel::new(
        Api::OpenAiChat,
        [calls(&[("delete_file", r#"{"path": "/etc/passwd"}"#), ("nap", r#"{"ms": 0}"#)]), answer("ok")],
    )
}

async fn texts(agent: Agent) -> Vec<String> {
    let outcome = agent.run(&mut Conversation::new(Api::OpenAiChat), "go").await.unwrap();
    outcome.tool_runs.iter().map(|run| run.result.text()).collect()
}

#[tokio::test]
async fn without_an_approver_a_marked_tool_does_not_run() {
    let texts = texts(Agent::new(deleting(), registry())).await;
    assert_eq!(
        texts[0],
        "the call to tool \"delete_file\" was not allowed: it needs approval and no approver is configured; do not retry it unchanged"
    );
    assert_eq!(texts[1], "slept 0 ms", "unmarked tools run");
}

#[tokio::test]
async fn an_approver_denies_or_edits() {
    let deny = |call: &ToolCall| {
        let verdict =
            if call.name == "delete_file" { Verdict::Deny("not system files".to_owned()) } else { Verdict::Approve };
        async move { Ok(verdict) }
    };
    let texts_denied =
        texts(Agent::new(deleting(), registry()).approval(ApprovalPolicy::PerTool, deny, Duration::from_secs(1))).await;
    assert!(texts_denied[0].contains("was not allowed: not system files"), "{}", texts_denied[0]);

    let edit =
        |_: &ToolCall| async { Ok(Verdict::Edit(Arguments::Text(r#"{"path": "/tmp/scratch"}"#.to_owned().into()))) };
    let agent = Agent::new(deleting(), registry()).approval(ApprovalPolicy::PerTool, edit, Duration::from_secs(1));
    let outcome = agent.run(&mut Conversation::new(Api::OpenAiChat), "go").await.unwrap();
    assert_eq!(outcome.tool_runs[0].result.text(), "deleted /tmp/scratch");
    assert_eq!(outcome.tool_runs[0].call.arguments, Arguments::Text(r#"{"path": "/tmp/scratch"}"#.to_owned().into()));
}

#[tokio::test]
async fn a_failing_or_slow_approver_is_a_denial() {
    let failing = |_: &ToolCall| async { Err::<Verdict, _>("the approval service is down".to_owned()) };
    let texts_failed =
        texts(Agent::new(deleting(), registry()).approval(ApprovalPolicy::Always, failing, Duration::from_secs(1)))
            .await;
    assert!(
        texts_failed.iter().all(|t| t.contains("the approver failed: the approval service is down")),
        "{texts_failed:?}"
    );

    let slow = |_: &ToolCall| async {
        tokio::time::sleep(Duration::from_secs(30)).await;
        Ok(Verdict::Approve)
    };
    let policy = ApprovalPolicy::AllowList(vec!["nap".to_owned()]);
    let texts_slow = texts(Agent::new(deleting(), registry()).approval(policy, slow, Duration::from_millis(50))).await;
    assert!(texts_slow[0].contains("no approval came in time"), "{}", texts_slow[0]);
    assert_eq!(texts_slow[1], "slept 0 ms", "allow-listed tools are not asked about");
}

struct Tenancy;

impl Hooks for Tenancy {
    fn prepare(&self, call: &mut ToolCall) {
        if call.name == "nap" {
            call.arguments = Arguments::Text(r#"{"ms": 3}"#.to_owned().into());
        }
    }

    fn authorize(&self, call: &ToolCall) -> Result<(), String> {
        if call.name == "delete_file" { Err("this tenant may not delete".to_owned()) } else { Ok(()) }
    }
}

#[tokio::test]
async fn hooks_authorize_and_prepare() {
    let texts = texts(Agent::new(deleting(), registry()).hooks(Tenancy)).await;
    assert!(texts[0].contains("this tenant may not delete"), "{}", texts[0]);
    assert_eq!(texts[1], "slept 3 ms", "prepare rewrote the arguments before validation");
}

/// A `#[tools]` block's method: approval and a panic as for a free fn.
struct Files {
    root: &'static str,
}

#[tool_core::tools]
impl Files {
    /// Deletes a file under the root.
    #[tool_core::tool(name = "files_delete", requires_approval)]
    fn delete(&self, path: String) -> String {
        format!("deleted {}{path}", self.root)
    }

    /// Breaks.
    #[tool_core::tool(name = "files_break")]
    fn broken(&self) -> String {
        panic!("broken under {}", self.root)
    }
}

#[tokio::test]
async fn a_method_is_gated_like_a_fn() {
    let mut registry = tool_core::Registry::new();
    registry.add_all(Files { root: "/srv" }).unwrap();
    let model = || {
        ScriptedModel::new(
            Api::OpenAiChat,
            [calls(&[("files_delete", r#"{"path": "/a"}"#), ("files_break", "{}")]), answer("ok")],
        )
    };
    let unapproved = texts(Agent::new(model(), registry.clone())).await;
    assert!(unapproved[0].contains("it needs approval and no approver is configured"), "{}", unapproved[0]);
    assert!(unapproved[1].contains("broken under /srv"), "{}", unapproved[1]);

    let approve = |_: &ToolCall| async { Ok(Verdict::Approve) };
    let agent = Agent::new(model(), registry).approval(ApprovalPolicy::PerTool, approve, Duration::from_secs(1));
    assert_eq!(texts(agent).await[0], "deleted /srv/a");
}

/// Archives the ledger (needs the `ledger:write` scope)
#[tool_core::tool(scopes = ["ledger:write"])]
fn archive_ledger() -> &'static str {
    "archived"
}

/// The authorizer hook asks the same scope rule as the MCP server's OAuth layer, with the
/// caller's verified claims.
struct ScopeCheck {
    claims: tool_core::auth::Claims,
    registry: std::sync::Arc<tool_core::Registry>,
}

impl Hooks for ScopeCheck {
    fn authorize(&self, call: &ToolCall) -> Result<(), String> {
        match self.registry.get(&call.name) {
            Some(entry) => entry.permits(&self.claims).map_err(|refused| refused.to_string()),
            None => Ok(()),
        }
    }
}

#[tokio::test]
async fn an_authorizer_hook_checks_tool_scopes_with_the_callers_claims() {
    let mut registry = tool_core::Registry::new();
    registry.add(ArchiveLedgerTool).unwrap();
    let registry = std::sync::Arc::new(registry);
    for (scope, expected) in [
        (
            "ledger:read",
            "tool \"archive_ledger\" needs the scope `ledger:write`, which the access token does not grant",
        ),
        ("ledger:read ledger:write", "archived"),
    ] {
        let claims = match serde_json::json!({"sub": "ada", "scope": scope}) {
            serde_json::Value::Object(all) => tool_core::auth::Claims::from_json(all),
            _ => unreachable!(),
        };
        let model = ScriptedModel::new(Api::OpenAiChat, [calls(&[("archive_ledger", "{}")]), answer("ok")]);
        let agent = Agent::new(model, std::sync::Arc::clone(&registry))
            .hooks(ScopeCheck { claims, registry: std::sync::Arc::clone(&registry) });
        let outcome = agent.run(&mut Conversation::new(Api::OpenAiChat), "archive").await.unwrap();
        assert!(outcome.tool_runs[0].result.text().contains(expected), "{}", outcome.tool_runs[0].result.text());
    }
}

#[tokio::test]
async fn only_an_explicit_override_waives_a_tools_flag() {
    let refuse = |_: &ToolCall| async { Ok(Verdict::Deny("asked".to_owned())) };
    let waived =
        ApprovalPolicy::OverrideTools { required: vec!["nap".to_owned()], waived: vec!["delete_file".to_owned()] };
    let texts = texts(Agent::new(deleting(), registry()).approval(waived, refuse, Duration::from_secs(1))).await;
    assert_eq!(texts[0], "deleted /etc/passwd", "waived by name: it ran unasked");
    assert!(texts[1].contains("asked"), "required by name though unmarked: {}", texts[1]);
    for policy in [ApprovalPolicy::PerTool, ApprovalPolicy::AllowList(vec!["delete_file".to_owned()])] {
        assert!(policy.needs_approval("delete_file", true), "{policy:?} keeps the tool's flag");
    }
}
