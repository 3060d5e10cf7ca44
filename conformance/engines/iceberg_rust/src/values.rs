//! Conversions between the protocol's vector forms (Appendix D JSON single values, with
//! `{"ieee754": "<hex>"}` for non-finite floats and `{"decimal": "<text>"}` decimal inputs) and
//! the crate's `Datum` / `Literal` values. These are the adapter's own code: the computations the
//! suite judges are always the crate's.

use iceberg::spec::{Datum, Literal, Map, PrimitiveLiteral, PrimitiveType, Struct, Type};
use serde_json::{Map as JsonMap, Number, Value};

/// Why a conversion failed: the crate refused the value, or the adapter cannot express it.
#[derive(Debug)]
pub enum Fail {
    /// The crate returned an error for the input (judged as a rejection).
    Rejected(String),
    /// The adapter cannot carry this input to or from the crate (declined, not judged).
    Unsupported(String),
    /// An internal failure of the adapter or an unexpected crate answer.
    Error(String),
}

pub type Res<T> = Result<T, Fail>;

impl From<iceberg::Error> for Fail {
    fn from(e: iceberg::Error) -> Self {
        Fail::Rejected(format!("iceberg-rust: {e}"))
    }
}

pub fn err<T>(msg: impl Into<String>) -> Res<T> {
    Err(Fail::Error(msg.into()))
}

pub fn unsupported<T>(msg: impl Into<String>) -> Res<T> {
    Err(Fail::Unsupported(msg.into()))
}

// ---------------------------------------------------------------------------------------------
// calendar arithmetic (proleptic Gregorian, days from 1970-01-01)

fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719468;
    let era = if z >= 0 { z } else { z - 146096 } / 146097;
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn digits(s: &str) -> Option<i64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn parse_date(s: &str) -> Option<i64> {
    let (sign, rest) = match s.as_bytes().first()? {
        b'+' => (1, &s[1..]),
        b'-' => (-1, &s[1..]),
        _ => (1, s),
    };
    let mut parts = rest.rsplitn(3, '-');
    let d = digits(parts.next()?)?;
    let m = digits(parts.next()?)?;
    let y = digits(parts.next()?)? * sign;
    if !(1..=12).contains(&m) || d < 1 || d > 31 {
        return None;
    }
    Some(days_from_civil(y, m, d))
}

/// A time of day as (seconds, fraction in units of 10^-digits_max).
fn parse_time(s: &str, frac_digits: u32) -> Option<i64> {
    let (hms, frac) = match s.split_once('.') {
        Some((a, b)) => (a, b),
        None => (s, ""),
    };
    let mut parts = hms.split(':');
    let h = digits(parts.next()?)?;
    let m = digits(parts.next()?)?;
    let sec = digits(parts.next()?)?;
    if parts.next().is_some() || frac.len() as u32 > frac_digits {
        return None;
    }
    let mut f = if frac.is_empty() { 0 } else { digits(frac)? };
    for _ in frac.len() as u32..frac_digits {
        f *= 10;
    }
    Some(((h * 60 + m) * 60 + sec) * 10i64.pow(frac_digits) + f)
}

fn parse_timestamp(s: &str, tz: bool, frac_digits: u32) -> Option<i64> {
    let s = if tz { s.strip_suffix("+00:00")? } else { s };
    let (date, time) = s.split_once('T')?;
    let days = parse_date(date)?;
    let t = parse_time(time, frac_digits)?;
    (days as i128 * 86_400 * 10i128.pow(frac_digits) + t as i128).try_into().ok()
}

fn format_date(days: i64) -> String {
    let (y, m, d) = civil_from_days(days);
    let year = if (0..=9999).contains(&y) {
        format!("{y:04}")
    } else if y < 0 {
        format!("-{:04}", -y)
    } else {
        format!("+{y}")
    };
    format!("{year}-{m:02}-{d:02}")
}

