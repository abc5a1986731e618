//! The explorer page: plain HTML, CSS and JavaScript, embedded in the binary.

use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};

const INDEX: &str = include_str!("assets/index.html");
const SCRIPT: &str = include_str!("assets/app.js");
const GAME: &str = include_str!("assets/game.js");
const EDITOR: &str = include_str!("assets/editor.js");
const STYLE: &str = include_str!("assets/style.css");
const ICON: &str = include_str!("assets/favicon.svg");

/// Only this server's own scripts, styles and API; no inline script, no other origin.
const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

fn asset(body: &'static str, content_type: &'static str) -> Response {
    let mut response = body.into_response();
    let h = response.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    // Revalidated on each load: a new binary serves a new page at once.
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

/// `GET /`.
pub(super) async fn index() -> Response {
    let mut response = asset(INDEX, "text/html; charset=utf-8");
    response.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(POLICY),
    );
    response
}

/// `GET /app.js`.
pub(super) async fn script() -> Response {
    asset(SCRIPT, "text/javascript; charset=utf-8")
}

/// `GET /game.js`: the game tree and its texts.
pub(super) async fn game_script() -> Response {
    asset(GAME, "text/javascript; charset=utf-8")
}

/// `GET /editor.js`: the board editor.
pub(super) async fn editor_script() -> Response {
    asset(EDITOR, "text/javascript; charset=utf-8")
}

/// `GET /style.css`.
pub(super) async fn style() -> Response {
    asset(STYLE, "text/css; charset=utf-8")
}

/// `GET /favicon.svg`.
pub(super) async fn icon() -> Response {
    asset(ICON, "image/svg+xml")
}
