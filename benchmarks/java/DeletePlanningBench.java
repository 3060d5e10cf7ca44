/*
 * Times Iceberg Java's DeleteFileIndex on a whole snapshot's files, for benchmarks/bench_planning.py.
 *
 * Input: a file in the "plan-deletes" op's form ({"specs", "data-files", "delete-files"}; partition
 * values are ints), turned into Iceberg's DataFile and DeleteFile objects by the engine's own
 * DeletePlanner (not timed). Timed, as a scan plans: DeleteFileIndex.builderFor(deletes).build(),
 * then forDataFile(dataSequenceNumber, file) for every data file. Each repetition builds a new index.
 *
 * Output (stdout, one JSON object): {"seconds": [per repetition], "counts": [delete files per data
 * file, in input order]}.
 *
 * Usage: java -cp <engine classpath>:<these classes> org.apache.iceberg.DeletePlanningBench FILE REPEAT
 */
package org.apache.iceberg;

import java.io.File;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.JsonNode;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.iceberg.types.Type;

public final class DeletePlanningBench {
  private DeletePlanningBench() {}

  private static final BiFunction<Type, JsonNode, Object> INTS =
      (type, node) -> node == null || node.isNull() ? null : (Object) node.intValue();

  public static void main(String[] args) throws Exception {
    JsonNode input = new ObjectMapper().readTree(new File(args[0]));
    int repeat = Integer.parseInt(args[1]);
    Map<Integer, PartitionSpec> specsById = new HashMap<>();
    for (JsonNode specJson : input.get("specs")) {
      PartitionSpec spec = PartitionSpecParser.fromJson(DeletePlanner.SCHEMA, specJson);
      specsById.put(spec.specId(), spec);
    }
    List<DeleteFile> deletes = new ArrayList<>();
    for (JsonNode f : input.get("delete-files")) {
      deletes.add(DeletePlanner.deleteFile(f, specsById, INTS));
    }
    List<DataFile> data = new ArrayList<>();
    for (JsonNode f : input.get("data-files")) {
      data.add(DeletePlanner.dataFile(f, specsById, INTS));
    }

    ObjectNode out = JsonNodeFactory.instance.objectNode();
    ArrayNode seconds = out.putArray("seconds");
    int[] counts = new int[data.size()];
    for (int r = 0; r < repeat; r++) {
      long started = System.nanoTime();
      DeleteFileIndex index = DeleteFileIndex.builderFor(deletes).specsById(specsById).build();
      for (int i = 0; i < counts.length; i++) {
        DataFile file = data.get(i);
        counts[i] = index.forDataFile(file.dataSequenceNumber(), file).length;
      }
      seconds.add((System.nanoTime() - started) / 1e9);
    }
    ArrayNode countList = out.putArray("counts");
    for (int c : counts) {
      countList.add(c);
    }
    System.out.println(out);
  }
}
