//! Cross-origin access: off unless `--cors` names the origins whose pages may read the API.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

/// Which other origins' pages may read the server's answers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Cors {
    /// None: browsers keep the answers from other origins' pages (the default).
    #[default]
    Off,
    /// Any origin (`--cors any`).
    Any,
    /// These origins, e.g. `https://example.org` (`--cors ORIGIN`, repeatable).
    Origins(Vec<String>),
}

impl Cors {
    /// The `Access-Control-Allow-Origin` value for a request from `origin`, if it may read.
    fn allow(&self, origin: Option<&HeaderValue>) -> Option<HeaderValue> {
        match self {
            Cors::Off => None,
            Cors::Any => Some(HeaderValue::from_static("*")),
            Cors::Origins(allowed) => {
                let origin = origin?;
                let text = origin.to_str().ok()?;
                allowed
                    .iter()
                    .any(|a| a.eq_ignore_ascii_case(text))
                    .then(|| origin.clone())
            }
        }
    }
}

/// The layer that adds `Access-Control-Allow-Origin` where `cors` allows it (and `Vary:
/// Origin` where the answer depends on the origin).
pub(super) async fn layer(State(cors): State<Arc<Cors>>, request: Request, next: Next) -> Response {
    let origin = request.headers().get(header::ORIGIN).cloned();
    let mut response = next.run(request).await;
    if let Some(allow) = cors.allow(origin.as_ref()) {
        let h = response.headers_mut();
        h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, allow);
        if matches!(*cors, Cors::Origins(_)) {
            h.append(header::VARY, HeaderValue::from_static("origin"));
        }
    }
    response
}
