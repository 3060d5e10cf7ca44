//! iceberg-rust as an engine of the Iceberg conformance suite: the suite's line protocol
//! (version 2) on stdin/stdout, every answer computed by the `iceberg` crate's public API.
//! Nothing but protocol messages goes to stdout.

mod metadata;
mod ops;
mod projection;
mod tree;
mod values;

use std::io::{BufRead, Write};

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Value};

/// The `iceberg` crate version this program is built against (kept equal to the Cargo.toml pin).
pub const ICEBERG_VERSION: &str = "0.10.1";
pub const ENGINE: &str = "iceberg-rust";

#[derive(Deserialize)]
struct Request {
    cmd: String,
    #[serde(default)]
    cases: Vec<Box<RawValue>>,
}

/// The id of a case whose other fields the adapter could not read as JSON values.
#[derive(Deserialize)]
struct Header {
    id: Value,
}

fn answer_raw(raw: &RawValue) -> Value {
    match serde_json::from_str::<Value>(raw.get()) {
        Ok(case) => ops::answer(&case),
        Err(e) => {
            let id = serde_json::from_str::<Header>(raw.get())
                .map(|h| h.id)
                .unwrap_or(Value::Null);
            // The crate takes JSON numbers as serde_json values (f64 or 64-bit integers): a number
            // beyond those never reaches it, so the case is not judged rather than failed.
            json!({"id": id, "status": "unsupported",
                   "reason": format!("the adapter cannot hand this case to the crate as serde_json values (a number beyond the f64 and 64-bit integer ranges): {e}")})
        }
    }
}

fn main() {
    // A panic inside the crate is caught per case; keep its message off stdout.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("panic: {info}");
    }));
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let reply = match serde_json::from_str::<Request>(&line) {
            Err(e) => json!({"ok": false, "error": format!("unreadable request: {e}")}),
            Ok(req) => match req.cmd.as_str() {
                "start" => json!({
                    "engine": ENGINE,
                    "version": ICEBERG_VERSION,
                    "protocol": 2,
                    "capabilities": ops::CAPABILITIES,
                }),
                "run" => {
                    let results: Vec<Value> = req.cases.iter().map(|c| answer_raw(c)).collect();
                    json!({ "results": results })
                }
                "stop" => break,
                other => json!({"ok": false, "error": format!("unknown cmd {other:?}")}),
            },
        };
        let _ = writeln!(out, "{reply}");
        let _ = out.flush();
    }
}
