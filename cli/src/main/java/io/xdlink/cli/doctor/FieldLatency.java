package io.xdlink.cli.doctor;

import java.util.List;
import java.util.Locale;

/**
 * The field's latency measurements (shared/spec/host.md, "Latency and power settings"): average ping in ms between
 * two hosts over three kinds of adapter, each row one more setting turned off on top of the row before. Doctor quotes
 * these numbers and no others: they are what a user with the same adapter can expect.
 */
final class FieldLatency {
    /** The adapters measured, in table order, with their article for sentences. */
    static final List<String> ADAPTERS = List.of("a USB 1GbE", "an onboard 2.5GbE", "a ConnectX-3");

    /**
     * One row.
     *
     * @param setting what was turned off in this row
     * @param ms      ping per adapter; NaN where the row did not apply (ConnectX-3 has no EEE)
     */
    record Row(String setting, double[] ms) {
    }

    static final Row DEFAULT = new Row("default", new double[] {0.578, 2.268, 0.355});
    static final Row C_STATES_OFF = new Row("C-states off", new double[] {0.239, 1.471, 0.070});
    static final Row EEE_OFF = new Row("EEE off", new double[] {0.156, 2.798, Double.NaN});
    static final Row ASPM_OFF = new Row("ASPM off", new double[] {0.145, 0.083, 0.052});
    static final List<Row> ROWS = List.of(DEFAULT, C_STATES_OFF, EEE_OFF, ASPM_OFF);

    private FieldLatency() {
    }

    /** What turning off {@code row}'s setting did, against the row before it: "from 0.578 to 0.239 ms on a ...". */
    static String effect(Row row) {
        int at = ROWS.indexOf(row);
        StringBuilder sb = new StringBuilder();
        for (int a = 0; a < ADAPTERS.size(); a++) {
            double before = Double.NaN;
            for (int r = at - 1; r >= 0 && Double.isNaN(before); r--) {
                before = ROWS.get(r).ms()[a];
            }
            double after = row.ms()[a];
            if (Double.isNaN(before) || Double.isNaN(after)) {
                continue;
            }
            sb.append(sb.isEmpty() ? "" : ", ").append(ms(before)).append(" to ").append(ms(after)).append(" ms on ")
                    .append(ADAPTERS.get(a));
        }
        return "in the field's measurements, turning " + row.setting() + " took ping from " + sb;
    }

    private static String ms(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }
}
