package main

// parse-schema: a schema JSON through iceberg-go's Schema unmarshalling, written back with
// its MarshalJSON.

import (
	"encoding/json"
	"fmt"

	"github.com/apache/iceberg-go"
)

func init() {
	register("parse-schema", opParseSchema)
}

func opParseSchema(c map[string]any) (any, error) {
	raw, ok := c["schema"]
	if !ok {
		return nil, fmt.Errorf("the case has no schema")
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return nil, err
	}
	var s iceberg.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, reject(fmt.Errorf("iceberg-go refuses the schema: %w", err))
	}
	out, err := marshalPlain(&s)
	if err != nil {
		return nil, reject(fmt.Errorf("iceberg-go cannot write the schema back: %w", err))
	}
	// an empty identifier-field-ids list and an absent one mean the same; the reference omits it
	if obj, ok := out.(map[string]any); ok {
		if ids, ok := obj["identifier-field-ids"].([]any); ok && len(ids) == 0 {
			if m, ok := raw.(map[string]any); !ok || m["identifier-field-ids"] == nil {
				delete(obj, "identifier-field-ids")
			}
		}
	}
	return out, nil
}
