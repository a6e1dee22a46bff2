//! [`Fetch`]: an HTTP GET for a model, limited to the hosts the program allows.
//!
//! A URL a model chose is untrusted: the host must be on the allow-list, every address it
//! resolves to must be a public one (unless private addresses are allowed), and the request
//! goes to exactly the addresses checked (so that a second DNS answer cannot point it
//! elsewhere), without a proxy and without following redirects (a redirect is reported, for
//! the model to fetch the new URL if that one is allowed). The body is read up to a size
//! limit, within a time limit, and only if it is text.

use std::sync::Arc;
use std::time::Duration;

use crate::context::ToolContext;
use crate::error::RegistryError;
use crate::tool::dynamic::DynamicTool;

/// What `fetch` takes.
#[derive(Debug, crate::ToolArgs)]
#[serde(crate = "serde")]
pub struct FetchUrl {
    /// The http or https URL to read
    #[param(format = "uri", max_length = 2000)]
    pub url: String,
}

/// The `fetch` tool's limits; [`Fetch::tool`] makes it.
#[derive(Debug, Clone)]
pub struct Fetch {
    hosts: Vec<String>,
    max_bytes: usize,
    timeout: Duration,
    private: bool,
}

impl Fetch {
    /// Allows `hosts` (`example.com`, or `*.example.com` for its subdomains), 1 MiB, 10 s.
    #[must_use]
    pub fn new(hosts: impl IntoIterator<Item = impl Into<String>>) -> Self {
        Fetch {
            hosts: hosts.into_iter().map(|host| host.into().to_ascii_lowercase()).collect(),
            max_bytes: 1 << 20,
            timeout: Duration::from_secs(10),
            private: false,
        }
    }

    /// Reads at most `bytes` of a body; a longer one is an error.
    #[must_use]
    pub fn max_bytes(mut self, bytes: usize) -> Self {
        self.max_bytes = bytes;
        self
    }

    /// Gives up after `timeout`.
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Allows loopback, private and link-local addresses (an intranet service, a test
    /// server): only for hosts whose every address you trust.
    #[must_use]
    pub fn allow_private_addresses(mut self) -> Self {
        self.private = true;
        self
    }

    /// The tool, named `fetch`.
    ///
    /// # Errors
    /// Never in practice (the name is fixed and valid).
    pub fn tool(self) -> Result<DynamicTool, RegistryError> {
        let limits = Arc::new(self);
        let description =
            format!("Reads a web page or document by URL (GET), as text. Allowed hosts: {}.", limits.hosts.join(", "));
        DynamicTool::typed("fetch", description, move |_: ToolContext, args: FetchUrl| {
            let limits = Arc::clone(&limits);
            async move { limits.get(&args.url).await }
        })
    }

    fn allows_host(&self, host: &str) -> bool {
        let host = host.to_ascii_lowercase();
        self.hosts.iter().any(|allowed| match allowed.strip_prefix("*.") {
            Some(parent) => host.strip_suffix(parent).is_some_and(|sub| sub.ends_with('.') && sub.len() > 1),
            None => *allowed == host,
        })
    }

    async fn get(&self, url: &str) -> Result<String, String> {
        let url = reqwest::Url::parse(url).map_err(|error| format!("not a URL: {error}"))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(format!("only http and https URLs are fetched, not {}:", url.scheme()));
        }
        let host = url.host_str().ok_or("the URL has no host")?.trim_start_matches('[').trim_end_matches(']');
        if !self.allows_host(host) {
            return Err(format!("the host {host} is not one this tool may fetch from ({})", self.hosts.join(", ")));
        }
        let port = url.port_or_known_default().unwrap_or(443);
        let client = match crate::net::pinned_client(host, port, self.private, self.timeout).await {
            Ok(client) => client,
            Err(crate::net::Unreachable::Refused(why) | crate::net::Unreachable::Failed(why)) => return Err(why),
        };
        let mut response =
            client.get(url.clone()).send().await.map_err(|error| format!("the request failed: {error}"))?;
        let status = response.status();
        if status.is_redirection() {
            let to = response.headers().get("location").and_then(|v| v.to_str().ok()).unwrap_or("?");
            return Err(format!("{url} redirects ({status}) to {to}; fetch that URL if it is allowed"));
        }
        if !status.is_success() {
            return Err(format!("{url} answered {status}"));
        }
        let kind = response.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
        if !is_text(&kind) {
            return Err(format!("{url} is not text ({kind}); this tool reads text only"));
        }
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|error| format!("reading {url} failed: {error}"))? {
            if body.len() + chunk.len() > self.max_bytes {
                return Err(format!("{url} is longer than the {} bytes this tool reads", self.max_bytes));
            }
            body.extend_from_slice(&chunk);
        }
        Ok(String::from_utf8_lossy(&body).into_owned())
    }
}

/// Text a model can read: `text/*`, JSON, XML.
fn is_text(content_type: &str) -> bool {
    let kind = content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    kind.starts_with("text/") || kind.ends_with("json") || kind.ends_with("xml")
}

#[cfg(test)]
mod tests {
    use std::net::IpAddr;

    use super::Fetch;
    use crate::net::is_public;

    #[test]
    fn only_public_addresses_and_allowed_hosts() {
        for private in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "::1",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
        ] {
            assert!(!is_public(private.parse::<IpAddr>().unwrap()), "{private}");
        }
        for public in ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c", "8.8.8.8"] {
            assert!(is_public(public.parse::<IpAddr>().unwrap()), "{public}");
        }
        let fetch = Fetch::new(["example.com", "*.docs.rs"]);
        assert!(fetch.allows_host("example.com") && fetch.allows_host("EXAMPLE.com"));
        assert!(fetch.allows_host("serde.docs.rs") && !fetch.allows_host("docs.rs"));
        assert!(!fetch.allows_host("evil-example.com") && !fetch.allows_host("xdocs.rs"));
    }
}
