/*
 * Times Iceberg Java's scan planning of a table's current snapshot, for benchmarks/bench_scale.py
 * (the table of N data files with deletes, benchmarks/scale_table.py).
 *
 * The table's metadata files (metadata JSON, manifest lists, manifests) are loaded into an
 * InMemoryFileIO first (not timed; planning reads no data file). Timed, as a reader plans: the
 * table loaded from its metadata file (StaticTableOperations), then newScan().planFiles() iterated
 * to the end, every task's delete files counted. Iceberg plans manifests on its worker pool, as a
 * scan does by default. Each repetition loads the table again.
 *
 * Output (stdout, one JSON object): {"seconds": [per repetition], "tasks": data files planned,
 * "deletes": delete files summed over the tasks, "peak_mib": the JVM's peak resident memory}.
 *
 * Usage: java -cp <engine classpath>:<these classes> org.apache.iceberg.TablePlanningBench METADATA REPEAT
 */
package org.apache.iceberg;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.apache.iceberg.shaded.com.fasterxml.jackson.databind.node.ObjectNode;

public final class TablePlanningBench {
  private TablePlanningBench() {}

  public static void main(String[] args) throws Exception {
    String location = args[0];
    int repeat = Integer.parseInt(args[1]);
    Path metadataDir = Paths.get(location.substring("file:".length())).getParent();
    InMemoryFileIO io = new InMemoryFileIO();
    List<Path> files;
    try (Stream<Path> listed = Files.list(metadataDir)) {
      files = listed.collect(Collectors.toList());
    }
    for (Path p : files) {
      io.addFile("file:" + p.toAbsolutePath(), Files.readAllBytes(p));
    }

    ObjectNode out = JsonNodeFactory.instance.objectNode();
    ArrayNode seconds = out.putArray("seconds");
    long tasks = 0;
    long deletes = 0;
    for (int r = 0; r < repeat; r++) {
      long started = System.nanoTime();
      Table table = new BaseTable(new StaticTableOperations(location, io), "bench");
      tasks = 0;
      deletes = 0;
      try (CloseableIterable<FileScanTask> planned = table.newScan().planFiles()) {
        for (FileScanTask task : planned) {
          tasks++;
          deletes += task.deletes().size();
        }
      }
      seconds.add((System.nanoTime() - started) / 1e9);
    }
    out.put("tasks", tasks);
    out.put("deletes", deletes);
    out.put("peak_mib", peakMib());
    System.out.println(out);
  }

  private static double peakMib() throws Exception {
    for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
      if (line.startsWith("VmHWM:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
      }
    }
    return -1;
  }
}
