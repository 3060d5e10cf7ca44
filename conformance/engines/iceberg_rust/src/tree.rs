//! `read-manifest-tree`: the crate reads the metadata file (serde of `TableMetadata`), the
//! snapshot's manifest list (`ManifestList::parse_with_version` with the table's format version)
//! and each manifest through `ManifestFile::load_manifest` over an in-memory `FileIO`, which is
//! where the crate applies inheritance (snapshot id, data and file sequence numbers). The adapter
//! only puts the case's files into that `FileIO` and writes the rows out.

use bytes::Bytes;
use iceberg::io::FileIO;
use iceberg::spec::{ManifestList, TableMetadata};
use serde_json::{json, Value};

use crate::values::{err, Fail, Res};

fn b64(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' | b'\n' | b'\r' => continue,
            _ => return None,
        } as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

pub fn read_manifest_tree(case: &Value) -> Res<Value> {
    let files = case
        .get("files")
        .and_then(Value::as_object)
        .ok_or_else(|| Fail::Error("the case has no files".into()))?;
    let location = case
        .get("metadata-location")
        .and_then(Value::as_str)
        .ok_or_else(|| Fail::Error("the case has no metadata-location".into()))?;
    let io = FileIO::new_with_memory();
    let mut bytes_of = std::collections::HashMap::new();
    for (path, data) in files {
        let data = data
            .as_str()
            .and_then(b64)
            .ok_or_else(|| Fail::Error(format!("the file {path} is not base64")))?;
        futures::executor::block_on(io.new_output(path)?.write(Bytes::from(data.clone())))?;
        bytes_of.insert(path.clone(), data);
    }
    let Some(metadata) = bytes_of.get(location) else {
        return err(format!("the case has no file {location}"));
    };
    let md: TableMetadata = serde_json::from_slice(metadata)
        .map_err(|e| Fail::Rejected(format!("iceberg-rust refuses the table metadata: {e}")))?;
    let snapshot = match case.get("snapshot-id").and_then(Value::as_i64) {
        Some(id) => md.snapshot_by_id(id),
        None => md.current_snapshot(),
    }
    .ok_or_else(|| Fail::Rejected("iceberg-rust finds no such snapshot".into()))?;
    let list_path = snapshot.manifest_list();
    let Some(list_bytes) = bytes_of.get(list_path) else {
        return err(format!("the case has no manifest list {list_path}"));
    };
    let list = ManifestList::parse_with_version(list_bytes, md.format_version())?;
    let mut manifests = Vec::new();
    let mut entries = Vec::new();
    for m in list.entries() {
        manifests.push(json!({
            "manifest_path": m.manifest_path,
            "partition_spec_id": m.partition_spec_id,
            "content": m.content as i32,
            "sequence_number": m.sequence_number,
            "min_sequence_number": m.min_sequence_number,
            "added_snapshot_id": m.added_snapshot_id,
            "first_row_id": m.first_row_id,
        }));
        let manifest = futures::executor::block_on(m.load_manifest(&io))?;
        for e in manifest.entries() {
            entries.push(json!({
                "manifest_path": m.manifest_path,
                "status": e.status() as i32,
                "content": e.content_type() as i32,
                "file_path": e.file_path(),
                "record_count": e.record_count(),
                "snapshot_id": e.snapshot_id(),
                "sequence_number": e.sequence_number(),
                "file_sequence_number": e.file_sequence_number,
                "first_row_id": e.data_file().first_row_id(),
            }));
        }
    }
    Ok(json!({
        "snapshot-id": snapshot.snapshot_id(),
        "sequence-number": snapshot.sequence_number(),
        "manifests": manifests,
        "entries": entries,
    }))
}
