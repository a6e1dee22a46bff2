//! [`serve`]: a server's `main` in one call. The command line and the environment choose
//! the transport, as MCP hosts start servers: stdio when nothing is said (a host runs the
//! server as a child process), streamable HTTP with `--http ADDR` (or `MCP_HTTP=ADDR`);
//! `--allow-host` widens the HTTP `Host` check, and the `--oauth-*` settings (feature
//! `oauth`) make the endpoint an OAuth protected resource. SIGTERM and Ctrl-C stop it
//! gracefully: no new requests, calls in flight answered.
//!
//! The command line is read with `lexopt`: it knows `--http ADDR`, `--http=ADDR` and `--`
//! as every getopt user expects, quotes a bad argument back, and brings no dependency.

use std::ffi::OsString;
use std::io::Write as _;

use crate::mcp::{HttpOptions, McpServer, serve_http_on, serve_stdio};

/// Where [`serve`] serves: what the command line and environment said.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Transport {
    /// stdin and stdout (the default).
    #[default]
    Stdio,
    /// Streamable HTTP on this address (`127.0.0.1:8080`; the endpoint is `/mcp`).
    Http(String),
}

/// The OAuth settings of [`serve`]: JWT access tokens from `issuer`, checked against its
/// key set at `jwks_uri`, issued for `resource` (this server's canonical URI).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct OAuthSettings {
    /// This server's canonical URI (`https://mcp.example.com/mcp`).
    pub resource: String,
    /// The authorization server's issuer URL.
    pub issuer: String,
    /// Its JWKS.
    pub jwks_uri: String,
}

/// What the command line and the environment ask of [`serve`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct StartOptions {
    /// stdio or HTTP.
    pub transport: Transport,
    /// `Host` names HTTP accepts beside the loopback ones.
    pub allow_hosts: Vec<String>,
    /// OAuth on the HTTP endpoint, when all three settings are given.
    pub oauth: Option<OAuthSettings>,
}

/// What `--help` prints.
pub const USAGE: &str = "usage: SERVER [--http ADDRESS] [--allow-host HOST].. \
    [--oauth-resource URI --oauth-issuer URL --oauth-jwks URL]\n\
    \n\
    Serves MCP over stdio, or over streamable HTTP at http://ADDRESS/mcp with --http\n\
    (or MCP_HTTP). --allow-host (or MCP_ALLOW_HOSTS, comma-separated) accepts another\n\
    Host name. The three --oauth-* settings (or MCP_OAUTH_RESOURCE, MCP_OAUTH_ISSUER,\n\
    MCP_OAUTH_JWKS_URI) require JWT access tokens issued for the resource.\n\
    SIGTERM and Ctrl-C stop it gracefully.\n";

impl StartOptions {
    /// The options `args` (without the program's name) and `env` (a variable's value by
    /// name) ask for; the command line wins over the environment. `Ok(None)` for `--help`.
    ///
    /// # Errors
    /// An unknown argument, an option without its value, or some `--oauth-*` settings
    /// without the others, in lexopt's words.
    pub fn from_args(
        args: impl IntoIterator<Item = OsString>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<StartOptions>, lexopt::Error> {
        use lexopt::prelude::*;
        let mut parser = lexopt::Parser::from_args(args);
        let mut options = StartOptions::default();
        let (mut http, mut resource, mut issuer, mut jwks) = (None, None, None, None);
        while let Some(arg) = parser.next()? {
            match arg {
                Long("http") => http = Some(parser.value()?.string()?),
                Long("allow-host") => options.allow_hosts.push(parser.value()?.string()?),
                Long("oauth-resource") => resource = Some(parser.value()?.string()?),
                Long("oauth-issuer") => issuer = Some(parser.value()?.string()?),
                Long("oauth-jwks") => jwks = Some(parser.value()?.string()?),
                Short('h') | Long("help") => return Ok(None),
                _ => return Err(arg.unexpected()),
            }
        }
        let from_env = |name: &str| env(name).filter(|value| !value.is_empty());
        options.transport = match http.or_else(|| from_env("MCP_HTTP")) {
            Some(addr) => Transport::Http(addr),
            None => Transport::Stdio,
        };
        if options.allow_hosts.is_empty()
            && let Some(hosts) = from_env("MCP_ALLOW_HOSTS")
        {
            options.allow_hosts =
                hosts.split(',').map(str::trim).filter(|h| !h.is_empty()).map(str::to_owned).collect();
        }
        let resource = resource.or_else(|| from_env("MCP_OAUTH_RESOURCE"));
        let issuer = issuer.or_else(|| from_env("MCP_OAUTH_ISSUER"));
        let jwks = jwks.or_else(|| from_env("MCP_OAUTH_JWKS_URI"));
        options.oauth = match (resource, issuer, jwks) {
            (Some(resource), Some(issuer), Some(jwks_uri)) => Some(OAuthSettings { resource, issuer, jwks_uri }),
            (None, None, None) => None,
            _ => {
                return Err(lexopt::Error::Custom(
                    "OAuth needs all three of --oauth-resource, --oauth-issuer and --oauth-jwks".into(),
                ));
            }
        };
        Ok(Some(options))
    }
}

/// Serves `server` as the process's command line and environment ask
/// ([`StartOptions::from_args`]), until the client leaves (stdio), or SIGTERM or Ctrl-C.
/// The address HTTP listens on is written to stderr (stdout may carry the protocol).
///
/// ```no_run
/// # #[cfg(feature = "mcp")]
/// #[tokio::main(flavor = "current_thread")]
/// async fn main() -> std::io::Result<()> {
///     tool_core::mcp::serve(tool_core::Registry::collect().expect("unique names")).await
/// }
/// # #[cfg(not(feature = "mcp"))] fn main() {}
/// ```
///
/// # Errors
/// A bad command line (`InvalidInput`, with the usage), OAuth settings in a build without
/// the `oauth` feature or with a resource that is no absolute URI (`InvalidInput`), or the
/// transport's I/O error.
pub async fn serve(server: impl Into<McpServer>) -> std::io::Result<()> {
    let invalid = |text: String| std::io::Error::new(std::io::ErrorKind::InvalidInput, text);
    let Some(options) = StartOptions::from_args(std::env::args_os().skip(1), |name| std::env::var(name).ok())
        .map_err(|error| invalid(format!("{error}\n{USAGE}")))?
    else {
        return std::io::stderr().write_all(USAGE.as_bytes());
    };
    let addr = match &options.transport {
        Transport::Stdio => {
            return tokio::select! {
                outcome = serve_stdio(server) => outcome,
                () = stop_signal() => Ok(()),
            };
        }
        Transport::Http(addr) => addr.clone(),
    };
    let http = http_options(&options).map_err(invalid)?;
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    let local = listener.local_addr()?;
    writeln!(std::io::stderr(), "MCP server on http://{local}/mcp")?;
    serve_http_on(server, listener, http, stop_signal()).await
}

/// The HTTP options `options` ask for.
fn http_options(options: &StartOptions) -> Result<HttpOptions, String> {
    let http = HttpOptions::default().allow_hosts(options.allow_hosts.iter().cloned());
    let Some(settings) = &options.oauth else { return Ok(http) };
    #[cfg(feature = "oauth")]
    {
        use crate::oauth::{JwtVerifier, ResourceServer};
        let verifier = JwtVerifier::new(&settings.issuer, &settings.resource, &settings.jwks_uri);
        let oauth = ResourceServer::new(&settings.resource, verifier)
            .map_err(|error| error.to_string())?
            .authorization_server(&settings.issuer);
        Ok(http.oauth(oauth))
    }
    #[cfg(not(feature = "oauth"))]
    Err(format!("OAuth for {} needs tool-core's `oauth` feature", settings.resource))
}

/// Completes on Ctrl-C or (on Unix) SIGTERM, what a process manager sends to stop.
async fn stop_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => core::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = core::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(args: &[&str], env: &[(&str, &str)]) -> Result<Option<StartOptions>, String> {
        let env: Vec<(String, String)> = env.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        StartOptions::from_args(args.iter().map(OsString::from), |name| {
            env.iter().find(|(key, _)| key == name).map(|(_, value)| value.clone())
        })
        .map_err(|e| e.to_string())
    }

