//! Streamable HTTP: rmcp's transport mounted on axum, with the protections a server on a
//! developer's machine needs. rmcp checks `Host` (loopback names only, by default) and
//! `Origin` against allow-lists, which stops DNS rebinding; it caps request bodies; an
//! optional bearer-token check runs before anything reaches rmcp; shutdown is graceful and
//! ends every open event stream.

use core::future::Future;
use std::sync::Arc;

use axum::Router;
use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::serve::ListenerExt as _;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::session::{EventStore, SessionStore};
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::{TcpListener, ToSocketAddrs};

use crate::mcp::server::direct::{JsonReply, Sessions};
use crate::mcp::{McpServer, ShutdownToken};

/// Decides whether a bearer token may use the server.
type TokenCheck = Arc<dyn Fn(&str) -> bool + Send + Sync>;

/// How the HTTP endpoint is exposed. The defaults suit a server on `127.0.0.1`: loopback
/// `Host` names and `Origin`s only, the path `/mcp`, bodies bounded by the registry's
/// argument limit, no authentication.
#[derive(Clone)]
pub struct HttpOptions {
    path: String,
    allowed_hosts: Vec<String>,
    allowed_origins: Vec<String>,
    max_body_bytes: Option<usize>,
    bearer: Option<TokenCheck>,
    #[cfg(feature = "oauth")]
    oauth: Option<crate::oauth::ResourceServer>,
    session_store: Option<Arc<dyn SessionStore>>,
    event_store: Option<Arc<dyn EventStore>>,
}

impl Default for HttpOptions {
    fn default() -> Self {
        let loopback = ["localhost", "127.0.0.1", "[::1]"];
        HttpOptions {
            path: "/mcp".to_owned(),
            allowed_hosts: vec!["localhost".to_owned(), "127.0.0.1".to_owned(), "::1".to_owned()],
            allowed_origins: ["http", "https"]
                .iter()
                .flat_map(|scheme| loopback.iter().map(move |host| format!("{scheme}://{host}:*")))
                .collect(),
            max_body_bytes: None,
            bearer: None,
            #[cfg(feature = "oauth")]
            oauth: None,
            session_store: None,
            event_store: None,
        }
    }
}

impl core::fmt::Debug for HttpOptions {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("HttpOptions")
            .field("path", &self.path)
            .field("allowed_hosts", &self.allowed_hosts)
            .field("allowed_origins", &self.allowed_origins)
            .field("max_body_bytes", &self.max_body_bytes)
            .field("bearer", &self.bearer.is_some())
            .finish_non_exhaustive()
    }
}

impl HttpOptions {
    /// The endpoint's path (`/mcp` by default).
    #[must_use]
    pub fn path(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }

    /// Also accepts these `Host` names (`"mcp.example.com"`, or with a port); needed behind
    /// a proxy or on a public interface. Loopback names stay allowed.
    #[must_use]
    pub fn allow_hosts(mut self, hosts: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.allowed_hosts.extend(hosts.into_iter().map(Into::into));
        self
    }

    /// Also accepts these `Origin`s (`"https://app.example.com"`); requests without an
    /// `Origin` (non-browser clients) are always accepted.
    #[must_use]
    pub fn allow_origins(mut self, origins: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.allowed_origins.extend(origins.into_iter().map(Into::into));
        self
    }

