//! Tools in a crate of their own, in two modules and two groups, as a workspace's tool crate
//! would be: `tool-tests` collects them by crate, module and group.
#![forbid(unsafe_code)]

tool_core::tool_crate!();

/// Tools anyone may call.
pub mod public {
    /// Arguments of [`shout`].
    #[derive(Debug, tool_core::ToolArgs)]
    pub struct ShoutArgs {
        /// What to shout.
        #[param(min_length = 1)]
        pub text: String,
    }

    /// Shouts the text.
    #[tool_core::tool(group = "public")]
    #[must_use]
    pub fn shout(args: ShoutArgs) -> String {
        args.text.to_uppercase()
    }

    /// The time of day, as the fixture knows it.
    #[tool_core::tool(group = "public")]
    #[must_use]
    pub fn fixture_clock() -> String {
        "noon".to_owned()
    }
}

/// Tools for operators only.
pub mod admin {
    /// Restarts nothing, and says so.
    #[tool_core::tool(group = "admin", destructive = true)]
    #[must_use]
    pub fn fixture_restart() -> String {
        "restarted".to_owned()
    }
}
