//! How the server presents itself (`serverInfo`: title, description, website, icons); each
//! revision hears what it defines (`revision.rs`).

use rmcp::model::{Icon as WireIcon, IconTheme};

use crate::mcp::McpServer;

/// An icon a client may show for the server: an image at `src` (an `https:` or `data:` URI).
///
/// ```
/// use tool_core::mcp::{Icon, Theme};
/// let icon = Icon::new("https://example.com/logo.svg").with_mime_type("image/svg+xml").with_theme(Theme::Dark);
/// # let _ = icon;
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Icon {
    src: String,
    mime_type: Option<String>,
    sizes: Vec<String>,
    theme: Option<Theme>,
}

/// The background an icon is drawn for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Theme {
    /// For a light background.
    Light,
    /// For a dark background.
    Dark,
}

impl Icon {
    /// The image at `src`.
    #[must_use]
    pub fn new(src: impl Into<String>) -> Self {
        Icon { src: src.into(), mime_type: None, sizes: Vec::new(), theme: None }
    }

    /// Its media type (`image/png`), when the URI does not say.
    #[must_use]
    pub fn with_mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// The sizes it is drawn at (`"48x48"`, `"any"` for a vector image).
    #[must_use]
    pub fn with_sizes(mut self, sizes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.sizes = sizes.into_iter().map(Into::into).collect();
        self
    }

    /// The background it is drawn for.
    #[must_use]
    pub fn with_theme(mut self, theme: Theme) -> Self {
        self.theme = Some(theme);
        self
    }

    fn wire(&self) -> WireIcon {
        let mut icon = WireIcon::new(&self.src);
        icon.mime_type.clone_from(&self.mime_type);
        icon.sizes = (!self.sizes.is_empty()).then(|| self.sizes.clone());
        icon.theme = self.theme.map(|theme| match theme {
            Theme::Light => IconTheme::Light,
            Theme::Dark => IconTheme::Dark,
        });
        icon
    }
}

impl McpServer {
    /// Names the server for people (`serverInfo.title`, from 2025-06-18): "Weather", where
    /// `with_server_info`'s name is `weather-mcp`.
    #[must_use]
    pub fn with_title(self, title: impl Into<String>) -> Self {
        let mut info = self.shared.info.clone();
        info.server_info.title = Some(title.into());
        self.with_info(info)
    }

    /// Says what the server is for (`serverInfo.description`, from 2025-11-25). What it
    /// tells a model goes in [`with_instructions`](McpServer::with_instructions).
    #[must_use]
    pub fn with_description(self, description: impl Into<String>) -> Self {
        let mut info = self.shared.info.clone();
        info.server_info.description = Some(description.into());
        self.with_info(info)
    }

    /// The server's home page (`serverInfo.websiteUrl`, from 2025-11-25).
    #[must_use]
    pub fn with_website(self, url: impl Into<String>) -> Self {
        let mut info = self.shared.info.clone();
        info.server_info.website_url = Some(url.into());
        self.with_info(info)
    }

    /// Adds an icon a client may show for the server (`serverInfo.icons`, from 2025-11-25).
    #[must_use]
    pub fn with_icon(self, icon: Icon) -> Self {
        let mut info = self.shared.info.clone();
        info.server_info.icons.get_or_insert_with(Vec::new).push(icon.wire());
        self.with_info(info)
    }
}
