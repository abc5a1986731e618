//! Answers: a JSON body, or an error's status and `{"error":"..."}` without the server's paths.

use std::path::Path;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::error::{Error, Missing};
use crate::invalid::InvalidInput;
use crate::query::wire;

/// An answer that is not a 200: its status and `{"error":"..."}`.
#[derive(Debug)]
pub(super) struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    /// An error with a status and a message.
    pub(super) fn new(status: StatusCode, message: String) -> ApiError {
        ApiError { status, message }
    }
}

impl From<Error> for ApiError {
    /// An unsolved sector is 404 (and so is a distance asked of tables that hold none), other
    /// bad input 400, damage and I/O errors 500; the message names the variant, rule set,
    /// sector and file, never a folder of the server's (the server's log keeps the whole
    /// error).
    fn from(e: Error) -> ApiError {
        let status = match &e {
            Error::Missing(_) | Error::NoDistance { .. } => StatusCode::NOT_FOUND,
            e if e.is_bad_input() => StatusCode::BAD_REQUEST,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        if status == StatusCode::INTERNAL_SERVER_ERROR {
            super::conn::log(format_args!("error: {e}"));
        }
        ApiError::new(status, public_message(&e))
    }
}

impl From<InvalidInput> for ApiError {
    /// Bad input: 400.
    fn from(e: InvalidInput) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, e.to_string())
    }
}

/// The file name of a path, without the folders above it.
fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// What an error says to a client: everything but the server's folders.
pub(super) fn public_message(e: &Error) -> String {
    match e {
        Error::Missing(m) if m.tables => format!(
            "sector {} of {} (rule set {}) has no tables on this server; build them with `{}`",
            m.sector,
            m.variant,
            m.rules.id(),
            solve_command(m)
        ),
        Error::Missing(m) => format!(
            "sector {} of {} (rule set {}) is not solved; solve it with `{}` on the server's database folder",
            m.sector,
            m.variant,
            m.rules.id(),
            solve_command(m)
        ),
        Error::OldFormat { found, expected, missing, .. } => format!(
            "the database of {} (rule set {}) was written in format {found}, this build reads format {expected}; it must be solved again",
            missing.variant,
            missing.rules.id()
        ),
        Error::Io { path, cause } => format!("cannot read {}: {cause}", file_name(path)),
        Error::Damaged { path, damage } => {
            format!("database file {} is damaged: {damage}", file_name(path))
        }
        Error::Foreign { path, foreign } => {
            format!("database file {} {foreign}", file_name(path))
        }
        Error::BadFolder { .. } => "the server's database folder is not usable".into(),
        e => e.to_string(),
    }
}

/// The `morris solve` that fills a missing sector, without the folder.
pub(super) fn solve_command(m: &Missing) -> String {
    if m.tables {
        let whole = whole_game_command(m);
        let options = whole.strip_prefix("morris solve ").unwrap_or(&whole);
        return format!("morris tables {options} --db DB --out TABLES");
    }
    format!("{} --sector {}", whole_game_command(m), m.sector)
}

pub(super) use crate::front::whole_game_command;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = wire::line(&wire::ErrorJson {
            error: self.message,
        });
        let mut response = json(body);
        *response.status_mut() = self.status;
        response
    }
}

/// A JSON answer, not cached (a folder being solved changes); other origins read it only
/// where `--cors` says so (see `cors.rs`).
pub(super) fn json(body: String) -> Response {
    let mut response = body.into_response();
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}
