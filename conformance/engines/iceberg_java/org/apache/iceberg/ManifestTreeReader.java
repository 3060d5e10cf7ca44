/*
 * Reads a snapshot's manifest tree for the "read-manifest-tree" op.
 *
 * This class lives in package org.apache.iceberg because ManifestReader.entries()
 * and the ManifestEntry interface are package-private; they are the only way to
 * see each entry's status (DELETED entries included) and its snapshot id. The
 * Iceberg jar is not sealed, so a class of ours may join the package.
 *
 * Every value comes from Iceberg's own readers, i.e. after Iceberg's inheritance
 * of snapshot ids, sequence numbers and first row ids.
 */
package org.apache.iceberg;

import java.util.List;
import java.util.Map;

import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.ObjectNode;

public final class ManifestTreeReader {
  private ManifestTreeReader() {}

  /**
   * The tree reading of one snapshot (the current one when snapshotId is null).
   * files maps each path exactly as the tree spells it to the file's bytes.
   */
  public static ObjectNode read(Map<String, byte[]> files, String metadataLocation, Long snapshotId)
      throws Exception {
    // InMemoryFileIO keeps one JVM-wide store: add this case's files, and
    // always take them out again so the next case starts from nothing.
    InMemoryFileIO io = new InMemoryFileIO();
    try {
      files.forEach(io::addFile);
      return readTree(io, metadataLocation, snapshotId);
    } finally {
      for (String path : files.keySet()) {
        if (io.fileExists(path)) {
          io.deleteFile(path);
        }
      }
    }
  }

  private static ObjectNode readTree(InMemoryFileIO io, String metadataLocation, Long snapshotId)
      throws Exception {
    TableMetadata metadata = TableMetadataParser.read(io, metadataLocation);
    Snapshot snapshot =
        snapshotId == null ? metadata.currentSnapshot() : metadata.snapshot(snapshotId);
    if (snapshot == null) {
      throw new IllegalArgumentException(
          snapshotId == null ? "The table has no current snapshot" : "No snapshot with id " + snapshotId);
    }
    Map<Integer, PartitionSpec> specs = metadata.specsById();

    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("snapshot-id", snapshot.snapshotId());
    out.put("sequence-number", snapshot.sequenceNumber());
    ArrayNode manifestRows = out.putArray("manifests");
    ArrayNode entryRows = out.putArray("entries");
    List<ManifestFile> manifests = snapshot.allManifests(io);
    for (ManifestFile manifest : manifests) {
      ObjectNode m = manifestRows.addObject();
      m.put("manifest_path", manifest.path());
      m.put("partition_spec_id", manifest.partitionSpecId());
      m.put("content", manifest.content().id());
      m.put("sequence_number", manifest.sequenceNumber());
      m.put("min_sequence_number", manifest.minSequenceNumber());
      m.put("added_snapshot_id", manifest.snapshotId());
      m.put("first_row_id", Compat.optionalLong(manifest, "firstRowId"));
      // A data reader refuses a delete manifest and the other way round.
      if (manifest.content() == ManifestContent.DATA) {
        try (ManifestReader<DataFile> reader = ManifestFiles.read(manifest, io, specs)) {
          addEntries(entryRows, manifest.path(), reader.entries());
        }
      } else {
        try (ManifestReader<DeleteFile> reader = ManifestFiles.readDeleteManifest(manifest, io, specs)) {
          addEntries(entryRows, manifest.path(), reader.entries());
        }
      }
    }
    return out;
  }

  /** One row per entry, in file order; DELETED entries included. */
  private static <F extends ContentFile<F>> void addEntries(
      ArrayNode rows, String manifestPath, CloseableIterable<ManifestEntry<F>> entries)
      throws Exception {
    try (CloseableIterable<ManifestEntry<F>> closing = entries) {
      for (ManifestEntry<F> entry : closing) {
        // The reader reuses the entry object: copy every value out right away.
        F file = entry.file();
        ObjectNode e = rows.addObject();
        e.put("manifest_path", manifestPath);
        e.put("status", entry.status().id());
        e.put("content", file.content().id());
        e.put("file_path", file.location());
        e.put("record_count", file.recordCount());
        e.put("snapshot_id", entry.snapshotId());
        e.put("sequence_number", entry.dataSequenceNumber());
        e.put("file_sequence_number", entry.fileSequenceNumber());
        e.put("first_row_id", Compat.optionalLong(file, "firstRowId"));
      }
    }
  }
}
