//! `project-predicate`: the crate projects one bound leaf predicate through one partition field
//! (`Transform::project` for inclusive, `Transform::strict_project` for strict) and computes each
//! row's partition value (`create_transform_function(..).transform_literal`). The adapter only
//! builds the predicate from its JSON and tells whether the projected predicate holds on that
//! partition value (Iceberg's leaf semantics: a null or NaN value satisfies only not-eq, not-in
//! and not-starts-with), comparing with the crate's own `PrimitiveLiteral` ordering.
//!
//! Declined: compound predicates (and/or/not) and specs with several fields. The crate's
//! whole-expression projection (`InclusiveProjection`, `StrictProjection` in `expr::visitors`) is
//! crate-private, so combining leaf projections would be the adapter's code, not the crate's.

use std::cmp::Ordering;
use std::str::FromStr;
use std::sync::Arc;

use iceberg::expr::{Bind, Predicate, PredicateOperator, Reference};
use iceberg::spec::{Datum, PrimitiveLiteral, PrimitiveType, Schema, Transform, Type};
use iceberg::transform::create_transform_function;
use serde_json::Value;

use crate::values::{decode_datum, err, parse_type, unsupported, Fail, Res};

pub fn schema_of(v: &Value) -> Res<Schema> {
    let Type::Struct(st) = parse_type(v)? else {
        return err("the case's schema is not a struct");
    };
    Schema::builder()
        .with_fields(st.fields().iter().cloned())
        .build()
        .map_err(Fail::from)
}

fn column_type(schema: &Schema, name: &str) -> Res<PrimitiveType> {
    match schema.field_by_name(name).map(|f| f.field_type.as_ref().clone()) {
        Some(Type::Primitive(p)) => Ok(p),
        Some(t) => unsupported(format!("column {name} is not primitive: {t}")),
        None => Err(Fail::Rejected(format!("no column {name:?}"))),
    }
}

fn datum(p: &PrimitiveType, v: &Value) -> Res<Datum> {
    decode_datum(p, v)?.ok_or_else(|| Fail::Error("a predicate literal is null".into()))
}

/// The crate's predicate of a leaf of the suite's expression JSON; None when it is no leaf.
pub fn leaf_predicate(schema: &Schema, j: &Value) -> Res<Option<Predicate>> {
    let Some(obj) = j.as_object() else { return Ok(None) };
    let op = obj.get("type").and_then(Value::as_str).unwrap_or("");
    if matches!(op, "and" | "or" | "not") {
        return Ok(None);
    }
    let term = obj
        .get("term")
        .and_then(Value::as_str)
        .ok_or_else(|| Fail::Error(format!("a leaf without a term: {j}")))?;
    let p = column_type(schema, term)?;
    let r = Reference::new(term);
    let value = || obj.get("value").ok_or_else(|| Fail::Error("a leaf without a value".into()));
    let values = || -> Res<Vec<Datum>> {
        obj.get("values")
            .and_then(Value::as_array)
            .ok_or_else(|| Fail::Error("a set leaf without values".into()))?
            .iter()
            .map(|v| datum(&p, v))
            .collect()
    };
    Ok(Some(match op {
        "is-null" => r.is_null(),
        "not-null" => r.is_not_null(),
        "is-nan" => r.is_nan(),
        "not-nan" => r.is_not_nan(),
        "lt" => r.less_than(datum(&p, value()?)?),
        "lt-eq" => r.less_than_or_equal_to(datum(&p, value()?)?),
        "gt" => r.greater_than(datum(&p, value()?)?),
        "gt-eq" => r.greater_than_or_equal_to(datum(&p, value()?)?),
        "eq" => r.equal_to(datum(&p, value()?)?),
        "not-eq" => r.not_equal_to(datum(&p, value()?)?),
        "starts-with" => r.starts_with(datum(&p, value()?)?),
        "not-starts-with" => r.not_starts_with(datum(&p, value()?)?),
        "in" => r.is_in(values()?),
        "not-in" => r.is_not_in(values()?),
        other => return err(format!("unknown predicate type {other:?}")),
    }))
}

fn cmp(a: &Datum, b: &Datum) -> Option<Ordering> {
    a.literal().partial_cmp(b.literal())
}

fn is_nan(v: &Option<Datum>) -> bool {
    v.as_ref().is_some_and(|d| d.is_nan())
}

