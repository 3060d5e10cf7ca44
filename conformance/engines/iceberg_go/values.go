package main

// Conversions between the protocol's value forms (Appendix D JSON single values, with
// {"ieee754": "<hex>"} for non-finite floats and {"decimal": "<text>"} decimal inputs) and
// iceberg-go literals. These are the adapter's plumbing; the computations judged are iceberg-go's.

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/iceberg-go"
	"github.com/google/uuid"
)

// errInput marks a case input the adapter cannot turn into a literal (not the library's verdict).
var errInput = errors.New("adapter cannot read the case's value")

func inputErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errInput, fmt.Sprintf(format, args...))
}

// parseType reads an Appendix C type (a JSON string or a nested type object) through
// iceberg-go's own type unmarshalling, by wrapping it in a NestedField.
func parseType(raw any) (iceberg.Type, error) {
	b, err := json.Marshal(raw)
	if err != nil {
		return nil, err
	}
	field := `{"id": 1, "name": "v", "required": false, "type": ` + string(b) + `}`
	var nf iceberg.NestedField
	if err := json.Unmarshal([]byte(field), &nf); err != nil {
		return nil, err
	}
	return nf.Type, nil
}

// typeJSON prints a type the way iceberg-go writes it in a schema field. Where iceberg-go's
// writer fails on a type its parser accepted (a geo type whose CRS is inline JSON: the quotes
// inside are not escaped), the type's own String() is the printed form.
func typeJSON(t iceberg.Type) (any, error) {
	b, err := json.Marshal(iceberg.NestedField{ID: 1, Name: "v", Type: t})
	if err != nil {
		return t.String(), nil
	}
	var out map[string]any
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return out["type"], nil
}

var (
	dateRe = regexp.MustCompile(`^([+-]\d{4,}|\d{4})-(\d{2})-(\d{2})$`)
	timeRe = regexp.MustCompile(`^(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?$`)
)

// daysFromCivil: days since 1970-01-01 of a proleptic Gregorian date.
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era = (y - 399) / 400
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

