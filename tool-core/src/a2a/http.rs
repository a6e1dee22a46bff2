//! What every request of the client shares: bodies read within a bound, errors named by
//! their URL.

use super::A2aError;

/// The largest card or reply read, in bytes.
const MAX_BODY: usize = 8 << 20;

/// Reads a body of at most [`MAX_BODY`] bytes.
pub(crate) async fn read(mut response: reqwest::Response, url: &str) -> Result<Vec<u8>, A2aError> {
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|error| http_error(url, &error))? {
        if body.len() + chunk.len() > MAX_BODY {
            return Err(A2aError::Malformed { message: format!("the reply from {url} is over {MAX_BODY} bytes") });
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

pub(crate) fn http_error(url: &str, error: &reqwest::Error) -> A2aError {
    let message = if error.is_timeout() { "no reply in time".to_owned() } else { error.to_string() };
    A2aError::Http { url: url.to_owned(), message }
}

/// The start of a body, for an error message.
pub(crate) fn preview(body: &[u8]) -> String {
    String::from_utf8_lossy(&body[..body.len().min(120)]).into_owned()
}
