/*
 * The planning ops of the conformance vectors (vectors/planning/), answered with Iceberg's own
 * expression and pruning classes:
 *
 *   evaluate-predicate   Evaluator on each row (the row filter Iceberg applies in memory)
 *   project-predicate    Projections.inclusive(spec) / Projections.strict(spec), then Evaluator on
 *                        the partition tuple (the transform's bind(type).apply of the row's value),
 *                        as ManifestReader filters entries by partition
 *   evaluate-metrics     InclusiveMetricsEvaluator / StrictMetricsEvaluator on a DataFile built with
 *                        DataFiles.builder(...).withMetrics(new Metrics(...))
 *   evaluate-manifest    ManifestEvaluator.forPartitionFilter over a GenericManifestFile that carries
 *                        the case's GenericPartitionFieldSummary list
 *   partition-summaries  PartitionSummary (package-private: what ManifestWriter records) over the
 *                        partition tuples, identity fields
 *   partition-tuple      PartitionKey.partition(row) per row (the key Iceberg's partitioned writers
 *                        route rows by); the rows are one partition when StructLikeWrapper (the
 *                        partition type's Comparators.forType) finds every key equal to the first
 *   column-metrics       the column written with Iceberg's Parquet appender (Parquet.write,
 *                        GenericParquetWriter, GenericRecord values from GenericDataUtil), metrics
 *                        mode from the table property write.metadata.metrics.default, then the
 *                        appender's own metrics()
 *
 * PartitionSummary, GenericManifestFile's full constructor and the summary without contains_nan
 * are package-private, hence this class lives in package org.apache.iceberg. Nothing here decides
 * a rule itself: it only turns the case's JSON into Iceberg's objects (and, for partition-tuple, says
 * that keys Iceberg finds unequal are not one file's tuple: a Rejection carrying the case's rule). Predicates are Iceberg's
 * expression JSON with values in the vectors' value form (decoded by the engine's `decode`).
 */
package org.apache.iceberg;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.InclusiveMetricsEvaluator;
import org.apache.iceberg.expressions.ManifestEvaluator;
import org.apache.iceberg.expressions.Projections;
import org.apache.iceberg.expressions.StrictMetricsEvaluator;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.JsonNode;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.BooleanNode;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.NullNode;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.StructLikeWrapper;

public final class PlanningOps {
  public static final String[] OPS = {
    "evaluate-predicate", "project-predicate", "evaluate-metrics", "evaluate-manifest", "partition-summaries",
    "partition-tuple", "column-metrics"
  };

  /** The rule id of the data-file partition tuple: every row of a file is in one partition. */
  static final String SINGLE_PARTITION_RULE = "data-file.partition-tuple.single";

  /** Writes a value in the vectors' form (the engine's `encode`). */
  public interface Encoder {
    JsonNode encode(Type type, Object value) throws Exception;
  }

  /** A case's input refused under a rule of the suite (answered as an error with that `rule`). */
  public static final class Rejection extends RuntimeException {
    public final String rule;

    Rejection(String rule, String message) {
      super(message);
      this.rule = rule;
    }
  }

  private final BiFunction<Type, JsonNode, Object> decode;
  private final Encoder encode;
  private final JsonNodeFactory nodes = JsonNodeFactory.instance;

  public PlanningOps(BiFunction<Type, JsonNode, Object> decode, Encoder encode) {
    this.decode = decode;
    this.encode = encode;
  }

  public JsonNode run(String op, JsonNode c) throws Exception {
    switch (op) {
      case "evaluate-predicate":
        return evaluatePredicate(c);
      case "project-predicate":
        return projectPredicate(c);
      case "evaluate-metrics":
        return BooleanNode.valueOf(evaluateMetrics(c));
      case "evaluate-manifest":
        return BooleanNode.valueOf(evaluateManifest(c));
      case "partition-summaries":
        return partitionSummaries(c);
      case "partition-tuple":
        return partitionTuple(c);
      case "column-metrics":
        return columnMetrics(c);
      default:
        throw new IllegalArgumentException("Unknown op: " + op);
    }
  }

  // ------------------------------------------------------------------ ops

