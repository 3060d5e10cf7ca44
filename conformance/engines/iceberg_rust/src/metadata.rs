//! `read-table-metadata`: the crate reads the document (`serde` of `TableMetadata`, which checks
//! and fills in what its reader does); the adapter writes that reading back with the crate's own
//! serializer and reshapes it into the suite's normalized form (vectors/README.md). Values are
//! never taken from the input document: only the order of list entries is (the crate keeps
//! snapshots, specs and sort orders in hash maps).

use iceberg::spec::{FormatVersion, TableMetadata};
use serde_json::{json, Map, Value};

use crate::values::{Fail, Res};

fn get<'a>(v: &'a Value, key: &str) -> Value {
    v.get(key).cloned().unwrap_or(Value::Null)
}

/// The position of an entry (by its id key) in the document's list, for ordering only.
fn doc_order(doc: &Value, list: &str, id_key: &str, id: &Value) -> usize {
    doc.get(list)
        .and_then(Value::as_array)
        .and_then(|a| a.iter().position(|e| e.get(id_key) == Some(id)))
        .unwrap_or(usize::MAX)
}

fn sorted_by_doc(doc: &Value, list: &str, id_key: &str, mut items: Vec<Value>) -> Vec<Value> {
    items.sort_by_key(|e| {
        let id = get(e, id_key);
        (doc_order(doc, list, id_key, &id), id.as_i64().unwrap_or(i64::MAX))
    });
    items
}

fn source_ids(f: &Value) -> Value {
    match f.get("source-ids") {
        Some(ids) => ids.clone(),
        None => match f.get("source-id") {
            Some(id) => json!([id]),
            None => json!([]),
        },
    }
}

fn schema(s: &Value) -> Value {
    let mut s = s.clone();
    if let Some(o) = s.as_object_mut() {
        o.entry("identifier-field-ids").or_insert(json!([]));
    }
    s
}

/// Each of the document's `fields`, in the normalized form `field` gives it.
fn fields_of(s: &Value, field: impl Fn(&Value) -> Value) -> Vec<Value> {
    s.get("fields")
        .and_then(Value::as_array)
        .map(|fs| fs.iter().map(&field).collect())
        .unwrap_or_default()
}

fn spec(s: &Value) -> Value {
    let fields = fields_of(s, |f| {
        json!({"source-ids": source_ids(f), "field-id": get(f, "field-id"),
               "name": get(f, "name"), "transform": get(f, "transform")})
    });
    json!({"spec-id": get(s, "spec-id"), "fields": fields})
}

fn sort_order(s: &Value) -> Value {
    let fields = fields_of(s, |f| {
        json!({"source-ids": source_ids(f), "transform": get(f, "transform"),
               "direction": get(f, "direction"), "null-order": get(f, "null-order")})
    });
    json!({"order-id": get(s, "order-id"), "fields": fields})
}

fn snapshot(s: &Value) -> Value {
    json!({
        "snapshot-id": get(s, "snapshot-id"),
        "parent-snapshot-id": get(s, "parent-snapshot-id"),
        "sequence-number": s.get("sequence-number").cloned().unwrap_or(json!(0)),
        "timestamp-ms": get(s, "timestamp-ms"),
        "manifest-list": get(s, "manifest-list"),
        "summary": s.get("summary").cloned().unwrap_or(json!({})),
        "schema-id": get(s, "schema-id"),
        "first-row-id": get(s, "first-row-id"),
        "added-rows": get(s, "added-rows"),
        "key-id": get(s, "key-id"),
    })
}

fn reference(r: &Value) -> Value {
    json!({
        "snapshot-id": get(r, "snapshot-id"),
        "type": get(r, "type"),
        "min-snapshots-to-keep": get(r, "min-snapshots-to-keep"),
        "max-snapshot-age-ms": get(r, "max-snapshot-age-ms"),
        "max-ref-age-ms": get(r, "max-ref-age-ms"),
    })
}

fn list(v: &Value, key: &str) -> Vec<Value> {
    v.get(key).and_then(Value::as_array).cloned().unwrap_or_default()
}

