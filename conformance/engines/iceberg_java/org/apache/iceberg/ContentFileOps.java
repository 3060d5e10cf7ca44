/*
 * The content-file and file-scan-task JSON ops of the conformance vectors (vectors/metadata/content-files.json),
 * answered with Iceberg's own parsers:
 *
 *   parse-content-file    ContentFileParser.fromJson(json, specsById), the file reported as its manifest
 *                         data_file fields (partition by partition field id, bounds and key metadata as hex)
 *   write-content-file    ContentFileParser.toJson of a file built with DataFiles.builder /
 *                         FileMetadata.deleteFileBuilder from the case's data_file fields
 *   parse-file-scan-task  FileScanTaskParser.fromJson(json, true): its schema, spec, data file, delete files
 *                         and residual (ExpressionParser.toJson)
 *
 * Nothing here decides a rule: it only turns the case's JSON into Iceberg's objects and back.
 */
package org.apache.iceberg;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.apache.iceberg.expressions.ExpressionParser;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.JsonNode;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.JsonUtil;

public final class ContentFileOps {
  public static final String[] OPS = {"parse-content-file", "write-content-file", "parse-file-scan-task"};

  private final BiFunction<Type, JsonNode, Object> decode;
  private final PlanningOps.Encoder encode;
  private final JsonNodeFactory nodes = JsonNodeFactory.instance;
  private final ObjectMapper mapper = JsonUtil.mapper();

  public ContentFileOps(BiFunction<Type, JsonNode, Object> decode, PlanningOps.Encoder encode) {
    this.decode = decode;
    this.encode = encode;
  }

  public JsonNode run(String op, JsonNode c) throws Exception {
    switch (op) {
      case "parse-content-file":
        return parseContentFile(c);
      case "write-content-file":
        return writeContentFile(c);
      case "parse-file-scan-task":
        return parseFileScanTask(c);
      default:
        throw new IllegalArgumentException("Unknown op: " + op);
    }
  }

  JsonNode parseContentFile(JsonNode c) throws Exception {
    Schema schema = SchemaParser.fromJson(PlanningOps.required(c, "schema").toString());
    Map<Integer, PartitionSpec> specs = new HashMap<>();
    for (JsonNode s : PlanningOps.required(c, "specs")) {
      PartitionSpec spec = PartitionSpecParser.fromJson(schema, s);
      specs.put(spec.specId(), spec);
    }
    ContentFile<?> file = Compat.contentFileFromJson(PlanningOps.required(c, "json"), specs);
    return parsed(file, specs.get(file.specId()));
  }

  JsonNode writeContentFile(JsonNode c) throws Exception {
    Schema schema = SchemaParser.fromJson(PlanningOps.required(c, "schema").toString());
    PartitionSpec spec = PartitionSpecParser.fromJson(schema, PlanningOps.required(c, "spec"));
    JsonNode f = PlanningOps.required(c, "data-file");
    PartitionData partition = new PartitionData(spec.partitionType());
    List<Types.NestedField> fields = spec.partitionType().fields();
    for (int i = 0; i < fields.size(); i++) {
      JsonNode v = f.path("partition").get(String.valueOf(fields.get(i).fieldId()));
      partition.set(i, v == null || v.isNull() ? null : decode.apply(fields.get(i).type(), v));
    }
    Metrics metrics = new Metrics(f.get("record_count").asLong(), longs(f.get("column_sizes")),
        longs(f.get("value_counts")), longs(f.get("null_value_counts")), longs(f.get("nan_value_counts")),
        bytes(f.get("lower_bounds")), bytes(f.get("upper_bounds")));
    int content = f.path("content").asInt(0);
    ContentFile<?> file;
    if (content == 0) {
      DataFiles.Builder b = DataFiles.builder(spec).withPath(f.get("file_path").asText())
          .withFormat(f.get("file_format").asText()).withPartition(partition)
          .withFileSizeInBytes(f.get("file_size_in_bytes").asLong()).withMetrics(metrics);
      if (f.has("split_offsets")) {
        b.withSplitOffsets(longList(f.get("split_offsets")));
      }
      if (f.has("sort_order_id")) {
        b.withSortOrder(sortOrder(schema, f.get("sort_order_id").asInt()));
      }
      if (f.has("key_metadata")) {
        b.withEncryptionKeyMetadata(hex(f.get("key_metadata").asText()));
      }
      file = b.build();
    } else {
      FileMetadata.Builder b = FileMetadata.deleteFileBuilder(spec).withPath(f.get("file_path").asText())
          .withFormat(f.get("file_format").asText()).withPartition(partition)
          .withFileSizeInBytes(f.get("file_size_in_bytes").asLong()).withMetrics(metrics);
      if (content == 1) {
        b.ofPositionDeletes();
      } else {
        int[] ids = new int[f.get("equality_ids").size()];
        for (int i = 0; i < ids.length; i++) {
          ids[i] = f.get("equality_ids").get(i).asInt();
        }
        b.ofEqualityDeletes(ids);
      }
      if (f.has("key_metadata")) {
        b.withEncryptionKeyMetadata(hex(f.get("key_metadata").asText()));
      }
      file = b.build();
    }
    return mapper.readTree(ContentFileParser.toJson(file, spec));
  }

