package main

// The value ops: types, transforms, binary and JSON single values.

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/iceberg-go"
)

func init() {
	register("hash", opHash)
	register("parse-type", opParseType)
	register("promote", opPromote)
	register("parse-transform", opParseTransform)
	register("result-type", opResultType)
	register("transform", opTransform)
	register("to-binary", opToBinary)
	register("from-binary", opFromBinary)
	register("to-json", opToJSON)
	register("from-json", opFromJSON)
}

// caseType parses the case's type with iceberg-go; a type it refuses is a rejection.
func caseType(c map[string]any, key string) (iceberg.Type, error) {
	raw, ok := c[key]
	if !ok {
		return nil, fmt.Errorf("the case has no %q", key)
	}
	t, err := parseType(raw)
	if err != nil {
		return nil, reject(fmt.Errorf("iceberg-go refuses the type: %w", err))
	}
	return t, nil
}

func caseValue(t iceberg.Type, c map[string]any, key string) (iceberg.Literal, error) {
	lit, err := toLiteral(t, c[key])
	if err != nil {
		if isInput(err) {
			return nil, err
		}
		// a conversion iceberg-go itself performed (a decimal brought to the type's scale)
		return nil, reject(fmt.Errorf("iceberg-go refuses the value: %w", err))
	}
	return lit, nil
}

func isInput(err error) bool { return err != nil && strings.HasPrefix(err.Error(), errInput.Error()) }

func opHash(c map[string]any) (any, error) {
	return nil, decline("iceberg-go exposes no Appendix B hash: its bucket transform hashes internally and " +
		"keeps only (hash & 0x7fffffff) mod N, so the signed 32-bit hash cannot be read from its public API")
}

func opParseType(c map[string]any) (any, error) {
	t, err := caseType(c, "type")
	if err != nil {
		return nil, err
	}
	return typeJSON(t)
}

func opPromote(c map[string]any) (any, error) {
	from, err := caseType(c, "from")
	if err != nil {
		return nil, err
	}
	to, err := caseType(c, "to")
	if err != nil {
		return nil, err
	}
	// iceberg.PromoteType has no format-version argument: it answers for every version alike.
	_, perr := iceberg.PromoteType(from, to)
	return perr == nil, nil
}

func caseTransform(c map[string]any) (iceberg.Transform, error) {
	text, ok := c["transform"].(string)
	if !ok {
		return nil, fmt.Errorf("the case has no transform string")
	}
	tr, err := iceberg.ParseTransform(text)
	if err != nil {
		return nil, reject(fmt.Errorf("iceberg-go refuses the transform: %w", err))
	}
	return tr, nil
}

func opParseTransform(c map[string]any) (any, error) {
	tr, err := caseTransform(c)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"transform": tr.String(), "name": nil, "param": nil}
	switch t := tr.(type) {
	case iceberg.BucketTransform:
		out["name"], out["param"] = "bucket", t.NumBuckets
	case iceberg.TruncateTransform:
		out["name"], out["param"] = "truncate", t.Width
	case iceberg.IdentityTransform:
		out["name"] = "identity"
	case iceberg.VoidTransform:
		out["name"] = "void"
	case iceberg.YearTransform:
		out["name"] = "year"
	case iceberg.MonthTransform:
		out["name"] = "month"
	case iceberg.DayTransform:
		out["name"] = "day"
	case iceberg.HourTransform:
		out["name"] = "hour"
	case iceberg.UnknownTransform:
		// kept verbatim, no name and no parameter
	default:
		return nil, fmt.Errorf("iceberg-go returned an unexpected transform %T", tr)
	}
	return out, nil
}

func transformAndType(c map[string]any) (iceberg.Transform, iceberg.Type, error) {
	tr, err := caseTransform(c)
	if err != nil {
		return nil, nil, err
	}
	src, err := caseType(c, "type")
	if err != nil {
		return nil, nil, err
	}
	if _, unknown := tr.(iceberg.UnknownTransform); unknown {
		return nil, nil, decline("iceberg-go parses %q as an UnknownTransform, which has no result type or value", tr.String())
	}
	if !tr.CanTransform(src) {
		return nil, nil, rejectf("iceberg-go: %s cannot transform %s", tr, src)
	}
	return tr, src, nil
}

func opResultType(c map[string]any) (any, error) {
	tr, src, err := transformAndType(c)
	if err != nil {
		return nil, err
	}
	return typeJSON(tr.ResultType(src))
}

func opTransform(c map[string]any) (any, error) {
	tr, src, err := transformAndType(c)
	if err != nil {
		return nil, err
	}
	lit, err := caseValue(src, c, "value")
	if err != nil {
		return nil, err
	}
	in := iceberg.Optional[iceberg.Literal]{Valid: lit != nil, Val: lit}
	res := tr.Apply(in)
	if !res.Valid {
		if lit == nil {
			return nil, nil
		}
		if _, void := tr.(iceberg.VoidTransform); void {
			return nil, nil
		}
		return nil, fmt.Errorf("iceberg-go's %s.Apply returned no value for %s %v", tr, src, lit)
	}
	return fromLiteral(tr.ResultType(src), res.Val)
}