    /// The largest request body, in bytes (by default the registry's argument limit plus
    /// 64 KiB for the JSON-RPC envelope); a larger one gets `413`.
    #[must_use]
    pub fn max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = Some(bytes);
        self
    }

    /// Requires `Authorization: Bearer <token>` with a token `check` accepts; any other
    /// request gets `401` before it reaches the MCP layer.
    #[must_use]
    pub fn bearer(mut self, check: impl Fn(&str) -> bool + Send + Sync + 'static) -> Self {
        self.bearer = Some(Arc::new(check));
        self
    }

    /// Makes the endpoint an OAuth 2.1 protected resource (feature `oauth`): RFC 9728
    /// metadata, bearer challenges, tokens verified as `oauth` says, tool scopes enforced.
    #[cfg(feature = "oauth")]
    #[must_use]
    pub fn oauth(mut self, oauth: crate::oauth::ResourceServer) -> Self {
        self.oauth = Some(oauth);
        self
    }

    /// Keeps the sessions of 2025-era clients in `store` too, shared by every replica: a
    /// replica that gets a request for a session it does not hold restores it from there (its
    /// `initialize` replayed) rather than answering 404. For several replicas behind a
    /// balancer without sticky sessions; see [`RedisSessionStore`](crate::mcp::RedisSessionStore)
    /// (feature `redis`).
    #[must_use]
    pub fn session_store(mut self, store: Arc<dyn SessionStore>) -> Self {
        self.session_store = Some(store);
        self
    }

    /// Writes the events of 2026-07-28 response streams to `store` as they are sent, so a
    /// client whose stream broke mid-call resumes it with `Last-Event-ID` on any replica
    /// sharing the store; see [`RedisEventStore`](crate::mcp::RedisEventStore) (feature `redis`).
    #[must_use]
    pub fn event_store(mut self, store: Arc<dyn EventStore>) -> Self {
        self.event_store = Some(store);
        self
    }
}

/// An axum router serving `server` at the options' path, for mounting in an application.
/// Cancelling `shutdown` ends every open event stream (do it when the server stops, or
/// graceful shutdown waits for them).
pub fn router(server: McpServer, options: &HttpOptions, shutdown: &ShutdownToken) -> Router {
    #[cfg(feature = "oauth")]
    let server = match &options.oauth {
        Some(oauth) if oauth.hides_unpermitted() => server.hiding_unpermitted(),
        _ => server,
    };
    let max_body = options.max_body_bytes.unwrap_or(server.registry().options().max_argument_bytes + (64 << 10));
    let config = StreamableHttpServerConfig::default()
        .with_cancellation_token(shutdown.child_token())
        .with_allowed_hosts(options.allowed_hosts.clone())
        .with_allowed_origins(options.allowed_origins.clone())
        .with_max_request_body_bytes(max_body)
        // A 2026-07-28 request (served statelessly) whose reply is one message gets it as
        // `application/json`, not an event stream: less to frame and to read. A tool that
        // sends a notification first (progress, a log) still gets the stream, which rmcp
        // switches to so that nothing is lost; the session era is unchanged.
        .with_json_response(true);
    let mut config = config;
    config.session_store.clone_from(&options.session_store);
    let sessions = server.clone();
    let local = match &options.event_store {
        Some(store) => LocalSessionManager::default().with_event_store(Arc::clone(store)),
        None => LocalSessionManager::default(),
    };
    let service: StreamableHttpService<McpServer, Sessions> = StreamableHttpService::new(
        move || Ok(sessions.new_session()),
        Arc::new(Sessions::new(local, server.clone())),
        config,
    );
    let router = Router::new().nest_service(&options.path, Endpoint(Arc::new(service))).layer(middleware::from_fn(
        move |request: Request, next: Next| crate::mcp::transport::malformed::answer(request, next, max_body),
    ));
    #[cfg(feature = "oauth")]
    let router = match &options.oauth {
        Some(oauth) => with_oauth(router, oauth, &server, max_body),
        None => router,
    };
    #[cfg(not(feature = "oauth"))]
    let _ = server;
    match &options.bearer {
        Some(check) => {
            let check = Arc::clone(check);
            router.layer(middleware::from_fn(move |request: Request, next: Next| {
                let check = Arc::clone(&check);
                async move { authorize(&check, request, next).await }
            }))
        }
        None => router,
    }
}

/// The guard in front of the MCP endpoint, and the metadata document beside it (outside the
/// guard: a client reads it to learn where to get a token).
#[cfg(feature = "oauth")]
fn with_oauth(router: Router, oauth: &crate::oauth::ResourceServer, server: &McpServer, max_body: usize) -> Router {
    let guard =
        Arc::new(crate::mcp::transport::guard::Guard { oauth: oauth.clone(), server: server.clone(), max_body });
    let mut router = router.layer(middleware::from_fn(move |request: Request, next: Next| {
        crate::mcp::transport::guard::guard(Arc::clone(&guard), request, next)
    }));
    for path in oauth.metadata_paths() {
        let (oauth, server) = (oauth.clone(), server.clone());
        router = router.route(
            &path,
            axum::routing::get(move || {
                let document = server.oauth_metadata(&oauth);
                async move { ([(header::CONTENT_TYPE, "application/json")], document.to_string()) }
            }),
        );
    }
    router
}

