//! Long-running tools as MCP tasks (the `io.modelcontextprotocol/tasks` extension,
//! SEP-2663): a call to a tool marked `#[tool(task = "optional")]` (or `"required"`, or
//! [`DynamicTool::with_task_support`](crate::DynamicTool::with_task_support)) from a client
//! that declared the extension is answered at once with a task; the tool runs in the
//! background with the same [`ToolContext`](crate::ToolContext) powers, and the client
//! follows it with `tasks/get`, answers its questions with `tasks/update` and stops it with
//! `tasks/cancel`.
//!
//! What the tool does maps onto the task:
//! - progress and log messages become the task's `statusMessage` (the request that started
//!   it has been answered, so there is no stream to send them on);
//! - sampling and elicitation become the task's `inputRequests` (status `input_required`)
//!   until a `tasks/update` answers them;
//! - `tasks/cancel` cancels the call's [`CancellationToken`](crate::context::CancellationToken);
//!   a tool that then returns an error (it stopped for it) ends the task `cancelled`, one
//!   that returns a result ends it `completed` (the extension makes cancellation
//!   cooperative);
//! - the result (an `isError` one too) ends it `completed`.
//!
//! A task started with a verified OAuth token (feature `oauth`) belongs to that token's issuer
//! and subject: `tasks/get`, `tasks/update` and `tasks/cancel` from any other caller read it as
//! an unknown task, so a leaked id reveals nothing.
//!
//! A 2025-11-25 client that did not declare the extension gets that revision's tasks from
//! the same runs and store (`era.rs`, `v2025.rs`): asked for per call with `params.task`,
//! read with `tasks/result`, listed with `tasks/list`; the tool's questions go to the client
//! tied to the task, and the server's own run as the client's tasks when it can (`asked.rs`).
//!
//! The tasks themselves live in the crate's [`TaskStore`](crate::tasks::TaskStore), shared
//! with the A2A server.

pub(crate) mod asked;
pub(crate) mod era;
pub(crate) mod run;
pub(crate) mod serve;
pub(crate) mod v2025;

pub(crate) use serve::Tasks;
