package alpha.data;

import java.io.File;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * Dragon-Alpha v1.2's FileFolder: {@link #init()} lists root_dir's sub-directories; labels = {dir name: index} in
 * name order (unless given), and every file below a labelled dir becomes (file, label), in file-name order.
 */
public class FileFolder extends ListContainer<File, Integer> {
    private final File root_dir;
    private Map<String, Integer> labels;
    private boolean inited;

    /**
     * A FileFolder over {@code root_dir}.
     *
     * @param root_dir an existing directory
     * @param labels dir name to label, or null for name order
     */
    public FileFolder(File root_dir, Map<String, Integer> labels) {
        super(File.class, Integer.class, 2048);
        if (!root_dir.isDirectory()) throw new IllegalArgumentException("root_dir { " + root_dir + " } does not exist or is not a directory");
        this.root_dir = root_dir;
        this.labels = labels;
    }

    /** @return the root directory */
    public File root_dir() { return root_dir; }

    /** @return dir name to label (set by init() unless given) */
    public Map<String, Integer> label_map() { return labels; }

    /**
     * The label of a class directory.
     *
     * @param dir_name the directory's name
     * @return its label
     */
    public Integer label(String dir_name) { return labels.get(dir_name); }

    /**
     * Lists the files (once).
     *
     * @return this folder
     */
    public synchronized FileFolder init() {
        if (inited) return this;
        File[] dirs = root_dir.listFiles(File::isDirectory);
        Arrays.sort(dirs, (a, b) -> a.getName().compareTo(b.getName()));
        if (labels == null || labels.isEmpty()) {
            labels = new TreeMap<>();
            for (int i = 0; i < dirs.length; i++) labels.put(dirs[i].getName(), i);
        }
        for (File d : dirs) {
            Integer label = labels.get(d.getName());
            if (label == null) continue;
            File[] files = d.listFiles(File::isFile);
            Arrays.sort(files, (a, b) -> a.getName().compareTo(b.getName()));
            for (File f : files) add(f, label);
        }
        inited = true;
        return this;
    }
}
