package org.apache.iceberg;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.parquet.ParquetValueWriter;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.JsonNode;
import org.apache.iceberg.shaded.org.apache.parquet.schema.MessageType;
import org.apache.iceberg.types.Type;

/**
 * The calls whose signature differs between the Iceberg releases of the matrix (1.7 to 1.12),
 * made by reflection so that one source compiles against each. A method a release does not have
 * answers null where the protocol's output has a null for it (v3 row lineage before 1.8), and
 * throws UnsupportedOperationException naming the API where there is no answer without it.
 */
public final class Compat {
  private Compat() {}

  /** The value of a no-argument method, or null when this release has no such method. */
  public static Object optional(Object target, String method) {
    try {
      return target.getClass().getMethod(method).invoke(target);
    } catch (NoSuchMethodException e) {
      return null;
    } catch (IllegalAccessException e) {
      return null;
    } catch (InvocationTargetException e) {
      throw rethrow(e);
    }
  }

  /** A long-valued no-argument method (row lineage: nextRowId, firstRowId, addedRows), or null. */
  public static Long optionalLong(Object target, String method) {
    Object value = optional(target, method);
    return value == null ? null : ((Number) value).longValue();
  }

  /** A snapshot's encryption key id (1.10+), or null. */
  public static String optionalString(Object target, String method) {
    Object value = optional(target, method);
    return value == null ? null : value.toString();
  }

  /** ContentFileParser.fromJson: by the specs map (1.10+), else by the file's own spec. */
  static ContentFile<?> contentFileFromJson(JsonNode json, Map<Integer, PartitionSpec> specs) throws Exception {
    try {
      Method byMap = ContentFileParser.class.getDeclaredMethod("fromJson", JsonNode.class, Map.class);
      byMap.setAccessible(true);
      return (ContentFile<?>) invoke(byMap, null, json, specs);
    } catch (NoSuchMethodException e) {
      Method bySpec = ContentFileParser.class.getDeclaredMethod("fromJson", JsonNode.class, PartitionSpec.class);
      bySpec.setAccessible(true);
      JsonNode specId = json.get("spec-id");
      PartitionSpec spec = specId == null ? null : specs.get(specId.asInt());
      return (ContentFile<?>) invoke(bySpec, null, json, spec);
    }
  }

  /** A manifest-list entry of one data manifest with the given partition summaries. */
  static ManifestFile dataManifest(int specId, List<ManifestFile.PartitionFieldSummary> summaries) {
    for (Constructor<?> c : GenericManifestFile.class.getDeclaredConstructors()) {
      Class<?>[] p = c.getParameterTypes();
      c.setAccessible(true);
      if (p.length == 16 && p[7] == List.class) { // 1.10+: summaries before the counts, first_row_id last
        return (ManifestFile) construct(c, "file:/m.avro", 1L, specId, ManifestContent.DATA, 1L, 1L, 1L,
            summaries, null, 1, 1L, 0, 0L, 0, 0L, null);
      }
      if (p.length == 15 && p[13] == List.class) { // 1.7 to 1.9: counts, then summaries and key metadata
        return (ManifestFile) construct(c, "file:/m.avro", 1L, specId, ManifestContent.DATA, 1L, 1L, 1L,
            1, 1L, 0, 0L, 0, 0L, summaries, (ByteBuffer) null);
      }
    }
    throw new UnsupportedOperationException("no GenericManifestFile constructor of a known signature in this release");
  }

  /** An internal value (days, micros, ByteBuffer, ...) as a generic record's value. */
  public static Object internalToGeneric(Type type, Object internal) {
    Method m;
    try {
      m = Class.forName("org.apache.iceberg.data.GenericDataUtil").getMethod("internalToGeneric", Type.class, Object.class);
    } catch (ReflectiveOperationException e) { // before 1.8
      m = staticMethod("org.apache.iceberg.data.IdentityPartitionConverters", "convertConstant", Type.class, Object.class);
    }
    return call(m, type, internal);
  }

  /** A delete file's referenced_data_file (1.8+, with deletion vectors). */
  static void withReferencedDataFile(FileMetadata.Builder builder, String path) {
    try {
      builder.getClass().getMethod("withReferencedDataFile", CharSequence.class).invoke(builder, path);
    } catch (NoSuchMethodException e) {
      throw new UnsupportedOperationException("FileMetadata.Builder.withReferencedDataFile is not in this release");
    } catch (IllegalAccessException e) {
      throw new RuntimeException(e);
    } catch (InvocationTargetException e) {
      throw rethrow(e);
    }
  }

  /** A DV's blob location (1.8+); the planner does not read it. */
  static void withDvBlob(FileMetadata.Builder builder, long offset, long size) {
    try {
      builder.getClass().getMethod("withContentOffset", long.class).invoke(builder, offset);
      builder.getClass().getMethod("withContentSizeInBytes", long.class).invoke(builder, size);
    } catch (NoSuchMethodException e) {
      throw new UnsupportedOperationException("deletion vectors (FileMetadata.Builder.withContentOffset) are not in this release");
    } catch (IllegalAccessException e) {
      throw new RuntimeException(e);
    } catch (InvocationTargetException e) {
      throw rethrow(e);
    }
  }

  private static Method staticMethod(String className, String name, Class<?>... types) {
    try {
      return Class.forName(className).getMethod(name, types);
    } catch (ReflectiveOperationException e) {
      throw new UnsupportedOperationException(className + "." + name + " is not in this release");
    }
  }

  /** Iceberg's generic Parquet writer: `create(Schema, MessageType)` (1.9+), else `buildWriter(MessageType)`. */
  public static Parquet.WriteBuilder genericWriter(Parquet.WriteBuilder builder, Schema schema) {
    String writer = "org.apache.iceberg.data.parquet.GenericParquetWriter";
    Method create;
    try {
      create = Class.forName(writer).getMethod("create", Schema.class, MessageType.class);
    } catch (ReflectiveOperationException e) { // before 1.9
      Method build = staticMethod(writer, "buildWriter", MessageType.class);
      return builder.createWriterFunc((Function<MessageType, ParquetValueWriter<?>>) t -> (ParquetValueWriter<?>) call(build, t));
    }
    Method m = create;
    return builder.createWriterFunc((Function<MessageType, ParquetValueWriter<?>>) t -> (ParquetValueWriter<?>) call(m, schema, t));
  }

  private static Object call(Method m, Object... args) {
    try {
      return invoke(m, null, args);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new RuntimeException(e);
    }
  }

  private static Object invoke(Method m, Object target, Object... args) throws Exception {
    try {
      return m.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw rethrow(e);
    }
  }

  private static Object construct(Constructor<?> c, Object... args) {
    try {
      return c.newInstance(args);
    } catch (InvocationTargetException e) {
      throw rethrow(e);
    } catch (ReflectiveOperationException e) {
      throw new RuntimeException(e);
    }
  }

  private static RuntimeException rethrow(InvocationTargetException e) {
    Throwable cause = e.getCause();
    if (cause instanceof RuntimeException) {
      return (RuntimeException) cause;
    }
    return new RuntimeException(cause);
  }
}