pub fn read_table_metadata(doc: &Value) -> Res<Value> {
    let md: TableMetadata = serde_json::from_value(doc.clone())
        .map_err(|e| Fail::Rejected(format!("iceberg-rust refuses the table metadata: {e}")))?;
    let w = serde_json::to_value(&md)
        .map_err(|e| Fail::Error(format!("iceberg-rust cannot write back what it read: {e}")))?;

    let v3 = md.format_version() == FormatVersion::V3;
    // The crate keeps an absent v1 table-uuid as the nil UUID (`unwrap_or_default`): that is its
    // "none", reported as null.
    let uuid = md.uuid();
    let table_uuid = if uuid.is_nil() { Value::Null } else { Value::String(uuid.to_string()) };
    let schemas: Vec<Value> = list(&w, "schemas").iter().map(schema).collect();
    let schemas = if schemas.is_empty() {
        w.get("schema").map(|s| vec![schema(s)]).unwrap_or_default()
    } else {
        schemas
    };
    let specs: Vec<Value> = list(&w, "partition-specs").iter().map(spec).collect();
    let orders: Vec<Value> = list(&w, "sort-orders").iter().map(sort_order).collect();
    let snapshots: Vec<Value> = list(&w, "snapshots").iter().map(snapshot).collect();
    let mut refs = Map::new();
    if let Some(o) = w.get("refs").and_then(Value::as_object) {
        for (k, r) in o {
            refs.insert(k.clone(), reference(r));
        }
    }
    if w.get("refs").is_none() {
        // The crate's v1 writer has no refs; its v1 reader makes the current snapshot the `main`
        // branch (the only ref a v1 table has), which `snapshot_for_ref` returns.
        if let Some(s) = md.snapshot_for_ref("main") {
            refs.insert(
                "main".into(),
                json!({"snapshot-id": s.snapshot_id(), "type": "branch", "min-snapshots-to-keep": null,
                       "max-snapshot-age-ms": null, "max-ref-age-ms": null}),
            );
        }
    }
    let properties: Map<String, Value> =
        md.properties().iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect();

    Ok(json!({
        "format-version": md.format_version() as u8,
        "table-uuid": table_uuid,
        "location": md.location(),
        "last-sequence-number": md.last_sequence_number(),
        "last-updated-ms": md.last_updated_ms(),
        "last-column-id": md.last_column_id(),
        "current-schema-id": md.current_schema_id(),
        "schemas": sorted_by_doc(doc, "schemas", "schema-id", schemas),
        "default-spec-id": md.default_partition_spec_id(),
        "partition-specs": sorted_by_doc(doc, "partition-specs", "spec-id", specs),
        "last-partition-id": md.last_partition_id(),
        "default-sort-order-id": md.default_sort_order_id(),
        "sort-orders": sorted_by_doc(doc, "sort-orders", "order-id", orders),
        "properties": properties,
        "current-snapshot-id": md.current_snapshot_id(),
        "snapshots": sorted_by_doc(doc, "snapshots", "snapshot-id", snapshots),
        "refs": refs,
        "snapshot-log": w.get("snapshot-log").cloned().unwrap_or(json!([])),
        "metadata-log": w.get("metadata-log").cloned().unwrap_or(json!([])),
        "next-row-id": if v3 { json!(md.next_row_id()) } else { Value::Null },
    }))
}

/// `read-view-metadata`: the crate's serde reading of the view, written back by its serializer,
/// with the optional values it leaves out spelled out as the normalized reading asks
/// (`properties` {}, `identifier-field-ids` [], `default-catalog` null).
pub fn read_view_metadata(doc: &Value) -> Res<Value> {
    let view: iceberg::spec::ViewMetadata = serde_json::from_value(doc.clone())
        .map_err(|e| Fail::Rejected(format!("iceberg-rust refuses the view metadata: {e}")))?;
    let mut w = serde_json::to_value(&view)
        .map_err(|e| Fail::Error(format!("iceberg-rust cannot write back what it read: {e}")))?;
    let Some(o) = w.as_object_mut() else {
        return Err(Fail::Error("the crate wrote a view that is not an object".into()));
    };
    o.entry("properties").or_insert(json!({}));
    if let Some(Value::Array(schemas)) = o.get_mut("schemas") {
        for s in schemas.iter_mut() {
            if let Some(s) = s.as_object_mut() {
                s.entry("identifier-field-ids").or_insert(json!([]));
            }
        }
    }
    if let Some(Value::Array(versions)) = o.get_mut("versions") {
        for v in versions.iter_mut() {
            if let Some(v) = v.as_object_mut() {
                v.entry("default-catalog").or_insert(Value::Null);
            }
        }
    }
    // The crate keeps versions and schemas in hash maps: order them as the document lists them.
    for (list, key) in [("versions", "version-id"), ("schemas", "schema-id")] {
        if let Some(Value::Array(items)) = o.get(list).cloned() {
            o.insert(list.into(), Value::Array(sorted_by_doc(doc, list, key, items)));
        }
    }
    Ok(w)
}
