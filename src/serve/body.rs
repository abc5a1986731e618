//! The request body's bound: the API takes no body, so a body is read (whatever its framing, a
//! length or chunks) only up to [`MAX_BODY`] bytes, and one over it is answered 413 with
//! `{"error":"..."}` before any route sees the request.

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::answer::ApiError;

/// The largest request body accepted (the API takes none).
pub(super) const MAX_BODY: usize = 4096;

/// Reads the body up to its bound, then answers the request; a request that had a body is
/// answered with `connection: close`, so that the connection's next head is never read behind
/// a body (see `conn.rs`'s `HeadBound`).
pub(super) async fn bounded(request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    let bytes = match axum::body::to_bytes(body, MAX_BODY).await {
        Ok(bytes) => bytes,
        Err(_) => {
            let why = format!("the request body is over {MAX_BODY} bytes (the API takes none)");
            let mut refused = ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, why).into_response();
            close(&mut refused);
            return refused;
        }
    };
    let had_body = !bytes.is_empty();
    let mut response = next
        .run(Request::from_parts(parts, Body::from(bytes)))
        .await;
    if had_body {
        close(&mut response);
    }
    response
}

/// Marks `response` as the connection's last.
fn close(response: &mut Response) {
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
}