func opToBinary(c map[string]any) (any, error) {
	t, err := caseType(c, "type")
	if err != nil {
		return nil, err
	}
	lit, err := caseValue(t, c, "value")
	if err != nil {
		return nil, err
	}
	if lit == nil {
		return nil, decline("a null has no single-value binary form")
	}
	b, err := lit.MarshalBinary()
	if err != nil {
		return nil, reject(fmt.Errorf("iceberg-go MarshalBinary: %w", err))
	}
	return hex.EncodeToString(b), nil
}

func opFromBinary(c map[string]any) (any, error) {
	t, err := caseType(c, "type")
	if err != nil {
		return nil, err
	}
	h, _ := c["hex"].(string)
	data, err := hex.DecodeString(h)
	if err != nil {
		return nil, rejectf("the case's hex is not hexadecimal")
	}
	switch t.(type) {
	case *iceberg.StructType, *iceberg.ListType, *iceberg.MapType:
		return nil, decline("iceberg-go's LiteralFromBytes reads primitive types only")
	}
	lit, err := iceberg.LiteralFromBytes(t, data)
	if err != nil {
		return nil, reject(fmt.Errorf("iceberg-go LiteralFromBytes: %w", err))
	}
	return fromLiteral(t, lit)
}

// singleValueSchema is a one-column schema for reading and writing values through iceberg-go's
// expression JSON (its REST single-value parser).
func singleValueSchema(t iceberg.Type) *iceberg.Schema {
	return iceberg.NewSchema(0, iceberg.NestedField{ID: 1, Name: "v", Type: t, Required: false})
}

func primitiveOnly(t iceberg.Type, what string) error {
	switch t.(type) {
	case *iceberg.StructType, *iceberg.ListType, *iceberg.MapType:
		return decline("iceberg-go's single-value JSON is the expression JSON's literal form, which has no %s of nested types", what)
	case iceberg.UnknownType, iceberg.VariantType, iceberg.GeometryType, iceberg.GeographyType:
		return decline("iceberg-go's expression JSON has no %s of %s values", what, t)
	}
	return nil
}

func opToJSON(c map[string]any) (any, error) {
	t, err := caseType(c, "type")
	if err != nil {
		return nil, err
	}
	if err := primitiveOnly(t, "writer"); err != nil {
		return nil, err
	}
	lit, err := caseValue(t, c, "value")
	if err != nil {
		return nil, err
	}
	if lit == nil {
		return nil, decline("iceberg-go's expression JSON has no null literal")
	}
	var b []byte
	switch lit.(type) {
	case iceberg.TimestampLiteral, iceberg.TimestampNsLiteral:
		// a timestamp literal is written through a bound predicate, which knows the field type
		bound, err := iceberg.LiteralPredicate(iceberg.OpEQ, iceberg.Reference("v"), lit).Bind(singleValueSchema(t), true)
		if err != nil {
			return nil, reject(fmt.Errorf("iceberg-go cannot bind the value: %w", err))
		}
		pb, err := json.Marshal(bound)
		if err != nil {
			return nil, reject(fmt.Errorf("iceberg-go cannot write the value: %w", err))
		}
		var node struct {
			Value json.RawMessage `json:"value"`
		}
		if err := json.Unmarshal(pb, &node); err != nil || len(node.Value) == 0 {
			return nil, fmt.Errorf("iceberg-go wrote no value: %s", pb)
		}
		b = node.Value
	default:
		b, err = json.Marshal(lit)
		if err != nil {
			return nil, reject(fmt.Errorf("iceberg-go cannot write the value: %w", err))
		}
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	// A float's JSON number as iceberg-go wrote it ("-0"), spelled so that a double reader
	// sees the same value (-0.0); the number itself is unchanged.
	if n, ok := out.(json.Number); ok {
		switch t.(type) {
		case iceberg.Float32Type:
			if f, err := strconv.ParseFloat(n.String(), 32); err == nil {
				return floatNumber(f, 32), nil
			}
		case iceberg.Float64Type:
			if f, err := strconv.ParseFloat(n.String(), 64); err == nil {
				return floatNumber(f, 64), nil
			}
		}
	}
	return out, nil
}

func opFromJSON(c map[string]any) (any, error) {
	t, err := caseType(c, "type")
	if err != nil {
		return nil, err
	}
	if err := primitiveOnly(t, "reader"); err != nil {
		return nil, err
	}
	raw := c["json"]
	if raw == nil {
		return nil, decline("iceberg-go's expression JSON has no null literal")
	}
	val, err := json.Marshal(raw)
	if err != nil {
		return nil, err
	}
	doc := `{"type": "eq", "term": "v", "value": ` + string(val) + `}`
	expr, err := iceberg.ParseExpr([]byte(doc), singleValueSchema(t))
	if err != nil {
		return nil, reject(fmt.Errorf("iceberg-go refuses the JSON value: %w", err))
	}
	bound, err := iceberg.BindExpr(singleValueSchema(t), expr, true)
	if err != nil {
		return nil, reject(fmt.Errorf("iceberg-go refuses the JSON value: %w", err))
	}
	switch b := bound.(type) {
	case iceberg.BoundLiteralPredicate:
		return fromLiteral(t, b.Literal())
	case iceberg.AlwaysFalse, iceberg.AlwaysTrue:
		return nil, rejectf("iceberg-go reads the value as out of range for %s (its binding folds the predicate to %s)", t, b)
	default:
		return nil, fmt.Errorf("iceberg-go bound the value's predicate to %s", bound)
	}
}
