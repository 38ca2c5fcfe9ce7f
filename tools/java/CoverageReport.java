import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.jacoco.core.analysis.Analyzer;
import org.jacoco.core.analysis.CoverageBuilder;
import org.jacoco.core.analysis.IClassCoverage;
import org.jacoco.core.analysis.ICounter;
import org.jacoco.core.tools.ExecFileLoader;

/**
 * Prints JaCoCo branch and line coverage per class as a markdown table.
 * usage: java CoverageReport <jacoco.exec> <classes dir or jar>...
 */
public class CoverageReport {
    public static void main(String[] args) throws IOException {
        ExecFileLoader loader = new ExecFileLoader();
        loader.load(new File(args[0]));
        CoverageBuilder builder = new CoverageBuilder();
        Analyzer analyzer = new Analyzer(loader.getExecutionDataStore(), builder);
        for (int i = 1; i < args.length; i++) {
            analyzer.analyzeAll(new File(args[i]));
        }
        List<IClassCoverage> classes = new ArrayList<>(builder.getClasses());
        classes.sort((a, b) -> a.getName().compareTo(b.getName()));
        System.out.println("| class | branches covered | branch % | lines covered | line % |");
        System.out.println("|---|---:|---:|---:|---:|");
        for (IClassCoverage c : classes) {
            ICounter br = c.getBranchCounter();
            ICounter ln = c.getLineCounter();
            System.out.printf("| %s | %d/%d | %s | %d/%d | %s |%n", c.getName().replace('/', '.'),
                    br.getCoveredCount(), br.getTotalCount(), pct(br), ln.getCoveredCount(), ln.getTotalCount(), pct(ln));
        }
    }

    private static String pct(ICounter c) {
        if (c.getTotalCount() == 0) {
            return "n/a";
        }
        return String.format("%.1f", 100.0 * c.getCoveredCount() / c.getTotalCount());
    }
}