  JsonNode evaluatePredicate(JsonNode c) {
    Schema schema = SchemaParser.fromJson(required(c, "schema").toString());
    Evaluator evaluator = new Evaluator(schema.asStruct(), expression(required(c, "predicate"), schema.asStruct()), true);
    ArrayNode out = nodes.arrayNode();
    for (JsonNode row : required(c, "rows")) {
      out.add(evaluator.eval(row(schema.asStruct(), row)));
    }
    return out;
  }

  JsonNode projectPredicate(JsonNode c) {
    Schema schema = SchemaParser.fromJson(required(c, "schema").toString());
    PartitionSpec spec = spec(schema, required(c, "spec"));
    Expression predicate = expression(required(c, "predicate"), schema.asStruct());
    boolean inclusive = "inclusive".equals(required(c, "mode").asText());
    Expression projected =
        inclusive ? Projections.inclusive(spec, true).project(predicate) : Projections.strict(spec, true).project(predicate);
    Evaluator evaluator = new Evaluator(spec.partitionType(), projected, true);
    ArrayNode out = nodes.arrayNode();
    for (JsonNode rowJson : required(c, "rows")) {
      StructLike row = row(schema.asStruct(), rowJson);
      Object[] partition = new Object[spec.fields().size()];
      for (int i = 0; i < partition.length; i++) {
        PartitionField field = spec.fields().get(i);
        if ("UnknownTransform".equals(field.transform().getClass().getSimpleName())) {
          continue; // no value to compute; the projection never names the field (it projects to a constant)
        }
        Type sourceType = schema.findType(field.sourceId());
        int pos = position(schema.asStruct(), field.sourceId());
        @SuppressWarnings("unchecked")
        org.apache.iceberg.transforms.Transform<Object, Object> transform =
            (org.apache.iceberg.transforms.Transform<Object, Object>) field.transform();
        partition[i] = transform.bind(sourceType).apply(row.get(pos, Object.class));
      }
      out.add(evaluator.eval(new Row(partition)));
    }
    return out;
  }

  boolean evaluateMetrics(JsonNode c) {
    Schema schema = SchemaParser.fromJson(required(c, "schema").toString());
    Map<Integer, Long> valueCounts = new HashMap<>();
    Map<Integer, Long> nullCounts = new HashMap<>();
    Map<Integer, Long> nanCounts = new HashMap<>();
    Map<Integer, ByteBuffer> lower = new HashMap<>();
    Map<Integer, ByteBuffer> upper = new HashMap<>();
    JsonNode metrics = required(c, "metrics");
    metrics.fieldNames().forEachRemaining(name -> {
      int id = schema.findField(name).fieldId();
      JsonNode m = metrics.get(name);
      putLong(valueCounts, id, m.get("value_count"));
      putLong(nullCounts, id, m.get("null_value_count"));
      putLong(nanCounts, id, m.get("nan_value_count"));
      putBytes(lower, id, m.get("lower_bound"));
      putBytes(upper, id, m.get("upper_bound"));
    });
    long records = required(c, "record-count").asLong();
    DataFile file = DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath("file:/data/f.parquet")
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(1)
        .withRecordCount(records)
        .withMetrics(new Metrics(records, null, orNull(valueCounts), orNull(nullCounts), orNull(nanCounts), orNull(lower),
            orNull(upper)))
        .build();
    Expression predicate = expression(required(c, "predicate"), schema.asStruct());
    if ("inclusive".equals(required(c, "mode").asText())) {
      return new InclusiveMetricsEvaluator(schema, predicate, true).eval(file);
    }
    return new StrictMetricsEvaluator(schema, predicate, true).eval(file);
  }

  boolean evaluateManifest(JsonNode c) {
    Schema schema = identitySchema(required(c, "fields"));
    PartitionSpec spec = identitySpec(schema);
    List<ManifestFile.PartitionFieldSummary> summaries = null;
    JsonNode given = c.get("summaries");
    if (given != null && !given.isNull()) {
      summaries = new ArrayList<>();
      for (JsonNode s : given) {
        boolean containsNull = required(s, "contains_null").asBoolean();
        ByteBuffer low = bytes(s.get("lower_bound"));
        ByteBuffer high = bytes(s.get("upper_bound"));
        JsonNode nan = s.get("contains_nan");
        summaries.add(nan == null || nan.isNull()
            ? new GenericPartitionFieldSummary(containsNull, low, high)
            : new GenericPartitionFieldSummary(containsNull, nan.asBoolean(), low, high));
      }
    }
    ManifestFile manifest = Compat.dataManifest(spec.specId(), summaries);
    Expression predicate = expression(required(c, "predicate"), schema.asStruct());
    return ManifestEvaluator.forPartitionFilter(predicate, spec, true).eval(manifest);
  }

