package io.tollgate.benchmarks.xds;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One Prometheus scrape of the gateway ({@code /stats/prometheus}): its samples, to be summed by name and labels. */
public record Scrape(List<Sample> samples) {

    private static final Pattern LINE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? (\\S+)$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    /** A sample: a metric name, its labels and its value. */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    public static Scrape parse(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            Matcher sample = LINE.matcher(line);
            if (line.startsWith("#") || !sample.matches()) {
                continue;
            }
            Map<String, String> labels = new HashMap<>();
            if (sample.group(2) != null) {
                Matcher label = LABEL.matcher(sample.group(2));
                while (label.find()) {
                    labels.put(label.group(1), label.group(2));
                }
            }
            samples.add(new Sample(sample.group(1), labels, Double.parseDouble(sample.group(3))));
        }
        return new Scrape(List.copyOf(samples));
    }

    /** The sum of the samples named {@code name} whose labels pass {@code labels}. */
    public double sum(String name, Predicate<Map<String, String>> labels) {
        return samples.stream().filter(s -> s.name.equals(name) && labels.test(s.labels)).mapToDouble(Sample::value).sum();
    }

    /** The largest sample named {@code name}; 0 when there is none. */
    public double max(String name) {
        return samples.stream().filter(s -> s.name.equals(name)).mapToDouble(Sample::value).max().orElse(0);
    }
}
