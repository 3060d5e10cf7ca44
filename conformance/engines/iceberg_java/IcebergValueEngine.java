/*
 * Iceberg Java value engine for the conformance suite.
 *
 * Computes Iceberg value rules (bucket hashing, partition transforms, single
 * value binary serialization, single value JSON serialization), reads table
 * and view metadata documents and snapshots' manifest trees (the latter through
 * org/apache/iceberg/ManifestTreeReader.java), plans delete files against data files with
 * DeleteFileIndex (org/apache/iceberg/DeletePlanner.java), with Iceberg's own Java classes, and answers a
 * line-delimited JSON protocol on stdin/stdout. See README.md next to this
 * file for the protocol.
 *
 * All JSON I/O goes through Iceberg's JsonUtil.mapper(), i.e. through the
 * Jackson classes under Iceberg's shading prefix, so this program also proves
 * that the relocated Jackson jar works with Iceberg.
 */

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;

import org.apache.iceberg.DeletePlanner;
import org.apache.iceberg.ContentFileOps;
import org.apache.iceberg.PlanningOps;
import org.apache.iceberg.HistoryEntry;
import org.apache.iceberg.IcebergBuild;
import org.apache.iceberg.Compat;
import org.apache.iceberg.ManifestTreeReader;
import org.apache.iceberg.NullOrder;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.SingleValueParser;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.SortDirection;
import org.apache.iceberg.SortField;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.shaded.com.fasterxml.jackson.core.JsonGenerator;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.JsonNode;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.DoubleNode;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.FloatNode;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.NullNode;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.util.RawValue;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.util.TokenBuffer;
import org.apache.iceberg.transforms.Transform;
import org.apache.iceberg.transforms.Transforms;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.BucketUtil;
import org.apache.iceberg.util.SerializableFunction;
import org.apache.iceberg.view.SQLViewRepresentation;
import org.apache.iceberg.view.ViewHistoryEntry;
import org.apache.iceberg.view.ViewMetadata;
import org.apache.iceberg.view.ViewMetadataParser;
import org.apache.iceberg.view.ViewRepresentation;
import org.apache.iceberg.view.ViewVersion;

public final class IcebergValueEngine {
  static final int PROTOCOL = 1;
  static final String ENGINE = "iceberg-java";
  static final String[] CAPABILITIES = {
    "parse-type", "parse-transform", "result-type", "hash", "transform",
    "to-binary", "from-binary", "to-json", "from-json",
    "read-table-metadata", "read-view-metadata", "read-manifest-tree", "plan-deletes",
    // the planning ops: org/apache/iceberg/PlanningOps.java
    "evaluate-predicate", "project-predicate", "evaluate-metrics", "evaluate-manifest", "partition-summaries",
    "partition-tuple", "column-metrics",
    // the content-file JSON ops: org/apache/iceberg/ContentFileOps.java
    "parse-content-file", "write-content-file", "parse-file-scan-task"
  };
  // The parsers take the location the document was read from; it only ends up
  // in metadataFileLocation(), which the normalized reading does not include.
  static final String TABLE_METADATA_LOCATION = "memory://metadata/v1.metadata.json";
  static final String VIEW_METADATA_LOCATION = "memory://metadata/v1.view.metadata.json";
  static final java.util.regex.Pattern TRANSFORM_TEXT =
      java.util.regex.Pattern.compile("([a-z_]+)(?:\\[(\\d+)\\])?");

  private final ObjectMapper mapper = org.apache.iceberg.util.JsonUtil.mapper();
  private final JsonNodeFactory nodes = JsonNodeFactory.instance;

  // Iceberg keeps its type-JSON parser private; SchemaParser.fromJson would
  // need a wrapping schema, so the parser itself is used via reflection.
  private final Method typeFromJson;
  private final Method typeToJson;
  // Bucket.hash(Object) is protected: it is the exact hash the bucket
  // transform applies (including the nanos-to-micros step for timestamp_ns).
  private final Method bucketHash;

