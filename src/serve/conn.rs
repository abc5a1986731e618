//! Connections: HTTP/1 with a bounded request head, a 408 for a head that arrives too slowly,
//! a watchdog for connections that stop moving, and a log line per request.
//!
//! hyper reads the head with a timeout, but on a timeout it closes the connection without a
//! word, and it owns the socket while it serves. So hyper gets a second handle on the socket
//! ([`Shared`]), which also notes when bytes last moved and whether a request head has begun;
//! when hyper gives up on a begun head, the 408 goes out through the handle kept here. Before
//! closing after an error the connection is shut for writing and drained for a moment, so that
//! a client still sending its oversized request gets the answer rather than a reset.
//!
//! A request head over [`MAX_HEAD`] bytes or [`MAX_HEADERS`] headers is bounded here too, as
//! the bytes are read ([`HeadBound`]), before hyper would refuse it: hyper's own refusal is a
//! 431 without a body, where every error of the API has `{"error":"..."}`.

use std::convert::Infallible;
use std::fmt;
use std::io::{self, Write as _};
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use std::time::{Duration, Instant};

use axum::http::{Request, StatusCode};
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tower::ServiceExt;

use crate::query::wire;

/// The largest request head (request line and headers) read.
pub(super) const MAX_HEAD: usize = 16 * 1024;
/// The most headers of a request: hyper's own bound, which the head's bound keeps it from
/// meeting.
const MAX_HEADERS: usize = 100;
/// hyper's read buffer: room for a whole head and a small body, so that hyper never meets its
/// own bound before [`HeadBound`] does.
const READ_BUFFER: usize = 2 * MAX_HEAD + 8 * 1024;
/// Connections served at once; more wait to be accepted.
const MAX_CONNECTIONS: usize = 512;
/// How long a closing connection is drained, and how much of it.
const LINGER: Duration = Duration::from_secs(1);
const LINGER_BYTES: usize = 1 << 20;

/// Accepts connections and serves each on its own task, forever.
pub(super) async fn accept(listener: TcpListener, app: Router, timeout: Duration) {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let Ok(permit) = slots.clone().acquire_owned().await else {
            return;
        };
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors, say: wait a little rather than spin.
                log(format_args!("accept failed: {e}"));
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let app = app.clone();
        tokio::spawn(async move {
            serve(stream, peer, app, timeout).await;
            drop(permit);
        });
    }
}

/// When bytes last moved on a connection, and whether a request head has begun.
struct Activity {
    born: Instant,
    /// Milliseconds from `born` to the last read or write.
    last: AtomicU64,
    /// Bytes were read since the last request head was complete.
    head_begun: AtomicBool,
    /// The head being read grew past its bound: the connection is answered 431 here.
    head_too_large: AtomicBool,
}

impl Activity {
    fn touch(&self) {
        self.last
            .store(self.born.elapsed().as_millis() as u64, Relaxed);
    }

    fn idle(&self) -> Duration {
        self.born
            .elapsed()
            .saturating_sub(Duration::from_millis(self.last.load(Relaxed)))
    }
}

/// hyper's handle on the socket: reads and writes through a shared `TcpStream`, noting activity
/// and bounding request heads.
struct Shared {
    stream: Arc<TcpStream>,
    activity: Arc<Activity>,
    head: HeadBound,
}

/// Where the bytes read stand in a request head: how many bytes and complete lines it has, and
/// whether the last byte ended a line (`\n`, or `\n` then `\r`), so that an empty line, the head's
/// end, is seen across reads. Bytes after a head (a body, the API takes none but tolerates a
/// small one) are counted as the next head's: a body and a head of the bounds together still
/// fit, and a request with a body is answered with `connection: close` (see `serve/mod.rs`).
#[derive(Debug, Default)]
struct HeadBound {
    bytes: usize,
    lines: usize,
    /// 0: inside a line; 1: a line just ended; 2: a line ended and `\r` followed.
    at_line_start: u8,
    /// The bound was met: the next read fails.
    exceeded: bool,
}

