// A consumer of the vector release in another language: reads the tarball with Node's own zlib,
// checks MANIFEST.json's SHA-256 of every file, validates every file against the release's JSON
// Schemas (Ajv, draft 2020-12), and reads the json-safe copies with plain JSON.parse.
//
// Usage: node validate_release.mjs iceberg-conformance-vectors-<version>.tar.gz
// Prints one JSON line of counts; exits 1 with the first problems found.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import Ajv2020 from "ajv/dist/2020.js";

/** The regular files of a tar archive (ustar and pax headers), by path. */
function untar(buffer) {
  const files = new Map();
  let offset = 0;
  let paxPath = null;
  while (offset + 512 <= buffer.length) {
    const header = buffer.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const text = (start, length) => header.subarray(start, start + length).toString("utf8").replace(/\0.*$/s, "");
    const size = parseInt(text(124, 12).trim() || "0", 8);
    const type = text(156, 1) || "0";
    const prefix = text(345, 155);
    const body = buffer.subarray(offset + 512, offset + 512 + size);
    if (type === "x") {
      for (const record of body.toString("utf8").split("\n")) {
        const match = /^\d+ path=(.*)$/s.exec(record);
        if (match) paxPath = match[1];
      }
    } else if (type === "0") {
      files.set(paxPath ?? (prefix ? `${prefix}/${text(0, 100)}` : text(0, 100)), Buffer.from(body));
      paxPath = null;
    }
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The integer literals of a JSON text (outside strings) that a double cannot hold exactly. */
function unsafeIntegers(text) {
  const found = [];
  const number = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;
  for (let i = 0; i < text.length; ) {
    const c = text[i];
    if (c === '"') {
      for (i += 1; text[i] !== '"'; i += text[i] === "\\" ? 2 : 1);
      i += 1;
    } else if (c === "-" || (c >= "0" && c <= "9")) {
      number.lastIndex = i;
      const m = number.exec(text);
      if (!m[1] && !m[2] && (BigInt(m[0]) > SAFE || BigInt(m[0]) < -SAFE)) found.push(m[0]);
      i += m[0].length;
    } else i += 1;
  }
  return found;
}

const [tarball] = process.argv.slice(2);
const all = untar(gunzipSync(readFileSync(tarball)));
const root = [...all.keys()][0].split("/")[0];
const files = new Map([...all].map(([path, data]) => [path.slice(root.length + 1), data]));
const json = (name) => JSON.parse(files.get(name).toString("utf8"));
const problems = [];

const manifest = json("MANIFEST.json");
for (const [name, digest] of Object.entries(manifest.files)) {
  const data = files.get(name);
  if (!data) problems.push(`${name}: listed in MANIFEST.json, not in the tarball`);
  else if (createHash("sha256").update(data).digest("hex") !== digest) problems.push(`${name}: SHA-256 differs from MANIFEST.json`);
}

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
const schema = (name) => ajv.compile(json(`schemas/${name}`));
const kinds = [
  ["value-vectors.schema.json", (n) => /^vectors\/[^/]+\/[^/]+\.json$/.test(n) && !n.endsWith(".schema.json") && !n.endsWith("rules.json")],
  ["table-case.schema.json", (n) => /^vectors\/tables\/[^/]+\/case\.json$/.test(n)],
  ["table-metadata-v2.schema.json", (n) => /^vectors\/tables\/[^/]+\/metadata\/.*\.metadata\.json$/.test(n) && json(n)["format-version"] === 2],
  ["ledger.schema.json", (n) => /^known\/.*\.json$/.test(n)],
  ["rules.schema.json", (n) => n === "rules.json"],
];
const counts = { files: files.size, manifest: Object.keys(manifest.files).length };
for (const [schemaName, matches] of kinds) {
  if (!files.has(`schemas/${schemaName}`)) {
    problems.push(`schemas/${schemaName}: missing`);
    continue;
  }
  const validate = schema(schemaName);
  let n = 0;
  for (const name of files.keys()) {
    if (!matches(name)) continue;
    n += 1;
    if (!validate(json(name))) problems.push(`${name}: ${ajv.errorsText(validate.errors)} (${schemaName})`);
  }
  if (n === 0) problems.push(`no file for ${schemaName}`);
  counts[schemaName] = n;
}

let safe = 0;
for (const name of files.keys()) {
  if (!name.startsWith("json-safe/")) continue;
  safe += 1;
  const unsafe = unsafeIntegers(files.get(name).toString("utf8"));
  if (unsafe.length) problems.push(`${name}: integers JSON.parse rounds: ${unsafe.slice(0, 3)}`);
  const original = name.replace(/^json-safe\//, "vectors/");
  if (!files.has(original)) problems.push(`${name}: no ${original}`);
  else if (!unsafeIntegers(files.get(original).toString("utf8")).length) problems.push(`${original}: nothing to make safe`);
}
counts["json-safe"] = safe;
counts.cases = [...files.keys()].filter(kinds[0][1]).reduce((sum, n) => sum + json(n).cases.length, 0);

console.log(JSON.stringify({ version: manifest.version, ...counts, problems: problems.length }));
if (problems.length) {
  console.error(problems.slice(0, 20).join("\n"));
  process.exit(1);
}
