package io.xdlink.cli.doctor;

import java.util.List;

/** One of doctor's checks. Reads the host, never writes, and reports what it saw rather than throwing. */
public interface Check {
    /** The check's name, the first part of every result id ({@code links}, {@code power}). */
    String name();

    /** At least one result: an {@code ok} line saying what was looked at when nothing is wrong. */
    List<CheckResult> run(Host host);
}
