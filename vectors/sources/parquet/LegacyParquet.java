import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
public class LegacyParquet {
  public static void main(String[] a) throws Exception {
    MessageType s = MessageTypeParser.parseMessageType(a[1]);
    ParquetWriter<Group> w = ExampleParquetWriter.builder(new Path(a[0])).withType(s).withConf(new Configuration()).build();
    SimpleGroupFactory f = new SimpleGroupFactory(s);
    Group g = f.newGroup();
    g.add("id", 1L);
    w.write(g);
    w.close();
  }
}
