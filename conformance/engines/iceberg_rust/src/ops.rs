//! One function per op of the suite; each hands the case to the crate's public API.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::str::FromStr;

use iceberg::spec::{Datum, Literal, Transform, Type};
use iceberg::transform::create_transform_function;
use serde_json::{json, Value};

use crate::metadata;
use crate::values::{
    decode_datum, decode_literal, encode_datum, encode_literal, encode_primitive, err, hex, parse_type, primitive,
    unhex, unsupported, Fail, Res,
};

pub const CAPABILITIES: &[&str] = &[
    "transform",
    "hash",
    "parse-transform",
    "result-type",
    "parse-type",
    "to-binary",
    "from-binary",
    "to-json",
    "from-json",
    "read-table-metadata",
    "project-predicate",
    "parse-schema",
    "parse-partition-spec",
    "parse-sort-order",
    "read-view-metadata",
    "parse-name-mapping",
    "read-manifest-tree",
];

/// The answer to one case, never a panic.
pub fn answer(case: &Value) -> Value {
    let id = case.get("id").cloned().unwrap_or(Value::Null);
    let op = case.get("op").and_then(Value::as_str).unwrap_or("");
    let result = catch_unwind(AssertUnwindSafe(|| run(op, case)));
    match result {
        Ok(Ok(output)) => json!({"id": id, "status": "ok", "output": output}),
        Ok(Err(Fail::Rejected(e))) => json!({"id": id, "status": "rejected", "error": e}),
        Ok(Err(Fail::Unsupported(r))) => json!({"id": id, "status": "unsupported", "reason": r}),
        Ok(Err(Fail::Error(e))) => json!({"id": id, "status": "error", "error": e}),
        Err(panic) => {
            let msg = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a panic".into());
            json!({"id": id, "status": "error", "error": format!("iceberg-rust panicked: {msg}")})
        }
    }
}

fn field<'a>(case: &'a Value, key: &str) -> Res<&'a Value> {
    case.get(key).ok_or_else(|| Fail::Error(format!("the case has no {key:?}")))
}

fn str_field<'a>(case: &'a Value, key: &str) -> Res<&'a str> {
    field(case, key)?
        .as_str()
        .ok_or_else(|| Fail::Error(format!("the case's {key:?} is not a string")))
}

fn run(op: &str, case: &Value) -> Res<Value> {
    match op {
        "transform" => transform(case),
        "hash" => unsupported(
            "iceberg-rust has no public Appendix B hash: its murmur3 hash is private to the bucket \
             transform (iceberg::transform's bucket module), and bucket[N] loses the hash's sign bit",
        ),
        "parse-transform" => parse_transform(case),
        "result-type" => result_type(case),
        "parse-type" => {
            let t = parse_type(field(case, "type")?)?;
            serde_json::to_value(&t).map_err(|e| Fail::Error(format!("cannot serialize the type: {e}")))
        }
        "to-binary" => to_binary(case),
        "from-binary" => from_binary(case),
        "to-json" => to_json(case),
        "from-json" => from_json(case),
        "read-table-metadata" => metadata::read_table_metadata(field(case, "document")?),
        "parse-schema" => round_trip::<iceberg::spec::Schema>(field(case, "schema")?, "schema"),
        "parse-partition-spec" => {
            round_trip::<iceberg::spec::PartitionSpec>(field(case, "spec")?, "partition spec")
        }
        "parse-sort-order" => round_trip::<iceberg::spec::SortOrder>(field(case, "order")?, "sort order"),
        "read-view-metadata" => metadata::read_view_metadata(field(case, "document")?),
        "parse-name-mapping" => {
            // A mapping given as text is the table property's value: the crate's serde reads it.
            let m = field(case, "mapping")?;
            let m = match m {
                Value::String(text) => serde_json::from_str::<Value>(text).map_err(|e| {
                    Fail::Rejected(format!("the name mapping text is not JSON: {e}"))
                })?,
                other => other.clone(),
            };
            round_trip::<iceberg::spec::NameMapping>(&m, "name mapping")
        }
        "read-manifest-tree" => crate::tree::read_manifest_tree(case),
        "project-predicate" => crate::projection::project_predicate(case),
        other => unsupported(format!("the iceberg-rust engine does not answer {other:?}")),
    }
}

