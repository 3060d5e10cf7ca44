#!/usr/bin/env node
// icebird (a JavaScript Iceberg reader on hyparquet) as a conformance engine: it answers
// `read-table` over the line protocol (conformance/engines/PROTOCOL.md, version 2).
//
//   (cd conformance/examples/icebird_engine && npm ci)
//   pytest conformance/ --engine 'cmd:icebird=node conformance/examples/icebird_engine/engine.mjs' -m tables
//
// What icebird is given, and how its answer is written down:
//
// * icebird fetches every file through the global `fetch` (metadata and manifests directly,
//   Parquet data and delete files through hyparquet's `asyncBufferFromUrl`, with Range requests).
//   Node's fetch has no `file:` URLs, so this program installs one: a `file:` URL is read from the
//   local disk (a Range request answered 206 with its bytes, a missing file 404); any other URL is
//   refused, so nothing leaves the machine.
// * The case carries `metadata-location` and `table-location` (the suite writes the golden table
//   to disk). Metadata files are read with icebird's `icebergMetadata` (`<table>/metadata/<file>`),
//   the rows with `icebergRead({ tableUrl, metadata })`.
// * icebird reads the current snapshot of a metadata file, with its current schema; it has no
//   snapshot option. Its versions are the metadata files (`icebergListVersions`: v1..vN). A case's
//   snapshot is read from the table version that committed it: the oldest metadata file whose
//   current snapshot it is, handed to icebird as it is on disk (see `tableVersion`). A snapshot
//   that was never current in a version kept on disk is `unsupported`.
// * The rows are written in the vectors' form (spec_impl/vectors/tables.py, `table_rows`), by the
//   Iceberg type of the column in the schema icebird read with: longs exactly, decimals (which
//   hyparquet decodes to JavaScript doubles) at the column's scale, dates, times and timestamps in
//   ISO form (hyparquet gives timestamps as millisecond `Date`s, written as they are), binary as
//   hex, non-finite floats as {"ieee754": hex}, maps as {"keys", "values"} sorted by key JSON. A
//   string where bytes, a date or a decimal is due (an `initial-default` in its JSON form, or
//   bytes hyparquet decoded as UTF-8) is written as icebird gave it. A value not of its column's
//   type makes the case `error`; a type the conversion has no form for, `unsupported`. Nothing is
//   guessed.
// * icebird has no row lineage: `_row_id` and `_last_updated_sequence_number` are not reported.
// * An exception icebird raises on a table is that case's `error`; nothing ends the process.

import { open, readFile, stat } from "node:fs/promises";
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";

const ENGINE = "icebird";
const CAPABILITIES = ["read-table"];
const HERE = dirname(fileURLToPath(import.meta.url));
const LONG = "\u0000long:"; // an integer literal beyond 2^53, kept as text when a request is parsed

class Unsupported extends Error {}

// ---- the engine's version: icebird's, with the packages it reads through

function installedVersion(name) {
  try {
    return JSON.parse(readFileSync(join(HERE, "node_modules", name, "package.json"), "utf8")).version;
  } catch {
    return null;
  }
}

function engineVersion() {
  const icebird = installedVersion("icebird");
  if (!icebird) return null;
  const parts = ["hyparquet", "hyparquet-compressors"].map((n) => `${n} ${installedVersion(n) ?? "?"}`);
  return `${icebird} (${parts.join(", ")})`;
}

// ---- fetch for file: URLs (icebird and hyparquet fetch every file they read)