  JsonNode partitionSummaries(JsonNode c) {
    ArrayNode fields = nodes.arrayNode();
    int i = 0;
    for (JsonNode t : required(c, "types")) {
      ObjectNode f = fields.addObject();
      f.put("name", "p" + i++);
      f.set("type", t);
    }
    Schema schema = identitySchema(fields);
    PartitionSpec spec = identitySpec(schema);
    PartitionSummary summary = new PartitionSummary(spec);
    for (JsonNode tuple : required(c, "partitions")) {
      Object[] values = new Object[schema.columns().size()];
      for (int k = 0; k < values.length; k++) {
        values[k] = decode.apply(schema.columns().get(k).type(), tuple.get(k));
      }
      summary.update(new Row(values));
    }
    ArrayNode out = nodes.arrayNode();
    for (ManifestFile.PartitionFieldSummary s : summary.summaries()) {
      ObjectNode o = out.addObject();
      o.put("contains_null", s.containsNull());
      if (s.containsNaN() == null) {
        o.putNull("contains_nan");
      } else {
        o.put("contains_nan", s.containsNaN());
      }
      o.set("lower_bound", hex(s.lowerBound()));
      o.set("upper_bound", hex(s.upperBound()));
    }
    return out;
  }

  /**
   * The partition tuple of a file holding the case's rows: each row's PartitionKey (the transforms
   * of the spec bound to the schema, as Iceberg's partitioned writers compute it), compared with the
   * first row's through StructLikeWrapper (Comparators.forType of the partition type). Rows of two
   * partitions, or no rows at all, give no single tuple.
   */
  JsonNode partitionTuple(JsonNode c) throws Exception {
    Schema schema = SchemaParser.fromJson(required(c, "schema").toString());
    PartitionSpec spec = spec(schema, required(c, "spec"));
    Types.StructType partitionType = spec.partitionType();
    PartitionKey key = new PartitionKey(spec, schema);
    StructLikeWrapper first = null;
    StructLikeWrapper current = StructLikeWrapper.forType(partitionType);
    int index = 0;
    for (JsonNode rowJson : required(c, "rows")) {
      key.partition(row(schema.asStruct(), rowJson));
      if (first == null) {
        first = StructLikeWrapper.forType(partitionType).set(key.copy());
      } else if (!first.equals(current.set(key))) {
        throw new Rejection(SINGLE_PARTITION_RULE, "row " + index + " is in partition " + key + ", row 0 in " + first.get());
      }
      index++;
    }
    if (first == null) {
      throw new Rejection(SINGLE_PARTITION_RULE, "a file without rows has no partition tuple of its rows");
    }
    StructLike tuple = first.get();
    ArrayNode out = nodes.arrayNode();
    for (int i = 0; i < partitionType.fields().size(); i++) {
      out.add(encode.encode(partitionType.fields().get(i).type(), tuple.get(i, Object.class)));
    }
    return out;
  }

