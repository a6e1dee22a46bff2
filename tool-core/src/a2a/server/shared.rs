//! What every request and run of a server shares.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::auth::Auth;
use super::executor::Executor;
use super::run::Run;
use crate::a2a::AgentSkill;
use crate::tasks::{TaskSettings, TaskStore};

/// What every request and run of a server shares.
pub(super) struct Shared {
    pub(super) name: String,
    pub(super) description: String,
    pub(super) version: String,
    pub(super) skills: Vec<AgentSkill>,
    pub(super) url: Option<String>,
    pub(super) auth: Auth,
    pub(super) executor: Box<dyn Executor>,
    pub(super) store: Arc<dyn TaskStore>,
    pub(super) settings: TaskSettings,
    /// The tasks running on this replica.
    pub(super) runs: Mutex<HashMap<String, Arc<Run>>>,
    /// How push notifications are taken and delivered.
    pub(super) push: super::push_settings::PushSettings,
}
