#!/usr/bin/env node
// A conformance engine in JavaScript, with no dependencies: Iceberg's 32-bit Murmur3 hash
// (Appendix B) and the bucket[N] and truncate[W] transforms of ints, longs, strings and a few more
// types, spoken over the line protocol (conformance/engines/PROTOCOL.md, version 2).
//
//   pytest conformance/ --engine 'cmd:node-murmur3=node conformance/examples/node_engine/engine.mjs'
//   python -m conformance.smoke 'cmd:node-murmur3=node conformance/examples/node_engine/engine.mjs'
//
// Every case it cannot compute is answered `unsupported` with the reason, never guessed.

import { createInterface } from "node:readline";

const ENGINE = "node-murmur3";
const VERSION = "0.1.0";
const CAPABILITIES = ["hash", "transform"];
const BIG = "\u0000big:"; // marks integers too long for a JavaScript number, kept as text

class Unsupported extends Error {}
class Rejected extends Error {
  constructor(message, rule) {
    super(message);
    this.rule = rule;
  }
}

// ---- reading: integers longer than 15 digits become strings before JSON.parse (exact longs)

function quoteLongIntegers(line) {
  let out = "";
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (inString) {
      out += ch;
      if (ch === "\\") out += line[++i];
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      inString = true;
      out += ch;
      continue;
    }
    const m = /^-?\d+(?![\d.eE])/.exec(line.slice(i, i + 40));
    if (m && (i === 0 || !/[\w.]/.test(line[i - 1]))) {
      out += m[0].replace(/^-/, "").length > 15 ? JSON.stringify(BIG + m[0]) : m[0];
      i += m[0].length - 1;
      continue;
    }
    out += ch;
  }
  return out;
}

function toBigInt(value) {
  if (typeof value === "number" && Number.isInteger(value)) return BigInt(value);
  if (typeof value === "string" && value.startsWith(BIG)) return BigInt(value.slice(BIG.length));
  throw new Unsupported(`not an integer in vector form: ${JSON.stringify(value)}`);
}

// ---- Murmur3 x86 32-bit, seed 0 (Appendix B)

