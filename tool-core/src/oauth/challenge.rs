//! The `WWW-Authenticate: Bearer` challenge (RFC 6750, with RFC 9728's `resource_metadata`)
//! that every protected endpoint answers with: the MCP endpoint's guard and the A2A server's.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::oauth::ResourceServer;

/// A response with a `WWW-Authenticate: Bearer` challenge naming the metadata document.
pub(crate) fn challenge(oauth: &ResourceServer, status: StatusCode, params: &[(&str, &str)], body: &str) -> Response {
    let metadata = oauth.metadata_url();
    let mut value = String::from("Bearer ");
    for (name, text) in params.iter().copied().chain([("resource_metadata", metadata.as_str())]) {
        if !value.ends_with(' ') {
            value.push_str(", ");
        }
        // A quoted-string: quotes and backslashes escaped, anything outside visible ASCII
        // dropped (a header cannot carry it).
        value.push_str(name);
        value.push_str("=\"");
        for c in text.chars().filter(|c| c.is_ascii_graphic() || *c == ' ') {
            if c == '"' || c == '\\' {
                value.push('\\');
            }
            value.push(c);
        }
        value.push('"');
    }
    let mut response = (status, body.to_owned()).into_response();
    if let Ok(value) = HeaderValue::from_str(&value) {
        response.headers_mut().insert(header::WWW_AUTHENTICATE, value);
    }
    response
}