/// The truth of an (unbound) projected predicate on one partition value, named `name`.
fn holds(p: &Predicate, name: &str, v: &Option<Datum>) -> Res<bool> {
    use PredicateOperator as O;
    Ok(match p {
        Predicate::AlwaysTrue => true,
        Predicate::AlwaysFalse => false,
        Predicate::And(e) => {
            let [a, b] = e.inputs();
            holds(a, name, v)? && holds(b, name, v)?
        }
        Predicate::Or(e) => {
            let [a, b] = e.inputs();
            holds(a, name, v)? || holds(b, name, v)?
        }
        Predicate::Not(e) => {
            let [a] = e.inputs();
            !holds(a, name, v)?
        }
        Predicate::Unary(u) => {
            check_term(u.term().name(), name)?;
            match u.op() {
                O::IsNull => v.is_none(),
                O::NotNull => v.is_some(),
                O::IsNan => is_nan(v),
                O::NotNan => !is_nan(v),
                o => return err(format!("unexpected unary operator {o}")),
            }
        }
        Predicate::Binary(b) => {
            check_term(b.term().name(), name)?;
            let lit = b.literal();
            let Some(x) = v.as_ref().filter(|_| !is_nan(v)) else {
                return Ok(matches!(b.op(), O::NotEq | O::NotStartsWith));
            };
            match b.op() {
                O::StartsWith | O::NotStartsWith => {
                    let (PrimitiveLiteral::String(s), PrimitiveLiteral::String(prefix)) = (x.literal(), lit.literal()) else {
                        return err("starts-with on a non-string value");
                    };
                    s.starts_with(prefix.as_str()) == (b.op() == O::StartsWith)
                }
                op => {
                    let Some(c) = cmp(x, lit) else {
                        return err(format!("cannot compare the partition value {x} with {lit}"));
                    };
                    match op {
                        O::LessThan => c.is_lt(),
                        O::LessThanOrEq => c.is_le(),
                        O::GreaterThan => c.is_gt(),
                        O::GreaterThanOrEq => c.is_ge(),
                        O::Eq => c.is_eq(),
                        O::NotEq => c.is_ne(),
                        o => return err(format!("unexpected binary operator {o}")),
                    }
                }
            }
        }
        Predicate::Set(s) => {
            check_term(s.term().name(), name)?;
            let Some(x) = v.as_ref().filter(|_| !is_nan(v)) else {
                return Ok(s.op() == O::NotIn);
            };
            let found = s.literals().iter().any(|l| cmp(x, l) == Some(Ordering::Equal));
            found == (s.op() == O::In)
        }
    })
}

fn check_term(term: &str, name: &str) -> Res<()> {
    if term == name {
        Ok(())
    } else {
        err(format!("the projection names {term:?}, not the partition field {name:?}"))
    }
}

pub fn project_predicate(case: &Value) -> Res<Value> {
    let schema = Arc::new(schema_of(case.get("schema").unwrap_or(&Value::Null))?);
    let spec = case
        .get("spec")
        .and_then(Value::as_array)
        .ok_or_else(|| Fail::Error("the case has no spec".into()))?;
    if spec.len() != 1 {
        return unsupported(
            "a spec of several fields needs the crate's whole-expression projection \
             (InclusiveProjection/StrictProjection), which is crate-private",
        );
    }
    let field = &spec[0];
    let pname = field.get("name").and_then(Value::as_str).unwrap_or("");
    let source = field.get("source").and_then(Value::as_str).unwrap_or("");
    let ttext = field.get("transform").and_then(Value::as_str).unwrap_or("");
    let strict = match case.get("mode").and_then(Value::as_str) {
        Some("inclusive") => false,
        Some("strict") => true,
        m => return err(format!("unknown mode {m:?}")),
    };
    let Some(pred) = leaf_predicate(&schema, case.get("predicate").unwrap_or(&Value::Null))? else {
        return unsupported(
            "compound predicates need the crate's whole-expression projection \
             (InclusiveProjection/StrictProjection), which is crate-private; Transform::project takes one leaf",
        );
    };
    let t = Transform::from_str(ttext).map_err(Fail::from)?;
    let bound = pred.bind(schema.clone(), true)?;
    // A leaf on another column than the field's source projects to nothing.
    let on_source = match &pred {
        Predicate::Unary(u) => u.term().name() == source,
        Predicate::Binary(b) => b.term().name() == source,
        Predicate::Set(s) => s.term().name() == source,
        _ => false,
    };
    let projected = if on_source {
        if strict { t.strict_project(pname, &bound)? } else { t.project(pname, &bound)? }
    } else {
        None
    };
    // No projection: inclusive keeps every partition (true), strict proves none (false).
    let projected = projected.unwrap_or(if strict { Predicate::AlwaysFalse } else { Predicate::AlwaysTrue });
    let source_type = column_type(&schema, source)?;
    let f = create_transform_function(&t)?;
    let rows = case
        .get("rows")
        .and_then(Value::as_array)
        .ok_or_else(|| Fail::Error("the case has no rows".into()))?;
    let mut out = Vec::new();
    for row in rows {
        let v = decode_datum(&source_type, row.get(source).unwrap_or(&Value::Null))?;
        let pv = match v {
            Some(d) => f.transform_literal(&d)?,
            None => None,
        };
        out.push(Value::Bool(holds(&projected, pname, &pv)?));
    }
    Ok(Value::Array(out))
}