  private final Map<String, Type> typeCache = new HashMap<>();
  private final Map<Type, Object> bucketCache = new HashMap<>();
  private final Map<String, Transform<Object, Object>> transformCache = new HashMap<>();
  private final Map<String, SerializableFunction<Object, Object>> boundCache = new HashMap<>();

  IcebergValueEngine() throws ReflectiveOperationException {
    typeFromJson = SchemaParser.class.getDeclaredMethod("typeFromJson", JsonNode.class);
    typeFromJson.setAccessible(true);
    typeToJson = SchemaParser.class.getDeclaredMethod("toJson", Type.class, JsonGenerator.class);
    typeToJson.setAccessible(true);
    Class<?> bucket = Class.forName("org.apache.iceberg.transforms.Bucket");
    bucketHash = bucket.getDeclaredMethod("hash", Object.class);
    bucketHash.setAccessible(true);
  }

  public static void main(String[] args) throws Exception {
    IcebergValueEngine engine = new IcebergValueEngine();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8), 1 << 16);
    Writer out =
        new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode response;
      boolean stop = false;
      try {
        JsonNode request = engine.mapper.readTree(line);
        String cmd = request.path("cmd").asText("");
        switch (cmd) {
          case "start":
            response = engine.start(request);
            break;
          case "run":
            response = engine.run(request);
            break;
          case "stop":
            response = null;
            stop = true;
            break;
          default:
            throw new IllegalArgumentException("Unknown command: " + request.path("cmd"));
        }
      } catch (Throwable t) {
        ObjectNode err = engine.nodes.objectNode();
        err.put("ok", false);
        err.put("error", describe(t));
        response = err;
      }
      if (stop) {
        break;
      }
      out.write(engine.mapper.writeValueAsString(response));
      out.write('\n');
      out.flush();
    }
    out.flush();
    System.exit(0);
  }

  // ---------------------------------------------------------------- commands

  JsonNode start(JsonNode request) {
    JsonNode protocol = request.get("protocol");
    if (protocol != null && protocol.asInt(-1) != PROTOCOL) {
      throw new IllegalArgumentException(
          "Unsupported protocol " + protocol + ", this engine speaks " + PROTOCOL);
    }
    ObjectNode response = nodes.objectNode();
    response.put("engine", ENGINE);
    response.put("version", IcebergBuild.version());
    response.put("protocol", PROTOCOL);
    ArrayNode caps = response.putArray("capabilities");
    for (String cap : CAPABILITIES) {
      caps.add(cap);
    }
    return response;
  }

  JsonNode run(JsonNode request) {
    JsonNode cases = request.get("cases");
    if (cases == null || !cases.isArray()) {
      throw new IllegalArgumentException("run needs a \"cases\" array");
    }
    ObjectNode response = nodes.objectNode();
    ArrayNode results = response.putArray("results");
    for (JsonNode c : cases) {
      results.add(runCase(c));
    }
    return response;
  }

  ObjectNode runCase(JsonNode c) {
    ObjectNode result = nodes.objectNode();
    JsonNode id = c == null ? null : c.get("id");
    result.set("id", id == null ? NullNode.getInstance() : id);
    try {
      if (c == null || !c.isObject()) {
        throw new IllegalArgumentException("A case must be a JSON object");
      }
      String op = required(c, "op").asText();
      JsonNode output;
      switch (op) {
        case "parse-transform":
          output = parseTransform(required(c, "transform").asText());
          break;
        case "read-table-metadata":
          output = readTableMetadata(required(c, "document"));
          break;
        case "read-view-metadata":
          output = readViewMetadata(required(c, "document"));
          break;
        case "read-manifest-tree":
          output = readManifestTree(c);
          break;
        case "plan-deletes":
          // DeleteFileIndex (package-private) through org/apache/iceberg/DeletePlanner.java.
          output = DeletePlanner.plan(c, this::value);
          break;
        case "evaluate-predicate":
        case "project-predicate":
        case "evaluate-metrics":
        case "evaluate-manifest":
        case "partition-summaries":
        case "partition-tuple":
        case "column-metrics":
          // Evaluator, Projections, the metrics and manifest evaluators, PartitionSummary,
          // PartitionKey, the Parquet appender's metrics.
          output = new PlanningOps(this::value, this::encode).run(op, c);
          break;
        case "parse-content-file":
        case "write-content-file":
        case "parse-file-scan-task":
          // ContentFileParser, FileScanTaskParser
          output = new ContentFileOps(this::value, this::encode).run(op, c);
          break;
        default:
          output = runTypedCase(op, c);
      }
      result.put("ok", true);
      result.set("output", output);
    } catch (Throwable t) {
      result.remove("output");
      result.put("ok", false);
      result.put("error", describe(t));
      if (t instanceof PlanningOps.Rejection) {
        result.put("rule", ((PlanningOps.Rejection) t).rule);
      }
    }
    return result;
  }

  /** The value ops: every one of them names a type. */
  JsonNode runTypedCase(String op, JsonNode c) throws Throwable {
    JsonNode output;
    Type type = type(required(c, "type"));
    switch (op) {
      case "parse-type":
        output = typeJson(type);
        break;
      case "result-type":
        output = resultType(type, required(c, "transform").asText());
        break;
      case "hash":
        output = hash(type, value(type, required(c, "value")));
        break;
      case "transform":
        output = transform(type, required(c, "transform").asText(), value(type, required(c, "value")));
        break;
      case "to-binary":
        output = toBinary(type, value(type, required(c, "value")));
        break;
      case "from-binary":
        output = fromBinary(type, required(c, "hex"));
        break;
      case "to-json":
        output = toJson(type, value(type, required(c, "value")));
        break;
      case "from-json":
        output = encode(type, SingleValueParser.fromJson(type, required(c, "json")));
        break;
      default:
        throw new IllegalArgumentException("Unknown op: " + op);
    }
    return output;
  }

  // --------------------------------------------------------------------- ops

  JsonNode hash(Type type, Object value) throws Throwable {
    if (value == null) {
      return NullNode.getInstance();
    }
    switch (type.typeId()) {
      case FLOAT:
        // The bucket transform rejects float; BucketUtil still offers a hash.
        return nodes.numberNode(BucketUtil.hash((float) (Float) value));
      case DOUBLE:
        return nodes.numberNode(BucketUtil.hash((double) (Double) value));
      default:
        Object bucket = bucketCache.get(type);
        if (bucket == null) {
          // Bucket.bind(type) returns the type-specific Bucket subclass (and
          // throws "Cannot bucket by type" for unsupported types).
          bucket = Transforms.bucket(Integer.MAX_VALUE).bind(type);
          bucketCache.put(type, bucket);
        }
        try {
          return nodes.numberNode((int) (Integer) bucketHash.invoke(bucket, value));
        } catch (InvocationTargetException e) {
          throw e.getCause();
        }
    }
  }

  @SuppressWarnings("unchecked")
  JsonNode transform(Type type, String spec, Object value) throws Exception {
    String key = type + "\u0000" + spec;
    Transform<Object, Object> transform = transformCache.get(key);
    if (transform == null) {
      // Transforms.fromString(Type, String) is deprecated in 1.10; the unbound
      // transform is parsed and then bound to the source type.
      transform = (Transform<Object, Object>) Transforms.fromString(spec);
      transformCache.put(key, transform);
    }
    SerializableFunction<Object, Object> bound = boundCache.get(key);
    if (bound == null) {
      bound = transform.bind(type);
      boundCache.put(key, bound);
    }
    Type resultType = transform.getResultType(type);
    return encode(resultType, bound.apply(value));
  }

  /** The result type of a transform on a source type; binding fails for a source it does not accept. */
  @SuppressWarnings("unchecked")
  JsonNode resultType(Type type, String spec) throws Exception {
    Transform<Object, Object> transform = (Transform<Object, Object>) Transforms.fromString(spec);
    if (!transform.canTransform(type)) {
      throw new IllegalArgumentException("Cannot apply " + spec + " to " + type);
    }
    return typeJson(transform.getResultType(type));
  }

  /** {"transform": canonical text, "name": name or null when unknown, "param": N/W or null}. */
  JsonNode parseTransform(String spec) {
    Transform<?, ?> transform = Transforms.fromString(spec);
    ObjectNode out = nodes.objectNode();
    String text = transform.toString();
    out.put("transform", text);
    java.util.regex.Matcher m = TRANSFORM_TEXT.matcher(text);
    boolean known = !transform.getClass().getSimpleName().equals("UnknownTransform") && m.matches();
    if (known) {
      out.put("name", m.group(1));
      if (m.group(2) != null) {
        out.put("param", Integer.parseInt(m.group(2)));
      } else {
        out.putNull("param");
      }
    } else {
      out.putNull("name");
      out.putNull("param");
    }
    return out;
  }

  JsonNode toBinary(Type type, Object value) {
    ByteBuffer buffer = Conversions.toByteBuffer(type, value);
    if (buffer == null) {
      return NullNode.getInstance();
    }
    ByteBuffer view = buffer.duplicate();
    byte[] bytes = new byte[view.remaining()];
    view.get(bytes);
    return nodes.textNode(toHex(bytes));
  }

  JsonNode fromBinary(Type type, JsonNode hexNode) throws Exception {
    if (hexNode.isNull()) {
      return NullNode.getInstance();
    }
    if (!hexNode.isTextual()) {
      throw new IllegalArgumentException("\"hex\" must be a string: " + hexNode);
    }
    Object value = Conversions.fromByteBuffer(type, ByteBuffer.wrap(fromHex(hexNode.textValue())));
    return encode(type, value);
  }

  JsonNode toJson(Type type, Object value) {
    // Return exactly the text Iceberg writes (not a re-parsed copy of it).
    ObjectNode holder = nodes.objectNode();
    holder.putRawValue("v", new RawValue(SingleValueParser.toJson(type, value)));
    return holder.get("v");
  }

  // ---------------------------------------------------------------- metadata

  /**
   * Reads a table metadata document with TableMetadataParser and writes the
   * normalized reading of vectors/README.md from the TableMetadata getters.
   */
  JsonNode readTableMetadata(JsonNode document) throws Exception {
    TableMetadata metadata = TableMetadataParser.fromJson(TABLE_METADATA_LOCATION, document);
    ObjectNode out = nodes.objectNode();
    out.put("format-version", metadata.formatVersion());
    out.put("table-uuid", metadata.uuid());
    out.put("location", metadata.location());
    out.put("last-sequence-number", metadata.lastSequenceNumber());
    out.put("last-updated-ms", metadata.lastUpdatedMillis());
    out.put("last-column-id", metadata.lastColumnId());
    out.put("current-schema-id", metadata.currentSchemaId());
    ArrayNode schemas = out.putArray("schemas");
    for (Schema schema : metadata.schemas()) {
      schemas.add(schemaJson(schema));
    }
    out.put("default-spec-id", metadata.defaultSpecId());
    ArrayNode specs = out.putArray("partition-specs");
    for (PartitionSpec spec : metadata.specs()) {
      specs.add(specJson(spec));
    }
    out.put("last-partition-id", metadata.lastAssignedPartitionId());
    out.put("default-sort-order-id", metadata.defaultSortOrderId());
    ArrayNode orders = out.putArray("sort-orders");
    for (SortOrder order : metadata.sortOrders()) {
      orders.add(sortOrderJson(order));
    }
    out.set("properties", stringMap(metadata.properties()));
    Snapshot current = metadata.currentSnapshot();
    if (current == null) {
      out.putNull("current-snapshot-id");
    } else {
      out.put("current-snapshot-id", current.snapshotId());
    }
    ArrayNode snapshots = out.putArray("snapshots");
    for (Snapshot snapshot : metadata.snapshots()) {
      snapshots.add(snapshotJson(snapshot));
    }
    ObjectNode refs = out.putObject("refs");
    for (Map.Entry<String, SnapshotRef> ref : metadata.refs().entrySet()) {
      refs.set(ref.getKey(), refJson(ref.getValue()));
    }
    ArrayNode snapshotLog = out.putArray("snapshot-log");
    for (HistoryEntry entry : metadata.snapshotLog()) {
      ObjectNode e = snapshotLog.addObject();
      e.put("snapshot-id", entry.snapshotId());
      e.put("timestamp-ms", entry.timestampMillis());
    }
    ArrayNode metadataLog = out.putArray("metadata-log");
    for (TableMetadata.MetadataLogEntry entry : metadata.previousFiles()) {
      ObjectNode e = metadataLog.addObject();
      e.put("metadata-file", entry.file());
      e.put("timestamp-ms", entry.timestampMillis());
    }
    // nextRowId() answers 0 for v1 and v2 tables; the normalized form has null there.
    if (metadata.formatVersion() >= 3) {
      out.put("next-row-id", Compat.optionalLong(metadata, "nextRowId"));
    } else {
      out.putNull("next-row-id");
    }
    return out;
  }

  /**
   * Reads one snapshot's manifest list and manifests from in-memory files
   * ({"files": {path: base64}, "metadata-location", "snapshot-id" or null}).
   */
  JsonNode readManifestTree(JsonNode c) throws Exception {
    JsonNode filesNode = required(c, "files");
    if (!filesNode.isObject()) {
      throw new IllegalArgumentException("\"files\" must be an object of path: base64");
    }
    Map<String, byte[]> files = new HashMap<>();
    Iterator<Map.Entry<String, JsonNode>> it = filesNode.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> file = it.next();
      if (!file.getValue().isTextual()) {
        throw new IllegalArgumentException("File " + file.getKey() + " must be base64 text");
      }
      files.put(file.getKey(), Base64.getDecoder().decode(file.getValue().textValue()));
    }
    JsonNode snapshot = c.path("snapshot-id");
    Long snapshotId = snapshot.isIntegralNumber() ? Long.valueOf(snapshot.longValue()) : null;
    if (snapshotId == null && !snapshot.isMissingNode() && !snapshot.isNull()) {
      throw new IllegalArgumentException("\"snapshot-id\" must be a long or null: " + snapshot);
    }
    return ManifestTreeReader.read(files, required(c, "metadata-location").asText(), snapshotId);
  }

  /** A schema as SchemaParser writes it, with identifier-field-ids always present. */
  JsonNode schemaJson(Schema schema) throws Exception {
    ObjectNode json = (ObjectNode) mapper.readTree(SchemaParser.toJson(schema));
    if (!json.has("identifier-field-ids")) {
      json.putArray("identifier-field-ids");
    }
    return json;
  }

  JsonNode specJson(PartitionSpec spec) {
    ObjectNode json = nodes.objectNode();
    json.put("spec-id", spec.specId());
    ArrayNode fields = json.putArray("fields");
    for (PartitionField field : spec.fields()) {
      ObjectNode f = fields.addObject();
      // Iceberg 1.10 keeps one source id per field.
      f.putArray("source-ids").add(field.sourceId());
      f.put("field-id", field.fieldId());
      f.put("name", field.name());
      f.put("transform", field.transform().toString());
    }
    return json;
  }

  JsonNode sortOrderJson(SortOrder order) {
    ObjectNode json = nodes.objectNode();
    json.put("order-id", order.orderId());
    ArrayNode fields = json.putArray("fields");
    for (SortField field : order.fields()) {
      ObjectNode f = fields.addObject();
      f.putArray("source-ids").add(field.sourceId());
      f.put("transform", field.transform().toString());
      f.put("direction", field.direction() == SortDirection.ASC ? "asc" : "desc");
      f.put("null-order", field.nullOrder() == NullOrder.NULLS_FIRST ? "nulls-first" : "nulls-last");
    }
    return json;
  }

  JsonNode snapshotJson(Snapshot snapshot) {
    ObjectNode json = nodes.objectNode();
    json.put("snapshot-id", snapshot.snapshotId());
    json.put("parent-snapshot-id", snapshot.parentId());
    json.put("sequence-number", snapshot.sequenceNumber());
    json.put("timestamp-ms", snapshot.timestampMillis());
    json.put("manifest-list", snapshot.manifestListLocation());
    // SnapshotParser keeps the operation out of summary(); put it back.
    Map<String, String> summary = snapshot.summary();
    if (summary == null && snapshot.operation() == null) {
      json.putNull("summary");
    } else {
      ObjectNode s = json.putObject("summary");
      if (snapshot.operation() != null) {
        s.put("operation", snapshot.operation());
      }
      if (summary != null) {
        for (Map.Entry<String, String> e : summary.entrySet()) {
          s.put(e.getKey(), e.getValue());
        }
      }
    }
    json.put("schema-id", snapshot.schemaId());
    json.put("first-row-id", Compat.optionalLong(snapshot, "firstRowId"));
    json.put("added-rows", Compat.optionalLong(snapshot, "addedRows"));
    json.put("key-id", Compat.optionalString(snapshot, "keyId"));
    return json;
  }

  JsonNode refJson(SnapshotRef ref) {
    ObjectNode json = nodes.objectNode();
    json.put("snapshot-id", ref.snapshotId());
    json.put("type", ref.isBranch() ? "branch" : "tag");
    json.put("min-snapshots-to-keep", ref.minSnapshotsToKeep());
    json.put("max-snapshot-age-ms", ref.maxSnapshotAgeMs());
    json.put("max-ref-age-ms", ref.maxRefAgeMs());
    return json;
  }

  ObjectNode stringMap(Map<String, String> map) {
    ObjectNode json = nodes.objectNode();
    if (map != null) {
      for (Map.Entry<String, String> e : map.entrySet()) {
        json.put(e.getKey(), e.getValue());
      }
    }
    return json;
  }

  /**
   * Reads a view metadata document with ViewMetadataParser and writes the
   * normalized view reading (conformance/engines/metadata_reading.md).
   */
  JsonNode readViewMetadata(JsonNode document) throws Exception {
    ViewMetadata metadata = ViewMetadataParser.fromJson(VIEW_METADATA_LOCATION, document);
    ObjectNode out = nodes.objectNode();
    out.put("format-version", metadata.formatVersion());
    out.put("view-uuid", metadata.uuid());
    out.put("location", metadata.location());
    out.put("current-version-id", metadata.currentVersionId());
    ArrayNode versions = out.putArray("versions");
    for (ViewVersion version : metadata.versions()) {
      ObjectNode v = versions.addObject();
      v.put("version-id", version.versionId());
      v.put("schema-id", version.schemaId());
      v.put("timestamp-ms", version.timestampMillis());
      v.set("summary", stringMap(version.summary()));
      ArrayNode representations = v.putArray("representations");
      for (ViewRepresentation representation : version.representations()) {
        ObjectNode r = representations.addObject();
        r.put("type", representation.type());
        if (representation instanceof SQLViewRepresentation) {
          SQLViewRepresentation sql = (SQLViewRepresentation) representation;
          r.put("sql", sql.sql());
          r.put("dialect", sql.dialect());
        }
      }
      ArrayNode namespace = v.putArray("default-namespace");
      for (String level : version.defaultNamespace().levels()) {
        namespace.add(level);
      }
      v.put("default-catalog", version.defaultCatalog());
    }
    ArrayNode versionLog = out.putArray("version-log");
    for (ViewHistoryEntry entry : metadata.history()) {
      ObjectNode e = versionLog.addObject();
      e.put("version-id", entry.versionId());
      e.put("timestamp-ms", entry.timestampMillis());
    }
    ArrayNode schemas = out.putArray("schemas");
    for (Schema schema : metadata.schemas()) {
      schemas.add(schemaJson(schema));
    }
    out.set("properties", stringMap(metadata.properties()));
    return out;
  }

  // ------------------------------------------------------- values and types

  /** Parses an Iceberg type from its JSON form (cached). */
  Type type(JsonNode node) throws Throwable {
    String key = node.toString();
    Type type = typeCache.get(key);
    if (type == null) {
      try {
        type = (Type) typeFromJson.invoke(null, node);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
      if (type == null) {
        throw new IllegalArgumentException("Cannot parse type: " + key);
      }
      typeCache.put(key, type);
    }
    return type;
  }

  /**
   * The JSON form of a type as Iceberg writes it in schemas (a string for
   * primitives; note Iceberg writes decimals as "decimal(P, S)" with a space).
   */
  JsonNode typeJson(Type type) throws Exception {
    TokenBuffer buffer = new TokenBuffer(mapper, false);
    typeToJson.invoke(null, type, buffer);
    return mapper.readTree(buffer.asParser());
  }

  /**
   * Decodes a vector value: Appendix D JSON plus {"ieee754": hex} floats, and the input form
   * {"decimal": text} of a decimal whose exponent differs from its type's scale, handed on as the
   * BigDecimal the text spells (unrescaled: how Iceberg brings it to the scale is what is judged).
   */
  Object value(Type type, JsonNode node) {
    if (type.typeId() == Type.TypeID.DECIMAL && node != null && node.isObject() && node.size() == 1
        && node.path("decimal").isTextual()) {
      return new java.math.BigDecimal(node.get("decimal").asText());
    }
    return SingleValueParser.fromJson(type, withExactFloats(type, node));
  }

  /** Encodes a value as a vector value (Appendix D JSON, non-finite floats as ieee754). */
  JsonNode encode(Type type, Object value) throws Exception {
    if (value == null) {
      return NullNode.getInstance();
    }
    if (value instanceof java.math.BigDecimal
        && type.typeId() == Type.TypeID.DECIMAL
        && ((java.math.BigDecimal) value).scale() != ((Types.DecimalType) type).scale()) {
      // A result Iceberg left at another scale (from an input given with its own exponent):
      // reported as the number it is, which SingleValueParser would refuse to write.
      return nodes.textNode(((java.math.BigDecimal) value).toPlainString());
    }
    // Write into a token buffer, not text: floats keep their exact Java value.
    TokenBuffer buffer = new TokenBuffer(mapper, false);
    SingleValueParser.toJson(type, value, buffer);
    JsonNode node = mapper.readTree(buffer.asParser());
    return nonFiniteAsBits(node);
  }

  /** Replaces {"ieee754": hex} objects at float/double positions by number nodes. */
  JsonNode withExactFloats(Type type, JsonNode node) {
    if (node == null || node.isNull()) {
      return node;
    }
    switch (type.typeId()) {
      case FLOAT:
        if (node.isObject()) {
          return FloatNode.valueOf(Float.intBitsToFloat((int) parseBits(node, 8)));
        }
        return node;
      case DOUBLE:
        if (node.isObject()) {
          return DoubleNode.valueOf(Double.longBitsToDouble(parseBits(node, 16)));
        }
        return node;
      case STRUCT:
        if (!node.isObject()) {
          return node;
        }
        ObjectNode struct = ((ObjectNode) node).deepCopy();
        for (Types.NestedField field : type.asStructType().fields()) {
          String key = String.valueOf(field.fieldId());
          if (struct.has(key)) {
            struct.set(key, withExactFloats(field.type(), struct.get(key)));
          }
        }
        return struct;
      case LIST:
        if (!node.isArray()) {
          return node;
        }
        ArrayNode list = nodes.arrayNode();
        for (JsonNode element : node) {
          list.add(withExactFloats(type.asListType().elementType(), element));
        }
        return list;
      case MAP:
        if (!node.isObject() || !node.path("keys").isArray() || !node.path("values").isArray()) {
          return node;
        }
        ObjectNode map = ((ObjectNode) node).deepCopy();
        ArrayNode keys = nodes.arrayNode();
        for (JsonNode k : node.get("keys")) {
          keys.add(withExactFloats(type.asMapType().keyType(), k));
        }
        ArrayNode values = nodes.arrayNode();
        for (JsonNode v : node.get("values")) {
          values.add(withExactFloats(type.asMapType().valueType(), v));
        }
        map.set("keys", keys);
        map.set("values", values);
        return map;
      default:
        return node;
    }
  }

  static long parseBits(JsonNode node, int digits) {
    JsonNode hex = node.get("ieee754");
    if (node.size() != 1 || hex == null || !hex.isTextual()) {
      throw new IllegalArgumentException("Expected {\"ieee754\": \"<hex>\"}, got: " + node);
    }
    String text = hex.textValue();
    if (text.length() != digits || !text.matches("[0-9a-fA-F]+")) {
      throw new IllegalArgumentException(
          "ieee754 bits must be " + digits + " hex digits for this type, got: " + text);
    }
    return Long.parseUnsignedLong(text, 16);
  }

  JsonNode nonFiniteAsBits(JsonNode node) {
    if (node instanceof FloatNode) {
      float f = node.floatValue();
      if (Float.isNaN(f) || Float.isInfinite(f)) {
        return bitsNode(String.format("%08x", Float.floatToRawIntBits(f)));
      }
    } else if (node instanceof DoubleNode) {
      double d = node.doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        return bitsNode(String.format("%016x", Double.doubleToRawLongBits(d)));
      }
    } else if (node instanceof ArrayNode) {
      ArrayNode array = (ArrayNode) node;
      for (int i = 0; i < array.size(); i++) {
        array.set(i, nonFiniteAsBits(array.get(i)));
      }
    } else if (node instanceof ObjectNode) {
      ObjectNode object = (ObjectNode) node;
      Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> entry = fields.next();
        entry.setValue(nonFiniteAsBits(entry.getValue()));
      }
    }
    return node;
  }

  ObjectNode bitsNode(String hex) {
    ObjectNode bits = nodes.objectNode();
    bits.put("ieee754", hex);
    return bits;
  }

  // ----------------------------------------------------------------- helpers

  static JsonNode required(JsonNode c, String field) {
    JsonNode node = c.get(field);
    if (node == null) {
      throw new IllegalArgumentException("Case is missing field \"" + field + "\"");
    }
    return node;
  }

  static String describe(Throwable t) {
    while (t instanceof InvocationTargetException && t.getCause() != null) {
      t = t.getCause();
    }
    return t.getClass().getName() + ": " + t.getMessage();
  }

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  static String toHex(byte[] bytes) {
    char[] chars = new char[bytes.length * 2];
    for (int i = 0; i < bytes.length; i++) {
      chars[2 * i] = HEX[(bytes[i] >> 4) & 0xf];
      chars[2 * i + 1] = HEX[bytes[i] & 0xf];
    }
    return new String(chars);
  }

  static byte[] fromHex(String hex) {
    if (hex.length() % 2 != 0) {
      throw new IllegalArgumentException("Hex string has odd length: " + hex);
    }
    byte[] bytes = new byte[hex.length() / 2];
    for (int i = 0; i < bytes.length; i++) {
      int hi = Character.digit(hex.charAt(2 * i), 16);
      int lo = Character.digit(hex.charAt(2 * i + 1), 16);
      if (hi < 0 || lo < 0) {
        throw new IllegalArgumentException("Not a hex string: " + hex);
      }
      bytes[i] = (byte) ((hi << 4) | lo);
    }
    return bytes;
  }
}