func civilFromDays(z int64) (int64, int64, int64) {
	z += 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era = (z - 146096) / 146097
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

func parseDate(s string) (int64, error) {
	m := dateRe.FindStringSubmatch(s)
	if m == nil {
		return 0, inputErr("not a date: %q", s)
	}
	y, _ := strconv.ParseInt(m[1], 10, 64)
	mo, _ := strconv.ParseInt(m[2], 10, 64)
	d, _ := strconv.ParseInt(m[3], 10, 64)
	return daysFromCivil(y, mo, d), nil
}

func formatDate(days int64) string {
	y, m, d := civilFromDays(days)
	switch {
	case y > 9999:
		return fmt.Sprintf("+%d-%02d-%02d", y, m, d)
	case y < 0:
		return fmt.Sprintf("-%04d-%02d-%02d", -y, m, d)
	default:
		return fmt.Sprintf("%04d-%02d-%02d", y, m, d)
	}
}

// parseTimeOfDay gives the time of day in units of 10^-digits seconds (digits 6 or 9).
func parseTimeOfDay(s string, digits int) (*big.Int, error) {
	m := timeRe.FindStringSubmatch(s)
	if m == nil {
		return nil, inputErr("not a time: %q", s)
	}
	h, _ := strconv.ParseInt(m[1], 10, 64)
	mi, _ := strconv.ParseInt(m[2], 10, 64)
	se, _ := strconv.ParseInt(m[3], 10, 64)
	frac := m[4]
	if len(frac) > digits {
		return nil, inputErr("too many fraction digits: %q", s)
	}
	frac += strings.Repeat("0", digits-len(frac))
	f, _ := strconv.ParseInt(frac, 10, 64)
	unit := int64(math.Pow10(digits))
	v := big.NewInt((h*3600+mi*60+se)*unit + f)
	return v, nil
}

func formatTimeOfDay(v int64, digits int) string {
	unit := int64(math.Pow10(digits))
	secs := v / unit
	frac := v % unit
	return fmt.Sprintf("%02d:%02d:%02d.%0*d", secs/3600, secs/60%60, secs%60, digits, frac)
}

// parseTimestamp gives the count of units (digits 6: µs, 9: ns) since the epoch.
func parseTimestamp(s string, digits int, tz bool) (int64, error) {
	if tz {
		if !strings.HasSuffix(s, "+00:00") {
			return 0, inputErr("timestamptz without +00:00: %q", s)
		}
		s = strings.TrimSuffix(s, "+00:00")
	}
	datePart, timePart, ok := strings.Cut(s, "T")
	if !ok {
		return 0, inputErr("not a timestamp: %q", s)
	}
	days, err := parseDate(datePart)
	if err != nil {
		return 0, err
	}
	tod, err := parseTimeOfDay(timePart, digits)
	if err != nil {
		return 0, err
	}
	perDay := new(big.Int).Mul(big.NewInt(86400), big.NewInt(int64(math.Pow10(digits))))
	total := new(big.Int).Mul(big.NewInt(days), perDay)
	total.Add(total, tod)
	if !total.IsInt64() {
		return 0, inputErr("timestamp out of the 64-bit range: %q", s)
	}
	return total.Int64(), nil
}

func formatTimestamp(v int64, digits int, tz bool) string {
	perDay := new(big.Int).Mul(big.NewInt(86400), big.NewInt(int64(math.Pow10(digits))))
	days, tod := new(big.Int).DivMod(big.NewInt(v), perDay, new(big.Int))
	out := formatDate(days.Int64()) + "T" + formatTimeOfDay(tod.Int64(), digits)
	if tz {
		out += "+00:00"
	}
	return out
}

func numberText(v any) (string, bool) {
	switch n := v.(type) {
	case json.Number:
		return n.String(), true
	default:
		return "", false
	}
}

func floatBits(v any, bits int) (uint64, bool, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return 0, false, nil
	}
	h, ok := obj["ieee754"].(string)
	if !ok || len(obj) != 1 || len(h) != bits/4 {
		return 0, false, inputErr("bad ieee754 object")
	}
	u, err := strconv.ParseUint(h, 16, 64)
	if err != nil {
		return 0, false, inputErr("bad ieee754 bits %q", h)
	}
	return u, true, nil
}

// parseDecimalText splits a decimal number's text into its unscaled value and its exponent
// as written ("14.20" -> 1420, -2; "1E+2" -> 1, 2).
func parseDecimalText(s string) (*big.Int, int, error) {
	re := regexp.MustCompile(`^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$`)
	m := re.FindStringSubmatch(s)
	if m == nil || (m[2] == "" && m[3] == "") {
		return nil, 0, inputErr("not a decimal: %q", s)
	}
	digits := m[2] + m[3]
	exp := -len(m[3])
	if m[4] != "" {
		e, err := strconv.Atoi(m[4])
		if err != nil {
			return nil, 0, inputErr("bad exponent: %q", s)
		}
		exp += e
	}
	u, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		return nil, 0, inputErr("not a decimal: %q", s)
	}
	if m[1] == "-" {
		u.Neg(u)
	}
	return u, exp, nil
}

func decimalLiteral(unscaled *big.Int, scale int) (iceberg.Literal, error) {
	if unscaled.BitLen() > 127 {
		return nil, inputErr("decimal unscaled value beyond 128 bits")
	}
	return iceberg.DecimalLiteral{Val: decimal128.FromBigInt(unscaled), Scale: scale}, nil
}

