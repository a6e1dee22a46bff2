//! What each protocol revision may carry, for the server's answers to a client that
//! negotiated an earlier one: fields a revision does not define are left out, so a strict
//! client of 2024-11-05 reads only what it knows (`tests/tests/mcp/revisions.rs` checks every
//! message against each revision's official schema). A revision not known (none negotiated
//! yet) is taken as the newest.

use rmcp::model::{
    CallToolResult, Icon, InitializeResult, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, ProtocolVersion,
};

/// Whether `revision` comes before `than`: dates compare as text.
pub(in crate::mcp) fn before(revision: Option<&ProtocolVersion>, than: &ProtocolVersion) -> bool {
    revision.is_some_and(|revision| revision.as_str() < than.as_str())
}

/// Tools as `revision` defines them: `annotations` from 2025-03-26; `title` and
/// `outputSchema` from 2025-06-18; `icons` from 2025-11-25.
pub(in crate::mcp) fn tools(result: &mut ListToolsResult, revision: Option<&ProtocolVersion>) {
    let (v03, v06, v11) = eras(revision);
    for tool in &mut result.tools {
        if v03 {
            tool.annotations = None;
        }
        if v06 {
            (tool.title, tool.output_schema) = (None, None);
            if let Some(annotations) = &mut tool.annotations {
                annotations.title = annotations.title.take().filter(|_| !v03);
            }
        }
        if v11 {
            tool.icons = None;
        }
    }
}

/// A call's result as `revision` defines it: `structuredContent` from 2025-06-18.
pub(in crate::mcp) fn call_result(result: &mut CallToolResult, revision: Option<&ProtocolVersion>) {
    if before(revision, &ProtocolVersion::V_2025_06_18) {
        result.structured_content = None;
    }
}

/// Prompts as `revision` defines them: `title` (theirs and their arguments') from
/// 2025-06-18, `icons` from 2025-11-25.
pub(in crate::mcp) fn prompts(result: &mut ListPromptsResult, revision: Option<&ProtocolVersion>) {
    let (_, v06, v11) = eras(revision);
    for prompt in &mut result.prompts {
        shown(&mut prompt.title, &mut prompt.icons, v06, v11);
        for argument in prompt.arguments.iter_mut().flatten().filter(|_| v06) {
            argument.title = None;
        }
    }
}

/// Resources and templates as `revision` defines them: `title` from 2025-06-18, `icons`
/// from 2025-11-25.
pub(in crate::mcp) fn resources(result: &mut ListResourcesResult, revision: Option<&ProtocolVersion>) {
    let (_, v06, v11) = eras(revision);
    for resource in &mut result.resources {
        shown(&mut resource.title, &mut resource.icons, v06, v11);
    }
}

/// As [`resources`], for templates.
pub(in crate::mcp) fn templates(result: &mut ListResourceTemplatesResult, revision: Option<&ProtocolVersion>) {
    let (_, v06, v11) = eras(revision);
    for template in &mut result.resource_templates {
        shown(&mut template.title, &mut template.icons, v06, v11);
    }
}

/// `initialize`'s answer as its negotiated revision defines it: the `completions`
/// capability from 2025-03-26; `serverInfo.title` from 2025-06-18; its description, website
/// and icons from 2025-11-25; `extensions` from 2026-07-28, but in 2025-11-25 the tasks
/// extension's entry stays, for `tasks/era.rs` to state as that revision's `tasks`.
pub(in crate::mcp) fn initialize(mut result: InitializeResult) -> InitializeResult {
    let (v03, v06, v11) = eras(Some(&result.protocol_version));
    if v03 {
        result.capabilities.completions = None;
    }
    let info = &mut result.server_info;
    if v06 {
        info.title = None;
    }
    if v11 {
        (info.description, info.website_url, info.icons) = (None, None, None);
        result.capabilities.extensions = None;
    }
    result
}

/// How a prompt, resource or template is shown: its `title` only from 2025-06-18
/// (`before_06`), its `icons` only from 2025-11-25 (`before_11`).
fn shown(title: &mut Option<String>, icons: &mut Option<Vec<Icon>>, before_06: bool, before_11: bool) {
    if before_06 {
        *title = None;
    }
    if before_11 {
        *icons = None;
    }
}

/// Whether `revision` is before 2025-03-26, 2025-06-18 and 2025-11-25.
fn eras(revision: Option<&ProtocolVersion>) -> (bool, bool, bool) {
    (
        before(revision, &ProtocolVersion::V_2025_03_26),
        before(revision, &ProtocolVersion::V_2025_06_18),
        before(revision, &ProtocolVersion::V_2025_11_25),
    )
}
