//! The HTTP client of an authorized connection: rmcp's reqwest client, each request with the
//! token of the moment, renewed once when the server refuses it.

use core::future::Future;
use std::collections::HashMap;
use std::sync::Arc;

use futures_util::stream::BoxStream;
use reqwest::header::{HeaderName, HeaderValue};
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::streamable_http_client::{
    SseError, StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse, StreamableHttpResponseLimits,
};

use crate::mcp::client::auth::token::{TokenError, TokenSource};

/// An HTTP client whose requests carry the token its source gives for `resource`.
#[derive(Clone)]
pub(crate) struct Authorized<C> {
    pub(crate) inner: C,
    pub(crate) source: Arc<dyn TokenSource>,
    pub(crate) resource: Arc<str>,
}

impl<C: StreamableHttpClient + Sync> Authorized<C> {
    /// Runs `send` with a token, and once more with a renewed one when the server refuses it.
    async fn with_token<T, F, Fut>(&self, uri: &str, send: F) -> Result<T, StreamableHttpError<C::Error>>
    where
        F: Fn(Option<String>) -> Fut,
        Fut: Future<Output = Result<T, StreamableHttpError<C::Error>>>,
    {
        if uri != &*self.resource {
            return Err(StreamableHttpError::UnexpectedServerResponse(
                format!("a request to {uri}, which is not the server the token is for").into(),
            ));
        }
        let refused = |error: TokenError| StreamableHttpError::UnexpectedServerResponse(error.to_string().into());
        let token = self.source.token(&self.resource, false).await.map_err(refused)?;
        match send(Some(token)).await {
            Err(StreamableHttpError::AuthRequired(_)) => {
                let renewed = self.source.token(&self.resource, true).await.map_err(refused)?;
                send(Some(renewed)).await
            }
            other => other,
        }
    }
}

type Headers = HashMap<HeaderName, HeaderValue>;

impl<C: StreamableHttpClient + Sync> StreamableHttpClient for Authorized<C> {
    type Error = C::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        _: Option<String>,
        headers: Headers,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        self.with_token(&uri, |token| {
            let (uri, message, session, headers) = (uri.clone(), message.clone(), session_id.clone(), headers.clone());
            self.inner.post_message(uri, message, session, token, headers)
        })
        .await
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        _: Option<String>,
        headers: Headers,
        limits: StreamableHttpResponseLimits,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        self.with_token(&uri, |token| {
            let (uri, message, session, headers) = (uri.clone(), message.clone(), session_id.clone(), headers.clone());
            self.inner.post_message_with_response_limits(uri, message, session, token, headers, limits)
        })
        .await
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        _: Option<String>,
        headers: Headers,
    ) -> Result<(), StreamableHttpError<Self::Error>> {
        self.with_token(&uri, |token| {
            self.inner.delete_session(uri.clone(), session_id.clone(), token, headers.clone())
        })
        .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        _: Option<String>,
        headers: Headers,
    ) -> Result<BoxStream<'static, Result<sse_stream::Sse, SseError>>, StreamableHttpError<Self::Error>> {
        self.with_token(&uri, |token| {
            let (uri, session, last, headers) =
                (uri.clone(), session_id.clone(), last_event_id.clone(), headers.clone());
            self.inner.get_stream(uri, session, last, token, headers)
        })
        .await
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        _: Option<String>,
        headers: Headers,
        max_sse_event_size: usize,
    ) -> Result<BoxStream<'static, Result<sse_stream::Sse, SseError>>, StreamableHttpError<Self::Error>> {
        self.with_token(&uri, |token| {
            let (uri, session, last, headers) =
                (uri.clone(), session_id.clone(), last_event_id.clone(), headers.clone());
            self.inner.get_stream_with_max_sse_event_size(uri, session, last, token, headers, max_sse_event_size)
        })
        .await
    }
}