  /**
   * The metrics Iceberg's Parquet appender records for one optional column `x` holding the case's
   * values: Parquet.write(...).createWriterFunc(GenericParquetWriter::create), with the metrics mode
   * of the table property write.metadata.metrics.default: truncate(L) for the case's truncate-length,
   * full when it has none (the reference then keeps bounds whole). The answer is appender.metrics().
   */
  JsonNode columnMetrics(JsonNode c) throws IOException {
    ObjectNode struct = nodes.objectNode();
    struct.put("type", "struct");
    ObjectNode field = struct.putArray("fields").addObject();
    field.put("id", 1);
    field.put("name", "x");
    field.put("required", false);
    field.set("type", required(c, "type"));
    Schema schema = SchemaParser.fromJson(struct.toString());
    Type type = schema.findType(1);

    JsonNode length = c.get("truncate-length");
    Map<String, String> properties = new HashMap<>();
    properties.put(TableProperties.DEFAULT_WRITE_METRICS_MODE,
        length == null || length.isNull() ? "full" : "truncate(" + length.asText() + ")");
    MetricsConfig metricsConfig = MetricsConfig.fromProperties(properties);

    List<Record> records = new ArrayList<>();
    for (JsonNode v : required(c, "values")) {
      GenericRecord record = GenericRecord.create(schema);
      Object internal = v == null || v.isNull() ? null : decode.apply(type, v);
      record.set(0, internal == null ? null : Compat.internalToGeneric(type, internal));
      records.add(record);
    }

    File file = File.createTempFile("column-metrics-", ".parquet");
    Metrics metrics;
    try {
      FileAppender<Record> appender = Compat.genericWriter(Parquet.write(Files.localOutput(file)).schema(schema), schema)
          .metricsConfig(metricsConfig)
          .overwrite()
          .build();
      try {
        appender.addAll(records);
      } finally {
        appender.close();
      }
      metrics = appender.metrics();
    } finally {
      file.delete();
    }

    ObjectNode out = nodes.objectNode();
    putMetric(out, "value_count", metrics.valueCounts());
    putMetric(out, "null_value_count", metrics.nullValueCounts());
    putMetric(out, "nan_value_count", metrics.nanValueCounts());
    out.set("lower_bound", hex(metrics.lowerBounds() == null ? null : metrics.lowerBounds().get(1)));
    out.set("upper_bound", hex(metrics.upperBounds() == null ? null : metrics.upperBounds().get(1)));
    return out;
  }

  static void putMetric(ObjectNode out, String name, Map<Integer, Long> counts) {
    Long value = counts == null ? null : counts.get(1);
    if (value == null) {
      out.putNull(name);
    } else {
      out.put(name, (long) value);
    }
  }

  // ------------------------------------------------------------ building

  /** Iceberg's expression JSON, values decoded with the column's type. */
  Expression expression(JsonNode e, Types.StructType struct) {
    if (e.isBoolean()) {
      return e.asBoolean() ? Expressions.alwaysTrue() : Expressions.alwaysFalse();
    }
    String op = required(e, "type").asText();
    switch (op) {
      case "and":
        return Expressions.and(expression(required(e, "left"), struct), expression(required(e, "right"), struct));
      case "or":
        return Expressions.or(expression(required(e, "left"), struct), expression(required(e, "right"), struct));
      case "not":
        return Expressions.not(expression(required(e, "child"), struct));
      default:
        break;
    }
    String term = required(e, "term").asText();
    Types.NestedField field = struct.field(term);
    if (field == null) {
      throw new IllegalArgumentException("Cannot find field '" + term + "'");
    }
    Type type = field.type();
    switch (op) {
      case "is-null":
        return Expressions.isNull(term);
      case "not-null":
        return Expressions.notNull(term);
      case "is-nan":
        return Expressions.isNaN(term);
      case "not-nan":
        return Expressions.notNaN(term);
      case "in":
      case "not-in":
        List<Object> values = new ArrayList<>();
        for (JsonNode v : required(e, "values")) {
          values.add(literal(type, v));
        }
        return "in".equals(op) ? Expressions.in(term, values) : Expressions.notIn(term, values);
      default:
        break;
    }
    Object value = literal(type, required(e, "value"));
    switch (op) {
      case "lt":
        return Expressions.lessThan(term, value);
      case "lt-eq":
        return Expressions.lessThanOrEqual(term, value);
      case "gt":
        return Expressions.greaterThan(term, value);
      case "gt-eq":
        return Expressions.greaterThanOrEqual(term, value);
      case "eq":
        return Expressions.equal(term, value);
      case "not-eq":
        return Expressions.notEqual(term, value);
      case "starts-with":
        return Expressions.startsWith(term, (String) value);
      case "not-starts-with":
        return Expressions.notStartsWith(term, (String) value);
      default:
        throw new IllegalArgumentException("Unknown predicate type: " + op);
    }
  }

  /**
   * A literal as the expression API takes it (strings as String, not CharSequence). A nanosecond
   * timestamp is handed over as its ISO string: the API reads a long literal of a timestamp_ns
   * column as microseconds (Literals.LongLiteral), while it parses the string at nanoseconds.
   */
  Object literal(Type type, JsonNode node) {
    if (node == null || node.isNull()) {
      throw new IllegalArgumentException("A literal is never null");
    }
    if (type.typeId() == Type.TypeID.TIMESTAMP_NANO && node.isTextual()) {
      decode.apply(type, node); // the same checks as any other literal
      return node.asText();
    }
    Object value = decode.apply(type, node);
    return value instanceof CharSequence ? value.toString() : value;
  }

