//! [`serve`]: a server's `main` in one call. The command line and the environment choose
//! the transport, as MCP hosts start servers: stdio when nothing is said (a host runs the
//! server as a child process), streamable HTTP with `--http ADDR` (or `MCP_HTTP=ADDR`).
//! SIGTERM and Ctrl-C stop it gracefully: no new requests, calls in flight answered.
//!
//! The command line is read with `lexopt`: it knows `--http ADDR`, `--http=ADDR` and `--`
//! as every getopt user expects, quotes a bad argument back, and brings no dependency.

use std::ffi::OsString;
use std::io::Write as _;

use super::{HttpOptions, McpServer, serve_http_on, serve_stdio};

/// Where [`serve`] serves: what the command line and environment said.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Transport {
    /// stdin and stdout (the default).
    Stdio,
    /// Streamable HTTP on this address (`127.0.0.1:8080`; the endpoint is `/mcp`).
    Http(String),
}

/// What `--help` prints.
pub const USAGE: &str = "usage: SERVER [--http ADDRESS]\n\
    \n\
    Serves MCP over stdio, or over streamable HTTP at http://ADDRESS/mcp with --http\n\
    (or the MCP_HTTP environment variable). SIGTERM and Ctrl-C stop it gracefully.\n";

impl Transport {
    /// The transport `args` (without the program's name) and `env` (a variable's value by
    /// name) ask for; the command line wins over `MCP_HTTP`. `Ok(None)` for `--help`.
    ///
    /// # Errors
    /// An unknown argument, or `--http` without an address, in lexopt's words.
    pub fn from_args(
        args: impl IntoIterator<Item = OsString>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<Transport>, lexopt::Error> {
        use lexopt::prelude::*;
        let mut parser = lexopt::Parser::from_args(args);
        let mut transport = None;
        while let Some(arg) = parser.next()? {
            match arg {
                Long("http") => transport = Some(Transport::Http(parser.value()?.string()?)),
                Short('h') | Long("help") => return Ok(None),
                _ => return Err(arg.unexpected()),
            }
        }
        Ok(Some(transport.unwrap_or_else(|| match env("MCP_HTTP") {
            Some(addr) if !addr.is_empty() => Transport::Http(addr),
            _ => Transport::Stdio,
        })))
    }
}

/// Serves `server` on the transport the process's command line and environment ask for
/// ([`Transport::from_args`]), until the client leaves (stdio), or SIGTERM or Ctrl-C.
/// HTTP uses the default [`HttpOptions`]; the address it listens on is written to stderr
/// (stdout may carry the protocol).
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
/// A bad command line (`InvalidInput`, with the usage), or the transport's I/O error.
pub async fn serve(server: impl Into<McpServer>) -> std::io::Result<()> {
    let transport = Transport::from_args(std::env::args_os().skip(1), |name| std::env::var(name).ok())
        .map_err(|error| std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("{error}\n{USAGE}")))?;
    match transport {
        None => std::io::stderr().write_all(USAGE.as_bytes()),
        Some(Transport::Stdio) => {
            tokio::select! {
                outcome = serve_stdio(server) => outcome,
                () = stop_signal() => Ok(()),
            }
        }
        Some(Transport::Http(addr)) => {
            let listener = tokio::net::TcpListener::bind(&addr).await?;
            let local = listener.local_addr()?;
            writeln!(std::io::stderr(), "MCP server on http://{local}/mcp")?;
            serve_http_on(server, listener, HttpOptions::default(), stop_signal()).await
        }
    }
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

    fn read(args: &[&str], env: Option<&str>) -> Result<Option<Transport>, String> {
        Transport::from_args(args.iter().map(OsString::from), |_| env.map(str::to_owned)).map_err(|e| e.to_string())
    }

    #[test]
    fn the_command_line_then_the_environment_choose_the_transport() {
        assert_eq!(read(&[], None), Ok(Some(Transport::Stdio)));
        assert_eq!(read(&["--http", "127.0.0.1:9"], None), Ok(Some(Transport::Http("127.0.0.1:9".into()))));
        assert_eq!(read(&["--http=0.0.0.0:80"], None), Ok(Some(Transport::Http("0.0.0.0:80".into()))));
        assert_eq!(read(&[], Some("127.0.0.1:7")), Ok(Some(Transport::Http("127.0.0.1:7".into()))));
        assert_eq!(read(&["--http", "127.0.0.1:9"], Some("x:1")), Ok(Some(Transport::Http("127.0.0.1:9".into()))));
        assert_eq!(read(&[], Some("")), Ok(Some(Transport::Stdio)));
        assert_eq!(read(&["--help"], None), Ok(None));
        assert_eq!(read(&["--http"], None), Err("missing argument for option '--http'".to_owned()));
        assert_eq!(read(&["--port", "1"], None), Err("invalid option '--port'".to_owned()));
    }
}
