/*
 * Plans which delete files apply to which data files, for the "plan-deletes" op.
 *
 * The answer is DeleteFileIndex's: the index is built from DeleteFile objects
 * (DeleteFileIndex.builderFor(Iterable<DeleteFile>) with the case's specs) and each data
 * file is looked up with forDataFile(seq, file), as a scan does for each data manifest entry.
 * DeleteFileIndex and its builder are package-private, hence this class lives in package
 * org.apache.iceberg (the Iceberg jar is not sealed). Nothing here decides scoping itself:
 * this class only turns the case's JSON into Iceberg's file objects.
 *
 * Input: {"specs": [partition spec JSON], "data-files": [...], "delete-files": [...]}, each file
 * {"file_path", "content", "spec_id", "partition": [values in spec field order],
 *  "sequence_number" (data sequence number), "file_format"?, "referenced_data_file"?,
 *  "file_path_lower"?, "file_path_upper"?}.
 * Output: {data file path: sorted paths of the delete files that apply}.
 */
package org.apache.iceberg;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.BiFunction;

import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.JsonNode;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.DoubleNode;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.FloatNode;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

public final class DeletePlanner {
  private DeletePlanner() {}

  /**
   * The table schema the specs are bound to: the vectors' specs use source 1 (bucket[4]) and
   * source 3 (identity on a double, whose NaN travels as 16 hex digits). Equality deletes name
   * field 2 as their equality field.
   */
  static final Schema SCHEMA =
      new Schema(
          Types.NestedField.optional(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "data", Types.StringType.get()),
          Types.NestedField.optional(3, "f", Types.DoubleType.get()),
          Types.NestedField.optional(4, "i", Types.IntegerType.get()),
          Types.NestedField.optional(5, "x", Types.FloatType.get()));

  static final int EQUALITY_FIELD_ID = 2;
  static final int FILE_PATH_ID = MetadataColumns.DELETE_FILE_PATH.fieldId();

  /**
   * decode turns a vector value ({"ieee754": hex} for non-finite floats) of the given type into
   * the Java value Iceberg uses for it.
   */
  public static ObjectNode plan(JsonNode c, BiFunction<Type, JsonNode, Object> decode) {
    Map<Integer, PartitionSpec> specsById = new HashMap<>();
    for (JsonNode specJson : required(c, "specs")) {
      PartitionSpec spec = PartitionSpecParser.fromJson(SCHEMA, specJson);
      specsById.put(spec.specId(), spec);
    }

    List<DeleteFile> deletes = new ArrayList<>();
    for (JsonNode f : required(c, "delete-files")) {
      deletes.add(deleteFile(f, specsById, decode));
    }

    Map<String, Long> seqByPath = new LinkedHashMap<>();
    List<DataFile> dataFiles = new ArrayList<>();
    for (JsonNode f : required(c, "data-files")) {
      DataFile file = dataFile(f, specsById, decode);
      dataFiles.add(file);
      seqByPath.put(file.location(), file.dataSequenceNumber());
    }

    DeleteFileIndex index = DeleteFileIndex.builderFor(deletes).specsById(specsById).build();

    ObjectNode out = JsonNodeFactory.instance.objectNode();
    for (DataFile file : dataFiles) {
      // As a scan does per data manifest entry: forEntry(entry) is
      // forDataFile(entry.dataSequenceNumber(), entry.file()).
      DeleteFile[] applied = index.forDataFile(file.dataSequenceNumber(), file);
      TreeSet<String> paths = new TreeSet<>();
      for (DeleteFile d : applied) {
        paths.add(d.location());
      }
      ArrayNode list = out.putArray(file.location());
      paths.forEach(list::add);
    }
    return out;
  }

  static DataFile dataFile(
      JsonNode f, Map<Integer, PartitionSpec> specsById, BiFunction<Type, JsonNode, Object> decode) {
    String path = required(f, "file_path").asText();
    int content = f.path("content").asInt(0);
    if (content != FileContent.DATA.id()) {
      throw new IllegalArgumentException(
          "A data file must have content 0 (data), " + path + " has " + f.get("content"));
    }
    PartitionSpec spec = spec(f, specsById);
    DataFile file =
        DataFiles.builder(spec)
            .withPath(path)
            .withFormat(FileFormat.PARQUET)
            .withFileSizeInBytes(1L)
            .withRecordCount(1L)
            .withPartition(partition(f, spec, decode))
            .build();
    // The data sequence number as the manifest reader sets it (after inheritance).
    ((BaseFile<?>) file).setDataSequenceNumber(sequenceNumber(f));
    return file;
  }

