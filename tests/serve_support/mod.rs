//! Helpers for the `morris serve` tests: solved folders, a server on a free loopback port, and
//! a small HTTP/1.1 client over std sockets (raw bytes when a test needs to misbehave).
#![allow(dead_code)]

use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Runs the `morris` binary to completion.
pub fn morris(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_morris"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run morris")
}

/// A fresh folder under the build's temporary directory.
pub fn fresh_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Solves `variant` with `extra` options into a fresh folder `name`.
pub fn solved(name: &str, variant: &str, extra: &[&str]) -> PathBuf {
    let dir = fresh_dir(name);
    solve_into(&dir, variant, extra);
    dir
}

/// Solves `variant` with `extra` options into the folder `dir`, keeping what it holds.
pub fn solve_into(dir: &Path, variant: &str, extra: &[&str]) {
    let mut args = vec!["--variant", variant, "solve", "--quiet", "--db"];
    args.push(dir.to_str().unwrap());
    args.extend(extra);
    let out = morris(&args);
    assert!(
        out.status.success(),
        "solve failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Percent-encodes a query-string value (everything but unreserved characters and `/`).
pub fn enc(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A `morris serve` process on a port the system chose; killed when dropped.
pub struct Server {
    child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
    /// Its standard error (the request log).
    pub log: PathBuf,
}

impl Server {
    /// Starts `morris serve --db DIR --bind 127.0.0.1:0 --timeout SECONDS` and waits (at most
    /// 30 s) for the line that names its address.
    pub fn start(db: &Path, timeout_s: f64) -> Server {
        Server::start_with(db, timeout_s, "127.0.0.1:0", &[])
    }

    /// [`Server::start`] listening on `bind`, with `extra` options (`--cors ...`).
    pub fn start_with(db: &Path, timeout_s: f64, bind: &str, extra: &[&str]) -> Server {
        static SERVERS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = SERVERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let log = db.with_extension(format!("serve-{}-{n}.log", std::process::id()));
        let mut child = Command::new(env!("CARGO_BIN_EXE_morris"))
            .args(["serve", "--db", db.to_str().unwrap(), "--bind", bind])
            .args(["--timeout", &timeout_s.to_string()])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(File::create(&log).unwrap())
            .spawn()
            .expect("start morris serve");
        let Some(line) = first_line(&mut child, Duration::from_secs(30)) else {
            let _ = child.kill();
            panic!("morris serve did not say where it listens within 30 s");
        };
        let addr = address_in(&line).unwrap_or_else(|| {
            let _ = child.kill();
            panic!("unexpected first line from morris serve: {line:?}")
        });
        Server { child, addr, log }
    }

    /// `http://ADDR`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Whether the process still runs.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP response.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).to_string()
    }

    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }

    /// A header's value (names compared without case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Reads one response (head, then a body by content-length or chunks) from `r`.
pub fn read_response(r: &mut impl BufRead) -> io::Result<Response> {
    read_response_of(r, false)
}

/// Reads one response; the head only when `head_only` (the answer to a HEAD request).
pub fn read_response_of(r: &mut impl BufRead, head_only: bool) -> io::Result<Response> {
    let mut line = String::new();
    if r.read_line(&mut line)? == 0 {
        return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "no response"));
    }
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| io::Error::other(format!("bad status line {line:?}")))?;
    let mut headers = Vec::new();
    loop {
        line.clear();
        r.read_line(&mut line)?;
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((n, v)) = l.split_once(':') {
            headers.push((n.trim().to_string(), v.trim().to_string()));
        }
    }
    let mut resp = Response {
        status,
        headers,
        body: Vec::new(),
    };
    if head_only {
        return Ok(resp);
    }
    if let Some(len) = resp.header("content-length") {
        let len: usize = len.parse().map_err(io::Error::other)?;
        resp.body = vec![0; len];
        r.read_exact(&mut resp.body)?;
    } else if resp
        .header("transfer-encoding")
        .is_some_and(|t| t.contains("chunked"))
    {
        loop {
            line.clear();
            r.read_line(&mut line)?;
            let size = usize::from_str_radix(line.trim(), 16).map_err(io::Error::other)?;
            let mut chunk = vec![0; size + 2];
            r.read_exact(&mut chunk)?;
            if size == 0 {
                break;
            }
            resp.body.extend_from_slice(&chunk[..size]);
        }
    } else {
        r.read_to_end(&mut resp.body)?;
    }
    Ok(resp)
}

/// One request on a fresh connection (`Connection: close`), with 30 s socket timeouts.
pub fn request(addr: SocketAddr, method: &str, target: &str, body: &str) -> io::Result<Response> {
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(10))?;
    s.set_read_timeout(Some(Duration::from_secs(30)))?;
    s.set_write_timeout(Some(Duration::from_secs(30)))?;
    let head = format!(
        "{method} {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n{}\r\n",
        body.len(),
        if body.is_empty() { "" } else { "Content-Type: application/json\r\n" }
    );
    s.write_all(head.as_bytes())?;
    s.write_all(body.as_bytes())?;
    read_response_of(&mut BufReader::new(s), method == "HEAD")
}

/// `GET target`.
pub fn get(addr: SocketAddr, target: &str) -> Response {
    request(addr, "GET", target, "").unwrap_or_else(|e| panic!("GET {target}: {e}"))
}

/// A keep-alive connection making requests one after another.
pub struct Connection {
    addr: SocketAddr,
    reader: BufReader<TcpStream>,
}

impl Connection {
    /// Connects, with 30 s socket timeouts.
    pub fn open(addr: SocketAddr) -> io::Result<Connection> {
        let s = TcpStream::connect_timeout(&addr, Duration::from_secs(10))?;
        s.set_read_timeout(Some(Duration::from_secs(30)))?;
        s.set_write_timeout(Some(Duration::from_secs(30)))?;
        s.set_nodelay(true)?;
        Ok(Connection {
            addr,
            reader: BufReader::new(s),
        })
    }

    /// `GET target` on this connection.
    pub fn get(&mut self, target: &str) -> io::Result<Response> {
        let head = format!("GET {target} HTTP/1.1\r\nHost: {}\r\n\r\n", self.addr);
        self.reader.get_mut().write_all(head.as_bytes())?;
        read_response(&mut self.reader)
    }
}

/// Polls `f` every 50 ms until it gives `Some`, for at most `limit`.
pub fn wait_for<T>(limit: Duration, mut f: impl FnMut() -> Option<T>) -> Option<T> {
    let start = Instant::now();
    loop {
        if let Some(v) = f() {
            return Some(v);
        }
        if start.elapsed() > limit {
            return None;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The first line a child writes on its piped standard output, or `None` when none comes
/// within `wait` (read on a thread of its own, so that a silent child cannot hang the test).
pub fn first_line(child: &mut Child, wait: Duration) -> Option<String> {
    let stdout = child.stdout.take()?;
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    rx.recv_timeout(wait).ok()
}

/// The address in `morris serve`'s first line (`... http://ADDR/ ...`).
pub fn address_in(line: &str) -> Option<SocketAddr> {
    line.split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|a| a.parse().ok())
}
