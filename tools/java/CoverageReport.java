import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.jacoco.core.analysis.Analyzer;
import org.jacoco.core.analysis.CoverageBuilder;
import org.jacoco.core.analysis.IClassCoverage;
import org.jacoco.core.analysis.ICounter;
import org.jacoco.core.analysis.IMethodCoverage;
import org.jacoco.core.tools.ExecFileLoader;

/**
 * Prints JaCoCo branch and line coverage per class as a markdown table.
 * usage: java CoverageReport [--methods] <jacoco.exec> <classes dir or jar>...
 * With --methods, each class row is followed by one row per method with branches
 * (`class#name(desc)`), and the missed branches' line numbers.
 */
public class CoverageReport {
    public static void main(String[] args) throws IOException {
        boolean methods = args.length > 0 && args[0].equals("--methods");
        int first = methods ? 1 : 0;
        ExecFileLoader loader = new ExecFileLoader();
        loader.load(new File(args[first]));
        CoverageBuilder builder = new CoverageBuilder();
        Analyzer analyzer = new Analyzer(loader.getExecutionDataStore(), builder);
        for (int i = first + 1; i < args.length; i++) {
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
            if (methods) {
                for (IMethodCoverage m : c.getMethods()) {
                    ICounter mb = m.getBranchCounter();
                    if (mb.getTotalCount() == 0) {
                        continue;
                    }
                    StringBuilder missed = new StringBuilder();
                    for (int l = m.getFirstLine(); l <= m.getLastLine(); l++) {
                        int miss = m.getLine(l).getBranchCounter().getMissedCount();
                        if (miss > 0) {
                            missed.append(missed.length() == 0 ? "" : " ").append(l).append('x').append(miss);
                        }
                    }
                    System.out.printf("| %s#%s%s | %d/%d | %s | missed at lines: %s | |%n", c.getName().replace('/', '.'),
                            m.getName(), m.getDesc(), mb.getCoveredCount(), mb.getTotalCount(), pct(mb), missed);
                }
            }
        }
    }

    private static String pct(ICounter c) {
        if (c.getTotalCount() == 0) {
            return "n/a";
        }
        return String.format("%.1f", 100.0 * c.getCoveredCount() / c.getTotalCount());
    }
}