  JsonNode parseFileScanTask(JsonNode c) throws Exception {
    FileScanTask task = FileScanTaskParser.fromJson(PlanningOps.required(c, "task"), true);
    ObjectNode out = nodes.objectNode();
    out.set("schema", mapper.readTree(SchemaParser.toJson(task.schema())));
    out.set("spec", mapper.readTree(PartitionSpecParser.toJson(task.spec())));
    out.set("data-file", parsed(task.file(), task.spec()));
    ArrayNode deletes = out.putArray("delete-files");
    for (DeleteFile d : task.deletes()) {
      deletes.add(parsed(d, task.spec()));
    }
    out.set("residual-filter", mapper.readTree(ExpressionParser.toJson(task.residual())));
    return out;
  }

  private ObjectNode parsed(ContentFile<?> file, PartitionSpec spec) throws Exception {
    ObjectNode out = nodes.objectNode();
    out.put("spec-id", file.specId());
    out.set("data-file", record(file, spec));
    return out;
  }

  private ObjectNode record(ContentFile<?> f, PartitionSpec spec) throws Exception {
    ObjectNode out = nodes.objectNode();
    out.put("content", f.content().id());
    out.put("file_path", f.location());
    out.put("file_format", f.format().name());
    ObjectNode partition = out.putObject("partition");
    List<Types.NestedField> fields = spec.partitionType().fields();
    for (int i = 0; i < fields.size(); i++) {
      Object v = f.partition() == null ? null : f.partition().get(i, Object.class);
      partition.set(String.valueOf(fields.get(i).fieldId()), encode.encode(fields.get(i).type(), v));
    }
    out.put("record_count", f.recordCount());
    out.put("file_size_in_bytes", f.fileSizeInBytes());
    putLongs(out, "column_sizes", f.columnSizes());
    putLongs(out, "value_counts", f.valueCounts());
    putLongs(out, "null_value_counts", f.nullValueCounts());
    putLongs(out, "nan_value_counts", f.nanValueCounts());
    putBytes(out, "lower_bounds", f.lowerBounds());
    putBytes(out, "upper_bounds", f.upperBounds());
    if (f.keyMetadata() != null) {
      out.put("key_metadata", hex(f.keyMetadata()));
    }
    if (f.splitOffsets() != null) {
      ArrayNode a = out.putArray("split_offsets");
      f.splitOffsets().forEach(a::add);
    }
    if (f.equalityFieldIds() != null) {
      ArrayNode a = out.putArray("equality_ids");
      f.equalityFieldIds().forEach(a::add);
    }
    if (f.sortOrderId() != null) {
      out.put("sort_order_id", f.sortOrderId());
    }
    return out;
  }

  private static SortOrder sortOrder(Schema schema, int id) {
    return id == 0
        ? SortOrder.unsorted()
        : SortOrder.builderFor(schema).withOrderId(id).asc(schema.columns().get(0).name()).build();
  }

  private static void putLongs(ObjectNode out, String key, Map<Integer, Long> map) {
    if (map != null) {
      ObjectNode o = out.putObject(key);
      map.forEach((k, v) -> o.put(String.valueOf(k), v));
    }
  }

  private static void putBytes(ObjectNode out, String key, Map<Integer, ByteBuffer> map) {
    if (map != null) {
      ObjectNode o = out.putObject(key);
      map.forEach((k, v) -> o.put(String.valueOf(k), hex(v)));
    }
  }

  private static Map<Integer, Long> longs(JsonNode obj) {
    if (obj == null || obj.isNull()) {
      return null;
    }
    Map<Integer, Long> out = new HashMap<>();
    obj.fields().forEachRemaining(e -> out.put(Integer.parseInt(e.getKey()), e.getValue().asLong()));
    return out;
  }

  private static Map<Integer, ByteBuffer> bytes(JsonNode obj) {
    if (obj == null || obj.isNull()) {
      return null;
    }
    Map<Integer, ByteBuffer> out = new HashMap<>();
    obj.fields().forEachRemaining(e -> out.put(Integer.parseInt(e.getKey()), hex(e.getValue().asText())));
    return out;
  }

  private static List<Long> longList(JsonNode arr) {
    List<Long> out = new java.util.ArrayList<>();
    arr.forEach(n -> out.add(n.asLong()));
    return out;
  }

  private static String hex(ByteBuffer buffer) {
    ByteBuffer b = buffer.duplicate();
    StringBuilder s = new StringBuilder();
    while (b.hasRemaining()) {
      s.append(String.format("%02x", b.get() & 0xff));
    }
    return s.toString();
  }

  private static ByteBuffer hex(String text) {
    byte[] out = new byte[text.length() / 2];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) Integer.parseInt(text.substring(2 * i, 2 * i + 2), 16);
    }
    return ByteBuffer.wrap(out);
  }
}