  PartitionSpec spec(Schema schema, JsonNode fields) {
    ObjectNode json = nodes.objectNode();
    json.put("spec-id", 0);
    ArrayNode out = json.putArray("fields");
    int id = 1000;
    for (JsonNode f : fields) {
      ObjectNode field = out.addObject();
      field.put("name", required(f, "name").asText());
      field.put("transform", required(f, "transform").asText());
      field.put("source-id", schema.findField(required(f, "source").asText()).fieldId());
      field.put("field-id", id++);
    }
    return PartitionSpecParser.fromJson(schema, json);
  }

  static Schema identitySchema(JsonNode fields) {
    ObjectNode struct = JsonNodeFactory.instance.objectNode();
    struct.put("type", "struct");
    ArrayNode out = struct.putArray("fields");
    int id = 1;
    for (JsonNode f : fields) {
      ObjectNode field = out.addObject();
      field.put("id", id++);
      field.put("name", required(f, "name").asText());
      field.put("required", false);
      field.set("type", required(f, "type"));
    }
    return SchemaParser.fromJson(struct.toString());
  }

  static PartitionSpec identitySpec(Schema schema) {
    PartitionSpec.Builder builder = PartitionSpec.builderFor(schema);
    for (Types.NestedField f : schema.columns()) {
      builder.identity(f.name());
    }
    return builder.build();
  }

  StructLike row(Types.StructType struct, JsonNode row) {
    List<Types.NestedField> fields = struct.fields();
    Object[] values = new Object[fields.size()];
    for (int i = 0; i < values.length; i++) {
      JsonNode v = row.get(fields.get(i).name());
      values[i] = v == null || v.isNull() ? null : decode.apply(fields.get(i).type(), v);
    }
    return new Row(values);
  }

  static int position(Types.StructType struct, int fieldId) {
    for (int i = 0; i < struct.fields().size(); i++) {
      if (struct.fields().get(i).fieldId() == fieldId) {
        return i;
      }
    }
    throw new IllegalArgumentException("No field " + fieldId);
  }

  /** A metric no column carries is absent from the file (a null map), as a manifest reads it. */
  static <V> Map<Integer, V> orNull(Map<Integer, V> map) {
    return map.isEmpty() ? null : map;
  }

  static void putLong(Map<Integer, Long> map, int id, JsonNode v) {
    if (v != null && !v.isNull()) {
      map.put(id, v.asLong());
    }
  }

  static void putBytes(Map<Integer, ByteBuffer> map, int id, JsonNode v) {
    ByteBuffer b = bytes(v);
    if (b != null) {
      map.put(id, b);
    }
  }

  static ByteBuffer bytes(JsonNode v) {
    if (v == null || v.isNull()) {
      return null;
    }
    String text = v.asText();
    byte[] data = new byte[text.length() / 2];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) Integer.parseInt(text.substring(2 * i, 2 * i + 2), 16);
    }
    return ByteBuffer.wrap(data);
  }

  static JsonNode hex(ByteBuffer b) {
    if (b == null) {
      return NullNode.getInstance();
    }
    ByteBuffer copy = b.duplicate();
    byte[] data = new byte[copy.remaining()];
    copy.get(data);
    StringBuilder text = new StringBuilder();
    for (byte x : data) {
      text.append(String.format("%02x", x & 0xff));
    }
    return JsonNodeFactory.instance.textNode(text.toString());
  }

  static JsonNode required(JsonNode c, String field) {
    JsonNode v = c.get(field);
    if (v == null) {
      throw new IllegalArgumentException("Missing field \"" + field + "\"");
    }
    return v;
  }

  /** A row of internal values, by position. */
  static final class Row implements StructLike {
    private final Object[] values;

    Row(Object[] values) {
      this.values = values;
    }

    @Override
    public int size() {
      return values.length;
    }

    @Override
    public <T> T get(int pos, Class<T> javaClass) {
      return javaClass.cast(values[pos]);
    }

    @Override
    public <T> void set(int pos, T value) {
      values[pos] = value;
    }
  }
}