  static DeleteFile deleteFile(
      JsonNode f, Map<Integer, PartitionSpec> specsById, BiFunction<Type, JsonNode, Object> decode) {
    String path = required(f, "file_path").asText();
    int content = required(f, "content").asInt(-1);
    PartitionSpec spec = spec(f, specsById);
    FileMetadata.Builder builder =
        FileMetadata.deleteFileBuilder(spec)
            .withPath(path)
            .withFileSizeInBytes(1L)
            .withPartition(partition(f, spec, decode));
    if (content == FileContent.POSITION_DELETES.id()) {
      builder.ofPositionDeletes();
    } else if (content == FileContent.EQUALITY_DELETES.id()) {
      builder.ofEqualityDeletes(EQUALITY_FIELD_ID);
    } else {
      throw new IllegalArgumentException(
          "A delete file must have content 1 or 2, " + path + " has " + f.get("content"));
    }

    String format = f.path("file_format").asText("parquet");
    builder.withFormat(FileFormat.fromString(format));
    if (f.hasNonNull("referenced_data_file")) {
      Compat.withReferencedDataFile(builder, f.get("referenced_data_file").asText());
    }
    if ("puffin".equalsIgnoreCase(format)) {
      // A DV's blob location; the planner does not read it.
      Compat.withDvBlob(builder, 4L, 1L);
    }

    // file_path column bounds (field 2147483546), as a position delete writer records them.
    Map<Integer, ByteBuffer> lowers = new HashMap<>();
    Map<Integer, ByteBuffer> uppers = new HashMap<>();
    if (f.hasNonNull("file_path_lower")) {
      lowers.put(FILE_PATH_ID, pathBound(f.get("file_path_lower").asText()));
    }
    if (f.hasNonNull("file_path_upper")) {
      uppers.put(FILE_PATH_ID, pathBound(f.get("file_path_upper").asText()));
    }
    if (!lowers.isEmpty() || !uppers.isEmpty()) {
      builder.withMetrics(new Metrics(1L, null, null, null, null, lowers, uppers));
    } else {
      builder.withRecordCount(1L);
    }

    DeleteFile file = builder.build();
    ((BaseFile<?>) file).setDataSequenceNumber(sequenceNumber(f));
    return file;
  }

  private static ByteBuffer pathBound(String path) {
    return Conversions.toByteBuffer(MetadataColumns.DELETE_FILE_PATH.type(), path);
  }

  private static PartitionSpec spec(JsonNode f, Map<Integer, PartitionSpec> specsById) {
    int specId = f.path("spec_id").asInt(0);
    PartitionSpec spec = specsById.get(specId);
    if (spec == null) {
      throw new IllegalArgumentException(
          "No partition spec with id " + specId + " for " + f.path("file_path").asText());
    }
    return spec;
  }

  private static Long sequenceNumber(JsonNode f) {
    JsonNode seq = required(f, "sequence_number");
    if (!seq.isIntegralNumber()) {
      throw new IllegalArgumentException("sequence_number must be an integer: " + seq);
    }
    return seq.longValue();
  }

  /** The partition tuple in the spec's partition type, values decoded by their result types. */
  private static PartitionData partition(
      JsonNode f, PartitionSpec spec, BiFunction<Type, JsonNode, Object> decode) {
    Types.StructType type = spec.partitionType();
    JsonNode values = f.path("partition");
    if (!values.isArray()) {
      throw new IllegalArgumentException("partition must be a list of values: " + values);
    }
    if (values.size() != type.fields().size()) {
      throw new IllegalArgumentException(
          "Spec " + spec.specId() + " has " + type.fields().size() + " partition fields, "
              + f.path("file_path").asText() + " gives " + values.size() + " values");
    }
    PartitionData data = new PartitionData(type);
    for (int i = 0; i < values.size(); i++) {
      Type fieldType = type.fields().get(i).type();
      data.set(i, decode.apply(fieldType, asFloatingPoint(fieldType, values.get(i))));
    }
    return data;
  }

  /**
   * A whole JSON number (the vectors write 0 for 0.0) read as the float or double it stands for:
   * SingleValueParser only takes floating-point JSON numbers for float and double.
   */
  private static JsonNode asFloatingPoint(Type type, JsonNode node) {
    if (node != null && node.isIntegralNumber()) {
      if (type.typeId() == Type.TypeID.DOUBLE) {
        return DoubleNode.valueOf(node.doubleValue());
      } else if (type.typeId() == Type.TypeID.FLOAT) {
        return FloatNode.valueOf(node.floatValue());
      }
    }
    return node;
  }

  private static JsonNode required(JsonNode c, String field) {
    JsonNode node = c.get(field);
    if (node == null) {
      throw new IllegalArgumentException("Missing field \"" + field + "\"");
    }
    return node;
  }
}
