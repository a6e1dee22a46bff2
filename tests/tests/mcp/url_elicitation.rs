//! URL-mode elicitation (2025-11-25): a tool asks the user to visit a URL and says when the
//! interaction is complete, or ends its call with `-32042` naming the URLs; a client without
//! URL mode is told it is unsupported, or reads the tool's text.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, CustomNotification, ElicitRequestParams, ElicitResult,
    ElicitationAction, ElicitationCapability, FormElicitationCapability, Implementation, ProtocolVersion,
    UrlElicitationCapability,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, NotificationContext, RequestContext, RunningService};
use rmcp::{ClientHandler, ErrorData, RoleClient, ServiceExt as _};
use serde_json::{Value, json};
use tool_core::context::{Elicitation, UrlElicitation};
use tool_core::mcp::McpServer;
use tool_core::{Registry, ToolContext, tool};

use crate::fixture::{eventually, text};

/// Signs the user in at the bank
#[tool]
async fn sign_in(ctx: &ToolContext) -> Result<String, String> {
    let request = UrlElicitation::new("Sign in to your bank", "https://bank.example/auth?s=1", "el-1");
    Ok(match ctx.elicit_url(request).await? {
        Elicitation::Accepted(()) => {
            ctx.url_elicitation_complete("el-1");
            "signed in".to_owned()
        }
        Elicitation::Declined | Elicitation::Cancelled => "not signed in".to_owned(),
    })
}

/// Pays, once the user has authorised it
#[tool]
fn pay(ctx: &ToolContext) -> Result<String, String> {
    Err(ctx.url_elicitation_required([UrlElicitation::new(
        "Authorise the payment",
        "https://bank.example/pay?s=2",
        "el-2",
    )]))
}

/// A client that follows URLs (or, without `url`, shows forms only), and records what it
/// was asked and told.
#[derive(Clone, Default)]
struct Browser {
    url_mode: bool,
    version: Option<ProtocolVersion>,
    asked: Arc<Mutex<Vec<Value>>>,
    completed: Arc<Mutex<Vec<Value>>>,
}

impl ClientHandler for Browser {
    fn get_info(&self) -> ClientConfig {
        let mut elicitation = ElicitationCapability::new().with_form(FormElicitationCapability::default());
        if self.url_mode {
            elicitation = elicitation.with_url(UrlElicitationCapability::new());
        }
        let mut capabilities = ClientCapabilities::default();
        capabilities.elicitation = Some(elicitation);
        ClientConfig::new(capabilities, Implementation::new("browser", "1.0.0"))
            .with_protocol_version(self.version.clone().unwrap_or(ProtocolVersion::V_2025_11_25))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.asked.lock().unwrap().push(serde_json::to_value(&request).unwrap());
        Ok(ElicitResult::new(ElicitationAction::Accept))
    }

    async fn on_custom_notification(&self, notification: CustomNotification, _: NotificationContext<RoleClient>) {
        if notification.method == "notifications/elicitation/complete" {
            self.completed.lock().unwrap().push(notification.params.unwrap_or_default());
        }
    }
}

async fn connect(browser: Browser) -> RunningService<RoleClient, Browser> {
    let mut registry = Registry::new();
    registry.add(SignInTool).unwrap().add(PayTool).unwrap();
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(tool_core::mcp::serve_io(McpServer::new(registry), read, write));
    if browser.version == Some(ProtocolVersion::V_2026_07_28) {
        let lifecycle = ClientLifecycleMode::Discover { preferred_versions: vec![ProtocolVersion::V_2026_07_28] };
        browser.serve_with_lifecycle(client_end, lifecycle).await.expect("discovers")
    } else {
        browser.serve(client_end).await.expect("initializes")
    }
}

#[tokio::test]
async fn a_tool_sends_the_user_to_a_url_and_says_when_it_is_done() {
    let browser = Browser { url_mode: true, ..Browser::default() };
    let connection = connect(browser.clone()).await;
    let result = connection.call_tool(CallToolRequestParams::new("sign_in")).await.unwrap();
    assert_eq!(text(&result), "signed in");
    assert_eq!(
        browser.asked.lock().unwrap()[0],
        json!({"mode": "url", "message": "Sign in to your bank", "url": "https://bank.example/auth?s=1", "elicitationId": "el-1"})
    );
    let completed = || browser.completed.lock().unwrap().clone();
    assert!(eventually(Duration::from_secs(10), || completed() == [json!({"elicitationId": "el-1"})]).await);

    // A call that cannot go on is the protocol's -32042, naming the URL.
    let refused = connection.call_tool(CallToolRequestParams::new("pay")).await.unwrap_err();
    let rmcp::service::ServiceError::McpError(error) = refused else { panic!("{refused:?}") };
    assert_eq!(error.code.0, -32042);
    assert_eq!(
        error.data.unwrap()["elicitations"],
        json!([{"mode": "url", "message": "Authorise the payment", "url": "https://bank.example/pay?s=2", "elicitationId": "el-2"}])
    );
    connection.cancel().await.unwrap();
}

#[tokio::test]
async fn a_client_without_url_mode_is_never_sent_to_one() {
    let browser = Browser::default();
    let connection = connect(browser.clone()).await;
    let result = connection.call_tool(CallToolRequestParams::new("sign_in")).await.unwrap();
    assert_eq!(text(&result), "tool \"sign_in\" failed: the caller does not support url elicitation");
    let result = connection.call_tool(CallToolRequestParams::new("pay")).await.unwrap();
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        text(&result),
        "tool \"pay\" failed: the user must first complete: Authorise the payment (https://bank.example/pay?s=2)"
    );
    assert!(browser.asked.lock().unwrap().is_empty());
    connection.cancel().await.unwrap();
}

#[tokio::test]
async fn on_2026_07_28_the_url_is_an_input_round() {
    let browser = Browser { url_mode: true, version: Some(ProtocolVersion::V_2026_07_28), ..Browser::default() };
    let connection = connect(browser.clone()).await;
    let result = connection.call_tool(CallToolRequestParams::new("sign_in")).await.unwrap();
    assert_eq!(text(&result), "signed in");
    let asked = browser.asked.lock().unwrap().clone();
    assert_eq!(
        (asked[0]["mode"].clone(), asked[0]["url"].clone()),
        (json!("url"), json!("https://bank.example/auth?s=1"))
    );
    connection.cancel().await.unwrap();
}