// toLiteral turns a vector value of type t into an iceberg-go literal (nil for a JSON null).
func toLiteral(t iceberg.Type, v any) (iceberg.Literal, error) {
	if v == nil {
		return nil, nil
	}
	switch t.(type) {
	case iceberg.BooleanType:
		b, ok := v.(bool)
		if !ok {
			return nil, inputErr("not a boolean")
		}
		return iceberg.BoolLiteral(b), nil
	case iceberg.Int32Type, iceberg.Int64Type:
		s, ok := numberText(v)
		if !ok {
			return nil, inputErr("not a number")
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, inputErr("not a 64-bit integer: %s", s)
		}
		if _, ok := t.(iceberg.Int32Type); ok {
			if n < math.MinInt32 || n > math.MaxInt32 {
				return nil, inputErr("not a 32-bit integer: %s", s)
			}
			return iceberg.Int32Literal(int32(n)), nil
		}
		return iceberg.Int64Literal(n), nil
	case iceberg.Float32Type:
		if u, ok, err := floatBits(v, 32); err != nil {
			return nil, err
		} else if ok {
			return iceberg.Float32Literal(math.Float32frombits(uint32(u))), nil
		}
		s, ok := numberText(v)
		if !ok {
			return nil, inputErr("not a number")
		}
		f, err := strconv.ParseFloat(s, 32)
		if err != nil {
			return nil, inputErr("not a float: %s", s)
		}
		return iceberg.Float32Literal(float32(f)), nil
	case iceberg.Float64Type:
		if u, ok, err := floatBits(v, 64); err != nil {
			return nil, err
		} else if ok {
			return iceberg.Float64Literal(math.Float64frombits(u)), nil
		}
		s, ok := numberText(v)
		if !ok {
			return nil, inputErr("not a number")
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, inputErr("not a double: %s", s)
		}
		return iceberg.Float64Literal(f), nil
	}
	s, ok := v.(string)
	if _, isDec := t.(iceberg.DecimalType); isDec {
		if obj, isObj := v.(map[string]any); isObj {
			text, good := obj["decimal"].(string)
			if !good || len(obj) != 1 {
				return nil, inputErr("bad decimal object")
			}
			u, exp, err := parseDecimalText(text)
			if err != nil {
				return nil, err
			}
			// handed over with the exponent as written: iceberg-go's To() brings it to the type
			lit, err := decimalLiteral(u, -exp)
			if err != nil {
				return nil, err
			}
			return lit.To(t)
		}
	}
	if !ok {
		return nil, inputErr("expected a string value for %s", t)
	}
	switch tt := t.(type) {
	case iceberg.StringType:
		return iceberg.StringLiteral(s), nil
	case iceberg.DateType:
		d, err := parseDate(s)
		if err != nil {
			return nil, err
		}
		if d < math.MinInt32 || d > math.MaxInt32 {
			return nil, inputErr("date beyond 32-bit days")
		}
		return iceberg.DateLiteral(iceberg.Date(d)), nil
	case iceberg.TimeType:
		v, err := parseTimeOfDay(s, 6)
		if err != nil {
			return nil, err
		}
		return iceberg.TimeLiteral(iceberg.Time(v.Int64())), nil
	case iceberg.TimestampType, iceberg.TimestampTzType:
		_, tz := t.(iceberg.TimestampTzType)
		n, err := parseTimestamp(s, 6, tz)
		if err != nil {
			return nil, err
		}
		return iceberg.TimestampLiteral(iceberg.Timestamp(n)), nil
	case iceberg.TimestampNsType, iceberg.TimestampTzNsType:
		_, tz := t.(iceberg.TimestampTzNsType)
		n, err := parseTimestamp(s, 9, tz)
		if err != nil {
			return nil, err
		}
		return iceberg.TimestampNsLiteral(iceberg.TimestampNano(n)), nil
	case iceberg.UUIDType:
		u, err := uuid.Parse(s)
		if err != nil || len(s) != 36 {
			return nil, inputErr("not a uuid: %q", s)
		}
		return iceberg.UUIDLiteral(u), nil
	case iceberg.BinaryType:
		b, err := hex.DecodeString(s)
		if err != nil {
			return nil, inputErr("not hex: %q", s)
		}
		return iceberg.BinaryLiteral(b), nil
	case iceberg.FixedType:
		b, err := hex.DecodeString(s)
		if err != nil {
			return nil, inputErr("not hex: %q", s)
		}
		if len(b) != tt.Len() {
			return nil, inputErr("fixed[%d] value of %d bytes", tt.Len(), len(b))
		}
		return iceberg.FixedLiteral(b), nil
	case iceberg.DecimalType:
		u, exp, err := parseDecimalText(s)
		if err != nil {
			return nil, err
		}
		if -exp != tt.Scale() {
			return nil, inputErr("decimal %q is not at scale %d", s, tt.Scale())
		}
		return decimalLiteral(u, tt.Scale())
	}
	return nil, inputErr("the adapter has no value form for %s", t)
}

