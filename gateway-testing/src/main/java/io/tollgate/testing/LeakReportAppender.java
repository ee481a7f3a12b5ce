package io.tollgate.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects the reports of Netty's {@code ResourceLeakDetector} so that a test can fail on them
 * instead of a leak scrolling by in a log nobody reads.
 */
public final class LeakReportAppender extends AppenderBase<ILoggingEvent> {

    private static final List<String> REPORTS = new ArrayList<>();

    @Override
    protected void append(ILoggingEvent event) {
        if (event.getLevel().isGreaterOrEqual(Level.ERROR) && event.getFormattedMessage().contains("LEAK")) {
            synchronized (REPORTS) {
                REPORTS.add(event.getFormattedMessage());
            }
        }
    }

    /** Returns the reports collected since the last call and forgets them. */
    static List<String> drain() {
        synchronized (REPORTS) {
            List<String> copy = new ArrayList<>(REPORTS);
            REPORTS.clear();
            return copy;
        }
    }
}