async function fileFetch(input, init = {}) {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  if (!/^file:/i.test(url)) {
    throw new TypeError(`the icebird engine reads local files only; refused to fetch ${url}`);
  }
  let path;
  try {
    path = fileURLToPath(new URL(url));
  } catch (e) {
    return new Response(`bad file URL ${url}: ${e.message}`, { status: 400, statusText: "Bad Request" });
  }
  const method = (init.method || (typeof input === "object" && input.method) || "GET").toUpperCase();
  let size;
  try {
    size = (await stat(path)).size;
  } catch {
    return new Response(`no file ${path}`, { status: 404, statusText: "Not Found" });
  }
  if (method === "HEAD") return new Response(null, { status: 200, headers: { "content-length": String(size) } });
  const range = new Headers(init.headers).get("range");
  if (!range) return new Response(await readFile(path), { status: 200, headers: { "content-length": String(size) } });
  const m = /^bytes=(\d+)-(\d*)$/.exec(range.trim());
  if (!m) return new Response(`unsupported range ${range}`, { status: 416, statusText: "Range Not Satisfiable" });
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return new Response(null, { status: 416, statusText: "Range Not Satisfiable" });
  const bytes = Buffer.alloc(end + 1 - start);
  const file = await open(path, "r");
  try {
    await file.read(bytes, 0, bytes.length, start);
  } finally {
    await file.close();
  }
  return new Response(bytes, {
    status: 206,
    headers: { "content-length": String(end + 1 - start), "content-range": `bytes ${start}-${end}/${size}` },
  });
}

globalThis.fetch = fileFetch; // Node's own fetch is never called: nothing leaves the machine

// ---- the Iceberg types of a schema, for writing values

function typeOfField(schema, name) {
  const field = schema?.fields?.find((f) => f.name === name);
  return field ? field.type : undefined;
}

// ---- values as the vectors write them (Python's table_rows over Arrow)

const pad = (n, w) => String(n).padStart(w, "0");

function isoYear(y) {
  if (y >= 0 && y <= 9999) return pad(y, 4);
  throw new Unsupported(`a year outside 0000-9999 (${y}) has no ISO form in the vectors`);
}

function isoDate(date) {
  return `${isoYear(date.getUTCFullYear())}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}`;
}

function isoTimestamp(date, zoned) {
  if (Number.isNaN(date.getTime())) throw new Error("icebird returned an invalid Date");
  const time = `${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)}`;
  // a Date holds milliseconds: the microsecond digits are what it holds, nothing is made up
  return `${isoDate(date)}T${time}.${pad(date.getUTCMilliseconds(), 3)}000${zoned ? "+00:00" : ""}`;
}

function isoTime(micros) {
  const v = BigInt(micros);
  if (v < 0n || v >= 86400000000n) throw new Error(`icebird returned a time of day out of range: ${v} microseconds`);
  const s = v / 1000000n;
  const frac = v % 1000000n;
  const text = `${pad(s / 3600n, 2)}:${pad((s / 60n) % 60n, 2)}:${pad(s % 60n, 2)}`;
  return frac === 0n ? text : `${text}.${pad(frac, 6)}`; // Python's time.isoformat()
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function doubleBits(x) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  return hex(new Uint8Array(view.buffer));
}

// A double written so that it reads back as a float (2 is written 2.0), -0.0 kept.
class Double {
  constructor(value) {
    this.value = value;
  }
}

function decimalText(value, type) {
  const scale = Number(/^decimal\(\s*\d+\s*,\s*(\d+)\s*\)$/.exec(type)[1]);
  if (typeof value === "string") return value; // as icebird gave it (an initial-default's JSON form)
  if (typeof value === "bigint") throw new Unsupported(`icebird returned an unscaled integer for a ${type} value`);
  if (typeof value !== "number" || !Number.isFinite(value)) throw new Error(`icebird returned ${describe(value)} for a ${type} value`);
  if (Math.abs(value) >= 1e21) throw new Unsupported(`a ${type} value beyond 1e21 cannot be written from a double`);
  // hyparquet decodes a decimal to a double (unscaled * 10^-scale): it is written at the column's scale
  const text = value.toFixed(scale);
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}

function uuidText(bytes) {
  const h = hex(bytes);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function describe(value) {
  if (value === null || value === undefined) return String(value);
  if (typeof value === "object") return `a ${value.constructor?.name ?? "object"}`;
  return `${typeof value} ${String(value).slice(0, 40)}`;
}

function asInteger(value, type) {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isInteger(value)) return value;
  throw new Error(`icebird returned ${describe(value)} for a ${type} value`);
}