function murmur3(bytes) {
  let h = 0;
  const n = bytes.length;
  const blocks = n & ~3;
  for (let i = 0; i < blocks; i += 4) {
    let k = bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  let k = 0;
  switch (n & 3) {
    case 3: k ^= bytes[blocks + 2] << 16; // falls through
    case 2: k ^= bytes[blocks + 1] << 8; // falls through
    case 1:
      k ^= bytes[blocks];
      k = Math.imul(k, 0xcc9e2d51);
      k = (k << 15) | (k >>> 17);
      k = Math.imul(k, 0x1b873593);
      h ^= k;
  }
  h ^= n;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

function longBytes(v) {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigInt64(0, BigInt.asIntN(64, v), true);
  return bytes;
}

function hexBytes(text) {
  if (typeof text !== "string" || !/^([0-9a-fA-F]{2})*$/.test(text)) throw new Unsupported("not hex bytes");
  return Uint8Array.from(text.match(/../g) || [], (h) => parseInt(h, 16));
}

// ---- values in Appendix D form to the physical value that is hashed

function daysFromCivil(y, m, d) {
  // Howard Hinnant's days_from_civil, proleptic Gregorian
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function parseDate(text) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) throw new Unsupported(`date outside years 0000-9999 or malformed: ${text}`);
  return BigInt(daysFromCivil(+m[1], +m[2], +m[3]));
}

function parseTime(text) {
  const m = /^(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?$/.exec(text);
  if (!m) throw new Unsupported(`time malformed or finer than microseconds: ${text}`);
  const micros = BigInt((m[4] || "").padEnd(6, "0"));
  return ((BigInt(+m[1]) * 60n + BigInt(+m[2])) * 60n + BigInt(+m[3])) * 1000000n + micros;
}

function parseTimestamp(text, zoned) {
  const m = /^(\d{4}-\d{2}-\d{2})T([0-9:.]+)(\+00:00)?$/.exec(text);
  if (!m || Boolean(m[3]) !== zoned) throw new Unsupported(`timestamp not understood: ${text}`);
  return parseDate(m[1]) * 86400000000n + parseTime(m[2]);
}

function hashInput(type, value) {
  if (type === "int" || type === "long") return murmur3(longBytes(toBigInt(value)));
  if (type === "date") return murmur3(longBytes(parseDate(value)));
  if (type === "time") return murmur3(longBytes(parseTime(value)));
  if (type === "timestamp" || type === "timestamptz") return murmur3(longBytes(parseTimestamp(value, type === "timestamptz")));
  if (type === "string") return murmur3(new TextEncoder().encode(value));
  if (type === "binary" || /^fixed\[\d+\]$/.test(type)) return murmur3(hexBytes(value));
  if (type === "uuid") return murmur3(hexBytes(String(value).replace(/-/g, "")));
  if (type === "boolean") return murmur3(longBytes(value ? 1n : 0n));
  throw new Unsupported(`no hash of ${type} in this example engine`);
}

// ---- ops

function hash(c) {
  if (c.value === null) return null;
  return hashInput(c.type, c.value);
}

function transform(c) {
  const bucket = /^bucket\[(\d+)\]$/.exec(c.transform);
  if (bucket) {
    const n = Number(bucket[1]);
    if (n <= 0) throw new Unsupported("bucket width 0 is left to the engines that validate it");
    if (c.type === "boolean") throw new Rejected("booleans cannot be bucketed", "transform.source-type");
    if (c.value === null) return null;
    return (hashInput(c.type, c.value) & 0x7fffffff) % n;
  }
  const truncate = /^truncate\[(\d+)\]$/.exec(c.transform);
  if (truncate && (c.type === "int" || c.type === "long" || c.type === "string")) {
    const w = BigInt(truncate[1]);
    if (w <= 0n) throw new Unsupported("truncate width 0 is left to the engines that validate it");
    if (c.value === null) return null;
    if (c.type === "string") return Array.from(c.value).slice(0, Number(w)).join("");
    const v = toBigInt(c.value);
    const out = v - (((v % w) + w) % w);
    const bits = c.type === "int" ? 32 : 64;
    if (BigInt.asIntN(bits, out) !== out) throw new Unsupported("the truncated value overflows; the rule for it is left to other engines");
    return out;
  }
  throw new Unsupported(`no ${c.transform} of ${c.type} in this example engine`);
}

const OPS = { hash, transform };

function answer(c) {
  const id = c.id;
  try {
    const op = OPS[c.op];
    if (!op) return { id, status: "unsupported", reason: `no op ${c.op}` };
    return { id, status: "ok", output: op(c) };
  } catch (e) {
    if (e instanceof Unsupported) return { id, status: "unsupported", reason: e.message };
    if (e instanceof Rejected) return { id, status: "rejected", error: e.message, rule: e.rule };
    return { id, status: "error", error: String(e && e.stack ? e.stack.split("\n")[0] : e) };
  }
}

// ---- writing: longs beyond a JavaScript number's exact range are written as bare integers

function write(message) {
  const text = JSON.stringify(message, (_, v) => (typeof v === "bigint" ? BIG + v.toString() : v));
  process.stdout.write(text.replace(new RegExp(`"\\\\u0000big:(-?\\d+)"`, "g"), "$1") + "\n");
}

const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
input.on("line", (line) => {
  if (!line.trim()) return;
  let request;
  try {
    request = JSON.parse(quoteLongIntegers(line));
  } catch (e) {
    write({ error: `not JSON: ${e.message}` });
    return;
  }
  if (request.cmd === "start") {
    if (request.protocol !== 2) write({ error: `this engine speaks protocol 2, not ${request.protocol}` });
    else write({ engine: ENGINE, version: VERSION, protocol: 2, capabilities: CAPABILITIES });
  } else if (request.cmd === "run") {
    write({ results: (request.cases || []).map(answer) });
  } else if (request.cmd === "stop") {
    input.close();
  } else {
    write({ error: `unknown command ${request.cmd}` });
  }
});
