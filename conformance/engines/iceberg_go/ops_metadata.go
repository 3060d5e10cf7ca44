package main

// read-table-metadata and read-metadata-file: table.ParseMetadataBytes, printed in the
// suite's normalized reading (vectors/README.md, "metadata/").

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
	"github.com/google/uuid"
)

func init() {
	register("read-table-metadata", opReadTableMetadata)
	register("read-metadata-file", opReadMetadataFile)
}

func opReadTableMetadata(c map[string]any) (any, error) {
	doc, ok := c["document"]
	if !ok {
		return nil, fmt.Errorf("the case has no document")
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	return readMetadata(b)
}

func opReadMetadataFile(c map[string]any) (any, error) {
	text, _ := c["file-base64"].(string)
	b, err := base64.StdEncoding.DecodeString(text)
	if err != nil {
		return nil, fmt.Errorf("the case's file-base64 is not base64: %w", err)
	}
	if len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b {
		return nil, decline("table.ParseMetadataBytes reads plain JSON; iceberg-go offers no public reader of gzip metadata bytes")
	}
	return readMetadata(b)
}

// plain decodes a JSON text (from iceberg-go's own marshalling) keeping numbers exact.
func plain(b []byte) (any, error) {
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	var out any
	err := dec.Decode(&out)
	return out, err
}

func marshalPlain(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return plain(b)
}

func readMetadata(b []byte) (any, error) {
	m, err := table.ParseMetadataBytes(b)
	if err != nil {
		return nil, reject(fmt.Errorf("iceberg-go refuses the metadata: %w", err))
	}
	out := map[string]any{
		"format-version":        m.Version(),
		"location":              m.Location(),
		"last-updated-ms":       m.LastUpdatedMillis(),
		"last-column-id":        m.LastColumnID(),
		"last-sequence-number":  m.LastSequenceNumber(),
		"default-spec-id":       m.DefaultPartitionSpec(),
		"default-sort-order-id": m.DefaultSortOrder(),
	}
	if u := m.TableUUID(); u == uuid.Nil {
		out["table-uuid"] = nil
	} else {
		out["table-uuid"] = u.String()
	}
	if cs := m.CurrentSchema(); cs != nil {
		out["current-schema-id"] = cs.ID
	} else {
		out["current-schema-id"] = nil
	}
	schemas := []any{}
	for _, s := range m.Schemas() {
		js, err := marshalPlain(s)
		if err != nil {
			return nil, err
		}
		if obj, ok := js.(map[string]any); ok {
			if obj["identifier-field-ids"] == nil {
				obj["identifier-field-ids"] = []any{}
			}
		}
		schemas = append(schemas, js)
	}
	out["schemas"] = schemas
	specs := []any{}
	for _, spec := range m.PartitionSpecs() {
		fields := []any{}
		for _, f := range spec.Fields() {
			ids := f.SourceIDs
			if len(ids) == 0 {
				ids = []int{f.SourceID()}
			}
			fields = append(fields, map[string]any{
				"source-ids": ids, "field-id": f.FieldID, "name": f.Name, "transform": transformText(f.Transform),
			})
		}
		specs = append(specs, map[string]any{"spec-id": spec.ID(), "fields": fields})
	}
	out["partition-specs"] = specs
	if p := m.LastPartitionSpecID(); p != nil {
		out["last-partition-id"] = *p
	} else {
		out["last-partition-id"] = nil
	}
	orders := []any{}
	for _, o := range m.SortOrders() {
		fields := []any{}
		for _, f := range o.Fields() {
			ids := f.SourceIDs
			fields = append(fields, map[string]any{
				"source-ids": ids, "transform": transformText(f.Transform),
				"direction": fmt.Sprint(f.Direction), "null-order": fmt.Sprint(f.NullOrder),
			})
		}
		orders = append(orders, map[string]any{"order-id": o.OrderID(), "fields": fields})
	}
	out["sort-orders"] = orders
	props := map[string]any{}
	for k, v := range m.Properties() {
		props[k] = v
	}
	out["properties"] = props
	if cur := m.CurrentSnapshot(); cur != nil {
		out["current-snapshot-id"] = cur.SnapshotID
	} else {
		out["current-snapshot-id"] = nil
	}
	snaps := []any{}
	for _, s := range m.Snapshots() {
		var summary any
		if s.Summary != nil {
			sm, err := marshalPlain(s.Summary)
			if err != nil {
				return nil, err
			}
			summary = sm
		}
		snaps = append(snaps, map[string]any{
			"snapshot-id":        s.SnapshotID,
			"parent-snapshot-id": s.ParentSnapshotID,
			"sequence-number":    s.SequenceNumber,
			"timestamp-ms":       s.TimestampMs,
			"manifest-list":      nullIfEmpty(s.ManifestList),
			"summary":            summary,
			"schema-id":          s.SchemaID,
			"first-row-id":       s.FirstRowID,
			"added-rows":         s.AddedRows,
			// iceberg-go's Snapshot has no key-id field
			"key-id": nil,
		})
	}
	out["snapshots"] = snaps
	refs := map[string]any{}
	for name, r := range m.Refs() {
		refs[name] = map[string]any{
			"snapshot-id":           r.SnapshotID,
			"type":                  string(r.SnapshotRefType),
			"min-snapshots-to-keep": r.MinSnapshotsToKeep,
			"max-snapshot-age-ms":   r.MaxSnapshotAgeMs,
			"max-ref-age-ms":        r.MaxRefAgeMs,
		}
	}
	out["refs"] = refs
	slog := []any{}
	for e := range m.SnapshotLogs() {
		slog = append(slog, map[string]any{"snapshot-id": e.SnapshotID, "timestamp-ms": e.TimestampMs})
	}
	out["snapshot-log"] = slog
	mlog := []any{}
	for e := range m.PreviousFiles() {
		mlog = append(mlog, map[string]any{"metadata-file": e.MetadataFile, "timestamp-ms": e.TimestampMs})
	}
	out["metadata-log"] = mlog
	if m.Version() >= 3 {
		out["next-row-id"] = m.NextRowID()
	} else {
		out["next-row-id"] = nil
	}
	return out, nil
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func transformText(t iceberg.Transform) string {
	if t == nil {
		return ""
	}
	return t.String()
}