    fn transport(args: &[&str], env: &[(&str, &str)]) -> Result<Option<Transport>, String> {
        read(args, env).map(|options| options.map(|options| options.transport))
    }

    #[test]
    fn the_command_line_then_the_environment_choose_the_transport() {
        assert_eq!(transport(&[], &[]), Ok(Some(Transport::Stdio)));
        assert_eq!(transport(&["--http", "127.0.0.1:9"], &[]), Ok(Some(Transport::Http("127.0.0.1:9".into()))));
        assert_eq!(transport(&["--http=0.0.0.0:80"], &[]), Ok(Some(Transport::Http("0.0.0.0:80".into()))));
        let env = [("MCP_HTTP", "127.0.0.1:7")];
        assert_eq!(transport(&[], &env), Ok(Some(Transport::Http("127.0.0.1:7".into()))));
        assert_eq!(transport(&["--http", "127.0.0.1:9"], &env), Ok(Some(Transport::Http("127.0.0.1:9".into()))));
        assert_eq!(transport(&[], &[("MCP_HTTP", "")]), Ok(Some(Transport::Stdio)));
        assert_eq!(transport(&["--help"], &[]), Ok(None));
        assert_eq!(transport(&["--http"], &[]), Err("missing argument for option '--http'".to_owned()));
        assert_eq!(transport(&["--port", "1"], &[]), Err("invalid option '--port'".to_owned()));
    }

    #[test]
    fn hosts_and_oauth_come_from_the_command_line_or_the_environment() {
        let options = read(&["--allow-host", "a.test", "--allow-host=b.test"], &[("MCP_ALLOW_HOSTS", "c.test")]);
        assert_eq!(options.unwrap().unwrap().allow_hosts, ["a.test", "b.test"]);
        let options = read(&[], &[("MCP_ALLOW_HOSTS", "c.test, d.test")]).unwrap().unwrap();
        assert_eq!(options.allow_hosts, ["c.test", "d.test"]);

        let env = [("MCP_OAUTH_ISSUER", "https://auth.test"), ("MCP_OAUTH_JWKS_URI", "https://auth.test/jwks")];
        let options = read(&["--oauth-resource", "https://mcp.test/mcp"], &env).unwrap().unwrap();
        let expected = OAuthSettings {
            resource: "https://mcp.test/mcp".to_owned(),
            issuer: "https://auth.test".to_owned(),
            jwks_uri: "https://auth.test/jwks".to_owned(),
        };
        assert_eq!(options.oauth, Some(expected));
        assert_eq!(
            read(&["--oauth-issuer", "https://auth.test"], &[]),
            Err("OAuth needs all three of --oauth-resource, --oauth-issuer and --oauth-jwks".to_owned())
        );
        assert!(http_options(&options).is_ok() == cfg!(feature = "oauth"));
    }
}