impl HeadBound {
    /// How many of `bytes` may be passed on: all, or those before the one that takes the head
    /// past [`MAX_HEAD`] bytes or [`MAX_HEADERS`] headers (then the bound is marked exceeded).
    fn admit(&mut self, bytes: &[u8]) -> usize {
        for (i, &b) in bytes.iter().enumerate() {
            match (b, self.at_line_start) {
                (b'\n', 1 | 2) => {
                    // An empty line: the head is complete, the next begins.
                    *self = HeadBound::default();
                    continue;
                }
                (b'\n', _) => {
                    self.lines += 1;
                    self.at_line_start = 1;
                }
                (b'\r', 1) => self.at_line_start = 2,
                (b'\r', _) => {}
                _ => {
                    // A line beyond the request line and the most headers begins.
                    if self.at_line_start != 0 && self.lines > MAX_HEADERS {
                        self.exceeded = true;
                        return i;
                    }
                    self.at_line_start = 0;
                }
            }
            self.bytes += 1;
            if self.bytes > MAX_HEAD {
                self.exceeded = true;
                return i;
            }
        }
        bytes.len()
    }
}

impl AsyncRead for Shared {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.head.exceeded {
            this.activity.head_too_large.store(true, Relaxed);
            return Poll::Ready(Err(io::Error::other("request head too large")));
        }
        loop {
            ready!(this.stream.poll_read_ready(cx))?;
            match this.stream.try_read(buf.initialize_unfilled()) {
                Ok(n) => {
                    if n > 0 {
                        this.activity.touch();
                        this.activity.head_begun.store(true, Relaxed);
                    }
                    // Bytes past the head's bound are dropped: the connection ends with a
                    // 431 at the next read.
                    let admitted = this.head.admit(&buf.initialize_unfilled()[..n]);
                    buf.advance(admitted);
                    return Poll::Ready(Ok(()));
                }
                // Readiness was cleared: wait for the next.
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => continue,
                Err(e) => return Poll::Ready(Err(e)),
            }
        }
    }
}