/// rmcp's service behind an `Arc`. axum clones a route's service for every request, and
/// rmcp's clones itself again in `call`; each clone copies its configuration, host and
/// origin lists included (dozens of allocations a request). This one calls rmcp's `handle`
/// on the shared value instead.
#[derive(Clone)]
struct Endpoint(Arc<StreamableHttpService<McpServer, Sessions>>);

impl tower::Service<Request> for Endpoint {
    type Response = Response;
    type Error = core::convert::Infallible;
    type Future = core::pin::Pin<Box<dyn Future<Output = Result<Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, _: &mut core::task::Context<'_>) -> core::task::Poll<Result<(), Self::Error>> {
        core::task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let service = Arc::clone(&self.0);
        let mut request = request;
        let delete = request.method() == axum::http::Method::DELETE;
        // A session's request may be answered without the session (see `direct`), as JSON.
        let reply = (request.method() == axum::http::Method::POST && request.headers().contains_key("mcp-session-id"))
            .then(|| {
                let reply = JsonReply::default();
                request.extensions_mut().insert(reply.clone());
                reply
            });
        Box::pin(async move {
            let response = service.handle(request).await.into_response();
            if let Some(json) = reply.and_then(|reply| reply.take()) {
                return Ok(([(header::CONTENT_TYPE, "application/json")], json).into_response());
            }
            Ok(if delete { session_ended(response) } else { response })
        })
    }
}

/// A session `DELETE` that rmcp accepted is answered `204 No Content` rather than its `202
/// Accepted`: the session is gone when the answer leaves, and the official Python SDK (as
/// other clients that follow HTTP's meaning for `DELETE`) accepts only 200 or 204, logging
/// "Session termination failed: 202" otherwise.
fn session_ended(mut response: Response) -> Response {
    if response.status() == StatusCode::ACCEPTED {
        *response.status_mut() = StatusCode::NO_CONTENT;
        *response.body_mut() = axum::body::Body::empty();
        response.headers_mut().remove(header::CONTENT_LENGTH);
        response.headers_mut().remove(header::CONTENT_TYPE);
    }
    response
}

async fn authorize(check: &TokenCheck, request: Request, next: Next) -> Response {
    let token = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "));
    if token.is_some_and(|token| check(token)) {
        next.run(request).await
    } else {
        (StatusCode::UNAUTHORIZED, [(header::WWW_AUTHENTICATE, "Bearer")], "a valid bearer token is required")
            .into_response()
    }
}

/// Serves `server` over streamable HTTP on `listener` until `shutdown` completes, then
/// stops gracefully: no new connections, open streams ended, calls in flight answered.
///
/// # Errors
/// An I/O error of the listener.
pub async fn serve_http_on(
    server: impl Into<McpServer>,
    listener: TcpListener,
    options: HttpOptions,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let streams = ShutdownToken::new();
    let app = router(server.into(), &options, &streams);
    // An event stream writes small events as they happen (a priming event, then the result
    // once the tool ends); with Nagle's algorithm the second waits for the client's delayed
    // ACK, adding that wait to every call that is not instant.
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown.await;
            streams.cancel();
        })
        .await
}

/// Serves `server` over streamable HTTP at `addr` (`"127.0.0.1:8080"`, endpoint `/mcp`)
/// with the default [`HttpOptions`], until Ctrl-C.
///
/// # Errors
/// An I/O error binding or accepting.
pub async fn serve_http(server: impl Into<McpServer>, addr: impl ToSocketAddrs) -> std::io::Result<()> {
    let listener = TcpListener::bind(addr).await?;
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    serve_http_on(server, listener, HttpOptions::default(), ctrl_c).await
}