fn format_time(units: i64, frac_digits: u32) -> String {
    let per_sec = 10i64.pow(frac_digits);
    let secs = units.div_euclid(per_sec);
    let frac = units.rem_euclid(per_sec);
    format!(
        "{:02}:{:02}:{:02}.{:0width$}",
        secs / 3600,
        secs / 60 % 60,
        secs % 60,
        frac,
        width = frac_digits as usize
    )
}

fn format_timestamp(units: i64, tz: bool, frac_digits: u32) -> String {
    let per_day = 86_400 * 10i64.pow(frac_digits);
    let days = units.div_euclid(per_day);
    let rest = units.rem_euclid(per_day);
    format!(
        "{}T{}{}",
        format_date(days),
        format_time(rest, frac_digits),
        if tz { "+00:00" } else { "" }
    )
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn unhex(s: &str) -> Option<Vec<u8>> {
    if s.len() % 2 != 0 {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

fn float_bits(v: &Value, width: usize) -> Option<u64> {
    let obj = v.as_object()?;
    if obj.len() != 1 {
        return None;
    }
    let bits = obj.get("ieee754")?.as_str()?;
    if bits.len() != width {
        return None;
    }
    u64::from_str_radix(bits, 16).ok()
}

fn decimal_text(unscaled: i128, scale: u32) -> String {
    let neg = unscaled < 0;
    let mut s = unscaled.unsigned_abs().to_string();
    if scale > 0 {
        let scale = scale as usize;
        if s.len() <= scale {
            s = format!("{}{}", "0".repeat(scale + 1 - s.len()), s);
        }
        s.insert(s.len() - scale, '.');
    }
    if neg {
        format!("-{s}")
    } else {
        s
    }
}

// ---------------------------------------------------------------------------------------------
// vector form -> crate values

/// The crate's type of a case's type JSON (Appendix C), through the crate's own serde.
pub fn parse_type(v: &Value) -> Res<Type> {
    serde_json::from_value::<Type>(v.clone())
        .map_err(|e| Fail::Rejected(format!("iceberg-rust cannot read the type {v}: {e}")))
}

pub fn primitive(t: &Type) -> Res<&PrimitiveType> {
    match t {
        Type::Primitive(p) => Ok(p),
        other => unsupported(format!("the op takes a primitive type, not {other}")),
    }
}

/// A primitive value of a vector form as a Datum (None for null).
pub fn decode_datum(p: &PrimitiveType, v: &Value) -> Res<Option<Datum>> {
    if v.is_null() {
        return Ok(None);
    }
    let bad = || Fail::Error(format!("the adapter cannot read {v} as a {p} value"));
    let d = match p {
        PrimitiveType::Boolean => Datum::bool(v.as_bool().ok_or_else(bad)?),
        PrimitiveType::Int => {
            Datum::int(i32::try_from(v.as_i64().ok_or_else(bad)?).map_err(|_| bad())?)
        }
        PrimitiveType::Long => Datum::long(v.as_i64().ok_or_else(bad)?),
        PrimitiveType::Float => match v {
            Value::Number(n) => Datum::float(n.as_f64().ok_or_else(bad)? as f32),
            _ => Datum::float(f32::from_bits(float_bits(v, 8).ok_or_else(bad)? as u32)),
        },
        PrimitiveType::Double => match v {
            Value::Number(n) => Datum::double(n.as_f64().ok_or_else(bad)?),
            _ => Datum::double(f64::from_bits(float_bits(v, 16).ok_or_else(bad)?)),
        },
        PrimitiveType::Date => {
            let days = parse_date(v.as_str().ok_or_else(bad)?).ok_or_else(bad)?;
            Datum::date(i32::try_from(days).map_err(|_| bad())?)
        }
        PrimitiveType::Time => {
            Datum::time_micros(parse_time(v.as_str().ok_or_else(bad)?, 6).ok_or_else(bad)?)?
        }
        PrimitiveType::Timestamp => Datum::timestamp_micros(
            parse_timestamp(v.as_str().ok_or_else(bad)?, false, 6).ok_or_else(bad)?,
        ),
        PrimitiveType::Timestamptz => Datum::timestamptz_micros(
            parse_timestamp(v.as_str().ok_or_else(bad)?, true, 6).ok_or_else(bad)?,
        ),
        PrimitiveType::TimestampNs => Datum::timestamp_nanos(
            parse_timestamp(v.as_str().ok_or_else(bad)?, false, 9).ok_or_else(bad)?,
        ),
        PrimitiveType::TimestamptzNs => Datum::timestamptz_nanos(
            parse_timestamp(v.as_str().ok_or_else(bad)?, true, 9).ok_or_else(bad)?,
        ),
        PrimitiveType::String => Datum::string(v.as_str().ok_or_else(bad)?),
        PrimitiveType::Uuid => Datum::uuid_from_str(v.as_str().ok_or_else(bad)?)?,
        PrimitiveType::Fixed(_) => Datum::fixed(unhex(v.as_str().ok_or_else(bad)?).ok_or_else(bad)?),
        PrimitiveType::Binary => Datum::binary(unhex(v.as_str().ok_or_else(bad)?).ok_or_else(bad)?),
        PrimitiveType::Decimal { .. } => {
            // Both forms go through the crate's decimal parser, the exponent as written, then the
            // crate's conversion to the case's decimal type (which checks precision and scale).
            let text = match v {
                Value::String(s) => s.as_str(),
                Value::Object(o) if o.len() == 1 => {
                    o.get("decimal").and_then(Value::as_str).ok_or_else(bad)?
                }
                _ => return Err(bad()),
            };
            Datum::decimal_from_str(text)?.to(&Type::Primitive(p.clone()))?
        }
    };
    Ok(Some(d))
}

/// A value of any type in vector form as a Literal (None for null).
pub fn decode_literal(t: &Type, v: &Value) -> Res<Option<Literal>> {
    if v.is_null() {
        return Ok(None);
    }
    match t {
        Type::Primitive(p) => Ok(decode_datum(p, v)?.map(Literal::from)),
        Type::Struct(s) => {
            let obj = v.as_object().ok_or_else(|| Fail::Error(format!("a struct value must be an object: {v}")))?;
            let mut fields = Vec::new();
            for f in s.fields() {
                fields.push(match obj.get(&f.id.to_string()) {
                    Some(x) => decode_literal(&f.field_type, x)?,
                    None => None,
                });
            }
            Ok(Some(Literal::Struct(Struct::from_iter(fields))))
        }
        Type::List(l) => {
            let arr = v.as_array().ok_or_else(|| Fail::Error(format!("a list value must be an array: {v}")))?;
            let mut items = Vec::new();
            for x in arr {
                items.push(decode_literal(&l.element_field.field_type, x)?);
            }
            Ok(Some(Literal::List(items)))
        }
        Type::Map(m) => {
            let keys = v.get("keys").and_then(Value::as_array);
            let values = v.get("values").and_then(Value::as_array);
            let (Some(keys), Some(values)) = (keys, values) else {
                return err(format!("a map value must be {{\"keys\", \"values\"}}: {v}"));
            };
            let mut map = Map::new();
            for (k, x) in keys.iter().zip(values) {
                let key = decode_literal(&m.key_field.field_type, k)?
                    .ok_or_else(|| Fail::Error("a map key is null".into()))?;
                map.insert(key, decode_literal(&m.value_field.field_type, x)?);
            }
            Ok(Some(Literal::Map(map)))
        }
    }
}

// ---------------------------------------------------------------------------------------------
// crate values -> vector form

fn float_value(v: f64, bits: String) -> Value {
    if v.is_finite() {
        Number::from_f64(v).map(Value::Number).unwrap_or(Value::Null)
    } else {
        let mut o = JsonMap::new();
        o.insert("ieee754".into(), Value::String(bits));
        Value::Object(o)
    }
}

pub fn encode_primitive(p: &PrimitiveType, lit: &PrimitiveLiteral) -> Res<Value> {
    use PrimitiveLiteral as L;
    use PrimitiveType as P;
    let v = match (p, lit) {
        (P::Boolean, L::Boolean(b)) => Value::Bool(*b),
        (P::Int, L::Int(i)) => Value::from(*i),
        (P::Long, L::Long(i)) => Value::from(*i),
        (P::Long, L::Int(i)) => Value::from(*i),
        (P::Float, L::Float(f)) => float_value(f.0 as f64, format!("{:08x}", f.0.to_bits())),
        (P::Double, L::Double(f)) => float_value(f.0, format!("{:016x}", f.0.to_bits())),
        (P::Double, L::Float(f)) => {
            let d = f.0 as f64;
            float_value(d, format!("{:016x}", d.to_bits()))
        }
        (P::Date, L::Int(d)) => Value::String(format_date(*d as i64)),
        (P::Time, L::Long(t)) => Value::String(format_time(*t, 6)),
        (P::Timestamp, L::Long(t)) => Value::String(format_timestamp(*t, false, 6)),
        (P::Timestamptz, L::Long(t)) => Value::String(format_timestamp(*t, true, 6)),
        (P::TimestampNs, L::Long(t)) => Value::String(format_timestamp(*t, false, 9)),
        (P::TimestamptzNs, L::Long(t)) => Value::String(format_timestamp(*t, true, 9)),
        (P::String, L::String(s)) => Value::String(s.clone()),
        (P::Uuid, L::UInt128(u)) => {
            let h = format!("{u:032x}");
            Value::String(format!("{}-{}-{}-{}-{}", &h[0..8], &h[8..12], &h[12..16], &h[16..20], &h[20..]))
        }
        (P::Fixed(_) | P::Binary, L::Binary(b)) => Value::String(hex(b)),
        (P::Decimal { scale, .. }, L::Int128(u)) => Value::String(decimal_text(*u, *scale)),
        (p, lit) => return err(format!("the crate answered a {lit:?} for the type {p}")),
    };
    Ok(v)
}

pub fn encode_datum(d: &Datum) -> Res<Value> {
    encode_primitive(d.data_type(), d.literal())
}

pub fn encode_literal(t: &Type, lit: Option<&Literal>) -> Res<Value> {
    let Some(lit) = lit else { return Ok(Value::Null) };
    match (t, lit) {
        (Type::Primitive(p), Literal::Primitive(l)) => encode_primitive(p, l),
        (Type::Struct(s), Literal::Struct(v)) => {
            let mut o = JsonMap::new();
            // The vector form leaves null fields out.
            for (f, x) in s.fields().iter().zip(v.iter()) {
                if x.is_some() {
                    o.insert(f.id.to_string(), encode_literal(&f.field_type, x)?);
                }
            }
            Ok(Value::Object(o))
        }
        (Type::List(l), Literal::List(items)) => Ok(Value::Array(
            items
                .iter()
                .map(|x| encode_literal(&l.element_field.field_type, x.as_ref()))
                .collect::<Res<Vec<_>>>()?,
        )),
        (Type::Map(m), Literal::Map(map)) => {
            let mut keys = Vec::new();
            let mut values = Vec::new();
            for (k, x) in map.clone().into_iter() {
                keys.push(encode_literal(&m.key_field.field_type, Some(&k))?);
                values.push(encode_literal(&m.value_field.field_type, x.as_ref())?);
            }
            let mut o = JsonMap::new();
            o.insert("keys".into(), Value::Array(keys));
            o.insert("values".into(), Value::Array(values));
            Ok(Value::Object(o))
        }
        (t, lit) => err(format!("the crate answered {lit:?} for the type {t}")),
    }
}