function jsonValue(value, type) {
  if (value === null || value === undefined) return null;
  if (type === undefined) return untypedValue(value);
  if (typeof type === "object") {
    if (type.type === "struct") {
      if (typeof value !== "object" || Array.isArray(value)) throw new Error(`icebird returned ${describe(value)} for a struct`);
      const out = {};
      for (const [k, v] of Object.entries(value)) out[k] = jsonValue(v, type.fields.find((f) => f.name === k)?.type);
      return out;
    }
    if (type.type === "list") {
      if (!Array.isArray(value)) throw new Error(`icebird returned ${describe(value)} for a list`);
      return value.map((v) => jsonValue(v, type.element));
    }
    if (type.type === "map") {
      // hyparquet assembles a map as a JavaScript object: its keys are strings, whatever the key type
      if (typeof value !== "object" || Array.isArray(value)) throw new Error(`icebird returned ${describe(value)} for a map`);
      const keyType = type.key === "string" ? "string" : undefined;
      const pairs = Object.entries(value).map(([k, v]) => [jsonValue(k, keyType), jsonValue(v, type.value)]);
      pairs.sort((a, b) => compareText(pythonJson(a[0]), pythonJson(b[0]))); // the order table_rows gives
      return { keys: pairs.map((p) => p[0]), values: pairs.map((p) => p[1]) };
    }
    throw new Unsupported(`no JSON form for the Iceberg type ${JSON.stringify(type)}`);
  }
  if (type === "boolean") {
    if (typeof value !== "boolean") throw new Error(`icebird returned ${describe(value)} for a boolean`);
    return value;
  }
  if (type === "int" || type === "long") return asInteger(value, type);
  if (type === "float" || type === "double") {
    if (typeof value !== "number") throw new Error(`icebird returned ${describe(value)} for a ${type} value`);
    return Number.isFinite(value) ? new Double(value) : { ieee754: doubleBits(value) };
  }
  if (type.startsWith("decimal")) return decimalText(value, type);
  if (type === "string") {
    if (typeof value !== "string") throw new Error(`icebird returned ${describe(value)} for a string`);
    return value;
  }
  if (type === "date") {
    if (value instanceof Date) return isoDate(value);
    if (typeof value === "string") return value; // an initial-default's JSON form, as icebird gave it
    throw new Error(`icebird returned ${describe(value)} for a date`);
  }
  if (type === "time") {
    if (typeof value === "bigint" || Number.isInteger(value)) return isoTime(value);
    if (typeof value === "string") return value;
    throw new Error(`icebird returned ${describe(value)} for a time`);
  }
  if (type === "timestamp" || type === "timestamptz") {
    if (value instanceof Date) return isoTimestamp(value, type === "timestamptz");
    if (typeof value === "string") return value;
    throw new Error(`icebird returned ${describe(value)} for a ${type}`);
  }
  if (type === "binary" || /^fixed\[\d+\]$/.test(type)) {
    if (value instanceof Uint8Array) return hex(value);
    if (typeof value === "string") return value;
    throw new Error(`icebird returned ${describe(value)} for a ${type} value`);
  }
  if (type === "uuid") {
    if (value instanceof Uint8Array && value.length === 16) return uuidText(value);
    if (typeof value === "string") return value;
    throw new Error(`icebird returned ${describe(value)} for a uuid`);
  }
  throw new Unsupported(`no JSON form for the Iceberg type ${type} in this engine`);
}

// A value whose Iceberg type is not known (a struct member or map key icebird named otherwise):
// written by its JavaScript kind, without reading anything into it.
function untypedValue(value) {
  if (value === null || value === undefined) return null;
  if (typeof value === "bigint" || typeof value === "boolean" || typeof value === "string") return value;
  if (typeof value === "number") return Number.isInteger(value) ? value : Number.isFinite(value) ? new Double(value) : { ieee754: doubleBits(value) };
  if (value instanceof Uint8Array) return hex(value);
  if (value instanceof Date) throw new Unsupported("a Date of a column whose Iceberg type is unknown (date or timestamp?)");
  if (Array.isArray(value)) return value.map(untypedValue);
  if (typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, untypedValue(v)]));
  throw new Error(`icebird returned ${describe(value)}`);
}