impl AsyncWrite for Shared {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        loop {
            ready!(self.stream.poll_write_ready(cx))?;
            match self.stream.try_write(buf) {
                Ok(n) => {
                    self.activity.touch();
                    return Poll::Ready(Ok(n));
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => continue,
                Err(e) => return Poll::Ready(Err(e)),
            }
        }
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    /// The socket is shut when hyper is done with it (see [`serve`]).
    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

/// How a connection ended.
enum End {
    /// Closed by either side after its requests.
    Done,
    /// A request head began but did not arrive in time.
    HeadTimeout,
    /// The head grew past its bound ([`HeadBound`]); not answered yet.
    TooLarge,
    /// hyper refused the head (malformed) and answered it.
    Refused(&'static str, StatusCode),
    /// Nothing moved for too long.
    Stalled,
}

/// Serves one connection's requests, then closes it.
async fn serve(stream: TcpStream, peer: SocketAddr, app: Router, timeout: Duration) {
    let _ = stream.set_nodelay(true);
    let started = Instant::now();
    let stream = Arc::new(stream);
    let activity = Arc::new(Activity {
        born: started,
        last: AtomicU64::new(0),
        head_begun: AtomicBool::new(false),
        head_too_large: AtomicBool::new(false),
    });
    let io = TokioIo::new(Shared {
        stream: stream.clone(),
        activity: activity.clone(),
        head: HeadBound::default(),
    });
    let seen = activity.clone();
    let service = service_fn(move |request: Request<Incoming>| {
        seen.head_begun.store(false, Relaxed);
        answer_logged(app.clone(), request)
    });
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(timeout)
        .max_buf_size(READ_BUFFER)
        .max_headers(MAX_HEADERS);
    let end = tokio::select! {
        result = http.serve_connection(io, service) => match result {
            _ if activity.head_too_large.load(Relaxed) => End::TooLarge,
            Ok(()) => End::Done,
            Err(e) if e.is_timeout() && activity.head_begun.load(Relaxed) => End::HeadTimeout,
            Err(e) if e.is_parse_too_large() => {
                End::Refused("request head too large", StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE)
            }
            Err(e) if e.is_parse() => End::Refused("malformed request", StatusCode::BAD_REQUEST),
            Err(_) => End::Done,
        },
        () = watchdog(&activity, timeout) => End::Stalled,
    };
    // hyper has dropped its handle: the socket is ours again.
    let Ok(mut stream) = Arc::try_unwrap(stream) else {
        return;
    };
    match end {
        End::Done => return,
        End::Stalled => {
            log(format_args!(
                "- (connection from {peer} idle for {:.1} s) closed",
                activity.idle().as_secs_f64()
            ));
            return;
        }
        End::HeadTimeout => {
            let why = format!(
                "the request did not arrive within {:.1} s",
                timeout.as_secs_f64()
            );
            let status = StatusCode::REQUEST_TIMEOUT;
            refuse(&mut stream, status, why, "(request head too slow)", started).await;
        }
        End::TooLarge => {
            let why = format!(
                "the request head is over {} KiB or {MAX_HEADERS} headers",
                MAX_HEAD / 1024
            );
            let status = StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE;
            refuse(
                &mut stream,
                status,
                why,
                "(request head too large)",
                started,
            )
            .await;
        }
        End::Refused(why, status) => log_request("-", &format!("({why})"), status, started),
    }
    linger(&mut stream).await;
}

/// Answers one request through the routes, and logs it.
async fn answer_logged(
    app: Router,
    request: Request<Incoming>,
) -> Result<axum::response::Response, Infallible> {
    let started = Instant::now();
    let method = request.method().clone();
    let target = request
        .uri()
        .path_and_query()
        .map_or_else(|| "/".to_string(), |p| clip_log(p.as_str()));
    let response = app.oneshot(request).await.unwrap_or_else(|e| match e {});
    log_request(method.as_str(), &target, response.status(), started);
    Ok(response)
}

/// Answers a request that hyper did not take (its head too slow or too large) with `status`
/// and `{"error": why}`, and logs it as `what`.
async fn refuse(
    stream: &mut TcpStream,
    status: StatusCode,
    why: String,
    what: &str,
    started: Instant,
) {
    let body = wire::line(&wire::ErrorJson { error: why });
    let answer = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        status.as_u16(),
        status.canonical_reason().unwrap_or(""),
        body.len()
    );
    let _ = tokio::time::timeout(LINGER, stream.write_all(answer.as_bytes())).await;
    log_request("-", what, status, started);
}

/// Shuts the socket for writing and reads what the client still sends, for a moment, so that
/// closing does not reset the connection before the client has read the answer.
async fn linger(stream: &mut TcpStream) {
    let _ = stream.shutdown().await;
    let drain = async {
        let mut buf = [0u8; 8192];
        let mut total = 0;
        while total < LINGER_BYTES {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => total += n,
            }
        }
    };
    let _ = tokio::time::timeout(LINGER, drain).await;
}

/// Returns once nothing moved on the connection for twice the timeout and a second: longer
/// than any handler may take (the timeout and a second) and than hyper waits for a head.
async fn watchdog(activity: &Activity, timeout: Duration) {
    let limit = 2 * timeout + Duration::from_secs(1);
    let period = (timeout / 2).clamp(Duration::from_millis(100), Duration::from_secs(1));
    loop {
        tokio::time::sleep(period).await;
        if activity.idle() > limit {
            return;
        }
    }
}

/// A request target as the log shows it: at most 200 characters.
fn clip_log(target: &str) -> String {
    match target.char_indices().nth(200) {
        None => target.to_string(),
        Some((end, _)) => format!("{}… ({} bytes)", &target[..end], target.len()),
    }
}

/// One log line: method, target, status, duration.
fn log_request(method: &str, target: &str, status: StatusCode, started: Instant) {
    log(format_args!(
        "{method} {target} {} {:.1} ms",
        status.as_u16(),
        started.elapsed().as_secs_f64() * 1000.0
    ));
}

/// A line on standard error; never fails (a closed standard error loses the log, not the
/// server).
pub(super) fn log(line: fmt::Arguments) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}