// floatNumber writes a float as a JSON number that keeps its sign and value (-0.0, 1.0).
func floatNumber(f float64, bitSize int) json.Number {
	s := strconv.FormatFloat(f, 'g', -1, bitSize)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	return json.Number(s)
}

// fromLiteral writes a literal in the vector form of type t.
func fromLiteral(t iceberg.Type, lit iceberg.Literal) (any, error) {
	if lit == nil {
		return nil, nil
	}
	switch l := lit.(type) {
	case iceberg.BoolLiteral:
		return bool(l), nil
	case iceberg.Int32Literal:
		if _, ok := t.(iceberg.DateType); ok {
			return formatDate(int64(l)), nil
		}
		return int64(l), nil
	case iceberg.Int64Literal:
		return int64(l), nil
	case iceberg.Float32Literal:
		f := float32(l)
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return map[string]any{"ieee754": fmt.Sprintf("%08x", math.Float32bits(f))}, nil
		}
		if _, ok := t.(iceberg.Float64Type); ok {
			return floatNumber(float64(f), 64), nil
		}
		return floatNumber(float64(f), 32), nil
	case iceberg.Float64Literal:
		f := float64(l)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return map[string]any{"ieee754": fmt.Sprintf("%016x", math.Float64bits(f))}, nil
		}
		if _, ok := t.(iceberg.Float32Type); ok {
			return floatNumber(f, 32), nil
		}
		return floatNumber(f, 64), nil
	case iceberg.DateLiteral:
		return formatDate(int64(l)), nil
	case iceberg.TimeLiteral:
		return formatTimeOfDay(int64(l), 6), nil
	case iceberg.TimestampLiteral:
		_, tz := t.(iceberg.TimestampTzType)
		if _, ok := t.(iceberg.DateType); ok {
			return nil, fmt.Errorf("iceberg-go returned a timestamp literal for a date")
		}
		return formatTimestamp(int64(l), 6, tz), nil
	case iceberg.TimestampNsLiteral:
		_, tz := t.(iceberg.TimestampTzNsType)
		return formatTimestamp(int64(l), 9, tz), nil
	case iceberg.StringLiteral:
		return string(l), nil
	case iceberg.BinaryLiteral:
		return hex.EncodeToString(l), nil
	case iceberg.FixedLiteral:
		return hex.EncodeToString(l), nil
	case iceberg.UUIDLiteral:
		return uuid.UUID(l).String(), nil
	case iceberg.DecimalLiteral:
		return decimalText(l.Val.BigInt(), l.Scale), nil
	}
	return nil, fmt.Errorf("the adapter cannot write a %T literal", lit)
}

// decimalText is the Appendix D form: plain digits with `scale` fraction digits.
func decimalText(u *big.Int, scale int) string {
	neg := u.Sign() < 0
	digits := new(big.Int).Abs(u).String()
	var out string
	switch {
	case scale <= 0:
		out = digits
		if scale < 0 {
			out += "E+" + strconv.Itoa(-scale)
		}
	default:
		if len(digits) <= scale {
			digits = strings.Repeat("0", scale-len(digits)+1) + digits
		}
		out = digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
	}
	if neg {
		out = "-" + out
	}
	return out
}