// A map key as Python's json.dumps writes it (non-ASCII escaped), the text table_rows sorts entries by.
function pythonJson(value) {
  return serialize(value, true).replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

// ---- JSON out: longs as bare integers, doubles always with a fraction or exponent, keys sorted on request

function compareText(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

function serialize(value, sortKeys = false) {
  if (value === null) return "null";
  if (value instanceof Double) {
    if (Object.is(value.value, -0)) return "-0.0";
    const text = String(value.value);
    return /[.eE]/.test(text) ? text : `${text}.0`;
  }
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`cannot write ${value} as JSON`);
    return String(value);
  }
  if (typeof value === "string" || typeof value === "boolean") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => serialize(v, sortKeys)).join(",")}]`;
  const keys = Object.keys(value);
  if (sortKeys) keys.sort(compareText);
  return `{${keys.map((k) => `${JSON.stringify(k)}:${serialize(value[k], sortKeys)}`).join(",")}}`;
}

// ---- read-table

let icebird = null; // the module, imported at start

function snapshotNumber(value) {
  if (typeof value === "number" && Number.isInteger(value)) return { exact: BigInt(value), asNumber: value };
  if (typeof value === "string" && value.startsWith(LONG)) {
    const exact = BigInt(value.slice(LONG.length));
    return { exact, asNumber: Number(exact) };
  }
  throw new Unsupported(`snapshot-id is not an integer: ${JSON.stringify(value)}`);
}

// icebird reads the current snapshot of a metadata file (a table version, `vN.metadata.json`,
// as its icebergListVersions counts them); it has no snapshot option. A snapshot is read from the
// table version that committed it: the first metadata file, oldest first, whose current snapshot
// it is. The versions are v1..vN when the metadata file is named vN.metadata.json, else the files
// of the table's metadata-log and the latest one. Each is read by icebird as it is on disk.
async function tableVersion(tableDir, latestName, wanted) {
  const tableUrl = pathToFileURL(tableDir).href;
  const metadataDir = join(tableDir, "metadata");
  const latest = await icebird.icebergMetadata({ tableUrl, metadataFileName: latestName });
  // icebird parses metadata with JSON.parse: snapshot ids beyond 2^53 become doubles, rounded as
  // Number() rounds the case's exact id
  const matching = (latest.snapshots || []).filter((s) => s["snapshot-id"] === wanted.asNumber);
  if (matching.length === 0) throw new Error(`snapshot ${wanted.exact} is not in ${latestName}`);
  if (matching.length > 1) {
    throw new Unsupported(`snapshot ${wanted.exact} cannot be told from another one once icebird parses the ids as doubles`);
  }
  const numbered = /^v(\d+)\.metadata\.json$/.exec(latestName);
  let names;
  if (numbered) {
    names = Array.from({ length: Number(numbered[1]) }, (_, i) => `v${i + 1}.metadata.json`);
  } else {
    names = (latest["metadata-log"] || [])
      .map((e) => String(e["metadata-file"]).replace(/^file:(\/\/)?/, ""))
      .filter((path) => dirname(resolve(path)) === metadataDir)
      .map((path) => basename(path));
    names.push(latestName);
  }
  for (const name of names) {
    if (name !== latestName && !existsSync(join(metadataDir, name))) continue; // a version no longer kept
    const metadata = name === latestName ? latest : await icebird.icebergMetadata({ tableUrl, metadataFileName: name });
    if (metadata["current-snapshot-id"] === wanted.asNumber) return { tableUrl, metadata, fileName: name };
  }
  throw new Unsupported(`snapshot ${wanted.exact} is the current snapshot of no table version (${names.join(", ")}), `
    + "and icebird reads only a version's current snapshot");
}

async function readTable(c) {
  const metadataPath = c["metadata-location"];
  const tableLocation = c["table-location"];
  if (typeof metadataPath !== "string" || typeof tableLocation !== "string") {
    throw new Unsupported("the case carries no metadata-location and table-location: icebird reads tables from disk only");
  }
  const metadataFile = resolve(metadataPath.replace(/^file:(\/\/)?/, ""));
  const table = resolve(tableLocation.replace(/^file:(\/\/)?/, ""));
  if (dirname(metadataFile) !== join(table, "metadata")) {
    throw new Unsupported(`icebird reads metadata from <table>/metadata/ only; ${metadataFile} is elsewhere`);
  }
  const wanted = snapshotNumber(c["snapshot-id"]);
  const { tableUrl, metadata, fileName } = await tableVersion(table, basename(metadataFile), wanted);

  const records = await icebird.icebergRead({ tableUrl, metadata });

  // the schema icebird read with, and so its columns: the current schema
  const schema = metadata.schemas?.find((s) => s["schema-id"] === metadata["current-schema-id"]);
  if (!schema) throw new Error(`${fileName} has no current schema`);
  const columns = records.length ? Object.keys(records[0]) : schema.fields.map((f) => f.name);
  const rows = records.map((record) => {
    const keys = Object.keys(record);
    if (keys.length !== columns.length || keys.some((k, i) => k !== columns[i])) {
      throw new Error(`icebird returned rows with different columns: ${JSON.stringify(keys)} and ${JSON.stringify(columns)}`);
    }
    const row = {};
    for (const k of keys) row[k] = jsonValue(record[k], typeOfField(schema, k));
    return row;
  });
  const texts = rows.map((r) => [serialize(r, true), r]);
  texts.sort((a, b) => compareText(a[0], b[0]));
  return { columns, rows: texts.map((t) => t[1]) };
}

const OPS = { "read-table": readTable };

function firstLine(e) {
  if (e && e.stack) return `${e.name || "Error"}: ${e.message}`;
  return String(e);
}

async function answer(c) {
  const id = c.id;
  try {
    const op = OPS[c.op];
    if (!op) return { id, status: "unsupported", reason: `the icebird engine answers read-table only, not ${c.op}` };
    return { id, status: "ok", output: await op(c) };
  } catch (e) {
    if (e instanceof Unsupported) return { id, status: "unsupported", reason: e.message };
    return { id, status: "error", error: firstLine(e) };
  }
}

// ---- the conversation

function parseRequest(line) {
  // integers beyond 2^53 (snapshot ids) become marked strings before JSON.parse, so they stay exact
  const text = line.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g, (token) => {
    if (token.startsWith('"') || /[.eE]/.test(token) || Number.isSafeInteger(Number(token))) return token;
    return JSON.stringify(LONG + token);
  });
  return JSON.parse(text);
}

function write(message) {
  process.stdout.write(serialize(message) + "\n");
}

// icebird starts reading delete files before it awaits them: a failure there must not end the process
process.on("unhandledRejection", (reason) => {
  process.stderr.write(`icebird engine: a promise was rejected unawaited (the case errors on its own): ${firstLine(reason)}\n`);
});
process.on("uncaughtException", (e) => {
  process.stderr.write(`icebird engine: uncaught ${e && e.stack ? e.stack : e}\n`);
});

async function main() {
  const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of input) {
    if (!line.trim()) continue;
    let request;
    try {
      request = parseRequest(line);
    } catch (e) {
      write({ error: `not JSON: ${e.message}` });
      continue;
    }
    if (request.cmd === "start") {
      const version = engineVersion();
      if (!version) {
        write({ error: `icebird is not installed: run npm ci in ${HERE}` });
        continue;
      }
      if (request.protocol !== 2) {
        write({ error: `this engine speaks protocol 2, not ${request.protocol}` });
        continue;
      }
      try {
        icebird ??= await import("icebird");
      } catch (e) {
        write({ error: `cannot import icebird (run npm ci in ${HERE}): ${firstLine(e)}` });
        continue;
      }
      // icebird has no row lineage: the suite compares v3 rows without those columns.
      write({ engine: ENGINE, version, protocol: 2, capabilities: CAPABILITIES, "omits-columns": ["_row_id", "_last_updated_sequence_number"] });
    } else if (request.cmd === "run") {
      const results = [];
      for (const c of request.cases || []) results.push(await answer(c));
      write({ results });
    } else if (request.cmd === "stop") {
      break;
    } else {
      write({ error: `unknown command ${request.cmd}` });
    }
  }
  input.close();
}

main().catch((e) => {
  process.stderr.write(`icebird engine: ${e && e.stack ? e.stack : e}\n`);
  process.exitCode = 1;
});