fn parse_transform_text(text: &str) -> Res<Transform> {
    Transform::from_str(text).map_err(|e| Fail::Rejected(format!("iceberg-rust: {e}")))
}

fn transform(case: &Value) -> Res<Value> {
    let t = parse_transform_text(str_field(case, "transform")?)?;
    let ty = parse_type(field(case, "type")?)?;
    // The crate's check that the transform applies to the source type.
    let result_type = t.result_type(&ty)?;
    let p = primitive(&ty)?;
    let Some(value) = decode_datum(p, field(case, "value")?)? else {
        return unsupported("TransformFunction::transform_literal takes a non-null Datum; a null input has no literal form");
    };
    let f = create_transform_function(&t)?;
    // The crate keeps partition values as literals typed by the partition type (the transform's
    // result type): the literal is written in that type's form. (Its truncate of a decimal, for
    // one, returns a Datum typed decimal(38, 0) holding the unscaled value of the source scale.)
    match f.transform_literal(&value)? {
        None => Ok(Value::Null),
        Some(d) => match &result_type {
            Type::Primitive(p) => encode_primitive(p, d.literal()),
            other => err(format!("the result type {other} is not primitive")),
        },
    }
}

fn parse_transform(case: &Value) -> Res<Value> {
    let t = parse_transform_text(str_field(case, "transform")?)?;
    let (name, param): (Value, Value) = match t {
        Transform::Identity => ("identity".into(), Value::Null),
        Transform::Void => ("void".into(), Value::Null),
        Transform::Year => ("year".into(), Value::Null),
        Transform::Month => ("month".into(), Value::Null),
        Transform::Day => ("day".into(), Value::Null),
        Transform::Hour => ("hour".into(), Value::Null),
        Transform::Bucket(n) => ("bucket".into(), n.into()),
        Transform::Truncate(w) => ("truncate".into(), w.into()),
        Transform::Unknown => (Value::Null, Value::Null),
    };
    Ok(json!({"transform": t.to_string(), "name": name, "param": param}))
}

fn result_type(case: &Value) -> Res<Value> {
    let t = parse_transform_text(str_field(case, "transform")?)?;
    let ty = parse_type(field(case, "type")?)?;
    let r = t.result_type(&ty)?;
    serde_json::to_value(&r).map_err(|e| Fail::Error(format!("cannot serialize the type: {e}")))
}

fn to_binary(case: &Value) -> Res<Value> {
    let ty = parse_type(field(case, "type")?)?;
    let p = primitive(&ty)?;
    let Some(d) = decode_datum(p, field(case, "value")?)? else {
        return unsupported("a null value has no binary single-value form");
    };
    Ok(Value::String(hex(&d.to_bytes()?)))
}

fn from_binary(case: &Value) -> Res<Value> {
    let ty = parse_type(field(case, "type")?)?;
    let p = primitive(&ty)?;
    let Some(bytes) = unhex(str_field(case, "hex")?) else {
        return err("the case's hex is not hexadecimal");
    };
    let d = Datum::try_from_bytes(&bytes, p.clone())?;
    encode_datum(&d)
}

fn to_json(case: &Value) -> Res<Value> {
    let ty = parse_type(field(case, "type")?)?;
    let lit: Option<Literal> = decode_literal(&ty, field(case, "value")?)?;
    match lit {
        None => Ok(Value::Null),
        Some(l) => Ok(l.try_into_json(&ty)?),
    }
}

fn from_json(case: &Value) -> Res<Value> {
    let ty = parse_type(field(case, "type")?)?;
    let lit = Literal::try_from_json(field(case, "json")?.clone(), &ty)?;
    encode_literal(&ty, lit.as_ref())
}

/// The crate's serde reading of a metadata object, written back by the crate's serializer (the
/// crate has one writer for every format version, so the case's format-version is not used).
fn round_trip<T: serde::de::DeserializeOwned + serde::Serialize>(v: &Value, what: &str) -> Res<Value> {
    let parsed: T = serde_json::from_value(v.clone())
        .map_err(|e| Fail::Rejected(format!("iceberg-rust refuses the {what}: {e}")))?;
    serde_json::to_value(&parsed).map_err(|e| Fail::Error(format!("iceberg-rust cannot write the {what}: {e}")))
}
